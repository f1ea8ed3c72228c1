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


def test_sticks_and_honba_never_read_as_han() -> None:
    """Riichi sticks are paid in from the table, apart from the hand: no han beside them at any width (the honba
    are in the payers' formulas); their count in words, singular or plural."""
    line = "234m067p78s111z99s 9s +riichi +zimo +honba=1 +sticks=1"
    for columns in (None, 40):
        out = run("score", line, "--rules", "riichi", columns=columns).output
        sticks = [ln for ln in out.splitlines() if ln.startswith("table")]
        assert len(sticks) == 1 and "han" not in sticks[0] and " 4 " not in sticks[0], out
        assert "1 riichi stick × 1000" in out and "(s)" not in out
        assert "2000 × 1 → 2000 + 100 honba" in out
    two = run("score", line.replace("+sticks=1", "+sticks=2"), "--rules", "riichi", columns=40).output
    assert "table → S: 2000\n    2 riichi sticks × 1000\n" in two
    zh = run("score", line.replace("+sticks=1", "+sticks=2"), "--rules", "riichi", "--lang", "zh").output
    assert "立直棒 2 根 × 1000" in zh


@pytest.mark.parametrize("columns", [None, 40])
def test_a_yakuman_hand_shows_its_limit_not_a_count_of_han(columns: int | None) -> None:
    """Kokushi's 13-sided wait is a double yakuman: its 26 "han" count yakuman, 13 each. The item, the hand's total and
    each payment say double yakuman; the JSON keeps its numbers."""
    line = "19m19p19s1234567z1m"
    out = run("score", line, "--rules", "riichi", columns=columns).output
    assert "+26" not in out and "han 26" not in out and "(26 han)" not in out and "  26  " not in out, out
    assert "double yakuman (every payer)" in out
    assert out.count("double yakuman") >= 3  # item, total, payment (and the note's limit)
    zh = run("score", line, "--rules", "riichi", "--lang", "zh", columns=columns).output
    assert "两倍役满 (每家)" in zh and "+26" not in zh
    data = json.loads(run("score", line, "--rules", "riichi", "--json").output)
    assert data["fan"] == 26 and data["items"][0]["value"] == 26 and data["limit"] == "double yakuman"
    single = run("score", line, "--rules", "riichi", "--set", "double_yakuman=off", columns=columns).output
    assert "yakuman (every payer)" in single and "double yakuman" not in single and "+13" not in single


def test_waits_show_fu_apart_and_a_yakuman_its_limit() -> None:
    out = run("waits", "1112345678999m", "--rules", "riichi").output  # 9-sided chuuren: a double yakuman each
    assert "double yakuman → 64000" in out and " fu" not in out and "26" not in out
    out = run("waits", "22334455m66778p +riichi", "--rules", "riichi").output
    assert "5 han 20 fu → 8000" in out and not re.search(r"\dfu", out)


HELPS = [[], ["--help"], ["score", "--help"], ["batch", "--help"], ["check", "--help"], ["waits", "--help"],
         ["serve", "--help"], ["rules"], ["rules", "--help"], ["rules", "list", "--help"], ["rules", "show", "--help"],
         ["rules", "schema", "--help"]]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rules_list_and_every_help_fit_40_columns(lang: str) -> None:
    """At COLUMNS=40 (a phone's terminal): no line longer, and no word cut short with an ellipsis (an option's
    name, a path, a Chinese sentence are folded onto the next line instead)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, **ENV, "COLUMNS": "40", "MJCALC_LANG": lang, "PYTHONPATH": str(EXAMPLES.parent)}
    for args in [*HELPS, ["rules", "list"]]:
        done = subprocess.run([sys.executable, "-m", "mjcalc", *args], env=env, capture_output=True, text=True,
                              encoding="utf-8", timeout=120)
        assert done.stdout.strip() and _too_wide(done.stdout, 40) == [], (args, done.stdout)
        assert "…" not in done.stdout, (args, done.stdout)
    listed = run("rules", "list", "--lang", lang, columns=40).output
    assert _too_wide(listed, 40) == []
    for name in ("changchun-mil", "taiwan-common", "Changchun 2024 competition rules (MIL)",
                 "Taiwan 16-tile (common values)", "长春麻将竞赛规则 2024"):
        assert name in listed, name
    assert run("rules", "list", "--lang", lang).output.splitlines()[0].startswith("id ")  # a pipe: the table


@pytest.mark.parametrize("name", ["changchun", "changchun-mil", "jilin", "meihe", "mcr", "riichi", "taiwan",
                                  "taiwan-common"])
def test_rules_show_fits_40_columns(name: str) -> None:
    for lang in ("en", "zh"):
        assert _too_wide(run("rules", "show", name, "--lang", lang, columns=40).output, 40) == [], (name, lang)
