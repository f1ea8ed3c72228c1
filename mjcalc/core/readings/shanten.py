"""How far a hand one tile short is from ready (shanten): 0 when some tile completes it, the lowest over the
ruleset's forms (regular, seven pairs, thirteen orphans).

>>> from mjcalc.core.readings.decompose import tiles_of
>>> shanten(tiles_of("123m456p789s1112z"), 0, 4, (FormSpec("regular"),))
0
>>> shanten(tiles_of("1m3m5m7m9m2p4p6p8s1z3z5z7z"), 0, 4, (FormSpec("regular"), FormSpec("seven_pairs")))
5
"""

from __future__ import annotations

from functools import lru_cache

from .. import tiles as T
from .forms import ORPHANS, FormSpec


def shanten(concealed: list[int], melds: int, sets: int, forms: tuple[FormSpec, ...]) -> int:
    """Tiles still to change before the hand is ready: 0 = ready, -1 = complete. The lowest over the forms."""
    counts = tuple(T.counts_of(concealed))
    best = _regular_shanten(counts, sets - melds)
    for spec in forms:
        if spec.name == "seven_pairs" and melds == 0:
            best = min(best, _seven_pairs_shanten(counts))
        if spec.name == "thirteen_orphans" and melds == 0:
            best = min(best, _orphans_shanten(counts))
    return best


def _seven_pairs_shanten(counts: tuple[int, ...]) -> int:
    pairs = sum(1 for n in counts if n >= 2)
    kinds = sum(1 for n in counts if n)
    return 6 - pairs + max(0, 7 - kinds)


def _orphans_shanten(counts: tuple[int, ...]) -> int:
    kinds = sum(1 for t in ORPHANS if counts[t])
    pair = any(counts[t] >= 2 for t in ORPHANS)
    return 13 - kinds - (1 if pair else 0)


def _regular_shanten(counts: tuple[int, ...], need: int) -> int:
    """2 × sets still needed − partial sets − the pair, with sets + partials capped at what is needed."""
    best = 2 * need
    for pair_at in [None, *[t for t, n in enumerate(counts) if n >= 2]]:
        c = list(counts)
        pair = 0
        if pair_at is not None:
            c[pair_at] -= 2
            pair = 1
        sets, partials = _blocks(tuple(c), need)
        best = min(best, 2 * need - 2 * sets - partials - pair)
    return best


@lru_cache(maxsize=16384)
def _blocks(counts: tuple[int, ...], need: int) -> tuple[int, int]:
    """The most valuable (sets, partial sets) the tiles make, worth 2 and 1, at most ``need`` blocks."""
    i = next((t for t, n in enumerate(counts) if n), None)
    if i is None:
        return 0, 0
    c = list(counts)
    options: list[tuple[int, int]] = []

    def take(used: tuple[int, ...], is_set: bool) -> None:
        for t in used:
            c[t] -= 1
        s, p = _blocks(tuple(c), need)
        for t in used:
            c[t] += 1
        s, p = (s + 1, p) if is_set else (s, p + 1)
        if s + p > need:  # too many blocks: a partial set is the first to go
            p = max(0, need - s)
            s = min(s, need)
        options.append((s, p))

    suited = i < T.HONOR_START
    if c[i] >= 3:
        take((i, i, i), True)
    if suited and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        take((i, i + 1, i + 2), True)
    if c[i] >= 2:
        take((i, i), False)
    if suited and i % 9 <= 7 and c[i + 1]:
        take((i, i + 1), False)
    if suited and i % 9 <= 6 and c[i + 2]:
        take((i, i + 2), False)
    c[i] -= 1  # or leave this tile alone
    options.append(_blocks(tuple(c), need))
    c[i] += 1
    return max(options, key=lambda sp: (2 * sp[0] + sp[1], sp[0]))
