"""Units under the pipeline: decompositions, waits, wildcard fills, the formula and the cap arithmetic."""

from __future__ import annotations

import pytest

from mjcalc.core import tiles as T
from mjcalc.core.readings.decompose import tiles_of
from mjcalc.core.readings.forms import FormSpec, regular_decompositions
from mjcalc.core.readings.waits import shape_waits
from mjcalc.core.readings.wildcards import joker_fills
from mjcalc.core.settlement.formulas import exponential
from mjcalc.core.settlement.payments import _largest_remainder
from mjcalc.engine import Request, score_line

REGULAR = (FormSpec("regular"),)
ALL_FORMS = (FormSpec("regular"), FormSpec("seven_pairs"), FormSpec("thirteen_orphans"))


def counts(text: str) -> tuple[int, ...]:
    return tuple(T.counts_of(tiles_of(text)))


def waits(text: str, forms=REGULAR) -> list[str]:
    return sorted((T.name(t) for t in shape_waits(tiles_of(text), [], 4, forms)), key=T.parse_tile)


@pytest.mark.parametrize(
    ("hand", "n"),
    [("123m456p789s11122z", 1), ("111222333m55z789s", 2), ("12345m", 0)],
)
def test_decomposition_counts(hand: str, n: int) -> None:
    assert len(regular_decompositions(counts(hand), 4)) == n


@pytest.mark.parametrize(
    ("hand", "expected", "forms"),
    [
        ("1112345678999m", ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"], REGULAR),
        ("123m456p789s1112z", ["2z"], REGULAR),
        ("23m456p789s111z22z", ["1m", "4m"], REGULAR),
        ("13m456p789s111z22z", ["2m"], REGULAR),
        ("1122m3344p5566s7z", ["7z"], ALL_FORMS),
        ("19m19p19s1234567z", [T.name(t) for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)], ALL_FORMS),
        ("1111m", [], REGULAR),
    ],
)
def test_shape_waits(hand: str, expected: list[str], forms) -> None:
    assert waits(hand, forms) == expected


def test_a_kind_held_four_times_is_no_wait() -> None:
    assert waits("23m456p789s111z22z") == ["1m", "4m"]
    assert "4m" not in waits("23m4444m456p789s2z")


def test_one_joker_stands_for_the_wait() -> None:
    got = [tuple(T.name(k) for k in f) for f in joker_fills(counts("123m456p789s111z2z"), 1, 4, REGULAR)]
    assert got == [("2z",)]


def test_two_jokers_pair_or_rebuild_a_set() -> None:
    got = {tuple(T.name(k) for k in f) for f in joker_fills(counts("123m456p789s111z"), 2, 4, REGULAR)}
    assert ("2z", "2z") in got  # a pair of anything
    assert ("1z", "1z") not in got  # three 1z held: a pair of 1z would be a fifth copy
    assert ("1m", "4m") in got  # 11m + 234m


def test_jokers_never_stand_for_a_fifth_copy() -> None:
    held = counts("123m456p789s111z2z")
    limit = list(held)
    limit[T.parse_tile("2z")] = 4
    assert joker_fills(held, 1, 4, REGULAR, tuple(limit)) == []


@pytest.mark.parametrize(("fan", "start", "amount"), [(1, 1, 1), (3, 1, 4), (5, 1, 16), (0, 0, 1), (6, 0, 64)])
def test_exponential(fan: int, start: int, amount: int) -> None:
    assert exponential(fan, {"start": start, "base": 1})[0] == amount


def test_largest_remainder_sums_exactly_and_breaks_ties_by_order() -> None:
    assert _largest_remainder([480, 480, 480], 1000, [0, 1, 2]) == [334, 333, 333]
    assert _largest_remainder([480, 480, 480], 1000, [2, 0, 1]) == [333, 333, 334]
    assert _largest_remainder([8, 4, 4], 10, [0, 1, 2]) == [5, 3, 2]
    shares = _largest_remainder([700, 300, 150], 1000, [0, 1, 2])
    assert sum(shares) == 1000 and shares == [609, 261, 130]


def test_completing_kinds_agree_with_completeness_kind_by_kind() -> None:
    """The waits found a suit at a time are exactly the kinds whose addition is_complete accepts."""
    import random

    from mjcalc.core.readings.forms import is_complete
    from mjcalc.core.readings.waits import _completing_kinds

    rng = random.Random(11)
    forms_choices = (REGULAR, ALL_FORMS, (FormSpec("regular"), FormSpec("seven_pairs", (("allow_four", True),))))
    pools = (list(range(34)), list(range(9)), [0, 8, 9, 17, 18, 26, *range(27, 34)], [*range(9), *range(27, 34)])
    with_waits = 0
    for _ in range(3000):
        n = rng.choice((13, 10, 7, 4, 1))
        pool = rng.choice(pools)
        counts = [0] * T.NUM_KINDS
        while sum(counts) < n:
            k = rng.choice(pool)
            counts[k] += counts[k] < 4
        forms = rng.choice(forms_choices)
        free = (n - 1) // 3
        expected = {k for k in range(T.NUM_KINDS)
                    if is_complete(tuple(c + (t == k) for t, c in enumerate(counts)), free, forms)}
        found = _completing_kinds(tuple(counts), free, forms)
        assert found == expected, (counts, forms)
        with_waits += bool(found)
    assert with_waits > 500  # the hands drawn are often ready, so the test has teeth


def test_hand_completions_are_the_completing_kinds() -> None:
    """core.readings.waits.hand_completions (what MCR's wait fans ask, per suit from its tables) gives the kinds of
    waits._completing_kinds, on random hands of MCR's forms (the knitted ones among them), kinds held four
    times included."""
    import random

    from mjcalc.core.readings.waits import _completing_kinds, hand_completions
    from mjcalc.ruleset.loader import load_ruleset

    rng = random.Random(12)
    forms = load_ruleset("mcr").forms
    knitted = [0, 3, 6, 10, 13, 16, 20, 23, 26]  # 147m 258p 369s
    pools = (list(range(34)), list(range(9)), [*knitted, *range(27, 34)], [*knitted, *range(9)], [0, 1, 2, 3])
    with_waits = with_fours = knitted_waits = 0
    for _ in range(3000):
        n = rng.choice((13, 13, 10, 7, 4, 1))
        pool = rng.choice(pools)
        counts = [0] * T.NUM_KINDS
        while sum(counts) < n:
            k = rng.choice(pool)
            counts[k] += counts[k] < 4
        free = (n - 1) // 3
        tiles = tuple(t for t, c in enumerate(counts) for _ in range(c))
        expected = _completing_kinds(tuple(counts), free, forms)
        assert hand_completions(tiles, (), free, forms) == expected, (counts, free)
        with_waits += bool(expected)
        with_fours += any(counts[k] == 4 for k in expected)
        knitted_waits += bool(expected) and pool[0] == 0 and pool[1] == 3
    assert with_waits > 500 and with_fours > 20 and knitted_waits > 20  # the cases drawn give the test teeth


@pytest.mark.parametrize("rules, line", [
    ("riichi", "22233334566m55z5z +zimo +seat=S +round=E +dora=2m5p9m6p8s +sticks=2"),
    ("riichi", "406m222s3z3z [456p] [456s] +seat=W +round=S +dora=3z56m9p +honba=1"),
    ("changchun", "123m456p789s111z22z +zimo +seat=E"),
    ("mcr", "19m19p19s1234567z1m"),
    ("meihe", "123m456p789s111z22z +zimo +hui=3p"),
    ("taiwan", "123m456m789m234p111z5s 5s +zimo +seat=E"),
])
def test_a_scored_line_leaves_no_reference_cycle(rules: str, line: str) -> None:
    """What scoring a line makes is freed when the result is (no cycle among a line's objects): a batch makes
    them for every line, and a cycle leaves each to the garbage collector, which then walks them again and again
    (a cycle between the waits and the search's judge once cost a riichi batch 5 % of its instructions)."""
    import gc

    request = Request(rules=rules)
    score_line(line, request, with_wait_scores=False)  # what is loaded once (the ruleset, memos) loaded
    gc.collect()
    gc.disable()
    try:
        result = score_line(line, request, with_wait_scores=False)
        assert result.result == "win", result.error
        del result
        assert gc.collect() == 0
    finally:
        gc.enable()
