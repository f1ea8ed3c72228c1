"""`mjcalc batch --jobs 2` against one job, as whole processes: 200,000 generated lines of mixed rulesets
(a tenth broken), JSON Lines out, the two commands alternating, medians of the rounds.

    python benchmarks/bench_jobs.py [--lines 200000] [--rounds 5] [--cpus 0,1]

For each command it prints the median wall time, the median CPU time (user + sys of the process and its
workers) and the peak memory of the largest process. On a machine others are using, wall times say little:
the CPU times do. Two processes on two idle cores take about  wall(2) = CPU(2) / 2  (``--jobs 2``: the main
process, which also cuts the file into ranges and writes the output in order, and one forked worker, each scoring
ranges), so the script also prints the
speed-up an idle two-core machine would show, 2 x CPU(1) / CPU(2), next to the measured wall-time ratio,
and the load average before and after, so that the reader knows which figure to trust. ``--cpus`` runs
both commands under ``taskset`` on those cores.

Each round also runs two one-job commands at once, on two copies of the file: the machine's own ceiling for two
processes, 2 x wall(one alone) / wall(two at once). Two processes seldom run at full speed side by side even on
idle cores (shared caches, memory, a virtual machine's host): on the two-core machines here each took about 14 %
more CPU time with the other running, so ``--jobs 2`` cannot reach 2x there, whatever mjcalc does.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen_hands import lines

RULESETS = ["changchun", "changchun-mil", "jilin", "meihe", "riichi", "mcr"]  # the 13-tile ones

PROBE = """
import resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, code)
"""


def measure(cmd: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + sys, workers included) and peak resident MiB of one run."""
    out = subprocess.run([sys.executable, "-c", PROBE, *cmd], capture_output=True, text=True, check=True).stdout
    wall, cpu, kib, code = out.split()
    if code not in ("0", "2"):  # 2: some lines are broken on purpose
        raise SystemExit(f"{' '.join(cmd)} exited {code}")
    return float(wall), float(cpu), int(kib) / 1024


def measure_pair(cmds: list[list[str]]) -> tuple[float, float]:
    """Wall seconds until both commands, started together, have ended; and the median CPU seconds of the two."""
    probes = [subprocess.Popen([sys.executable, "-c", PROBE, *cmd], stdout=subprocess.PIPE, text=True)
              for cmd in cmds]
    start = time.perf_counter()
    outs = [probe.communicate()[0].split() for probe in probes]
    wall = time.perf_counter() - start
    return wall, statistics.median(float(out[1]) for out in outs)


def mixed(n: int, seed: int = 12) -> list[str]:
    rng = random.Random(seed)
    return [f"{line} +rules={rng.choice(RULESETS)}" for line in lines(n, seed=seed)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cpus", help="run under taskset on these cores, e.g. 0,1")
    args = parser.parse_args()
    mjcalc = str(Path(sys.executable).parent / "mjcalc")
    core = subprocess.run([mjcalc, "--version"], capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mixed.txt"
        path.write_text("\n".join(mixed(args.lines)) + "\n", encoding="utf-8")
        twin = Path(tmp) / "mixed-twin.txt"  # the second of two one-job runs at once reads its own copy
        twin.write_bytes(path.read_bytes())
        outs = {jobs: Path(tmp) / f"out{jobs}.jsonl" for jobs in (1, 2)}
        prefix = ["taskset", "-c", args.cpus] if args.cpus else []
        runs: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}
        pair: list[tuple[float, float]] = []
        load_before = os.getloadavg()
        for r in range(args.rounds):
            for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):  # alternating, each first in turn
                cmd = [*prefix, mjcalc, "batch", str(path), "--format", "jsonl", "--jobs", str(jobs),
                       "-o", str(outs[jobs])]
                runs[jobs].append(measure(cmd))
                wall, cpu, mib = runs[jobs][-1]
                print(f"round {r + 1} jobs {jobs}: {wall:6.1f} s wall {cpu:6.1f} s CPU {mib:6.1f} MiB",
                      flush=True)
            pair.append(measure_pair([[*prefix, mjcalc, "batch", str(source), "--format", "jsonl", "--jobs", "1",
                                       "-o", str(Path(tmp) / f"pair{i}.jsonl")] for i, source in enumerate((path, twin))]))
            print(f"round {r + 1} two one-job runs at once: {pair[-1][0]:6.1f} s wall {pair[-1][1]:6.1f} s CPU each",
                  flush=True)
        load_after = os.getloadavg()
        same = outs[1].read_bytes() == outs[2].read_bytes()
    med = {jobs: [statistics.median(x[i] for x in runs[jobs]) for i in range(3)] for jobs in (1, 2)}
    print(f"\n{args.lines:,} lines, {len(RULESETS)} rulesets; {core}; {args.rounds} rounds alternating; "
          f"medians" + (f"; taskset -c {args.cpus}" if args.cpus else ""))
    print(f"{'jobs':>4} {'wall s':>8} {'CPU s':>8} {'lines/s':>9} {'peak MiB':>9}")
    for jobs in (1, 2):
        wall, cpu, mib = med[jobs]
        print(f"{jobs:>4} {wall:>8.1f} {cpu:>8.1f} {args.lines / wall:>9,.0f} {mib:>9.1f}")
    print(f"wall-time ratio jobs 1 / jobs 2:             {med[1][0] / med[2][0]:.2f}x")
    print(f"idle two-core estimate 2 x CPU(1) / CPU(2):  {2 * med[1][1] / med[2][1]:.2f}x")
    pair_wall, pair_cpu = (statistics.median(x[i] for x in pair) for i in range(2))
    print(f"this machine's ceiling for two processes, 2 x wall(1) / wall(two one-job runs at once): "
          f"{2 * med[1][0] / pair_wall:.2f}x (each took {pair_cpu / med[1][1] - 1:+.0%} CPU time with the other running)")
    print(f"load average before {load_before[0]:.1f}, after {load_after[0]:.1f} (on {os.cpu_count()} cores); "
          f"outputs identical: {same}")


if __name__ == "__main__":
    main()
