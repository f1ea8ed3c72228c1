"""The notation contract: every example of docs/NOTATION.md, and the errors with their columns."""

from __future__ import annotations

import pytest

from mjcalc.core import tiles as T
from mjcalc.core.hand import TileRules, build_hand
from mjcalc.core.notation import FlagWord, parse_line
from mjcalc.core.readings.decompose import tiles_of
from mjcalc.engine import Request, score_line
from mjcalc.ruleset.loader import load_ruleset

CHANGCHUN = load_ruleset("changchun").tile_rules


def hand_of(line: str, rules: TileRules = CHANGCHUN):
    return build_hand(parse_line(line), rules)


def names(tiles) -> list[str]:
    return [T.name(t) for t in tiles]


FIRST = "123m456p789s111z22z"


def test_closed_hand_wins_on_last_tile_pair_wait() -> None:
    r = score_line(FIRST)
    assert r.hand.win_tile == T.parse_tile("2z")
    assert r.best.candidate.reading.text() == ["123m", "456p", "789s", "111z", "22z"]
    assert r.best.candidate.reading.wait == "pair"


def test_exposed_pon_and_concealed_tiles() -> None:
    h = hand_of("23m456p789s22z [111z] 1m")
    assert [m.text() for m in h.melds] == ["[111z]"]
    assert names(h.concealed) == names(tiles_of("123m456p789s22z"))
    assert T.name(h.win_tile) == "1m"


def test_concealed_and_exposed_kongs() -> None:
    r = score_line("45p789s22z (1111m) [7777z] 3p")
    assert [m.kind for m in r.hand.melds] == ["concealed_kong", "kong"]
    assert T.name(r.hand.win_tile) == "3p"
    win_group = r.best.candidate.win_group
    assert win_group is not None and win_group.text() == "345p"


def test_special_kong() -> None:
    h = hand_of("123m456p78s99s {1234z} 9s")
    assert h.melds[0].kind == "special" and h.melds[0].special == "xuanfeng"
    assert T.name(h.win_tile) == "9s"


@pytest.mark.parametrize("line", ["123m456p789sEEESS", "123m456p789s东东东南南", "123m456p789s1z1z1z2z2z"])
def test_three_spellings_of_honors(line: str) -> None:
    assert hand_of(line) == hand_of(FIRST)


@pytest.mark.parametrize("line", ["123万456筒789条东东东南南", "123萬456餅789條東東東南南", "123万456饼789索111z22z",
                                  "１２３万４５６筒７８９条１１１ｚ２２ｚ", "1万2万3万456p789s东东东南南",
                                  "123万456筒789条111东22东", "123万456筒789条111字22字"])
def test_chinese_suits_after_digits(line: str) -> None:
    assert hand_of(line) == hand_of(FIRST)
    assert score_line(line).hand.text() == score_line(FIRST).hand.text()  # written back in letters


def test_chinese_suits_wherever_a_tile_is_read() -> None:
    assert hand_of("23m456p789s22z [111z] 1万") == hand_of("23m456p789s22z [111z] 1m")
    assert hand_of("456p12s22z [123万] (7777条) 3条") == hand_of("456p12s22z [123m] (7777s) 3s")
    assert hand_of("23m456p789s22z {1234z} 1m +win=1萬") == hand_of("23m456p789s22z {1234z} 1m")
    line = score_line("123m456p789s111z22z +bao=5万 +win=2z")
    assert line.ctx.get("bao") == T.parse_tile("5m")
    riichi = Request("riichi")
    assert score_line("123m406p789s111z22z +riichi +dora=3筒9条 +ura=1饼",
                      riichi).ctx == score_line("123m406p789s111z22z +riichi +dora=3p9s +ura=1p", riichi).ctx
    assert score_line("123m456p78s5m11z22z 9s +hui=5萬", Request("meihe")).best.candidate.subs == {"5m": "1z"}
    assert score_line("123m456p789s111z22z", Request(flags=[FlagWord("bao", "5万", None)])).ctx.get("bao") == \
        T.parse_tile("5m")
    import mjcalc.api

    assert mjcalc.api.check("123万456筒789条东东东南南", "fan 3 points 16")["correct"]  # a homework line
    assert mjcalc.api.score("123万456筒789条东东东南南 +bao=5万") == {**mjcalc.api.score("123m456p789s111z22z +bao=5m"),
                                                               "input": "123万456筒789条东东东南南 +bao=5万"}


@pytest.mark.parametrize(("line", "column", "words"), [
    ("123万456筒789条东东东南x", 17, "unexpected 'x'"),     # one character is one column, 万 and 东 included
    ("万23万456筒789条东东东南南", 1, "suit '万' has no digits before it"),
    ("123m456p789s东东东南南 条", 19, "suit '条' has no digits before it"),
    ("123万456筒789条东东东南南 +bao=5索x", 19, "is not a tile"),  # the caret under the flag
    ("123万456筒789条东东东南南南南南", 20, "fifth"),
    ("123万456筒789条11 东", 13, "digits '11' need a suit letter after them (m, p, s, z; or 万 筒 条)"),
    ("123万456筒789条东东东南南 3", 19, "need a suit letter after them (m, p, s, z; or 万 筒 条)"),
])
def test_chinese_suits_errors_point_at_the_column_as_typed(line: str, column: int, words: str) -> None:
    r = score_line(line)
    assert r.result == "error" and r.error.column == column and words in r.error.message, r.error
    echo, caret = r.error.caret(line).split("\n")
    # the caret under the character: each Chinese character takes two cells of the terminal
    before = line[: column - 1]
    assert caret.index("^") == 2 + len(before) + sum(1 for ch in before if ord(ch) > 0x2E80)
    assert echo == "  " + line


def test_suit_letter_may_repeat() -> None:
    assert names(parse_line("12m3p3m").concealed[i].tile for i in range(4)) == ["1m", "2m", "3p", "3m"]


def test_dragon_letters() -> None:
    assert names(t.tile for t in parse_line("PFC").concealed) == ["5z", "6z", "7z"]


def test_flags_with_and_without_spaces() -> None:
    a = score_line("123m456p789s111z22z +zimo +seat=E +bao=5m")
    b = score_line("123m456p789s111z22z+zimo+seat=E+bao=5m")
    assert a.ctx == b.ctx
    assert a.ctx.zimo and a.ctx.seat == "E" and a.ctx.get("bao") == T.parse_tile("5m")
    assert a.best.settlement.points == 48


def test_chinese_flag_alias() -> None:
    assert score_line("123m456p789s111z22z +自摸 +seat=E").ctx.zimo


def test_eleven_tiles_is_an_error() -> None:
    r = score_line("123m456p789s11z+gang")
    assert r.result == "error" and r.error.kind == "notation"
    assert "11 tiles" in r.error.message and "14" in r.error.message


def test_red_five_refused_outside_riichi() -> None:
    r = score_line("123m406p789s111z22z +riichi +dora=3p")
    assert r.result == "error" and r.error.column == 6 and "red fives" in r.error.message


def test_waiting_hand_lists_waits_and_their_scores() -> None:
    r = score_line("123m456p789s111z2z")
    assert r.result == "waiting" and names(r.waits) == ["2z"]
    assert r.wait_scores[0].result.best is not None
    assert r.exit_code == 0


def test_not_a_winning_shape_is_not_a_notation_error() -> None:
    r = score_line("123m456p789s1112z3z")
    assert r.result == "not_a_win" and [c.id for c in r.failed] == ["shape"] and r.exit_code == 1


def test_fifth_copy_caret_under_the_fifth() -> None:
    r = score_line("123m456p789s11111z")
    assert r.result == "error" and r.error.column == 17 and r.exit_code == 2
    assert r.error.caret("123m456p789s11111z").splitlines()[1].index("^") == 2 + 16


def test_gb_string_reads_into_the_same_hand() -> None:
    rules = TileRules("test", flowers=True)
    gb = parse_line("[1111s,1][2222m,2][3333p,7][4444p]88s|EE0000|2")
    ours = parse_line("8s [1111s] [2222m] [3333p] (4444p) 8s 12f")
    assert build_hand(gb, rules) == build_hand(ours, rules)
    assert gb.melds[2].added
    assert {(f.word, f.value) for f in gb.flags} == {("round", "E"), ("seat", "E")}


def test_gb_dragons_are_in_its_own_order() -> None:
    gb = parse_line("123m456p789s567z2z|ES0100")
    assert names(t.tile for t in gb.concealed[-4:-1]) == ["7z", "6z", "5z"]
    assert ("fourth", None) in {(f.word, f.value) for f in gb.flags}


def test_win_flag_names_the_winning_tile() -> None:
    r = score_line("123m456p789s111z22z +win=1m")
    assert T.name(r.hand.win_tile) == "1m"
    bad = score_line("123m456p789s111z22z +win=5m")
    assert bad.result == "error" and bad.error.kind == "context"


def test_flowers_are_refused_without_flowers() -> None:
    r = score_line("123m456p789s111z22z 1f")
    assert r.result == "error" and r.error.column == 21


@pytest.mark.parametrize(
    ("line", "column", "words"),
    [
        ("123m456p789s111z22x", 19, "unexpected 'x'"),
        ("123m456p789s111z22", 17, "need a suit letter"),
        ("123m456p789s22z [111z 1m", 17, "never closed"),
        ("123m456p789s22z 111z] 1m", 21, "never opened"),
        ("123m456p789s22z [124m] 1m", 17, "not a meld"),
        ("123m456p789s22z (111z) 1m", 17, "concealed kong"),
        ("123m456p78s99s {1235z} 9s", 16, "not a special kong"),
        ("123m456p789s111z8z2z", 17, "not a tile"),
        ("123m456p789s111z22z +", 21, "flag word"),
        ("123m456p789s111z22z +seat=X", 21, "seat wind"),
        ("123m456p789s111z22z +bao=5x", 21, "tile"),
    ],
)
def test_errors_point_at_the_column(line: str, column: int, words: str) -> None:
    r = score_line(line)
    assert r.result == "error", r.result
    assert r.error.column == column, r.error.message
    assert words in r.error.message


def test_cli_flag_and_line_flag_disagree() -> None:
    from mjcalc.core.notation import FlagWord

    r = score_line("123m456p789s111z22z +seat=E", Request(flags=[FlagWord("seat", "S", None)]))
    assert r.result == "error" and "twice" in r.error.message


def test_cli_flag_fills_what_the_line_lacks() -> None:
    from mjcalc.core.notation import FlagWord

    r = score_line("123m456p789s111z22z", Request(flags=[FlagWord("zimo", None, None), FlagWord("seat", "E", None)]))
    assert r.best.settlement.points == 48


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("123m456p789s111z22z +zimo +from=W", "self-drawn win has none"),
        ("123m456p789s111z22z +from=S", "winner's own seat"),
        ("123m456p789s111z22z +mobao +zimo=off", "self-drawn"),
    ],
)
def test_impossible_context(line: str, words: str) -> None:
    r = score_line(line)
    assert r.result == "error" and r.error.kind == "context" and words in r.error.message


def test_flag_not_read_is_reported_ignored() -> None:
    r = score_line("123m456p789s111z22z +riichi")
    assert r.result == "win" and r.ignored_flags == ["riichi"]


def test_canonical_hand_text_round_trips() -> None:
    for line in ["23m456p789s22z [111z] 1m", "45p789s22z (1111m) [7777z] 3p", "123m456p78s99s {12341z} 9s"]:
        h = hand_of(line)
        assert hand_of(h.text()) == h


def test_red_fives_are_written_back() -> None:
    from mjcalc.engine import Request

    for line, text in [("123m406p789s111z22z +riichi", "123m 406p 789s 1112z 2z"),
                       ("123m456p789s2z [406m] 2z +zimo", "123m 456p 789s 2z [406m] 2z"),
                       ("345m40677p67s [340m] 8s +riichi", "345m 40677p 67s [340m] 8s")]:  # each red where it was
        r = score_line(line, Request(rules="riichi"))
        assert r.hand.text() == text
        again = score_line(text + " +" + line.split(" +", 1)[1], Request(rules="riichi"))
        assert again.hand.reds == r.hand.reds


def test_tiles_are_written_one_suit_letter_a_run() -> None:
    """tiles.format_tiles (written a tile at a time) against its definition: the tiles cut into runs of one suit,
    each run's digits then its letter, ``between`` between runs; on random tile lists of every kind (sorted and
    not, red fives or none), empty and one tile included."""
    import random
    from itertools import groupby

    rng = random.Random(21)
    for size in [0, 1, 2, *range(3, 18)] * 40:
        tiles = [rng.randrange(T.NUM_KINDS) for _ in range(size)]
        fives = [t for t in tiles if T.rank_of(t) == 5 and t < T.HONOR_START]
        red = rng.sample(fives, rng.randrange(len(fives) + 1))
        for seq, sort in ((sorted(tiles), False), (tiles, False), (tiles, True)):
            left = set(red)
            runs = []
            for letter, run in groupby(sorted(seq) if sort else seq, key=lambda t: T.SUITS[T.suit_of(t)]):
                digits = []
                for t in run:
                    digits.append("0" if t in left else str(T.rank_of(t)))
                    left.discard(t)
                runs.append("".join(digits) + letter)
            assert T.format_tiles(seq, sort=sort, red=red, between=" ") == " ".join(runs), (seq, sort, red)
