"""The sheet of a game: every hand (its state before, its result, each player's change and running total) and the
final standing, as typed objects and as the JSON of docs/GAME.md (keys may be added, never renamed or dropped).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .hands import FRAGMENT, ScoredWin, json_bytes
from .errors import GameError

WINDS = ("E", "S", "W", "N")
_SEATS = [[WINDS[(p - dealer) % 4] for p in range(4)] for dealer in range(4)]  # each player's wind, by dealer


class WinEntry:
    """One win of a hand: winner, discarder (None: self-drawn), the player liable (pao), the line as scored (the
    context the game knows filled in) and its score."""

    __slots__ = ("winner", "discarder", "pao", "hand", "scored", "log", "agrees")

    def __init__(self, winner: int, discarder: int | None, pao: int | None, hand: str, scored: ScoredWin) -> None:
        self.winner = winner
        self.discarder = discarder
        self.pao = pao
        self.hand = hand
        self.scored = scored
        self.log: dict[str, Any] | None = None  # what an imported log recorded of this win
        self.agrees: bool | None = None  # whether it agrees with the score

    def _head(self) -> dict[str, Any]:
        return {"winner": self.winner, "from": self.discarder, "pao": self.pao, "hand": self.hand}

    def to_json(self, lang: str = "en", score: Callable[[ScoredWin], Any] | None = None) -> dict[str, Any]:
        return {"winner": self.winner, "from": self.discarder, "pao": self.pao, "hand": self.hand,
                "score": self.scored.to_json(lang) if score is None else score(self.scored), "log": self.log,
                "agrees": self.agrees}


class HandEntry:
    """One entry of the sheet: a result and the state of the game before it.

    ``number`` counts hands (a penalty that does not end its hand shares its number); ``round`` the round wind,
    ``round_number`` the rounds so far (from 1); ``dealer`` the dealer's player index; ``seats`` each player's
    seat wind; ``honba``, ``table`` (points on the table) and ``lian`` (the dealer's streak) before the hand;
    ``start`` / ``changes`` / ``end`` each player's score before, change over and score after the entry."""

    __slots__ = ("index", "number", "label", "round", "round_number", "dealer", "seats", "honba", "table", "lian",
                 "start", "result", "wins", "riichi", "ready", "nagashi", "abort", "penalty", "kongs", "changes",
                 "end")

    def __init__(self, index: int, number: int, label: str, round_index: int, dealer: int, honba: int, table: int,
                 lian: int, start: list[int], result: str) -> None:
        self.index = index  # which result of the record (0-based)
        self.number = number
        self.label = label
        self.round = WINDS[round_index % 4]
        self.round_number = round_index + 1
        self.dealer = dealer
        self.seats = list(_SEATS[dealer])
        self.honba = honba
        self.table = table
        self.lian = lian
        self.start = start
        self.result = result  # win | draw | abort | redeal | penalty
        self.wins: list[WinEntry] = []
        self.riichi: list[int] = []
        self.ready: list[int] = []
        self.nagashi: list[int] = []
        self.abort: str | None = None
        self.penalty: dict[str, Any] | None = None
        self.kongs: list[dict[str, Any]] = []  # other players' kongs paid apart: {player, kongs, each}
        self.changes = [0, 0, 0, 0]
        self.end = list(start)

    def _fields(self) -> dict[str, Any]:
        return {"number": self.number, "label": self.label, "round": self.round, "dealer": self.dealer,
                "honba": self.honba, "table": self.table, "start": self.start, "result": self.result}

    def _tail(self) -> dict[str, Any]:
        return {"riichi": self.riichi, "ready": self.ready, "nagashi": self.nagashi, "changes": self.changes,
                "end": self.end, "round_number": self.round_number, "seats": self.seats, "lian": self.lian,
                "abort": self.abort, "penalty": self.penalty, "kongs": self.kongs}

    def to_json(self, lang: str = "en", score: Callable[[ScoredWin], Any] | None = None) -> dict[str, Any]:
        return {"number": self.number, "label": self.label, "round": self.round, "dealer": self.dealer,
                "honba": self.honba, "table": self.table, "start": self.start, "result": self.result,
                "wins": [w.to_json(lang, score) for w in self.wins], "riichi": self.riichi, "ready": self.ready,
                "nagashi": self.nagashi, "changes": self.changes, "end": self.end, "round_number": self.round_number,
                "seats": self.seats, "lian": self.lian, "abort": self.abort, "penalty": self.penalty,
                "kongs": self.kongs}


class Final:
    """The standing after the last result: scores (leftover deposits included once the game has ended), the
    ranking (player indices, first place first; ties by seat order at the start), points where a preset defines
    them, whether and why the game ended, what the next hand would be, grades where the family has them."""

    __slots__ = ("scores", "ranking", "points", "ended", "reason", "leftover", "next", "grades")

    def __init__(self, scores: list[int], ranking: list[int], points: list[float] | None, ended: bool,
                 reason: str | None, leftover: int, next_hand: dict[str, Any] | None,
                 grades: list[dict[str, Any] | None] | None) -> None:
        self.scores = scores
        self.ranking = ranking
        self.points = points
        self.ended = ended
        self.reason = reason
        self.leftover = leftover
        self.next = next_hand
        self.grades = grades

    def to_json(self) -> dict[str, Any]:
        return {"scores": self.scores, "ranking": self.ranking, "points": self.points, "ended": self.ended,
                "reason": self.reason, "leftover": self.leftover, "next": self.next, "grades": self.grades}


class Sheet:
    """A game replayed: the ruleset, the players (seat order at the start, ``players[0]`` deals first), the
    options, every entry and the final standing; ``errors``: the results that could not be applied (a replay
    that skips them), each a GameError with its result's index."""

    def __init__(self, ruleset: str, players: list[str], options: dict[str, Any], hands: list[HandEntry],
                 final: Final, errors: list[GameError]) -> None:
        self.ruleset = ruleset
        self.players = players
        self.options = options
        self.hands = hands
        self.final = final
        self.errors = errors

    def to_json(self, lang: str = "en", score: Callable[[ScoredWin], Any] | None = None) -> dict[str, Any]:
        """The sheet as docs/GAME.md's JSON (``score``: how each win's score is given, default its object)."""
        return {"ruleset": self.ruleset, "players": self.players, "options": self.options,
                "hands": [h.to_json(lang, score) for h in self.hands], "final": self.final.to_json()}

    def json_bytes(self) -> bytes:
        """``to_json()`` as compact JSON bytes (UTF-8), each hand's score written as a batch writes a record:
        the same text as ``json_bytes(to_json())``, without building the scores' objects."""
        if FRAGMENT is not None:
            return json_bytes(self.to_json("en", _fragment))
        parts = [b'{"ruleset":', json_bytes(self.ruleset), b',"players":', json_bytes(self.players),
                 b',"options":', json_bytes(self.options), b',"hands":[']
        for n, h in enumerate(self.hands):
            if n:
                parts.append(b",")
            parts.append(json_bytes(h._fields())[:-1])
            parts.append(b',"wins":[')
            for k, w in enumerate(h.wins):
                if k:
                    parts.append(b",")
                parts.append(json_bytes(w._head())[:-1])
                parts.append(b',"score":')
                parts.append(w.scored.json_bytes())
                parts.append(b',"log":')
                parts.append(json_bytes(w.log))
                parts.append(b',"agrees":')
                parts.append(json_bytes(w.agrees))
                parts.append(b"}")
            parts.append(b"],")
            parts.append(json_bytes(h._tail())[1:])
        parts.append(b'],"final":')
        parts.append(json_bytes(self.final.to_json()))
        parts.append(b"}")
        return b"".join(parts)


def _fragment(scored: ScoredWin) -> Any:
    return FRAGMENT(scored.json_bytes())
