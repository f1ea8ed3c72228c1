"""The MCR combination fans are memoised by the sets' shape up to a renaming of the suits (hooks/mcr.py,
``_shape``): checked here over every combination the memos are keyed on, two to four chows (by their first
tiles, repeats allowed) and two to four triplets of distinct suited kinds, that combinations of one shape make
the same fans, and that a shape is one combination and its renamings only."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement, permutations

from mjcalc.core import tiles as T
from mjcalc.hooks import mcr

CHOW_STARTS = [s * 9 + r for s in range(3) for r in range(7)]
SUITED = list(range(T.HONOR_START))


def _renamed(sets: tuple[int, ...], order: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(order[t // 9] * 9 + t % 9 for t in sets))


def _check(all_sets: list[tuple[int, ...]], chows: bool) -> None:
    fans_of: dict[int, object] = {}
    members: dict[int, set[tuple[int, ...]]] = {}
    for sets in all_sets:
        key = mcr._shape(list(sets), chows)
        fans = mcr._combine(sets, chows)
        assert fans_of.setdefault(key, fans) == fans, (sets, fans, fans_of[key])
        members.setdefault(key, set()).add(sets)
    for sets in all_sets:  # a shape holds exactly the renamings of any one of its combinations
        assert members[mcr._shape(list(sets), chows)] == {_renamed(sets, order) for order in permutations(range(3))}


def test_chow_shapes_make_the_same_fans() -> None:
    _check([c for n in (2, 3, 4) for c in combinations_with_replacement(CHOW_STARTS, n)], True)


def test_pung_shapes_make_the_same_fans() -> None:
    _check([c for n in (2, 3, 4) for c in combinations(SUITED, n)], False)


def test_memos_agree_with_the_combination_itself() -> None:
    for sets in [(0, 0, 9, 9), (9, 9, 18, 18), (0, 3, 6, 9), (18, 21, 24, 0), (1, 2, 3), (10, 11, 12)]:
        assert mcr.chow_fans(sets) == mcr._combine(sets, True)
    for kinds in [(0, 1, 2, 10), (19, 20, 21, 1), (27, 0, 9, 18), (33, 4, 13)]:
        suited = tuple(sorted(k for k in kinds if k < T.HONOR_START))
        assert mcr.pung_fans(kinds) == mcr._combine(suited, False)
