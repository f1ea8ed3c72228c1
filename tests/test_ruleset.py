"""Ruleset files: extends, options, and every way a file can be wrong (named, never run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjcalc.engine import Request, score_line
from mjcalc.errors import MjcalcError
from mjcalc.ruleset.loader import load_ruleset
from mjcalc.support.builtin import builtin_names

QUICK = "123m456p789s111z22z +zimo +seat=E"


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "my.yaml"
    path.write_text(text, encoding="utf-8")
    load_ruleset.cache_clear()
    return str(path)


def test_every_builtin_loads() -> None:
    for name in builtin_names():
        rules = load_ruleset(name)
        assert rules.items and rules.names["zh"] and rules.names["en"]


def test_user_file_extends_a_builtin(tmp_path: Path) -> None:
    path = write(tmp_path, """
id: my-house
extends: changchun
names: {zh: 我家规则, en: My house}
options:
  base: {default: 5}
items:
  - id: closed_win
    value: 2
""")
    r = score_line(QUICK, Request(rules=path))
    assert r.ruleset.id == "my-house"
    closed = next(a for a in r.best.awards if a.item.id == "closed_win")
    assert closed.value == 2
    assert r.best.settlement.points == 3 * 5 * 2 ** (6 - 1)


def test_a_house_rule_makes_another_yakuman_liable(tmp_path: Path) -> None:
    """``liable:`` is data: a house that makes the feeder of the fourth honor set liable for 字一色 says so."""
    line = "111z222z555z6z [777z] 6z +pao=W"  # tsuuiisou, no daisangen: W fed the 中
    assert score_line(line, Request(rules="riichi")).error.column == 26
    path = write(tmp_path, "id: my-riichi\nextends: riichi\nnames: {zh: x, en: x}\n"
                           "items:\n  - id: tsuuiisou\n    liable: true\n")
    r = score_line(line, Request(rules=path))
    assert {p.payer: p.amount for p in r.best.settlement.payments} == {"N": 16000, "W": 16000}
    assert r.best.settlement.payments[1].liable_for == ("tsuuiisou",)


def test_line_can_pick_its_ruleset() -> None:
    assert score_line(QUICK + " +rules=changchun-mil").ruleset.id == "changchun-mil"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("id: x\nextends: changchun\nnames: {zh: x, en: x}\nitems:\n  - id: single_wait\n    when: singel_wait\n",
         "item 'single_wait': field 'when': unknown predicate 'singel_wait'"),
        ("id: x\nextends: changchun\nnames: {zh: x, en: x}\nitems:\n  - id: newthing\n    names: {zh: 新, en: New}\n"
         "    when: always\n", "item 'newthing': field 'value' is missing"),
        ("id: x\nextends: changchun\nnames: {zh: x, en: x}\nitems:\n  - id: closed_win\n    applies_to: everyone\n",
         "field 'applies_to': 'everyone'"),
        ("id: x\nextends: changchun\nnames: {zh: x, en: x}\nitems:\n"
         "  - id: closed_win\n    when: {pair_is: {knd: dragon}}\n", "predicate 'pair_is'"),
        ("id: x\nextends: changchun\nnames: {zh: x, en: x}\noptions:\n  cap: {default: lots}\n", "option 'cap'"),
        ("id: x\nextends: nowhere\nnames: {zh: x, en: x}\n", "unknown ruleset 'nowhere'"),
        ("id: x\nextends: changchun\nnames: {zh: x, en: x}\nformula: {kind: magic}\n", "unknown kind 'magic'"),
        ("id: x\nextends: changchun\nnames: {zh: x, en: x}\nitmes: []\n", "unknown field 'itmes'"),
        ("id: x\nnames: {zh: x, en: x}\nitems: [\n", "not valid YAML"),
        ("- just\n- a list\n", "not a ruleset: not a YAML mapping"),
        ("id: x\nextends: riichi\nnames: {zh: x, en: x}\nitems:\n  - id: tsuuiisou\n    liable: {option: pao_kazoe}\n",
         "item 'tsuuiisou': field 'liable' is {option: NAME}"),
        ("id: x\nextends: riichi\nnames: {zh: x, en: x}\nitems:\n  - id: tsuuiisou\n    liable: {option: kazoe}\n",
         "item 'tsuuiisou': field 'liable': option 'kazoe' is not on/off"),
    ],
)
def test_broken_ruleset_names_file_item_field(tmp_path: Path, text: str, words: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(MjcalcError) as info:
        load_ruleset(path)
    assert info.value.kind == "ruleset"
    assert words in info.value.message
    assert "my.yaml" in info.value.message


def test_yaml_cannot_run_code(tmp_path: Path) -> None:
    path = write(tmp_path, "id: !!python/object/apply:os.system ['echo pwned > /tmp/mjcalc-pwned']\n")
    with pytest.raises(MjcalcError):
        load_ruleset(path)
    assert not Path("/tmp/mjcalc-pwned").exists()


def test_broken_ruleset_in_a_line_is_an_error_result(tmp_path: Path) -> None:
    path = write(tmp_path, "id: x\nnames: {zh: x}\n")
    r = score_line(QUICK, Request(rules=path))
    assert r.result == "error" and r.error.kind == "ruleset" and r.exit_code == 3


def test_extends_cycle(tmp_path: Path) -> None:
    a = tmp_path / "a.yaml"
    b = tmp_path / "b.yaml"
    a.write_text("id: a\nextends: b.yaml\n", encoding="utf-8")
    b.write_text("id: b\nextends: a.yaml\n", encoding="utf-8")
    load_ruleset.cache_clear()
    with pytest.raises(MjcalcError, match="circle"):
        load_ruleset(str(a))


def test_ids_and_names_are_checked_as_their_patterns_read_them() -> None:
    """ruleset.matches: the item-id and ruleset-name checks, made without compiling their patterns."""
    import re

    from mjcalc.ruleset import validate as ruleset
    from mjcalc.ruleset.schema import RULESET_ID_PATTERN

    texts = ["", "a", "z9_", "ab\n", "ab\n\n", "\n", "9a", "_a", "a-b", "a b", "aB", "é", "a\x00", "-", "a_", "0",
             "riichi", "changchun-mil", "taiwan-common", "a\nb", "ａ", "a\r", "A", "a.b"]
    for text in texts:
        assert ruleset.matches(text, ruleset._ID_FIRST, ruleset._ID_REST) == bool(
            re.match(r"^[a-z][a-z0-9_]*$", text)), repr(text)
        assert ruleset.matches(text, ruleset._NAME_FIRST, ruleset._NAME_REST) == bool(
            re.match(RULESET_ID_PATTERN, text)), repr(text)
