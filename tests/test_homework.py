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


def test_every_text_is_a_catalog_text_with_its_chinese_and_the_same_blanks() -> None:
    """The explanations' texts are message ids of the one catalog (mjcalc/locale/zh.po), as every other text of
    the CLI: each is collected from the source, translated, and its translation has the same blanks."""
    import string
    import sys

    from mjcalc.homework import FORM_NAMES, MESSAGES, WAIT_NAMES
    from mjcalc.i18n import read_po

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import catalog

    def blanks(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    collected = catalog.collect()
    zh = read_po((catalog.LOCALE / "zh.po").read_text(encoding="utf-8"))
    for key, text in [*MESSAGES.items(), *WAIT_NAMES.items(), *FORM_NAMES.items()]:
        assert collected.get(text) == "mjcalc/homework.py", key  # marked N_ where it is written
        assert zh.get(text), key
        assert blanks(zh[text]) == blanks(text), key


def test_a_text_renders_from_the_catalog() -> None:
    from mjcalc.homework import msg, score_text

    assert score_text(2, 12, 1, "en") == "2 of 12 right (17%); 1 could not be checked"
    assert score_text(2, 12, 1, "zh") == "12 题对了 2 题（17%）；1 题无法检查"
    assert msg("no_value", "zh", word="fan") == "'fan' 后面要写一个值"
    assert msg("no_value", "fr", word="fan") == "'fan' needs a value"  # no catalog: the English
