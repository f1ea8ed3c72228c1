"""Benchmark: mjcalc against the reference riichi calculator (``mahjong`` 2.1.0) on the same hands, one run.

mjcalc goes from the one-line notation (a string) to the full result with payments (``score_line``); the
reference goes from its own input types, built beforehand (136-tile arrays, Meld objects, HandConfig), to
its HandResponse. Both see the same few thousand seeded situations of tests/riichi_situations.py, in the
same order, each timed over several rounds (the fastest round is kept, as ``timeit`` advises).

    .venv/bin/python benchmarks/bench_riichi.py [--hands 3000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from riichi_situations import generate  # noqa: E402

from mjcalc.engine import Request, score_line  # noqa: E402


def _best_of(rounds: int, run) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=20240501)
    args = parser.parse_args()

    from mahjong.hand_calculating.hand import HandCalculator

    situations = generate(args.hands, args.seed)
    lines = [(s.line(), Request(rules="riichi", options=s.set_options())) for s in situations]
    reference_inputs = [s.reference_args() for s in situations]
    score_line(*lines[0], with_wait_scores=False)  # load the ruleset once, as a long-running batch would

    def run_mjcalc() -> None:
        for line, request in lines:
            score_line(line, request, with_wait_scores=False)

    def run_reference() -> None:
        for kwargs in reference_inputs:
            HandCalculator.estimate_hand_value(**kwargs)

    ours = _best_of(args.rounds, run_mjcalc) / len(lines) * 1e6
    theirs = _best_of(args.rounds, run_reference) / len(lines) * 1e6
    print(f"{len(lines)} hands, best of {args.rounds} rounds")
    print(f"mjcalc     {ours:8.1f} µs per hand  (one-line notation → result with payments)")
    print(f"reference  {theirs:8.1f} µs per hand  (its own input types → HandResponse)")
    print(f"ratio      {theirs / ours:8.2f} × (reference time / mjcalc time; above 1 = mjcalc faster)")


if __name__ == "__main__":
    main()
