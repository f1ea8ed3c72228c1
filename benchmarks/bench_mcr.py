"""Benchmark: mjcalc's MCR against the reference calculator (``MahjongGB``, pymahjonggb 1.4.0) on the same hands.

Three ways through the same seeded MCR winning situations (tests/mcr_hands.py), timed in one run:

- mjcalc: the one-line notation (a string) to the full result with payments (``score_line``, rules mcr);
- the reference alone: its C++ from its own tuples, built beforehand (``MahjongFanCalculator(*args)``);
- the reference with its input conversion: the same line read into those tuples in Python, then the call.

Each round scores a fresh set of hands (mjcalc caches what repeats across hands; the same hands again would
measure the caches), the three in turn (A, B, C, then the next round), after an untimed warm-up set. The
median of the rounds is kept for each, and the median of the rounds' ratios (each round's three batches ran
under the same load) printed. For the figures that matter, run it with the installed, compiled package
(``pip install .`` into a venv of its own), not an editable checkout:

    /tmp/mcr-bench-venv/bin/python benchmarks/bench_mcr.py [--hands 2000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mcr_hands import generate, reference_args_from_line

from mjcalc.engine import Request, score_line


def _timed(run: Callable[[list[Any]], None], batch: list[Any]) -> float:
    start = time.perf_counter()
    run(batch)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=7001)
    args = parser.parse_args()

    from MahjongGB import MahjongFanCalculator

    import mjcalc

    sets = [generate(args.hands, args.seed + k) for k in range(args.rounds + 1)]  # set 0 only warms up
    lines = [[s.notation() for s in situations] for situations in sets]
    tuples = [[s.reference_args() for s in situations] for situations in sets]
    request = Request(rules="mcr")

    def run_mjcalc(batch: list[str]) -> None:
        for line in batch:
            score_line(line, request, with_wait_scores=False)

    def run_reference(batch: list[tuple[Any, ...]]) -> None:
        for a in batch:
            MahjongFanCalculator(*a)

    def run_reference_from_line(batch: list[str]) -> None:
        for line in batch:
            MahjongFanCalculator(*reference_args_from_line(line))

    first = score_line(lines[0][0], request, with_wait_scores=False)
    if first.result not in ("win", "not_a_win"):
        sys.exit(f"mjcalc cannot score MCR here: {first.result} {first.error and first.error.message}")
    run_mjcalc(lines[0])
    run_reference(tuples[0])
    run_reference_from_line(lines[0])
    times: dict[str, list[float]] = {"mjcalc": [], "reference": [], "reference+line": []}
    for k in range(1, args.rounds + 1):
        times["mjcalc"].append(_timed(run_mjcalc, lines[k]))
        times["reference"].append(_timed(run_reference, tuples[k]))
        times["reference+line"].append(_timed(run_reference_from_line, lines[k]))
    n = args.hands
    med = {name: statistics.median(t) / n * 1e6 for name, t in times.items()}
    spread = {name: (min(t) / n * 1e6, max(t) / n * 1e6) for name, t in times.items()}
    print(f"{n} hands a round, median of {args.rounds} rounds; mjcalc's core: {mjcalc.core_build()} "
          f"({Path(mjcalc.__file__).parent})")
    print(f"mjcalc           {med['mjcalc']:8.1f} µs per hand  (one-line notation → result with payments)"
          f"  [{spread['mjcalc'][0]:.1f}-{spread['mjcalc'][1]:.1f}]")
    print(f"reference        {med['reference']:8.1f} µs per hand  (its C++ from its own tuples, built beforehand)"
          f"  [{spread['reference'][0]:.1f}-{spread['reference'][1]:.1f}]")
    print(f"reference+line   {med['reference+line']:8.1f} µs per hand  (the same line read into its tuples in "
          f"Python, then the call)  [{spread['reference+line'][0]:.1f}-{spread['reference+line'][1]:.1f}]")
    # The ratio of each round (its three batches run one after the other, under the same load), then the median.
    ratio = statistics.median(a / b for a, b in zip(times["mjcalc"], times["reference"], strict=True))
    ratio_line = statistics.median(a / b for a, b in zip(times["mjcalc"], times["reference+line"], strict=True))
    print(f"mjcalc / reference       {ratio:6.2f} × (median of the rounds' ratios; the bound: at most 5)")
    print(f"mjcalc / reference+line  {ratio_line:6.2f} × (median of the rounds' ratios; the aim: 1 or less)")


if __name__ == "__main__":
    main()
