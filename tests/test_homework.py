"""Homework case files: every file tests/homework/<ruleset>.yaml, one test per case, run through ``mjcalc.check``
(the object ``mjcalc check --json`` prints for a record).

A case file::

    rules: changchun                  # the ruleset of its cases
    cases:
      - line: "123m456p13s777z55z 2s +from=W"
        answer: "fan 3 points 16 items 平胡,放炮,夹胡,立胡"
        correct: true                 # a right answer: no difference at all
      - line: "123m456p13s777z55z 2s +from=W"
        answer: "points 12"
        causes: [payer_item_missed]   # EXACT: the set of the differences' causes
        says: ["放炮", "W: 2^(4−1) × 1 = 8"]   # each is in the explanation (the differences' messages)
        lang: zh                      # optional: the language of the explanation
        set: {base: 2}                # optional options (as --set)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mjcalc.api import check
from mjcalc.homework import CAUSES
from mjcalc.ruleset import builtin_names

FOLDER = Path(__file__).parent / "homework"
FILES = sorted(FOLDER.glob("*.yaml"))


def _cases() -> list[Any]:
    out = []
    for path in FILES:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, case in enumerate(doc["cases"]):
            out.append(pytest.param(doc["rules"], case, id=f"{path.stem}-{i + 1}"))
    return out


@pytest.mark.parametrize(("rules", "case"), _cases())
def test_homework_case(rules: str, case: dict[str, Any]) -> None:
    got = check(case["line"], case["answer"], rules=rules, options=case.get("set"), lang=case.get("lang", "en"))
    assert got["correct"] is not None, got.get("error")
    differences = got["differences"]
    text = "\n".join(d["message"] for d in differences)
    if case.get("correct"):
        assert got["correct"] is True, text
        return
    assert got["correct"] is False
    assert {d["cause"] for d in differences} == set(case["causes"]), text
    for words in case.get("says", []):
        assert words in text, f"{words!r} not in:\n{text}"


def test_every_ruleset_has_a_homework_file_with_right_and_wrong_answers() -> None:
    assert {p.stem for p in FILES} == set(builtin_names())
    for path in FILES:
        cases = yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
        assert any(c.get("correct") for c in cases) and any(c.get("causes") for c in cases), path.name
        assert {c for case in cases for c in case.get("causes", [])} <= set(CAUSES), path.name


def test_the_causes_of_the_vocabulary_are_shown_across_the_files() -> None:
    shown = {c for path in FILES for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]
             for c in case.get("causes", [])}
    assert set(CAUSES) - {"arithmetic"} <= shown


def test_every_text_is_in_english_and_chinese_with_the_same_blanks() -> None:
    import string

    from mjcalc.homework import MESSAGES

    def blanks(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    for key, texts in MESSAGES.items():
        assert set(texts) == {"en", "zh"}, key
        assert blanks(texts["en"]) == blanks(texts["zh"]), key
