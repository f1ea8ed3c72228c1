"""How a table shows a hand's total (fan, tai, han): the number, or what the ruleset's formula kind shows instead
(mjcalc.registry.TOTAL_SHOWN: a riichi yakuman hand as its limit, ``double yakuman``)."""

from __future__ import annotations

from typing import Any

from ..registry import TOTAL_SHOWN


def total_shown(rules: Any, awards: Any, total: int) -> str | None:
    """What a table shows instead of a total of the ruleset's unit, when its formula kind says (a text of the
    catalog: mjcalc.registry.TOTAL_SHOWN, riichi's yakuman limits), else None: the number."""
    shown = TOTAL_SHOWN.get(str(rules.formula.get("kind"))) if rules is not None else None
    return None if shown is None else shown(awards, total)
