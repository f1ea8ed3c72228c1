"""Each speed trick that is kept (docs/performance.md, the audit) gives what the plain version gives.

| trick | its module | held equal to the plain version by |
| --- | --- | --- |
| the compiled build (mypyc) | setup.py COMPILED | tests/test_compiled.py |
| built-in rulesets packed as JSON | mjcalc/support/packed.py | tests/test_startup.py (packs to the same data) |
| frozen dataclasses without ``dataclasses`` | mjcalc/support/frozen.py | here, and its doctest |
| tabulate without ``html`` and ``dataclasses`` | mjcalc/output/table_lib.py | tests/test_startup.py |
| start-up without the collector, exit without teardown | mjcalc/__main__.py | tests/test_startup.py |
| a predicate's signature read as text | mjcalc/predicates/binding.py | tests/test_startup.py |
| the JSON Lines record formatted from kept parts | mjcalc/output/jsonl.py | here, and tests/test_batch.py |
| named tuples made by ``tuple.__new__`` | mjcalc/support/tuples.py | here |
| the last request's options, by identity | mjcalc/support/memo.py (LastAnswer) | here |
| --jobs: forked workers on byte ranges | mjcalc/batch/forked.py, parallel.py | tests/test_batch_split.py |
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from mjcalc.core.notation import FlagWord, TileAt
from mjcalc.core.readings.decompose import Reading
from mjcalc.core.readings.forms import Group
from mjcalc.core.settlement.payments import Award
from mjcalc.engine import Request, options_of, request_options
from mjcalc.output.jsonl import encode_jsonl, json_bytes
from mjcalc.output.record import to_json
from mjcalc.ruleset.loader import load_ruleset
from mjcalc.support import frozen
from mjcalc.support.tuples import new_tuple

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("cls, fields", [
    (TileAt, (3, 7, False)), (FlagWord, ("dora", "3m", 12)), (Reading, ("regular", (), None, None)),
    (Group, ("chow", (0, 1, 2), False, False, None, 0)), (Award, (None, 2, 1)),
])
def test_new_tuple_makes_what_the_constructor_makes(cls: type, fields: tuple) -> None:
    made, plain = new_tuple(cls, fields), cls(*fields)
    assert type(made) is type(plain) and made == plain and made._asdict() == plain._asdict()


@pytest.mark.parametrize("rules, options", [("riichi", {}), ("changchun", {"cap": 10}), ("mcr", {}),
                                            ("riichi", {"aka": False})])
def test_the_last_requests_options_are_the_plain_ones(rules: str, options: dict) -> None:
    ruleset = load_ruleset(rules)
    known = {k: v for k, v in options.items() if k in ruleset.options}
    request = Request(rules, known)
    first, again = request_options(ruleset, request), request_options(ruleset, request)
    assert again is first  # the memo answered
    assert dict(first) == dict(options_of(ruleset, request))
    other = Request(rules, known)  # an equal request, another object: worked out again, the same
    assert dict(request_options(ruleset, other)) == dict(first)


def test_frozen_dataclasses_behave_as_the_standard_ones() -> None:
    def make(decorate, field):  # noqa: ANN001, ANN202
        @decorate(frozen=True)
        class Item:
            id: str
            value: int = 1
            tags: list = field(default_factory=list, compare=False)
            note: str = field(default="", repr=False)
        return Item

    ours, theirs = make(frozen.dataclass, frozen.field), make(dataclasses.dataclass, dataclasses.field)
    a, b = ours("x", 2, ["t"], "n"), theirs("x", 2, ["t"], "n")
    assert repr(a).replace(ours.__qualname__, "Item") == repr(b).replace(theirs.__qualname__, "Item")
    assert (a == ours("x", 2, note="n")) == (b == theirs("x", 2, note="n")) is True
    assert (a == ours("x", 2)) == (b == theirs("x", 2)) is False and hash(a) == hash(ours("x", 2, note="n"))
    assert [f.name for f in frozen.fields(a)] == [f.name for f in dataclasses.fields(b)]
    assert frozen.replace(a, value=5).value == dataclasses.replace(b, value=5).value == 5
    with pytest.raises(AttributeError):
        a.value = 3  # type: ignore[misc]


@pytest.mark.parametrize("example", ["riichi.txt", "mcr.txt", "changchun.txt", "meihe.txt", "taiwan.txt"])
def test_the_jsonl_record_is_the_plain_one(example: str) -> None:
    pytest.importorskip("orjson")
    from mjcalc.engine import score_line

    rules = example.removesuffix(".txt")
    lines = [line for line in (EXAMPLES / example).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines
    for line in lines:
        res = score_line(line, Request(rules))
        assert encode_jsonl(None, res) == json_bytes(to_json(res)), line
