"""A wrong number of an answer and its explanations (``Why``), and the one difference said for it: the explanation
that reproduces it most directly, the others that reproduce it too as "or" (``_choose``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final


@dataclass
class Difference:
    """One wrong number (or item) of the answer, explained once: the explanation that reproduces it most directly,
    and the others that reproduce it too (``alternatives``: cause and text, shown as "or …")."""

    field: str  # result | fan | fu | points | items
    kind: str  # not_a_win | is_a_win | missed | not_applicable | wrong_value | unknown_item | wrong | formula
    message: str
    cause: str = "arithmetic"  # one of CAUSES
    alternatives: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # (cause, text)

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "kind": self.kind, "cause": self.cause, "message": self.message,
                "or": [{"cause": c, "message": m} for c, m in self.alternatives]}


@dataclass
class Why:
    """One explanation of a wrong number: what reproduces the student's figure, and how directly."""

    cause: str
    message: str  # the text when it is the explanation given
    short: str = ""  # the text under "or" (the message when empty)
    cost: int = 1  # the mistakes it needs beyond the student's other wrong numbers (0: it carries one through)
    prio: int = 5  # between explanations of equal cost and support: the lower first
    follows: tuple[str, ...] = ()  # the student's own wrong numbers it carries through: fan, fu, items
    inherit: bool = False  # its cause is the cause of the numbers it follows (the points of the student's fan)
    carries: bool = True  # a fan / fu explained so gives the points of that fan / fu on every payer
    generic: bool = False  # "you wrote 5, it is 4": said when nothing else explains it, never as an "or"
    same: tuple[str, ...] = ()  # the payments it settles: two explanations that settle the same are said once


@dataclass
class Wrong:
    """A wrong number of the answer (one item, the fan, the fu, the points) and its explanations."""

    field: str
    kind: str
    whys: list[Why]


# The causes of a wrong item, the most telling first: a fan or points that follow from the items take one.
ITEM_CAUSES: Final = ("not_applicable", "excluded", "wrong_value", "missed_item", "payer_item_missed")


def _choose(wrongs: list[Wrong]) -> list[Difference]:
    """One difference per wrong number. Its explanation is the one of fewest mistakes beyond the student's other
    wrong numbers; then the one whose cause explains most of the wrong numbers at once; then the one linked to
    the student's own numbers; then the more specific (``Why.prio``). The others that reproduce it are its "or"."""
    items = [w for w in wrongs if w.field in ("items", "result")]
    picked: dict[str, Why] = {}
    out: dict[int, Difference] = {}
    for w in items:
        out[id(w)] = _pick(w, w.whys, {})
    counts: dict[str, int] = {}
    for w in items:
        cause = out[id(w)].cause
        if cause in ITEM_CAUSES:
            counts[cause] = counts.get(cause, 0) + 1
    items_cause = max(counts, key=lambda c: (counts[c], -ITEM_CAUSES.index(c))) if counts else "wrong_fan"
    numbers = {w.field: w for w in wrongs if w.field in ("fan", "fu")}
    for w in wrongs:  # an explanation by the student's items takes their cause
        for y in w.whys:
            if y.inherit and y.follows == ("items",):
                y.cause, y.inherit = items_cause, False
    support: dict[str, int] = {}
    for w in wrongs:
        mine: set[str] = set()
        for y in w.whys:
            if not y.inherit:
                mine.add(y.cause)
            for f in y.follows:
                if f == "items":
                    mine.add(items_cause)
                elif f in numbers:
                    mine |= {z.cause for z in numbers[f].whys if z.carries and not z.inherit}
        for cause in mine:
            support[cause] = support.get(cause, 0) + 1
    for name in ("fan", "fu"):
        if name in numbers:
            w = numbers[name]
            out[id(w)] = _pick(w, w.whys, support)
            picked[name] = w.whys[0]
    for w in wrongs:
        if id(w) in out:
            continue
        for y in w.whys:
            if y.inherit:  # the points of the student's fan: the cause of that fan, if its explanation carries
                y.cause = next((picked[f].cause for f in y.follows if f in picked and picked[f].carries),
                               y.cause)
        out[id(w)] = _pick(w, w.whys, support)
    return [out[id(w)] for w in wrongs]


def _pick(w: Wrong, whys: list[Why], support: Mapping[str, int]) -> Difference:
    """``w``'s explanations ranked (the first one kept first in ``whys``): the difference it makes."""
    order = sorted(range(len(whys)), key=lambda i: (whys[i].cost, -support.get(whys[i].cause, 0),
                                                    not whys[i].follows, whys[i].prio, i))
    whys[:] = [whys[i] for i in order]
    first = whys[0]
    texts, settled = {first.short or first.message}, {first.same}
    alternatives: list[tuple[str, str]] = []
    for y in whys[1:]:
        text = y.short or y.message
        if y.generic or text in texts or (y.same and y.same in settled):
            continue
        texts.add(text)
        settled.add(y.same)
        alternatives.append((y.cause, text))
    return Difference(w.field, w.kind, first.message, first.cause, alternatives)
