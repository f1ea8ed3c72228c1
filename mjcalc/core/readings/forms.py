"""The winning forms a ruleset allows: N sets + a pair read suit by suit (each suit's splits cached: a batch of
a million hands meets the same suit patterns again and again), and the special forms as plug-ins by name
(seven pairs, thirteen orphans, the knitted forms of MCR). ``Group`` is one set of a reading.

>>> from mjcalc.core.tiles import counts_of
>>> from mjcalc.core.readings.decompose import tiles_of
>>> [len(regular_decompositions(tuple(counts_of(tiles_of("111222333m55z"))), 4))]
[2]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Final, NamedTuple

from ...i18n import N_
from ...support.memo import remember
from .. import tiles as T
from ..facts import new as new_fact


class Group(NamedTuple):  # a tuple: readings make many, and predicates read them on every reading
    """One set of a reading (or its pair, or a lone tile of a special form)."""

    kind: str  # chi | pon | kong | pair | special | single
    tiles: tuple[int, ...]
    concealed: bool = True  # from the concealed hand or a concealed / special kong
    meld: bool = False  # declared before the win
    special: str | None = None  # special kong kind id
    extra: int = 0  # extra tiles on a special kong

    @property
    def is_set(self) -> bool:
        return self.kind in ("chi", "pon", "kong", "special")

    @property
    def is_triplet(self) -> bool:
        """A triplet or an ordinary kong."""
        return self.kind in ("pon", "kong")

    def text(self) -> str:
        body = T.format_tiles(self.tiles, sort=self.kind != "special")
        if not self.meld:
            return body
        if self.kind == "special":
            return "{" + body + "}"
        return f"({body})" if self.concealed else f"[{body}]"


class FormSpec(NamedTuple):  # a tuple: part of the key of the waits cache (_completing_kinds)
    """A winning form a ruleset allows, with its parameters (``{seven_pairs: {allow_four: true}}``)."""

    name: str
    params: tuple[tuple[str, object], ...] = ()

    def param(self, key: str, default: object = None) -> object:
        return dict(self.params).get(key, default)


@lru_cache(maxsize=16384)  # suit patterns are many over a million lines: bounded
def _suit_decompositions(counts: tuple[int, ...], honors: bool) -> tuple[tuple[tuple[str, int], ...], ...]:
    """All ways to split one suit's counts into chi / pon / at most one pair, as (kind, offset) tuples."""
    out: list[tuple[tuple[str, int], ...]] = []
    _walk(list(counts), 0, [], False, honors, out)
    return tuple(out)


def _walk(c: list[int], start: int, acc: list[tuple[str, int]], pair: bool, honors: bool,
          out: list[tuple[tuple[str, int], ...]]) -> None:
    """``_suit_decompositions``' search from the first tile at or after ``start``: a pon, a chi, then the pair
    there. A function of the module, not a closure: a compiled closure is called as a Python object."""
    i = start
    while i < len(c) and c[i] == 0:
        i += 1
    if i == len(c):
        out.append(tuple(acc))
        return
    if c[i] >= 3:
        c[i] -= 3
        _walk(c, i, [*acc, ("pon", i)], pair, honors, out)
        c[i] += 3
    if not honors and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        _walk(c, i, [*acc, ("chi", i)], pair, honors, out)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2 and not pair:
        c[i] -= 2
        _walk(c, i, [*acc, ("pair", i)], True, honors, out)
        c[i] += 2


def _suit_slices(counts: tuple[int, ...]) -> list[tuple[tuple[int, ...], bool, int]]:
    return [(counts[0:9], False, 0), (counts[9:18], False, 9), (counts[18:27], False, 18), (counts[27:34], True, 27)]


def regular_decompositions(counts: tuple[int, ...], sets: int) -> tuple[tuple[Group, ...], ...]:
    """Every split of concealed counts into sets + exactly one pair, as groups (``sets``: how many the hand
    needs, which its tile count already says)."""
    return _regular(tuple(t for t, n in enumerate(counts) for _ in range(n)))


def _regular(concealed: tuple[int, ...]) -> tuple[tuple[Group, ...], ...]:
    """``regular_decompositions`` of the concealed tiles sorted. The tiles of each suit are a slice of them, cut
    where the suits change, and the key of that suit's cached splits: no count vector is built.

    A suit's tile count fixes whether it holds the pair (count % 3 == 2) or not (0), so the suits' ways to
    split combine freely once exactly one suit has the pair."""
    # Where the suits change (bisect_left of 9, 18, 27), by a plain loop: a compiled module calls bisect as a
    # Python function, three calls costing more than the loop over 14 tiles.
    size = len(concealed)
    i1 = 0
    while i1 < size and concealed[i1] < 9:
        i1 += 1
    i2 = i1
    while i2 < size and concealed[i2] < 18:
        i2 += 1
    i3 = i2
    while i3 < size and concealed[i3] < 27:
        i3 += 1
    per_suit = []
    pairs = 0
    for sub in (concealed[:i1], concealed[i1:i2], concealed[i2:i3], concealed[i3:]):
        n = len(sub)
        if not n:
            continue
        rest = n % 3
        if rest == 1:
            return ()
        pairs += rest == 2
        found = _SPLITS.get(sub)
        if found is None:
            found = remember(_SPLITS, sub, _suit_splits(sub), 16384)  # suit patterns are many over a million lines
        if not found:
            return ()
        per_suit.append(found)
    if pairs != 1:
        return ()
    # The suits' splits combined, the first suit's varying slowest (as itertools.product): by concatenation, which a
    # compiled module does without the iterator protocol.
    combined = per_suit[0]
    for more in per_suit[1:]:
        combined = tuple([done + split for done in combined for split in more])
    return combined


# The splits of each suit's tiles (``_suit_splits``) met so far. A dictionary rather than an lru_cache: the call
# through the cache's wrapper cost more than the look-up.
_SPLITS: Final[dict[tuple[int, ...], tuple[tuple[Group, ...], ...]]] = {}


def _suit_splits(sub: tuple[int, ...]) -> tuple[tuple[Group, ...], ...]:
    """The splits of one suit's tiles (sorted kinds, all of one suit) as groups."""
    honors = sub[0] >= T.HONOR_START
    offset = T.HONOR_START if honors else sub[0] - sub[0] % 9
    counts = [0] * (T.NUM_KINDS - T.HONOR_START if honors else 9)
    for t in sub:
        counts[t - offset] += 1
    return _placed_decompositions(tuple(counts), honors, offset)


def _placed_decompositions(sub: tuple[int, ...], honors: bool, offset: int) -> tuple[tuple[Group, ...], ...]:
    """A suit's decompositions as groups of the suit's kinds (``offset``: the suit's first kind), each once, in the
    order ``_suit_decompositions`` first finds them; each split's groups by tile, then kind (chi, pair, pon)."""
    out: list[tuple[Group, ...]] = []
    _walk_groups(list(sub), 0, _NOTHING, [], False, honors, offset, out)
    return tuple(out)


# What ``_walk_groups`` last took at the tile it is at: the groups of one tile are taken in _walk's order (pon,
# chows, pair) and in no other, so that each split is reached once, by the first of the paths _walk takes to it.
_NOTHING: Final = 0


_PON: Final = 1


_CHI: Final = 2


_PAIR: Final = 3


def _walk_groups(c: list[int], start: int, last: int, acc: list[Group], pair: bool, honors: bool, offset: int,
                 out: list[tuple[Group, ...]]) -> None:
    i = start
    while i < len(c) and c[i] == 0:
        i += 1
    if i != start:
        last = _NOTHING
    if i == len(c):
        out.append(_by_tile(acc))
        return
    if c[i] >= 3 and last == _NOTHING:
        c[i] -= 3
        acc.append(_group("pon", i + offset))
        _walk_groups(c, i, _PON, acc, pair, honors, offset, out)
        acc.pop()
        c[i] += 3
    if not honors and last != _PAIR and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append(_group("chi", i + offset))
        _walk_groups(c, i, _CHI, acc, pair, honors, offset, out)
        acc.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2 and not pair:
        c[i] -= 2
        acc.append(_group("pair", i + offset))
        _walk_groups(c, i, _PAIR, acc, True, honors, offset, out)
        acc.pop()
        c[i] += 2


def _by_tile(groups: list[Group]) -> tuple[Group, ...]:
    """Groups taken tile by tile (a tile's pon first) ordered by tile, then kind: a tile's pon goes after its chows
    and pair."""
    out: list[Group] = []
    pon: Group | None = None
    for g in groups:
        if pon is not None and g[1][0] != pon[1][0]:
            out.append(pon)
            pon = None
        if g[0] == "pon":
            pon = g
        else:
            out.append(g)
    if pon is not None:
        out.append(pon)
    return tuple(out)


@lru_cache(maxsize=16384)  # suit patterns are many over a million lines: bounded
def _suit_can(counts: tuple[int, ...], honors: bool) -> int:
    """Bit 1: the suit splits into sets alone; bit 2: into sets and one pair."""
    bits = 0
    for d in _suit_decompositions(counts, honors):
        bits |= 2 if any(k == "pair" for k, _ in d) else 1
    return bits


def suit_bits(counts: Sequence[int], honors: bool) -> int:
    """Bit 1: one suit's counts split into sets alone; bit 2: into sets and one pair (``_suit_can``), greedily
    (``_packed_bits``)."""
    packed = total = 0
    for i, c in enumerate(counts):
        packed += c << 3 * i
        total += c
    return _packed_bits(packed, total, len(counts), honors)


def _packed_bits(packed: int, total: int, ranks: int, honors: bool, weight: int = -1) -> int:
    """``_suit_can`` of a suit's counts packed three bits a rank (``total`` tiles, ``ranks`` ranks), found greedily
    (``_sets_only``; tests/test_shapewaits.py holds ``suit_bits`` to the definition). ``weight``, when the caller
    has it: the sum of the tiles' ranks modulo 3. A pon's ranks and a chow's add up to a multiple of 3, so a pair at
    rank r leaves that sum at 2r, and r is 2 * weight modulo 3: the pair is tried at a third of the ranks."""
    left = total % 3
    if left == 0:
        return 1 if _sets_only(packed, ranks, honors) else 0
    if left == 2:
        r, step = (0, 1) if weight < 0 else (2 * weight % 3, 3)
        while r < ranks:  # a while loop: a compiled module runs a range() of a variable step as a Python object
            shift = 3 * r
            if packed >> shift & 7 >= 2 and _sets_only(packed - (2 << shift), ranks, honors):
                return 2
            r += step
    return 0


def _sets_only(packed: int, ranks: int, honors: bool) -> bool:
    """Whether the packed counts split into pons and chows (honors: pons), greedily from the lowest rank."""
    begun1 = begun2 = 0  # chows begun one rank below (they need this rank and the next), and two below
    last = ranks - 1
    for i in range(ranks):
        if not packed:  # no tile left: every chow begun must have been ended
            return begun1 == begun2 == 0
        left = (packed & 7) - begun1 - begun2
        if left < 0:
            return False
        new = left % 3  # chows begun here; the rest are pons
        if new and (honors or i >= last - 1):
            return False
        begun2 = begun1
        begun1 = new
        packed >>= 3
    return True


def _regular_complete(counts: tuple[int, ...]) -> bool:
    every_suit_splits, pairs = _pairs_if_split(
        _suit_can(sub, honors) for sub, honors, _ in _suit_slices(counts) if any(sub))
    return every_suit_splits and pairs == 1


def _pairs_if_split(bits: Iterable[int]) -> tuple[bool, int]:
    """Whether every suit splits (``_suit_can`` bits), and how many with a pair: a regular hand has exactly one
    (a suit's tile count decides which way it can go: with the pair at 2 more than a multiple of 3)."""
    pairs = 0
    for b in bits:
        if not b:
            return False, 0
        pairs += b >> 1
    return True, pairs


def _seven_pairs(counts: tuple[int, ...], free_sets: int, spec: FormSpec) -> list[tuple[tuple[str, int], ...]]:
    if free_sets != 4 or sum(counts) != 14:  # a count of 1 or 3 fails below
        return []
    allow_four = bool(spec.param("allow_four", False))
    groups: list[tuple[str, int]] = []
    for t, n in enumerate(counts):
        if n == 2:
            groups.append(("pair", t))
        elif n == 4 and allow_four:
            groups.extend((("pair", t), ("pair", t)))
        elif n:
            return []
    return [tuple(groups)]


ORPHANS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


_orphan_counts = itemgetter(*ORPHANS)


def _thirteen_orphans(counts: tuple[int, ...], free_sets: int, spec: FormSpec) -> list[tuple[tuple[str, int], ...]]:
    if free_sets != 4 or 0 in _orphan_counts(counts) or sum(counts) != 14:
        return []
    if any(n and t not in ORPHANS for t, n in enumerate(counts)):
        return []
    return [tuple(("pair", t) if counts[t] == 2 else ("single", t) for t in ORPHANS)]


# The six knitted straights (组合龙): 147 258 369 spread over the three suits, one suit each, as the first kind of
# each 1-4-7 run and all nine kinds.
KNITTED_STARTS: Final = tuple(tuple(suit * 9 + rank for suit, rank in zip((0, 1, 2), ranks, strict=True))
                              for ranks in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)))


KNITTED_KINDS: Final = tuple(frozenset(s + k for s in starts for k in (0, 3, 6)) for starts in KNITTED_STARTS)


_KNITTED_MASKS: Final = tuple(T.mask(kinds) for kinds in KNITTED_KINDS)  # as kind masks (bit t: kind t)


def _knitted_straight(counts: tuple[int, ...], free_sets: int, spec: FormSpec) -> list[tuple[tuple[str, int], ...]]:
    """组合龙 in a regular hand: the nine tiles of a knitted straight (147 258 369, one suit each) as three sets,
    the rest of the concealed tiles the other set(s) and the pair (a declared meld may be the fourth set)."""
    if free_sets < 3:
        return []
    out: list[tuple[tuple[str, int], ...]] = []
    for starts, kinds in zip(KNITTED_STARTS, KNITTED_KINDS, strict=True):
        if any(not counts[k] for k in kinds):
            continue
        rest = list(counts)
        for k in kinds:
            rest[k] -= 1
        knitted = tuple(("knitted", s) for s in sorted(starts))
        tiles = tuple(t for t, n in enumerate(rest) for _ in range(n))
        if len(tiles) != 3 * (free_sets - 3) + 2:
            continue
        for groups in _regular(tiles):
            out.append(knitted + tuple((g[0], g[1][0]) for g in groups))
    return out


def _honors_and_knitted(counts: tuple[int, ...], free_sets: int,
                        spec: FormSpec) -> list[tuple[tuple[str, int], ...]]:
    """全不靠 / 七星不靠: fourteen different tiles, honors and tiles of one knitted straight (147 258 369, one suit
    each); no meld. A full knitted straight among them is read as one (组合龙), the other tiles as singles."""
    if free_sets != 4 or sum(counts) != 14 or max(counts) != 1:
        return []
    held = frozenset(t for t, n in enumerate(counts) if n and t < T.HONOR_START)
    for starts, kinds in zip(KNITTED_STARTS, KNITTED_KINDS, strict=True):
        if held <= kinds:
            if held == kinds:
                return [tuple(("knitted", s) for s in sorted(starts))
                        + tuple(("single", t) for t in range(T.HONOR_START, T.NUM_KINDS) if counts[t])]
            return [tuple(("single", t) for t, n in enumerate(counts) if n)]
    return []


SPECIAL_FORMS: Final = {"seven_pairs": _seven_pairs, "thirteen_orphans": _thirteen_orphans,
                        "knitted_straight": _knitted_straight, "honors_and_knitted": _honors_and_knitted}


_ORPHAN_SET: Final = frozenset(ORPHANS)


def may_be(form: str, tiles: tuple[int, ...]) -> bool:
    """A necessary condition of a special form on the concealed tiles sorted (True for a form without one),
    tested before any count vector is built: most hands are of no special form, and a batch reads millions.
    Tests in a function rather than a table of lambdas: a compiled module calls it directly, and the usual
    hand fails at its first tiles."""
    if form == "seven_pairs":  # tiles[0::2] == tiles[1::2]: pairs side by side
        n = len(tiles)
        if n % 2:
            return False
        for i in range(0, n, 2):
            if tiles[i] != tiles[i + 1]:
                return False
        return True
    if form == "thirteen_orphans":
        for t in tiles:  # noqa: SIM110  (a loop that stops at the first simple tile)
            if t not in _ORPHAN_SET:
                return False
        return True
    if form == "knitted_straight":  # nine kinds at least, the knitted straight's (tested first: it is cheaper)
        return _kinds_in(tiles) >= 9 and _knitted_in(tiles) >= 9
    if form == "honors_and_knitted":  # fourteen kinds: no two tiles side by side alike
        if len(tiles) != 14:
            return False
        for i in range(13):
            if tiles[i] == tiles[i + 1]:
                return False
        return True
    return True


def _kinds_in(tiles: tuple[int, ...]) -> int:
    """How many kinds the sorted tiles hold, counted where the kind changes: ``len(set(tiles))`` builds a set of
    Python ints, on every MCR hand."""
    n = 1 if tiles else 0
    for i in range(1, len(tiles)):
        if tiles[i] != tiles[i - 1]:
            n += 1
    return n


def special_form(name: str, counts: tuple[int, ...], free_sets: int,
                 spec: FormSpec) -> list[tuple[tuple[str, int], ...]]:
    """``SPECIAL_FORMS[name](counts, free_sets, spec)``, the common forms called directly (a compiled module's
    call through the table is a Python call)."""
    if name == "seven_pairs":
        return _seven_pairs(counts, free_sets, spec)
    if name == "thirteen_orphans":
        return _thirteen_orphans(counts, free_sets, spec)
    return SPECIAL_FORMS[name](counts, free_sets, spec)


FORM_NAMES: Final = ("regular", *SPECIAL_FORMS)


IMMEDIATE: Final = "immediate"  # the form of the one reading of an immediate win (no sets: a flower win)


# facts.py: the reading's form
FORM_FACT_NAMES: Final = {  # the facts' names in words (facts.describe: mjcalc rules show), texts of the catalog
    "regular": N_("form regular"), "seven_pairs": N_("form seven_pairs"),
    "thirteen_orphans": N_("form thirteen_orphans"), "knitted_straight": N_("form knitted_straight"),
    "honors_and_knitted": N_("form honors_and_knitted"), IMMEDIATE: N_("form immediate"),
}


FORM_FACTS: Final = {name: new_fact(FORM_FACT_NAMES.get(name, f"form {name}")) for name in (*FORM_NAMES, IMMEDIATE)}
REGULAR: Final = FORM_FACTS["regular"]


def is_complete(counts: tuple[int, ...], free_sets: int, forms: Iterable[FormSpec]) -> bool:
    for spec in forms:
        if spec.name == "regular":
            if sum(counts) == 3 * free_sets + 2 and _regular_complete(counts):
                return True
        elif SPECIAL_FORMS[spec.name](counts, free_sets, spec):
            return True
    return False


def _knitted_in(tiles: tuple[int, ...]) -> int:
    """How many kinds of the knitted straight that shares most with these tiles' kinds they hold, on masks of the
    kinds (small ints), not a frozenset of the tiles and one intersection per pattern."""
    held = 0
    for t in tiles:
        held |= 1 << t
    best = 0
    for pattern in _KNITTED_MASKS:
        common = held & pattern
        n = 0
        while common:
            common &= common - 1
            n += 1
        if n > best:
            best = n
    return best


_SIZES: Final = {"chi": 3, "pon": 3, "pair": 2, "single": 1}


# Groups are values: one object per (kind, tile) serves every reading. A dictionary rather than functools.cache: a
# compiled module calls a cached function as a Python object. A few hundred at most (the kinds of group times the 34
# kinds).
_GROUPS: Final[dict[tuple[str, int], Group]] = {}


def _group(kind: str, t: int) -> Group:
    key = (kind, t)
    found = _GROUPS.get(key)
    if found is None:
        found = _GROUPS[key] = _new_group(kind, t)
    return found


def _new_group(kind: str, t: int) -> Group:
    if kind == "chi":
        return Group("chi", (t, t + 1, t + 2))
    if kind == "knitted":  # a third of a knitted straight: 147, 258 or 369 of a suit
        return Group("knitted", (t, t + 3, t + 6))
    return Group(kind, (t,) * _SIZES[kind])


# The fewest kinds the tiles of a hand one tile short of these special forms hold (``_form_candidates`` finds no
# tile below it): a test before any count is made.
FEWEST_KINDS: Final[dict[str, int]] = {"honors_and_knitted": 13, "knitted_straight": 8}


def _form_candidates(name: str, counts: tuple[int, ...], held: list[int]) -> set[int]:
    """The kinds one of which might complete a special form of these concealed counts (a superset of those that
    do), by what the form needs: seven pairs the one kind held an odd number of times; thirteen orphans an
    orphan; a knitted straight its missing tile (eight of it held) or, all nine held, a tile near one held
    beyond them; 全不靠 a kind not held that leaves the suited tiles within one knitted straight (thirteen
    different held); any other form a tile near a held one. ``held``: the kinds held, in order.
    The cheap tests come first: most hands are of no special form."""
    if name == "seven_pairs":
        odd = [t for t in held if counts[t] % 2]
        return set(odd) if len(odd) == 1 else set()
    if name == "thirteen_orphans":
        return set(ORPHANS) if _ORPHAN_SET.issuperset(held) else set()
    if name == "honors_and_knitted":
        if len(held) != FEWEST_KINDS[name] or sum(counts) != 13:
            return set()
        suited = frozenset(t for t in held if t < T.HONOR_START)
        out: set[int] = set()
        for pattern in KNITTED_KINDS:
            if suited <= pattern:
                out.update(pattern)
                out.update(range(T.HONOR_START, T.NUM_KINDS))
        return out - set(held)
    if name == "knitted_straight":
        # The tile completes a knitted straight the hand holds eight of (the missing one), or, with all nine held,
        # the rest of the hand: it goes with a tile held beyond the knitted ones.
        if len(held) < FEWEST_KINDS[name]:  # fewer kinds held than eight of one knitted straight
            return set()
        kinds = frozenset(held)
        out = set()
        for pattern in KNITTED_KINDS:
            n = len(kinds & pattern)
            if n == 9:
                for t in held:
                    if counts[t] > (t in pattern):
                        out.update(_NEAR[t])
            elif n == 8:
                out.update(pattern - kinds)
        return out
    near: set[int] = set()
    for t in held:
        near.update(_NEAR[t])
    return near


# The kinds a tile can join in a set: itself, and within two of it in its suit (an honor: itself only).
_NEAR: Final = tuple((t,) if T.is_honor(t) else tuple(u for u in range(t - 2, t + 3) if T.suit_of(u) == T.suit_of(t)
                                               and 0 <= u < T.HONOR_START) for t in range(T.NUM_KINDS))
