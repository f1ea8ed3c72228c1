"""Lines a careless or hostile user types: full-width forms, other scripts' digits, control characters, bytes
that are not UTF-8, huge numbers and huge lines. Each is read as the ASCII it stands for, or refused as a
notation or context error at the column of the line as typed (never an exception), and echoed printably."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjcalc.cli import app
from mjcalc.core.normalise import normalise
from mjcalc.core.notation import MAX_LINE
from mjcalc.engine import Request, score_line
from mjcalc.errors import printable
from mjcalc.output.record import to_json
from mjcalc.output.table import to_text

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args), env={"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"})


# Full-width (what a Chinese or Japanese input method types) and other compatibility forms read as the line
# they stand for: (typed, ruleset, the same line in ASCII).
SAME_AS = [
    ("１２３ｍ４５６ｐ７８９ｓ１１１ｚ２２ｚ", "changchun", "123m456p789s111z22z"),
    ("１２３ｍ４５６ｐ７８９ｓ１１１ｚ２２ｚ　＋ｚｉｍｏ＋ｓｅａｔ＝Ｅ", "changchun", "123m456p789s111z22z +zimo+seat=E"),
    ("２３ｍ４５６ｐ７８９ｓ２２ｚ　［１１１ｚ］　１ｍ", "changchun", "23m456p789s22z [111z] 1m"),
    ("４５ｐ７８９ｓ２２ｚ （１１１１ｍ） ［７７７７ｚ］ ３ｐ", "changchun", "45p789s22z (1111m) [7777z] 3p"),
    ("１２３ｍ４５６ｐ７８ｓ９９ｓ　｛１２３４ｚ｝　９ｓ", "changchun", "123m456p78s99s {1234z} 9s"),
    ("123m456p13s777z55z 2s +from=W +closed=Ｗ，Ｎ", "jilin", "123m456p13s777z55z 2s +from=W +closed=W,N"),
    ("123m456p13s777z55z 2s +from=W +closed＝Ｎ，Ｅ", "jilin", "123m456p13s777z55z 2s +from=W +closed=N,E"),
    ("111m999p3s22z7z5m5m5m5m +zimo +hui=５ｍ", "meihe", "111m999p3s22z7z5m5m5m5m +zimo +hui=5m"),
    ("111m999p3s22z7z5m5m5m5m +zimo +flip=４ｍ", "meihe", "111m999p3s22z7z5m5m5m5m +zimo +flip=4m"),
    ("123m456p789s23s55p 1s +riichi +dora=１ｍ +ura=４ｐ +honba=２ +sticks=１", "riichi",
     "123m456p789s23s55p 1s +riichi +dora=1m +ura=4p +honba=2 +sticks=1"),
    ("𝟏𝟐𝟑m456p789s111z22z", "changchun", "123m456p789s111z22z"),  # mathematical bold digits
    ("123m456p789s111z22z +base=２", "changchun", "123m456p789s111z22z +base=2"),
    ("［１１１１ｓ，１］［２２２２ｍ，２］［３３３３ｐ，７］［４４４４ｐ］８８ｓ｜ＥＥ００００｜２", "changchun",
     "[1111s,1][2222m,2][3333p,7][4444p]88s|EE0000|2"),
    ("1234m [5555m] 789s111z2z +win=１ｍ", "changchun", "1234m [5555m] 789s111z2z +win=1m"),
]


@pytest.mark.parametrize(("typed", "rules", "ascii"), SAME_AS)
def test_compatibility_forms_read_as_the_ascii_they_stand_for(typed: str, rules: str, ascii: str) -> None:
    got, want = to_json(score_line(typed, Request(rules))), to_json(score_line(ascii, Request(rules)))
    assert got["input"] == typed
    assert {**got, "input": None} == {**want, "input": None}


# What is still outside the notation's alphabet after normalisation: (line, ruleset, kind, column, a part of the
# message). Columns count the characters of the line as typed.
REFUSED = [
    ("²23m456p789s111z22z", "changchun", "notation", 1, "superscript two"),
    ("١23m456p789s111z22z", "changchun", "notation", 1, "arabic-indic digit one"),
    ("12३m456p789s111z22z", "changchun", "notation", 3, "devanagari digit three"),
    ("12₇3m456p789s11111z", "jilin", "notation", 3, "subscript seven"),
    ("①23m456p789s111z22z", "changchun", "notation", 1, "circled digit one"),
    ("１２３ｍ４５６ｐ７８９ｓ１１１１１ｚ", "changchun", "notation", 17, "a fifth 1z"),  # the caret under the fifth
    ("１２３ｍ４５６ｐ７８９ｓ１１１ｚ２２ｘ", "changchun", "notation", 19, "unexpected 'x'"),
    ("123m456p789s111z22z +win=३m", "changchun", "notation", 26, "devanagari digit three"),
    ("123m456p789s111z22z +bao=١m", "changchun", "notation", 26, "arabic-indic"),
    ("111m999p3s22z7z5m5m5m5m +zimo +hui=٥m", "meihe", "notation", 36, "arabic-indic digit five"),
    ("111m999p3s22z7z5m5m5m5m +zimo +flip=٤m", "meihe", "notation", 37, "arabic-indic digit four"),
    ("123m456p789s23s55p 1s +riichi +dora=١m", "riichi", "notation", 37, "arabic-indic"),
    ("123m456p789s23s55p 1s +riichi +ura=𝟘z", "riichi", "context", 31, "not a list of tiles"),  # 𝟘 is 0
    ("123m456p789s23s55p 1s +riichi +honba=٣", "riichi", "notation", 38, "arabic-indic digit three"),
    ("123m456p789s23s55p 1s +riichi +sticks=²", "riichi", "notation", 39, "superscript two"),
    ("123m456p789s111z22z +base=٢", "changchun", "notation", 27, "arabic-indic digit two"),
    ("[1111s,٢][2222m,2][3333p,7][4444p]88s|EE0000|2", "changchun", "notation", 8, "arabic-indic digit two"),
    ("[1111s,²][2222m,2][3333p,7][4444p]88s|EE0000|2", "changchun", "notation", 8, "superscript two"),
    ("[1111s,1][2222m,2][3333p,7][4444p]88s|EE0000|٢", "changchun", "notation", 46, "arabic-indic digit two"),
    ("[1111s,1][2222m,2][3333p,7][4444p]88s|EE0000|9", "changchun", "notation", 46, "must be 0-8"),
    ("123m\udce9456p789s111z22z", "changchun", "notation", 5, "not UTF-8 text: the byte 0xE9"),
    ("123m456p\x00789s111z22z", "changchun", "notation", 9, "unexpected '\\x00'"),
    ("123m456p\u202e789s111z22z", "changchun", "notation", 9, "unexpected '\\u202e'"),
    ("123m456p789s111z22z +\x1b[31m", "changchun", "context", 21, "unknown flag '+\\x1b[31m'"),
    # numbers: ASCII digits only, each flag with its documented range (README), never int() of thousands of digits
    ("123m456p789s111z22z +base=" + "9" * 900, "changchun", "context", 21, "(900 characters) is not a whole number"),
    ("123m456p789s111z22z +base=1000001", "changchun", "context", 21, "from 0 to 1,000,000"),
    ("123m456p789s111z22z +cap=1000000001", "changchun", "context", 21, "from 0 to 1,000,000,000"),
    ("123m456p789s111z22z +base=1_000", "changchun", "context", 21, "a whole number"),
    ("123m456p789s111z22z +base=-3", "changchun", "context", 21, "a whole number"),
    ("123m456p789s111z22z +base=7.5", "changchun", "context", 21, "a whole number"),
    ("123m456p789s111z22z +base=", "changchun", "context", 21, "needs a value"),
    ("123m456p789s23s55p 1s +riichi +honba=100", "riichi", "context", 31, "from 0 to 99"),
    ("123m456p789s23s55p 1s +riichi +sticks=" + "1" * 5000, "riichi", "notation", MAX_LINE + 1, "at most 1,000"),
    ("123m456p789s111z22z +lian=100", "changchun", "context", 21, "from 0 to 99"),  # ignored, but still a number
    ("123m" * 300_000, "changchun", "notation", MAX_LINE + 1, "1,200,000 characters long"),
    ("123m456p789s111z22z" + " +zimo" * 2000, "changchun", "notation", MAX_LINE + 1, "at most 1,000"),
]


@pytest.mark.parametrize(("line", "rules", "kind", "column", "message"), REFUSED)
def test_what_is_outside_the_alphabet_is_an_error_at_its_column(line: str, rules: str, kind: str, column: int,
                                                               message: str) -> None:
    res = score_line(line, Request(rules))
    assert res.error is not None, res.result
    assert (res.error.kind, res.error.column) == (kind, column), res.error.message
    assert message in res.error.message
    json.dumps(to_json(res), ensure_ascii=False)
    text = to_text(res)
    text.encode("utf-8")  # printable: no lone surrogate, no control character
    assert all(ch == "\n" or ch.isprintable() or ch in "\u3000" for ch in text), repr(text)


def _caret(text: str) -> tuple[str, int]:
    """The echoed line and the cell the caret is under, from a table's error lines."""
    lines = text.splitlines()
    caret = next(k for k, line in enumerate(lines) if line.strip() == "^")
    return lines[caret - 1], lines[caret].index("^")


def test_the_caret_stays_under_the_place_when_control_characters_are_escaped() -> None:
    res = score_line("123m\x07\x1b456p789s111z22z2z", Request("changchun"))
    echoed, cell = _caret(to_text(res))
    assert echoed == "  123m\\x07\\x1b456p789s111z22z2z"
    assert echoed[cell:].startswith("\\x07")  # column 5, the BEL
    res = score_line("１２３ｍ４５６ｐ７８９ｓ１１１１１ｚ", Request("changchun"))
    echoed, cell = _caret(to_text(res))
    assert cell == 2 + 2 * 16  # sixteen wide characters before the fifth １


def test_a_long_line_is_echoed_around_its_column() -> None:
    line = "1m" * 200 + "x" + "2p" * 200
    res = score_line(line, Request("changchun"))
    assert res.error is not None and res.error.column == 401
    echoed, cell = _caret(to_text(res))
    assert len(echoed) < 140 and echoed[cell] == "x" and "…" in echoed


def test_printable_escapes_what_would_move_the_cursor_or_fail_to_print() -> None:
    assert printable("123m") == "123m"
    assert printable("东南西北\u3000１２３") == "东南西北\u3000１２３"  # wide text and spaces are printable
    assert printable("a\x00b\x7f\x85\u200b\u202e\udce9\U000e0001") == \
        "a\\x00b\\x7f\\x85\\u200b\\u202e\\udce9\\U000e0001"


def test_normalise_keeps_the_length_and_the_ascii_line() -> None:
    line = "123m456p789s111z22z +zimo"
    assert normalise(line) is line
    assert normalise("东南西北白发中＋自摸") == "东南西北白发中+自摸"
    for typed in ("½", "…", "㎜", "ﬀ"):  # more than one character, or not read as one: left as typed
        assert normalise(typed) == typed


def test_options_on_the_command_line_are_normalised_and_checked_too() -> None:
    r = run("score", "123m456p789s23s55p 1s", "--rules", "riichi", "-f", "riichi", "-f", "dora=１ｍ")
    assert r.exit_code == 0, r.output
    r = run("score", "123m456p789s23s55p 1s", "--rules", "riichi", "-f", "riichi", "-f", "dora=١m")
    assert r.exit_code == 2 and "arabic-indic digit one" in r.output
    r = run("score", "123m456p789s111z22z", "--seat", "Ｅ", "--zimo", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["context"]["seat"] == "E"
    r = run("score", "123m456p789s23s55p 1s", "--rules", "riichi", "-f", "honba=" + "9" * 5000)
    assert r.exit_code == 2 and "(5,000 characters) is not a whole number from 0 to 99" in r.output


def test_an_undecodable_argument_prints_as_an_escape_with_exit_2() -> None:
    """A byte that is not UTF-8 in an argument reaches Python as a lone surrogate; printing it must not fail,
    even where the output's encoding is strict."""
    done = subprocess.run([sys.executable, "-m", "mjcalc", "score", b"123m\xe9456p".decode("utf-8", "surrogateescape"),
                           "--json"], capture_output=True, cwd=ROOT,
                          env={"PYTHONIOENCODING": "utf-8", "MJCALC_CONFIG": "/nonexistent", "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2, done.stderr
    out = json.loads(done.stdout)
    assert out["error"]["column"] == 5 and "0xE9" in out["error"]["message"]
