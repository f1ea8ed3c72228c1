"""The registries: every name a ruleset file or a line can use that code supplies — predicates, formulas,
settlers, kong finders, wildcard providers, flags and the checks that go with them — and what a family of
rulesets adds for the front ends (homework hypotheses and facts, how a table shows a total).

A leaf: it imports nothing of mjcalc, so that the modules that define these (``predicates/``, ``hooks/``, the
core's own formulas and flags) register here when they are imported, and the modules that read them (the
engine, the loader, the front ends) find them here, without an import cycle between the two. Who fills each
table is said beside it; ``mjcalc.ruleset.loader`` imports ``mjcalc.hooks`` (every family) before it reads a
ruleset file, so by then every table is full.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

# --- what ruleset files name ---------------------------------------------------------------------------
# Predicates by name (``when:``), ``<family>.<name>`` for a family's own: mjcalc.predicates.binding's decorators.
PREDICATES: Final[dict[str, Callable[..., Any]]] = {}
# Each predicate's declared gate (facts.py) and whether it is exact, by the function itself (``needs``).
PREDICATE_GATES: Final[dict[Callable[..., Any], tuple[Any, bool]]] = {}
# The parameters a ``when:`` may give each predicate, by predicate name: bool, int, str, a tuple of words, or a
# function returning the words (``params``). A predicate without parameters has no entry.
PREDICATE_PARAMS: Final[dict[str, dict[str, Any]]] = {}
# The tally that counts a tallied predicate with others, by the predicate itself (``tallied``).
TALLIES: Final[dict[Callable[..., Any], Callable[..., Any]]] = {}
# Bound predicates (and any / all / not of them) whose answer a reading's facts decide: the facts it reads and
# the answer from them (mjcalc.predicates.binding writes it when it binds; core.scoring reads it).
DECIDED: Final[dict[object, tuple[int, Callable[[int], bool]]]] = {}
# Per-payer formulas by ``formula.kind`` (core.settlement.formulas), and settlers of their own for families
# whose payments follow other rules (hooks/riichi.py).
FORMULAS: Final[dict[str, Callable[..., Any]]] = {}
SETTLERS: Final[dict[str, Callable[..., Any]]] = {}
# What a formula kind cannot do without: parameters of ``formula:`` and options of the ruleset, by kind.
FORMULA_NEEDS: Final[dict[str, dict[str, tuple[str, ...]]]] = {}
# Kongs that no meld declares, by ``<family>.<name>`` (``kongs: {…: {found_by: NAME}}``: hooks/meihe.py).
KONG_FINDERS: Final[dict[str, Callable[..., Any]]] = {}
# Which tiles are wild, by the ruleset's ``wildcard:`` (a provider each, asked by core.readings.wildcards.wildcards:
# hooks/changchun.py ``treasure``, hooks/meihe.py ``hui``).
WILDCARD_PROVIDERS: Final[dict[str, Any]] = {}

# --- what lines say: flags ------------------------------------------------------------------------------
# Every flag a line can carry (a core.context.FlagDef each), the generic ones (core/context.py) and each family's
# (hooks/): written by core.context.declare_flags only, which keeps the context's tables in step.
FLAGS: Final[list[Any]] = []
# Checks of a flag against the hand (core.context.HandCheck), in the order they are asked: declare_hand_check.
HAND_CHECKS: Final[list[Any]] = []
# Checks of a flag's value against the rest of the context (the flag, a function of the winner's seat and the
# value giving what is wrong or None), asked before the generic ones: declare_context_check.
CONTEXT_CHECKS: Final[list[tuple[str, Callable[[str, object], str | None]]]] = []
# Checks of a scored hand against a flag the line gave (the flag, and a function that raises MjcalcError), after
# the best reading is found: hooks/riichi.py's +pao (a liable player needs an item to be liable for).
RESULT_CHECKS: Final[list[tuple[str, Callable[..., None]]]] = []

# --- what the front ends ask of a family ------------------------------------------------------------------
# The steps a settlement can be asked to do another way (``params["what_if"]``, the homework checker's), by key,
# each with what it does: the core's own (core/settlement/payments.py) and each settler's (hooks/riichi.py).
WHAT_IF: Final[dict[str, str]] = {}
# The ways a student may have reached wrong points, by formula kind: a function (result, resettle, given, student
# awards, lang) -> hypotheses (core.settlement.whatif.Hypothesis); kinds without one get the per-payer ones.
HOMEWORK_HYPOTHESES: Final[dict[str, Callable[..., list[Any]]]] = {}
# Facts of a hand in words that a family adds for the homework checker, by name: a function (context, lang) -> text.
HOMEWORK_FACTS: Final[dict[str, Callable[[Any, str], str]]] = {}
# The facts of a hand that explain an item, by the words of its ``when`` (a predicate's name, or another word
# it is written with): names of the homework checker's facts ("win", "waits", "draw" …, or HOMEWORK_FACTS');
# "reading" adds the reading kept. A word without an entry shows the reading (``@explained_by``).
EXPLAINED_BY: Final[dict[str, tuple[str, ...]]] = {}
# How a table shows a hand's total instead of its number, by formula kind: a function (awards, total) -> the
# words, or None to show the number (hooks/riichi.py: a yakuman hand is shown as its limit).
TOTAL_SHOWN: Final[dict[str, Callable[[Any, int], str | None]]] = {}
