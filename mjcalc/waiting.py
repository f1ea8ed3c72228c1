"""Waits of a hand one tile short: the tiles that complete it, how many are unseen, what each would score
self-drawn and on a discard; for a hand that is not ready, how far it is (shanten)."""

from __future__ import annotations

from typing import Any

from .core import tiles as T
from .engine import Request, Result, WaitScore, score_line, score_with_tile
from .core.readings.shanten import shanten


class WaitReport:  # a plain class: a dataclass's methods are compiled from source when the module is imported
    __slots__ = ("result", "shanten", "waits", "wild_draw")

    def __init__(self, result: Result, shanten: int | None = None,
                 waits: list[tuple[WaitScore, WaitScore]] | None = None, wild_draw: WaitScore | None = None) -> None:
        self.result = result  # the line read as a waiting hand (or the error / the complete hand)
        self.shanten = shanten
        self.waits: list[tuple[WaitScore, WaitScore]] = [] if waits is None else waits  # (self-drawn, on a discard)
        self.wild_draw = wild_draw  # drawing the treasure / a wildcard, self-drawn (it is never discarded)


def analyse(text: str, request: Request | None = None) -> WaitReport:
    """Read a line one tile short and work out its waits under both ways of winning."""
    result = score_line(text, request or Request(), with_wait_scores=False)
    report = WaitReport(result)
    if result.result != "waiting" or result.ruleset is None or result.hand is None or result.ctx is None:
        return report
    rules, hand, ctx = result.ruleset, result.hand, result.ctx
    report.shanten = shanten_of(result)
    self_ctx = ctx.replace(zimo=True, discarder=None)
    discard_ctx = ctx if not ctx.zimo else ctx.replace(zimo=False, discarder=T.next_seat(ctx.seat, 2))
    for tile in result.waits:
        report.waits.append((score_with_tile(rules, result.options, hand, self_ctx, tile),
                             score_with_tile(rules, result.options, hand, discard_ctx, tile)))
    for zimo in called_set_waits(result, self_ctx):
        report.waits.append((zimo, score_with_tile(rules, result.options, hand, discard_ctx, zimo.tile)))
        report.shanten = 0
    report.waits.sort(key=lambda pair: pair[0].tile)
    if report.waits:
        report.wild_draw = wild_draw(result, self_ctx)
    return report


def called_set_waits(result: Result, self_ctx: Any) -> list[WaitScore]:
    """The self-drawn wins of a waiting hand whose winning tile completes a special set in hand (Meihe's 中发白
    叫胡, kinds with ``last_set``), which are no shape waits; the kinds the shape waits have are left out."""
    rules, hand = result.ruleset, result.hand
    assert rules is not None and hand is not None
    kinds = {k for sk in rules.tile_rules.special_kongs if sk.last_set for k in sk.core} - set(result.waits)
    found = [score_with_tile(rules, result.options, hand, self_ctx, kind) for kind in sorted(kinds)]
    return [w for w in found if w.result is not None and w.result.best is not None]


def shanten_of(result: Result) -> int | None:
    """How many tiles a waiting hand (one tile short) is from ready: 0 when some tile completes it."""
    if result.result != "waiting" or result.hand is None or result.ruleset is None or result.ctx is None:
        return None
    hand = result.hand
    if result.waits or called_set_waits(result, result.ctx.replace(zimo=True, discarder=None)):
        return 0
    return shanten(list(hand.concealed), len(hand.melds), hand.sets, result.ruleset.forms)


def wild_draw(result: Result, self_ctx: Any) -> WaitScore | None:
    """A ready hand that draws the wildcard of its ruleset's provider: the treasure (``+bao``, won as 摸宝)
    or the 会牌 (``+hui`` / ``+flip``), which stands for the best wait; None where there is none."""
    rules, hand = result.ruleset, result.hand
    assert rules is not None and hand is not None
    if rules.wildcard == "treasure" and self_ctx.bao is not None and "mobao" in rules.flags:
        return score_with_tile(rules, result.options, hand, self_ctx.replace(mobao=True), self_ctx.bao)
    if rules.wildcard == "hui":
        kind = T.next_kind(self_ctx.flip) if self_ctx.flip is not None else self_ctx.hui
        if kind is not None:
            return score_with_tile(rules, result.options, hand, self_ctx, kind)
    return None


def report_json(report: WaitReport, lang: str = "en") -> dict[str, Any]:
    """The JSON of ``mjcalc waits --json``; its messages in ``lang``."""
    from .i18n import tr
    from .record import to_json

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
