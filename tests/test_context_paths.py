"""The usual line's flags are read in one pass (context.read_plain_flags, or read_plain_groups of the fast
reader's flag groups); every other line by collect_flags and build_context. All must give the same Context, on
every case line and on generated riichi lines."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import yaml

from mjcalc.core.context import build_context, collect_flags, read_plain_flags, read_plain_groups
from mjcalc.core.notation import parse_line
from mjcalc.errors import MjcalcError
from mjcalc.ruleset.loader import load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from riichi_situations import generate

CASE_DIR = Path(__file__).resolve().parent / "cases"


def _lines() -> list[tuple[str, str]]:
    out = []
    for path in sorted(CASE_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out += [(case.get("rules", data["ruleset"]), case["hand"]) for case in data["cases"]]
    out += [("riichi", s.line()) for s in generate(600, 7)]
    out += [("changchun", "123m456p789s111z22z +zimo +seat=E +seat=E"),  # twice, same value: the general path
            ("changchun", "123m456p789s111z22z +riichi"),  # not read by changchun: ignored
            ("riichi", "123m456p789s111z22z +tian +seat=E"), ("riichi", "123m456p789s111z22z +zimo=off +seat=N"),
            # the way of winning said twice, which the one pass reads (by the flags' facts) or leaves to the other
            ("riichi", "123m456p789s111z22z +qiang +seat=W"), ("riichi", "123m456p789s111z22z +qiang +zimo"),
            ("riichi", "123m456p789s111z22z +tian +seat=S"), ("riichi", "123m456p789s111z22z +di +seat=E"),
            ("riichi", "123m456p789s111z22z +di +seat=W +zimo=off"), ("riichi", "123m456p789s111z22z +di +qiang"),
            ("riichi", "123m456p789s111z22z +di +zimo +seat=N"), ("mcr", "123m456p789s111z22z +gang +zimo=off"),
            ("mcr", "123m456p789s111z22z +gang +qiang"), ("mcr", "123m456p789s111z22z +gang"),
            ("mcr", "123m456p789s111z22z +qiang=off +zimo")]
    return out


LINES = _lines()


@pytest.mark.parametrize(("rules", "line"), LINES, ids=[f"{r}:{i}" for i, (r, _) in enumerate(LINES)])
def test_one_pass_reads_as_the_general_path(rules: str, line: str) -> None:
    ruleset = load_ruleset(rules)
    try:
        parsed = parse_line(line)
    except MjcalcError:
        return
    words = parsed.flags
    fast = read_plain_flags(words, ruleset.flags)
    if parsed.flag_groups is not None:  # the fast reader's groups, typed once for the ruleset: twice, the same
        for _ in range(2):
            grouped = read_plain_groups(parsed.flag_groups, ruleset.flags)
            assert (grouped is None) == (fast is None)
            if grouped is not None and fast is not None:
                assert (grouped.facts, grouped.given, grouped.values) == (fast.facts, fast.given, fast.values)
    try:
        values, ignored = collect_flags(words, ruleset.flags)
        general = build_context(values, ruleset.flags)
    except MjcalcError:
        assert fast is None  # a line in error is never read in one pass
        return
    if fast is None:
        return
    assert not ignored
    assert fast == general
    assert (fast.facts, fast.given, fast.values) == (general.facts, general.given, general.values)


def test_most_generated_lines_take_one_pass() -> None:
    ruleset = load_ruleset("riichi")
    taken = sum(read_plain_flags(parse_line(s.line()).flags, ruleset.flags) is not None for s in generate(300, 11))
    assert taken > 200


@pytest.mark.parametrize(("rules", "line"), LINES[::7])
def test_context_json_is_every_field_in_order(rules: str, line: str) -> None:
    """to_json writes the defaults once and the given fields on top: the same as reading every field."""
    from mjcalc.core import tiles as T
    from mjcalc.core.context import FIELDS
    from mjcalc.engine import Request, score_line

    ctx = score_line(line, Request(rules=rules)).ctx
    if ctx is None:
        return
    expected: dict[str, object] = {}
    for name in FIELDS:
        if name == "given":
            continue
        value = ctx.get(name)
        if isinstance(value, frozenset):
            value = [s for s in T.SEATS if s in value]
        elif name in ("bao", "hui", "flip", "win") and value is not None:
            value = T.name(value)
        elif name in ("dora", "ura"):
            value = [T.name(t) for t in value]
        expected["from" if name == "discarder" else name] = value
    got = ctx.to_json()
    assert list(got.items()) == list(expected.items())
