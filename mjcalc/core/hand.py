"""The hand as the ruleset sees it: concealed tiles, melds (with special kongs recognised), winning tile.

``build_hand`` turns a ParsedLine into a Hand under a ruleset's tile facts (hand size, red fives, flowers,
special kongs) and checks what the notation promises: meld shapes, at most four of a kind, the tile count.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Final

from ..errors import MjcalcError
from ..i18n import Msg
from ..support.memo import remember
from . import tiles as T
from .facts import CLOSED, KONG, MELDED, RED, tile_facts
from .notation import MeldText, ParsedLine, TileAt


# Plain classes, not dataclasses: a dataclass's methods are Python source compiled when the module is imported,
# every command's start-up (benchmarks/bench_startup.py). Values: equal when their fields are.
class SpecialKongDef:
    """A special kong kind (旋风杠, 喜杠 …): at least ``min_distinct`` different kinds from ``core``; each tile
    beyond that is an extra (补 / 毛) and must come from ``extra_from``. ``wild`` kinds may stand in for a
    core kind, a missing one or an extra (the 2024 competition rules' 一条). ``last_set``: the winning tile may complete the core
    in the concealed hand as the last set (Meihe's 中发白 叫胡), scoring as this kong."""

    __slots__ = ("id", "names", "core", "min_distinct", "extra_from", "wild", "last_set")

    def __init__(self, id: str, names: dict[str, str], core: tuple[int, ...], min_distinct: int,
                 extra_from: tuple[int, ...], wild: tuple[int, ...] = (), last_set: bool = False) -> None:
        self.id: Final = id
        self.names: Final = names
        self.core: Final = core
        self.min_distinct: Final = min_distinct
        self.extra_from: Final = extra_from
        self.wild: Final = wild
        self.last_set: Final = last_set

    def _key(self) -> tuple[object, ...]:
        return self.id, self.names, self.core, self.min_distinct, self.extra_from, self.wild, self.last_set

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpecialKongDef) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.id, self.core, self.min_distinct, self.extra_from, self.wild, self.last_set))

    def match(self, kinds: tuple[int, ...]) -> tuple[int, ...] | None:
        """The effective tiles (wilds replaced by the core kinds they stand for), or None if no match. A wild
        tile fills a missing core kind first (as itself when it is one); a wild beyond the core is an added tile
        standing for itself when it is a kind that may be added, else for the core kind the meld holds fewest of."""
        wild = [k for k in kinds if k in self.wild]
        real = [k for k in kinds if k not in self.wild]
        for k in real:
            if k not in self.core and k not in self.extra_from:
                return None
        present = {k for k in real if k in self.core}
        missing = [k for k in self.core if k not in present]
        own: list[int] = []  # a wild that is itself a missing core kind fills its own place
        rest: list[int] = []
        for k in wild:
            if k in missing:
                missing.remove(k)
                own.append(k)
            else:
                rest.append(k)
        stands = missing[: len(rest)]
        if len(present) + len(own) + len(stands) < self.min_distinct or len(kinds) < self.min_distinct:
            return None
        effective = real + own + stands
        for k in rest[len(stands):]:  # wilds beyond the core: added tiles
            if k in self.extra_from:
                effective.append(k)
            else:
                effective.append(min(self.core, key=lambda c: (effective.count(c), self.core.index(c))))
        return tuple(sorted(effective))

    def stand_ins(self, kinds: tuple[int, ...], effective: tuple[int, ...]) -> int:
        """How many wild tiles of ``kinds`` stand for another kind in ``effective`` (what ``match`` gave)."""
        return sum(max(0, kinds.count(w) - effective.count(w)) for w in set(self.wild))


class TileRules:
    """The facts about tiles and size that a ruleset fixes; notation checks against these."""

    __slots__ = ("ruleset", "sets", "red_fives", "flowers", "flower_replacement", "special_kongs")

    def __init__(self, ruleset: str, sets: int = 4, red_fives: bool = False, flowers: bool = False,
                 flower_replacement: bool = False, special_kongs: tuple[SpecialKongDef, ...] = ()) -> None:
        self.ruleset: Final = ruleset
        self.sets: Final = sets
        self.red_fives: Final = red_fives
        self.flowers: Final = flowers
        # Flowers are set aside as drawn and replaced from the kong end: a win on that tile is a replacement win
        # (+gang) even with no kong (Taiwan's 杠上开花 "on a kong or flower replacement tile").
        self.flower_replacement: Final = flower_replacement
        self.special_kongs: Final = special_kongs

    def _key(self) -> tuple[object, ...]:
        return self.ruleset, self.sets, self.red_fives, self.flowers, self.flower_replacement, self.special_kongs

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TileRules) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def winning_size(self) -> int:
        return 3 * self.sets + 2


EXPOSED_KINDS: Final = frozenset(("chi", "pon", "kong"))  # melds that open a hand
KONG_KINDS: Final = frozenset(("kong", "concealed_kong", "special"))


# A meld is never changed once made (melds are made for every line). Equal (and hashed) by its fields but ``added``
# and ``reds``. Slotted, and a native class when compiled: compiled code reads its fields directly.
class Meld:
    __slots__ = ("kind", "tiles", "special", "extra", "added", "called", "held", "reds", "_text")

    def __init__(self, kind: str, tiles: tuple[int, ...], special: str | None = None, extra: int = 0,
                 added: bool = False, called: bool = False, held: tuple[int, ...] | None = None,
                 reds: tuple[int, ...] = ()) -> None:
        self.kind: Final = kind  # chi | pon | kong | concealed_kong | special
        self.tiles: Final = tiles  # effective tiles (a special kong's wilds as what they stand for)
        self.special: Final = special  # the special kong kind id
        self.extra: Final = extra  # tiles beyond a special kong's core (each a 补 / 毛)
        self.added: Final = added  # an added kong (加杠), when the notation says so
        self.called: Final = called  # a special set the winning tile completed in hand (叫胡), not declared before
        self.held: Final = tiles if held is None else held  # the tiles as written and held: a special kong's wild 1s
        # is a 1s here
        self.reds: Final = reds  # the kinds of its red fives, to write it back
        self._text: str | None = None  # ``text()``, kept on first use (the same melds come back line after line)

    def _key(self) -> tuple[object, ...]:
        return self.kind, self.tiles, self.special, self.extra, self.called, self.held

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Meld):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Meld(kind={self.kind!r}, tiles={self.tiles!r}, special={self.special!r}, extra={self.extra!r}, "
                f"added={self.added!r}, called={self.called!r}, held={self.held!r}, reds={self.reds!r})")

    @property
    def exposed(self) -> bool:
        """A meld that opens the hand: chi, pon, exposed kong. Concealed and special kongs do not."""
        return self.kind in EXPOSED_KINDS

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    def text(self) -> str:
        """The meld as written: its red fives where they were, a special kong's tiles in the order given."""
        text = self._text
        if text is None:
            text = self._text = self._made_text()
        return text

    def _made_text(self) -> str:
        key = (self.kind, self.held, self.reds)
        found = _MELD_TEXT.get(key)
        if found is not None:
            return found
        body = T.format_tiles(self.held, sort=self.kind != "special", red=self.reds)
        if self.kind == "concealed_kong":
            text = f"({body})"
        elif self.kind == "special":
            text = "{" + body + "}"
        else:
            text = f"[{body}]"
        return remember(_MELD_TEXT, key, text, 8192)


# The text of each meld written so far, by what it depends on (a batch writes each hand's melds back): bounded.
_MELD_TEXT: Final[dict[tuple[str, tuple[int, ...], tuple[int, ...]], str]] = {}


class Hand:
    """A hand: its concealed tiles (sorted, the winning tile among them), melds, the winning tile (None for a
    waiting hand, one tile short), flowers, red fives (how many, and of which kinds: to write the hand back) and
    how many sets it needs. A value: equal to a hand of the same tiles, and never changed once made (its fields
    are Final; slotted, and a native class when compiled, for the predicates that read it on every reading).

    Facts about the tiles, the same for every reading of the hand, are set when the hand is made: ``closed`` (no
    chi, pon or exposed kong), ``kinds`` (bit t for each kind t present), ``suits`` (of the suited tiles: 0 m,
    1 p, 2 s) and ``facts`` (facts.py)."""

    __slots__ = ("_counts", "closed", "concealed", "facts", "flowers", "kinds", "melds", "red_kinds", "reds", "sets",
                 "suits", "win_tile")

    def __init__(self, concealed: tuple[int, ...], melds: tuple[Meld, ...], win_tile: int | None,
                 flowers: tuple[int, ...] = (), reds: int = 0, sets: int = 4, red_kinds: tuple[int, ...] = (),
                 melded: tuple[int, int, int] | None = None) -> None:
        """``melded``: ``meld_facts(melds)``, when the caller has them (build_hand keeps each meld's)."""
        bits = T.BITS
        kinds, opened, kongs = melded if melded is not None else meld_facts(melds)
        for t in concealed:  # a plain loop: the mask is a two-digit int, which C-level sums handle slower
            kinds |= bits[t]
        closed = not opened
        facts = tile_facts(kinds)
        if melds:
            facts |= MELDED | KONG.of[kongs]
        if closed:
            facts |= CLOSED
        if reds:
            facts |= RED
        self.concealed: Final = concealed
        self.melds: Final = melds
        self.win_tile: Final = win_tile
        self.flowers: Final = flowers
        self.reds: Final = reds
        self.sets: Final = sets
        self.red_kinds: Final = red_kinds
        self.closed: Final = closed
        self.kinds: Final = kinds
        self.suits: Final = T.suits_of(kinds)
        self.facts: Final = facts
        self._counts: list[int] | None = None

    def _key(self) -> tuple[object, ...]:
        return self.concealed, self.melds, self.win_tile, self.flowers, self.reds, self.sets

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Hand(concealed={self.concealed!r}, melds={self.melds!r}, win_tile={self.win_tile!r}, "
                f"flowers={self.flowers!r}, reds={self.reds!r}, sets={self.sets!r}, red_kinds={self.red_kinds!r})")

    @property
    def waiting(self) -> bool:
        return self.win_tile is None

    def all_tiles(self) -> list[int]:
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    @property
    def counts(self) -> list[int]:
        """How many of each kind, melds included (34 slots)."""
        if self._counts is None:
            self._counts = T.counts_of(self.all_tiles())
        return self._counts

    def without_win(self) -> tuple[int, ...]:
        """The concealed tiles of the 13-tile hand before the win."""
        win = self.win_tile
        if win is None:
            return self.concealed
        for m in self.melds:  # a loop, not any() over a generator: a batch asks for every line's waits
            if m.called:
                return self.concealed
        rest = list(self.concealed)
        rest.remove(win)
        return tuple(rest)

    def with_win(self, tile: int) -> Hand:
        """The hand won on ``tile``: a waiting hand completed by it, or a win whose winning tile becomes it."""
        rest = list(self.without_win())
        rest.append(tile)
        return Hand(tuple(sorted(rest)), self.melds, tile, self.flowers, self.reds, self.sets, self.red_kinds)

    def text(self) -> str:
        """The hand as it reads: the concealed tiles grouped by suit (``678p 1299s``), the melds as written (red
        fives where they were), flowers, then the winning tile apart; valid notation for the same hand."""
        win = self.win_tile
        melds = self.melds
        called = False
        meld_texts = []
        red = list(self.red_kinds)
        for m in melds:  # the melds of a line are those of its meld texts, kept (``_meld_of``): their text kept too
            meld_texts.append(m.text())
            if m.called:
                called = True
            if red:
                for k in m.reds:
                    if k in red:
                        red.remove(k)
        body = list(self.concealed)  # sorted (every Hand's are), and so still without the winning tile
        if win is not None and not called:  # the tiles before the win (as without_win)
            body.remove(win)
        parts = [T.format_tiles(body, sort=False, red=red, between=" "), *meld_texts]  # a run of each suit
        if self.flowers:
            parts.append("".join(str(f + 1) for f in sorted(self.flowers)) + "f")
        if win is not None and not called:
            parts.append(T.format_tiles((win,), red=[win]) if red and win in red and win not in body else
                         T.name(win))
        return " ".join([p for p in parts if p])


def meld_facts(melds: tuple[Meld, ...] | list[Meld]) -> tuple[int, int, int]:
    """What a Hand reads of its melds: the kinds they hold (a mask), how many open the hand, how many are kongs."""
    bits = T.BITS
    kinds = opened = kongs = 0
    for m in melds:
        for t in m.tiles:
            kinds |= bits[t]
        if m.kind in EXPOSED_KINDS:
            opened += 1
        if m.kind in KONG_KINDS:
            kongs += 1
    return kinds, opened, kongs


def build_hand(line: ParsedLine, rules: TileRules, win: int | None = None, win_column: int | None = None) -> Hand:
    """Check the parsed tiles against the ruleset and assemble the Hand. The checks read kinds; the tiles with
    their columns (``line.concealed``) are asked for only to point at a problem found."""
    kinds = line.kinds
    reds = line.red_kinds
    texts = line.melds
    every = sorted(kinds)  # the kinds of every tile written, sorted
    concealed = tuple(every)
    if texts:
        for m in texts:
            shape = m.shape
            every += shape.kinds
            if shape.reds:
                reds = [*reds, *shape.reds]
    if reds and (not rules.red_fives or _repeats(reds)):
        _refuse_reds(line, rules)
    flowers = _flowers(line, rules) if line.flower_kinds else ()
    if texts:
        _check_copies_unsorted(line, every)  # the melds' kinds after the sorted concealed ones: not sorted again
    else:
        _check_copies(line, every)
    melds: tuple[Meld, ...] = ()
    melded = _NO_MELDS
    if texts:
        melds = tuple([_meld_of(m, rules) for m in texts])
        kinds_held = opened = kongs = 0
        for m in texts:  # each meld's facts, kept with its shape by _meld_of: not worked out from the Meld again
            facts = m.shape.meld_facts
            kinds_held |= facts[0]
            opened += facts[1]
            kongs += facts[2]
        melded = (kinds_held, opened, kongs)
    size = len(kinds) + 3 * len(melds)
    need = rules.winning_size
    if size not in (need, need - 1):
        col = line.concealed[-1].column + 1 if kinds else 1
        raise MjcalcError(
            "notation",
            Msg("1 tile: a hand needs {need} ({waiting} to list its waits), each meld counting 3", need=need,
                waiting=need - 1) if size == 1 else
            Msg("{size} tiles: a hand needs {need} ({waiting} to list its waits), each meld counting 3", size=size,
                need=need, waiting=need - 1),
            col,
        )
    if size == need - 1:
        if win is not None:
            raise MjcalcError("context", Msg("+win names the winning tile, but this hand has {size} tiles: it is "
                                              "waiting", size=size), win_column)
        return Hand(concealed, melds, None, flowers, len(reds), rules.sets, tuple(sorted(reds)) if reds else (), melded)
    if win is None:
        if not kinds:
            raise MjcalcError("notation", Msg("no concealed tiles: the winning tile is the last bare tile"), 1)
        win = kinds[-1]
    elif win not in concealed:
        raise MjcalcError("context", Msg("+win={tile}: that tile is not among the concealed tiles", tile=T.name(win)),
                          win_column)
    return Hand(concealed, melds, win, flowers, len(reds), rules.sets, tuple(sorted(reds)) if reds else (), melded)


def _every_tile(line: ParsedLine) -> list[TileAt]:
    every = list(line.concealed)
    for m in line.melds:
        every += m.tiles
    return every


def _refuse_reds(line: ParsedLine, rules: TileRules) -> None:
    """The first red five the ruleset refuses (it has none, or a second of a suit), in the order written."""
    red_seen: set[int] = set()
    for t in filter(_RED, _every_tile(line)):
        if not rules.red_fives:
            raise MjcalcError(
                "notation",
                Msg("red fives (0m 0p 0s) are riichi tiles; {ruleset} has none: write 5{suit}", ruleset=rules.ruleset,
                    suit=T.name(t.tile)[1]),
                t.column,
            )
        if t.tile in red_seen:
            raise MjcalcError("notation", Msg("a second red {tile}: the set has one red five of each suit; "
                                              "write the other as 5{suit}", tile=T.name(t.tile), suit=T.name(t.tile)[1]),
                              t.column)
        red_seen.add(t.tile)


def _flowers(line: ParsedLine, rules: TileRules) -> tuple[int, ...]:
    kinds = line.flower_kinds
    if not rules.flowers:
        raise MjcalcError("notation", Msg("{ruleset} is played without flowers", ruleset=rules.ruleset),
                          line.flowers[0].column)
    if _repeats(kinds):
        seen_flowers: set[int] = set()
        for f in line.flowers:
            if f.tile in seen_flowers:
                raise MjcalcError("notation", Msg("flower {number}f is given twice; there is one of each",
                                                  number=f.tile + 1), f.column)
            seen_flowers.add(f.tile)
    return tuple(sorted(kinds))


def _repeats(kinds: list[int]) -> bool:
    """Whether a kind (0-33) comes twice: a mask, not a set, for the few tiles of a line."""
    seen = 0
    for k in kinds:
        bit = 1 << k
        if seen & bit:
            return True
        seen |= bit
    return False


_NO_MELDS: Final = (0, 0, 0)  # meld_facts of no meld
_COLUMN, _RED = itemgetter(1), itemgetter(2)  # of a TileAt: its column, whether it is a red five
CHOWS: Final = frozenset((t, t + 1, t + 2) for t in range(T.HONOR_START) if t % 9 <= 6)  # three in a row of one suit


def _check_copies(line: ParsedLine, kinds: list[int]) -> None:
    """At most four of a kind among the line's tiles (``kinds``: the kinds of all of them, sorted)."""
    last, copies = -1, 0  # sorted: the copies of a kind follow one another
    for k in kinds:
        if k != last:
            last, copies = k, 1
        else:
            copies += 1
            if copies == 5:
                _refuse_fifth(line)


def _check_copies_unsorted(line: ParsedLine, kinds: list[int]) -> None:
    """``_check_copies`` of kinds in any order, from their copies' masks (``T.copy_masks``), where a sort first
    costs more."""
    if T.copy_masks(kinds)[1]:
        _refuse_fifth(line)


def _refuse_fifth(line: ParsedLine) -> None:
    """The fifth copy of a kind, in the order written, for the caret."""
    counts = [0] * T.NUM_KINDS
    for t in sorted(_every_tile(line), key=_COLUMN):
        counts[t.tile] += 1
        if counts[t.tile] == 5:
            raise MjcalcError("notation", Msg("a fifth {tile}: there are only four of each tile", tile=T.name(t.tile)),
                              t.column)


# Melds as written (their text, kind and whether added: a meld's tiles follow from these) under tile rules, made
# once: the same few come back line after line. Bounded: a batch's memory must not grow with the file.
_MELDS: Final[dict[tuple[str, str, bool, int], tuple[TileRules, Meld]]] = {}


def _meld_of(m: MeldText, rules: TileRules) -> Meld:
    """``_meld``, kept with the meld's shape (shared by the usual lines that write it) and per meld as written and
    tile rules (a meld that is refused is not kept)."""
    shape = m.shape
    if shape.rules is rules:
        return shape.meld  # type: ignore[no-any-return]
    key = (m.text, m.kind, m.added, id(rules))
    found = _MELDS.get(key)
    if found is None or found[0] is not rules:
        found = remember(_MELDS, key, (rules, _meld(m, rules)))
    shape.rules = rules
    shape.meld = found[1]
    shape.meld_facts = meld_facts([found[1]])
    return found[1]


def _meld(m: MeldText, rules: TileRules) -> Meld:
    kinds = m.shape.kinds
    reds = m.shape.reds
    if m.kind == "special":
        found: tuple[SpecialKongDef, tuple[int, ...]] | None = None
        for sk in rules.special_kongs:  # of the kinds it can be, the one whose wilds stand in least ({1s1s1s}: 幺蛋)
            effective = sk.match(kinds)
            if effective is not None and (found is None or sk.stand_ins(kinds, effective) < found[0].stand_ins(
                    kinds, found[1])):
                found = (sk, effective)
        if found is not None:
            sk, effective = found
            return Meld("special", effective, sk.id, len(kinds) - sk.min_distinct, held=kinds)
        known = ", ".join(f"{sk.names.get('zh', sk.id)} {{{T.format_tiles(sk.core)}}}" for sk in rules.special_kongs)
        raise MjcalcError(
            "notation",
            Msg("{meld} is not a special kong of {ruleset}; it has: {known}", meld=m.text, ruleset=rules.ruleset, known=known)
            if known else Msg("{meld} is not a special kong of {ruleset}; it has none", meld=m.text,
                              ruleset=rules.ruleset),
            m.column,
        )
    same = kinds.count(kinds[0]) == len(kinds)
    if m.kind == "concealed_kong":
        if len(kinds) != 4 or not same:
            raise MjcalcError("notation", Msg("{meld}: a concealed kong is four of one tile, such as (1111m)", meld=m.text),
                              m.column)
        return Meld("concealed_kong", kinds, reds=reds)
    if len(kinds) == 4 and same:
        return Meld("kong", kinds, added=m.added, reds=reds)
    if len(kinds) == 3 and same:
        return Meld("pon", kinds, reds=reds)
    ordered = tuple(sorted(kinds))
    if ordered in CHOWS:
        return Meld("chi", ordered, reds=reds)
    raise MjcalcError(
        "notation",
        Msg("{meld} is not a meld: a chi is three in a row of one suit, a pon three of a kind, a kong four", meld=m.text),
        m.column,
    )
