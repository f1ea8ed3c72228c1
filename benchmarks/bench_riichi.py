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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from riichi_situations import generate

from mjcalc.context import Context, build_context, collect_flags
from mjcalc.engine import Request, best_reading, score_line
from mjcalc.hand import Hand, build_hand
from mjcalc.notation import parse_line
from mjcalc.readings import Wildcards
from mjcalc.ruleset import Ruleset, load_ruleset


def _best_of(rounds: int, run, prepare=lambda: None) -> float:  # type: ignore[no-untyped-def]
    """The fastest of ``rounds`` timed calls of ``run(prepare())``; ``prepare`` runs untimed before each."""
    best = float("inf")
    for _ in range(rounds):
        ready = prepare()
        start = time.perf_counter()
        run(ready)
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

    def run_mjcalc(_: None) -> None:
        for line, request in lines:
            score_line(line, request, with_wait_scores=False)

    def run_reference(_: None) -> None:
        for kwargs in reference_inputs:
            HandCalculator.estimate_hand_value(**kwargs)

    # mjcalc's two halves: reading the line (notation, flags, options, hand, context), then scoring it
    # (readings, items, fu, limits, payments): the second is what the reference's call does.
    rules = load_ruleset("riichi")

    def run_reading(_: None) -> None:
        for line, request in lines:
            _read(rules, line, request)

    def fresh_hands() -> list[tuple[dict[str, Any], Hand, Context]]:  # a hand caches facts about itself
        return [_read(rules, line, request) for line, request in lines]

    def run_scoring(read: list[tuple[dict[str, Any], Hand, Context]]) -> None:
        for options, hand, ctx in read:
            best_reading(rules, options, hand, ctx, NO_WILDCARDS, _NO_WAITS)

    n = len(lines)
    ours = _best_of(args.rounds, run_mjcalc) / n * 1e6
    reading = _best_of(args.rounds, run_reading) / n * 1e6
    scoring = _best_of(args.rounds, run_scoring, fresh_hands) / n * 1e6
    theirs = _best_of(args.rounds, run_reference) / n * 1e6
    print(f"{n} hands, best of {args.rounds} rounds")
    print(f"mjcalc     {ours:8.1f} µs per hand  (one-line notation → result with payments)")
    print(f"  reading  {reading:8.1f} µs per hand  (notation, flags, options → hand and context)")
    print(f"  scoring  {scoring:8.1f} µs per hand  (readings, items, fu, limits, payments)")
    print(f"reference  {theirs:8.1f} µs per hand  (its own input types → HandResponse)")
    print(f"ratio      {theirs / ours:8.2f} × (reference time / mjcalc time; above 1 = mjcalc faster)")
    print(f"scoring    {theirs / scoring:8.2f} × (reference time / mjcalc scoring time)")


NO_WILDCARDS = Wildcards()


def _NO_WAITS() -> frozenset[int]:
    return frozenset()


def _read(rules: Ruleset, line: str, request: Request) -> tuple[dict[str, Any], Hand, Context]:
    """The first half of score_line: the line read into options, a hand and a context."""
    parsed = parse_line(line)
    values, _ = collect_flags(parsed.flags, rules.flags)
    options = rules.option_values(request.options)
    return options, build_hand(parsed, rules.tile_rules), build_context(values, rules.flags)


if __name__ == "__main__":
    main()
