"""Benchmark: milliseconds to score one Meihe hand end to end (``score_line``) with 1 to 4 wildcards.

Hands are generated: four random sets and a pair (copy limits kept), then 1-4 of the concealed tiles are
replaced by the wildcard kind, so every hand is complete with the wildcards standing in. Not a test: run
``python benchmarks/bench_wildcards.py [hands per count] [seed]`` and read the figures.
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from mjcalc.core import tiles as T
from mjcalc.engine import Request, score_line


def random_hand(rng: random.Random) -> list[int] | None:
    """Four sets and a pair of random tiles, at most four of a kind, sorted; None when the draw fails."""
    counts = [0] * T.NUM_KINDS
    tiles: list[int] = []
    for size in (3, 3, 3, 3, 2):
        if size == 3 and rng.random() < 0.6:
            first = rng.choice([k for k in range(T.HONOR_START) if k % 9 <= 6])
            group = [first, first + 1, first + 2]
        else:
            group = [rng.randrange(T.NUM_KINDS)] * size
        for t in group:
            counts[t] += 1
        tiles.extend(group)
    return sorted(tiles) if max(counts) <= 4 else None


def wildcard_line(rng: random.Random, wildcards: int) -> str:
    """A complete hand with ``wildcards`` of its tiles turned into the wildcard kind, self-drawn."""
    while True:
        tiles = random_hand(rng)
        if tiles is None:
            continue
        hui = rng.randrange(T.NUM_KINDS)
        others = [t for t in tiles if t != hui]
        if len(others) < wildcards or tiles.count(hui) + wildcards > 4 - 0:
            continue
        rng.shuffle(others)
        for t in others[:wildcards]:
            tiles.remove(t)
        tiles += [hui] * wildcards
        if tiles.count(hui) != wildcards:
            continue  # every tile of the wildcard kind in hand is a wildcard
        rng.shuffle(tiles)
        win = tiles.pop()
        return f"{T.format_tiles(tiles)}{T.name(win)} +zimo +hui={T.name(hui)} +seat={rng.choice(T.SEATS)}"


def bench(wildcards: int, hands: int, seed: int) -> tuple[float, float, float, float, float, dict[str, int]]:
    rng = random.Random(seed + wildcards)
    lines = [wildcard_line(rng, wildcards) for _ in range(hands)]
    request = Request(rules="meihe")
    score_line(lines[0], request)  # load the ruleset once
    times, outcomes = [], {}
    for line in lines:
        start = time.perf_counter()
        result = score_line(line, request)
        times.append((time.perf_counter() - start) * 1000)
        outcomes[result.result] = outcomes.get(result.result, 0) + 1
    p95 = statistics.quantiles(times, n=20)[-1]
    warm = []  # the same hands again: what is left once the per-pattern caches hold them
    for line in lines:
        start = time.perf_counter()
        score_line(line, request)
        warm.append((time.perf_counter() - start) * 1000)
    return statistics.mean(times), statistics.median(times), p95, max(times), max(warm), outcomes


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    print(f"meihe, {hands} generated self-drawn hands per row; score_line end to end, cold caches at first")
    heads = ("mean ms", "median", "p95", "max", "max warm")
    print(f"{'wildcards':>9}  " + "  ".join(f"{h:>8}" for h in heads) + "  outcomes")
    for n in (1, 2, 3, 4):
        *figures, outcomes = bench(n, hands, seed)
        print(f"{n:>9}  " + "  ".join(f"{f:8.2f}" for f in figures) + f"  {outcomes}")


if __name__ == "__main__":
    main()
