"""Fitting the terminal: the full layout is the default; given a width (the terminal's, or COLUMNS), each line
that would pass it is wrapped (a Chinese character takes two columns), and a table that would is written in a
narrow layout of the same facts by its caller."""

from __future__ import annotations

LABEL = 10  # the width of a header line's label ("context   ")


def terminal_width() -> int | None:
    """The width to fit: COLUMNS when set, else the terminal's; None (the full layout) when writing to a pipe."""
    import os
    import shutil
    import sys

    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def cols(text: str) -> int:
    """Columns a line takes on a terminal: a wide character (Chinese) two, a combining mark none."""
    if text.isascii():
        return len(text)
    from unicodedata import combining, east_asian_width

    return sum(0 if combining(ch) else 2 if east_asian_width(ch) in "WF" else 1 for ch in text)


def _widest(text: str) -> int:
    return max((cols(line) for line in text.splitlines()), default=0)


def _cut(word: str, room: int) -> tuple[str, str]:
    """The longest head of ``word`` that fits ``room`` columns (at least one character), and the rest."""
    used = 0
    for i, ch in enumerate(word):
        used += cols(ch)
        if used > room and i:
            return word[:i], word[i:]
    return word, ""


def wrap(text: str, width: int | None, indent: int = 0) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken at spaces (a word too long for a line is cut);
    lines after the first indented by ``indent``. No width, or a line that fits: the line as it is."""
    if width is None or cols(text) <= width:
        return [text]
    import re

    lead = len(text) - len(text.lstrip(" "))
    tokens = re.split(r"( +)", text[lead:])
    lines: list[str] = []
    line, pad, has_word = text[:lead], " " * indent, False
    for j in range(0, len(tokens), 2):
        word, sep = tokens[j], tokens[j - 1] if j else ""
        if has_word and cols(line + sep + word) > width:
            lines.append(line)
            line, sep = pad, ""
        while cols(line + sep + word) > width and cols(line + sep) < width:
            head, word = _cut(word, width - cols(line + sep))
            if not word:
                word = head
                break
            lines.append(line + sep + head)
            line, sep = pad, ""
        line += sep + word
        has_word = True
    lines.append(line)
    return lines


def wrap_parts(text: str, width: int | None, indent: int = 0, sep: str = " · ") -> list[str]:
    """``text`` made of parts joined by ``sep``, in lines of at most ``width`` columns broken only between parts
    (a key stays with its value: ``honba 1``); a part too wide for a line of its own is wrapped at spaces."""
    if width is None or cols(text) <= width:
        return [text]
    parts = text.split(sep)
    lines: list[str] = []
    line = parts[0]
    for k, part in enumerate(parts[1:], 2):
        if cols(line + sep + part + (sep.rstrip() if k < len(parts) else "")) > width:
            lines.append(line + sep.rstrip())
            line = " " * indent + part
        else:
            line += sep + part
    lines.append(line)
    return _wrapped(lines, width, indent)


def _fields(label: str, parts: list[str], width: int | None, tail: str = "", sep: str = " · ") -> list[str]:
    """A header line: the label, the parts joined by ``sep``, then ``tail``; given a width, a part (or the
    tail) that does not fit starts a line of its own under the first part."""
    line = label + " " * max(1, LABEL - cols(label)) + (parts[0] if parts else "")  # 手牌 takes 4 columns
    lines: list[str] = []
    for part in parts[1:]:
        if width is not None and cols(line + sep + part) > width:
            lines.append(line)
            line = " " * LABEL + part
        else:
            line += sep + part
    if tail and width is not None and cols(line + tail) > width:
        lines.append(line)
        line = " " * LABEL + tail.strip()
    else:
        line += tail
    lines.append(line)
    return _wrapped(lines, width, LABEL)


def _wrapped(lines: list[str], width: int | None, indent: int = 0) -> list[str]:
    return [out for line in lines for out in wrap(line, width, indent)]
