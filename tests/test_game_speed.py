"""The game's plain speed-ups held to what they replaced: the flags a winning line gives read by splitting at
each ``+`` (hands.given_flags) as the notation's regular expression reads them; a JSON result read by the
dictionary's fast path as by the general one."""

from __future__ import annotations

import random
import re

import pytest

from mjcalc.core.normalise import normalise
from mjcalc.errors import MjcalcError
from mjcalc.game.hands import _GAME_WORDS, _NO_READS, _typed, given_flags
from mjcalc.game.model import GameError, Header
from mjcalc.game.records import result_from_json

_FLAG = re.compile(r"\+([^\s+]*)")  # the notation's own reading of a flag: + and its body


def _by_regex(line: str) -> dict[str, tuple[object, int]]:
    if "+" not in line:
        return {}
    try:
        text = normalise(line) if not line.isascii() else line
    except MjcalcError:
        return {}
    out: dict[str, tuple[object, int]] = {}
    for found in _FLAG.finditer(text):
        word, eq, value = found.group(1).partition("=")
        if word.lower() not in _GAME_WORDS:
            continue
        try:
            name, typed = _typed(word, value if eq else None, _NO_READS)
        except MjcalcError:
            continue
        if name not in out:
            out[name] = (typed, found.start() + 1)
    return out


LINES = [
    "123m456p789s111z22z",
    "123m456p789s111z22z +zimo +seat=E",
    "123m456p789s111z22z +seat=E+round=S +from=N",
    "123m456p789s111z22z ++ + +riichi +RIICHI +dora=1m",
    "123m456p789s111z22z +honba=2 +sticks=1 +lian=3 +pao=W",
    "123m456p789s111z22z\t+tsumo\u3000+dealer +自摸 +立直",
    "123m456p789s111z22z +seat=X +honba=two +from",
    "+seat=E 123m456p789s111z22z +wriichi +double_riichi=on",
    "123m456p789s111z22z +zimo+ +round= +=E",
    "１２３ｍ４５６ｐ７８９ｓ１１１ｚ２２ｚ　＋ｚｉｍｏ ＋seat=S",
]


@pytest.mark.parametrize("line", LINES)
def test_given_flags_as_the_regex_reads_them(line: str) -> None:
    assert given_flags(line) == _by_regex(line)


def test_given_flags_on_random_lines() -> None:
    rng = random.Random(33)
    pieces = ["123m", "+", " ", "\t", "seat", "=", "E", "S", "zimo", "from", "N", "honba", "2", "riichi", "dora",
              "5m", "RIICHI", "tsumo", "lian", "x", "sticks", "1", "pao", "W", "\u3000", "+round=", "自摸"]
    for _ in range(3000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        assert given_flags(line) == _by_regex(line), line


HEADER = Header(("A", "B", "C", "D"), "riichi")
RESULTS = [
    {"win": [{"winner": "B", "from": "C", "hand": "123m456p789s111z 22z"}]},
    {"win": [{"winner": "B", "hand": "123m456p789s111z 22z"}], "riichi": ["B", "D"]},
    {"win": [{"winner": "B", "from": "C", "hand": "123m456p789s111z 22z", "pao": "D"}], "riichi": []},
    {"win": [{"winner": "E", "hand": "123m456p789s111z 22z"}], "riichi": ["B"]},
    {"win": [{"winner": "B", "hand": "123m456p789s111z 22z"}], "riichi": ["Z"]},
    {"win": [{"winner": "E", "hand": "x"}], "riichi": ["Z"]},
    {"win": [{"winner": "B", "hand": "123m456p789s111z 22z"}], "riichi": "B"},
    {"win": [{"winner": "B", "hand": " "}]},
    {"win": [{"winner": "B", "hand": "1m", "extra": 1}]},
    {"win": [["B"]]},
]


class _Mapping(dict):  # type: ignore[type-arg]
    """A mapping that is no plain dict: read by the general path."""


@pytest.mark.parametrize("obj", RESULTS)
def test_result_fast_path_as_the_general_one(obj: dict) -> None:  # type: ignore[type-arg]
    def read(o: object) -> object:
        try:
            return result_from_json(o, HEADER)
        except GameError as exc:
            return exc.message

    general = _Mapping(obj)
    general["win"] = [_Mapping(w) if isinstance(w, dict) else w for w in obj["win"]]
    assert read(obj) == read(general)


def test_tile_kinds_from_the_table_as_from_the_text() -> None:
    from mjcalc.logs.model import _KIND_OF, kind_index, write_tiles

    def by_text(tile: str) -> int:
        t = "5" + tile[1] if tile[0] == "0" else tile
        return "mpsz".index(t[1]) * 9 + int(t[0]) - 1

    assert len(_KIND_OF) == 37
    assert all(kind_index(t) == by_text(t) for t in _KIND_OF)
    rng = random.Random(34)
    names = sorted(_KIND_OF)
    for _ in range(500):
        tiles = [rng.choice(names) for _ in range(rng.randint(1, 14))]
        ordered = sorted(tiles, key=lambda t: (by_text(t), 0 if t[0] == "0" else 1))
        written, digits, suit = [], "", ""
        for t in ordered:
            if t[1] != suit and digits:
                written.append(digits + suit)
                digits = ""
            suit, digits = t[1], digits + t[0]
        assert write_tiles(tiles) == "".join(written) + (digits + suit if digits else "")


def test_a_discard_leaves_the_tiles_list_remove_would() -> None:
    from mjcalc.logs.replay import Tracker

    rng = random.Random(35)
    kinds = ["1m", "5m", "0m", "9p", "7z"]
    for _ in range(300):
        hand = [rng.choice(kinds) for _ in range(13)]
        tracker = Tracker(0, [list(hand), [], [], []], "<test>")
        expected = list(hand)
        for _ in range(10):
            drawn = rng.choice(kinds)
            tracker.draw(0, drawn)
            expected.append(drawn)
            given = rng.choice([drawn, rng.choice(expected)])
            tracker.discard(0, given)
            expected.remove(given)
            assert sorted(tracker.hands[0]) == sorted(expected)
