"""The hand notation: one line of text → the tiles, melds, flowers and flag words as written, with columns.

Grammar (the contract is ``docs/NOTATION.md``; this is its one implementation):

    line    := group*                       groups are separated by spaces; ``+`` needs no space before it
    group   := tiles | "[" tiles "]"        bare tiles: the concealed hand;  [..] an exposed chi, pon or kong
             | "(" tiles ")"                a concealed kong
             | "{" tiles "}"                a special kong (旋风杠, 喜杠, 幺蛋 …), extra tiles of its kind inside
             | "+" word ["=" value]         a context flag (``+zimo``, ``+seat=E``, ``+closed=W,N``)
    tiles   := (digits suit | letter | 汉字)+
    suit    := m | p | s | z | f            f = flowers 1f-8f, never part of the concealed hand
    letter  := E S W N (winds) | P F C (白 发 中)
    汉字    := 东 南 西 北 白 发 中

``0m 0p 0s`` are red fives. The last bare tile is the winning tile unless ``+win=`` names it.
A line with a ``|`` is the GB-Mahjong string (see ``parse_gb``).

A line is at most ``MAX_LINE`` (1,000) characters. Before it is read it is normalised (``normalise.py``):
full-width and other compatibility forms become the ASCII they stand for (``１２３ｍ`` is ``123m``), one
character for one, so columns are those of the line as typed. Digits are the ASCII 0-9 only, wherever one
is read (tiles, GB strings, flag values): a digit of another script is an error at its column.

>>> p = parse_line("23m456p789s22z [111z] 1m +zimo")
>>> [t.tile for t in p.concealed][-1], p.melds[0].text, p.flags[0].word
(0, '[111z]', 'zimo')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from operator import getitem
from typing import Final, NamedTuple

from mypy_extensions import mypyc_attr

from . import tiles as T
from .errors import MjcalcError
from .i18n import Msg
from .lazy import lazy
from .memo import remember
from .normalise import normalise


class FlagWord(NamedTuple):
    """One ``+word=value`` as written, with its column (None when it came from a CLI option)."""

    word: str
    value: str | None
    column: int | None


MAX_LINE: Final = 1000  # characters in one line of notation; a hand with every flag written out needs ~200
OPENERS: Final = {"[": ("]", "exposed"), "(": (")", "concealed_kong"), "{": ("}", "special")}
SUIT_BASE: Final = {"m": 0, "p": 9, "s": 18, "z": 27}  # kind of the suit's 1
# Scanning by regular expressions: a batch reads millions of lines.
_SPACES: Final = re.compile(r"\s+")
_BARE: Final = re.compile(r"[^\s+\[({\])}]+")  # a bare group ends at a space, a flag or any bracket
_FLAG_BODY: Final = re.compile(r"[^\s+]*")
_PLAIN: Final = re.compile(r"(?:[0-9]+[mps]|[1-7]+z)+")
_new: Final = tuple.__new__  # makes a named tuple from its fields without the Python-level __new__: a line has many
CLOSERS: Final = {"]", ")", "}"}


class TileAt(NamedTuple):  # a tuple, not a dataclass: a batch makes one per tile, and tuples are made fast
    tile: int  # kind 0-33, or 0-7 for a flower
    column: int  # 1-based
    red: bool = False


# Every plain tile (a digit of a suit; 0m 0p 0s the red fives) at every column of a line up to _COLUMNS, made
# once: a TileAt is a value, so a line's tiles are looked up here rather than built one by one. Each digit's row
# is made when a line first has that digit (``_Row.__missing__``): all 37 rows at import cost every command
# ~10M instructions (6,000 tuples), where one hand needs a few rows.
_COLUMNS: Final = 160


@mypyc_attr(native_class=False)  # a dict subclass whose look-ups stay the dict's own (C)
class _Row(dict[str, tuple[TileAt, ...]]):
    def __init__(self, base: int) -> None:
        super().__init__()
        self.base = base

    def __missing__(self, digit: str) -> tuple[TileAt, ...]:
        d = int(digit)
        kind = self.base + 4 if d == 0 else self.base + d - 1
        row = self[digit] = tuple([_new(TileAt, (kind, column, d == 0)) for column in range(_COLUMNS)])
        return row


_TILES_AT: Final = {suit: _Row(base) for suit, base in SUIT_BASE.items()}


class MeldText(NamedTuple):  # a tuple, as TileAt: made for every meld of every line
    kind: str  # exposed | concealed_kong | special
    tiles: tuple[TileAt, ...]
    column: int
    text: str
    added: bool = False  # GB strings mark an added kong (加杠)


# A plain class, not a dataclass: a dataclass's methods are Python source compiled when the module is imported,
# every command's start-up (benchmarks/bench_startup.py).
@mypyc_attr(native_class=False)  # a Python class when compiled: its instance dictionary is written to
class ParsedLine:
    text: str
    concealed: list[TileAt]
    melds: list[MeldText]
    flowers: list[TileAt]
    flags: list[FlagWord]

    def __init__(self, text: str, concealed: list[TileAt] | None = None, melds: list[MeldText] | None = None,
                 flowers: list[TileAt] | None = None, flags: list[FlagWord] | None = None) -> None:
        self.text = text
        self.concealed = [] if concealed is None else concealed
        self.melds = [] if melds is None else melds
        self.flowers = [] if flowers is None else flowers
        self.flags = [] if flags is None else flags

    # What building a hand reads of the concealed tiles; the columns are only for errors (``_PlainLine``).
    @lazy
    def kinds(self) -> Sequence[int]:
        """The concealed tiles' kinds, as written."""
        return [t.tile for t in self.concealed]

    @lazy
    def red_kinds(self) -> list[int]:
        """The kind of each red five among the concealed tiles."""
        return [t.tile for t in self.concealed if t.red]


@mypyc_attr(native_class=False)  # a Python class when compiled: its instance dictionary is written to
class _PlainLine(ParsedLine):
    """A line read by ``_parse_common``: its concealed tiles kept as kinds (``kinds``, ``red_kinds``), the
    TileAt of each (with its column) made only when asked for, as an error message needs: most lines have
    none, and a batch reads millions of lines. Made by ``_parse_common`` alone, with its instance dictionary."""

    _chunks: list[tuple[str, int]]  # each bare group with its column


    @lazy
    def concealed(self) -> list[TileAt]:  # type: ignore[override]
        out: list[TileAt] = []
        for chunk, column in self._chunks:
            out += _read_tiles(chunk, column, allow_flowers=True)[0]  # plain chunks the fast way
        return out


def parse_line(text: str) -> ParsedLine:
    """Read one line. Raises MjcalcError(kind="notation") with the 1-based column of the problem."""
    if len(text) > MAX_LINE:
        raise MjcalcError("notation", Msg("the line is {length:,} characters long; a line of notation is at most "
                                          "{most:,} (one hand and its flags)", length=len(text), most=MAX_LINE),
                          MAX_LINE + 1)
    if not text.isascii():
        text = normalise(text)
    if "|" in text:
        return parse_gb(text)
    return _parse_common(text) or _parse_any(text)


def _parse_common(text: str) -> ParsedLine | None:
    """The common line, read fast: groups apart by single spaces, each plain tiles (digits and m p s z), a meld
    of plain tiles, or flags. None for anything else, which ``_parse_any`` reads (and reports errors of)."""
    chunks: list[tuple[str, int]] = []  # the bare groups with their columns, for the TileAt of each tile
    kinds: list[int] = []
    reds: list[int] = []
    melds: list[MeldText] = []
    flags: list[FlagWord] = []
    flowers: list[TileAt] = []
    parts = text.split()
    if " ".join(parts) != text:  # other spacing than single spaces between groups
        return None
    column = 1
    for part in parts:
        first = part[0]
        if first == "+":
            # Flags: the same few come back line after line (+seat=E, +riichi), often at the same columns.
            words = _FLAGS_AT.get((part, column))
            if words is None:
                words = _flags_at(part, column)
                if words is None:
                    return None
            flags += words
        elif first in OPENERS:
            # A meld: the same few come back at the same columns line after line ([111z] after 11 tiles).
            meld = _MELDS_AT.get((part, column))
            if meld is None:
                meld = _meld_at(part, column)
                if meld is None:
                    return None
            melds.append(meld)
        elif _add_plain_kinds(part if part.isascii() else part.translate(_HONOR_CHAR_LETTERS), kinds, reds,
                              flowers, column):
            chunks.append((part, column))
        else:
            return None
        column += len(part) + 1
    # A _PlainLine whose instance dictionary is made here: calling the class costs a line ~4,000 instructions more.
    line = _NEW_OBJECT(_PlainLine)
    _SET_ATTRIBUTE(line, "__dict__", {"text": text, "melds": melds, "flowers": flowers, "flags": flags, "kinds": kinds,
                                      "red_kinds": reds, "_chunks": chunks})
    return line


_NEW_OBJECT: Final = object.__new__
_SET_ATTRIBUTE: Final = object.__setattr__
# The kind of a suit's 1 by the byte of its letter.
_BASE_OF_LETTER: Final = {**{ord(suit): base for suit, base in SUIT_BASE.items()}, ord("f"): 0x100}  # f: flowers


def _add_plain_kinds(part: str, kinds: list[int], reds: list[int], flowers: list[TileAt], column: int) -> bool:
    """Whether ``part`` is bare tiles of the common kinds: runs of digits, each ended by its suit letter (``_PLAIN``),
    honor letters (E S W N P F C; the Chinese characters arrive as those letters, one for one) and flowers (1f-8f).
    If so, the kind of each tile is added to ``kinds``, that of each red five to ``reds``, each flower (with its
    column: the part starts at ``column``) to ``flowers``. Anything else, errors included, is left to ``_parse_any``.
    One pass over the bytes: the regular expression and a scan of the runs after it cost ten times as much
    (callgrind)."""
    raw = part.encode()  # a character beyond ASCII is no digit, no letter
    start = 0
    for i in range(len(raw)):
        ch = raw[i]
        if 48 <= ch <= 57:  # a digit
            continue
        base = _BASE_OF_LETTER.get(ch, -1)
        if base < 0:
            honor = _HONOR_OF_LETTER.get(ch, -1)
            if honor < 0 or i != start:  # not a tile letter, or an honor letter after digits
                return False
            kinds.append(honor)
            start = i + 1
            continue
        if i == start:  # a suit letter with no digits before it
            return False
        for j in range(start, i):
            digit = raw[j] - 48
            if base == 27:
                if not 1 <= digit <= 7:
                    return False
                kinds.append(26 + digit)
            elif base < 0x100:
                if digit == 0:  # a red five
                    kinds.append(base + 4)
                    reds.append(base + 4)
                else:
                    kinds.append(base + digit - 1)
            else:  # a flower
                if not 1 <= digit <= 8:
                    return False
                flowers.append(_new(TileAt, (digit - 1, column + j, False)))
        start = i + 1
    return start == len(raw) > 0


# The honor letters by their byte; each Chinese honor as its letter.
_HONOR_OF_LETTER: Final = {ord(letter): kind for letter, kind in T.HONOR_LETTERS.items()}
_HONOR_CHAR_LETTERS: Final = str.maketrans({char: next(letter for letter, k in T.HONOR_LETTERS.items() if k == kind)
                                            for char, kind in T.HONOR_CHARS.items()})


# What a flag group (``+a`` or ``+a+b``) or a meld at a column reads as (``_flags_at``, ``_meld_at``): values, so
# kept and shared. Bounded: a batch's memory must not grow with the file.
_FLAGS_AT: Final[dict[tuple[str, int], tuple[FlagWord, ...]]] = {}
_MELDS_AT: Final[dict[tuple[str, int], MeldText]] = {}
# The same groups at any column (the columns vary with the tiles before them): the flag words with their values,
# and a plain meld's kind (its text checked).
_FLAG_BODIES_OF: Final[dict[str, tuple[tuple[str, str | None], ...]]] = {}
_MELD_KINDS: Final[dict[str, str]] = {}


def _flags_at(part: str, column: int) -> tuple[FlagWord, ...] | None:
    """A group of flags at this column; None for anything else (a word missing or starting with ``=``)."""
    bodies = _FLAG_BODIES_OF.get(part)
    if bodies is None:
        read = []
        for body in part[1:].split("+"):
            if not body or body[0] == "=":
                return None
            read.append(_flag_body(body))
        bodies = remember(_FLAG_BODIES_OF, part, tuple(read), 8192)
    words = []
    at = column
    for word, value in bodies:
        words.append(_new(FlagWord, (word, value, at)))
        at += len(word) + (1 if value is None else 2 + len(value))
    return remember(_FLAGS_AT, (part, column), tuple(words), 8192)


def _meld_at(part: str, column: int) -> MeldText | None:
    """A meld of plain tiles at this column; None for anything else."""
    kind = _MELD_KINDS.get(part)
    if kind is None:
        close, kind = OPENERS[part[0]]
        if part[-1] != close or len(part) < 3:
            return None
        if not _PLAIN.fullmatch(part, 1, len(part) - 1):
            # honor letters or characters: read as the general scan reads them; anything wrong is left to it
            if close in part[1:-1]:
                return None
            try:
                tiles = _read_tiles(part[1:-1], column + 1, allow_flowers=False)[0]
            except MjcalcError:
                return None
            return remember(_MELDS_AT, (part, column), _new(MeldText, (kind, tuple(tiles), column, part, False)), 8192)
        remember(_MELD_KINDS, part, kind, 8192)
    found = _new(MeldText, (kind, tuple(_plain_tiles(part[1:-1], column + 1)), column, part, False))
    return remember(_MELDS_AT, (part, column), found, 8192)


# The kind of each digit of a plain run, by suit, as a bytes.translate table: a run of digits becomes the bytes
# of its kinds in one call (0 is the red five, a 5).
def _digit_kinds(base: int) -> bytes:
    table = bytearray(256)
    for d in range(10):
        table[ord(str(d))] = base + 4 if d == 0 else base + d - 1
    return bytes(table)


_KIND_OF_DIGIT: Final = {suit: _digit_kinds(base) for suit, base in SUIT_BASE.items()}


def _runs(chunk: str) -> list[tuple[str, str]]:
    """The runs of a plain chunk (``_PLAIN``) as (digits, suit letter), in order: they follow one another, each
    ending with its suit letter (what ``re.findall(r"([0-9]+)([mpsz])")`` gives, without the regex engine)."""
    out = []
    start = 0
    for i, ch in enumerate(chunk):
        if ch in _KIND_OF_DIGIT:
            out.append((chunk[start:i], ch))
            start = i + 1
    return out


def _plain_kinds(chunk: str, reds: list[int] | None = None) -> bytes:
    """The kinds of a plain chunk (``_PLAIN``) as bytes, a run of digits at a time; the kind of each red five
    is added to ``reds`` when given (0 is a five)."""
    kinds = b""
    for digits, suit in _runs(chunk):
        kinds += digits.encode().translate(_KIND_OF_DIGIT[suit])
        if reds is not None and "0" in digits:  # only m p s: _PLAIN allows 1-7 before z
            reds += [SUIT_BASE[suit] + 4] * digits.count("0")
    return kinds


# Flag bodies read before ("seat=E" → ("seat", "E")): the same few come back on every line of a batch, and the
# flag's typed value is then found (context._typed) by the very same strings.
_FLAG_BODIES: Final[dict[str, tuple[str, str | None]]] = {}


def _flag_body(body: str) -> tuple[str, str | None]:
    word, eq, value = body.partition("=")
    return remember(_FLAG_BODIES, body, (word, value if eq else None))


def _parse_any(text: str) -> ParsedLine:
    """Any line, character by character."""
    line = ParsedLine(text)
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i = _end(_SPACES.match(text, i))  # matches at least this space
        elif ch == "+":
            i = _read_flag(text, i, line)
        elif ch in OPENERS:
            close, kind = OPENERS[ch]
            end = text.find(close, i + 1)
            if end < 0:
                raise MjcalcError("notation", Msg("'{open}' opens a meld that is never closed with '{close}'", open=ch, close=close),
                                  i + 1)
            inner = text[i + 1 : end]
            found, flowers = _read_tiles(inner, i + 2, allow_flowers=False)
            if not found:
                raise MjcalcError("notation", Msg("empty meld '{meld}'", meld=ch + close), i + 1)
            line.melds.append(MeldText(kind, tuple(found), i + 1, text[i : end + 1]))
            i = end + 1
        elif ch in CLOSERS:
            raise MjcalcError("notation", Msg("'{close}' closes a meld that was never opened", close=ch), i + 1)
        else:
            end = _end(_BARE.match(text, i))  # matches at least this character
            found, flowers = _read_tiles(text[i:end], i + 1, allow_flowers=True)
            line.concealed.extend(found)
            line.flowers.extend(flowers)
            i = end
    return line


def _end(found: re.Match[str] | None) -> int:
    """Where a match that cannot fail ends (the patterns above match at the character that chose them)."""
    assert found is not None
    return found.end()


def _read_flag(text: str, start: int, line: ParsedLine) -> int:
    end = _end(_FLAG_BODY.match(text, start + 1))  # may match nothing, never fails
    body = text[start + 1 : end]
    if not body or body.startswith("="):
        raise MjcalcError("notation", Msg("'+' must be followed by a flag word, such as +zimo or +seat=E"),
                          start + 1)
    line.flags.append(_new(FlagWord, (*_flag_body(body), start + 1)))
    return end


def _plain_tiles(chunk: str, column: int) -> list[TileAt]:
    """Tiles of a plain chunk (``_PLAIN``: digits and m p s z only, so no error is possible)."""
    if column + len(chunk) > _COLUMNS:  # far along an unusually long line: made as the general scan makes them
        return _read_tiles(chunk, column, allow_flowers=False)[0]
    plain: list[TileAt] = []
    for digits, suit in _runs(chunk):
        plain += map(getitem, map(_TILES_AT[suit].__getitem__, digits), range(column, column + len(digits)))
        column += len(digits) + 1
    return plain


def _read_tiles(chunk: str, column: int, *, allow_flowers: bool) -> tuple[list[TileAt], list[TileAt]]:
    """Tiles of one group. ``column`` is the 1-based column of chunk[0]."""
    if _PLAIN.fullmatch(chunk) and column + len(chunk) <= _COLUMNS:  # the common case
        return _plain_tiles(chunk, column), []
    found: list[TileAt] = []
    flowers: list[TileAt] = []
    digits: list[tuple[str, int]] = []
    for k, ch in enumerate(chunk):
        col = column + k
        if "0" <= ch <= "9":
            digits.append((ch, col))
        elif ch in "mpszf":
            if not digits:
                raise MjcalcError("notation", Msg("suit letter '{suit}' has no digits before it (write e.g. 123{suit})",
                                                      suit=ch), col)
            for d, dcol in digits:
                if ch == "f":
                    if not allow_flowers:
                        raise MjcalcError("notation", Msg("flowers are written apart, not inside a meld"), dcol)
                    if not "1" <= d <= "8":
                        raise MjcalcError("notation", Msg("'{digit}f' is not a flower: flowers are 1f-8f", digit=d),
                                          dcol)
                    flowers.append(TileAt(int(d) - 1, dcol))
                    continue
                if ch == "z" and not "1" <= d <= "7":
                    raise MjcalcError("notation", Msg("'{digit}z' is not a tile: honors are 1z-7z (东南西北白发中)",
                                                          digit=d), dcol)
                base = SUIT_BASE[ch]
                if d == "0":
                    found.append(TileAt(base + 4, dcol, True))
                else:
                    found.append(TileAt(base + ord(d) - 49, dcol))
            digits = []
        elif ch in T.HONOR_LETTERS or ch in T.HONOR_CHARS:
            if digits:
                raise MjcalcError("notation", Msg("digits '{digits}' need a suit letter",
                                                      digits="".join(d for d, _ in digits)), digits[0][1])
            found.append(TileAt(T.parse_tile(ch), col))
        else:
            raise MjcalcError(
                "notation",
                Msg("unexpected '{char}': expected tile digits with a suit letter (m p s z f), "
                    "a letter E S W N P F C, 东南西北白发中, a meld in [ ] ( ) {{ }}, or a +flag", char=ch),
                col,
            )
    if digits:
        raise MjcalcError(
            "notation",
            Msg("digits '{digits}' need a suit letter after them (m, p, s, z)", digits="".join(d for d, _ in digits)),
            digits[0][1],
        )
    return found, flowers


def parse_tile_list(text: str) -> list[int]:
    """Tiles in a flag value (``+dora=3m7z``); red fives count as fives here."""
    if _PLAIN.fullmatch(text):  # the common case
        return list(_plain_kinds(text))
    if len(text) > MAX_LINE:  # a value given as a command-line option
        raise MjcalcError("notation", Msg("{length:,} characters: too long for a list of tiles", length=len(text)), 1)
    text = normalise(text)
    if _PLAIN.fullmatch(text):
        return list(_plain_kinds(text))
    found, _flowers = _read_tiles(text, 1, allow_flowers=False)
    return [t.tile for t in found]


# --- the GB-Mahjong / 雀渣 string -----------------------------------------------------------------------

# In this format 5z 6z 7z are 中 发 白 (its own order), the reverse of the tenhou order used elsewhere.
GB_DRAGON_ORDER: Final = {5: 33, 6: 32, 7: 31}
GB_FLAG_NAMES: Final = ("zimo", "fourth", "last", "qiang")


def parse_gb(text: str) -> ParsedLine:
    """``[1111s,1][2222m,2][3333p,7][4444p]88s|EE0000|2``: bracketed melds with a source digit (none on a kong
    = concealed; 5-7 = an added kong), the concealed tiles with the winning tile last, then ``|`` the
    prevalent and seat winds and four 0/1 flags (self-drawn, last of its kind, last tile, about a kong: with
    self-drawn 杠上开花 ``+gang``, without it 抢杠和 ``+qiang``), then ``|`` the flowers: a count, or letters a-h.

    >>> p = parse_gb("[1111s,1][2222m,2][3333p,7][4444p]88s|EE0000|2")
    >>> [m.kind for m in p.melds], len(p.flowers), [(f.word, f.value) for f in p.flags][:2]
    (['exposed', 'exposed', 'exposed', 'concealed_kong'], 2, [('round', 'E'), ('seat', 'E')])
    """
    line = ParsedLine(text)
    head, *tails = text.split("|")
    i = 0
    while i < len(head):
        ch = head[i]
        if ch.isspace():
            i += 1
            continue
        if ch == "[":
            end = head.find("]", i)
            if end < 0:
                raise MjcalcError("notation", Msg("'{open}' opens a meld that is never closed with '{close}'", open="[", close="]"),
                                  i + 1)
            body, _, source = head[i + 1 : end].partition(",")
            found = _read_gb_tiles(body, i + 2)
            if source and not _is_number(source):
                raise MjcalcError("notation", Msg("meld source '{source}' must be a digit", source=source),
                                  i + 2 + len(body) + 1)
            src = int(source) if source else 0
            kind = "concealed_kong" if len(found) == 4 and not source else "exposed"
            line.melds.append(MeldText(kind, tuple(found), i + 1, head[i : end + 1], added=src >= 5))
            i = end + 1
        else:
            end = i
            while end < len(head) and head[end] not in "[" and not head[end].isspace():
                end += 1
            line.concealed.extend(_read_gb_tiles(head[i:end], i + 1))
            i = end
    column = len(head) + 2
    if tails:
        ctx = tails[0].strip()
        if len(ctx) < 2 or ctx[0] not in "ESWN" or ctx[1] not in "ESWN":
            raise MjcalcError("notation", Msg("after '|' write the prevalent and seat winds, e.g. EE0000"), column)
        line.flags.append(FlagWord("round", ctx[0], column))
        line.flags.append(FlagWord("seat", ctx[1], column + 1))
        bits = ctx[2:]
        if len(bits) != 4 or any(b not in "01" for b in bits):
            raise MjcalcError("notation", Msg("four 0/1 flags must follow the winds: self-drawn, last of its kind, "
                                              "last tile, robbing a kong"), column + 2)
        for i, (name, bit) in enumerate(zip(GB_FLAG_NAMES, bits, strict=False)):
            if bit == "1":  # the fourth flag is "about a kong": 杠上开花 when self-drawn, else 抢杠和
                word = "gang" if name == "qiang" and bits[0] == "1" else name
                line.flags.append(FlagWord(word, None, column + 2 + i))
        column += len(tails[0]) + 1
    if len(tails) > 1:
        count = tails[1].strip() or "0"
        if _is_number(count) and int(count) <= 8:  # a line is short: int() of it is quick
            line.flowers.extend(TileAt(k, column) for k in range(int(count)))
        elif all("a" <= ch <= "h" for ch in count.lower()):  # the flowers themselves: a-h = 春夏秋冬梅兰竹菊
            for k, ch in enumerate(count.lower()):
                line.flowers.append(TileAt(ord(ch) - ord("a"), column + k))
        else:
            raise MjcalcError("notation", Msg("the flower count after the second '|' must be 0-8, or the flowers "
                                              "written as letters a-h (春夏秋冬梅兰竹菊)"), column)
    if len(tails) > 2:
        raise MjcalcError("notation", Msg("a GB string has at most two '|' parts"), len(text))
    return line


def _is_number(text: str) -> bool:
    """Whether ``text`` is digits 0-9 (``str.isdigit`` is true for other scripts' digits too)."""
    return text.isascii() and text.isdigit()


def _read_gb_tiles(chunk: str, column: int) -> list[TileAt]:
    out: list[TileAt] = []
    for t in _read_tiles(chunk, column, allow_flowers=False)[0]:
        rank = T.rank_of(t.tile)
        if T.is_honor(t.tile) and rank in GB_DRAGON_ORDER and "0" <= chunk[t.column - column] <= "9":
            out.append(TileAt(GB_DRAGON_ORDER[rank], t.column))
        else:
            out.append(t)
    return out
