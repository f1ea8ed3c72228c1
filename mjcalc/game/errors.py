"""The one error type of the game (what, where, which result), apart from the game's typed objects: it derives from
the package's MjcalcError, which is not compiled, and a compiled class cannot derive from one that is not."""

from __future__ import annotations

from .hands import MjcalcError


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
