"""Cold start: how long a user waits for one command, side by side with an interpreter that does nothing.

Runs ``python -c pass`` and ``mjcalc score "123m456p789s111z22z +zimo +seat=E"`` (and a few other short
commands) in turn, many rounds, as separate processes; prints each one's median wall time and its ratio to
``python -c pass`` (the goal for ``score``: at most 6x). What a command imports is shown by
``python -X importtime -m mjcalc score "…"``.

    python benchmarks/bench_startup.py [--rounds 21]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_batch import timed  # noqa: E402  (one timer for the whole-process benchmarks)

HAND = "123m456p789s111z22z +zimo +seat=E"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--mjcalc", help="the mjcalc executable (default: the one beside this Python)")
    args = parser.parse_args()
    mjcalc = args.mjcalc or str(Path(sys.executable).parent / "mjcalc")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        f'mjcalc score "{HAND}"': [mjcalc, "score", HAND],
        f'mjcalc score "{HAND}" --json': [mjcalc, "score", HAND, "--json"],
        f'mjcalc score "{HAND}" --rules riichi': [mjcalc, "score", HAND, "--rules", "riichi"],
        "mjcalc --help": [mjcalc, "--help"],
    }
    for cmd in commands.values():  # warm the disk cache and the .pyc files
        timed(cmd)
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpu: dict[str, list[float]] = {name: [] for name in commands}
    names = list(commands)
    for r in range(args.rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            seconds, processor = timed(commands[name])
            times[name].append(seconds)
            cpu[name].append(processor)
    base = statistics.median(times["python -c pass"])
    base_cpu = statistics.median(cpu["python -c pass"])
    import mjcalc as package

    print(f"{args.rounds} rounds alternating, medians; mjcalc's core: {package.core()}")
    print(f"{'':<58} {'wall':>9}  {'x pass':>6}  {'cpu':>9}  {'x pass':>6}")
    for name in commands:
        m, c = statistics.median(times[name]), statistics.median(cpu[name])
        print(f"{name:<58} {m * 1000:6.1f} ms  {m / base:5.1f}x  {c * 1000:6.1f} ms  {c / base_cpu:5.1f}x")


if __name__ == "__main__":
    main()
