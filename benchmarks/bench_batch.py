"""Batch throughput: hands per second with one job and with --jobs 2, and peak memory on files of growing
size (it must not grow with the file). Runs `mjcalc batch` as a user would, in a child process.

    python benchmarks/bench_batch.py [--lines 200000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen_hands import lines

PROBE = """
import resource, subprocess, sys, time
start = time.perf_counter()
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def measure(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MiB) of the largest process the command ran."""
    out = subprocess.run([sys.executable, "-c", PROBE, *cmd], capture_output=True, text=True, check=True).stdout
    seconds, kib = out.split()
    return float(seconds), int(kib) / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=200_000)
    args = parser.parse_args()
    mjcalc = str(Path(sys.executable).parent / "mjcalc")
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
                seconds, mib = measure([mjcalc, "batch", str(files[n]), "--format", "jsonl", "--jobs", str(jobs),
                                        "-o", str(Path(tmp) / "out.jsonl")])
                print(f"{n:>9,} {jobs:>4} {seconds:>8.1f} {n / seconds:>9,.0f} {mib:>9.1f}")


if __name__ == "__main__":
    main()
