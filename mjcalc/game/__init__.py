"""A whole game: a list of results replayed into the state of every hand and the sheet (docs/GAME.md).

A game is its players (seat order at the start, the first dealing first), a ruleset with its options (hand and
game options alike: the ruleset's ``game:`` section declares the game's), and its results. Everything else —
dealer, round, seat winds, hand number and label, honba, deposits on the table, the dealer's streak, scores, the
end, ranking, points, grades — is derived by replaying the results; each win is scored by the hand scorer with
the context the game knows filled in.

The interface (for storage, the command line, the Python API):

- ``Game`` — ``Game.new(players, rules, options, dealer)`` or ``Game(header)``; ``add(result, hand=N)`` (a
  ``Result``, its text form, or GAME.md's JSON object or its text) → the ``HandEntry`` it makes, or GameError
  and nothing changed; ``undo()``; ``results``; ``next_hand()``; ``sheet()`` → ``Sheet`` (``to_json()``,
  ``json_bytes()``); ``to_text()`` / ``to_jsonl()`` write the record; ``Game.from_record(text)`` reads one
  (text form or JSON Lines), a bad line kept in ``errors`` and the rest replayed.
- ``replay(header, results, errors="raise" | "skip" | "stop")`` → ``Sheet``: typed results in, the sheet out.
- Reading and writing one piece: ``header_from_text`` / ``header_to_text``, ``header_from_json`` /
  ``header_to_json``, ``result_from_text(line, header, seats)`` / ``result_to_text``, ``result_from_json`` /
  ``result_to_json``. Text → objects → text and JSON → objects → JSON give the same back.
- ``GameError``: what (``message``), where (``column`` in ``text``, the file's ``line``), which result
  (``index``); ``render(file=…)`` is ``FILE:LINE: message`` with a caret under the column. Exit code 2.
- ``game_rules(rules, options)`` → ``GameRules``: the ``game:`` section read (``grade(total)`` for the
  Changchun ladder).
- Files (``mjcalc.game.files``): ``split_games(lines)`` (a file may hold several games, each from its header),
  ``games_of(text)`` (each replayed, its bad lines in ``errors``), ``replay_files(paths, out, err)`` (what
  ``game replay FILE…`` does: one JSON sheet a line, ``FILE:LINE: message`` for each bad line, exit code 0 or 2).
  ``python -m mjcalc.game replay FILE…`` runs it.

Every call into the hand pipeline goes through ``mjcalc.game.hands``. On top of the engine: games kept in SQLite
(``mjcalc.game.store``), the sheet for people and as CSV (``mjcalc.game.render``), the scores as an SVG chart
(``mjcalc.game.chart``); the commands are mjcalc/cli_game.py.
"""

from __future__ import annotations

from .game import Game, Source
from .model import (
    ABORTS,
    AbortResult,
    DrawResult,
    GameError,
    Header,
    PenaltyResult,
    Result,
    Win,
    WinResult,
)
from .records import header_from_json, header_to_json, make_header, result_from_json, result_to_json
from .replay import Replay, replay
from .rules import GameRules, game_rules
from .sheet import Final, HandEntry, Sheet, WinEntry
from .text import header_from_text, header_to_text, result_from_text, result_to_text

__all__ = [
    "ABORTS", "AbortResult", "DrawResult", "Final", "Game", "GameError", "GameRules", "HandEntry", "Header",
    "PenaltyResult", "Replay", "Result", "Sheet", "Source", "Win", "WinEntry", "WinResult", "game_rules",
    "header_from_json", "header_from_text", "header_to_json", "header_to_text", "make_header", "replay",
    "result_from_json", "result_from_text", "result_to_json", "result_to_text",
]
