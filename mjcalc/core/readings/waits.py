"""The waits of a hand one tile short, worked out here and nowhere else: the kinds whose addition completes it
in one of the ruleset's forms (a kind it holds four of left out), with jokers too; and the waits of a won hand
before its winning tile, computed once a line when something asks (``WaitsBeforeWin``).

Two ways to the same answer. ``shape_waits`` is the definition: a completeness test per kind, per suit from
bounded tables (``_completions``). ``hand_waits`` is what every line of a batch asks for (the JSON's ``waits``),
found without a count vector for most hands: one pass over the sorted tiles gives each suit's pattern (its
counts as a number) and size, and the runs of equal tiles; then

- the regular form a suit at a time: a suit's pattern is the key of a bounded table of what one more tile of that
  suit does (``_suit_entry``: whether the suit splits, with or without the pair, and which added tiles let it
  split each way, each found greedily). The waits are the additions to one suit while the others split, at most
  one of them holding the pair: a look-up a suit;
- seven pairs and thirteen orphans by the runs: one kind held an odd number of times, the others in pairs; or
  only orphans, twelve or thirteen of them different;
- any other special form as ``forms`` tries it (its candidate tiles, then the form itself).

tests/test_shapewaits.py holds the two together on many hands.

>>> from mjcalc.core.readings.forms import FormSpec
>>> from mjcalc.core.readings.decompose import tiles_of
>>> sorted(hand_waits(tuple(sorted(tiles_of("1112345678999m"))), (), 4, (FormSpec("regular"),)))
[0, 1, 2, 3, 4, 5, 6, 7, 8]
>>> sorted(T.name(t) for t in shape_waits(tiles_of("1112345678999m"), [], 4, (FormSpec("regular"),)))
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Final

from ...support.memo import remember
from .. import tiles as T
from ..hand import Hand, Meld
from .forms import (  # noqa: F401  (suit_bits: tests)
    _KNITTED_MASKS,
    FEWEST_KINDS,
    ORPHANS,
    SPECIAL_FORMS,
    FormSpec,
    _form_candidates,
    _packed_bits,
    _regular,
    suit_bits,
)
from .wildcards import Wildcards, _held, joker_fills

# A suit's pattern: its counts packed three bits a rank (a suit holds at most four of a kind, and a tile added to
# four makes five, which three bits still hold), plus the suit above the 27 bits of nine ranks, so that one number
# names one suit's tiles: the key of the table. Packed so that a rank's count is a shift and a mask away.
_SHIFT: Final[tuple[int, ...]] = tuple([3 * (t % 9 if t < T.HONOR_START else t - T.HONOR_START)
                                        for t in range(T.NUM_KINDS)])
_SUIT_PLACE: Final = 1 << 27  # beyond every pattern of nine ranks
_PATTERN: Final = _SUIT_PLACE - 1

_ORPHAN_BITS: Final = sum(1 << t for t in ORPHANS)
_KIND_OF_BIT: Final[dict[int, int]] = {1 << t: t for t in range(T.NUM_KINDS)}

# (bits, with the pair, sets only) of a suit's pattern: bit 1 the suit splits into sets alone, bit 2 into sets and
# the pair; the ranks whose addition lets it split with the pair, and those that let it split into sets alone (as
# masks: bit i for rank i, shifted to the suit's kinds where used). The three numbered suits split alike: they share
# their entries (the key is the pattern alone); the honors' keys are above every pattern (``_SUIT_PLACE``).
_SuitEntry = tuple[int, int, int]
_SUITS: Final[dict[int, _SuitEntry]] = {}
_SUITS_LIMIT: Final = 16384  # suit patterns are many over a million lines: bounded


def _suit_entry(key: int, size: int, honors: bool) -> _SuitEntry:
    """What one more tile does to one suit's tiles (the pattern ``key``, ``size`` tiles; the honors or a numbered
    suit); made once per pattern.

    Whether a suit's counts split is found greedily, rank by rank: the tiles of the lowest rank not taken by the
    chows begun below it make pons, and the rest (their number modulo 3) chows begun there (three chows from one
    rank hold the tiles of three pons, so either way is the same split). The definition is ``forms._suit_can``
    (every decomposition); tests/test_shapewaits.py compares them pattern by pattern. A tile added where it has no
    tile of its own kind nor (numbered) within two ranks is in no set and no pair: it splits nothing, and is not
    tried."""
    ranks = 7 if honors else 9
    pattern = key & _PATTERN
    near = 0  # the ranks an added tile could join: held ones, and (numbered) those within two of a held one
    weight = 0  # the sum of the tiles' ranks, modulo 3 (``_packed_bits``)
    for i in range(ranks):
        count = pattern >> 3 * i & 7
        if count:
            near |= 1 << i if honors else 0b11111 << i >> 2
            weight += i * count
    with_pair = sets_only = 0
    split = (size + 1) % 3 != 1  # 3n + 1 tiles split no way
    for i in range(ranks):
        if split and near >> i & 1:
            bits = _packed_bits(pattern + (1 << 3 * i), size + 1, ranks, honors, (weight + i) % 3)
            if bits & 2:
                with_pair |= 1 << i
            if bits & 1:
                sets_only |= 1 << i
    entry = (_packed_bits(pattern, size, ranks, honors, weight % 3), with_pair, sets_only)
    return remember(_SUITS, key, entry, _SUITS_LIMIT)


def hand_waits(concealed: tuple[int, ...], melds: tuple[Meld, ...], sets: int,
               forms: tuple[FormSpec, ...]) -> frozenset[int]:
    """``shape_waits`` without jokers: the kinds that complete the concealed tiles (sorted) in one of
    ``forms``, beside ``melds``, leaving out a kind the hand holds four of (melds included)."""
    return kinds_of(hand_shapes(concealed, melds, sets, forms)[1])


def hand_completions(concealed: tuple[int, ...], melds: tuple[Meld, ...], sets: int,
                     forms: tuple[FormSpec, ...]) -> frozenset[int]:
    """``shape_completions`` without jokers: the kinds that complete the concealed tiles (sorted) in one of ``forms``,
    beside ``melds``, kinds the hand holds four of included (``hand_waits`` before it leaves them out)."""
    return kinds_of(_completing(concealed, sets - len(melds), forms)[0])


def hand_shapes(concealed: tuple[int, ...], melds: tuple[Meld, ...], sets: int,
                forms: tuple[FormSpec, ...]) -> tuple[int, int]:
    """Both at once, as masks (bit t: kind t): ``hand_completions``, then ``hand_waits``, from one pass."""
    out, fours = _completing(concealed, sets - len(melds), forms)
    if not out:
        return 0, 0
    waits = out & ~fours  # a kind held four times is no wait
    for m in melds:  # nor one the melds hold the rest of (a special kong's wild 1s count as the 1s they are)
        for t in m.held:
            if waits >> t & 1:
                held = concealed.count(t)
                for other in melds:
                    held += other.held.count(t)
                if held >= 4:
                    waits &= ~(1 << t)
    return out, waits


def kinds_of(out: int) -> frozenset[int]:
    """The kinds of a mask (bit t: kind t). The same few masks come back hand after hand (one wait, two sides of
    a chow …): each set is made once."""
    found = _KINDS_OF.get(out)
    if found is None:
        kinds = []
        mask = out
        while mask:
            low = mask & -mask
            kinds.append(_KIND_OF_BIT[low])
            mask ^= low
        found = remember(_KINDS_OF, out, frozenset(kinds), 4096)
    return found


_KINDS_OF: Final[dict[int, frozenset[int]]] = {}  # the sets of kinds_of, by their masks


def _completing(concealed: tuple[int, ...], free: int, forms: tuple[FormSpec, ...]) -> tuple[int, int]:
    """The kinds that complete the concealed tiles (sorted), as a mask, and the kinds held four times in them."""
    n = len(concealed)
    # One pass: each suit's pattern and size; the runs of one kind (how many are odd, the odd one, the longest).
    p0 = p1 = p2 = p3 = 0
    n0 = n1 = n2 = n3 = 0
    odd_runs = 0
    odd_kind = -1
    fours = 0  # the kinds held four times in hand (a mask)
    kinds = 0  # the kinds held (a mask)
    distinct = 0
    longest = 0
    i = 0
    while i < n:
        t = concealed[i]
        j = i + 1
        while j < n and concealed[j] == t:
            j += 1
        run = j - i
        distinct += 1
        kinds |= 1 << t
        if run > longest:
            longest = run
        if run % 2:
            odd_runs += 1
            odd_kind = t
        if run == 4:
            fours |= 1 << t
        digits = run << _SHIFT[t]
        if t < 9:
            p0 += digits
            n0 += run
        elif t < 18:
            p1 += digits
            n1 += run
        elif t < 27:
            p2 += digits
            n2 += run
        else:
            p3 += digits
            n3 += run
        i = j
    out = 0  # the waits found (a mask)
    for spec in forms:
        name = spec.name
        if name == "regular":
            if n == 3 * free + 1:
                out |= _regular_waits(p0, p1, p2, p3, n0, n1, n2, n3)
        elif name == "seven_pairs":
            if free == 4 and n == 13 and odd_runs == 1 and (longest <= 2 or bool(spec.param("allow_four", False))):
                out |= 1 << odd_kind  # its pair completes the seven (a third one: four of a kind, allowed)
        elif name == "thirteen_orphans":
            if free == 4 and n == 13 and distinct >= 12 and not kinds & ~_ORPHAN_BITS:
                # thirteen different: any of them makes the pair; twelve and a pair: the one missing
                out |= _ORPHAN_BITS if distinct == 13 else _ORPHAN_BITS & ~kinds
        elif distinct >= FEWEST_KINDS.get(name, 0):
            out |= _special_waits(concealed, free, spec, out)
    return out, fours


def _regular_waits(p0: int, p1: int, p2: int, p3: int, n0: int, n1: int, n2: int, n3: int) -> int:
    """The kinds (a mask) that complete the concealed tiles (sorted; 3n + 1 of them) as n + 1 sets and a pair,
    from each suit's pattern (``p0``-``p3``) and size (``n0``-``n3``)."""
    if (n0 % 3 == 1) + (n1 % 3 == 1) + (n2 % 3 == 1) + (n3 % 3 == 1) > 1:
        return 0  # two suits one tile short of splitting: one tile mends only one
    # Each suit's entry in a local (an absent suit splits into no set: no pair, no wait), not in a list: a compiled
    # module keeps an entry unboxed (three ints) where a list holds a tuple made for it.
    e0 = _entry(p0, n0, False) if n0 else _ABSENT
    e1 = _entry(p1, n1, False) if n1 else _ABSENT
    e2 = _entry(p2, n2, False) if n2 else _ABSENT
    e3 = _entry(p3 + _SUIT_PLACE, n3, True) if n3 else _ABSENT
    s0, s1, s2, s3 = e0[0], e1[0], e2[0], e3[0]
    out = 0
    if n0:
        out |= _added(e0, s1, s2, s3)
    if n1:
        out |= _added(e1, s0, s2, s3) << 9
    if n2:
        out |= _added(e2, s0, s1, s3) << 18
    if n3:
        out |= _added(e3, s0, s1, s2) << 27
    return out


_ABSENT: Final[_SuitEntry] = (1, 0, 0)


def _added(entry: _SuitEntry, a: int, b: int, c: int) -> int:
    """The ranks (a mask) whose addition to the suit of ``entry`` completes the hand, the other suits' bits
    ``a``, ``b``, ``c``: each must split, at most one of them with the pair."""
    if not (a and b and c):
        return 0
    pairs = (a >> 1) + (b >> 1) + (c >> 1)
    return entry[1] if pairs == 0 else entry[2] if pairs == 1 else 0


def _entry(key: int, size: int, honors: bool) -> _SuitEntry:
    entry = _SUITS.get(key)
    return _suit_entry(key, size, honors) if entry is None else entry


def _special_waits(concealed: tuple[int, ...], free: int, spec: FormSpec, found: int) -> int:
    """The kinds (a mask) that complete the concealed tiles in one special form other than seven pairs and
    thirteen orphans, as ``readings`` finds them: its candidate tiles not ``found`` yet, each tried with the form
    (a knitted straight: ``_knitted_straight_waits``)."""
    if spec.name == "knitted_straight":
        return _knitted_straight_waits(concealed, free)
    counts = T.counts_of(concealed)
    held = [t for t, c in enumerate(counts) if c]
    form = SPECIAL_FORMS[spec.name]
    out = 0
    for k in sorted(_form_candidates(spec.name, tuple(counts), held)):
        if found >> k & 1:
            continue
        counts[k] += 1
        if form(tuple(counts), free, spec):
            out |= 1 << k
        counts[k] -= 1
    return out


_REGULAR_ONLY: Final = (FormSpec("regular"),)


def _knitted_straight_waits(concealed: tuple[int, ...], free: int) -> int:
    """The kinds (a mask) that complete the concealed tiles (sorted) as a knitted straight (组合龙, three of the
    ``free`` sets) and regular sets and a pair of the rest (``forms._knitted_straight``), without trying each
    candidate with the form: with all nine tiles of a knitted straight held, the kinds that complete the rest in the
    regular form; with eight, the missing one when the rest is complete already. tests/test_shapewaits.py holds it
    to the form itself."""
    if free < 3 or len(concealed) != 3 * free + 1:
        return 0
    kinds = 0
    for t in concealed:
        kinds |= 1 << t
    out = 0
    for pattern in _KNITTED_MASKS:
        missing = pattern & ~kinds
        if missing & (missing - 1):  # two or more missing: no one tile completes it
            continue
        rest: list[int] = []
        taken = 0  # the knitted straight's kinds taken out once each
        for t in concealed:
            bit = 1 << t
            if pattern & bit and not taken & bit:
                taken |= bit
            else:
                rest.append(t)
        if not missing:
            out |= _completing(tuple(rest), free - 3, _REGULAR_ONLY)[0]
        elif not out & missing and _regular(tuple(rest)):
            out |= missing
    return out


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


class WaitsBeforeWin:
    """``waits_before_win`` of one hand, computed on the first call only: the result and every reading share
    it, and most lines never ask (an object with slots costs less to make than a closure, made once a line).
    Without wildcards the waits and the completions (``completions``) come from one pass (``hand_shapes``).
    ``winning`` asks ``judge`` (set by core.search, which scores) which of the waits win: given this object at
    each call rather than holding it, so that the two make no reference cycle (every line's waits and hand would
    then wait for the garbage collector)."""

    __slots__ = ("forms", "found", "hand", "judge", "legal", "masks", "shapes", "wild")

    def __init__(self, hand: Hand, wild: Wildcards, forms: tuple[FormSpec, ...]) -> None:
        """``forms``: the ruleset's."""
        self.hand, self.wild, self.forms = hand, wild, forms
        self.found: frozenset[int] | None = None
        self.shapes: frozenset[int] | None = None
        self.masks: tuple[int, int] | None = None
        self.legal: frozenset[int] | None = None
        # Whether the hand wins on a tile, set by the search that asks (core.search.find_best_reading).
        self.judge: Callable[[WaitsBeforeWin, int], bool] | None = None

    def winning(self) -> frozenset[int]:
        """The waits on which the hand would win: some reading of it with that tile passes every win condition
        that has a ``when`` (not a ``minimum``, which items decide). A win condition must not ask for these."""
        if self.legal is None:
            judge = self.judge
            if judge is None:
                return self()
            self.legal = frozenset()  # what a condition asking for these meanwhile would see (not recursion)
            self.legal = frozenset([t for t in self() if judge(self, t)])
        return self.legal

    def __call__(self) -> frozenset[int]:
        if self.found is None:
            mask = self.mask()
            # the usual hand (a mask): per suit from memoised tables (hand_shapes), as shape_waits defines them
            self.found = waits_before_win(self.hand, self.wild, self.forms) if mask is None else kinds_of(mask)
        return self.found

    def mask(self) -> int | None:
        """The waits as a mask (bit t: kind t), without wildcards in the hand before the win; None with them."""
        wild = self.wild
        if wild.count - (1 if wild.win_is_wild else 0):
            return None
        return self._masks()[1]

    def completions(self) -> frozenset[int]:
        """The kinds that complete the shape, kinds the hand holds four of included (with wildcards: the waits)."""
        if self.shapes is None:
            if self.wild.count:
                self.shapes = self()
            else:  # as shape_completions defines them
                self.shapes = kinds_of(self._masks()[0])
        return self.shapes

    def _masks(self) -> tuple[int, int]:
        if self.masks is None:
            hand = self.hand
            self.masks = hand_shapes(hand.without_win(), hand.melds, hand.sets, self.forms)
        return self.masks


def waits_before_win(hand: Hand, wild: Wildcards, forms: tuple[FormSpec, ...]) -> frozenset[int]:
    """Shape waits of the hand one tile short of the win (a waiting hand as given, or a win without its tile)."""
    jokers = wild.count - (1 if wild.win_is_wild else 0)
    if not jokers:  # the usual hand: per suit from memoised tables (hand_shapes), as shape_waits defines them
        return hand_waits(hand.without_win(), hand.melds, hand.sets, forms)
    concealed = list(hand.without_win())
    for _ in range(jokers):
        concealed.remove(wild.kind)  # type: ignore[arg-type]
    return shape_waits(concealed, hand.melds, hand.sets, forms, jokers)
