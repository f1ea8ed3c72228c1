"""The independent game replayer (game_ref.py) against the figures GAME.md itself gives: draw payments, the
false win, nagashi, rounding, uma and oka, ties, the extension, sudden death, bust, the last dealer's stop,
kong money, pao, 截胡, Taiwan's streak, MCR's sixteen hands and 错和, penalties sharing a hand's number.
A few seconds; the game engine is not involved (this checks the checker).
"""

from __future__ import annotations

import json
from fractions import Fraction

import game_ref
import pytest
from game_ref import Game, GameError

pytestmark = pytest.mark.independent

P = ["A", "B", "C", "D"]
DRAW = {"draw": {"ready": [], "nagashi": []}}
PINFU = "123m456p789s23s55p 1s"          # 平和; with 立直 2 han 30 fu: 2000 (dealer 2900) on a discard


def game(rules: str, sets: dict | None = None, dealer: str | None = None) -> Game:
    g: dict = {"players": list(P), "rules": rules, "set": sets or {}}
    if dealer:
        g["dealer"] = dealer
    return Game({"game": g})


def ready(*who: str) -> dict:
    return {"draw": {"ready": list(who), "nagashi": []}}


def pen(off: str, amount: int, to: str) -> dict:
    return {"penalty": {"player": off, "amount": amount, "to": to}}


# --- exhaustive draw: 3000 from the players not ready to those ready ------------------------------------------
@pytest.mark.parametrize("who, changes", [
    ((), [0, 0, 0, 0]),
    (("B",), [-1000, 3000, -1000, -1000]),                 # one ready: 1000 from each of the three
    (("B", "C"), [-1500, 1500, 1500, -1500]),              # two: 1500 each way
    (("A", "B", "C"), [1000, 1000, 1000, -3000]),          # three: the one not ready pays 1000 to each
    (("A", "B", "C", "D"), [0, 0, 0, 0]),
])
def test_draw_payments(who, changes):
    g = game("riichi")
    e = g.apply(ready(*who))
    assert e["changes"] == changes
    assert g.honba == 1                                    # honba +1 after any draw
    assert g.dealer == (0 if "A" in who else 1)            # the dealer repeats when ready


# --- false win: a mangan to each ------------------------------------------------------------------------------
def test_false_win_by_a_non_dealer_and_by_the_dealer():
    g = game("riichi")
    e = g.apply({"penalty": {"player": "B", "kind": "false_win"}})
    assert e["result"] == "redeal" and e["changes"] == [4000, -8000, 2000, 2000]
    e = g.apply({"penalty": {"player": "A", "kind": "false_win"}})
    assert e["changes"] == [-12000, 4000, 4000, 4000]
    assert (g.dealer, g.honba, g.number) == (0, 0, 2)     # redealt: same dealer and honba, a new number
    assert [h["label"] for h in g.hands] == ["东1局", "东1局"]


def test_mcr_false_win_pays_10_each_and_the_hand_goes_on():
    g = game("mcr")
    e = g.apply({"penalty": {"player": "C", "kind": "false_win"}})
    assert e["result"] == "penalty" and e["changes"] == [10, 10, -30, 10] and e["number"] == 1
    e = g.apply(DRAW)
    assert e["number"] == 1 and g.dealer == 1             # the hand's own result shares the number


# --- nagashi mangan ------------------------------------------------------------------------------------------
def test_nagashi_pays_a_mangan_self_draw_without_honba_and_deposits_stay():
    g = game("riichi")
    g.apply(ready("A"))                                    # honba 1
    e = g.apply({"draw": {"ready": ["C"], "nagashi": ["C"]}, "riichi": ["C"]})
    assert e["changes"] == [-4000, -2000, 7000, -2000]     # 2000 / 4000, no ready payments; C's deposit stays
    assert g.table == 1000 and g.honba == 2 and g.dealer == 1
    e = g.apply({"draw": {"ready": [], "nagashi": ["B"]}})
    assert e["changes"] == [-4000, 12000, -4000, -4000]    # the dealer: 4000 from each


def test_nagashi_off_is_an_error():
    g = game("riichi", {"nagashi": "off"})
    with pytest.raises(GameError):
        g.apply({"draw": {"ready": [], "nagashi": ["B"]}})
    assert g.hands == [] and g.number == 0                # nothing changed


# --- rounding and points --------------------------------------------------------------------------------------
@pytest.mark.parametrize("score, thousands", [(35500, 36), (24500, 25), (-7500, -8), (15400, 15), (0, 0)])
def test_rounding_to_the_thousand_500_away_from_zero(score, thousands):
    assert game_ref.round_half_away(Fraction(score, 1000)) == thousands


def scores_then_end(rules: str, sets: dict, moves: list[dict]) -> Game:
    g = game(rules, sets)
    for m in moves:
        g.apply(m)
    while not g.ended:
        g.apply(DRAW)
    return g


def test_tenhou_points_uma_and_first_takes_minus_the_others():
    moves = [pen("B", 500, "A"), pen("C", 500, "A"), pen("D", 9500, "A")]
    g = scores_then_end("riichi-tenhou", {"rounding": "thousand"}, moves)
    f = g.final()
    assert f["scores"] == [35500, 24500, 24500, 15500] and f["ranking"] == [0, 1, 2, 3]   # B = C: seat order
    assert f["points"] == [44.0, 5.0, -15.0, -34.0]        # 25-30+10, 25-30-10, 16-30-20; first: -(sum)
    g = scores_then_end("riichi-tenhou", {}, moves)
    assert g.final()["points"] == [45.5, 4.5, -15.5, -34.5]


def test_mleague_uma_oka_and_shared_places():
    g = scores_then_end("riichi-mleague", {}, [pen("C", 3000, "A"), pen("D", 3000, "B")])
    assert g.final()["points"] == [28.0, 28.0, -28.0, -28.0]   # (30+10+20)/2 and (-10-30)/2 shared
    g = scores_then_end("riichi-mleague", {}, [pen("D", 1300, "A"), pen("C", 700, "B")])
    assert g.final()["points"] == [46.3, 5.7, -15.7, -36.3]
    g = scores_then_end("riichi-mleague", {}, [])
    assert g.final()["points"] == [0.0, 0.0, 0.0, 0.0] and g.reason == "last hand played"


def test_no_points_without_a_preset():
    assert scores_then_end("riichi", {}, [pen("B", 5000, "A")]).final()["points"] is None


# --- the end: extension, sudden death, bust, the last dealer ---------------------------------------------------
def test_extension_west_then_north_then_the_end():
    g = game("riichi")
    for _ in range(8):
        g.apply(DRAW)
    assert not g.ended and g.round_index == 2              # nobody at 30000: West
    for _ in range(4):
        g.apply(DRAW)
    assert not g.ended and g.round_index == 3              # still nobody: North
    for _ in range(4):
        g.apply(DRAW)
    assert g.ended                                         # after North, whatever the scores
    with pytest.raises(GameError):
        g.apply(DRAW)                                      # no result after the end


def test_exactly_30000_ends_after_south():
    g = game("riichi")
    g.apply(pen("B", 5000, "A"))
    for _ in range(8):
        g.apply(DRAW)
    assert g.ended


def test_tonpuu_extension_is_at_most_south():
    g = game("riichi", {"length": "tonpuu"})
    for _ in range(4):
        g.apply(DRAW)
    assert not g.ended
    for _ in range(4):
        g.apply(DRAW)
    assert g.ended


def test_sudden_death_at_exactly_30000_after_a_draw_not_a_penalty():
    g = game("riichi-tenhou")
    for _ in range(8):
        g.apply(DRAW)
    g.apply(pen("C", 5000, "A"))
    assert not g.ended                                     # a penalty does not end it
    g.apply(DRAW)
    assert g.ended and g.reason.startswith("sudden death")


def test_extension_none():
    g = game("riichi", {"extension": "none"})
    for _ in range(8):
        g.apply(DRAW)
    assert g.ended


def test_bust_below_zero_not_at_zero():
    g = game("riichi")
    g.apply(pen("B", 25000, "A"))
    assert not g.ended                                     # zero is not below
    g.apply(pen("B", 100, "A"))
    assert g.ended and g.reason == "bust"


def test_mleague_has_no_bust():
    g = game("riichi-mleague")
    g.apply(pen("B", 26000, "A"))
    assert not g.ended


def test_last_dealer_stops_when_first_with_30000():
    g = game("riichi-tenhou")
    g.apply(pen("A", 5000, "D"))
    for _ in range(7):
        g.apply(DRAW)
    g.apply(ready("D"))
    assert g.ended and g.reason.startswith("the last dealer")


def test_last_dealer_tied_first_is_not_first():
    g = game("riichi-tenhou")
    g.apply(pen("A", 5000, "D"))
    g.apply(pen("C", 9000, "B"))                           # B 34000
    for _ in range(7):
        g.apply(DRAW)
    g.apply(ready("D"))                                    # D 33000 = B, B sits earlier: B is first
    assert not g.ended and g.dealer == 3


# --- deposits, honba, two winners ------------------------------------------------------------------------------
def test_riichi_needs_1000():
    g = game("riichi")
    g.apply(pen("C", 24500, "A"))
    with pytest.raises(GameError):
        g.apply({"draw": {"ready": ["C"], "nagashi": []}, "riichi": ["C"]})


def test_two_winners_the_nearest_takes_honba_and_table():
    g = game("riichi")
    g.apply(ready("A"))                                    # honba 1, the dealer repeats
    e = g.apply({"win": [{"winner": "A", "from": "B", "hand": PINFU}, {"winner": "C", "from": "B", "hand": PINFU}],
                 "riichi": ["A", "C"]})
    # C is nearest to B: 2000 + 300 honba + the two deposits; A (dealer) 2900 alone
    assert e["changes"] == [-1000 + 2900, -2000 - 300 - 2900, -1000 + 2000 + 300 + 2000, 0]
    assert g.dealer == 0 and g.honba == 2                  # the dealer was one of the winners: repeats


def test_two_winners_outside_riichi_is_an_error():
    g = game("changchun")
    with pytest.raises(GameError, match="截胡"):
        g.apply({"win": [{"winner": "B", "from": "A", "hand": "123m456p789s111z22z"},
                         {"winner": "C", "from": "A", "hand": "123m456p789s111z22z"}]})


def test_leftover_deposits():
    for left, scores in (("to_first", [23500, 27500, 25500, 23500]), ("lost", [23500, 25500, 25500, 23500])):
        g = game("riichi", {"extension": "none", "leftover": left})
        for _ in range(7):
            g.apply(DRAW)
        e = g.apply({"draw": {"ready": ["B", "C"], "nagashi": []}, "riichi": ["B", "C"]})
        assert e["end"] == [23500, 25500, 25500, 23500]    # not in the last hand's changes
        assert g.final()["scores"] == scores


def test_pao_self_draw_and_discard():
    g = game("riichi", {"start": 50000})
    e = g.apply({"win": [{"winner": "B", "hand": "23m11s [555z] [666z] [777z] 4m", "pao": "C"}]})
    assert e["changes"] == [0, 32000, -32000, 0]
    e = g.apply({"win": [{"winner": "D", "from": "A", "hand": "67p99s [555z] [666z] [777z] 8p", "pao": "B"}]})
    assert e["changes"] == [-16000, -16000, 0, 32000]


def test_abort_keeps_dealer_and_deposits():
    g = game("riichi")
    e = g.apply({"abort": "four_riichi", "riichi": P})
    assert e["changes"] == [-1000] * 4 and g.table == 4000 and g.honba == 1 and g.dealer == 0
    with pytest.raises(GameError):
        game("riichi", {"triple_ron": "pay"}).apply({"abort": "triple_ron"})


def test_flags_that_contradict_the_game():
    g = game("riichi")
    for hand in (PINFU + " +seat=E", PINFU + " +zimo", PINFU + " +wriichi", PINFU + " +honba=1"):
        with pytest.raises(GameError):
            g.apply({"win": [{"winner": "B", "from": "C", "hand": hand}]})
    e = g.apply({"win": [{"winner": "B", "from": "C", "hand": PINFU + " +seat=S +from=W"}], "riichi": ["B"]})
    assert e["changes"] == [0, 2000, -2000, 0]


# --- north-eastern families: kongs, rotation ---------------------------------------------------------------------
@pytest.mark.parametrize("rules, kong, points", [
    ("changchun", "[1111m]", 1), ("changchun", "(1111m)", 2), ("changchun", "[5555z]", 2), ("changchun", "(1111p)", 4),
    ("changchun", "{1234z}", 1), ("changchun", "{12341z}", 2), ("changchun", "{9m9p9s}", 1),
    ("jilin", "[1111m]", 2), ("jilin", "(1111s)", 4), ("jilin", "{567z}", 2), ("jilin", "{5677z}", 3),
    ("meihe", "[7777z]", 2), ("meihe", "(1111m)", 2), ("meihe", "{1234z}", 4), ("meihe", "{1m1p1s9s}", 3),
    ("changchun-mil", "[1111s]", 2), ("changchun-mil", "(5555z)", 4),
])
def test_kong_money_on_a_draw(rules, kong, points):
    g = game(rules, {"base": 2})
    result = {"draw": {"ready": [], "nagashi": []}, "kongs": {"C": [kong]}}
    if rules == "meihe":
        result["hui"] = "9p"
    e = g.apply(result)
    assert e["changes"] == [-2 * points, -2 * points, 6 * points, -2 * points]
    assert g.dealer == 0                                   # 荒庄: the dealer deals again


def test_meihe_golden_kong_and_missing_hui():
    g = game("meihe")
    e = g.apply({"draw": {"ready": [], "nagashi": []}, "kongs": {"B": ["(5555m)"]}, "hui": "5m"})
    assert e["changes"] == [-8, 24, -8, -8]
    with pytest.raises(GameError):
        g.apply({"draw": {"ready": [], "nagashi": []}, "kongs": {"B": ["(5555m)"]}})


def test_kong_errors():
    with pytest.raises(GameError, match="winner"):
        game("changchun").apply({"win": [{"winner": "B", "hand": "123m456p789s111z22z"}], "kongs": {"B": ["[7777z]"]}})
    with pytest.raises(GameError, match="kong money"):
        game("taiwan").apply({"draw": {"ready": [], "nagashi": []}, "kongs": {"B": ["[7777z]"]}})
    with pytest.raises(GameError):
        game("jilin").apply({"draw": {"ready": [], "nagashi": []}, "kongs": {"B": ["{1m1p1s}"]}})


def test_changchun_rotation_and_hands_option():
    g = game("changchun", {"hands": 3}, dealer="C")
    assert g.players == ["C", "D", "A", "B"]               # the first dealer is player 0
    e = g.apply({"win": [{"winner": "C", "hand": "123m456p789s111z22z"}]})
    assert e["changes"] == [48, -16, -16, -16] and g.dealer == 0        # the dealer wins: deals again
    g.apply(DRAW)
    assert g.dealer == 0                                   # 荒庄: deals again
    g.apply({"win": [{"winner": "D", "hand": "123m456p789s111z22z"}]})
    assert g.dealer == 1 and g.ended                       # another wins: the next seat; hands: 3


def test_penalty_to_the_table_goes_to_the_next_winner():
    g = game("changchun")
    e = g.apply(pen("D", 5, "table"))
    assert e["number"] == 1 and g.table == 5
    e = g.apply({"win": [{"winner": "A", "hand": "123m456p789s111z22z"}]})
    assert e["changes"] == [53, -16, -16, -16] and g.table == 0


# --- Taiwan and MCR ------------------------------------------------------------------------------------------------
def test_taiwan_streak():
    line = "123m456p789s111222z3z 3z"
    g = game("taiwan", {"rounds": 1})
    e = g.apply({"win": [{"winner": "A", "hand": line}]})
    assert e["lian"] == 0 and e["changes"] == [30, -10, -10, -10] and g.dealer == 0 and g.lian == 1
    assert g.apply(DRAW)["lian"] == 1 and g.lian == 2      # a draw: the dealer again, the streak grows
    e = g.apply({"win": [{"winner": "B", "hand": line}]})
    assert e["lian"] == 2 and e["wins"][0]["hand"].endswith("+lian=2")
    assert e["changes"] == [-14, 32, -9, -9]               # 连2拉2 on the dealer's payment only
    assert g.dealer == 1 and g.lian == 0


def test_taiwan_lian_flag_filled_in():
    g = game("taiwan")
    g.apply(DRAW)
    g.apply(DRAW)
    assert g.lian == 2 and g.dealer == 0                   # a draw: the dealer again, the streak grows


def test_mcr_sixteen_hands():
    g = game("mcr")
    for i in range(16):
        assert not g.ended
        g.apply(DRAW)
        assert g.dealer == (i + 1) % 4                     # the deal passes every hand
    assert g.ended and [h["round"] for h in g.hands][::4] == ["E", "S", "W", "N"]


# --- grades and the record --------------------------------------------------------------------------------------
@pytest.mark.parametrize("total, grade", [(99, "白板"), (100, "一万"), (499, "二万"), (80000, "东风"),
                                          (100000, "西风"), (1200000, "发"), (2000000, "雀神"), (-5, "白板")])
def test_grades(total, grade):
    assert game_ref.grade(total) == grade


def test_replay_reports_bad_lines_and_replays_the_rest():
    lines = [json.dumps({"game": {"players": P, "rules": "riichi", "set": {}}}), json.dumps(DRAW), "{not json",
             json.dumps({"draw": {"ready": ["Zed"], "nagashi": []}}), json.dumps(DRAW)]
    sheets, errors = game_ref.replay(lines, "x.jsonl")
    assert [m.split(":")[1] for m in errors] == ["3", "4"]
    assert [h["number"] for h in sheets[0]["hands"]] == [1, 2]
    assert [e["line"] for e in sheets[0]["errors"]] == [3, 4]
