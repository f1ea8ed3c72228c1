"""The one error type a user can see, with what went wrong, where, and the exit code it maps to."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import ClassVar, Final

from .i18n import Msg, localized

# Exit codes, one meaning each (the README lists them).
EXIT_WIN = 0
EXIT_NOT_A_WIN = 1
EXIT_BAD_INPUT = 2  # notation or context: the line cannot be read
EXIT_BAD_RULESET = 3  # a ruleset file, an option or the configuration is wrong


class MjcalcError(Exception):
    """A problem the user can fix. ``column`` is 1-based, in the line as given."""

    exit_codes: ClassVar[dict[str, int]] = {"notation": EXIT_BAD_INPUT, "context": EXIT_BAD_INPUT,
                                            "ruleset": EXIT_BAD_RULESET, "option": EXIT_BAD_RULESET}

    def __init__(self, kind: str, message: str, column: int | None = None) -> None:
        self.msg = message  # a Msg renders again in another language (render)
        message = printable(message, keep_newlines=True)  # it may quote the line: no control character reaches a terminal
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.column = column

    def render(self, lang: str = "en") -> str:
        """The message in ``lang`` (English: ``message``)."""
        if lang == "en":
            return self.message
        return printable(localized(self.msg, lang), keep_newlines=True)

    @property
    def exit_code(self) -> int:
        return self.exit_codes.get(self.kind, EXIT_BAD_INPUT)

    def to_json(self, lang: str = "en") -> dict[str, object]:
        return {"kind": self.kind, "message": self.render(lang), "column": self.column}

    def caret(self, line: str) -> str:
        """The line and a caret under the column: control characters escaped (``\\x00`` takes four cells), wide
        Chinese characters two cells; a long line is cut to the part around the column."""
        if self.column is None:
            return ""
        at = self.column - 1
        start = max(0, min(at - CARET_CONTEXT, len(line) - 2 * CARET_CONTEXT))
        end = start + 2 * CARET_CONTEXT + 1
        before = ("…" if start else "") + printable(line[start:at])
        after = printable(line[at:end]) + ("…" if end < len(line) else "")
        pad = sum(map(_cells, before))
        return f"  {before}{after}\n  {' ' * pad}^"


CARET_CONTEXT: Final = 60  # characters shown on each side of the caret of a long line
_ESCAPED_CATEGORIES: Final = frozenset(("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"))


def printable(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with each control or format character, lone surrogate (an undecodable byte) and unassigned code
    point escaped, so that echoing a line can neither move the cursor, reorder the text nor fail to print.

    >>> printable("12\\x00m\\u202e3s\\tx")
    '12\\\\x00m\\\\u202e3s\\\\tx'
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or (ch == "\n" and keep_newlines) else _escaped(ch) for ch in text)


def _escaped(ch: str) -> str:
    if unicodedata.category(ch) not in _ESCAPED_CATEGORIES:
        return ch  # a space other than " " (U+3000, U+00A0): printable, though isprintable() says no
    code = ord(ch)
    if code < 0x100:
        return {"\t": "\\t", "\n": "\\n", "\r": "\\r"}.get(ch, f"\\x{code:02x}")
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _cells(ch: str) -> int:
    """How many terminal cells a printable character takes."""
    if ch < "\u0300":
        return 1
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def did_you_mean(word: str, known: Iterable[str], prefix: str = "") -> str:
    """`` (did you mean 'x'?)`` with the known word nearest ``word``, written after ``prefix`` as the user writes it
    (``+zimo``), or "" (a Msg: a parameter of another)."""
    import difflib  # only when a name is wrong

    close = difflib.get_close_matches(word, list(known), n=1)
    return Msg(" (did you mean '{word}'?)", word=prefix + close[0]) if close else ""


def quoted(value: object) -> str:
    """A value from a file or a command line, quoted and cut short (a message stays one readable line)."""
    if value is None or isinstance(value, (bool, int, float)):
        if isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
            return text if len(text) <= 20 else f"a number of {len(text)} digits"
        return repr(value)
    text = value if isinstance(value, str) else repr(value)
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return f"'{text[:60]}…'" if len(text) > 60 else f"'{text}'"


class RulesetError(MjcalcError, ValueError):
    """The ``rules`` or ``options`` given to a function are wrong: no such ruleset, a ruleset file that cannot be
    read, an option the ruleset does not have or a value it cannot take. ``message`` says which and why.
    (A ruleset a *line* names with ``+rules=`` is that line's error record instead.)

    >>> import mjcalc
    >>> mjcalc.score("123m456p789s111z22z", rules="nosuch")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjcalc.errors.RulesetError: unknown ruleset 'nosuch'; built-in: changchun, ...
    """
