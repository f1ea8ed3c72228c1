"""A settlement asked what if one step were done another way — the homework checker's way of tracing a wrong
total to its step: ``Change`` (other awards, options, formula parameters, or the ``what_if`` steps a settler
reads: mjcalc.registry.WHAT_IF) and ``Hypothesis`` (a way a student may have reached their points: a change and
what it explains). A family whose settler has steps of its own brings its hypotheses (hooks/riichi.py);
imported only when answers are checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .payments import Award


@dataclass(frozen=True, eq=False)
class Change:
    """One step of the settlement done another way: other awards, options, formula parameters or ``what_if``
    (mjcalc.registry.WHAT_IF). Two changes of different steps make one (a wrong fan and a cap missed)."""

    awards: tuple[Award, ...] | None = None
    options: Mapping[str, Any] | None = None
    params: tuple[tuple[str, Any], ...] = ()
    what_if: tuple[tuple[str, Any], ...] = ()

    def plus(self, other: Change) -> Change | None:
        if (self.awards is not None and other.awards is not None) or (self.options and other.options) \
                or {k for k, _ in self.params} & {k for k, _ in other.params} \
                or {k for k, _ in self.what_if} & {k for k, _ in other.what_if}:
            return None
        return Change(self.awards if other.awards is None else other.awards, self.options or other.options,
                      self.params + other.params, self.what_if + other.what_if)


@dataclass(frozen=True)
class Hypothesis:
    """A way the student may have reached their points: the settlement done with one step changed."""

    causes: tuple[str, ...]  # the first is the cause it names
    why: str
    change: Change
    role: str  # given (the student's own fan, fu or items) | payer | step | search (a fan or fu they did not write)
    follows: tuple[str, ...] = ()  # given: the student's numbers it carries through (fan, fu, items)
    prio: int = 5  # Why.prio
    cost: int = 1  # Why.cost: 0 for the student's own numbers carried through, with no step of its own

    @property
    def inherit(self) -> bool:
        return self.role == "given" and self.cost == 0
