"""Cold start: how long a user waits for one command, side by side with an interpreter that does nothing.

Runs ``python -c pass`` and ``mjcalc score "123m456p789s111z22z +zimo +seat=E"`` (and a few other short
commands: a typer app of one command, the least that a typer command costs; a batch of one riichi hand, and the
reference calculator's batch script on the same hand, benchmarks/reference_batch.py, whose whole-process ratio
bench_batch.py measures) in turn, many rounds, as
separate processes; prints each one's median wall time and its ratio to ``python -c pass`` (the goal for
``score``: at most 6x). What a command imports is shown by ``python -X importtime -m mjcalc score "…"``; where
its instructions go, steadily on a busy machine, by ``valgrind --tool=callgrind``.

    python benchmarks/bench_startup.py [--rounds 21]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
from bench_batch import reference_record, timed  # noqa: E402  (one timer for the whole-process benchmarks)
from riichi_situations import DEFAULTS, generate  # noqa: E402

HAND = "123m456p789s111z22z +zimo +seat=E"

# The least a typer command costs: one command echoing its argument, ended as mjcalc ends (mjcalc.__main__).
TYPER_APP = """
import os, sys
import typer
app = typer.Typer(add_completion=False)
@app.callback()
def options() -> None:
    pass
@app.command()
def score(hand: list[str]) -> None:
    typer.echo(" ".join(hand))
try:
    app(["score", *sys.argv[1:]])
except SystemExit:
    pass
sys.stdout.flush()
os._exit(0)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--mjcalc", help="the mjcalc executable (default: the one beside this Python)")
    args = parser.parse_args()
    mjcalc = args.mjcalc or str(Path(sys.executable).parent / "mjcalc")
    tmp = Path(tempfile.mkdtemp())
    situation = generate(1, seed=1)[0]
    situation.options = dict(DEFAULTS)  # as bench_batch.py: the line carries no options
    (tmp / "one.txt").write_text(situation.line() + "\n", encoding="utf-8")
    (tmp / "one.jsonl").write_text(json.dumps(reference_record(situation)) + "\n", encoding="utf-8")
    (tmp / "typer_app.py").write_text(TYPER_APP, encoding="utf-8")
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "a typer app of one command (typer's own start-up)": [sys.executable, str(tmp / "typer_app.py"), HAND],
        f'mjcalc score "{HAND}"': [mjcalc, "score", HAND],
        f'mjcalc score "{HAND}" --json': [mjcalc, "score", HAND, "--json"],
        f'mjcalc score "{HAND}" --rules riichi': [mjcalc, "score", HAND, "--rules", "riichi"],
        "mjcalc --help": [mjcalc, "--help"],
        "mjcalc batch ONE-HAND --rules riichi --format jsonl": [mjcalc, "batch", str(tmp / "one.txt"), "--rules",
                                                                "riichi", "--format", "jsonl", "-o", str(tmp / "o")],
        "reference_batch.py ONE-HAND": [sys.executable, str(HERE / "reference_batch.py"), str(tmp / "one.jsonl"), "-o",
                                        str(tmp / "o")],
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

    print(f"{args.rounds} rounds alternating, medians; mjcalc's core: {package.core_build()}")
    print(f"{'':<64} {'wall':>9}  {'x pass':>6}  {'cpu':>9}  {'x pass':>6}")
    for name in commands:
        m, c = statistics.median(times[name]), statistics.median(cpu[name])
        print(f"{name:<64} {m * 1000:6.1f} ms  {m / base:5.1f}x  {c * 1000:6.1f} ms  {c / base_cpu:5.1f}x")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
