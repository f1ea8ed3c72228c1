"""Fuzz `mjcalc batch` with hostile files for as long as you like: mangled hand lines, bytes that are not
UTF-8, UTF-16 / UTF-32 with a byte-order mark, Latin-1, control bytes, broken CSV quoting, huge fields,
deep JSON, 5,000-digit numbers, bad YAML entries. Each file runs with --jobs 1 and --jobs 2, and each run
must hold to the batch contract:

- the exit code is 0, 1, 2 or 3 (never 70, never a signal), and the run ends in time;
- stderr holds no traceback;
- exactly one output record per input record, in input order (the line numbers the generator expects);
- --jobs 1 and --jobs 2 write the same records.

    python benchmarks/fuzz_batch.py --minutes 60            # an hour; failures are kept in ./fuzz-failures
    python benchmarks/fuzz_batch.py --rounds 20 --seed 3    # a fixed set, reproducible

A failing file is copied to --keep with the command that failed, and the run goes on; the exit status is 1
when anything failed. `tests/test_batch_hostile.py` runs a few small rounds of the same generator.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from gen_hands import lines as good_lines  # noqa: E402

RULESETS = ["changchun", "changchun-mil", "jilin", "meihe", "riichi"]
# What a user, an input method or a broken file puts into a line (never a line break).
NOISE = (
    list("０１２３４５６７８９ｍｐｓｚ＋＝［］（）｛｝") + list("²³¹٠١٢٣٤٥٦٧٨٩०१२३") + list("东南西北白发中万筒条")
    + ["\x00", "\x01", "\x1b", "\x7f", "\r", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029",
       "\ufeff", "\u0301", "\u200b", "\U0001f004", "\t", "  ", "+", "=", ",", "[", "]", "(", ")", "{", "}", "#",
       "=>", '"', "'", "\\", "é", "ß", "🀄"]
    + list("0123456789mpszfESWNPFC")
)
FLAGS = ["+zimo", "+seat=E", "+from=W", "+round=S", "+riichi", "+dora=3m", "+bao=5m", "+hui=5m", "+mobao",
         "+gang", "+ura=1z", "+honba=2", "+sticks=1", "+base=3", "+cap=none", "+closed=W,N", "+last"]
HUGE = ["+base=" + "9" * 5000, "+honba=" + "9" * 4400, "+sticks=" + "1" * 300, "+rules=" + "x" * 300,
        "+dora=" + "１" * 50, "+cap=" + "9" * 5000, "+win=" + "３" + "m", "+seat=" + "Ｅ"]
BAD_BYTES = [b"\x80", b"\xff", b"\xfe", b"\xc0\xaf", b"\xed\xa0\x80", b"\xe4\xb8", b"\xf5\x80\x80\x80", b"\xc3",
             b"\xe9", b"\x00", b"\x1b[31m", b"\r", b"\x0c"]


def mangle(rng: random.Random, text: str) -> str:
    """A hand line with a few random edits (a character in or out, a chunk repeated, a flag too big)."""
    for _ in range(rng.choice([0, 1, 1, 2, 3, 6])):
        roll = rng.random()
        at = rng.randint(0, len(text))
        if roll < 0.45:
            text = text[:at] + rng.choice(NOISE) + text[at:]
        elif roll < 0.6 and text:
            text = text[:at] + text[at + 1:]
        elif roll < 0.7:
            text = text[:at] + text[at:at + rng.randint(1, 6)] * rng.randint(2, 5) + text[at:]
        elif roll < 0.8:
            text += " " + rng.choice(FLAGS)
        elif roll < 0.85:
            text += " " + rng.choice(HUGE)
        elif roll < 0.9:
            text = text[:at]
        elif roll < 0.93:
            text += " +rules=" + rng.choice(RULESETS)
        elif roll < 0.95 and len(text) < 1000:
            text = text * rng.randint(50, 400)  # a huge line (up to some 100,000 characters)
        else:
            text = text.translate({ord(c): ord(c) + 0xFEE0 for c in "0123456789mpsz"})  # all full-width
    return text.replace("\n", " ")


@dataclass
class Case:
    """A generated batch file: its bytes, its name, and the line number of every record it holds."""

    name: str
    data: bytes
    lines: list[int]
    kind: str


def _encode(rng: random.Random, text: str) -> tuple[bytes, str]:
    """The text in an encoding a user might have, with bad bytes spliced in where that keeps line ends."""
    roll = rng.random()
    if roll < 0.12:
        return text.encode("utf-16"), "utf-16"
    if roll < 0.17:
        return b"\xfe\xff" + text.encode("utf-16-be"), "utf-16-be"
    if roll < 0.2:
        return text.encode("utf-32"), "utf-32"
    if roll < 0.27:
        return text.encode("latin-1", "replace"), "latin-1"
    data = text.encode("utf-8", "surrogatepass")
    if roll < 0.32:
        data = b"\xef\xbb\xbf" + data
    if rng.random() < 0.6:  # bytes that are not UTF-8, never a line end
        parts = bytearray(data)
        for _ in range(rng.randint(1, 12)):
            at = rng.randint(0, len(parts))
            parts[at:at] = rng.choice(BAD_BYTES)
        data = bytes(parts)
    return data, "utf-8"


def _hands(rng: random.Random, n: int) -> list[str]:
    base = good_lines(n, seed=rng.randrange(1 << 30))
    return [mangle(rng, h) if rng.random() < 0.5 else h for h in base]


def lines_case(rng: random.Random, n: int) -> Case:
    hands = _hands(rng, n)
    for i in rng.sample(range(n), min(n, 5)):
        hands[i] = rng.choice(["", "# a comment", "   ", "\x00" * 10, "{\"hand\": 1}"])
    end = "\r\n" if rng.random() < 0.2 else "\n"
    text = end.join(hands) + (end if rng.random() < 0.8 else "")
    data, _ = _encode(rng, text)
    return Case("hands.txt", data, list(range(1, n + 1)), "lines")


def _csv_cell(rng: random.Random, value: str) -> str:
    roll = rng.random()
    if roll < 0.1:
        return '"' + value  # a quote never closed
    if roll < 0.2:
        return '"' + value.replace('"', '""') + '"'
    if roll < 0.25:
        return f'"{value}"x'
    if roll < 0.27:
        return "x" * rng.choice([140_000, 70_000, 2_000])
    return value.replace(",", ";")


def csv_case(rng: random.Random, n: int) -> Case:
    header = rng.choice(["hand,rules,base", "hand", "rules,hand", "tiles,rules", "Hand,Base,cap", '"hand",rules'])
    rows = []
    for h in _hands(rng, n):
        roll = rng.random()
        rules = rng.choice(["", "", "changchun", "jilin", "riichi", "nosuch", "../x.yaml", "9" * 5000])
        if roll < 0.05:
            rows.append(f",{rules}")  # no hand
        elif roll < 0.08:
            rows.append("")
        elif roll < 0.1:
            rows.append(f"{h},{rules},2,surplus")
        else:
            rows.append(f"{_csv_cell(rng, h)},{_csv_cell(rng, rules)},{rng.choice(['', '2', '-1', 'x', '9' * 5000])}")
    data, _ = _encode(rng, header + "\n" + "\n".join(rows) + "\n")
    return Case("hands.csv", data, list(range(2, n + 2)), "csv")


def _deep(rng: random.Random) -> str:
    depth = rng.choice([50, 1000, 20_000])
    return "[" * depth + "]" * depth


def jsonl_case(rng: random.Random, n: int) -> Case:
    out = []
    for h in _hands(rng, n):
        roll = rng.random()
        record: object = {"hand": h}
        if roll < 0.1:
            record = {"hand": h, "rules": rng.choice([5, None, ["jilin"], {"a": 1}, "riichi", "x" * 400])}
        elif roll < 0.2:
            record = {"hand": h, "set": rng.choice([{"base": 2}, {"base": 10 ** 30}, [1], "x", {"cap": "none"}])}
        elif roll < 0.3:
            record = {"hand": h, "zimo": True, "seat": rng.choice(["E", 3, ["E"], {"x": [[1]]}, "Ｅ"])}
        elif roll < 0.33:
            record = [h]
        elif roll < 0.36:
            record = {"hand": rng.choice([3, None, ["1m"], ""])}
        text = json.dumps(record, ensure_ascii=rng.random() < 0.5)
        roll = rng.random()
        if roll < 0.05:
            text = text[: rng.randint(0, len(text))]
        elif roll < 0.08:
            text = _deep(rng)
        elif roll < 0.1:
            text = '{"hand": "123m456p789s111z22z", "base": ' + "9" * 5000 + "}"
        elif roll < 0.12:
            text = '{"hand": "\\udc80\\ud800"}'
        elif roll < 0.14:
            text = '{"hand": "1m\\x"}'
        out.append(text.replace("\n", " "))
    data, _ = _encode(rng, "\n".join(out) + "\n")
    return Case("hands.jsonl", data, list(range(1, n + 1)), "jsonl")


def yaml_case(rng: random.Random, n: int) -> Case:
    text_lines: list[str] = [rng.choice(["# hands", "---", "hands:"])]
    indent = "  " if text_lines[0] == "hands:" else ""
    starts = []
    for h in _hands(rng, n):
        starts.append(len(text_lines) + 1)
        value = json.dumps(h, ensure_ascii=False) if rng.random() < 0.5 else h
        roll = rng.random()
        if roll < 0.05:
            entry = [f"- hand: [{value}"]
        elif roll < 0.08:
            entry = ["- *alias"]
        elif roll < 0.1:
            entry = [f"- hand: {value}", "  rules: {a: 1}"]
        elif roll < 0.12:
            entry = [f"- hand: !!python/object:os.system {value}"]
        elif roll < 0.14:
            entry = [f"- hand: {value}", "\t zimo: true"]
        elif roll < 0.16:
            entry = [f"- hand: {value}", "  set: {base: " + "9" * 5000 + "}"]
        elif roll < 0.18:
            entry = ["- " + "[" * 3000 + "]" * 3000]
        elif roll < 0.2:
            entry = [f"- hand: {value}", "  hand: again"]
        else:
            entry = [f"- hand: {value}"] + rng.sample(["  zimo: true", "  seat: E", "  rules: jilin", "  from: W",
                                                      "  dora: [3m, 7z]"], rng.randint(0, 2))
        text_lines.extend(indent + e for e in entry)
    data, _ = _encode(rng, "\n".join(text_lines) + "\n")
    return Case("hands.yaml", data, starts, "yaml")


MAKERS = [lines_case, lines_case, csv_case, jsonl_case, yaml_case]


def make_case(rng: random.Random, n: int) -> Case:
    return rng.choice(MAKERS)(rng, n)


def mjcalc_command() -> list[str]:
    exe = Path(sys.executable).parent / "mjcalc"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mjcalc"]


def check_case(case: Case, folder: Path, jobs: list[str], timeout: float = 300.0) -> list[str]:
    """Run the case with each --jobs; the broken promises (empty: all kept)."""
    path = folder / case.name
    path.write_bytes(case.data)
    problems: list[str] = []
    outputs = []
    env = {**os.environ, "MJCALC_CONFIG": os.devnull + "/none.yaml"}
    for j in jobs:
        out = folder / f"out-{j}.jsonl"
        cmd = [*mjcalc_command(), "batch", str(path), "--format", "jsonl", "--jobs", j, "-o", str(out)]
        try:
            done = subprocess.run(cmd, capture_output=True, timeout=timeout, env=env)
        except subprocess.TimeoutExpired:
            problems.append(f"--jobs {j}: no answer in {timeout:.0f} s")
            continue
        err = done.stderr.decode("utf-8", "replace")
        if done.returncode not in (0, 1, 2, 3):
            problems.append(f"--jobs {j}: exit {done.returncode}: {err.strip()[-300:]}")
        if "Traceback" in err:
            problems.append(f"--jobs {j}: a traceback on stderr: {err[-600:]}")
        try:
            got = [json.loads(x)["line"] for x in out.read_text(encoding="utf-8").split("\n") if x]
        except (OSError, ValueError, KeyError) as exc:
            problems.append(f"--jobs {j}: the output is not JSON Lines with a line number: {exc}")
            continue
        if got != case.lines:
            first = next((i for i, (a, b) in enumerate(zip(got, case.lines)) if a != b), min(len(got), len(case.lines)))
            problems.append(f"--jobs {j}: {len(got):,} records for {len(case.lines):,} input records; the first "
                            f"difference at record {first + 1} (got line {got[first] if first < len(got) else '-'}, "
                            f"expected {case.lines[first] if first < len(case.lines) else '-'})")
        bugs = [r for r in map(json.loads, filter(None, out.read_text(encoding="utf-8").split("\n")))
                if (r.get("error") or {}).get("kind") == "internal"]
        for r in bugs[:3]:
            problems.append(f"--jobs {j}: line {r['line']}: {r['error']['message'][:200]} | {r['input'][:120]!r}")
        outputs.append(out.read_bytes())
    if len(outputs) == 2 and outputs[0] != outputs[1]:
        problems.append("--jobs 1 and --jobs 2 wrote different records")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=60.0, help="stop after this long (default 60)")
    parser.add_argument("--rounds", type=int, default=0, help="stop after this many files (0: no limit)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the first round (default: from the clock)")
    parser.add_argument("--records", type=int, default=2000, help="records per file (default 2000)")
    parser.add_argument("--keep", default="fuzz-failures", help="folder for failing files (default ./fuzz-failures)")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(time.time())
    deadline = time.monotonic() + args.minutes * 60
    rounds = records = failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        while time.monotonic() < deadline and (not args.rounds or rounds < args.rounds):
            rng = random.Random(seed + rounds)
            case = make_case(rng, rng.randint(1, args.records))
            problems = check_case(case, Path(tmp), ["1", "2"])
            rounds += 1
            records += len(case.lines)
            if problems:
                failures += 1
                keep = Path(args.keep) / f"seed-{seed + rounds - 1}-{case.name}"
                keep.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(Path(tmp) / case.name, keep)
                print(f"FAIL seed {seed + rounds - 1} ({case.kind}, {len(case.lines):,} records) kept as {keep}:")
                for p in problems:
                    print(f"    {p}")
            elif rounds % 10 == 0:
                print(f"{rounds:,} files, {records:,} records, {failures} failing")
            sys.stdout.flush()
    print(f"done: {rounds:,} files, {records:,} records, each run with --jobs 1 and 2; {failures} failing")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
