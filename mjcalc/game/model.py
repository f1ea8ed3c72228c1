"""The typed objects of a game record: the header (players, ruleset, options) and the results, and the one error
type of the game (what, where, which result).

Players are referred to by index into ``Header.players``: the seat order at the start, ``players[0]`` dealing
first. Readers (text.py, records.py) turn names (and seat winds, in the text form) into indices; writers turn
them back into names.
"""

from __future__ import annotations

from typing import Any, ClassVar, Union

from .hands import MjcalcError

ABORTS = ("nine_terminals", "four_winds", "four_riichi", "four_kongs", "triple_ron")
TARGETS = ("each", "table")  # where a penalty's amount goes, besides a named player


class GameError(MjcalcError):
    """A game record that cannot be read or a result that cannot be applied: ``message`` says what; ``column``
    (1-based) where in ``text`` (the result's line as written, when it was text); ``index`` which result (0-based,
    in the list given to ``replay``; None for the header); ``line`` the line of the file it came from. Exit code 2,
    as a hand line's error."""

    def __init__(self, message: str, column: int | None = None, *, index: int | None = None,
                 text: str | None = None, line: int | None = None, kind: str = "game", part: int | None = None) -> None:
        super().__init__(kind, message, column)
        self.index = index
        self.text = text
        self.line = line
        self.part = part  # which win of the result, for an error in its winning hand (its column is in the hand)

    def located(self, *, index: int | None = None, text: str | None = None, line: int | None = None,
                shift: int = 0, part: int | None = None) -> GameError:
        """The same error, placed: its result's index, the line as written, the file's line number; ``shift``
        moves the column (a hand's column within the result's line)."""
        column = None if self.column is None else self.column + shift
        return GameError(self.msg, column, index=self.index if index is None else index,
                         text=self.text if text is None else text, line=self.line if line is None else line,
                         kind=self.kind, part=self.part if part is None else part)

    def render(self, lang: str = "en", file: str | None = None) -> str:  # type: ignore[override]
        """``FILE:LINE: message`` (what is known of the place), and the line with a caret under the column."""
        where = ":".join(str(p) for p in (file, self.line) if p is not None)
        text = f"{where}: {self.message}" if where else self.message
        if self.text is not None and self.column is not None:
            text += "\n" + self.caret(self.text)
        return text


class _Value:
    """A value object: its fields are its ``__slots__``, set once by ``__init__``; equal, hashed and shown by them.
    (Plain slotted classes, not dataclasses: a replay makes two for every result, and a dataclass's ``__init__``
    costs several times as much.)"""

    __slots__: tuple[str, ...] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__ and self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(tuple(v if not isinstance(v, dict) else None for v in self._values()))

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.__slots__)})"


class Header(_Value):
    """Who plays (seat order at the start, ``players[0]`` deals first), by which ruleset (a built-in name or a
    file) and with which options (``--set``: hand and game options alike, as given)."""

    __slots__ = ("players", "rules", "options")

    def __init__(self, players: tuple[str, ...], rules: str, options: dict[str, Any] | None = None) -> None:
        self.players = players
        self.rules = rules
        self.options: dict[str, Any] = {} if options is None else options


class Win(_Value):
    """One winner of a result: from whom (None: self-drawn), the winning line, the player liable (pao), and for
    an imported game what the log recorded (``{"han": 3, "fu": 40, "points": 5200}``)."""

    __slots__ = ("winner", "discarder", "hand", "pao", "log")

    def __init__(self, winner: int, discarder: int | None, hand: str, pao: int | None = None,
                 log: dict[str, Any] | None = None) -> None:
        self.winner = winner
        self.discarder = discarder
        self.hand = hand
        self.pao = pao
        self.log = log


Kongs = tuple[tuple[int, tuple[str, ...]], ...]


class WinResult(_Value):
    """A hand won: one win, or several on one discard where the rules allow it. ``riichi``: the players whose
    declaration was accepted this hand; ``kongs``: other players' kongs (rules where every kong is paid), each a
    player and the kongs as written; ``hui``: the wildcard kind for those kongs (Meihe; a win's own line gives
    it too)."""

    __slots__ = ("wins", "riichi", "kongs", "hui")
    kind: ClassVar[str] = "win"

    def __init__(self, wins: tuple[Win, ...], riichi: tuple[int, ...] = (), kongs: Kongs = (),
                 hui: str | None = None) -> None:
        self.wins = wins
        self.riichi = riichi
        self.kongs = kongs
        self.hui = hui


class DrawResult(_Value):
    """An exhaustive draw (荒庄 / 流局): who was ready, who made nagashi mangan, riichi, kongs, hui."""

    __slots__ = ("ready", "nagashi", "riichi", "kongs", "hui")
    kind: ClassVar[str] = "draw"

    def __init__(self, ready: tuple[int, ...] = (), nagashi: tuple[int, ...] = (), riichi: tuple[int, ...] = (),
                 kongs: Kongs = (), hui: str | None = None) -> None:
        self.ready = ready
        self.nagashi = nagashi
        self.riichi = riichi
        self.kongs = kongs
        self.hui = hui


class AbortResult(_Value):
    """An abortive draw (riichi): one of ``ABORTS``; the hand is redealt."""

    __slots__ = ("abort", "riichi")
    kind: ClassVar[str] = "abort"

    def __init__(self, abort: str, riichi: tuple[int, ...] = ()) -> None:
        self.abort = abort
        self.riichi = riichi


class PenaltyResult(_Value):
    """A penalty: the family's false win (``false_win``: riichi's 诈和, MCR's 错和), or an amount paid to each other
    player (``to="each"``), onto the table (``"table"``) or to a player (an index)."""

    __slots__ = ("player", "false_win", "amount", "to", "riichi")
    kind: ClassVar[str] = "penalty"

    def __init__(self, player: int, false_win: bool = False, amount: int | None = None, to: str | int = "each",
                 riichi: tuple[int, ...] = ()) -> None:
        self.player = player
        self.false_win = false_win
        self.amount = amount
        self.to = to
        self.riichi = riichi


Result = Union[WinResult, DrawResult, AbortResult, PenaltyResult]
