"""The typed objects of a game record: the header (players, ruleset, options) and the results, and the one error
type of the game (what, where, which result).

Players are referred to by index into ``Header.players``: the seat order at the start, ``players[0]`` dealing
first. Readers (text.py, records.py) turn names (and seat winds, in the text form) into indices; writers turn
them back into names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Union

from ..errors import MjcalcError

if TYPE_CHECKING:  # what mypy reads; at run time the same classes without the dataclasses module (mjcalc.frozen)
    from dataclasses import dataclass, field
else:
    from ..frozen import dataclass, field

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


@dataclass(frozen=True)
class Header:
    """Who plays (seat order at the start, ``players[0]`` deals first), by which ruleset (a built-in name or a
    file) and with which options (``--set``: hand and game options alike, as given)."""

    players: tuple[str, ...]
    rules: str
    options: dict[str, Any] = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class Win:
    """One winner of a result: from whom (None: self-drawn), the winning line, the player liable (pao), and for
    an imported game what the log recorded (``{"han": 3, "fu": 40, "points": 5200}``)."""

    winner: int
    discarder: int | None
    hand: str
    pao: int | None = None
    log: dict[str, Any] | None = field(default=None, hash=False)  # what an imported log recorded of the win


@dataclass(frozen=True)
class WinResult:
    """A hand won: one win, or several on one discard where the rules allow it. ``riichi``: the players whose
    declaration was accepted this hand; ``kongs``: other players' kongs (rules where every kong is paid), each a
    player and the kongs as written; ``hui``: the wildcard kind for those kongs (Meihe; a win's own line gives
    it too)."""

    wins: tuple[Win, ...]
    riichi: tuple[int, ...] = ()
    kongs: tuple[tuple[int, tuple[str, ...]], ...] = ()
    hui: str | None = None

    kind: ClassVar[str] = "win"


@dataclass(frozen=True)
class DrawResult:
    """An exhaustive draw (荒庄 / 流局): who was ready, who made nagashi mangan, riichi, kongs, hui."""

    ready: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    riichi: tuple[int, ...] = ()
    kongs: tuple[tuple[int, tuple[str, ...]], ...] = ()
    hui: str | None = None

    kind: ClassVar[str] = "draw"


@dataclass(frozen=True)
class AbortResult:
    """An abortive draw (riichi): one of ``ABORTS``; the hand is redealt."""

    abort: str
    riichi: tuple[int, ...] = ()

    kind: ClassVar[str] = "abort"


@dataclass(frozen=True)
class PenaltyResult:
    """A penalty: the family's false win (``false_win``: riichi's 诈和, MCR's 错和), or an amount paid to each other
    player (``to="each"``), onto the table (``"table"``) or to a player (an index)."""

    player: int
    false_win: bool = False
    amount: int | None = None
    to: str | int = "each"
    riichi: tuple[int, ...] = ()

    kind: ClassVar[str] = "penalty"


Result = Union[WinResult, DrawResult, AbortResult, PenaltyResult]
