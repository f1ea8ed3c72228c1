"""Seeded random games of every ruleset with a game, good results and broken ones mixed: every result is applied
or refused with a GameError (never another exception), the points on the table and in the players' hands always
add up to what they started with, and the record written back (text and JSON Lines) replays to the same sheet."""

from __future__ import annotations

import json
import random

import pytest

from mjcalc.game import Game, GameError
from mjcalc.support.builtin import builtin_names

NAMES = ["A", "B", "C", "D"]
# Winning lines that win under each family whatever the seat (the hand scorer's cases)
HANDS = {
    "riichi": ["123m456p789s777z 66z +dora=6z", "234m456p678s22p555z", "11m23p4p [555z] [666z] [777z]",
               "234m567p34s55p [678s] 2s", "123m456p789s23s55p 1s"],
    "changchun": ["123m456p789s111z 22z", "123m456p78s99s [111z] 9s", "123m456p789s (1111z) 22z"],
    "jilin": ["123m456p789s111z 22z", "123m456p78s99s [111z] 9s"],
    "meihe": ["123m456p789s111z 22z", "123m456p789s111z 22z +hui=5m"],
    "taiwan": ["234m456m789m123p456p1s 1s", "123m456p789s111z222z 33z"],
    "mcr": ["19m19p19s1234567z 1m", "111222333444z5m5m"],
}
FAMILY = {"riichi-tenhou": "riichi", "riichi-mleague": "riichi", "changchun-mil": "changchun",
          "taiwan-common": "taiwan"}
JUNK = ["", "B ron", "B ron B 123m", "draw ready Z", "abort nine", "penalty", "penalty B -5", "penalty B 10 B",
        '{"win": []}', '{"win": [{"winner": "B"}]}', '{"draw": 5}', '{"abort": "x"}', '{"penalty": {"player": "Q"}}',
        "[", "{", '{"game": {}}', "B ron C 123m456p789s111z 22z +seat=X", "B ron C 12345", "draw kongs B [123m]",
        "B tsumo 123m456p789s111z 22z +from=W", "kongs", "B ron C 123m456p789s111z 22z ; C ron D 123m"]


def _result(rng: random.Random, family: str) -> str | dict:
    r = rng.random()
    riichi = [n for n in NAMES if rng.random() < 0.1] if family == "riichi" else []
    if r < 0.55:
        winner = rng.choice(NAMES)
        hand = rng.choice(HANDS[family])
        if rng.random() < 0.5:
            line = f"{winner} tsumo {hand}"
        else:
            line = f"{winner} ron {rng.choice([n for n in NAMES if n != winner])} {hand}"
        if family == "riichi" and rng.random() < 0.05:
            line += f" ; {rng.choice(NAMES)} ron {rng.choice(NAMES)} {rng.choice(HANDS[family])}"
        if riichi:
            line += " riichi " + " ".join(riichi)
        if family in ("changchun", "jilin", "meihe") and rng.random() < 0.2:
            line += f" kongs {rng.choice(NAMES)} {rng.choice(['[7777z]', '(1111m)', '{1234z}', '{12341z}'])}"
        return line
    if r < 0.8:
        obj: dict = {"draw": {"ready": [n for n in NAMES if rng.random() < 0.4], "nagashi": []}}
        if family == "riichi" and rng.random() < 0.05:
            obj["draw"]["nagashi"] = [rng.choice(NAMES)]
        if riichi:
            obj["riichi"] = riichi
        return obj
    if r < 0.85:
        return f"abort {rng.choice(['nine_terminals', 'four_winds', 'four_kongs', 'triple_ron'])}"
    if r < 0.9:
        return f"penalty {rng.choice(NAMES)} false_win"
    if r < 0.95:
        return f"penalty {rng.choice(NAMES)} {rng.choice([10, 500, 1000])} {rng.choice(['each', 'table', 'C'])}"
    return rng.choice(JUNK)


@pytest.mark.parametrize("rules", builtin_names())
def test_random_games(rules: str) -> None:
    family = FAMILY.get(rules, rules)
    rng = random.Random(rules)
    for _ in range(12):
        game = Game.new(NAMES, rules)
        start = game.rules.start
        for _ in range(rng.randint(5, 40)):
            result = _result(rng, family)
            try:
                entry = game.add(json.dumps(result) if isinstance(result, dict) and rng.random() < 0.5 else result)
            except GameError as exc:
                assert exc.message and exc.kind in ("game", "notation", "context", "ruleset"), exc.message
                continue
            assert sum(entry.end) + game.next_hand()["table"] == 4 * start if game.next_hand() else True
        sheet = game.sheet().to_json()
        table = 0
        for h in sheet["hands"]:
            table -= sum(h["changes"])
            assert sum(h["end"]) + table == 4 * start
        assert sum(sheet["final"]["scores"]) + (table - sheet["final"]["leftover"]) == 4 * start
        for written in (game.to_text(), game.to_jsonl()):
            assert Game.from_record(written, errors="raise").sheet().to_json() == sheet
