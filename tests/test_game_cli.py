"""`mjcalc game …`: every command, the forms scripts rely on (verbatim), round trips text → SQLite → text and JSON,
the refusal of a --hand another writer took, undo with --hand, errors (a caret, exit 2; the database, exit 3),
Chinese, a narrow terminal, and the SVG picture."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mjcalc.cli import app
from mjcalc.game import Game

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "GAME.md").read_text(encoding="utf-8")
RECORD = re.search(r"```record\n(.*?)```", DOC, re.S).group(1)  # type: ignore[union-attr]
H = "123m456p789s111z 22z"  # a changchun win (tests/games/changchun.yaml)


def cli(db: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, ["game", *args], env={"MJCALC_DB": str(db), "MJCALC_LANG": "", "COLUMNS": "",
                                                         **(env or {})})


def run(db: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A whole process, as a script runs it."""
    full = {**os.environ, "MJCALC_DB": str(db), **(env or {})}
    full.pop("MJCALC_LANG", None)
    return subprocess.run([sys.executable, "-m", "mjcalc", *args], capture_output=True, text=True, env=full,
                          timeout=120)


def sheet(db: Path, name: str) -> dict[str, Any]:
    r = cli(db, "show", name, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)  # type: ignore[no-any-return]


def record_game(db: Path, name: str = "doc") -> None:
    """docs/GAME.md's worked game, added a line at a time."""
    lines = [line for line in RECORD.splitlines() if line.strip()]
    words = lines[0].split()
    assert cli(db, "new", name, "--rules", words[1], "--players", ",".join(words[2:6])).exit_code == 0
    for line in lines[1:]:
        r = cli(db, "add", name, line)
        assert r.exit_code == 0, r.output


# --- the forms scripts rely on, verbatim ---------------------------------------------------------------------

def test_the_forms_scripts_rely_on(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    other = tmp_path / "elsewhere.db"
    r = run(other, "game", "new", "g1", "--rules", "riichi-tenhou", "--players", "A,B,C,D", "--set", "length=tonpuu",
            "--dealer", "B", "--db", str(db))
    assert r.returncode == 0, r.stderr
    assert not other.exists()  # --db wins over MJCALC_DB
    r = run(other, "game", "add", "g1", "C ron D 123m456p789s777z 66z +dora=6z", "--hand", "1", "--db", str(db))
    assert r.returncode == 0, r.stderr
    r = run(other, "game", "add", "g1", '{"draw": {"ready": ["B"]}}', "--hand", "2", "--db", str(db))
    assert r.returncode == 0, r.stderr
    r = run(other, "game", "show", "g1", "--json", "--db", str(db))
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    assert got["players"] == ["B", "C", "D", "A"]  # B deals first: the seats turned to start with B
    assert got["options"] == {"length": "tonpuu"}
    assert [h["changes"] for h in got["hands"]] == [[0, 8000, -8000, 0], [3000, -1000, -1000, -1000]]
    assert got["final"]["next"]["label"] == "东3局 1本场"  # C won, then C was not ready: D deals
    # MJCALC_DB when --db is not given
    assert run(db, "game", "show", "g1").returncode == 0
    assert run(db, "game", "undo", "g1", "--hand", "2").returncode == 0


def test_dealer_random_draws_one_of_the_players(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    firsts = set()
    for i in range(12):
        r = cli(db, "new", f"g{i}", "--rules", "changchun", "--players", "A,B,C,D", "--dealer", "random")
        assert r.exit_code == 0
        players = sheet(db, f"g{i}")["players"]
        assert players in (["A", "B", "C", "D"], ["B", "C", "D", "A"], ["C", "D", "A", "B"], ["D", "A", "B", "C"])
        firsts.add(players[0])
    assert len(firsts) > 1


# --- add, undo, the refusals ---------------------------------------------------------------------------------

def test_add_text_and_json_and_what_it_says(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert cli(db, "new", "cc", "--rules", "changchun", "--players", "A,B,C,D").exit_code == 0
    r = cli(db, "add", "cc", "B", "ron", "C", *H.split())  # the words joined, as score joins them
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == "added hand 1 · 东风圈 第1盘 · B ron C · 3 fan · 16"
    assert "  B  +16  16" in r.stdout and "next: hand 2 · 东风圈 第2盘 · dealer B" in r.stdout
    r = cli(db, "add", "cc", json.dumps({"win": [{"winner": "B", "hand": H}]}), "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["final"]["scores"] == [-20, 64, -24, -20] and len(got["hands"]) == 2


def test_a_hand_another_writer_took_is_refused_and_nothing_is_added(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    cli(db, "new", "cc", "--rules", "changchun", "--players", "A,B,C,D")
    assert cli(db, "add", "cc", f"B ron C {H}", "--hand", "1").exit_code == 0
    r = cli(db, "add", "cc", f"D ron A {H}", "--hand", "1")  # the other person's hand 1, too late
    assert r.exit_code == 2
    assert "refused: the next result is hand 2, not hand 1" in r.stderr and "nothing was added" in r.stderr
    assert len(sheet(db, "cc")["hands"]) == 1
    assert cli(db, "add", "cc", f"D ron A {H}", "--hand", "2").exit_code == 0
    # a penalty does not end its hand: it shares the next hand's number
    assert cli(db, "add", "cc", "penalty A 5 B", "--hand", "3").exit_code == 0
    assert cli(db, "add", "cc", f"A tsumo {H}", "--hand", "3").exit_code == 0
    assert [h["number"] for h in sheet(db, "cc")["hands"]] == [1, 2, 3, 3]


def test_undo_takes_back_the_last_and_checks_hand(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    cli(db, "new", "cc", "--rules", "changchun", "--players", "A,B,C,D")
    for line in (f"B ron C {H}", "draw", f"C ron B {H}"):
        cli(db, "add", "cc", line)
    r = cli(db, "undo", "cc", "--hand", "2")
    assert r.exit_code == 2 and "refused: the last result is hand 3, not hand 2" in r.stderr
    assert len(sheet(db, "cc")["hands"]) == 3
    r = cli(db, "undo", "cc", "--hand", "3")
    assert r.exit_code == 0 and r.stdout.startswith("undone hand 3 · 东风圈 第3盘 · C ron B")
    assert "next: hand 3" in r.stdout
    assert cli(db, "undo", "cc").exit_code == 0 and cli(db, "undo", "cc").exit_code == 0
    r = cli(db, "undo", "cc")
    assert r.exit_code == 2 and "no result to undo" in r.stderr


def test_a_bad_result_says_what_and_where_and_adds_nothing(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    cli(db, "new", "r", "--rules", "riichi", "--players", "A,B,C,D")
    r = run(db, "game", "add", "r", "B ron X 123m456p789s111z 22z")
    assert r.returncode == 2
    assert r.stderr.splitlines() == ["mjcalc: ron: from whom: 'X' is not a player: A, B, C, D, or a seat wind "
                                     "(E S W N, 东南西北) this hand, or 庄 the dealer",
                                     "  B ron X 123m456p789s111z 22z", "        ^"]
    r = cli(db, "add", "r", "B ron C 123m456p789s111z 2z")  # one tile short
    assert r.exit_code == 2 and "one tile short" in r.stderr and "^" in r.stderr
    r = cli(db, "add", "r", '{"win": [{"winner": "Q", "hand": "x"}]}')
    assert r.exit_code == 2 and "'Q' is not one of the players" in r.stderr
    assert sheet(db, "r")["hands"] == []


def test_a_result_after_the_end_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    cli(db, "new", "cc", "--rules", "changchun", "--players", "A,B,C,D", "--set", "hands=1")
    cli(db, "add", "cc", f"B ron C {H}")
    r = cli(db, "add", "cc", "draw")
    assert r.exit_code == 2 and "ended" in r.stderr
    r = cli(db, "add", "cc", "draw", "--hand", "2")
    assert r.exit_code == 2 and "the game has ended" in r.stderr


def test_new_refuses_what_it_cannot_start(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert cli(db, "new", "g", "--rules", "changchun", "--players", "A,B,C,D").exit_code == 0
    r = cli(db, "new", "g", "--rules", "changchun", "--players", "A,B,C,D")
    assert r.exit_code == 2 and "already kept" in r.stderr
    r = cli(db, "new", "h", "--rules", "changchun", "--players", "A,B,C")
    assert r.exit_code == 2 and "four players" in r.stderr
    r = cli(db, "new", "h", "--rules", "nosuch", "--players", "A,B,C,D")
    assert r.exit_code == 3 and "nosuch" in r.stderr
    r = cli(db, "new", "h", "--rules", "changchun", "--players", "A,B,C,D", "--set", "nosuch=1")
    assert r.exit_code == 3
    r = cli(db, "new", "h", "--rules", "changchun", "--players", "A,B,C,D", "--dealer", "Z")
    assert r.exit_code == 2 and "'Z' is not one of the players" in r.stderr
    r = cli(db, "new", " ", "--rules", "changchun", "--players", "A,B,C,D")
    assert r.exit_code == 2 and "name" in r.stderr
    r = cli(db, "show", "nosuch")
    assert r.exit_code == 2 and "no game named 'nosuch'" in r.stderr and "g" in r.stderr


def test_a_ruleset_file_is_kept_by_its_full_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "house.yaml").write_text("extends: changchun\nid: house\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "g.db"
    r = cli(db, "new", "h", "--rules", "house.yaml", "--players", "A,B,C,D")
    assert r.exit_code == 0, r.output
    monkeypatch.chdir(ROOT)
    assert cli(db, "add", "h", f"B ron C {H}").exit_code == 0
    assert str(tmp_path / "house.yaml") in cli(db, "export", "h").stdout


# --- show, list, export, players, replay ---------------------------------------------------------------------

def test_show_is_the_sheet_and_agrees_with_the_engine(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    record_game(db)
    got = sheet(db, "doc")
    assert got == json.loads(Game.from_record(RECORD, errors="raise").sheet().json_bytes())
    text = cli(db, "show", "doc").stdout
    for shown in ("doc · riichi-tenhou · A, B, C, D (A deals first)", "东3局 3本场", "B ron C · 5 han 50 fu · mangan",
                  "C ron A", "D ron A", "draw · ready A C · riichi C", "abort: four winds", "B false win · redealt",
                  "penalty B 1000 → table", "standing:", "1. C  38200",
                  "next: hand 8 · 东3局 4本场 · dealer C", "honba 4", "table 0"):
        assert shown in text, shown
    row = next(line for line in text.splitlines() if line.startswith("2  东2局"))
    assert row.split()[-8:] == ["+2000", "27000", "-1000", "33000", "-500", "16500", "-500", "23500"]
    chart = text.split("\n\n")[-1].splitlines()
    assert chart[0].split() == ["15900", "…", "38200"] and len(chart) == 5 and chart[3].startswith("  C  ")


def test_an_ended_game_shows_its_ranking_with_points(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    cli(db, "new", "bust", "--rules", "riichi-tenhou", "--players", "A,B,C,D", "--set", "start=5000")
    r = cli(db, "add", "bust", "B ron C 123m456p789s777z 66z +dora=6z")
    assert r.exit_code == 0 and "the game has ended: a score below zero" in r.stdout
    text = cli(db, "show", "bust").stdout
    assert "final ranking:" in text and "1. B  13000" in text and "next:" not in text
    assert sheet(db, "bust")["final"]["points"] is not None


def test_list(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    r = cli(db, "list")
    assert r.exit_code == 0 and "no game kept in" in r.stdout and not db.exists()
    record_game(db, "doc")
    cli(db, "new", "cc", "--rules", "changchun", "--players", "W,X,Y,Z")
    lines = cli(db, "list").stdout.splitlines()
    assert lines[0].startswith("doc · riichi-tenhou · A, B, C, D · 7 hands · next 东3局 4本场 · 20")
    assert lines[1].startswith("cc · changchun · W, X, Y, Z · 0 hands · next 东风圈 第1盘")
    rows = json.loads(cli(db, "list", "--json").stdout)
    assert [(r["name"], r["results"], r["hands"], r["ended"]) for r in rows] == [("doc", 8, 7, False),
                                                                                 ("cc", 0, 0, False)]


def test_export_round_trips_text_and_json_lines(tmp_path: Path) -> None:
    """text → SQLite → text: the record as written (each line in its written-back form); JSON Lines likewise; each
    export replays to the same sheet as show."""
    db = tmp_path / "g.db"
    record_game(db)
    text = cli(db, "export", "doc").stdout
    assert text == Game.from_record(RECORD, errors="raise").to_text()
    assert text.splitlines()[1:] == [line for line in RECORD.splitlines()[1:] if line.strip()]
    jsonl = cli(db, "export", "doc", "--format", "jsonl").stdout
    assert json.loads(jsonl.splitlines()[0]) == {"game": {"players": ["A", "B", "C", "D"], "rules": "riichi-tenhou",
                                                          "set": {}}}
    shown = sheet(db, "doc")
    for fmt, data in (("txt", text), ("jsonl", jsonl)):
        path = tmp_path / f"doc.{fmt}"
        path.write_text(data, encoding="utf-8")
        r = cli(db, "replay", str(path), "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout) == shown
        # and back into the database: a new game from the export, result by result, gives the same sheet
        lines = data.splitlines()
        header = Game.from_record(lines[:1]).header
        cli(db, "new", f"again-{fmt}", "--rules", header.rules, "--players", ",".join(header.players))
        for line in lines[1:]:
            assert cli(db, "add", f"again-{fmt}", line).exit_code == 0
        assert sheet(db, f"again-{fmt}") == shown
    out = tmp_path / "out.txt"
    assert cli(db, "export", "doc", "-o", str(out)).exit_code == 0 and out.read_text(encoding="utf-8") == text
    r = cli(db, "export", "doc", "--format", "xml")
    assert r.exit_code == 3 and "text, jsonl, csv or tenhou-json" in r.stderr


def test_export_csv_is_the_sheet(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    record_game(db)
    rows = list(csv.reader(io.StringIO(cli(db, "export", "doc", "--format", "csv").stdout)))
    assert rows[0][:8] == ["number", "label", "round", "dealer", "honba", "table", "result", "words"]
    assert rows[0][8:] == ["A change", "B change", "C change", "D change", "A score", "B score", "C score", "D score"]
    assert rows[1][:7] == ["1", "东1局", "E", "A", "0", "0", "win"]
    assert rows[1][8:] == ["0", "9000", "-8000", "-1000", "25000", "34000", "17000", "24000"]
    assert len(rows) == 1 + 8 + 1 and rows[-1][1] == "final" and rows[-1][-4:] == ["15900", "18200", "38200", "27700"]


def test_players_totals_and_grades(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    cli(db, "new", "c1", "--rules", "changchun", "--players", "A,B,C,D")
    cli(db, "new", "c2", "--rules", "changchun", "--players", "B,A,C,E")
    cli(db, "add", "c1", f"B ron C {H}")  # B +16
    cli(db, "add", "c2", f"B tsumo {H}")  # B deals in c2: +48
    record_game(db)
    rows = json.loads(cli(db, "players", "--json").stdout)
    b = next(r for r in rows if r["player"] == "B" and r["rules"] == "changchun")
    assert (b["games"], b["total"], b["first"]) == (2, 64, 2)
    assert b["grade"] == {"zh": "白板", "en": b["grade"]["en"]}
    c = next(r for r in rows if r["player"] == "C" and r["rules"] == "riichi-tenhou")
    assert c["total"] == 38200 - 25000 and c["points"] is None and c["grade"] is None  # not ended: no points
    text = cli(db, "players").stdout
    assert "changchun:" in text and "riichi-tenhou:" in text
    assert re.search(r"B\s+\+64  2 games  2 first  White", text)
    assert "白板" in cli(db, "players", "--lang", "zh").stdout


def test_replay_several_games_and_bad_lines(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    path = tmp_path / "games.txt"
    path.write_text(RECORD + "game changchun A B C D\nB ron C " + H + "\nB ron X " + H + "\ndraw\n", encoding="utf-8")
    r = cli(db, "replay", str(path), "--json")
    assert r.exit_code == 2
    sheets = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(sheets) == 2 and len(sheets[1]["hands"]) == 2
    bad = len(RECORD.splitlines()) + 3
    assert r.stderr.startswith(f"{path}:{bad}: ron: from whom: 'X' is not a player")
    r = cli(db, "replay", str(path))
    assert r.exit_code == 2 and f"{path}, game 2" in r.stdout and "东风圈 第2盘" in r.stdout
    r = cli(db, "replay", str(tmp_path / "missing.txt"), str(path), "--json")
    assert r.exit_code == 2 and "missing.txt" in r.stderr and len(r.stdout.splitlines()) == 2


# --- the database's problems: exit 3, a message, no traceback ------------------------------------------------

def test_a_corrupt_or_foreign_database_is_exit_three(tmp_path: Path) -> None:
    import sqlite3

    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database at all" * 100)
    foreign = tmp_path / "foreign.db"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    for path in (junk, foreign):
        for args in (["game", "show", "g"], ["game", "new", "g", "--rules", "changchun", "--players", "A,B,C,D"],
                     ["game", "list", "--json"]):
            r = run(path, *args)
            assert r.returncode == 3 and "Traceback" not in r.stderr, r.stderr
            assert r.stderr.startswith(f"mjcalc: {path} ") and r.stdout == ""


# --- Chinese; a narrow terminal; the picture -----------------------------------------------------------------

def test_chinese(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    record_game(db)
    text = cli(db, "show", "doc", "--lang", "zh").stdout
    for shown in ("A 先坐庄", "B 和 C · 5 翻 50 符 · 满贯", "荒庄 · 听牌 A C · 立直 C", "途中流局：四风连打", "B 诈和",
                  "罚 B 1000 → 场供", "目前排名", "下一盘：第8盘 · 东3局 4本场 · 庄家 C"):
        assert shown in text, shown
    from test_i18n import ENGLISH  # the catalog's English prose, none of which may show in Chinese output

    for args in (["show", "doc"], ["list"], ["players"], ["undo", "doc"], ["add", "doc", "penalty B 1000 table"]):
        shown = cli(db, *args, "--lang", "zh").stdout
        assert not [s for s in ENGLISH if s in shown], (args, shown)
    r = cli(db, "add", "doc", "draw", "--hand", "3", "--lang", "zh")
    assert r.exit_code == 2 and "拒绝" in r.stderr
    r = cli(db, "show", "nosuch", "--lang", "zh")
    assert r.exit_code == 2 and "没有名为" in r.stderr


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_narrow_terminal(tmp_path: Path, lang: str) -> None:
    from mjcalc.output.fit import cols

    db = tmp_path / "g.db"
    record_game(db)
    for args in (["show", "doc"], ["list"], ["players"], ["add", "doc", "draw", "ready", "C"], ["undo", "doc"]):
        r = cli(db, *args, "--lang", lang, env={"COLUMNS": "40"})
        assert r.exit_code == 0, r.output
        wide = [line for line in r.stdout.splitlines() if cols(line) > 40]
        assert not wide, "\n".join(wide)
        # the next hand's line breaks between its parts, never between a key and its value
    r = cli(db, "show", "doc", env={"COLUMNS": "40"})
    assert re.search(r"\n  B +\+9000  34000\n", r.stdout)  # a player a line
    r = cli(db, "show", "doc", env={"COLUMNS": "80"})
    assert max(cols(line) for line in r.stdout.splitlines()) <= 80


def test_a_winning_line_names_no_ruleset(tmp_path: Path) -> None:
    """A game's hands are scored under the game's ruleset: a line naming another, or a file, is refused with a
    caret before the file is read."""
    db = tmp_path / "g.db"
    house = tmp_path / "house.yaml"
    house.write_text("secret: 12345\n", encoding="utf-8")
    assert cli(db, "new", "g", "--players", "A,B,C,D").exit_code == 0
    for line in (f"B ron C 123m456p789s111z22z +rules={house}", "B ron C 123m456p789s111z22z ＋规则=riichi"):
        r = cli(db, "add", "g", line)
        assert r.exit_code == 2 and "(+rules)" in r.stderr and "12345" not in r.output, r.output
        assert r.stderr.splitlines()[-1].strip() == "^"
    r = cli(db, "add", "g", "B ron C 123m456p789s111z22z")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_next_hand_breaks_between_its_parts(lang: str) -> None:
    """At any width the line ``next: hand 3 · 东3局 1本场 · dealer C · …`` breaks at a ``·``, never inside
    ``streak 0``, and no line is wider than the width."""
    from mjcalc.game.render import next_lines
    from mjcalc.output.fit import cols

    nxt = {"number": 3, "label": "东3局 1本场", "dealer": 2, "round": "E", "honba": 1, "table": 1000, "lian": 0}
    for width in range(30, 90):
        lines = next_lines(nxt, ["A", "B", "C", "D"], lang, width)
        assert all(cols(line) <= width for line in lines), (width, lines)
        assert all(re.search(r"^(next|下一盘|  \S).*(·|\d|[A-Z东南西北]|本场)$", line) for line in lines), (width, lines)


def test_the_svg_picture(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    record_game(db)
    svg = tmp_path / "doc.svg"
    r = cli(db, "show", "doc", "--svg", str(svg))
    assert r.exit_code == 0 and svg.is_file()
    root = ET.parse(svg).getroot()  # well-formed
    ns = {"s": "http://www.w3.org/2000/svg"}
    lines = root.findall(".//s:g[@class='player']/s:polyline", ns)
    assert len(lines) == 4 and len({line.get("stroke") for line in lines}) == 4
    assert all(len(line.get("points", "").split()) == 1 + 8 for line in lines)  # the start, then each entry
    texts = ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]
    legend = ["".join(t.itertext()) for t in root.findall(".//s:g[@class='legend']/s:text", ns)]
    assert legend == ["A", "B", "C", "D"]
    for label in ("1 东1局", "4 东3局 1本场", "7 东3局 3本场", "start", "25000"):
        assert label in texts, label
    assert root.find(".//s:line[@class='start-line']", ns) is not None
    r = cli(db, "show", "doc", "--svg", str(tmp_path / "no" / "such" / "x.svg"))
    assert r.exit_code == 3 and "cannot write" in r.stderr


def test_a_long_game_picture_thins_its_labels(tmp_path: Path) -> None:
    from mjcalc.game.chart import MAX_LABELS, sheet_svg

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_game_cli import changchun_game
    finally:
        sys.path.pop(0)
    game = Game.new(["A", "B", "C", "D"], "changchun")
    for result in changchun_game(120, 2):
        game.add(result)
    root = ET.fromstring(sheet_svg("long", game.sheet()))
    labels = root.findall(".//{http://www.w3.org/2000/svg}g[@class='x-axis']/{http://www.w3.org/2000/svg}text")
    assert MAX_LABELS // 2 <= len(labels) <= MAX_LABELS + 1


def test_the_readme_game(tmp_path: Path) -> None:
    """README's "A whole game": its commands run, and the sheet shown is what `game show` prints (80 columns)."""
    import shlex

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index("## A whole game"):]
    found = re.search(r"```sh\n(.*?)```\n\n```\n(.*?)```", part, re.S)
    assert found
    commands, shown = found.groups()
    db = tmp_path / "g.db"
    out = ""
    for line in commands.splitlines():
        args = shlex.split(line, comments=True)
        assert args[:2] == ["mjcalc", "game"], line
        r = cli(db, *args[2:], env={"COLUMNS": "80"})
        assert r.exit_code == 0, r.output
        out = r.stdout
    assert out == shown


def test_a_game_whose_ruleset_file_is_gone(tmp_path: Path) -> None:
    """The game's own commands say so (exit 3); list and players report it and go on with the others."""
    house = tmp_path / "house.yaml"
    house.write_text("extends: changchun\nid: house\n", encoding="utf-8")
    db = tmp_path / "g.db"
    assert cli(db, "new", "h", "--rules", str(house), "--players", "A,B,C,D").exit_code == 0
    assert cli(db, "new", "cc", "--rules", "changchun", "--players", "A,B,C,D").exit_code == 0
    house.unlink()
    r = run(db, "game", "show", "h")  # a process of its own: the ruleset is not read already
    assert r.returncode == 3 and "house.yaml" in r.stderr and "Traceback" not in r.stderr
    for command in ("list", "players"):
        r = run(db, "game", command, "--json")
        assert r.returncode == 3 and "game h:" in r.stderr
        assert "cc" in r.stdout or command == "players"


def test_why_a_game_ended_in_chinese(tmp_path: Path) -> None:
    """The engine's reasons, as the sheet shows them in Chinese (a reason the renderer did not know would stay
    English: this test shows each it knows still matches)."""
    db = tmp_path / "g.db"
    cli(db, "new", "bust", "--rules", "riichi-tenhou", "--players", "A,B,C,D", "--set", "start=5000")
    cli(db, "new", "two", "--rules", "changchun", "--players", "A,B,C,D", "--set", "hands=2")
    cli(db, "new", "round", "--rules", "changchun", "--players", "A,B,C,D", "--set", "rounds=1")
    cli(db, "add", "bust", "B ron C 123m456p789s777z 66z +dora=6z")
    for _ in range(2):
        cli(db, "add", "two", f"B ron C {H}")
    for winner in "BCDA":  # each deals once, and loses the deal to the next
        cli(db, "add", "round", f"{winner} ron {'ABCD'['ABCD'.index(winner) - 1]} {H}")
    for name, reason in (("bust", "有人分数低于零"), ("two", "已打满 2 盘"), ("round", "最后一圈已打完")):
        shown = cli(db, "show", name, "--lang", "zh").stdout
        assert f"对局已结束：{reason}" in shown, shown


def test_add_to_a_missing_database_makes_no_file(tmp_path: Path) -> None:
    db = tmp_path / "none.db"
    for args in (["add", "g", "draw"], ["undo", "g"], ["show", "g"], ["export", "g"]):
        r = cli(db, *args)
        assert r.exit_code == 2 and "no game named 'g'" in r.stderr
    assert not db.exists()
