"""Every way to read a hand: N sets + a pair, special forms as plug-ins, the winning tile's placement,
wildcard substitutions, and the shape waits of the hand before the win.

A reading is what predicates look at. Decomposition works on 34-slot count vectors, one suit at a time,
with each suit's decompositions cached: a batch of a million hands meets the same suit patterns again
and again.

>>> from mjcalc.tiles import counts_of
>>> [len(regular_decompositions(tuple(counts_of(tiles_of("111222333m55z"))), 4))]
[2]
>>> sorted(name(t) for t in shape_waits(tiles_of("1112345678999m"), [], 4, (FormSpec("regular"),)))
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import cache, lru_cache
from itertools import product
from operator import itemgetter
from typing import Final, NamedTuple

from . import tiles as T
from .facts import new as new_fact
from .hand import Hand, Meld, SpecialKongDef
from .i18n import N_
from .memo import remember
from .tiles import counts_of, name  # noqa: F401  (counts_of: doctests)

_new: Final = tuple.__new__  # a named tuple from its fields without the Python-level __new__: readings make many


def tiles_of(text: str) -> list[int]:
    """Tiles of a plain mpsz string (tests and docs)."""
    out: list[int] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out.extend(T.parse_tile(d + ch) for d in digits)
            digits = ""
    return out


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


class Reading(NamedTuple):  # a tuple: one per decomposition and placement of the winning tile
    form: str  # regular | seven_pairs | thirteen_orphans | …
    groups: tuple[Group, ...]  # concealed groups, then melds
    win_index: int | None  # the group the winning tile completed
    wait: str | None  # edge | closed | two_sided | pair | dual_pung | single | None

    def text(self) -> list[str]:
        return [g.text() for g in self.groups]


class FormSpec(NamedTuple):  # a tuple: part of the key of the waits cache (_completing_kinds)
    """A winning form a ruleset allows, with its parameters (``{seven_pairs: {allow_four: true}}``)."""

    name: str
    params: tuple[tuple[str, object], ...] = ()

    def param(self, key: str, default: object = None) -> object:
        return dict(self.params).get(key, default)


# --- regular: N sets + a pair --------------------------------------------------------------------------


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
    # Python function, three calls costing more than the loop over 14 tiles (callgrind).
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
    # compiled module does without the iterator protocol (callgrind: ~2,000 instructions a hand less).
    combined = per_suit[0]
    for more in per_suit[1:]:
        combined = tuple([done + split for done in combined for split in more])
    return combined


# The splits of each suit's tiles (``_suit_splits``) met so far. A dictionary rather than an lru_cache: the call
# through the cache's wrapper cost more than the look-up (callgrind: ~800 instructions against ~250).
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
# chows, pair) and in no other, so that each split is reached once, by the first of the paths _walk takes to it
# (~3 times faster than _walk's splits sorted and made unique: a suit's first split costs a batch of fresh hands
# ~5,000 instructions a riichi hand, callgrind).
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
    rank r leaves that sum at 2r, and r is 2 * weight modulo 3: the pair is tried at a third of the ranks (the pair
    tried at each rank was most of the cost of shapewaits' suit entries, ~1,200 instructions a call)."""
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


# --- special forms: plug-ins by name -------------------------------------------------------------------


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
    hand fails at its first tiles (callgrind: ~2,000 instructions a riichi hand less)."""
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
    Python ints, on every MCR hand (callgrind: ~2,500 instructions against ~300)."""
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


def decompositions(concealed: tuple[int, ...], free_sets: int,
                   forms: Iterable[FormSpec]) -> list[tuple[str, tuple[Group, ...]]]:
    """Every split of the concealed tiles (sorted kinds) in every form, with the form's name."""
    out = []
    counts = None
    for spec in forms:
        form = spec[0]  # the name, by index: a named tuple's attribute costs a compiled module a Python look-up
        if form == "regular":
            for groups in _regular(concealed):
                out.append(("regular", groups))
        elif may_be(form, concealed):
            if counts is None:
                counts = tuple(T.counts_of(concealed))
            for d in special_form(form, counts, free_sets, spec):  # mostly none: no comprehension to set up
                out.append((form, tuple([_group(k, t) for k, t in d])))
    return out


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
    kinds (small ints): a frozenset of the tiles and one intersection per pattern cost ~10,000 instructions."""
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





# --- readings with the winning tile placed -------------------------------------------------------------

_SIZES: Final = {"chi": 3, "pon": 3, "pair": 2, "single": 1}
WAITS: Final = ("edge", "closed", "two_sided", "pair", "dual_pung", "single", "knitted", "called")  # Reading.wait, when not None
# facts.py: the reading's wait
WAIT_FACT_NAMES: Final = {
    "edge": N_("edge wait"), "closed": N_("closed wait"), "two_sided": N_("two_sided wait"),
    "pair": N_("pair wait"), "dual_pung": N_("dual_pung wait"), "single": N_("single wait"),
    "knitted": N_("knitted wait"), "called": N_("called wait"),
}
WAIT_FACTS: Final[dict[str | None, int]] = {None: 0, **{w: new_fact(WAIT_FACT_NAMES.get(w, f"{w} wait"))
                                                        for w in WAITS}}


# Groups are values: one object per (kind, tile) serves every reading. A dictionary rather than functools.cache:
# a compiled module calls a cached function as a Python object (callgrind: ~1,500 instructions a call against
# ~250 for the look-up). A few hundred at most (the kinds of group times the 34 kinds).
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


# The group of each meld met, by identity (the entry holds the meld, so no other object can take its id): hands
# are built from the melds kept per text (hand._MELDS), and a meld's group costs ~3,000 instructions to make.
_MELD_GROUPS: Final[dict[int, tuple[Meld, Group]]] = {}


def _meld_group(m: Meld) -> Group:
    found = _MELD_GROUPS.get(id(m))
    if found is None or found[0] is not m:
        found = remember(_MELD_GROUPS, id(m), (m, meld_group(m)), 4096)
    return found[1]


def meld_group(m: Meld) -> Group:
    if m.kind == "special":
        return _new(Group, ("special", m.tiles, True, True, m.special, m.extra))
    kind = "kong" if m.is_kong else m.kind
    return _new(Group, (kind, m.tiles, m.kind == "concealed_kong", True, None, 0))


def _wait_of(group: Group, win: int) -> str:
    kind = group[0]
    if kind == "pair":
        return "pair"
    if kind == "pon":
        return "dual_pung"
    if kind == "single":
        return "single"
    if kind == "knitted":
        return "knitted"
    first = group[1][0]
    if win == first + 1:
        return "closed"
    if (win == first + 2 and first % 9 == 0) or (win == first and first % 9 == 6):
        return "edge"
    return "two_sided"


def readings(hand: Hand, forms: tuple[FormSpec, ...]) -> list[Reading]:
    """Every reading of a complete hand, one per decomposition and placement of the winning tile. A called
    meld (叫胡) holds the winning tile in every reading."""
    free = hand.sets - len(hand.melds)
    if not hand.melds:
        return _concealed_readings(hand.concealed, hand.win_tile, free, forms)
    melds = tuple([_meld_group(m) for m in hand.melds])
    called = None
    for i, m in enumerate(hand.melds):
        if m.called:
            called = i
            break
    if called is not None:
        return [_new(Reading, (form, groups + melds, len(groups) + called, "called"))
                for form, groups in decompositions(hand.concealed, free, forms)]
    return [_new(Reading, (form, groups + melds, i, wait))
            for form, groups, i, wait in _concealed_readings(hand.concealed, hand.win_tile, free, forms)]


def _concealed_readings(concealed: tuple[int, ...], win: int | None, free: int,
                        forms: tuple[FormSpec, ...]) -> list[Reading]:
    """The readings of the concealed tiles alone (the hand's melds are added after them). Not cached whole:
    whole hands seldom come back, the suits' splits are cached, and a cache of readings would hold many objects
    that the garbage collector walks again and again (measured: no faster, more collector time)."""
    out: list[Reading] = []
    for form, groups in decompositions(concealed, free, forms):
        if win is None:
            out.append(_new(Reading, (form, groups, None, None)))
            continue
        placed: list[Group] = []  # the winning tile once per distinct group (concealed groups are interned)
        for i, g in enumerate(groups):
            if _holds(g[1], win) and not _among(g, placed):
                placed.append(g)
                out.append(_new(Reading, (form, groups, i, _wait_of(g, win))))
    return out


# ``win in g.tiles`` and ``g not in placed`` by plain loops: a compiled module tests ``in`` on a tuple or a list
# through the Python protocol, item by item (callgrind: ~1,500 instructions a riichi hand less).
def _holds(tiles: tuple[int, ...], win: int) -> bool:
    for t in tiles:  # noqa: SIM110
        if t == win:
            return True
    return False


def _among(g: Group, placed: list[Group]) -> bool:
    """Whether a group of the concealed tiles is among ``placed``: such a group is its kind and first tile alone."""
    for p in placed:
        if p[0] == g[0] and p[1][0] == g[1][0]:
            return True
    return False


def shape_waits(concealed: Iterable[int], melds: Iterable[Meld], sets: int, forms: tuple[FormSpec, ...],
                jokers: int = 0) -> frozenset[int]:
    """Tile kinds that complete the hand (one tile short), leaving out kinds the hand already holds four of.

    With jokers, a kind is a wait exactly when one more joker can stand for it: one enumeration of the fills
    with ``jokers + 1`` instead of a completeness test per kind."""
    melds = tuple(melds)
    base = T.counts_of(concealed)
    held = _held(concealed, melds)
    if jokers:
        fills = joker_fills(tuple(base), jokers + 1, sets - len(melds), forms, held)
        return frozenset(k for fill in fills for k in fill)
    found = _completing_kinds(tuple(base), sets - len(melds), forms)
    return frozenset(k for k in found if held[k] < 4)


def shape_completions(concealed: Iterable[int], melds: Iterable[Meld], sets: int,
                      forms: tuple[FormSpec, ...]) -> frozenset[int]:
    """Tile kinds whose addition completes the shape of the hand (one tile short), kinds it already holds four
    of included: what a rule that counts waits by the shape alone sees (MCR's reference, for 边张 嵌张 单钓将)."""
    return _completing_kinds(tuple(T.counts_of(concealed)), sets - len(tuple(melds)), forms)


# The kinds a tile can join in a set: itself, and within two of it in its suit (an honor: itself only).
_NEAR: Final = tuple((t,) if T.is_honor(t) else tuple(u for u in range(t - 2, t + 3) if T.suit_of(u) == T.suit_of(t)
                                               and 0 <= u < T.HONOR_START) for t in range(T.NUM_KINDS))


# The kinds that complete each set of concealed counts met (``_completing_kinds``), by the counts, the sets still
# free and the ruleset's forms (by id, kept with them): a dictionary, not an lru_cache, whose key would hash the
# forms on every call. Bounded: a batch's memory must not grow with the file.
_COMPLETING: Final[dict[tuple[tuple[int, ...], int, int], tuple[tuple[FormSpec, ...], frozenset[int]]]] = {}


def _completing_kinds(counts: tuple[int, ...], free: int, forms: tuple[FormSpec, ...]) -> frozenset[int]:
    """Kinds whose addition completes the concealed tiles (``_completions``), remembered."""
    key = (counts, free, id(forms))
    found = _COMPLETING.get(key)
    if found is None or found[0] is not forms:
        found = remember(_COMPLETING, key, (forms, _completions(counts, free, forms)), 4096)
    return found[1]


# Each suit's ``_suit_can`` bits (found greedily: ``suit_bits``) and ``_suit_completions`` by its counts (the honors'
# are 7 long, a suit's 9: the counts alone tell them apart). Bounded: suit patterns are many over a million lines.
_CAN: Final[dict[tuple[int, ...], int]] = {}
_COMPLETES: Final[dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]]] = {}


def _completions(counts: tuple[int, ...], free: int, forms: tuple[FormSpec, ...]) -> frozenset[int]:
    """Kinds whose addition completes the concealed tiles.

    The regular form a suit at a time: a tile added to one suit completes the hand when the other suits all
    split and that suit, with it, splits into sets alone (the others hold the pair) or with the pair (they
    don't); which tiles do either for a suit is kept by the suit's pattern (``_suit_completions``). A special
    form is tried on each tile near a held one (or an orphan) whose fourteen tiles can be of it."""
    out: set[int] = set()
    if sum(counts) + 1 == 3 * free + 2 and any(spec.name == "regular" for spec in forms):
        subs = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
        bits = [-1, -1, -1, -1]  # -1: the suit is empty
        for s in range(4):
            sub = subs[s]
            if any(sub):
                b = _CAN.get(sub, -1)
                if b < 0:
                    b = remember(_CAN, sub, suit_bits(sub, s == 3), 16384)
                bits[s] = b
        for s in range(4):
            pairs = 0  # _pairs_if_split over the other suits
            splits = True
            for j in range(4):
                b = bits[j]
                if j != s and b >= 0:
                    if not b:
                        splits = False
                        break
                    pairs += b >> 1
            if splits and pairs <= 1:
                sub = subs[s]
                completes = _COMPLETES.get(sub)
                if completes is None:
                    completes = remember(_COMPLETES, sub, _suit_completions(sub, s == 3), 16384)
                offset = 9 * s
                for i in completes[pairs]:
                    out.add(offset + i)
    held: list[int] | None = None
    for spec in forms:
        if spec.name == "regular":
            continue
        if held is None:
            held = [t for t, n in enumerate(counts) if n]
        candidates = _form_candidates(spec.name, counts, held)
        if not candidates:  # the usual hand: of no special form, nothing to try
            continue
        form = SPECIAL_FORMS[spec.name]
        for k in sorted(candidates - out):
            filled = list(counts)
            filled[k] += 1
            if form(tuple(filled), free, spec):
                out.add(k)
    return frozenset(out)


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


def _suit_completions(counts: tuple[int, ...], honors: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The tiles (offsets in the suit) whose addition lets one suit split with the pair, and into sets alone:
    indexed by how many pairs the other suits hold (0: this suit needs it, 1: it must not have one). Each found
    greedily on the counts packed (``_packed_bits``), remembered by the caller (``_COMPLETES``)."""
    packed = total = 0
    for i, c in enumerate(counts):
        packed += c << 3 * i
        total += c
    ranks = len(counts)
    with_pair, sets_only = [], []
    for i in range(ranks):
        bits = _packed_bits(packed + (1 << 3 * i), total + 1, ranks, honors)
        if bits & 2:
            with_pair.append(i)
        if bits & 1:
            sets_only.append(i)
    return tuple(with_pair), tuple(sets_only)


# --- wildcards -----------------------------------------------------------------------------------------


def joker_fills(counts: tuple[int, ...], jokers: int, free_sets: int, forms: tuple[FormSpec, ...],
                held: tuple[int, ...] | None = None, by_class: bool = False) -> list[tuple[int, ...]]:
    """Every multiset of kinds the jokers can stand for so that the hand is complete.

    ``counts`` are the real tiles (jokers removed); ``held`` counts every real tile of the hand, melds
    included, so that a joker never stands for a fifth copy. With ``by_class``, jokers that make a whole set
    or the pair by themselves are tried once per class of set a class-blind ruleset can see (``_set_class``).

    >>> [tuple(name(k) for k in f) for f in joker_fills(tuple(counts_of(tiles_of("123m456p789s111z2z"))), 1, 4,
    ...                                                   (FormSpec("regular"),))]
    [('2z',)]
    >>> four = tuple(counts_of(tiles_of("123m456p789s2z")))
    >>> regular = (FormSpec("regular"),)
    >>> len(joker_fills(four, 4, 4, regular)), len(joker_fills(four, 4, 4, regular, by_class=True))
    (98, 55)
    """
    limit = held if held is not None else counts
    found: set[tuple[int, ...]] = set()
    candidates: set[tuple[int, ...]] = set()
    for spec in forms:
        if spec.name == "regular":
            if sum(counts) + jokers == 3 * free_sets + 2:
                candidates |= _regular_fills(counts, jokers, free_sets, 1)
        else:
            candidates |= _form_fills(counts, jokers, free_sets, spec)
    for combo in candidates:
        found.update(_expand(combo, limit, by_class))
    return sorted(found)


def _within(limit: tuple[int, ...], combo: tuple[int, ...]) -> bool:
    return all(limit[k] + combo.count(k) <= 4 for k in set(combo))


def _expand(combo: tuple[int, ...], limit: tuple[int, ...], by_class: bool) -> list[tuple[int, ...]]:
    """A fill with its joker-only placeholders replaced by real shapes, within the four-copy limit."""
    fixed = tuple(k for k in combo if k < JOKER_PON)
    holders = [k for k in combo if k >= JOKER_PON]
    if not holders:
        return [combo] if _within(limit, combo) else []
    seen: set[tuple[object, ...]] = set()
    out: list[tuple[int, ...]] = []
    for shapes in product(*(_PLACEHOLDER_SHAPES[h] for h in holders)):
        filled = tuple(sorted(fixed + tuple(t for shape in shapes for t in shape)))
        if not _within(limit, filled):
            continue
        key: tuple[object, ...] = tuple(sorted(_set_class(s) for s in shapes)) if by_class else filled
        if key not in seen:
            seen.add(key)
            out.append(filled)
    return out


def reading_class(reading: Reading) -> tuple[object, ...]:
    """A reading as a class-blind ruleset (``joker_sets: by_class``) sees it: the form and the class of every
    group, not its tiles nor where the winning tile sits. Two readings of one class score alike there."""
    return reading.form, tuple(sorted(_group_class(g) for g in reading.groups))


@cache
def _group_class(g: Group) -> tuple[object, ...]:
    return g.kind, g.special or "", g.meld, g.concealed, g.extra, _set_class(g.tiles)


@cache
def _set_class(shape: tuple[int, ...]) -> tuple[int, bool, int, bool]:
    """What a class-blind ruleset sees of a set or pair: its size, chi or not, the suit (winds and dragons
    apart), and whether it holds a 1 or 9."""
    first = shape[0]
    suit = T.suit_of(first) if first < T.HONOR_START else (3 if T.is_wind(first) else 4)
    return len(shape), shape[0] != shape[-1], suit, any(T.is_terminal(t) for t in shape)


def _form_fills(counts: tuple[int, ...], jokers: int, free_sets: int, spec: FormSpec) -> set[tuple[int, ...]]:
    """Special forms are few and small: try every multiset of kinds."""
    out = set()
    for combo in _multisets(list(range(T.NUM_KINDS)), jokers):
        filled = list(counts)
        for k in combo:
            filled[k] += 1
        if SPECIAL_FORMS[spec.name](tuple(filled), free_sets, spec):
            out.add(combo)
    return out


def _groups_holding(i: int, counts: tuple[int, ...], jokers: int, sets: int,
                    pairs: int) -> Iterator[tuple[dict[int, int], tuple[int, ...], int, int]]:
    """Every group that can hold real tile ``i`` (a pon, the pair, a chi), jokers filling the gaps: the real
    tiles it uses, what its jokers stand for, and the sets and pairs left to make."""
    for size, is_set in ((3, True), (2, False)):
        if (sets if is_set else pairs) == 0:
            continue
        for real in range(1, min(counts[i], size) + 1):
            if size - real <= jokers:
                yield {i: real}, (i,) * (size - real), sets - is_set, pairs - (not is_set)
    if sets and i < T.HONOR_START:
        for first in (i - 2, i - 1, i):
            if first < 0 or T.suit_of(first) != T.suit_of(i) or first % 9 > 6:
                continue
            others = [t for t in (first, first + 1, first + 2) if t != i]
            for choice in product((True, False), repeat=2):  # each other tile: real (if held) or a joker
                used = {i: 1}
                fill = tuple(t for t, real in zip(others, choice, strict=True) if not real)
                for t in (t for t, real in zip(others, choice, strict=True) if real):
                    used[t] = used.get(t, 0) + 1
                if all(counts[t] >= n for t, n in used.items()) and len(fill) <= jokers:
                    yield used, fill, sets - 1, pairs


def _minus(counts: tuple[int, ...], used: dict[int, int]) -> tuple[int, ...]:
    c = list(counts)
    for t, n in used.items():
        c[t] -= n
    return tuple(c)


@lru_cache(maxsize=16384)  # bounded, as above
def _regular_fills(counts: tuple[int, ...], jokers: int, sets: int, pairs: int) -> frozenset[tuple[int, ...]]:
    """Joker substitutions completing ``counts`` into ``sets`` sets and ``pairs`` pairs. Each step takes the
    lowest real tile and tries every group that can hold it, jokers filling the gaps."""
    i = next((t for t, n in enumerate(counts) if n), None)
    if i is None:
        return _joker_only_fills(jokers, sets, pairs)
    out: set[tuple[int, ...]] = set()
    for used, fill, sets_left, pairs_left in _groups_holding(i, counts, jokers, sets, pairs):
        for rest in _regular_fills(_minus(counts, used), jokers - len(fill), sets_left, pairs_left):
            out.add(tuple(sorted(fill + rest)))
    return frozenset(out)


# Jokers that make whole sets or the pair by themselves stand for any pon, chi or pair: the fill keeps a
# placeholder for each such group until the rest of the fill is known (``_expand``). Codes sort after tiles.
JOKER_PON, JOKER_CHI, JOKER_PAIR = 100, 101, 102
_PLACEHOLDER_SHAPES: Final = {
    JOKER_PON: tuple((k, k, k) for k in range(T.NUM_KINDS)),
    JOKER_CHI: tuple((k, k + 1, k + 2) for k in range(T.HONOR_START) if k % 9 <= 6),
    JOKER_PAIR: tuple((k, k) for k in range(T.NUM_KINDS)),
}


@cache
def _joker_only_fills(jokers: int, sets: int, pairs: int) -> frozenset[tuple[int, ...]]:
    """Jokers that make whole sets or the pair by themselves: placeholders, one per group."""
    if jokers != 3 * sets + 2 * pairs:
        return frozenset()
    return frozenset((JOKER_PON,) * pons + (JOKER_CHI,) * (sets - pons) + (JOKER_PAIR,) * pairs
                     for pons in range(sets + 1))


def _multisets(pool: list[int], size: int, start: int = 0) -> Iterator[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    for i in range(start, len(pool)):
        for rest in _multisets(pool, size - 1, i):
            yield (pool[i], *rest)


class Wildcards:  # a plain class: a dataclass's methods are Python source compiled at import (every command's start-up)
    """Which tiles of a hand are wildcards: ``count`` copies of ``kind`` in the concealed tiles, one of them
    the winning tile when ``win_is_wild``."""

    __slots__ = ("kind", "count", "win_is_wild", "labels", "note")

    def __init__(self, kind: int | None = None, count: int = 0, win_is_wild: bool = False,
                 labels: tuple[str, ...] = (), note: str | None = None) -> None:
        self.kind: Final = kind
        self.count: Final = count
        self.win_is_wild: Final = win_is_wild
        self.labels: Final = labels
        self.note: Final = note  # something the reader should know about how the wildcards were read


def substituted_hands(hand: Hand, wild: Wildcards, forms: tuple[FormSpec, ...],
                      by_class: bool = False) -> list[tuple[Hand, dict[str, str]]]:
    """The hand once per way its wildcards can stand for real tiles, with what each stood for. A winning
    wildcard is tried as each kind it can stand for, unless ``by_class`` (the rules never see where the
    winning tile sits)."""
    if not wild.count:
        return [(hand, {})]
    real = list(hand.concealed)
    for _ in range(wild.count):
        real.remove(wild.kind)  # type: ignore[arg-type]
    counts = tuple(T.counts_of(real))
    free = hand.sets - len(hand.melds)
    out: list[tuple[Hand, dict[str, str]]] = []
    for fill in joker_fills(counts, wild.count, free, forms, _held(real, hand.melds), by_class):
        wins = sorted(set(fill))[: 1 if by_class else None] if wild.win_is_wild else [hand.win_tile]
        for win in wins:
            order = list(fill)
            if wild.win_is_wild:  # the winning wildcard is listed first
                order.remove(win)  # type: ignore[arg-type]
                order.insert(0, win)  # type: ignore[arg-type]
            new = Hand(tuple(sorted(real + list(fill))), hand.melds, win, hand.flowers, hand.reds, hand.sets)
            subs = {label: name(k) for label, k in zip(wild.labels, order, strict=True)}
            out.append((new, subs))
    return out


def _held(concealed: Iterable[int], melds: Iterable[Meld]) -> tuple[int, ...]:
    """Counts of every real tile of the hand, melds included: what a joker may not make a fifth copy of, and the
    kinds held four times that are no wait. A special kong's wild 1s counts as the 1s it is (spec/rules)."""
    held = T.counts_of(concealed)
    for m in melds:
        for t in m.held:
            held[t] += 1
    return tuple(held)


def set_call_hands(hand: Hand, wild: Wildcards,
                   specials: Iterable[SpecialKongDef]) -> list[tuple[Hand, Wildcards, dict[str, str]]]:
    """The won hand read with its winning tile completing a special kong's core among the concealed tiles
    (Meihe's 中发白 叫胡, kinds with ``last_set``). The core's other kinds must be real tiles held before the
    win, never wildcards, and so is the winning tile (spec/rules/meihe.md: a drawn wildcard is never the winning
    tile of a 中发白 叫胡; it may still complete the hand another way). The set becomes a called meld, so the rest
    reads as one set fewer and the kong scores like a declared one."""
    specials = [sk for sk in specials if sk.last_set] if specials else []  # most rulesets have none
    if hand.win_tile is None or not specials or wild.win_is_wild:
        return []
    before = list(hand.without_win())
    real = list(before)
    for _ in range(wild.count - wild.win_is_wild):
        real.remove(wild.kind)  # type: ignore[arg-type]
    out: list[tuple[Hand, Wildcards, dict[str, str]]] = []
    for sk in specials:
        for kind in sk.core:
            others = [k for k in sk.core if k != kind]
            if kind != hand.win_tile or any(k not in real for k in others):
                continue
            rest = list(before)
            for k in others:
                rest.remove(k)
            meld = Meld("special", tuple(sorted(sk.core)), sk.id, called=True)
            called = Hand(tuple(sorted(rest)), (*hand.melds, meld), kind, hand.flowers, hand.reds, hand.sets)
            out.append((called, wild, {}))
    return out
