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
        causes: [payer_item_missed]   # EXACT: the differences' causes in order, each once; the first is the
                                      # answer's primary cause
        or: [wrong_base]              # optional, EXACT: the causes of the other explanations ("or …"), in order
        says: ["放炮", "W: 2^(4−1) × 1 = 8"]   # each is in the explanation (the messages and their "or")
        not_says: ["counts 放炮"]     # optional: none is
        lang: zh                      # optional: the language of the explanation
        set: {base: 2}                # optional options (as --set)

Every wrong answer gets one difference per wrong number (fan, fu, points, result) and per wrong item.

tests/homework/labelled/<ruleset>.yaml (written by benchmarks/homework_causes.py): right answers with one known
mistake applied, ``[cause, line, answer]``; each difference of the answer must name that mistake.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from mjcalc.api import check
from mjcalc.homework.messages import CAUSES
from mjcalc.ruleset.loader import load_ruleset
from mjcalc.support.builtin import builtin_names

FOLDER = Path(__file__).parent / "homework"
FILES = sorted(FOLDER.glob("*.yaml"))
LABELLED = sorted((FOLDER / "labelled").glob("*.yaml"))


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
    text += "".join(f"\nor: {a['message']}" for d in differences for a in d["or"])
    assert list(dict.fromkeys(d["cause"] for d in differences)) == case["causes"], text
    if "or" in case:
        assert list(dict.fromkeys(a["cause"] for d in differences for a in d["or"])) == case["or"], text
    for words in case.get("says", []):
        assert words in text, f"{words!r} not in:\n{text}"
    for words in case.get("not_says", []):
        assert words not in text, f"{words!r} in:\n{text}"
    numbers = [d["field"] for d in differences if d["field"] != "items"]
    assert len(numbers) == len(set(numbers)), text  # one explanation per wrong number


def _labelled() -> list[Any]:
    out = []
    for path in LABELLED:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for i, (cause, line, answer) in enumerate(doc["cases"]):
            out.append(pytest.param(doc["rules"], cause, line, answer, id=f"{path.stem}-{i + 1}-{cause}"))
    return out


@pytest.mark.parametrize(("rules", "cause", "line", "answer"), _labelled())
def test_an_answer_with_one_mistake_is_explained_by_that_mistake(rules: str, cause: str, line: str,
                                                                  answer: str) -> None:
    got = check(line, answer, rules=rules)
    differences = got["differences"]
    text = "\n".join(f"{d['cause']}: {d['message']}" for d in differences)
    assert differences and differences[0]["cause"] == cause, text  # the primary cause
    assert {d["cause"] for d in differences} == {cause}, text  # and every wrong number put down to it


def test_every_ruleset_has_labelled_answers_of_its_mistakes() -> None:
    assert {p.stem for p in LABELLED} == set(builtin_names())
    for path in LABELLED:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        causes = {c for c, _, _ in doc["cases"]}
        assert doc["rules"] == path.stem and len(doc["cases"]) >= 30 and causes <= set(CAUSES), path.name
        assert {"missed_item", "wrong_fan", "one_share", "is_a_win"} <= causes, path.name
        if any(item.applies_to != "all" for item in load_ruleset(path.stem).items):  # 放炮, 庄, 作庄 …
            assert {"payer_item_missed", "payer_item_to_all"} <= causes, path.name


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

    from mjcalc.homework.facts import FORM_NAMES, WAIT_NAMES
    from mjcalc.homework.messages import MESSAGES
    from mjcalc.i18n import read_po

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
    import catalog

    def blanks(text: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}

    collected = catalog.collect()
    zh = read_po((catalog.LOCALE / "zh.po").read_text(encoding="utf-8"))
    for key, text in [*MESSAGES.items(), *WAIT_NAMES.items(), *FORM_NAMES.items()]:
        assert collected.get(text) in ("mjcalc/homework/messages.py", "mjcalc/homework/facts.py"), key  # marked N_
        # where it is written
        assert zh.get(text), key
        assert blanks(zh[text]) == blanks(text), key


def test_a_text_renders_from_the_catalog() -> None:
    from mjcalc.homework.messages import msg, score_text

    assert score_text(2, 12, 1, "en") == "2 of 12 right (17%); 1 could not be checked"
    assert score_text(2, 12, 1, "zh") == "12 题对了 2 题（17%）；1 题无法检查"
    assert msg("no_value", "zh", word="fan") == "'fan' 后面要写一个值"
    assert msg("no_value", "fr", word="fan") == "'fan' needs a value"  # no catalog: the English


@pytest.mark.parametrize(("answer", "hint", "lang"), [
    ("5 fan", "(did you mean 'fan 5'?)", "en"),  # the number before its key
    ("5 fan 48 points", "(did you mean 'fan 5'?)", "en"),
    ("3 tai: 16 points", "(did you mean 'tai 3'?)", "en"),
    ("3 番 16 分", "（是不是 '番 3'？）", "zh"),
    ("fna 5", "(did you mean 'fan'", "en"),  # a misspelt key
])
def test_an_answer_key_after_its_number_gets_a_did_you_mean(answer: str, hint: str, lang: str) -> None:
    got = check("123m456p789s111z22z +zimo +seat=E", answer, lang=lang)
    assert got["correct"] is None and hint in got["error"], got["error"]


def test_a_number_alone_gets_no_key_suggested() -> None:
    got = check("123m456p789s111z22z +zimo +seat=E", "fan 5 48")
    assert got["correct"] is None and "did you mean" not in got["error"], got["error"]
