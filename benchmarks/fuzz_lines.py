"""Fuzz: mutated hand lines (tests/line_mutations.py) through every built-in ruleset, for as long as you like.

Each line is scored (``score_line``), rendered as JSON (and serialised) and as text, and its waits analysed
(``waits.analyse``), in this process; every crash (an exception escaping any of those), every line slower
than ``--slow`` seconds, and every JSON output that is not serialisable is printed with the line and the
ruleset to reproduce it (``repr`` of the line). Time-bounded; seeded, so a run can be repeated.

    .venv/bin/python benchmarks/fuzz_lines.py --minutes 60 [--seed 1] [--cli 200]

``--cli N`` also runs N of the lines through the real command line (``mjcalc score``, ``waits``, ``check``
and ``batch``) and checks the exit code is 0-3 and that no traceback is printed. Exit status 1 when
anything was found.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from line_mutations import builtin_rulesets, mutate, seed_lines, to_bytes  # noqa: E402

from mjcalc.engine import (  # noqa: E402
    Request,
    analyse,  # noqa: E402
    score_line,
)
from mjcalc.output.record import to_json  # noqa: E402
from mjcalc.output.table import to_text  # noqa: E402


def one_line(line: str, rules: str) -> None:
    """Everything a line goes through in the commands; raises what any of it raises."""
    request = Request(rules)
    res = score_line(line, request)
    json.dumps(to_json(res), ensure_ascii=False)
    to_text(res).encode("utf-8")  # what the terminal gets must be printable
    if res.error is not None:
        assert res.exit_code in (2, 3), f"an error with exit code {res.exit_code}"
    else:
        assert res.exit_code in (0, 1), f"a result with exit code {res.exit_code}"
    analyse(line, request)


def cli_run(args: list[str], stdin: str | None = None) -> tuple[int, str]:
    """The exit code and stderr of ``python -m mjcalc ARGS``."""
    done = subprocess.run([sys.executable, "-m", "mjcalc", *args], input=stdin, capture_output=True, text=True,
                          errors="surrogateescape", cwd=ROOT, timeout=60,
                          env={**os.environ, "MJCALC_CONFIG": os.devnull, "PYTHONIOENCODING": "utf-8"})
    return done.returncode, done.stderr


def cli_problem(line: str, rules: str, command: str) -> str | None:
    """What is wrong with the command line's answer to this line, or None."""
    try:
        line.encode("utf-8", "surrogateescape")
        unsayable = "\x00" in line or len(line) > 100_000
    except UnicodeEncodeError:  # a lone surrogate that is no undecodable byte
        unsayable = True
    if unsayable:  # an argument cannot hold a NUL, a megabyte or a lone surrogate: through a file
        command = "check" if command == "waits" else "batch" if command == "score" else command
    if command in ("score", "waits"):
        code, err = cli_run([command, line, "--rules", rules])
    else:
        with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
            f.write(to_bytes(" ".join(line.splitlines()) + (" => fan 1\n" if command == "check" else "\n")))
        try:
            code, err = cli_run([command, f.name, "--rules", rules])
        finally:
            os.unlink(f.name)
    if code not in (0, 1, 2, 3) or "Traceback" in err or "internal error" in err:
        return f"mjcalc {command}: exit {code}: {err.strip()[-300:]}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lines", type=int, default=0, help="stop after this many lines (0: only the time)")
    parser.add_argument("--slow", type=float, default=1.0, help="report a line that takes longer (seconds)")
    parser.add_argument("--cli", type=int, default=0, help="also run this many lines through the command line")
    args = parser.parse_args()

    import random

    rng = random.Random(args.seed)
    seeds, rulesets = seed_lines(), builtin_rulesets()
    deadline = time.monotonic() + 60 * args.minutes
    done = crashes = slow = 0
    worst = (0.0, "", "")
    while time.monotonic() < deadline and (not args.lines or done < args.lines):
        line, rules = mutate(rng.choice(seeds), rng), rng.choice(rulesets)
        start = time.perf_counter()
        try:
            one_line(line, rules)
        except Exception:  # noqa: BLE001  (what the fuzz run is looking for)
            crashes += 1
            print(f"CRASH rules={rules} line={line[:2000]!r}\n{traceback.format_exc()}", flush=True)
        took = time.perf_counter() - start
        if took > worst[0]:
            worst = (took, rules, line)
        if took > args.slow:
            slow += 1
            print(f"SLOW {took:.2f} s rules={rules} line={line[:300]!r} ({len(line)} characters)", flush=True)
        done += 1
    cli_bad = 0
    for k in range(args.cli):
        line, rules = mutate(rng.choice(seeds), rng), rng.choice(rulesets)
        problem = cli_problem(line, rules, ("score", "waits", "check", "batch")[k % 4])
        if problem:
            cli_bad += 1
            print(f"CLI rules={rules} line={line[:2000]!r}\n  {problem}", flush=True)
    print(f"{done} lines ({len(seeds)} seeds, {len(rulesets)} rulesets, seed {args.seed}): {crashes} crashes, "
          f"{slow} slower than {args.slow} s (slowest {worst[0]:.3f} s, {len(worst[2])} characters, "
          f"rules={worst[1]}); command line: {args.cli} runs, {cli_bad} problems")
    return 1 if crashes or slow or cli_bad else 0


if __name__ == "__main__":
    sys.exit(main())
