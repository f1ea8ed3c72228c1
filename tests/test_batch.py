"""Batch files: nothing lost, order kept, bad records reported in place, streaming, several processes."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from riichi_situations import generate
from typer.testing import CliRunner

from mjcalc.batch.lines import Record
from mjcalc.batch.readers import read_records
from mjcalc.batch.run import run
from mjcalc.batch.work import CHUNK
from mjcalc.batch.writers import ENCODERS, render_jsonl
from mjcalc.cli import app
from mjcalc.engine import Request

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"  # wherever pytest is run from

runner = CliRunner()
ENV = {"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"}

GOOD = {  # line -> expected result, points (worked out in tests/cases/changchun.yaml)
    "456p23s55z777z [123m] 1s +from=W": ("win", 4),
    "123m456p13s777z55z 2s +from=W": ("win", 16),
    "999p555s777z22z [111m] +zimo +seat=E": ("win", 48),
    "123m456m789m111z22z": ("not_a_win", None),
    "123m456p789s111z2z": ("waiting", None),
}
BROKEN = [
    "123m456p789s11111z",          # five copies
    "123m456p789s111z22x",         # not a tile
    "123m456p789s11z",             # too few tiles
    "123m456p789s111z22z +bogus",  # unknown flag
    "123m456p789s22z [124m] 1m",   # not a meld
    "123m456p789s111z22z +rules=nosuchrules",
    "[[[",
    "123m456p789s111z22z +seat=Q",
    "你好",
    "+zimo",
]


def make_file(n: int, seed: int = 7) -> tuple[str, list[str]]:
    """n lines, a tenth broken, with comments and blank lines; returns the text and each line's expected result."""
    rng = random.Random(seed)
    lines, expected = [], []
    for i in range(n):
        roll = rng.random()
        if i % 10 == 3:
            lines.append(rng.choice(BROKEN))
            expected.append("error")
        elif roll < 0.03:
            lines.append(rng.choice(["", "# a comment", "   "]))
            expected.append("skipped")
        else:
            hand = rng.choice(list(GOOD))
            lines.append(hand)
            expected.append(GOOD[hand][0])
    return "\n".join(lines) + "\n", expected


def test_every_line_gives_one_record_in_order() -> None:
    text, expected = make_file(2000)
    out: list[str] = []
    summary = run(read_records(io.StringIO(text), "lines"), Request(), render_jsonl, out.append)
    records = [json.loads(line) for line in out]
    assert len(records) == 2000
    assert [r["line"] for r in records] == list(range(1, 2001))
    assert [r["result"] for r in records] == expected
    for r in records:
        if r["result"] == "error":
            assert r["error"]["message"]
        if r["result"] == "win":
            assert r["points"] == GOOD[r["input"]][1]
    assert summary.counts["error"] == expected.count("error") == 200


def test_two_processes_give_the_same_output() -> None:
    text, _ = make_file(1500, seed=3)
    one: list[str] = []
    two: list[str] = []
    run(read_records(io.StringIO(text), "lines"), Request(), render_jsonl, one.append, jobs=1)
    run(read_records(io.StringIO(text), "lines"), Request(), render_jsonl, two.append, jobs=2)
    assert one == two


def test_streaming_keeps_a_bounded_number_of_records_in_flight() -> None:
    produced = 0
    written = 0
    worst = 0

    def records():
        nonlocal produced, worst
        for i in range(20 * CHUNK):
            produced += 1
            worst = max(worst, produced - written)
            yield Record(i + 1, "123m456p789s111z22z")

    def write(_: str) -> None:
        nonlocal written
        written += 1

    run(records(), Request(), render_jsonl, write, jobs=2)
    assert written == 20 * CHUNK
    assert worst <= (3 * 2 + 1) * CHUNK


def test_cli_batch_formats_and_exit_code(tmp_path) -> None:
    text, _expected = make_file(300, seed=11)
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["batch", str(path), "--format", "jsonl"], env=ENV)
    assert r.exit_code == 2  # some lines failed
    assert len(r.stdout.splitlines()) == 300
    r = runner.invoke(app, ["batch", str(path), "--format", "csv", "-o", str(tmp_path / "out.csv")], env=ENV)
    rows = (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("line,input,ruleset,result") and len(rows) == 301
    assert "records:" in r.stderr and "errors" in r.stderr


def test_cli_batch_all_good_exits_0(tmp_path) -> None:
    path = tmp_path / "good.txt"
    path.write_text("\n".join(GOOD) + "\n", encoding="utf-8")
    r = runner.invoke(app, ["batch", str(path)], env=ENV)
    assert r.exit_code == 0, r.output
    assert "win" in r.stdout and "not_a_win" in r.stdout


def test_the_table_shows_fu_apart_and_each_limit(tmp_path) -> None:
    """A riichi win's line: han and fu as words say them (``3 han 40 fu``), a limit named after them, and a yakuman
    hand's limit instead of its count of 13 han a yakuman (no ``26 han 0fu``)."""
    path = tmp_path / "riichi.txt"
    path.write_text("123m456p789s11z22z 2z +riichi +zimo\n"         # 3 han 40 fu
                    "22334455m667788p +riichi +zimo +dora=1m\n"     # 9 han: baiman
                    "22334466778899m +riichi +zimo +dora=1m\n"      # 14 han without a yakuman: kazoe yakuman
                    "19m19p19s1234567z1m +riichi +sticks=1\n"       # kokushi, 13-sided wait
                    "123m456p789s111z22z\n", encoding="utf-8")     # Changchun: fan, no fu
    r = runner.invoke(app, ["batch", str(path), "--rules", "riichi"], env=ENV)
    rows = r.stdout.splitlines()
    assert "    3 han 40 fu    5200  " in rows[0]
    assert "    9 han 20 fu baiman   16000  " in rows[1]
    assert "   14 han 20 fu kazoe yakuman   32000  " in rows[2]
    assert "win        double yakuman   65000  " in rows[3]
    assert not any("0fu" in row or "26 han" in row for row in rows)
    changchun = runner.invoke(app, ["batch", str(path)], env=ENV).stdout.splitlines()[4]
    assert "win          3 fan      16  " in changchun


def test_csv_jsonl_yaml_inputs(tmp_path) -> None:
    (tmp_path / "h.csv").write_text("hand,rules,base\n456p23s55z777z [123m] 1s +from=W,,2\n"
                                    "1122m3344p5566s77z,changchun-mil,\n", encoding="utf-8")
    (tmp_path / "h.jsonl").write_text('{"hand": "456p23s55z777z [123m] 1s", "from": "W"}\n{oops\n'
                                      '{"rules": "changchun"}\n', encoding="utf-8")
    (tmp_path / "h.yaml").write_text("- hand: 123m456p789s111z22z\n  zimo: true\n  seat: E\n"
                                     "- hand: 1122m3344p5566s77z\n  rules: changchun-mil\n", encoding="utf-8")
    csv_out = [json.loads(x) for x in runner.invoke(app, ["batch", str(tmp_path / "h.csv"), "--format", "jsonl"],
                                                    env=ENV).stdout.splitlines()]
    assert [(r["line"], r["points"]) for r in csv_out] == [(2, 8), (3, 40)]
    jsonl_out = [json.loads(x) for x in runner.invoke(app, ["batch", str(tmp_path / "h.jsonl"), "--format", "jsonl"],
                                                      env=ENV).stdout.splitlines()]
    assert [r["result"] for r in jsonl_out] == ["win", "error", "error"]
    assert jsonl_out[0]["points"] == 4 and "JSON" in jsonl_out[1]["error"]["message"]
    yaml_out = [json.loads(x) for x in runner.invoke(app, ["batch", str(tmp_path / "h.yaml"), "--format", "jsonl"],
                                                     env=ENV).stdout.splitlines()]
    assert [(r["line"], r["points"]) for r in yaml_out] == [(1, 48), (4, 40)]


def test_stdin(tmp_path) -> None:
    r = runner.invoke(app, ["batch", "-", "--format", "jsonl"], input="123m456p789s111z22z +zimo +seat=E\n", env=ENV)
    assert json.loads(r.stdout)["points"] == 48


@pytest.mark.parametrize(
    ("name", "args", "code"),
    [("changchun.txt", [], 0), ("changchun-mil.txt", ["--rules", "changchun-mil"], 0), ("hands.csv", [], 2),
     ("hands.jsonl", [], 2), ("hands.yaml", [], 0), ("jilin.txt", ["--rules", "jilin"], 0),
     ("meihe.txt", ["--rules", "meihe"], 0), ("riichi.txt", ["--rules", "riichi"], 0)],
)
def test_examples_run(name: str, args: list[str], code: int) -> None:
    r = runner.invoke(app, ["batch", str(EXAMPLES / name), *args], env=ENV)
    assert r.exit_code == code, (name, r.output)
    assert "Traceback" not in r.output


def test_wrong_rules_or_option_stops_before_the_file(tmp_path) -> None:
    path = tmp_path / "h.txt"
    path.write_text("123m456p789s111z22z\n", encoding="utf-8")
    r = runner.invoke(app, ["batch", str(path), "--rules", "nope"], env=ENV)
    assert r.exit_code == 3 and "unknown ruleset 'nope'" in r.output
    r = runner.invoke(app, ["check", str(path), "--set", "caps=3"], env=ENV)
    assert r.exit_code == 3 and "did you mean 'cap'" in r.output


def test_byte_order_mark_is_not_a_tile(tmp_path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeff123m456p789s111z22z +zimo\n".encode())
    r = runner.invoke(app, ["batch", str(path), "--format", "jsonl"], env=ENV)
    assert json.loads(r.stdout)["result"] == "win"


def test_json_lines_are_the_same_with_or_without_orjson(monkeypatch) -> None:
    """orjson is an optional speed-up: the standard library writes the very same line without it, and for
    what orjson refuses (a lone surrogate, an integer beyond 64 bits). The bytes the CLI writes (ENCODERS: with
    orjson a line formatted from its members' JSON, jsonl._line, the parts that repeat kept) are that text in
    UTF-8, twice over (the second time from what was kept)."""
    import mjcalc.output.jsonl as jsonl

    text, _ = make_file(300, seed=11)
    lines = [*text.splitlines(), "123m456p789s111z22z \udce9", "123m456p789s111z22z +base=99999999999999999999999",
             "123m456p789s111z22z +zimo +seat=E \u2028 \x85", "# a comment", *text.splitlines()[:50]]
    records = list(read_records(io.StringIO("\n".join(lines) + "\n"), "lines"))
    riichi = list(read_records(io.StringIO("\n".join(s.line() for s in generate(200, seed=3)) + "\n"), "lines"))
    awkward = [{"n": 2**70, "s": "\udce9 x", "z": "\u2028\x85\x00\x1f\"\\/é中"}, [1, -2, True, None, "a"]]

    def outputs() -> tuple[list[str], list[bytes], list[bytes]]:
        texts: list[str] = []
        written: list[bytes] = []
        again: list[bytes] = []
        for recs, base in ((records, Request()), (riichi, Request(rules="riichi"))):
            run(iter(recs), base, render_jsonl, texts.append)
            run(iter(recs), base, ENCODERS["jsonl"], written.append)
            run(iter(recs), base, ENCODERS["jsonl"], again.append)
        return texts, written, again

    fast, fast_bytes, fast_again = outputs()
    fast_awkward = [jsonl.json_line(x) for x in awkward]
    monkeypatch.setattr(jsonl, "_orjson", None)
    slow, slow_bytes, slow_again = outputs()
    assert fast == slow and len(slow) == len(lines) + len(riichi)
    assert fast_bytes == fast_again == slow_bytes == slow_again == [t.encode("utf-8", "backslashreplace") for t in fast]
    assert fast_awkward == [jsonl.json_line(x) for x in awkward]
    assert [json.loads(x) for x in fast_awkward] == [{**awkward[0]}, awkward[1]]
    assert all("\u2028" not in x and "\x85" not in x for x in fast)
