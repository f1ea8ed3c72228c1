"""The installed package scores exactly as this checkout's source does.

``pip install .`` compiles the hot modules with mypyc (setup.py), while the rest of the suite imports the
checkout's source (``python -m pytest`` puts it first on the path). Here the installed package, run from outside
the checkout, scores every case line, a few thousand generated lines under every ruleset, and as many broken
ones (mutated characters, flags with odd values: the error paths), and its JSON and text must equal the
source's, character for character. Skipped only when the installed package is this checkout
(an editable install: nothing is compiled then).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from riichi_situations import generate

ROOT = Path(__file__).resolve().parent.parent

# Scores (line, ruleset, options) triples read from the file named by argv[1]; one JSON line and the text of each.
SCORE = """
import json, sys
from mjcalc.engine import Request, score_line
from mjcalc.output.record import to_json
from mjcalc.output.table import to_text
for line, rules, options in json.load(open(sys.argv[1], encoding="utf-8")):
    result = score_line(line, Request(rules=rules, options=options))
    print(json.dumps(to_json(result), ensure_ascii=False, sort_keys=True))
    print(to_text(result))
"""


def _installed(tmp: Path) -> Path:
    """Where the package that this interpreter imports from outside the checkout lives."""
    found = subprocess.run([sys.executable, "-c", "import mjcalc; print(mjcalc.__file__)"], cwd=tmp,
                           env=_env(), capture_output=True, text=True, check=True)
    return Path(found.stdout.strip()).parent


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MJCALC_CONFIG"] = "/nonexistent/mjcalc.yaml"  # no user configuration
    return {**env, **extra}


def _situations() -> list[tuple[str, str, dict[str, str]]]:
    out = []
    for path in sorted((ROOT / "tests" / "cases").glob("*.yaml")):
        cases = yaml.safe_load(path.read_text(encoding="utf-8"))
        out += [(case["hand"], cases["ruleset"], case.get("set", {})) for case in cases["cases"]]
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from gen_hands import lines
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    for k, rules in enumerate(("changchun", "jilin", "meihe", "changchun-mil")):
        out += [(line, rules, {}) for line in lines(600, seed=k)]
    out += [(s.line(), "riichi", s.set_options()) for s in generate(1500, seed=31)]
    rng = random.Random(5)
    valid = [line for line, _, _ in out]
    for k in range(2500):
        out.append((_broken(rng, rng.choice(valid)), RULESETS[k % len(RULESETS)], {}))
    for path in sorted((ROOT / "examples").glob("*.txt")):
        if "homework" not in path.name:
            out += [(line, path.stem, {}) for line in path.read_text(encoding="utf-8").splitlines()
                    if line.strip() and not line.startswith("#")]
    return out


RULESETS = ("changchun", "jilin", "meihe", "changchun-mil", "riichi")
ODD_FLAGS = ("+seat=X", "+seat=", "+from=S", "+dora=", "+dora=9z", "+honba=-1", "+honba=x", "+hui=5m", "+flip=9p",
             "+bao=1z", "+mobao", "+duibao", "+closed=E,S", "+win=1m", "+base=0", "+cap=none", "+rules=jilin",
             "+rules=nosuch", "+tian", "+di", "+zimo=off", "+gang", "+qiang +zimo", "+riichi +wriichi", "+ippatsu",
             "+ura=1m", "+sticks=3", "+lian=2", "+zimoo", "+=", "+", "+last +gang")


def _broken(rng: random.Random, line: str) -> str:
    """A valid line made odd: a character dropped, doubled or swapped, or a flag with an odd value added."""
    roll = rng.random()
    at = rng.randrange(len(line))
    if roll < 0.25:
        return line[:at] + line[at + 1 :]
    if roll < 0.45:
        return line[:at] + line[at] + line[at:]
    if roll < 0.6:
        return line[:at] + rng.choice("0123456789mpszf+[](){}=| ") + line[at + 1 :]
    return f"{line} {rng.choice(ODD_FLAGS)}"


def test_the_installed_package_scores_as_the_source(tmp_path: Path) -> None:
    installed = _installed(tmp_path)
    if installed == ROOT / "mjcalc":
        pytest.skip("the installed package is this checkout (an editable install): nothing is compiled")
    todo = tmp_path / "situations.json"
    todo.write_text(json.dumps(_situations(), ensure_ascii=False), encoding="utf-8")

    def score(cwd: Path, **env: str) -> str:
        run = subprocess.run([sys.executable, "-c", SCORE, str(todo)], cwd=cwd, env=_env(**env),
                             capture_output=True, text=True, encoding="utf-8")
        assert run.returncode == 0, run.stderr
        return run.stdout

    compiled = sorted(p.name for p in installed.rglob("*.so"))
    theirs, ours = score(tmp_path), score(ROOT, PYTHONPATH=str(ROOT))
    for k, (a, b) in enumerate(zip(theirs.splitlines(), ours.splitlines(), strict=True)):
        assert a == b, f"output line {k}: installed ({len(compiled)} compiled modules) and source differ"


def test_the_installed_package_replays_games_as_the_source(tmp_path: Path) -> None:
    """Every game of tests/games (their bad results too) replayed by the installed package (whose game modules are
    compiled with the core) and by the source: the same sheets, the same errors."""
    installed = _installed(tmp_path)
    if installed == ROOT / "mjcalc":
        pytest.skip("the installed package is this checkout (an editable install): nothing is compiled")
    from test_games import GAMES, _results

    from mjcalc.game import header_to_text, make_header

    lines = []
    for _, data, game in GAMES:
        header = make_header(game.get("players", ["A", "B", "C", "D"]), game.get("rules", data["rules"]),
                             game.get("set") or {}, game.get("dealer"))
        lines.append(header_to_text(header))
        lines += [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in _results(data, game)]
    record = tmp_path / "games.txt"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def replay(cwd: Path, **env: str) -> tuple[str, str]:
        run = subprocess.run([sys.executable, "-m", "mjcalc.game", "replay", str(record)], cwd=cwd, env=_env(**env),
                             capture_output=True, text=True, encoding="utf-8")
        assert run.returncode in (0, 2), run.stderr
        return run.stdout, run.stderr

    theirs, ours = replay(tmp_path), replay(ROOT, PYTHONPATH=str(ROOT))
    assert theirs[0].count("\n") == len(GAMES)
    assert theirs == ours


IMPORT = """
import sys
from pathlib import Path
from mjcalc.logs import LogError, read_path
from mjcalc.logs.importer import import_game
for path in sorted(Path(sys.argv[1]).iterdir()):
    if path.name == "README.md":
        continue
    try:
        sys.stdout.buffer.write(import_game(read_path(path)).json_bytes() + b"\\n")
    except LogError as exc:
        print(exc)
"""


def test_the_installed_package_imports_logs_as_the_source(tmp_path: Path) -> None:
    """Every real log of tests/data/tenhou read and replayed by the installed package (whose log readers are compiled)
    and by the source: the same sheets, the same messages."""
    installed = _installed(tmp_path)
    if installed == ROOT / "mjcalc":
        pytest.skip("the installed package is this checkout (an editable install): nothing is compiled")

    def run(cwd: Path, **env: str) -> str:
        done = subprocess.run([sys.executable, "-c", IMPORT, str(ROOT / "tests" / "data" / "tenhou")], cwd=cwd,
                              env=_env(**env), capture_output=True, text=True, encoding="utf-8")
        assert done.returncode == 0, done.stderr
        return done.stdout

    theirs, ours = run(tmp_path), run(ROOT, PYTHONPATH=str(ROOT))
    assert theirs.count("\n") == len([p for p in (ROOT / "tests" / "data" / "tenhou").iterdir()]) - 1
    assert theirs == ours
