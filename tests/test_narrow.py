"""Output on a narrow terminal: every output of score, waits and check on the examples fits 60 columns under
COLUMNS=60 and says the same things as the full layout; without a width (a pipe) the full layout is kept."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner
from wcwidth import wcswidth

from mjcalc.cli import app

runner = CliRunner()
EXAMPLES = Path(__file__).parent.parent / "examples"
ENV = {"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"}


def _lines() -> list[tuple[str, str]]:
    out = []
    for path in sorted(EXAMPLES.glob("*.txt")):
        if path.stem.endswith("-homework"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                out.append((path.stem, line))
    return out


LINES = _lines()
HOMEWORK = sorted(p.name for p in EXAMPLES.glob("*-homework.txt"))


def run(*args: str, columns: int | None = None):
    env = {**ENV, "COLUMNS": str(columns)} if columns else {**ENV, "COLUMNS": ""}
    return runner.invoke(app, list(args), env=env)


def _too_wide(text: str, width: int = 60) -> list[str]:
    return [line for line in text.splitlines() if wcswidth(line) > width]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_score_and_waits_of_every_example_fit_60_columns(lang: str) -> None:
    wide = 0
    for rules, line in LINES:
        for command in ("score", "waits"):
            r = run(command, line, "--rules", rules, "--lang", lang, columns=60)
            assert r.exit_code in (0, 1, 2), (command, line, r.output)
            assert _too_wide(r.output) == [], (command, line)
            full = run(command, line, "--rules", rules, "--lang", lang)
            wide += bool(_too_wide(full.output))
    assert wide, "no example needs the narrow layout: the test would show nothing"


@pytest.mark.parametrize("name", HOMEWORK)
def test_check_of_every_homework_fits_60_columns(name: str) -> None:
    rules = name.removesuffix("-homework.txt")
    r = run("check", str(EXAMPLES / name), "--rules", rules, columns=60)
    assert _too_wide(r.output) == [], r.output


def _facts(text: str) -> list[str]:
    """The words and numbers of an output, in order, whatever the layout (table rules and labels aside)."""
    words = re.findall(r"[+−-]?\d+|[A-Za-z_]{3,}|[\u4e00-\u9fff]+", text)
    return sorted(w for w in words if w not in ("payer", "payee", "amount", "formula", "item", "name", "applies",
                                                "with", "unless", "said", "own", "items", "kong", "points",
                                                "total", "every", "fan", "han", "名称"))


@pytest.mark.parametrize(("rules", "line"), [
    ("jilin", "123m456p13s777z55z 2s +from=W +closed=N"),
    ("meihe", "111m999p3s22z7z5m5m5m5m +zimo +hui=5m"),
    ("riichi", "234m067p78s111z99s 9s +riichi +zimo +honba=1 +sticks=1"),
])
def test_narrow_and_full_layouts_say_the_same(rules: str, line: str) -> None:
    full = run("score", line, "--rules", rules).output
    narrow = run("score", line, "--rules", rules, columns=60).output
    assert _too_wide(full), "the full layout fits anyway: nothing to compare"
    assert _too_wide(narrow) == []
    data = json.loads(run("score", line, "--rules", rules, "--json").output)
    for p in data["payments"]:
        assert f"{p['payer']} → {p['payee']}: {p['amount']}" in narrow
        assert p["formula"].split(" ")[0] in narrow
    for item in data["items"]:
        assert item["id"] in full and item["id"] in narrow and item["name"]["zh"] in narrow
    assert set(_facts(full)) == set(_facts(narrow))


def test_a_wide_terminal_keeps_the_full_layout() -> None:
    line = "123m456p13s777z55z 2s +from=W +closed=N"
    assert run("score", line, "--rules", "jilin", columns=200).output == run("score", line, "--rules", "jilin").output
