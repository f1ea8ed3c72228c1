"""The fast shape waits (mjcalc/core/readings/waits.py) against their definition: the kinds whose addition makes the
concealed tiles complete in one of the forms (forms.is_complete, kind by kind), less the kinds the hand holds
four of, melds included (wildcards._held)."""

from __future__ import annotations

import random

from mjcalc.core import tiles as T
from mjcalc.core.hand import Meld
from mjcalc.core.readings.forms import ORPHANS, FormSpec, _suit_can, is_complete, suit_bits
from mjcalc.core.readings.waits import hand_waits, shape_waits
from mjcalc.core.readings.wildcards import _held

FORMS = (
    (FormSpec("regular"),),
    (FormSpec("regular"), FormSpec("seven_pairs"), FormSpec("thirteen_orphans")),  # riichi's
    (FormSpec("regular"), FormSpec("seven_pairs", (("allow_four", True),))),
    (FormSpec("regular"), FormSpec("seven_pairs"), FormSpec("thirteen_orphans"), FormSpec("knitted_straight"),
     FormSpec("honors_and_knitted")),  # MCR's
    (FormSpec("seven_pairs"),),
)
KNITTED = [0, 3, 6, 10, 13, 16, 20, 23, 26]
POOLS = (list(range(34)), list(range(9)), [*ORPHANS], [*range(9), *range(27, 34)], [*KNITTED, *range(27, 34)],
         [0, 1, 2, 3, 9, 10, 11, 27, 28])


def _definition(concealed: tuple[int, ...], melds: tuple[Meld, ...], sets: int,
                forms: tuple[FormSpec, ...]) -> frozenset[int]:
    counts = T.counts_of(concealed)
    held = _held(concealed, melds)
    free = sets - len(melds)
    return frozenset(k for k in range(T.NUM_KINDS) if held[k] < 4
                     and is_complete(tuple(c + (t == k) for t, c in enumerate(counts)), free, forms))


def _meld(rng: random.Random, counts: list[int]) -> Meld | None:
    """A random pon, chi or kong the counts leave room for (at most four of a kind in all)."""
    kind = rng.choice(("pon", "chi", "kong", "concealed_kong"))
    if kind == "chi":
        first = rng.choice([t for t in range(27) if t % 9 <= 6])
        tiles: tuple[int, ...] = (first, first + 1, first + 2)
    else:
        tiles = (rng.randrange(34),) * (3 if kind == "pon" else 4)
    if any(counts[t] + tiles.count(t) > 4 for t in tiles):
        return None
    for t in tiles:
        counts[t] += 1
    return Meld(kind, tiles)


def test_hand_waits_are_the_definition_on_random_hands() -> None:
    rng = random.Random(20)
    with_waits = special = 0
    for _ in range(4000):
        counts = [0] * T.NUM_KINDS
        melds: list[Meld] = []
        for _ in range(rng.choice((0, 0, 0, 1, 2, 4))):
            meld = _meld(rng, counts)
            if meld is not None:
                melds.append(meld)
        pool = rng.choice(POOLS)
        n = 13 - 3 * len(melds)
        tiles: list[int] = []
        if not melds and rng.random() < 0.2:  # near seven pairs: pairs of the pool, then single tiles
            for _ in range(rng.choice((5, 6))):
                k = rng.choice(pool)
                if counts[k] <= 2:
                    counts[k] += 2
                    tiles += [k, k]
        while len(tiles) < n:
            k = rng.choice(pool)
            if counts[k] < 4:
                counts[k] += 1
                tiles.append(k)
        concealed = tuple(sorted(tiles))
        forms = rng.choice(FORMS)
        expected = _definition(concealed, tuple(melds), 4, forms)
        found = hand_waits(concealed, tuple(melds), 4, forms)
        assert found == expected, (T.format_tiles(concealed), [m.tiles for m in melds], forms)
        assert found == shape_waits(concealed, melds, 4, forms)
        with_waits += bool(found)
        special += bool(found) and not is_complete(
            tuple(c + (t == min(found)) for t, c in enumerate(T.counts_of(concealed))), 4 - len(melds),
            (FormSpec("regular"),))
    assert with_waits > 600 and special > 50, (with_waits, special)  # many hands drawn are ready, some only in a special form


def test_a_kind_held_four_times_is_no_wait() -> None:
    regular = (FormSpec("regular"),)
    # 1166678899m beside a pon of 7m: another 7m would complete the shape (11m 666m 789m 789m), but the hand holds
    # all four 7m already
    pon = Meld("pon", (6, 6, 6))
    concealed = (0, 0, 5, 5, 5, 6, 7, 7, 8, 8)
    counts = T.counts_of(concealed)
    counts[6] += 1
    assert is_complete(tuple(counts), 3, regular)
    found = hand_waits(concealed, (pon,), 4, regular)
    assert 6 not in found and found == _definition(concealed, (pon,), 4, regular)
    assert 6 in hand_waits(concealed, (), 3, regular)  # without the pon it is one


def _suit_patterns(seed: int, random_ones: int, most: int, top: int) -> set[tuple[tuple[int, ...], bool]]:
    """Every suit of up to 8 tiles (9 kinds, and 7 honor kinds), and ``random_ones`` random ones of 1 to ``most``
    - 1 tiles, each count at most ``top``: (counts, honors)."""
    rng = random.Random(seed)
    patterns: set[tuple[tuple[int, ...], bool]] = set()

    def small(prefix: tuple[int, ...], left: int, size: int, honors: bool) -> None:
        if len(prefix) == size:
            patterns.add((prefix, honors))
            return
        for c in range(min(4, left) + 1):
            small((*prefix, c), left - c, size, honors)

    small((), 8, 9, False)
    small((), 8, 7, True)
    for _ in range(random_ones):
        honors = rng.random() < 0.3
        counts = [0] * (7 if honors else 9)
        for _ in range(rng.randrange(1, most)):
            k = rng.randrange(len(counts))
            counts[k] += counts[k] < top
        patterns.add((tuple(counts), honors))
    return patterns


def test_a_suit_splits_greedily_as_every_decomposition_says() -> None:
    """suit_bits (greedy) against forms._suit_can (every decomposition) on every suit of up to 8 tiles and on
    random ones up to 15, honors (7 kinds, pons only) too; counts up to 5 (a tile added to four)."""
    patterns = _suit_patterns(7, 6000, 16, 5)
    for counts, honors in patterns:
        assert suit_bits(list(counts), honors) == _suit_can(counts, honors), (counts, honors)
    assert len(patterns) > 30000


def test_a_suits_splits_are_every_decomposition_once_in_the_order_first_found() -> None:
    """forms._placed_decompositions (one walk that reaches each split once) against its definition: the
    decompositions ``_suit_decompositions`` finds, each split's groups sorted by tile then kind, duplicates
    dropped keeping the first; on every suit of up to 8 tiles and random ones up to 14, honors too."""
    from mjcalc.core import tiles as T
    from mjcalc.core.readings.forms import _group, _placed_decompositions, _suit_decompositions

    patterns = _suit_patterns(11, 4000, 15, 4)
    for counts, honors in patterns:
        offset = T.HONOR_START if honors else 9
        unique = dict.fromkeys(tuple(sorted((t, k) for k, t in d)) for d in _suit_decompositions(counts, honors))
        expected = tuple(tuple(_group(k, t + offset) for t, k in d) for d in unique)
        assert _placed_decompositions(counts, honors, offset) == expected, (counts, honors)


def test_packed_bits_given_the_weight_try_the_pair_where_it_can_be_and_find_what_every_rank_finds() -> None:
    """forms._packed_bits given the ranks' weight (the pair tried at a third of the ranks, as waits.py asks) is
    forms._packed_bits without it (the pair tried at every rank), on random suits of every size."""
    from mjcalc.core.readings.forms import _packed_bits

    rng = random.Random(24)
    for _ in range(20000):
        honors = rng.random() < 0.2
        ranks = 7 if honors else 9
        counts = [0] * ranks
        for _ in range(rng.randrange(1, 15)):
            r = rng.randrange(ranks)
            if counts[r] < 4:
                counts[r] += 1
        packed = sum(c << 3 * r for r, c in enumerate(counts))
        weight = sum(r * c for r, c in enumerate(counts)) % 3
        total = sum(counts)
        assert _packed_bits(packed, total, ranks, honors, weight) == _packed_bits(packed, total, ranks, honors), counts


def test_knitted_straight_waits_are_the_form_itself() -> None:
    """core.readings.waits._knitted_straight_waits (no candidate tried with the form) against every kind tried with
    readings' knitted straight form, on hands that hold eight or nine tiles of a knitted straight, the rest random
    (three or four sets to make, four of a kind allowed: a fifth completes the shape only where the form says)."""
    from mjcalc.core.readings.forms import KNITTED_KINDS, _form_candidates, special_form
    from mjcalc.core.readings.waits import _knitted_straight_waits

    spec = FormSpec("knitted_straight")
    rng = random.Random(26)
    found_some = 0
    for _ in range(6000):
        free = rng.choice((3, 4, 4))
        counts = [0] * T.NUM_KINDS
        knitted = sorted(rng.choice(KNITTED_KINDS))
        for k in rng.sample(knitted, rng.choice((8, 9, 9))):
            counts[k] += 1
        pool = rng.choice(POOLS)
        while sum(counts) < 3 * free + 1:
            k = rng.choice(pool)
            if counts[k] < 4:
                counts[k] += 1
        concealed = tuple(t for t, n in enumerate(counts) for _ in range(n))
        held = [t for t, n in enumerate(counts) if n]
        expected = 0
        for k in range(T.NUM_KINDS):
            more = list(counts)
            more[k] += 1
            if special_form("knitted_straight", tuple(more), free, spec):
                expected |= 1 << k
                assert k in _form_candidates("knitted_straight", tuple(counts), held)
        assert _knitted_straight_waits(concealed, free) == expected, (T.format_tiles(concealed), free)
        found_some += bool(expected)
    assert found_some > 500, found_some
