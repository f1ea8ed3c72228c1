"""A batch file's physical lines and the records read from them: the part of reading that every line of a batch
goes through, compiled (setup.py COMPILED) while the rest of mjcalc.batch stays Python. ``LineSource`` decodes a
byte stream line by line (``Line``); ``read_lines`` reads a file of one-line notation into ``Record``s, the other
formats' readers (mjcalc.batch) make them too.

Compiled, ``Line`` and ``Record`` are native classes: each says how it is pickled (``__reduce__``), for the
worker processes of ``--jobs`` and of Dask, which a native class does not by itself.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from typing import IO, Any, Final

from ..core.notation import FlagWord

MAX_RECORD: Final = 65_536  # characters in one physical line (one record of lines / CSV / JSONL)


class Record:
    """One input record: a hand line with what the record adds, or a reason it cannot be scored."""

    def __init__(self, line: int, text: str = "", rules: str | None = None, options: dict[str, Any] | None = None,
                 flags: list[FlagWord] | None = None, answer: str | dict[str, Any] | None = None,
                 skipped: bool = False, problem: str | None = None) -> None:
        self.line = line
        self.text = text
        self.rules = rules
        self.options: dict[str, Any] = {} if options is None else options
        self.flags: list[FlagWord] = [] if flags is None else flags
        self.answer = answer  # homework: the student's answer
        self.skipped = skipped  # a comment or blank line, kept in place
        self.problem = problem  # the record itself could not be read (bad JSON, no hand, not UTF-8 …)
        # A hand line and nothing of its own (no rules, options or flags): most of a file, scored under the file's
        # own request as it is. Worked out once (a record is not changed once read): a property would cost every
        # line of a batch a call.
        self.plain = problem is None and not skipped and rules is None and not self.options and not self.flags

    def __reduce__(self) -> tuple[Any, ...]:
        return Record, (self.line, self.text, self.rules, self.options, self.flags, self.answer, self.skipped,
                        self.problem)


# --- decoding: physical lines, each on its own ---------------------------------------------------------

_BOMS: Final = (  # longest first: the UTF-32 LE mark begins with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"), (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)


_BLOCK: Final = 1 << 16
_HEAD: Final = 80  # characters of an over-long line kept to show it
_MARK: Final = 0xDC00  # the lone surrogates U+DC00 + byte stand for bytes that are not text (_mark_bad_bytes)
# (made with chr: mypyc takes no surrogate in a string literal)
_MARKED: Final = re.compile(f"[{chr(_MARK)}-{chr(_MARK + 0xFF)}]")  # no decoder puts lone surrogates in text otherwise


def _mark_bad_bytes(exc: UnicodeError) -> tuple[str, int]:
    """A decoding error handler: each byte that is not valid text becomes a lone surrogate U+DC00 + byte,
    which no decoder produces otherwise, so the line it is in can be told apart and reported."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return "".join(chr(_MARK + b) for b in exc.object[exc.start:exc.end]), exc.end


codecs.register_error("mjcalc.mark", _mark_bad_bytes)


def sniff_encoding(head: bytes) -> tuple[str, str, int]:
    """The codec, its name for messages, and the length of the byte-order mark at the start of ``head``.
    Without a mark: UTF-16 when the first characters are ASCII with a zero byte beside each, else UTF-8."""
    for bom, codec, name in _BOMS:
        if head.startswith(bom):
            return codec, name, len(bom)
    if len(head) >= 4 and head[1] == head[3] == 0 and head[0] and head[2]:
        return "utf-16-le", "UTF-16", 0
    if len(head) >= 4 and head[0] == head[2] == 0 and head[1] and head[3]:
        return "utf-16-be", "UTF-16", 0
    return "utf-8", "UTF-8", 0


class Line:
    """One physical line: its number, its text (without the line end), and why it is not usable text."""

    def __init__(self, number: int, text: str, problem: str | None = None, bare: str | None = None) -> None:
        self.number = number
        self.text = text
        self.problem = problem
        self.bare = bare  # a line that is not text: what is left without its bad bytes (its layout)

    def __reduce__(self) -> tuple[Any, ...]:
        return Line, (self.number, self.text, self.problem, self.bare)


def _escape_marks(text: str) -> str:
    return _MARKED.sub(lambda m: f"\\x{ord(m.group()) - _MARK:02x}", text)


class LineSource:
    """The physical lines of a byte stream (or a text stream), split on ``\\n`` only — a stray ``\\r`` or
    form feed inside a line stays in that line, as every line-counting tool sees it — each decoded on its
    own and bounded in length. ``position`` is how many bytes have been read (for progress)."""

    def __init__(self, stream: IO[bytes] | IO[str], limit: int = MAX_RECORD, codec: str | None = None) -> None:
        self.stream = stream
        self.limit = limit
        self.position = 0
        self.encoding = "UTF-8"
        self.stopped: str | None = None  # why reading stopped early (the input failed)
        self._codec = "utf-8"
        self._known = codec  # the codec of a stream read from inside a file (a worker's range): not sniffed

    def _blocks(self) -> Iterator[str]:
        try:
            yield from self._read_blocks()
        except OSError as exc:  # a disk or a device failing under us: say so, keep what was read
            self.stopped = f"cannot read the input after {self.position:,} bytes: {exc.strerror or exc}"

    def _read_blocks(self) -> Iterator[str]:
        if isinstance(self.stream, io.TextIOBase):  # already text (a test's StringIO)
            while block := self.stream.read(_BLOCK):
                self.position += len(block)
                yield block
            return
        raw: IO[bytes] = self.stream  # type: ignore[assignment]
        head = raw.read(4)
        codec, self.encoding, skip = sniff_encoding(head) if self._known is None else (self._known, "UTF-8", 0)
        self._codec = codec
        decoder = codecs.getincrementaldecoder(codec)(errors="mjcalc.mark")
        read = getattr(raw, "read1", raw.read)
        self.position = len(head)
        yield decoder.decode(head[skip:])
        while data := read(_BLOCK):
            self.position += len(data)
            yield decoder.decode(data)
        yield decoder.decode(b"", final=True)

    def __iter__(self) -> Iterator[Line]:
        number = 0
        carry: list[str] = []  # the start of a line not ended yet
        carried = 0
        overlong = -1  # >= 0: the line being read is over the limit; its length so far
        head = ""  # the start of that line, kept: it shows the record, and where a YAML entry starts
        limit = self.limit
        for block in self._blocks():
            if not block:
                continue
            pieces = block.split("\n")
            last = pieces.pop()  # the rest of the block: the start of the next line
            for piece in pieces:
                number += 1
                if overlong >= 0:
                    yield self._too_long(number, overlong + len(piece), head)
                    overlong = -1
                    continue
                if carry:
                    carry.append(piece)
                    piece = "".join(carry)
                    carry, carried = [], 0
                elif piece.isascii() and len(piece) <= limit and piece[-1:] != "\r":
                    yield Line(number, piece)  # the usual line, as ``_line`` makes it
                    continue
                yield self._line(number, piece)
            if overlong >= 0:  # skipped to its end, however long: the lines after it are records too
                overlong += len(last)
            elif last:
                carry.append(last)
                carried += len(last)
                if carried > self.limit:
                    head = "".join(carry)[:_HEAD]
                    overlong, carry, carried = carried, [], 0
        if overlong >= 0:
            yield self._too_long(number + 1, overlong, head)
        elif carry:
            yield self._line(number + 1, "".join(carry))

    def _line(self, number: int, text: str) -> Line:
        if text.endswith("\r"):
            text = text[:-1]
        if len(text) > self.limit:
            return self._too_long(number, len(text), text[:_HEAD])
        if text.isascii():
            return Line(number, text)
        found = _MARKED.search(text)
        if found is None:
            return Line(number, text)
        at = len(text[: found.start()].encode(self._codec)) + 1
        return Line(number, _escape_marks(text), f"not {self.encoding} at byte {at}: "
                    f"the line is not valid text (save the file as UTF-8)", _MARKED.sub("", text))

    def _too_long(self, number: int, length: int, head: str) -> Line:
        return Line(number, _escape_marks(head) + "…",
                    f"the line is {length:,} characters long; a record is at most {self.limit:,}")


# --- the reader of one-line notation -------------------------------------------------------------------

JSON_START: Final = re.compile(r"\s*\{\s*\"")  # not a special kong: {1234z} has no quote


def split_answer(text: str) -> tuple[str, str | None]:
    """``HAND => answer``: the hand and the student's answer (homework lines)."""
    hand, arrow, answer = text.partition("=>")
    return hand.strip(), (answer.strip() if arrow else None)


def unread(line: Line, text: str) -> Record | None:
    """The record of a line with nothing to read in it: one that is not text, a blank line or a comment."""
    if line.problem is not None:
        return Record(line.number, line.text, problem=line.problem)
    if not text or text.startswith("#"):
        return Record(line.number, text, skipped=True)
    return None


def read_lines(lines: Iterator[Line], from_line: int) -> Iterator[Record]:
    """The records of a file of one-line notation: a hand on each line (``HAND => answer`` for homework), blank
    lines and comments kept in place. Those before ``from_line`` are left out."""
    for line in lines:
        n = line.number
        if n < from_line:
            continue
        text = line.text.strip()
        if line.problem is None and text and text[0] not in "#\ufeff{" and "=>" not in text:
            yield Record(n, text)  # the usual line: a hand (what the general case below makes of it)
            continue
        text = text.lstrip("\ufeff")  # a byte-order mark pasted mid-file
        record = unread(line, text)
        if record is not None:
            yield record
        elif "{" in text and JSON_START.match(text):
            yield Record(n, text, problem="this is a JSON record, and the input is read as lines of notation: "
                                          "use --input-format jsonl (or name the file .jsonl)")
        else:
            hand, answer = split_answer(text)
            yield Record(n, hand, answer=answer)


def chain(first: list[Line], rest: Iterator[Line]) -> Iterator[Line]:
    """The lines looked at already (to decide a format), then the rest."""
    yield from first
    yield from rest
