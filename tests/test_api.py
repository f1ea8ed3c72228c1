"""The Python API (mjcalc.api) against the command line: on every built-in ruleset each function's dict, dumped
as the CLI dumps it, is the CLI's JSON output byte for byte; score_many gives one record per input record, as
``batch --format jsonl`` does; the exceptions a caller can meet."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from api_samples import cli, sample, set_args

import mjcalc
from mjcalc.support.builtin import builtin_names

ROOT = Path(__file__).parent.parent
QUICK = "123m456p789s111z22z +zimo +seat=E"
SAMPLE = sample(4, 0, 4)


def test_the_sample_covers_every_builtin_ruleset() -> None:
    assert {rules for rules, _, _ in SAMPLE} >= set(builtin_names())


@pytest.mark.parametrize(("rules", "line", "options"), SAMPLE, ids=[f"{r}:{ln[:40]}" for r, ln, _ in SAMPLE])
def test_score_is_score_json_byte_for_byte(rules: str, line: str, options: dict[str, Any]) -> None:
    r = cli("score", line, "--json", "--rules", rules, *set_args(options))
    if r.exit_code == 3:  # a wrong option: the CLI says so and stops, the API raises
        with pytest.raises(mjcalc.RulesetError):
            mjcalc.score(line, rules, options)
        return
    got = mjcalc.score(line, rules, options)
    assert json.dumps(got, ensure_ascii=False, indent=2) + "\n" == r.stdout


@pytest.mark.parametrize("rules", ["changchun", "riichi", "mcr"])
def test_score_in_chinese_is_score_json_lang_zh(rules: str) -> None:
    line = next(ln for r, ln, _ in SAMPLE if r == rules)
    for text in (line, "123m456p789s11z22z"):  # a win or not, and a line that is not a hand
        r = cli("score", text, "--json", "--rules", rules, "--lang", "zh")
        assert json.dumps(mjcalc.score(text, rules, lang="zh"), ensure_ascii=False, indent=2) + "\n" == r.stdout


BAD_LINES = [
    QUICK,
    "123m456p789s111z2z",  # a tile short: waiting
    "123m456p789s111z2x",  # not notation
    "",  # blank: skipped
    "# a comment",
    "123m456p789s111z22z +rules=nosuch",  # a ruleset the line names: its error record
    '{"hand": "123m"}',  # JSON in a text file
    "999p555s777z22z [111m] +zimo +seat=E",
    "123m456p789s111z22z +seat=Q",  # a bad context flag
    "1122m3344p5566s77z +rules=changchun-mil",
    "123m456p789s111z22z 22z 33z",
]


def test_score_many_is_batch_jsonl_record_for_record(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text("\n".join(BAD_LINES) + "\n", encoding="utf-8")
    r = cli("batch", str(path), "--format", "jsonl")
    got = list(mjcalc.score_many(BAD_LINES))
    assert got == [json.loads(line) for line in r.stdout.splitlines()]
    assert len(got) == len(BAD_LINES)
    kinds = [x["result"] for x in got]
    assert kinds.count("skipped") == 2 and kinds.count("error") >= 4 and {"win", "waiting"} <= set(kinds)


def test_score_many_reads_mappings_as_batch_reads_jsonl() -> None:
    path = ROOT / "examples" / "hands.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    records: list[Any] = []
    for ln in lines:
        try:
            records.append(json.loads(ln))
        except ValueError:
            records.append(None)  # not JSON: the API cannot be given it, so it is left out below
    r = cli("batch", str(path), "--format", "jsonl", "--rules", "changchun")
    expected = r.stdout.splitlines()
    assert len(expected) == len(lines)
    for i, record in enumerate(records):
        if record is None or not isinstance(record, dict):
            continue
        [got] = mjcalc.score_many([record])
        got["line"] = i + 1  # its position in the file, not in this one-record list
        assert got == json.loads(expected[i])


def test_score_many_with_workers_keeps_order_and_every_record() -> None:
    records = BAD_LINES * 40
    one = list(mjcalc.score_many(records))
    two = list(mjcalc.score_many(iter(records), jobs=2))
    assert len(one) == len(records) and one == two
    assert [x["line"] for x in two] == list(range(1, len(records) + 1))


def test_score_many_stops_when_the_caller_does() -> None:
    def endless():
        while True:
            yield QUICK

    rows = mjcalc.score_many(endless(), jobs=2)
    first = [next(rows) for _ in range(3)]
    rows.close()  # the workers are ended; nothing hangs
    assert [x["points"] for x in first] == [48, 48, 48]
    # ... not even the interpreter's exit, which joins every executor thread left running (a pool thread
    # blocked on a worker ended mid-message once hung the whole test run at its end)
    left = [t for t in threading.enumerate() if "Executor" in type(t).__name__ and t.is_alive()]
    assert left == []


def test_a_bad_record_is_an_error_record_never_an_exception() -> None:
    rows = list(mjcalc.score_many([{"hand": 5}, {"nohand": "x"}, 7, {"hand": QUICK, "set": {"cap": "x"}},
                                   {"hand": QUICK, "rules": "nosuch"}]))
    assert [x["result"] for x in rows] == ["error"] * 5
    assert all(x["error"]["message"] for x in rows)
    assert mjcalc.score("1z" * 40)["result"] == "error"


def test_waits_is_waits_json() -> None:
    for rules, line in (("changchun", "123m456p789s111z2z"), ("riichi", "123m456p789s11z23m"),
                        ("mcr", "123m456p789s1z23m"), ("changchun", "1357m2468p19s1z")):
        r = cli("waits", line, "--json", "--rules", rules)
        assert json.dumps(mjcalc.waits(line, rules), ensure_ascii=False, indent=2) + "\n" == r.stdout


@pytest.mark.parametrize("name", [n for n in builtin_names() if (ROOT / "examples" / f"{n}-homework.txt").exists()])
def test_check_is_check_json_record_by_record(name: str) -> None:
    path = ROOT / "examples" / f"{name}-homework.txt"
    r = cli("check", str(path), "--json", "--rules", name)
    expected = [json.loads(x) for x in r.stdout.splitlines()]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert expected
    for want in expected:
        got = mjcalc.check(lines[want["line"] - 1], rules=name)
        got["line"] = want["line"]
        assert json.dumps(got, ensure_ascii=False) == json.dumps(want, ensure_ascii=False)


def test_check_takes_the_answer_apart_or_in_the_line() -> None:
    assert mjcalc.check(QUICK, "fan 5 points 48")["correct"] is True
    assert mjcalc.check(QUICK, {"fan": 5, "points": 48})["correct"] is True
    assert mjcalc.check(QUICK + " => fan 4")["correct"] is False
    no_answer = mjcalc.check(QUICK)
    assert no_answer["correct"] is None and "no answer" in no_answer["error"]


def test_rulesets_are_rules_show_json() -> None:
    got = mjcalc.rulesets()
    listed = json.loads(cli("rules", "list", "--json").stdout)
    assert list(got) == [r["id"] for r in listed] == builtin_names()
    for entry in listed:
        show = json.loads(cli("rules", "show", entry["id"], "--json").stdout)
        assert got[entry["id"]] == show
        assert {k: got[entry["id"]][k] for k in ("id", "names", "unit", "description")} == entry


@pytest.mark.parametrize("call", [
    lambda: mjcalc.score(QUICK, rules="nosuch"),
    lambda: mjcalc.score(QUICK, options={"nosuch": 1}),
    lambda: mjcalc.score(QUICK, options={"cap": "lots"}),
    lambda: mjcalc.score(QUICK, options={"base": True}),  # true is on, no number
    lambda: mjcalc.score_many([QUICK], rules="nosuch"),  # raised at the call, before any record
    lambda: mjcalc.waits("123m456p789s111z2z", rules="/nonexistent/house.yaml"),
    lambda: mjcalc.check(QUICK, "fan 5", rules="riichi", options={"cap": 1}),
])
def test_a_bad_ruleset_or_option_raises_ruleset_error(call: Any) -> None:
    with pytest.raises(mjcalc.RulesetError) as info:
        call()
    assert isinstance(info.value, mjcalc.MjcalcError) and isinstance(info.value, ValueError)
    assert info.value.kind == "ruleset" and info.value.message


def test_wrong_arguments_raise_the_usual_python_errors() -> None:
    with pytest.raises(ValueError, match="lang"):
        mjcalc.score(QUICK, lang="fr")
    with pytest.raises(ValueError, match="jobs"):
        mjcalc.score_many([QUICK], jobs=0)
    with pytest.raises(TypeError):
        mjcalc.score(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        mjcalc.score_many(QUICK)  # one line is not a list of lines


def test_import_mjcalc_imports_no_engine() -> None:
    code = "import sys, mjcalc; print([m for m in ('mjcalc.engine', 'mjcalc.batch', 'yaml') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out
