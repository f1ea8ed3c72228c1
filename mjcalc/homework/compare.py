"""Comparing an answer with the scored hand, item by item and number by number: each wrong item (missed, not
applicable, excluded, a wrong value), a wrong fan or fu, wrong points (traced to their step: trace.py), each
explained by the facts of this hand (facts.py), one explanation chosen (explain.py); ``check_record`` does it
for one homework record."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ..batch.work import score_record
from ..core import tiles as T
from ..core.model import ItemDef, Ruleset
from ..core.result import Result
from ..core.settlement.payments import Award, Settlement
from ..errors import MjcalcError
from ..i18n import localized, tr
from ..registry import PREDICATES
from ..support.docs import doc_of
from .answer import Answer, _plain, parse_answer, suggest
from .explain import Difference, Why, Wrong, _choose
from .facts import Facts, _first_name, _item_label, _scope_text
from .messages import _unit, msg
from .trace import _compare_points

if TYPE_CHECKING:
    from ..batch.lines import Record
    from ..engine import Request

# --- the texts, in English: the message ids of the catalog (mjcalc/locale/*.po holds every other language) --

# --- the facts of this hand, from the scoring ----------------------------------------------------------------


# --- comparing ----------------------------------------------------------------------------------------------


def compare(res: Result, answer: Answer, lang: str = "en") -> list[Difference]:
    """What the student got wrong: one difference per wrong number (and per wrong item), each with the explanation
    that reproduces it most directly, its cause, and the other explanations as "or" (``_choose``)."""
    rules = res.ruleset
    assert rules is not None
    given = answer.values
    if res.best is None:
        if given.get("result") == "not_a_win":
            return []
        return [_not_a_win(res, rules, lang)]
    facts = Facts(res, lang)
    if given.get("result") == "not_a_win":
        return [Difference("result", "is_a_win", msg(
            "is_a_win", lang, reading=f"{facts.reading()}, {facts.win()}", rules=rules.id,
            conditions=", ".join(c.id for c in rules.conditions)), "is_a_win")]
    wrongs: list[Wrong] = []
    s = res.best.settlement
    student_awards: list[Award] | None = None
    if answer.items is not None:
        found, student_awards = _compare_items(res, rules, answer.items, facts, lang)
        wrongs.extend(found)
    if "fan" in given and given["fan"] != s.fan:
        wrongs.append(_compare_fan(res, rules, given["fan"], facts, lang, student_awards))
    if "fu" in given and s.fu is not None and given["fu"] != s.fu:
        wrongs.append(_compare_fu(s, given["fu"], lang))
    if "points" in given and given["points"] != s.points:
        wrongs.append(_compare_points(res, given, student_awards, lang))
    return _choose(wrongs)


def _not_a_win(res: Result, rules: Ruleset, lang: str) -> Difference:
    """Why the hand is no win, in one difference: ``below_minimum`` when a minimum is all it fails."""
    if res.result == "waiting":
        waits = " ".join(T.name(t) for t in res.waits) or "—"
        return Difference("result", "not_a_win", msg("waiting", lang, waits=waits), "not_a_win")
    if res.failed and all(c.minimum is not None for c in res.failed):
        return Difference("result", "not_a_win", "; ".join(msg(
            "below_minimum", lang, reached="?" if getattr(c, "reached", None) is None else getattr(c, "reached"),
            unit=_unit(rules.unit, lang), minimum=c.minimum, why=_first_name(c.message, lang)) for c in res.failed),
            "below_minimum")
    why = "; ".join(f"{c.id}: {_first_name(c.message, lang)}" for c in res.failed)
    return Difference("result", "not_a_win", msg("not_a_win", lang, why=why), "not_a_win")


def _resolve(rules: Ruleset, name: str) -> ItemDef | None:
    low = _plain(name)
    for item in rules.items:
        spellings = {_plain(item.id), *(_plain(v) for v in item.names.values())}
        if low in spellings:
            return item
    return None


def _resolved(rules: Ruleset, written: list[tuple[str, int | None]]) -> list[tuple[str, ItemDef | None, int | None]]:
    """Each name as written with its item; a name that holds a comma is found across the split parts."""
    out: list[tuple[str, ItemDef | None, int | None]] = []
    i = 0
    while i < len(written):
        name, value = written[i]
        joined = None  # a name with a comma in it, split by the answer's commas (the older riichi names)
        for j in range(min(i + 2, len(written) - 1), i, -1):
            whole = ", ".join(n for n, _ in written[i : j + 1])
            joined = _resolve(rules, whole)
            if joined is not None:
                out.append((whole, joined, written[j][1]))
                i = j + 1
                break
        if joined is not None:
            continue
        item = _resolve(rules, name)
        counted = re.fullmatch(r"(.+?)\s*[×xX*]?\s*(\d+)", name.strip())
        if item is None and counted and value is None:  # 自摸 1, 一般高×2: the value after the name
            item = _resolve(rules, counted.group(1))
            if item is not None:
                name, value = counted.group(1), int(counted.group(2))
        if item is None and " " in name.strip():  # names written with spaces between them: riichi pinfu
            parts = _spaced(rules, name.split())
            if parts is not None:
                out.extend((n, it, None) for n, it in parts[:-1])
                out.append((parts[-1][0], parts[-1][1], value))
                i += 1
                continue
        out.append((name, item, value))
        i += 1
    return out


def _spaced(rules: Ruleset, words: list[str]) -> list[tuple[str, ItemDef]] | None:
    """Words that are item names one after another (the longest name first), or None."""
    out: list[tuple[str, ItemDef]] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i, -1):
            name = " ".join(words[i:j])
            item = _resolve(rules, name)
            if item is not None:
                out.append((name, item))
                i = j
                break
        else:
            return None
    return out if len(out) > 1 else None


def _value_of(res: Result, item: ItemDef) -> int:
    assert res.ruleset is not None and res.best is not None
    value = res.ruleset.item_value(item, res.options)
    if isinstance(value, tuple):
        return value[0] if res.best.candidate.hand.closed else value[1]
    return int(value)


def _compare_items(res: Result, rules: Ruleset, written: list[tuple[str, int | None]], facts: Facts,
                   lang: str) -> tuple[list[Wrong], list[Award]]:
    """The wrong items, and the awards the student counted (for tracing the fan and points they wrote)."""
    assert res.best is not None
    actual = {a.item.id: a for a in res.best.awards}
    out: list[Wrong] = []
    named: dict[str, int | None] = {}
    for name, item, value in _resolved(rules, written):
        if item is None:
            spellings = [n for i in rules.items for n in (i.id, *i.names.values())]
            out.append(Wrong("items", "unknown_item", [Why("unknown_item", msg(
                "unknown_item", lang, name=name, rules=rules.id, hint=suggest(name, spellings, lang)))]))
            continue
        named[item.id] = value
    own = _payer_only(res)
    for iid, award in actual.items():
        if iid not in named and award.total:  # an item worth nothing (平和 0 in fan-from-0 rules) is no miss
            mine = id(award) in own  # an item of some payers only, left out: left out of their payments
            scope = f", {_scope_text(award.item.applies_to, lang)}" if mine else ""
            out.append(Wrong("items", "missed", [Why(
                "payer_item_missed" if mine else "missed_item", msg(
                    "missed", lang, item=_item_label(award.item, lang), value=award.total, scope=scope,
                    why=facts.for_item(award.item)))]))
    counted: list[Award] = []
    for iid, value in named.items():
        item = next(i for i in rules.items if i.id == iid)
        if iid not in actual:
            cause, why = why_not(res, item, lang, facts)
            label = _item_label(item, lang)
            if cause == "not_applicable+excluded":  # its own rule leaves out what a counted item has
                out.append(Wrong("items", "not_applicable", [
                    Why("not_applicable", msg("not_applicable", lang, item=label, why=_doc(item, lang) + " — "
                                              + msg("here", lang, facts=facts.for_item(item))), prio=0),
                    Why("excluded", msg("excluded", lang, item=label, why=why), prio=1)]))
            else:
                out.append(Wrong("items", "not_applicable", [Why(cause, msg(cause, lang, item=label, why=why))]))
            counted.append(Award(item, value if value is not None else _value_of(res, item), 1))
            continue
        a = actual[iid]
        counted.append(a if value is None or value in (a.total, a.value) else Award(a.item, value, 1))
        # an item counted N times: its total (一般高:2), or the value of one (一般高:1, as the JSON's value and count)
        if value is not None and value != a.total and not (a.count > 1 and value == a.value):
            out.append(Wrong("items", "wrong_value", [Why("wrong_value", msg(
                "wrong_value", lang, item=_item_label(a.item, lang), value=a.total, unit=_unit(rules.unit, lang),
                given=value, why=_value_why(res, a, lang)))]))
    return out, counted


def _value_why(res: Result, a: Award, lang: str) -> str:
    assert res.ruleset is not None and res.best is not None
    raw = a.item.value
    if a.count > 1:
        return msg("value_count", lang, value=a.value, count=a.count)
    if isinstance(raw, dict) and "closed" in raw:
        return msg("value_side", lang, side=msg("closed" if res.best.candidate.hand.closed else "open", lang))
    if isinstance(raw, dict) and "option" in raw:
        return msg("value_option", lang, option=raw["option"], chosen=res.options.get(raw["option"]))
    return ""


def why_not(res: Result, item: ItemDef, lang: str = "en", facts: Facts | None = None) -> tuple[str, str]:
    """Why an item is not among the awards of the kept reading: ``("excluded", why)`` when it holds and another
    item that counts drops it, else ``("not_applicable", why)`` with the facts of the hand its condition reads;
    ``("not_applicable+excluded", why)`` when its condition fails and its rule names an item this hand counts
    (MCR 幺九刻: "a triplet … that earns no 圈风刻")."""
    assert res.best is not None and res.ruleset is not None
    rules = res.ruleset
    facts = facts or Facts(res, lang)
    if not item.is_enabled(res.options):
        return "not_applicable", msg("house_rule", lang, option=item.enabled, rules=rules.id)
    c = res.best.candidate
    if item.when(c):
        awards = res.best.awards
        by = [a.item for a in awards if item.id in a.item.excludes
              or ("*" in a.item.excludes and a.item.id != item.id and item.id not in a.item.spares)]
        if by:
            return "excluded", msg("excluded_by", lang, by=", ".join(_item_label(i, lang) for i in by),
                                   item=_first_name(item.names, lang))
        higher = [a.item for a in awards if rules.tiers.index(a.item.tier) < rules.tiers.index(item.tier)]
        if higher:
            return "excluded", msg("dropped_by_tier", lang, by=", ".join(_item_label(i, lang) for i in higher),
                                   tier=higher[0].tier)
        reducing = [(a.item, n) for a in awards for rid, n in a.item.reduces if rid == item.id]
        if reducing:
            return "excluded", "; ".join(msg("reduced_by", lang, by=_item_label(i, lang), n=n) for i, n in reducing)
        # it holds on this reading but was not kept (a value of 0 on this side of closed / open …)
        return "not_applicable", _doc(item, lang) + " — " + msg("here", lang, facts=facts.for_item(item))
    doc = _doc(item)  # the English text: it names the items its rule leaves out in Chinese
    # an item whose own rule leaves out what another item counts (MCR 幺九刻 "that earns no 圈风刻"): that item
    # takes it, when this hand counts it
    takers = [a.item for a in res.best.awards if a.item.id != item.id and len(a.item.names.get("zh", "")) > 1
              and a.item.names["zh"] in doc]
    if takers:
        return "not_applicable+excluded", msg("taken_by", lang, by=", ".join(_item_label(i, lang) for i in takers))
    return "not_applicable", _doc(item, lang) + " — " + msg("here", lang, facts=facts.for_item(item))


def _doc(item: ItemDef, lang: str = "en") -> str:
    """An item's condition in words: its doc (in ``lang`` where the ruleset gives it), else its predicate's
    docstring, else the predicate itself."""
    if item.doc:
        return localized(item.doc, lang).strip()

    name = re.match(r"[\w.]+", item.when_text)
    fn = PREDICATES.get(name.group(0)) if name else None
    doc = re.sub(r"\s+", " ", doc_of(fn).strip().split("\n\n")[0])
    for param, value in re.findall(r"(\w+)=([^,()]+)", item.when_text):  # the parameters this item gives
        doc = doc.replace(f"``{param}``", value.strip())
    return doc.replace("``", "") or item.when_text


def _payer_only(res: Result) -> set[int]:
    """The awards (by id) that are not on every payment of this hand."""
    assert res.best is not None
    return {id(a) for p in res.best.settlement.payments for a in p.extras}


def _compare_fan(res: Result, rules: Ruleset, given: int, facts: Facts, lang: str,
                 student_awards: list[Award] | None) -> Wrong:
    """The explanations of a wrong fan: the items the student counted (when written), a payer's item counted in
    it, the cap; with no items written, an item missed or counted too many — else the fan itself is wrong."""
    assert res.best is not None
    s = res.best.settlement
    unit = _unit(rules.unit, lang)
    own = _payer_only(res)
    own_ids = {a.item.id for a in res.best.awards if id(a) in own}
    common = [a for a in res.best.awards if id(a) not in own]
    besides = [msg("payment_only", lang, item=_item_label(a.item, lang), value=a.total, payers=", ".join(
        p.payer for p in s.payments if any(x is a for x in p.extras))) for a in res.best.awards if id(a) in own]
    items = " + ".join(f"{_item_label(a.item, lang)} {a.total}" for a in common) or msg("no_item", lang)
    told = msg("besides", lang, what="; ".join(besides)) if besides else ""
    out = [Why("wrong_fan", msg("fan", lang, unit=unit, given=given, actual=s.fan, items=items, besides=told),
               prio=7, generic=True)]
    counted_ids = {a.item.id for a in student_awards or ()}
    if student_awards is not None:  # the fan of the items the student counted
        mine = sum(a.total for a in student_awards if a.item.id not in own_ids)
        if mine == given:
            out.append(Why("wrong_fan", msg("fan_items", lang, unit=unit, given=given, actual=s.fan, items=items,
                                            besides=told), cost=0, prio=1, follows=("items",), inherit=True))
    for p in s.payments:  # the fan with a payer's own items in it, all or one (items written: they name them)
        for extras in ([p.extras] if len(p.extras) < 2 else [p.extras, *([a] for a in p.extras)]):
            theirs = {a.item.id for a in extras}
            if extras and s.fan + sum(a.total for a in extras) == given and (
                    student_awards is None or theirs <= counted_ids):
                out.append(Why("payer_item_to_all", msg(
                    "fan_payer_item", lang, unit=unit, given=given, payer=p.payer, theirs=p.fan, actual=s.fan,
                    items=", ".join(_item_label(a.item, lang) for a in extras)), prio=0, carries=False))
                break
        else:
            continue
        break
    fan_cap = rules.resolve(rules.formula.get("fan_cap"), res.options) if "fan_cap" in rules.formula else None
    if fan_cap is not None and given == fan_cap and s.fan > fan_cap:
        out.append(Why("cap_wrong", msg("fan_capped", lang, unit=unit, given=given, cap=fan_cap, actual=s.fan),
                       prio=1, carries=False))
    if student_awards is None:  # the fan alone: one item's value away from it names that item
        c = res.best.candidate
        valued = [a for a in common if a.total]
        short = [msg("maybe_item", lang, item=_item_label(a.item, lang), value=a.total, why=facts.for_item(a.item))
                 for a in valued if given == s.fan - a.total]
        if not short:  # two items short
            short = [msg("maybe_item", lang, item=f"{_item_label(a.item, lang)} + {_item_label(b.item, lang)}",
                         value=a.total + b.total, why=f"{facts.for_item(a.item)}; {facts.for_item(b.item)}")
                     for i, a in enumerate(valued) for b in valued[i + 1:] if given == s.fan - a.total - b.total]
        if short:
            out.append(Why("missed_item", msg("missed_maybe", lang, unit=unit, given=given, actual=s.fan,
                                              items=msg("or", lang).join(short)), prio=8))
        awarded = {a.item.id for a in res.best.awards}
        extra = False
        for item in rules.items:
            if item.id in awarded or not item.is_enabled(res.options) or not item.when(c):
                continue
            value = _value_of(res, item)
            if value and given == s.fan + value:
                cause, why = why_not(res, item, lang, facts)
                out.append(Why(cause.split("+")[-1], msg("excluded_maybe", lang, unit=unit, given=given,
                                                         item=_item_label(item, lang), value=value, why=why), prio=8))
                extra = True
        if given > s.fan and not extra:
            out.append(Why("not_applicable", msg("too_many", lang, unit=unit, given=given, actual=s.fan,
                                                 excess=given - s.fan, items=items, facts=facts.reading()), prio=8))
    return Wrong("fan", "wrong", out)


def _compare_fu(s: Settlement, given: int, lang: str) -> Wrong:
    raw = sum(fu for _, fu in s.fu_lines)
    lines = " + ".join(f"{tr(reason, lang)} {fu}" for reason, fu in s.fu_lines) or "—"
    rounded = msg("fu_rounded", lang, raw=raw, fu=s.fu) if raw != s.fu else ""
    out = [Why("wrong_fu", msg("fu", lang, given=given, actual=s.fu, lines=lines, rounded=rounded), prio=7,
               generic=True)]
    if raw != s.fu and given == raw:  # the fu before rounding: nothing else gives a number off the tens
        out.append(Why("rounding", msg("fu_unrounded", lang, given=given, raw=raw, fu=s.fu), prio=1))
    elif raw != s.fu and raw % 10 and given == raw // 10 * 10:  # rounded down, or ten fu too few: a guess
        out.append(Why("rounding", msg("h_round_fu_down", lang, raw=raw, down=given, fu=s.fu), prio=8))
    return Wrong("fu", "wrong", out)


# --- tracing a wrong total to its step ---------------------------------------------------------------------


# --- one record ---------------------------------------------------------------------------------------------


def check_record(record: Record, request: Request, lang: str = "en") -> dict[str, Any]:
    """One homework record checked: the object ``check --json`` prints for it (``correct`` is None when the
    record cannot be checked, with the ``error``); ``request`` is the file's. The one place that builds it:
    ``check --json`` and ``mjcalc.check``."""
    res = score_record(record, request)
    entry: dict[str, Any] = {"line": record.line, "input": record.text}
    try:
        if res.error is not None:
            raise res.error
        if record.answer is None:
            raise MjcalcError("answer", msg("no_answer", lang))
        differences = compare(res, parse_answer(record.answer, lang), lang)
    except MjcalcError as exc:
        entry.update(correct=None, error=exc.render(lang))
        return entry
    best = res.best.settlement if res.best else None
    entry.update(correct=not differences, differences=[d.to_json() for d in differences],
                 expected={"result": res.result, "fan": best.fan if best else None,
                           "fu": best.fu if best else None, "points": best.points if best else None,
                           "items": [a.item.id for a in res.best.awards] if res.best else []})
    return entry
