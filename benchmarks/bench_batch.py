"""Batch speed as a user meets it: whole processes, side by side with the reference.

By default: ``mjcalc batch FILE --rules riichi --format jsonl`` (and ``--format csv``) against the reference
riichi calculator (``mahjong`` 2.1.0) driven the same way by benchmarks/reference_batch.py — its own input
types in (136-tile arrays, melds, HandConfig, as plain JSON), one JSON record a hand out — on the same
seeded riichi situations (tests/riichi_situations.py), one job each. Each round runs mjcalc jsonl, the
reference, mjcalc csv, the reference again, mjcalc default, the reference a third time, the order turning each round; every figure is the median of its
runs, and the ratio is the reference's median over mjcalc's (above 1: mjcalc faster). mjcalc runs with ``--jobs 1``
(one process, as the reference); "mjcalc default" is the jsonl command as a user types it, without ``--jobs``
(every usable core for a file of this size: its wall time falls, its CPU time does not). Start-up, reading the
file, scoring, writing: all of it counts, as it does for the user.

    python benchmarks/bench_batch.py [--hands 20000] [--rounds 5]

``--scaling`` measures instead what ``--jobs`` gives: hands a second with one job and with two, and the peak
memory on files of growing size (it must not grow with the file), on mixed rulesets:

    python benchmarks/bench_batch.py --scaling [--lines 200000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

PROBE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""

CONFIG_FIELDS = ("is_tsumo", "is_riichi", "is_ippatsu", "is_rinshan", "is_chankan", "is_haitei", "is_houtei",
                 "is_daburu_riichi", "is_tenhou", "is_chiihou", "is_renhou", "player_wind", "round_wind",
                 "kyoutaku_number", "tsumi_number")
OPTION_FIELDS = ("has_open_tanyao", "has_aka_dora", "has_double_yakuman", "kazoe_limit", "kiriage",
                 "fu_for_open_pinfu", "fu_for_pinfu_tsumo", "renhou_as_yakuman")


def measure(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MiB) of the largest process the command ran."""
    out = subprocess.run([sys.executable, "-c", PROBE, *cmd], capture_output=True, text=True, check=True).stdout
    seconds, kib = out.split()
    return float(seconds), int(kib) / 1024


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and processor seconds (user + system) of one run of the command (its output goes to the
    file it is given). On a shared machine the processor time is the steadier of the two."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def reference_record(situation) -> dict:
    """The situation as the reference's own input types, in plain JSON (what reference_batch.py reads)."""
    args = situation.reference_args()
    config = args["config"]
    return {
        "tiles": args["tiles"], "win_tile": args["win_tile"],
        "melds": [[m.type, list(m.tiles), m.opened] for m in args["melds"]],
        "dora_indicators": args["dora_indicators"], "ura_dora_indicators": args["ura_dora_indicators"],
        "config": {name: getattr(config, name) for name in CONFIG_FIELDS},
        "options": {name: getattr(config.options, name) for name in OPTION_FIELDS},
    }


def side_by_side(args: argparse.Namespace) -> None:
    from riichi_situations import DEFAULTS, generate

    import mjcalc

    mjcalc_exe = args.mjcalc or str(Path(sys.executable).parent / "mjcalc")
    with tempfile.TemporaryDirectory() as tmp:
        situations = generate(args.hands, args.seed)
        for s in situations:  # the file's lines carry no options: every hand under the ruleset's defaults
            s.options = dict(DEFAULTS)
        hands = Path(tmp) / "hands.txt"
        hands.write_text("".join(s.line() + "\n" for s in situations), encoding="utf-8")
        reference_in = Path(tmp) / "reference.jsonl"
        reference_in.write_text("".join(json.dumps(reference_record(s)) + "\n" for s in situations),
                                encoding="utf-8")
        out = Path(tmp) / "out"
        commands = {  # one job each, as the reference runs; "default" is the command as a user types it
            "mjcalc jsonl": [mjcalc_exe, "batch", str(hands), "--rules", "riichi", "--format", "jsonl", "-o",
                             str(out), "--jobs", "1"],
            "mjcalc csv": [mjcalc_exe, "batch", str(hands), "--rules", "riichi", "--format", "csv", "-o", str(out),
                           "--jobs", "1"],
            "reference": [sys.executable, str(HERE / "reference_batch.py"), str(reference_in), "-o", str(out)],
            "mjcalc default": [mjcalc_exe, "batch", str(hands), "--rules", "riichi", "--format", "jsonl", "-o",
                               str(out)],
        }
        for name, cmd in commands.items():  # a warm-up run of each (disk cache, .pyc files), and a check
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            records = out.read_text(encoding="utf-8").count("\n") - (name == "mjcalc csv")
            if records != args.hands:
                sys.exit(f"{name} wrote {records} records for {args.hands} hands: {' '.join(cmd)}")
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        order = ["mjcalc jsonl", "reference", "mjcalc csv", "reference", "mjcalc default", "reference"]
        for r in range(args.rounds):
            for name in order if r % 2 == 0 else order[::-1]:
                seconds, processor = timed(commands[name])
                times[name].append(seconds)
                cpu[name].append(processor)
        median = {name: statistics.median(t) for name, t in times.items()}
        median_cpu = {name: statistics.median(t) for name, t in cpu.items()}
        print(f"{args.hands:,} riichi situations, {args.rounds} rounds alternating (the reference three times a round), "
              f"medians; mjcalc's core: {mjcalc.core_build()}")
        print(f"{'':<14} {'wall':>7}   {'hands/s':>9}   {'cpu':>7}   wall of each run")
        for name, t in times.items():
            print(f"{name:<14} {median[name]:6.2f}s   {args.hands / median[name]:9,.0f}   {median_cpu[name]:6.2f}s   "
                  f"{' '.join(f'{x:.2f}' for x in t)}")
        for name in ("mjcalc jsonl", "mjcalc csv", "mjcalc default"):
            print(f"ratio {name[7:]:<7}  {median['reference'] / median[name]:5.2f} x wall, "
                  f"{median_cpu['reference'] / median_cpu[name]:5.2f} x cpu  (reference / mjcalc; above 1 = mjcalc "
                  "faster)")


def scaling(args: argparse.Namespace) -> None:
    from gen_hands import lines

    mjcalc_exe = args.mjcalc or str(Path(sys.executable).parent / "mjcalc")
    with tempfile.TemporaryDirectory() as tmp:
        sizes = sorted({args.lines // 10, args.lines})
        files = {}
        for n in sizes:
            path = Path(tmp) / f"hands-{n}.txt"
            start = time.perf_counter()
            path.write_text("\n".join(lines(n, seed=n)) + "\n", encoding="utf-8")
            files[n] = path
            print(f"generated {n:,} lines in {time.perf_counter() - start:.1f} s")
        print(f"{'lines':>9} {'jobs':>4} {'seconds':>8} {'hands/s':>9} {'peak MiB':>9}")
        for n in sizes:
            for jobs in (1, 2):
                seconds, mib = measure([mjcalc_exe, "batch", str(files[n]), "--format", "jsonl", "--jobs", str(jobs),
                                        "-o", str(Path(tmp) / "out.jsonl")])
                print(f"{n:>9,} {jobs:>4} {seconds:>8.1f} {n / seconds:>9,.0f} {mib:>9.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="riichi situations (side by side)")
    parser.add_argument("--rounds", type=int, default=5, help="runs of each command (side by side)")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--mjcalc", help="the mjcalc executable (default: the one beside this Python)")
    parser.add_argument("--scaling", action="store_true", help="--jobs 1 against --jobs 2, and memory, instead")
    parser.add_argument("--lines", type=int, default=200_000, help="the largest file (--scaling)")
    args = parser.parse_args()
    scaling(args) if args.scaling else side_by_side(args)


if __name__ == "__main__":
    main()
