"""The JSON of ``mjcalc waits --json`` (docs/OUTPUT.md): each waiting tile, how many are unseen, what it scores
self-drawn and on a discard; else the shanten."""

from __future__ import annotations

from typing import Any

from ..core import tiles as T
from ..core.result import WaitScore
from ..engine import WaitReport
from ..i18n import tr
from .record import to_json


def report_json(report: WaitReport, lang: str = "en") -> dict[str, Any]:
    """The JSON of ``mjcalc waits --json``; its messages in ``lang``."""
    out: dict[str, Any] = {"input": report.result.input, "result": report.result.result,
                           "ruleset": report.result.ruleset.id if report.result.ruleset else None}
    if report.result.result != "waiting":
        full = to_json(report.result, lang)
        out["error"] = full.get("error")
        if report.result.result in ("win", "not_a_win"):
            out["message"] = tr("the hand is complete: remove the winning tile to list its waits", lang)
        return out
    out["hand"] = report.result.hand.text() if report.result.hand else None
    out["shanten"] = report.shanten
    out["waits"] = [
        {"tile": T.name(zimo.tile), "unseen": zimo.unseen, "self_drawn": _outcome(zimo, lang),
         "discard": _outcome(ron, lang)}
        for zimo, ron in report.waits
    ]
    if report.wild_draw is not None:  # the treasure / wildcard drawn: self-drawn only
        w = report.wild_draw
        out["wild_draw"] = {"tile": T.name(w.tile), "unseen": w.unseen, "wildcard": report.result.ruleset.wildcard
                            if report.result.ruleset else None, "self_drawn": _outcome(w, lang)}
    return out


def _outcome(ws: WaitScore, lang: str) -> dict[str, Any]:
    res = ws.result
    if res is None:
        return {"result": None}
    if res.best is None:
        out: dict[str, Any] = {"result": res.result, "failed_conditions": [c.id for c in res.failed],
                               "error": res.error.render(lang) if res.error else None}
        reached = [c.reached for c in res.failed if c.reached is not None]
        if reached:  # short of a minimum (MCR's 8 fan): what the hand reached toward it
            out["fan"] = reached[0]
        return out
    s = res.best.settlement
    return {"result": "win", "fan": s.fan, "points": s.points, "items": [a.item.id for a in res.best.awards],
            **({"fu": s.fu} if s.fu is not None else {})}
