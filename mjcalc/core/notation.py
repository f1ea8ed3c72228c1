"""The hand notation: one line of text → the tiles, melds, flowers and flag words as written, with columns.

Grammar (the contract is ``docs/NOTATION.md``; this is its one implementation):

    line    := group*                       groups are separated by spaces; ``+`` needs no space before it
    group   := tiles | "[" tiles "]"        bare tiles: the concealed hand;  [..] an exposed chi, pon or kong
             | "(" tiles ")"                a concealed kong
             | "{" tiles "}"                a special kong (旋风杠, 喜杠, 幺蛋 …), extra tiles of its kind inside
             | "+" word ["=" value]         a context flag (``+zimo``, ``+seat=E``, ``+closed=W,N``)
    tiles   := (digits suit | letter | 汉字)+
    suit    := m | p | s | z | f            f = flowers 1f-8f, never part of the concealed hand
             | 万 萬 | 筒 饼 餅 | 条 條 索   m, p, s as Chinese players write them (normalise.py)
    letter  := E S W N (winds) | P F C (白 发 中)
    汉字    := 东 南 西 北 白 发 中 (also 東 發)

``0m 0p 0s`` are red fives. The last bare tile is the winning tile unless ``+win=`` names it.
A line with a ``|`` is the GB-Mahjong string (see ``parse_gb``).

A line is at most ``MAX_LINE`` (1,000) characters. Before it is read it is normalised (``normalise.py``):
full-width and other compatibility forms become the ASCII they stand for (``１２３ｍ`` is ``123m``), and a
Chinese suit after digits its letter (``123万`` is ``123m``), one character for one, so columns are those of
the line as typed. Digits are the ASCII 0-9 only, wherever one is read (tiles, GB strings, flag values): a
digit of another script is an error at its column.

>>> p = parse_line("23m456p789s22z [111z] 1m +zimo")
>>> [t.tile for t in p.concealed][-1], p.melds[0].text, p.flags[0].word
(0, '[111z]', 'zimo')
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any, Final, NamedTuple

from ..errors import MjcalcError
from ..i18n import Msg
from ..support.lazy import FillingDict
from ..support.memo import remember
from ..support.tuples import new_tuple
from . import tiles as T
from .normalise import SUIT_CHARS, normalise


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
CLOSERS: Final = {"]", ")", "}"}


class TileAt(NamedTuple):  # a tuple, not a dataclass: a batch makes one per tile, and tuples are made fast
    tile: int  # kind 0-33, or 0-7 for a flower
    column: int  # 1-based
    red: bool = False


# Every plain tile (a digit of a suit; 0m 0p 0s the red fives) at every column of a line up to _COLUMNS, made
# once: a TileAt is a value, so a line's tiles are looked up here rather than built one by one. Each digit's row
# is made when a line first has that digit (``FillingDict.__missing__``): one hand needs a few rows, and making
# them all would slow every command's start-up.
_COLUMNS: Final = 160


def _row(kinds: int, digit: str) -> tuple[TileAt, ...]:
    """A digit's tiles at every column (``kinds``: the kind of its suit's 1)."""
    d = int(digit)
    kind = kinds + 4 if d == 0 else kinds + d - 1
    return tuple([new_tuple(TileAt, (kind, column, d == 0)) for column in range(_COLUMNS)])


_TILES_AT: Final = {suit: FillingDict(partial(_row, kinds)) for suit, kinds in SUIT_BASE.items()}


class MeldShape:
    """What a meld's tiles are, whatever its column: their kinds and those of its red fives, and the Meld that
    building a hand made of it under the last tile rules (hand.py: a shape of the usual line is shared by every
    line that writes the meld, so the meld is checked once for them all)."""

    def __init__(self, kinds: tuple[int, ...], reds: tuple[int, ...]) -> None:
        self.kinds: Final = kinds
        self.reds: Final = reds
        self.rules: object = None  # the tile rules ``meld`` was made under
        self.meld: Any = None  # a hand.Meld
        self.meld_facts: tuple[int, int, int] = (0, 0, 0)  # hand.meld_facts of ``meld``


class MeldText:
    """A meld as written: its kind (exposed | concealed_kong | special), its tiles with their columns, where it
    starts, its text, whether a GB string marks it as an added kong (加杠), and its shape (kinds and reds). The fast
    reader makes the tiles with their columns only when asked for, as an error message needs."""

    def __init__(self, kind: str, tiles: tuple[TileAt, ...] | None, column: int, text: str, added: bool = False,
                 shape: MeldShape | None = None) -> None:
        self.kind: Final = kind
        self._tiles = tiles
        self.column: Final = column
        self.text: Final = text
        self.added: Final = added
        if shape is None:
            tiles = self.tiles
            shape = MeldShape(tuple([t.tile for t in tiles]), tuple([t.tile for t in tiles if t.red]))
        self.shape: Final = shape

    @property
    def tiles(self) -> tuple[TileAt, ...]:
        found = self._tiles
        if found is None:  # a meld of the fast reader: tiles it has read, so without error
            found = self._tiles = tuple(_read_tiles(self.text[1:-1], self.column + 1, allow_flowers=False)[0])
        return found

    def __repr__(self) -> str:
        return (f"MeldText(kind={self.kind!r}, tiles={self.tiles!r}, column={self.column!r}, text={self.text!r}, "
                f"added={self.added!r})")


class FlagsRead:
    """The flags at the end of a line as written (``+zimo +seat=E``), or one group of them (``+riichi+ippatsu``), read
    once for each text: the words and values (``bodies``), where each ``+`` is from the first, how many columns the
    text and the space after it take (``width``), the FlagWords at each column met, and what the engine made of
    them under each ruleset's flags (``contexts``, ``typed``: engine.read_line). A batch writes the same few flag
    texts line after line, and the same few groups more often still."""

    def __init__(self, bodies: tuple[tuple[str, str | None], ...], offsets: tuple[int, ...], width: int) -> None:
        self.bodies: Final = bodies
        self.offsets: Final = offsets
        self.width: Final = width
        self._at: dict[int, tuple[FlagWord, ...]] = {}
        # What engine.read_line made of them, by the flags a ruleset reads: a context.Context (plain flags; False
        # for others), or the flags' values, those not read, the Context and the column of the first flag.
        self.contexts: dict[frozenset[str], Any] = {}
        self.read_at: dict[frozenset[str], Any] = {}
        # The bodies typed for the flags of one ruleset (``typed_for``; context.read_plain_groups): a batch reads
        # one ruleset's flags, so one slot, checked by identity.
        self.typed_for: frozenset[str] | None = None
        self.typed: tuple[tuple[str, object, int], ...] = ()
        # Whether one of the words names the ruleset (+rules=…; engine._ruleset_ref), found the first time it is asked.
        self.names_rules: bool | None = None

    @staticmethod
    def joined(groups: list[FlagsRead]) -> FlagsRead:
        """The flags of ``groups`` written one after another, a space apart."""
        bodies: list[tuple[str, str | None]] = []
        offsets: list[int] = []
        at = 0
        for g in groups:
            bodies += g.bodies
            offsets += [at + offset for offset in g.offsets]
            at += g.width
        return FlagsRead(tuple(bodies), tuple(offsets), at)

    def words_at(self, column: int) -> tuple[FlagWord, ...]:
        """The FlagWords of these flags written from ``column`` on."""
        words = self._at.get(column)
        if words is None:
            made = []
            for k in range(len(self.bodies)):
                word, value = self.bodies[k]
                made.append(new_tuple(FlagWord, (word, value, column + self.offsets[k])))
            words = remember(self._at, column, tuple(made), 64)
        return words


class ParsedLine:
    """A line as written: its concealed tiles (TileAt, with their columns), melds, flowers and flags.

    The fast reader (``_parse_common``) keeps what building a hand reads, the kinds of the concealed tiles, of their
    red fives and of the flowers (``kinds``, ``red_kinds``, ``flower_kinds``); the TileAt of each, with its
    column, is made only when asked for, as an error message needs (most lines have none, and a batch reads
    millions of lines). Its flags are groups read once for each text (``flag_groups``, from the column
    ``flags_at``), the whole text's reading too when it was met before (``flag_memo``); their FlagWords (``flags``)
    are made when asked for, as an error message or an unusual line needs. The general reader and the GB reader
    fill the lists of TileAt (``concealed``, ``flowers``) and of FlagWords as they read."""

    def __init__(self, text: str, concealed: list[TileAt] | None = None, melds: list[MeldText] | None = None,
                 flowers: list[TileAt] | None = None, flags: list[FlagWord] | None = None,
                 kinds: list[int] | None = None, red_kinds: list[int] | None = None,
                 flower_kinds: list[int] | None = None, flag_memo: FlagsRead | None = None,
                 flag_groups: list[FlagsRead] | None = None, flags_at: int = 0) -> None:
        self.text: Final = text
        self._concealed = concealed if concealed is not None or kinds is not None else []
        self.melds: Final[list[MeldText]] = [] if melds is None else melds
        self._flowers = flowers if flowers is not None or flower_kinds is not None else []
        self._flags = flags if flags is not None or flag_groups is not None else []
        self._kinds = kinds
        self._red_kinds = red_kinds
        self._flower_kinds = flower_kinds
        self.flag_memo: Final = flag_memo
        self.flag_groups: Final = flag_groups
        self.flags_at: Final = flags_at  # the first flag's column, for the fast reader's flags

    @property
    def flags(self) -> list[FlagWord]:
        """The flags as written, each with its column."""
        found = self._flags
        if found is None:
            found = []
            column = self.flags_at
            for group in self.flag_groups or ():
                found += group.words_at(column)
                column += group.width
            self._flags = found
        return found

    def _general(self) -> ParsedLine:
        """The line read by the general reader, for the TileAt (with columns) of the concealed tiles and of the
        flowers, which the fast reader does not make: both kept from that one reading."""
        general = _parse_any(self.text)
        self._concealed, self._flowers = general.concealed, general.flowers
        return general

    @property
    def concealed(self) -> list[TileAt]:
        """The concealed tiles as written, each with its column."""
        found = self._concealed
        return found if found is not None else self._general().concealed

    @property
    def flowers(self) -> list[TileAt]:
        """The flowers as written, each with its column."""
        found = self._flowers
        return found if found is not None else self._general().flowers

    @property
    def kinds(self) -> list[int]:
        """The concealed tiles' kinds, as written."""
        found = self._kinds
        if found is None:
            found = self._kinds = [t.tile for t in self.concealed]
        return found

    @property
    def red_kinds(self) -> list[int]:
        """The kind of each red five among the concealed tiles."""
        found = self._red_kinds
        if found is None:
            found = self._red_kinds = [t.tile for t in self.concealed if t.red]
        return found

    @property
    def flower_kinds(self) -> list[int]:
        """The flowers' kinds (0-7), as written."""
        found = self._flower_kinds
        if found is None:
            found = self._flower_kinds = [t.tile for t in self.flowers]
        return found

    def __repr__(self) -> str:
        return (f"ParsedLine(text={self.text!r}, concealed={self.concealed!r}, melds={self.melds!r}, "
                f"flowers={self.flowers!r}, flags={self.flags!r})")


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
    found = _parse_common(text)
    return found if found is not None else _parse_any(text)


# What each character of a line's tiles is to the fast reader (``_parse_common``), by its code below 128: a digit,
# a suit letter (its suit's base, the kind of its 1, is in _KIND_OF_CODE), a flower's f, an honor letter (its kind
# in _KIND_OF_CODE), an opening bracket, a space; anything else (errors included) is left to the general reader.
# The Chinese honors are read as their letters are.
_OTHER: Final = 0
_DIGIT: Final = 1
_SUIT: Final = 2  # m p s
_HONOR_SUIT: Final = 3  # z
_FLOWER: Final = 4  # f
_HONOR: Final = 5  # E S W N P F C
_OPEN: Final = 6  # [ ( {
_SPACE: Final = 7


def _code_table(pairs: dict[str, int]) -> bytes:
    table = bytearray(128)
    for chars, value in pairs.items():
        for ch in chars:
            table[ord(ch)] = value
    return bytes(table)


_ROLE_OF_CODE: Final = _code_table({"0123456789": _DIGIT, "mps": _SUIT, "z": _HONOR_SUIT, "f": _FLOWER,
                                    "".join(T.HONOR_LETTERS): _HONOR, "".join(OPENERS): _OPEN, " ": _SPACE})
_KIND_OF_CODE: Final = _code_table({**SUIT_BASE, **T.HONOR_LETTERS})
_HONOR_OF_CHAR: Final = {ord(char): kind for char, kind in T.HONOR_CHARS.items()}
_CLOSER_OF: Final = {ord(opener): close for opener, (close, _kind) in OPENERS.items()}


def _parse_common(text: str) -> ParsedLine | None:
    """The common line, read fast in one pass: bare tiles (digits with m p s z f, honor letters and characters),
    melds of them, groups apart by spaces; then the flags, everything from the first ``+``. None for anything
    else, which ``_parse_any`` reads (and reports errors of)."""
    at = text.find("+")
    n = len(text) if at < 0 else at
    roles, kinds_of = _ROLE_OF_CODE, _KIND_OF_CODE
    kinds: list[int] = []
    reds: list[int] = []
    melds: list[MeldText] = []
    flowers: list[int] | None = None
    digits = -1  # where the digits waiting for their suit letter start; -1: none
    i = 0
    while i < n:
        ch = ord(text[i])
        if ch < 128:
            role = roles[ch]
        elif ch in _HONOR_OF_CHAR:
            if digits >= 0:
                return None
            kinds.append(_HONOR_OF_CHAR[ch])
            i += 1
            continue
        else:
            return None
        if role == _DIGIT:
            if digits < 0:
                digits = i
        elif role == _SUIT:
            if digits < 0:
                return None
            base = kinds_of[ch]
            for j in range(digits, i):
                digit = ord(text[j]) - 48
                if digit == 0:  # a red five
                    kinds.append(base + 4)
                    reds.append(base + 4)
                else:
                    kinds.append(base + digit - 1)
            digits = -1
        elif role == _HONOR:
            if digits >= 0:
                return None
            kinds.append(kinds_of[ch])
        elif role == _SPACE:
            if digits >= 0:
                return None
        elif role == _HONOR_SUIT:
            if digits < 0:
                return None
            for j in range(digits, i):
                digit = ord(text[j]) - 48
                if not 1 <= digit <= 7:
                    return None
                kinds.append(26 + digit)
            digits = -1
        elif role == _FLOWER:
            if digits < 0:
                return None
            if flowers is None:
                flowers = []
            for j in range(digits, i):
                digit = ord(text[j]) - 48
                if not 1 <= digit <= 8:
                    return None
                flowers.append(digit - 1)
            digits = -1
        elif role == _OPEN:
            if digits >= 0:
                return None
            end = text.find(_CLOSER_OF[ch], i + 1, n)
            if end < 0:
                return None
            part = text[i : end + 1]
            # A meld: the same few come back line after line, each read once (its tiles, with their columns, are
            # made only if asked for).
            shaped = _MELD_SHAPES.get(part)
            if shaped is None:
                shaped = _meld_shape(part)
                if shaped is None:
                    return None
            melds.append(MeldText(shaped[0], None, i + 1, part, False, shaped[1]))
            i = end
        else:
            return None
        i += 1
    if digits >= 0:
        return None
    if at < 0:
        return ParsedLine(text, None, melds, None, [], kinds, reds, flowers, _NO_FLAGS_READ)
    # The flags: the same texts come back line after line, each read once (``FlagsRead``) when met again; one met
    # for the first time is read group by group, as the same groups come back more often still.
    tail = text[at:]
    memo = _FLAGS_READ.get(tail)
    if memo is not None:
        return ParsedLine(text, None, melds, None, None, kinds, reds, flowers, memo, [memo], at + 1)
    groups: list[FlagsRead] = []
    for group in tail.split(" "):
        if not group or group[0] != "+":  # other spacing, or tiles after the flags
            return None
        read = _FLAG_GROUPS.get(group)
        if read is None:
            read = _flag_group(group)
            if read is None:
                return None
        groups.append(read)
    if tail in _FLAG_TEXTS_MET:
        memo = remember(_FLAGS_READ, tail, FlagsRead.joined(groups), 4096)
    else:
        remember(_FLAG_TEXTS_MET, tail, None, 8192)
    return ParsedLine(text, None, melds, None, None, kinds, reds, flowers, memo, groups, at + 1)


# The flags at the end of a line met more than once (``_FLAGS_READ``; those met once in ``_FLAG_TEXTS_MET``), each
# group of flags (``+a`` or ``+a+b``) and each meld, by its text: values, so kept and shared. Bounded: a batch's
# memory must not grow with the file.
_FLAGS_READ: Final[dict[str, FlagsRead]] = {}
_FLAG_TEXTS_MET: Final[dict[str, None]] = {}
_NO_FLAGS_READ: Final = FlagsRead((), (), 0)
_FLAG_GROUPS: Final[dict[str, FlagsRead]] = {}
_MELD_SHAPES: Final[dict[str, tuple[str, MeldShape]]] = {}


def _flag_group(group: str) -> FlagsRead | None:
    """A group of flags (``+a`` or ``+a+b``); None for anything else (a word missing or starting with ``=``, a
    space other than the plain one)."""
    if group.split() != [group]:  # a tab, a line break …: the general reader says what it reads there
        return None
    bodies = []
    offsets = []
    at = 0
    for body in group[1:].split("+"):
        if not body or body[0] == "=":
            return None
        bodies.append(_flag_body(body))
        offsets.append(at)
        at += len(body) + 1
    return remember(_FLAG_GROUPS, group, FlagsRead(tuple(bodies), tuple(offsets), len(group) + 1), 8192)


def _meld_shape(part: str) -> tuple[str, MeldShape] | None:
    """A meld's kind and shape, if it is tiles the fast reader reads (digits with m p s z, honor letters or
    characters) in its brackets; None for anything else."""
    close, kind = OPENERS[part[0]]
    inner = part[1:-1]
    if part[-1] != close or len(part) < 3 or close in inner:
        return None
    # The usual meld, its kinds alone: no TileAt is made, and no row of _TILES_AT (the fast reader asks for none).
    if _PLAIN.fullmatch(inner):
        reds: list[int] = []
        shape = MeldShape(tuple(_plain_kinds(inner, reds)), tuple(reds))
        return remember(_MELD_SHAPES, part, (kind, shape), 8192)
    try:
        tiles = _read_tiles(inner, 2, allow_flowers=False)[0]
    except MjcalcError:  # anything wrong is left to the general reader
        return None
    shape = MeldShape(tuple([t.tile for t in tiles]), tuple([t.tile for t in tiles if t.red]))
    return remember(_MELD_SHAPES, part, (kind, shape), 8192)


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
    line.flags.append(new_tuple(FlagWord, (*_flag_body(body), start + 1)))
    return end


def _plain_tiles(chunk: str, column: int) -> list[TileAt]:
    """Tiles of a plain chunk (``_PLAIN``: digits and m p s z only, so no error is possible)."""
    if column + len(chunk) > _COLUMNS:  # far along an unusually long line: made as the general scan makes them
        return _read_tiles(chunk, column, allow_flowers=False)[0]
    plain: list[TileAt] = []
    for digits, suit in _runs(chunk):
        row = _TILES_AT[suit]
        for d in digits:  # a loop: extending the list by maps of getitem went through Python-level iteration
            plain.append(row[d][column])
            column += 1
        column += 1  # the suit letter
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
                    flowers.append(new_tuple(TileAt, (int(d) - 1, dcol, False)))
                    continue
                if ch == "z" and not "1" <= d <= "7":
                    raise MjcalcError("notation", Msg("'{digit}z' is not a tile: honors are 1z-7z (东南西北白发中)",
                                                          digit=d), dcol)
                base = SUIT_BASE[ch]
                if d == "0":
                    found.append(new_tuple(TileAt, (base + 4, dcol, True)))
                else:
                    found.append(new_tuple(TileAt, (base + ord(d) - 49, dcol, False)))
            digits = []
        elif ch in T.HONOR_LETTERS or ch in T.HONOR_CHARS:
            if digits:
                raise MjcalcError("notation", Msg("digits '{digits}' need a suit letter (m, p, s, z; or 万 筒 条)",
                                                      digits="".join(d for d, _ in digits)), digits[0][1])
            found.append(new_tuple(TileAt, (T.parse_tile(ch), col, False)))
        elif ch in SUIT_CHARS:  # after a digit it is its letter already (normalise)
            raise MjcalcError("notation", Msg("suit '{suit}' has no digits before it (write e.g. 123{suit})",
                                              suit=ch), col)
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
            Msg("digits '{digits}' need a suit letter after them (m, p, s, z; or 万 筒 条)",
                digits="".join(d for d, _ in digits)),
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
        line.flags.append(new_tuple(FlagWord, ("round", ctx[0], column)))
        line.flags.append(new_tuple(FlagWord, ("seat", ctx[1], column + 1)))
        bits = ctx[2:]
        if len(bits) != 4 or any(b not in "01" for b in bits):
            raise MjcalcError("notation", Msg("four 0/1 flags must follow the winds: self-drawn, last of its kind, "
                                              "last tile, robbing a kong"), column + 2)
        for i, (name, bit) in enumerate(zip(GB_FLAG_NAMES, bits, strict=False)):
            if bit == "1":  # the fourth flag is "about a kong": 杠上开花 when self-drawn, else 抢杠和
                word = "gang" if name == "qiang" and bits[0] == "1" else name
                line.flags.append(new_tuple(FlagWord, (word, None, column + 2 + i)))
        column += len(tails[0]) + 1
    if len(tails) > 1:
        count = tails[1].strip() or "0"
        if _is_number(count) and int(count) <= 8:  # a line is short: int() of it is quick
            for k in range(int(count)):
                line.flowers.append(new_tuple(TileAt, (k, column, False)))
        elif all("a" <= ch <= "h" for ch in count.lower()):  # the flowers themselves: a-h = 春夏秋冬梅兰竹菊
            for k, ch in enumerate(count.lower()):
                line.flowers.append(new_tuple(TileAt, (ord(ch) - ord("a"), column + k, False)))
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
            out.append(new_tuple(TileAt, (GB_DRAGON_ORDER[rank], t.column, False)))
        else:
            out.append(t)
    return out
