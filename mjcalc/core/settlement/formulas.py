"""The per-payer formulas by name (``formula.kind``): each takes a payer's total (fan, tai) and the bound
parameters and gives the amount with its arithmetic written out, so that the output can show it. Registered in
mjcalc.registry.FORMULAS; a family whose payments follow other rules registers a settler instead (hooks/)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ...errors import MjcalcError
from ...i18n import Msg
from ...registry import FORMULA_NEEDS, FORMULAS
from ...support.memo import remember

Formula = Callable[[int, Mapping[str, Any]], tuple[int, str]]


MAX_POWER: Final = 1000  # rules/SCHEMA.md: the exponential formula's fan − start


def exponential(fan: int, params: Mapping[str, Any]) -> tuple[int, str]:
    """base × 2^(fan − start): 2^(fan−1) × base in the north-eastern rules, 2^fan × base with start 0."""
    start, base = int(params.get("start", 1)), int(params["base"])
    power = fan - start
    if power < 0:
        return 0, Msg("{fan} fan is below the {start} that pays", fan=fan, start=start)
    if power > MAX_POWER:  # a ruleset's values can add up to any fan; 2^power must stay a number one can print
        raise MjcalcError("ruleset", Msg("{fan} fan is more than the exponential formula pays (fan − start at most "
                                          "{most}): the ruleset's item values add up too high", fan=fan,
                                          most=MAX_POWER))
    shown = f"2^{fan}" if start == 0 else f"2^({fan}−{start})"
    return base * 2**power, f"{shown} × {base} = {base * 2**power}"


def additive(fan: int, params: Mapping[str, Any]) -> tuple[int, str]:
    """base + per_fan × fan: MCR's 8 + fan (a payer who pays no fan pays the base alone), the 16-tile rules'
    底 + 台 × 台钱. Remembered by the parameters (the settler's own mapping, kept with it) and the fan: a batch
    pays the same few amounts again and again."""
    # By the parameters, then by the fan: two look-ups by an int, no key tuple to make and hash for each payer.
    mine = _ADDITIVE.get(id(params))
    if mine is None or mine[0] is not params:
        mine = remember(_ADDITIVE, id(params), (params, {}), 256)
    by_fan = mine[1]
    found = by_fan.get(fan)
    if found is None:
        found = remember(by_fan, fan, _additive(fan, params), 4096)
    return found


_ADDITIVE: Final[dict[int, tuple[Mapping[str, Any], dict[int, tuple[int, str]]]]] = {}


def _additive(fan: int, params: Mapping[str, Any]) -> tuple[int, str]:
    base, per_fan = int(params["base"]), int(params.get("per_fan", 1))
    amount = base + per_fan * fan
    if not fan:
        return amount, f"{base}"
    shown = f"{fan}" if per_fan == 1 else f"{fan} × {per_fan}"
    return amount, f"{base} + {shown} = {amount}"


def _formula(kind: str, fan: int, params: Mapping[str, Any]) -> tuple[int, str]:
    """``FORMULAS[kind](fan, params)``, each known formula called directly: a function held as a value is called
    as a Python object."""
    if kind == "additive":
        return additive(fan, params)
    if kind == "exponential":
        return exponential(fan, params)
    return FORMULAS[kind](fan, params)


FORMULAS["exponential"] = exponential
FORMULAS["additive"] = additive
FORMULA_NEEDS["exponential"] = {"params": ("base",)}
FORMULA_NEEDS["additive"] = {"params": ("base",)}
