"""Data-driven cases: every file tests/cases/<ruleset>.yaml, one test per case, plus coverage meta-tests.

A case file::

    ruleset: changchun            # default ruleset of its cases
    also_under: [changchun-x]     # optional: each case without its own `rules` runs under these too (a preset
                                  # that extends the ruleset and keeps what those cases check)
    cases:
      - id: worked_example_1
        hand: "456p23s55z777z [123m] 1s +from=W"
        rules: changchun-mil      # optional, per case
        not_under: [changchun-x]  # optional: a preset of also_under whose defaults this case does not hold for
        set: {cap: 500}           # optional options (as --set)
        expect:                   # only the keys given are checked
          result: win             # win | not_a_win | waiting | error
          items: {basic_win: 1, dealt_in: 1}   # EXACT: item id -> its total (value x count)
          fan: 1
          payments: {W: 2, N: 1, E: 1}         # payer -> what he pays for the hand (shares he covers included)
          kong_payments: {W: 2, N: 2, E: 2}    # payer -> kong points he pays
          net: {S: 4, W: -2, N: -1, E: -1}
          points: 4
          failed: [three_suits]   # not_a_win: EXACT list of failed condition ids
          waits: [2z]
          substitutions: {5m: 3p}
          error: notation         # error kind; `column` checks its column
          han: 3                  # riichi; fu too
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from mjcalc.engine import Request, score_line
from mjcalc.output.record import to_json
from mjcalc.ruleset.loader import load_ruleset
from mjcalc.support.builtin import builtin_names

CASE_DIR = Path(__file__).parent / "cases"


def _load_cases() -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for path in sorted(CASE_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"]:
            out.append((path.stem, case.get("rules", data["ruleset"]), case))
            if "rules" not in case:
                out += [(path.stem, also, case) for also in data.get("also_under", [])
                        if also not in case.get("not_under", ())]
    return out


CASES = _load_cases()


def _also(stem: str) -> list[str]:
    return yaml.safe_load((CASE_DIR / f"{stem}.yaml").read_text(encoding="utf-8")).get("also_under", [])


def run_case(rules: str, case: dict[str, Any]) -> dict[str, Any]:
    result = score_line(case["hand"], Request(rules=rules, options=case.get("set", {})), with_wait_scores=False)
    return to_json(result)


def _per_payer(payments: list[dict[str, Any]]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for p in payments:
        out[p["payer"]] += p["amount"]
    return dict(out)


@pytest.mark.parametrize(("file", "rules", "case"), CASES, ids=[f"{f}::{c['id']}" + (f"[{r}]" if r in _also(f) else "") for f, r, c in CASES])
def test_case(file: str, rules: str, case: dict[str, Any]) -> None:
    out = run_case(rules, case)
    expect = case["expect"]
    where = f"{case['hand']!r} -> {out.get('result')} {out.get('error') or ''}"
    assert out["result"] == expect.get("result", "win"), where
    if "error" in expect:
        assert out["error"]["kind"] == expect["error"], where
    if "column" in expect:
        assert out["error"]["column"] == expect["column"], where
    if "failed" in expect:
        assert [c["id"] for c in out["failed_conditions"]] == expect["failed"], where
    if "items" in expect:
        got = {i["id"]: i["value"] * i["count"] for i in out["items"]}
        assert got == expect["items"], where
    for key in ("fan", "net", "points", "substitutions", "han", "fu", "limit"):
        if key in expect:
            got = out.get("fan" if key == "han" else key)  # riichi's han is the JSON's fan
            assert got == expect[key], f"{key}: {where}"
    if "waits" in expect:
        assert out["waits"] == expect["waits"], where
    if "payments" in expect:
        assert _per_payer(out["payments"]) == expect["payments"], where
    if "kong_payments" in expect:
        assert _per_payer(out["kong_payments"]) == expect["kong_payments"], where


def _coverage() -> dict[str, dict[str, set[str]]]:
    """Per ruleset: items seen firing, items seen absent from a win, conditions seen failing."""
    seen: dict[str, dict[str, set[str]]] = defaultdict(lambda: {"fired": set(), "absent": set(), "failed": set()})
    for _, rules, case in CASES:
        expect = case["expect"]
        entry = seen[rules]
        if "items" in expect:
            entry["fired"] |= set(expect["items"])
            ruleset = load_ruleset(rules)
            entry["absent"] |= {i.id for i in ruleset.items} - set(expect["items"])
            # An item that holds on every win can only be shown absent by a case that switches it off.
            entry["absent"] |= {i.id for i in ruleset.items if i.when_text == "always" and i.enabled is None}
        entry["failed"] |= set(expect.get("failed", []))
    return seen


@pytest.mark.parametrize("rules", [n for n in builtin_names() if any(r == n for _, r, _ in CASES)])
def test_every_item_fires_and_not(rules: str) -> None:
    ruleset = load_ruleset(rules)
    seen = _coverage()[rules]
    ids = {i.id for i in ruleset.items}
    assert ids - seen["fired"] == set(), f"{rules}: items never shown to fire"
    assert ids - seen["absent"] == set(), f"{rules}: items never shown not to fire"


@pytest.mark.parametrize("rules", [n for n in builtin_names() if any(r == n for _, r, _ in CASES)])
def test_every_condition_fails_somewhere(rules: str) -> None:
    ruleset = load_ruleset(rules)
    seen = _coverage()[rules]
    ids = {c.id for c in ruleset.conditions}
    assert ids - seen["failed"] == set(), f"{rules}: win conditions never shown to fail"


def test_every_builtin_ruleset_has_cases() -> None:
    covered = {r for _, r, _ in CASES}
    assert set(builtin_names()) - covered == set()


# Which payment an item is on, by its declared scope, written from docs/OUTPUT.md and the rules' texts (not from
# mjcalc's settlement): the hand's fan is then the sum of the items on every payment.
def _on_payment(scope: str, payment: dict[str, Any], context: dict[str, Any]) -> bool | None:
    payer, payee, dealer = payment["on_behalf_of"] or payment["payer"], payment["payee"], "E"  # whose share
    if scope == "all":
        return True
    if scope == "discarder":
        return not context["zimo"] and payer == context["from"]
    if scope == "dealer_paying":
        return payer == dealer
    if scope == "dealer_involved":
        return dealer in (payer, payee)
    if scope == "closed_payers":
        return payer in context.get("closed", [])
    return None  # a scope this test does not know: held to the payments' own account only


@pytest.mark.parametrize(("file", "rules", "case"), CASES, ids=[f"{f}::{c['id']}" for f, _, c in CASES])
def test_fan_is_what_every_payment_holds(file: str, rules: str, case: dict[str, Any]) -> None:
    """OUTPUT.md: ``fan`` is the sum of the items on every payment of this hand, and each payment's ``fan`` is
    the sum of the items on it (the hand's, and its ``payer_items``)."""
    out = run_case(rules, case)
    if out["result"] != "win":
        return
    pays = [p for p in out["payments"] if p["payer"] in ("E", "S", "W", "N")]
    items = {i["id"]: i for i in out["items"]}
    on: dict[str, list[bool]] = {}
    for p in pays:
        own = set(p["payer_items"])
        for iid, item in items.items():
            by_scope = _on_payment(item["applies_to"], p, out["context"])
            held = iid in own or all(iid not in q["payer_items"] for q in pays)
            if by_scope is not None and out["ruleset"] != "riichi":
                assert held == by_scope, f"{iid} on {p['payer']}'s payment: {case['hand']!r}"
            on.setdefault(iid, []).append(held)
        if out["ruleset"] != "riichi":  # riichi's payments carry the han, items being han, fu, dora … alike
            assert p["fan"] == sum(i["value"] * i["count"] for iid, i in items.items() if on[iid][-1]), case["hand"]
    if pays and out["ruleset"] != "riichi":
        every = sum(i["value"] * i["count"] for iid, i in items.items() if all(on[iid]))
        assert out["fan"] == every, f"fan {out['fan']}, the items on every payment {every}: {case['hand']!r}"
        assert not any(all(iid in q["payer_items"] for q in pays) for iid in items), case["hand"]


@pytest.mark.parametrize(("file", "rules", "case"), CASES, ids=[f"{f}::{c['id']}" for f, _, c in CASES])
def test_hand_line_reads_back_to_the_same_hand(file: str, rules: str, case: dict[str, Any]) -> None:
    """The ``hand`` written back (concealed tiles by suit, the melds as written, the winning tile apart at the
    end) is notation that reads back to the very same hand, red fives where they were."""
    from mjcalc.core.hand import build_hand
    from mjcalc.core.notation import parse_line

    result = score_line(case["hand"], Request(rules=rules, options=case.get("set", {})), with_wait_scores=False)
    if result.hand is None:
        return
    hand, text = result.hand, result.hand.text()
    again = build_hand(parse_line(text), load_ruleset(rules).tile_rules)
    assert again == hand, f"{case['hand']!r} -> {text!r}"
    assert (again.red_kinds, [m.reds for m in again.melds]) == (hand.red_kinds, [m.reds for m in hand.melds]), text
    assert again.text() == text
    if hand.win_tile is not None and not any(m.called for m in hand.melds):
        last = name_of(hand.win_tile)
        assert text.rsplit(" ", 1)[-1] in (last, "0" + last[1]), text  # the winning tile apart, at the end


def name_of(tile: int) -> str:
    from mjcalc.core.tiles import name

    return name(tile)
