"""Fuzz: a few thousand mutated lines (tests/line_mutations.py: full-width and other Unicode digits, control
bytes, characters inserted, deleted and swapped, huge numbers in flags, long lines), seeded, under every
built-in ruleset. None may raise: each is a result or an error with exit code 0-3, its JSON serialisable and
its table printable. A small sample goes through the command line too (score, waits, check, batch). The long
run a person can leave for an hour is benchmarks/fuzz_lines.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from line_mutations import builtin_rulesets, mutate, seed_lines, to_bytes
from typer.testing import CliRunner

from mjcalc.cli import app
from mjcalc.engine import Request, analyse, score_line
from mjcalc.output.record import to_json
from mjcalc.output.table import to_text

ROOT = Path(__file__).resolve().parent.parent
LINES = 3000
SEED = 20261201


def _mutated(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` mutated lines, the rulesets taken in turn so that every one gets its share."""
    rng = random.Random(seed)
    seeds, rulesets = seed_lines(), builtin_rulesets()
    return [(mutate(rng.choice(seeds), rng), rulesets[k % len(rulesets)]) for k in range(count)]


def test_the_mutations_are_hostile() -> None:
    """The fuzz is worth running: most mutated lines are errors, some still win, and huge lines are there."""
    lines = _mutated(LINES, SEED)
    results = [score_line(line, Request(rules)).result for line, rules in lines[:600]]
    assert results.count("error") > 200 and results.count("win") > 15  # the seed lines are the case files: they change
    assert any(len(line) > 100_000 for line, _ in lines)
    assert any(not line.isascii() for line, _ in lines)


def test_no_mutated_line_raises() -> None:
    crashes = []
    for line, rules in _mutated(LINES, SEED):
        request = Request(rules)
        try:
            res = score_line(line, request)
            json.dumps(to_json(res), ensure_ascii=False)
            text = to_text(res)
            assert res.exit_code in ((2, 3) if res.error is not None else (0, 1)), res.exit_code
            assert all(ch == "\n" or ch.isprintable() or ch.isspace() for ch in text), "unprintable output"
            if len(line) < 2000:
                analyse(line, request)
        except Exception as exc:  # noqa: BLE001  (collected, to show every crash at once)
            crashes.append(f"rules={rules} line={line[:300]!r}: {type(exc).__name__}: {exc}"[:600])
    assert not crashes, f"{len(crashes)} of {LINES} lines crashed:\n" + "\n".join(crashes[:20])


runner = CliRunner()
ENV = {"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"}


@pytest.mark.parametrize("command", ["score", "waits", "check", "batch"])
def test_the_command_line_answers_mutated_lines_with_exit_0_to_3(command: str, tmp_path: Path) -> None:
    lines = [(line, rules) for line, rules in _mutated(200, SEED + 1) if len(line) < 50_000]
    for line, rules in lines[:40]:
        if command in ("score", "waits"):
            r = runner.invoke(app, [command, line, "--rules", rules], env=ENV)
        else:
            path = tmp_path / "hands.txt"
            record = " ".join(line.splitlines()) + (" => fan 1" if command == "check" else "")
            path.write_bytes(to_bytes(record + "\n"))
            r = runner.invoke(app, [command, str(path), "--rules", rules], env=ENV)
        assert r.exception is None or isinstance(r.exception, SystemExit), (line, rules, repr(r.exception))
        assert r.exit_code in (0, 1, 2, 3), (line, rules, r.exit_code, r.output[-500:])


def test_the_installed_command_never_prints_a_traceback() -> None:
    """A few mutated lines through the real process (``python -m mjcalc``): exit 0-3 and no traceback."""
    lines = [(line, rules) for line, rules in _mutated(60, SEED + 2) if "\x00" not in line and len(line) < 50_000]
    with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
        f.write(to_bytes("\n".join(" ".join(line.splitlines()) for line, _ in lines) + "\n"))
    try:
        runs = [["score", lines[0][0]], ["waits", lines[1][0]], ["score", lines[2][0], "--json"],
                ["batch", f.name, "--format", "jsonl"], ["check", f.name]]
        for args in runs:
            done = subprocess.run([sys.executable, "-m", "mjcalc", *args, "--rules", "riichi"], capture_output=True,
                                  cwd=ROOT, env={**os.environ, **ENV}, timeout=120)
            stderr = done.stderr.decode("utf-8", "replace")
            assert done.returncode in (0, 1, 2, 3), (args[:1], done.returncode, stderr[-500:])
            assert "Traceback" not in stderr and "internal error" not in stderr, stderr[-500:]
    finally:
        os.unlink(f.name)
