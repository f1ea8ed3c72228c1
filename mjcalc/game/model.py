"""The typed objects of a game record: the header (players, ruleset, options) and the results. The one error type
of the game (``GameError``) is in errors.py and is imported from here too.

Players are referred to by index into ``Header.players``: the seat order at the start, ``players[0]`` dealing
first. Readers (text.py, records.py) turn names (and seat winds, in the text form) into indices; writers turn
them back into names.
"""

from __future__ import annotations

from typing import Any, ClassVar, Union

from .errors import GameError

__all__ = ["ABORTS", "TARGETS", "AbortResult", "DrawResult", "GameError", "Header", "Kongs", "PenaltyResult", "Result",
           "Win", "WinResult"]

ABORTS = ("nine_terminals", "four_winds", "four_riichi", "four_kongs", "triple_ron")
TARGETS = ("each", "table")  # where a penalty's amount goes, besides a named player


class _Value:
    """A value object: its fields (``_names``), set once by ``__init__``, are what it is equal, hashed and shown by.
    (Plain classes, compiled, not dataclasses: a replay makes two for every result.)"""

    _names: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return ()

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and isinstance(other, _Value) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(tuple(v if not isinstance(v, dict) else None for v in self._values()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(self._names, self._values()))
        return f"{type(self).__name__}({fields})"


class Header(_Value):
    """Who plays (seat order at the start, ``players[0]`` deals first), by which ruleset (a built-in name or a
    file) and with which options (``--set``: hand and game options alike, as given)."""

    _names: ClassVar[tuple[str, ...]] = ("players", "rules", "options")

    def __init__(self, players: tuple[str, ...], rules: str, options: dict[str, Any] | None = None) -> None:
        self.players = players
        self.rules = rules
        self.options: dict[str, Any] = {} if options is None else options

    def _values(self) -> tuple[Any, ...]:
        return (self.players, self.rules, self.options)


class Win(_Value):
    """One winner of a result: from whom (None: self-drawn), the winning line, the player liable (pao), and for
    an imported game what the log recorded (``{"han": 3, "fu": 40, "points": 5200}``)."""

    _names: ClassVar[tuple[str, ...]] = ("winner", "discarder", "hand", "pao", "log")

    def __init__(self, winner: int, discarder: int | None, hand: str, pao: int | None = None,
                 log: dict[str, Any] | None = None) -> None:
        self.winner = winner
        self.discarder = discarder
        self.hand = hand
        self.pao = pao
        self.log = log

    def _values(self) -> tuple[Any, ...]:
        return (self.winner, self.discarder, self.hand, self.pao, self.log)


Kongs = tuple[tuple[int, tuple[str, ...]], ...]


class WinResult(_Value):
    """A hand won: one win, or several on one discard where the rules allow it. ``riichi``: the players whose
    declaration was accepted this hand; ``kongs``: other players' kongs (rules where every kong is paid), each a
    player and the kongs as written; ``hui``: the wildcard kind for those kongs (Meihe; a win's own line gives
    it too)."""

    _names: ClassVar[tuple[str, ...]] = ("wins", "riichi", "kongs", "hui")
    kind: ClassVar[str] = "win"

    def __init__(self, wins: tuple[Win, ...], riichi: tuple[int, ...] = (), kongs: Kongs = (),
                 hui: str | None = None) -> None:
        self.wins = wins
        self.riichi = riichi
        self.kongs = kongs
        self.hui = hui

    def _values(self) -> tuple[Any, ...]:
        return (self.wins, self.riichi, self.kongs, self.hui)


class DrawResult(_Value):
    """An exhaustive draw (荒庄 / 流局): who was ready, who made nagashi mangan, riichi, kongs, hui."""

    _names: ClassVar[tuple[str, ...]] = ("ready", "nagashi", "riichi", "kongs", "hui")
    kind: ClassVar[str] = "draw"

    def __init__(self, ready: tuple[int, ...] = (), nagashi: tuple[int, ...] = (), riichi: tuple[int, ...] = (),
                 kongs: Kongs = (), hui: str | None = None) -> None:
        self.ready = ready
        self.nagashi = nagashi
        self.riichi = riichi
        self.kongs = kongs
        self.hui = hui

    def _values(self) -> tuple[Any, ...]:
        return (self.ready, self.nagashi, self.riichi, self.kongs, self.hui)


class AbortResult(_Value):
    """An abortive draw (riichi): one of ``ABORTS``; the hand is redealt."""

    _names: ClassVar[tuple[str, ...]] = ("abort", "riichi")
    kind: ClassVar[str] = "abort"

    def __init__(self, abort: str, riichi: tuple[int, ...] = ()) -> None:
        self.abort = abort
        self.riichi = riichi

    def _values(self) -> tuple[Any, ...]:
        return (self.abort, self.riichi)


class PenaltyResult(_Value):
    """A penalty: the family's false win (``false_win``: riichi's 诈和, MCR's 错和), or an amount paid to each other
    player (``to="each"``), onto the table (``"table"``) or to a player (an index)."""

    _names: ClassVar[tuple[str, ...]] = ("player", "false_win", "amount", "to", "riichi")
    kind: ClassVar[str] = "penalty"

    def __init__(self, player: int, false_win: bool = False, amount: int | None = None, to: str | int = "each",
                 riichi: tuple[int, ...] = ()) -> None:
        self.player = player
        self.false_win = false_win
        self.amount = amount
        self.to = to
        self.riichi = riichi

    def _values(self) -> tuple[Any, ...]:
        return (self.player, self.false_win, self.amount, self.to, self.riichi)


Result = Union[WinResult, DrawResult, AbortResult, PenaltyResult]
