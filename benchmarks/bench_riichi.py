"""Benchmark: mjcalc against the reference riichi calculator (``mahjong`` 2.1.0) on the same hands, one run.

mjcalc goes from the one-line notation (a string) to the full result with payments (``score_line``); the
reference goes from its own input types, built beforehand (136-tile arrays, Meld objects, HandConfig), to
its HandResponse. Both see the same few thousand seeded situations of tests/riichi_situations.py, in the
same order. Each round scores a **fresh** set of situations: mjcalc caches what repeats across hands (each suit's
splits, flags and melds as written), and scoring the same hands again would measure those caches, not a batch
of new hands. A first set, untimed, warms up what a long batch pays once (the ruleset, each option set). The
two sides alternate, round by round (mjcalc, then the reference, on the round's set), so that both run under the
same load; the medians are kept, and the median of the rounds' ratios is the figure (on a busy machine, read it
rather than the times). For the figures that matter, run it with the installed, compiled package (``pip install
.`` into a venv of its own), not an editable checkout:

    /tmp/bench-venv/bin/python benchmarks/bench_riichi.py [--hands 3000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from riichi_situations import generate

from mjcalc.core.context import Context
from mjcalc.core.hand import Hand
from mjcalc.core.model import Ruleset
from mjcalc.core.notation import parse_line
from mjcalc.core.readings.wildcards import Wildcards
from mjcalc.core.search import best_reading
from mjcalc.engine import Request, read_line, score_line
from mjcalc.ruleset.loader import load_ruleset


def _best_of(run, inputs: list[Any]) -> float:
    """The fastest of the timed calls ``run(x)``, one per input set."""
    best = float("inf")
    for ready in inputs:
        start = time.perf_counter()
        run(ready)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=20240501)
    args = parser.parse_args()

    from mahjong.hand_calculating.hand import HandCalculator

    sets = [generate(args.hands, args.seed + k) for k in range(args.rounds + 1)]  # set 0 only warms up
    lines = [[(s.line(), Request(rules="riichi", options=s.set_options())) for s in situations]
             for situations in sets]
    reference_inputs = [[s.reference_args() for s in situations] for situations in sets]
    rules = load_ruleset("riichi")

    def run_mjcalc(batch: list[tuple[str, Request]]) -> None:
        for line, request in batch:
            score_line(line, request, with_wait_scores=False)

    def run_reference(batch: list[dict[str, Any]]) -> None:
        for kwargs in batch:
            HandCalculator.estimate_hand_value(**kwargs)

    # mjcalc's two halves: reading the line (notation, flags, options, hand, context), then scoring it
    # (readings, items, fu, limits, payments): the second is what the reference's call does. Each half is
    # timed on sets of its own, so that neither warms the other's caches. The halves add up to less than the
    # whole: run apart, each has the processor's caches to itself (measured under valgrind, mjcalc executes
    # fewer instructions per hand than the reference, with more cache misses).
    def run_reading(batch: list[tuple[str, Request]]) -> None:
        for line, request in batch:
            _read(rules, line, request)

    def run_scoring(read: list[tuple[Mapping[str, Any], Hand, Context]]) -> None:
        for options, hand, ctx in read:
            best_reading(rules, options, hand, ctx, NO_WILDCARDS, _NO_WAITS)

    run_mjcalc(lines[0])
    run_reference(reference_inputs[0])
    n = args.hands
    ours_t: list[float] = []
    theirs_t: list[float] = []
    for k in range(1, args.rounds + 1):  # alternating: each round's two batches run under the same load
        ours_t.append(_timed(run_mjcalc, lines[k]))
        theirs_t.append(_timed(run_reference, reference_inputs[k]))
    ours = statistics.median(ours_t) / n * 1e6
    theirs = statistics.median(theirs_t) / n * 1e6
    ratio = statistics.median(b / a for a, b in zip(ours_t, theirs_t, strict=True))
    halves = max(1, args.rounds // 2)
    extra = [[(s.line(), Request(rules="riichi", options=s.set_options()))
              for s in generate(args.hands, args.seed + 100 + k)] for k in range(2 * halves)]
    reading = _best_of(run_reading, extra[:halves]) / n * 1e6
    scoring = _best_of(run_scoring, [[_read(rules, line, request) for line, request in batch]
                                     for batch in extra[halves:]]) / n * 1e6
    import mjcalc
    print(f"{n} hands a round, median of {args.rounds} alternating rounds; mjcalc's core: {mjcalc.core_build()} "
          f"({Path(mjcalc.__file__).parent})")
    print(f"mjcalc     {ours:8.1f} µs per hand  (one-line notation → result with payments)"
          f"  [{min(ours_t) / n * 1e6:.1f}-{max(ours_t) / n * 1e6:.1f}]")
    print(f"reference  {theirs:8.1f} µs per hand  (its own input types → HandResponse)"
          f"  [{min(theirs_t) / n * 1e6:.1f}-{max(theirs_t) / n * 1e6:.1f}]")
    print(f"ratio      {ratio:8.2f} × (median of the rounds' reference time / mjcalc time; above 1 = mjcalc faster)")
    print(f"  reading  {reading:8.1f} µs per hand  (notation, flags, options → hand and context; best of {halves})")
    print(f"  scoring  {scoring:8.1f} µs per hand  (readings, items, fu, limits, payments; best of {halves})")


def _timed(run: Any, batch: list[Any]) -> float:
    start = time.perf_counter()
    run(batch)
    return time.perf_counter() - start


NO_WILDCARDS = Wildcards()


def _NO_WAITS() -> frozenset[int]:
    return frozenset()


def _read(rules: Ruleset, line: str, request: Request) -> tuple[Mapping[str, Any], Hand, Context]:
    """The first half of score_line: the line read into options, a hand and a context."""
    read = read_line(parse_line(line), rules, request)
    return read.options, read.hand, read.ctx


if __name__ == "__main__":
    main()
