"""Homework checking and the waits of a ready hand."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjcalc.cli import app
from mjcalc.core.readings.decompose import tiles_of
from mjcalc.core.readings.forms import FormSpec
from mjcalc.core.readings.shanten import shanten
from mjcalc.engine import score_line
from mjcalc.homework.answer import parse_answer
from mjcalc.homework.compare import compare

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"  # wherever pytest is run from

runner = CliRunner()
ENV = {"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"}

HOMEWORK = """\
# right answers
456p23s55z777z [123m] 1s +from=W => fan 1 points 4 items 平胡,放炮
123m456p13s777z55z 2s +from=W => fan 3 points 16 items basic_win,dealt_in,single_wait,closed_win
123m456m789m111z22z => not a win
# wrong answers
123m456p13s777z55z 2s +from=W => fan 3 points 12
999p555s777z22z [111m] +zimo +seat=E => fan 6 items 平胡,自摸,飘胡,庄胡,夹胡
123m456p789s111z22z +zimo => items 平胡,自摸:2,夹胡,立胡
123m456m789m111z22z => fan 2
"""


def test_check_flags_exactly_the_wrong_answers(tmp_path) -> None:
    path = tmp_path / "hw.txt"
    path.write_text(HOMEWORK, encoding="utf-8")
    r = runner.invoke(app, ["check", str(path), "--json"], env=ENV)
    assert r.exit_code == 1
    records = [json.loads(x) for x in r.stdout.splitlines()]
    assert [(x["line"], x["correct"]) for x in records] == [
        (2, True), (3, True), (4, True), (6, False), (7, False), (8, False), (9, False)]
    why = {x["line"]: [d["kind"] for d in x["differences"]] for x in records}
    assert why[6] == ["formula"]
    assert why[7] == ["not_applicable", "wrong"]
    assert why[8] == ["wrong_value"]
    assert why[9] == ["not_a_win"]
    assert "3 of 7 right" in r.stderr


def test_points_diagnoses() -> None:
    res = score_line("123m456p13s777z55z 2s +from=W")
    flat = compare(res, parse_answer("points 12"))
    assert [d.cause for d in flat] == ["payer_item_missed"]
    assert "放炮" in flat[0].message and "W: 2^(4−1) × 1 = 8" in flat[0].message
    follow = compare(res, parse_answer("fan 4 points 32"))
    assert "your points follow from your fan of 4" in follow[-1].message and follow[-1].cause == "wrong_fan"
    assert "wrong_base" not in [d.cause for d in follow]  # the student's own fan explains it: no other step
    share = compare(res, parse_answer("points 8"))
    assert "one_share" in [d.cause for d in share]
    assert "W's payment alone" in next(d.message for d in share if d.cause == "one_share")


def test_dealer_win_puts_the_dealer_item_in_fan_for_check() -> None:
    """docs/OUTPUT.md: when the dealer wins, 庄家 / 庄 is on every payment, so it is in fan and no hint says it
    applies only to some payers; when another player wins, it does."""
    res = score_line("123m456p789s111z22z +zimo +seat=E +rules=meihe")  # 平胡 自摸 庄家 穷胡: 4 fan, 8 each
    assert res.best is not None and res.best.settlement.fan == 4
    diffs = compare(res, parse_answer("fan 3 points 12 items 平胡,自摸,穷胡"))
    text = " ".join(d.message for d in diffs)
    assert not {"payer_item_to_all", "payer_item_missed"} & {d.cause for d in diffs}
    assert "your points follow from your fan of 3" in text
    missed = next(d.message for d in diffs if d.kind == "missed")
    assert "庄家" in missed and "the winner E is the dealer" in missed
    other = score_line("1122m3344p5566s77z +rules=changchun-mil")  # S wins: 庄 on E's payment only
    assert other.best is not None and other.best.settlement.fan == 3
    flat = compare(other, parse_answer("points 24"))  # 2^3 × 3: every payer on the hand's fan
    assert [d.cause for d in flat] == ["payer_item_missed"] and "庄" in flat[0].message


def test_excluded_item_says_by_what() -> None:
    res = score_line("999p555s777z22z [111m] +zimo +seat=E")
    diff = compare(res, parse_answer("items 平胡,自摸,飘胡,庄胡,夹胡"))
    assert diff[0].cause == "excluded" and "All triplets (飘胡) excludes it" in diff[0].message


def test_missed_item_and_unknown_name() -> None:
    res = score_line("123m456p13s777z55z 2s +from=W")
    kinds = [d.kind for d in compare(res, parse_answer("items 平胡,放炮,立胡,飘糊"))]
    assert kinds == ["unknown_item", "missed"]


@pytest.mark.parametrize("text", ["fan", "fan three", "colour 3"])
def test_bad_answers_are_reported(text: str) -> None:
    from mjcalc.errors import MjcalcError

    with pytest.raises(MjcalcError):
        parse_answer(text)


@pytest.mark.parametrize(("name", "rules"), [("changchun", "changchun"), ("changchun-mil", "changchun-mil"),
                                             ("jilin", "jilin"), ("meihe", "meihe"), ("riichi", "riichi")])
def test_check_examples_run(name: str, rules: str) -> None:
    r = runner.invoke(app, ["check", str(EXAMPLES / f"{name}-homework.txt"), "--rules", rules], env=ENV)
    assert r.exit_code in (0, 1), r.output
    assert "✓" in r.stdout and "could not be checked" not in r.stderr


def test_waits_json() -> None:
    r = runner.invoke(app, ["waits", "123m456p789s111z2z", "--json"], env=ENV)
    out = json.loads(r.stdout)
    assert out["shanten"] == 0
    assert [(w["tile"], w["unseen"]) for w in out["waits"]] == [("2z", 3)]
    assert out["waits"][0]["self_drawn"]["points"] == 24 and out["waits"][0]["discard"]["points"] == 16


def test_waits_of_nine_gates_and_a_hand_not_ready() -> None:
    out = json.loads(runner.invoke(app, ["waits", "1112345678999m", "--json"], env=ENV).stdout)
    assert [w["tile"] for w in out["waits"]] == [f"{k}m" for k in range(1, 10)]
    assert out["waits"][0]["unseen"] == 1 and out["waits"][1]["unseen"] == 3
    assert out["waits"][0]["discard"]["result"] == "not_a_win"  # one suit: not a Changchun win
    out = json.loads(runner.invoke(app, ["waits", "12m456p789s11z257z", "--json"], env=ENV).stdout)
    assert out["shanten"] == 2 and out["waits"] == []


def test_score_of_a_hand_not_ready_gives_its_shanten() -> None:
    r = runner.invoke(app, ["score", "12m456p789s11z257z"], env=ENV)
    assert "NOT READY — shanten 2" in r.stdout and "WAITING" not in r.stdout
    out = json.loads(runner.invoke(app, ["score", "12m456p789s11z257z", "--json"], env=ENV).stdout)
    assert out["result"] == "waiting" and out["shanten"] == 2 and out["waits"] == []
    ready = json.loads(runner.invoke(app, ["score", "123m456p789s111z2z", "--json"], env=ENV).stdout)
    assert ready["shanten"] == 0


def test_waits_include_the_treasure_and_the_wildcard_draw() -> None:
    """Drawing the treasure (摸宝) wins whatever it stands for; Changchun: 宝牌 +2 and 自摸, so 6 fan here
    (平胡, 自摸, 夹胡, 宝牌 2, 立胡) against 3 and 4 for the real 6s and 9s."""
    out = json.loads(runner.invoke(app, ["waits", "123m456p78s99s111z +bao=5m", "--json"], env=ENV).stdout)
    assert [(w["tile"], w["self_drawn"]["points"]) for w in out["waits"]] == [("6s", 12), ("9s", 24)]
    draw = out["wild_draw"]
    assert (draw["tile"], draw["wildcard"], draw["self_drawn"]["points"]) == ("5m", "treasure", 96)
    assert "treasure" in draw["self_drawn"]["items"]
    text = runner.invoke(app, ["waits", "123m456p78s99s111z +bao=5m"], env=ENV).stdout
    assert "5m (treasure drawn)" in text and "6 fan → 96" in text
    plain = json.loads(runner.invoke(app, ["waits", "123m456p78s99s111z", "--json"], env=ENV).stdout)
    assert "wild_draw" not in plain  # no treasure named: nothing to draw
    # Meihe: the 会牌 drawn stands for 2z or 7z; it is held, so no 穷胡: 2 fan → 8 against 16 for a real tile
    meihe = json.loads(runner.invoke(app, ["waits", "123m456p789s22z77z +flip=4m", "--rules", "meihe", "--json"],
                                     env=ENV).stdout)
    assert (meihe["wild_draw"]["tile"], meihe["wild_draw"]["self_drawn"]["points"]) == ("5m", 8)
    assert meihe["waits"][0]["self_drawn"]["points"] == 16


def test_a_dragon_call_is_a_wait_self_drawn_only() -> None:
    """Meihe: two of 中发白 in hand wait on the third as a 中发白 叫胡 (self-drawn only), no shape wait."""
    out = json.loads(runner.invoke(app, ["waits", "123m456p789s22z56z", "--rules", "meihe", "--json"], env=ENV).stdout)
    assert out["shanten"] == 0 and [w["tile"] for w in out["waits"]] == ["7z"]
    assert out["waits"][0]["self_drawn"]["result"] == "win"
    assert out["waits"][0]["discard"]["failed_conditions"] == ["zfb_selfdraw_only"]
    score = runner.invoke(app, ["score", "123m456p789s22z56z", "--rules", "meihe"], env=ENV).stdout
    assert "NOT READY" not in score and "叫胡" in score


def test_waits_of_a_complete_hand_says_so() -> None:
    r = runner.invoke(app, ["waits", "123m456p789s111z22z"], env=ENV)
    assert r.exit_code == 2 and "complete" in r.stdout
    assert r.stdout.startswith("123m 456p 789s 111z 2z + 2z: the hand is complete")  # as a table's hand line


@pytest.mark.oracle
def test_shanten_agrees_with_the_reference() -> None:
    """Regular and seven-pairs shanten against the `mahjong` package on random 13-tile hands."""
    from mahjong.shanten import Shanten

    reference = Shanten()
    rng = random.Random(2024)
    wall = [t for t in range(34) for _ in range(4)]
    forms = (FormSpec("regular"), FormSpec("seven_pairs"), FormSpec("thirteen_orphans"))
    for _ in range(1500):
        hand = rng.sample(wall, 13)
        counts = [0] * 34
        for t in hand:
            counts[t] += 1
        assert shanten(hand, 0, 4, forms) == reference.calculate_shanten(counts), hand
        assert shanten(hand, 0, 4, (FormSpec("regular"),)) == reference.calculate_shanten_for_regular_hand(counts)
    assert shanten(tiles_of("123m456p789s1112z"), 0, 4, forms) == 0
