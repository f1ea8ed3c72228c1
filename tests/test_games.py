"""Data-driven games: every file tests/games/<family>.yaml, one test per game, plus round trips and coverage.

A game file::

    rules: riichi                 # the ruleset of its games (a game may give its own `rules`)
    hands:                        # winning lines by name, used in results as {NAME}
      M: "123m456p789s777z 66z +dora=6z"
    rules_covered: [dealer_repeats_on_win, ...]   # every game rule of the family: each game says which it shows
    games:
      - id: dealer_repeats
        covers: [dealer_repeats_on_win]
        set: {triple_ron: pay}    # options (as --set)
        players: [A, B, C, D]     # default: A B C D, A dealing first
        results:                  # the text form (docs/GAME.md), or GAME.md's JSON objects
          - "A ron C {M}"
        expect:                   # only the keys given are checked
          hands:                  # the sheet's entries in order, each a partial of its JSON (null: not checked)
            - {label: 东1局, changes: [12000, 0, -12000, 0]}
          next: {dealer: 0, honba: 1}          # a partial of final.next (null: the game has ended)
          final: {scores: [...], ended: true}  # a partial of final
          errors: [{index: 1, says: "..."}]    # results refused (the others replay): which (its position in
                                               # `results`), and words of the message

Every game is also written back as text and as JSON Lines and read again: the same sheet each time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from mjcalc.game import Game, GameError, header_to_text

GAME_DIR = Path(__file__).parent / "games"


def _load() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for path in sorted(GAME_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for game in data["games"]:
            out.append((path.stem, data, game))
    return out


GAMES = _load()


def _results(data: dict[str, Any], game: dict[str, Any]) -> list[Any]:
    out = []
    for r in game["results"]:
        if isinstance(r, str):
            for name, line in (data.get("hands") or {}).items():
                r = r.replace("{" + name + "}", line)
        out.append(r)
    return out


def play(data: dict[str, Any], game: dict[str, Any]) -> Game:
    from mjcalc.game import make_header

    header = make_header(game.get("players", ["A", "B", "C", "D"]), game.get("rules", data["rules"]),
                         game.get("set") or {}, game.get("dealer"))
    g = Game(header)
    for n, r in enumerate(_results(data, game)):
        try:
            g.add(r, line=n + 2)
        except GameError as exc:
            g.errors.append(exc)
    return g


def _partial(got: Any, want: Any, where: str) -> None:
    if isinstance(want, dict):
        assert isinstance(got, dict), f"{where}: {got!r} is no object"
        for key, value in want.items():
            assert key in got, f"{where}: no key {key!r} in {sorted(got)}"
            _partial(got[key], value, f"{where}.{key}")
    elif isinstance(want, list) and any(isinstance(w, dict) for w in want):
        assert isinstance(got, list) and len(got) == len(want), f"{where}: {len(got)} entries, not {len(want)}"
        for n, (g, w) in enumerate(zip(got, want)):
            if w is not None:
                _partial(g, w, f"{where}[{n}]")
    else:
        if isinstance(want, float) or isinstance(got, float):
            assert got == pytest.approx(want), f"{where}: {got!r}, not {want!r}"
        else:
            assert got == want, f"{where}: {got!r}, not {want!r}"


@pytest.mark.parametrize(("family", "data", "game"), GAMES, ids=[f"{f}::{g['id']}" for f, _, g in GAMES])
def test_game(family: str, data: dict[str, Any], game: dict[str, Any]) -> None:
    g = play(data, game)
    sheet = g.sheet().to_json()
    expect = game.get("expect") or {}
    want_errors = expect.get("errors", [])
    got_errors = [(e.line - 2, e.message) for e in g.errors]  # the position in `results` (line = position + 2)
    assert len(got_errors) == len(want_errors), f"errors: {got_errors}"
    for (index, message), want in zip(got_errors, want_errors):
        assert index == want["index"], (index, message)
        for words in ([want["says"]] if isinstance(want.get("says"), str) else want.get("says", [])):
            assert words in message, f"{words!r} not in {message!r}"
    if "hands" in expect:
        hands = [{**h, "wins": [{k: v for k, v in w.items() if k != "score"} for w in h["wins"]]}
                 for h in sheet["hands"]]
        _partial(hands, expect["hands"], "hands")
    if "next" in expect:
        if expect["next"] is None:
            assert sheet["final"]["next"] is None, sheet["final"]["next"]
        else:
            _partial(sheet["final"]["next"], expect["next"], "next")
    if "final" in expect:
        _partial(sheet["final"], expect["final"], "final")
    # every entry's scores follow from the one before, and what the changes do not add up to is on the table
    table, scores = 0, None
    for h in sheet["hands"]:
        assert h["end"] == [s + c for s, c in zip(h["start"], h["changes"])]
        assert scores is None or h["start"] == scores
        assert h["table"] == table
        table -= sum(h["changes"])
        scores = h["end"]
    if sheet["final"]["ended"]:
        assert sheet["final"]["leftover"] in (0, table)
    # text and JSON Lines give the same sheet back
    for written in (g.to_text(), g.to_jsonl()):
        again = Game.from_record(written, errors="raise")
        assert again.sheet().to_json() == sheet, written
        assert again.to_text() == g.to_text() and again.to_jsonl() == g.to_jsonl()
    assert header_to_text(g.header).split()[0] == "game"
    assert json.loads(g.sheet().json_bytes()) == sheet


@pytest.mark.parametrize("family", sorted({f for f, _, _ in GAMES}))
def test_every_rule_of_the_family_is_shown(family: str) -> None:
    """Each file lists its family's game rules (``rules_covered``); each is shown by some game, and every game
    says which rules it shows."""
    data = yaml.safe_load((GAME_DIR / f"{family}.yaml").read_text(encoding="utf-8"))
    shown = {c for game in data["games"] for c in game.get("covers", [])}
    listed = set(data.get("rules_covered", []))
    assert listed, "the file lists its rules"
    assert listed - shown == set(), f"{family}: rules no game shows"
    assert shown - listed == set(), f"{family}: games cover rules not listed"
    assert all(game.get("covers") for game in data["games"]), "every game says what it shows"
