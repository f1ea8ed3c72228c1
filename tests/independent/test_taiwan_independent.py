"""Independent cross-check of Taiwan 16-tile (presets taiwan and taiwan-common): mjcalc (black box)
against taiwan_ref, written from spec/rules/taiwan.md alone.

Seeded situations (gen_taiwan.py) are scored by both; result, fan, each payer's payment, net and points
must agree, and a 16-tile hand's waits.  Disagreements are reported in notes/taiwan-disagreements.md.
"""

from __future__ import annotations

import collections
import itertools

import pytest
import taiwan_ref
from compare import ref_summary, same
from gen_taiwan import situations

from mjcalc.engine import Request, score_line
from mjcalc.output.record import to_json

pytestmark = pytest.mark.independent

SEED = 20261201
COUNT = 3000
SITUATIONS = situations(COUNT, SEED)


def mjcalc_summary(line: str, options: dict, rules: str) -> dict:
    out = to_json(score_line(line, Request(rules=rules, options=options), with_wait_scores=False))
    if out["result"] == "waiting":
        return {"result": "waiting", "waits": sorted(out.get("waits") or [])}
    if out["result"] != "win":
        return {"result": out["result"], "error": out.get("error")}
    pay: dict[str, int] = {}
    for p in out["payments"]:
        pay[p["payer"]] = pay.get(p["payer"], 0) + p["amount"]
    return {"result": "win", "fan": out["fan"], "payments": pay, "kong": {}, "net": out["net"],
            "points": out["points"]}


def ref_view(res) -> dict:
    if res.result == "waiting":
        return {"result": "waiting", "waits": sorted(taiwan_ref.name(k) for k in res.waits)}
    return ref_summary(res)


def agree(ours: dict, ref: dict) -> bool:
    if ours["result"] == "waiting" and ref["result"] == "waiting":
        return ours["waits"] == ref["waits"]
    return same(ours, ref)


CASES = [pytest.param(line, options, rules, id=f"{rules}-{i}") for i, (line, options, rules) in enumerate(SITUATIONS)]


# interpretation switch -> why mjcalc's output differs from the reference's reading, while the question is
# open in notes/taiwan-disagreements.md (a disagreement the switch explains is an expected failure).
KNOWN: dict[str, str] = {}   # none open: mjcalc agrees with the reference's reading on every situation


@pytest.mark.parametrize(("line", "options", "rules"), CASES)
def test_situation(line, options, rules):
    ours = mjcalc_summary(line, options, rules)
    assert ours["result"] in ("win", "not_a_win", "waiting"), f"generator wrote an unusable line: {line} -> {ours}"
    ref = ref_view(taiwan_ref.score(line, options, rules))
    if agree(ours, ref):
        return
    for n in range(1, len(KNOWN) + 1):
        for switches in itertools.combinations(KNOWN, n):
            alt = {switch: not taiwan_ref.LITERAL[switch] for switch in switches}
            if agree(ours, ref_view(taiwan_ref.score(line, options, rules, alt))):
                pytest.xfail("; ".join(KNOWN[switch] for switch in switches))
    pytest.fail(f"{rules} {line} {options}\n  mjcalc    {ours}\n  reference {ref}")


# ---- the reference against numbers worked out by hand from taiwan.md, so it is not only self-consistent

PING = "123m456m789p234s55p67s 8s"   # five sequences + pair, 67s waits 5s / 8s, no honors, no flowers


@pytest.mark.parametrize(("line", "options", "rules", "fan", "payments"), [
    # S wins on N's discard: 平胡 2 + 门清 1 = 3; the discarder pays 底 3 + 3 x 1
    (PING, {}, "taiwan", 3, {"N": 6}),
    # ... on the dealer's discard: 作庄 on the only payment, so in `fan` (OUTPUT.md: "the items that apply
    # to every payment of this hand")
    (f"{PING} +from=E", {}, "taiwan", 4, {"E": 7}),
    # the dealer self-draws: 门清 1 + 不求 2 ("门清一摸三", no 平胡, no 自摸) + 作庄 1 on every payment
    (f"{PING} +zimo +seat=E", {}, "taiwan", 4, {"S": 7, "W": 7, "N": 7}),
    # S self-draws, the dealer on a streak of 2: 3 台 for all, E pays 作庄 1 + 连2拉2 4 besides
    (f"{PING} +zimo +lian=2", {}, "taiwan", 3, {"E": 11, "W": 6, "N": 6}),
    # the cap counts the dealer 台: 3 + 1 + 2 = 6 -> 4 per payment
    (f"{PING} +zimo +seat=E +lian=1", {"max_tai": 4}, "taiwan", 6, {"S": 7, "W": 7, "N": 7}),
    # 台钱 and 底 options
    (PING, {"base": 5, "per_tai": 10}, "taiwan", 3, {"N": 35}),
    (f"{PING} +base=1", {}, "taiwan", 3, {"N": 4}),
    # 天胡 replaces 门清, 不求 and 自摸: 24 + 作庄 1
    (f"{PING} +tian +zimo +seat=E", {}, "taiwan", 25, {"S": 28, "W": 28, "N": 28}),
    # 字一色 with 大四喜 (16 + 16 - 4), 白 triplet 1, 独听 1 (pair wait), 五暗坎 13 (the winning tile completes
    # the pair, so all five triplets stay concealed): no 门清, no 对对胡, no wind 台
    ("111222333444555z6z 6z", {}, "taiwan", 43, {"N": 46}),
    ("111222333444555z6z 6z", {}, "taiwan-common", 38, {"N": 41}),
    # 全求 2 + 独听 1 on a discard; the same hand self-drawn: 半求 1 + 独听 1 + 自摸 1
    ("5p [123m] [456m] [789p] [234s] [567s] 5p", {}, "taiwan", 3, {"N": 6}),
    ("5p [123m] [456m] [789p] [234s] [567s] 5p +zimo", {}, "taiwan", 3, {"E": 7, "W": 6, "N": 6}),
    # flower wins with 16 other tiles: 七抢一 8, the robbed dealer (the only payer) pays 作庄 besides;
    # 八仙过海 by the dealer
    ("123m456m789p234s55p67s 12345678f +from=E", {}, "taiwan", 9, {"E": 12}),
    ("123m456m789p234s55p67s 12345678f +zimo +seat=E +lian=1", {}, "taiwan", 11, {"S": 14, "W": 14, "N": 14}),
    # 花杠 replaces its 正花 (S: 2f, 6f): 1234f 2 + 6f 1; a flower spoils 平胡: 门清 1
    ("123m456m789p234s55p67s 12346f 8s", {}, "taiwan", 4, {"N": 7}),
])
def test_reference_hand_worked(line, options, rules, fan, payments):
    res = taiwan_ref.score(line, options, rules)
    assert res.result == "win" and res.fan == fan and res.payments == payments, res


def test_reference_not_a_win_and_waiting():
    assert taiwan_ref.score(PING, {"min_tai": 4}).result == "not_a_win"     # 3 台 below the minimum
    assert taiwan_ref.score("123m456m789p234s55p67s 9s").result == "not_a_win"
    res = taiwan_ref.score("123m456m789p234s55p67s")
    assert res.result == "waiting" and [taiwan_ref.name(k) for k in res.waits] == ["5s", "8s"]
    # 23m waits 1m / 4m, but all four 1m are held (a kong): 4m alone, so 独听
    res = taiwan_ref.score("23m456p789s55p [1111m] [999s] 4m")
    assert res.result == "win" and "single_wait" in res.items


def test_generator_covers_the_rules():
    """The generated situations exercise every item of the table and every path of the settlement."""
    seen = collections.Counter()
    results = collections.Counter()
    for line, options, rules in SITUATIONS:
        res = taiwan_ref.score(line, options, rules)
        results[res.result, rules] += 1
        seen.update(res.features)
        seen.update(f"failed:{f}" for f in res.failed)
    for rules in ("taiwan", "taiwan-common"):
        assert results["win", rules] > COUNT * 0.3
        assert results["not_a_win", rules] > COUNT * 0.02
        assert results["waiting", rules] > COUNT * 0.02
    for item in taiwan_ref.VALUES["taiwan"]:
        if item not in ("dealer", "dealer_streak"):
            assert seen[item] > 5, item
    for feature in ["failed:shape", "failed:min_tai", "capped", "single_by_held_four", "flower_win:16",
                    "flower_win:17", "dealer_wins", "dealer_pays", "lian", "zero_tai", "zimo", "discard",
                    "melds=0", "melds=5", "waiting"]:
        assert seen[feature] > 5, feature
