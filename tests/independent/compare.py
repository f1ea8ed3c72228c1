"""Run one situation through mjcalc (black box) and the reference; return both in the same shape."""

from __future__ import annotations

from mjcalc.engine import Request, score_line
from mjcalc.output.record import to_json


def mjcalc_summary(line: str, options: dict, rules: str = "changchun") -> dict:
    out = to_json(score_line(line, Request(rules=rules, options=options), with_wait_scores=False))
    if out["result"] != "win":
        return {"result": out["result"], "error": out.get("error")}
    pay: dict[str, int] = {}
    for p in out["payments"]:
        pay[p["payer"]] = pay.get(p["payer"], 0) + p["amount"]
    kong: dict[str, int] = {}
    for p in out["kong_payments"]:
        kong[p["payer"]] = kong.get(p["payer"], 0) + p["amount"]
    return {"result": "win", "fan": out["fan"], "payments": pay, "kong": kong, "net": out["net"],
            "points": out["points"]}


def ref_summary(res) -> dict:
    if res.result != "win":
        return {"result": res.result}
    return {"result": "win", "fan": res.fan, "payments": {p: a for p, a in res.payments.items() if a},
            "kong": {p: a for p, a in res.kong.items() if a}, "net": res.net, "points": res.points}


def same(a: dict, b: dict) -> bool:
    if a["result"] != b["result"]:
        return False
    if a["result"] != "win":
        return True
    strip = lambda d: {k: v for k, v in d.items() if v}  # noqa: E731
    return (a["fan"] == b["fan"] and strip(a["payments"]) == strip(b["payments"])
            and strip(a["kong"]) == strip(b["kong"]) and a["net"] == b["net"] and a["points"] == b["points"])
