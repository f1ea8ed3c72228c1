"""The one error type a user can see, with what went wrong, where, and the exit code it maps to."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import ClassVar

# Exit codes, one meaning each (the README lists them).
EXIT_WIN = 0
EXIT_NOT_A_WIN = 1
EXIT_BAD_INPUT = 2  # notation or context: the line cannot be read
EXIT_BAD_RULESET = 3  # a ruleset file, an option or the configuration is wrong


class MjcalcError(Exception):
    """A problem the user can fix. ``column`` is 1-based, in the line as given."""

    exit_codes: ClassVar[dict[str, int]] = {"notation": EXIT_BAD_INPUT, "context": EXIT_BAD_INPUT,
                                            "ruleset": EXIT_BAD_RULESET}

    def __init__(self, kind: str, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.column = column

    @property
    def exit_code(self) -> int:
        return self.exit_codes.get(self.kind, EXIT_BAD_INPUT)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "message": self.message, "column": self.column}

    def caret(self, line: str) -> str:
        """The line and a caret under the column (wide Chinese characters take two cells)."""
        if self.column is None:
            return ""
        pad = sum(2 if ord(ch) > 0x2E7F else 1 for ch in line[: self.column - 1])
        return f"  {line}\n  {' ' * pad}^"


def did_you_mean(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
