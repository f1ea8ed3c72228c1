"""Homework checking: a student's answer next to the right one, and why they differ.

An answer follows the hand after ``=>`` as key–value pairs, any subset::

    123m456p13s777z55z 2s +from=W => fan 3 points 16 items 平胡,放炮,夹胡,立胡
    ... => han 3 fu 30 points 3900          (riichi)
    ... => fan 4 items 自摸:1,夹胡:2          (an item's value after a colon)
    ... => not a win

Keys (English or Chinese): fan 番, han 翻, tai 台, fu 符, points 分, items 番种, result 结果.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .engine import Result
from .errors import MjcalcError, did_you_mean
from .ruleset import SCOPES, ItemDef, Ruleset
from .settlement import FORMULAS

KEYS = {
    "fan": "fan", "番": "fan", "番数": "fan", "han": "fan", "翻": "fan", "tai": "fan", "台": "fan", "台数": "fan",
    "fu": "fu", "符": "fu", "points": "points", "point": "points", "pts": "points", "分": "points", "得分": "points",
    "items": "items", "番种": "items", "result": "result", "结果": "result",
}
NOT_A_WIN = {"not a win", "not_a_win", "no win", "不能和", "不能胡", "不和", "诈和", "诈胡"}
ITEM_SPLIT = re.compile(r"[,，、;；]\s*")


@dataclass
class Answer:
    values: dict[str, Any] = field(default_factory=dict)  # fan, fu, points: int; result: str
    items: list[tuple[str, int | None]] | None = None  # (name as written, value if given)


def parse_answer(raw: str | dict[str, Any]) -> Answer:
    """The student's answer from ``fan 3 points 16 items 自摸,夹胡`` (or a mapping of the same keys)."""
    if isinstance(raw, dict):
        return _answer_from_mapping(raw)
    text = raw.strip()
    if text.lower() in NOT_A_WIN:
        return Answer({"result": "not_a_win"})
    tokens = re.split(r"\s+", text.replace("=", " ").replace("：", " ").replace(":", ": ").strip())
    answer = Answer()
    i = 0
    while i < len(tokens):
        key = KEYS.get(tokens[i].rstrip(":").lower())
        if key is None:
            raise MjcalcError("answer", f"'{tokens[i]}' is not an answer key{did_you_mean(tokens[i], KEYS)}; "
                              "use fan, han, tai, fu, points, items, result")
        j = i + 1
        while j < len(tokens) and KEYS.get(tokens[j].rstrip(":").lower()) is None:
            j += 1
        value = " ".join(tokens[i + 1 : j]).replace(": ", ":")
        if not value:
            raise MjcalcError("answer", f"'{tokens[i]}' needs a value")
        _set(answer, key, value)
        i = j
    return answer


def _answer_from_mapping(raw: dict[str, Any]) -> Answer:
    answer = Answer()
    for k, v in raw.items():
        key = KEYS.get(str(k).lower())
        if key is None:
            raise MjcalcError("answer", f"'{k}' is not an answer key; use fan, han, tai, fu, points, items, result")
        _set(answer, key, ",".join(map(str, v)) if isinstance(v, list) else str(v))
    return answer


def _set(answer: Answer, key: str, value: str) -> None:
    if key == "items":
        answer.items = []
        for part in ITEM_SPLIT.split(value):
            part = part.strip()
            if not part:
                continue
            name, _, number = part.rpartition(":") if ":" in part else (part, "", "")
            answer.items.append((name.strip(), _int(number, key) if number else None))
    elif key == "result":
        answer.values["result"] = "not_a_win" if value.lower() in NOT_A_WIN else value.lower()
    else:
        answer.values[key] = _int(value, key)


def _int(text: str, key: str) -> int:
    try:
        return int(text.strip().lstrip("+"))
    except ValueError:
        raise MjcalcError("answer", f"{key}: '{text}' is not a whole number") from None


@dataclass
class Difference:
    field: str  # result | fan | fu | points | items
    kind: str  # not_a_win | is_a_win | missed | not_applicable | wrong_value | unknown_item | wrong | formula
    message: str

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "kind": self.kind, "message": self.message}


def compare(res: Result, answer: Answer, lang: str = "en") -> list[Difference]:
    """What the student got wrong, each with the reason."""
    rules = res.ruleset
    assert rules is not None
    given = answer.values
    if res.best is None:
        if given.get("result") == "not_a_win":
            return []
        why = "; ".join(f"{c.id}: {c.message.get(lang) or c.message['en']}" for c in res.failed)
        return [Difference("result", "not_a_win", f"the hand is not a win — {why}")]
    if given.get("result") == "not_a_win":
        return [Difference("result", "is_a_win", "the hand is a win: it meets every condition of "
                           f"{rules.id} ({', '.join(c.id for c in rules.conditions)})")]
    out: list[Difference] = []
    s = res.best.settlement
    if answer.items is not None:
        out.extend(_compare_items(res, rules, answer.items, lang))
    unit = rules.unit
    if "fan" in given and given["fan"] != s.fan:
        own = {id(a) for p in s.payments for a in p.extras}  # items of some payments only: not in the fan
        common = [a for a in res.best.awards if id(a) not in own]
        besides = [f"{_item_label(a.item, lang)} {a.total} on " + ", ".join(
            f"{p.payer}'s" for p in s.payments if any(x is a for x in p.extras)) + " payment only"
            for a in res.best.awards if id(a) in own]
        out.append(Difference("fan", "wrong", f"{unit}: you wrote {given['fan']}, it is {s.fan} "
                              f"({' + '.join(_item_label(a.item, lang) + f' {a.total}' for a in common) or 'no item'}"
                              + (f"; besides, {'; '.join(besides)}" if besides else "") + ")"))
    if "fu" in given and s.fu is not None and given["fu"] != s.fu:
        lines = ", ".join(f"{reason} {fu}" for reason, fu in s.fu_lines)
        out.append(Difference("fu", "wrong", f"fu: you wrote {given['fu']}, it is {s.fu} ({lines})"))
    if "points" in given and given["points"] != s.points:
        out.append(Difference("points", "formula", _points_message(res, given, lang)))
    return out


def _item_label(item: ItemDef, lang: str) -> str:
    other = "en" if lang == "zh" else "zh"
    return f"{item.names.get(lang)} ({item.names.get(other)})"


def _resolve(rules: Ruleset, name: str) -> ItemDef | None:
    low = name.strip().lower().replace(" ", "")
    for item in rules.items:
        spellings = {item.id, *(v.lower().replace(" ", "") for v in item.names.values())}
        if low in spellings or low.replace("-", "_") in spellings:
            return item
    return None


def _compare_items(res: Result, rules: Ruleset, written: list[tuple[str, int | None]], lang: str) -> list[Difference]:
    assert res.best is not None
    actual = {a.item.id: a for a in res.best.awards}
    out: list[Difference] = []
    named: dict[str, int | None] = {}
    for name, value in written:
        item = _resolve(rules, name)
        if item is None:
            spellings = [n for i in rules.items for n in (i.id, *i.names.values())]
            out.append(Difference("items", "unknown_item",
                                  f"'{name}' is not an item of {rules.id}{did_you_mean(name, spellings)}"))
            continue
        named[item.id] = value
    own = {id(a) for p in res.best.settlement.payments for a in p.extras}  # not on every payment of this hand
    for iid, award in actual.items():
        if iid not in named and award.total:  # an item worth nothing (平和 0 in fan-from-0 rules) is no miss
            scope = f", {SCOPES[award.item.applies_to]}" if id(award) in own else ""
            out.append(Difference("items", "missed", f"missed {_item_label(award.item, lang)} +{award.total}{scope}: "
                                  f"{award.item.doc or award.item.when_text}"))
    for iid, value in named.items():
        if iid not in actual:
            item = next(i for i in rules.items if i.id == iid)
            out.append(Difference("items", "not_applicable",
                                  f"counted {_item_label(item, lang)}, which does not apply: {why_not(res, item)}"))
        elif value is not None and value != actual[iid].total:
            a = actual[iid]
            out.append(Difference("items", "wrong_value",
                                  f"{_item_label(a.item, lang)} is worth {a.total} {rules.unit}, not {value}"))
    return out


def why_not(res: Result, item: ItemDef) -> str:
    """Why an item is not among the awards of the kept reading."""
    assert res.best is not None and res.ruleset is not None
    if not item.is_enabled(res.options):
        return f"it counts only under the house rule {item.enabled} (see mjcalc rules show {res.ruleset.id})"
    c = res.best.candidate
    if item.when(c):
        fired = [i for i in res.ruleset.items if i.is_enabled(res.options) and i.when(c)]
        by = [i for i in fired if item.id in i.excludes or ("*" in i.excludes and i.id != item.id and item.id not in i.spares)]
        if by:
            return "it is not counted together with " + ", ".join(f"{i.names.get('zh')} {i.id}" for i in by)
    return item.doc or item.when_text


def _points_message(res: Result, given: dict[str, Any], lang: str) -> str:
    """Which step of the arithmetic went wrong, with the arithmetic written out."""
    assert res.best is not None and res.ruleset is not None
    s = res.best.settlement
    worked = "; ".join(f"{p.payer}: {p.formula}" + (f" (cut to {p.amount})" if p.capped_from else "")
                       for p in s.payments)
    head = f"points: you wrote {given['points']}, it is {s.points} — {worked}; total {s.points}"
    student = given["points"]
    hints = []
    kind = res.ruleset.formula.get("kind")
    params = {k: res.ruleset.resolve(v, res.options) for k, v in res.ruleset.formula.items()}
    if "fan" in given and given["fan"] != s.fan and kind in FORMULAS:
        delta = given["fan"] - s.fan
        follow = sum(FORMULAS[kind](p.fan + delta, params)[0] for p in s.payments)
        if follow == student:
            hints.append(f"your points follow from your {res.ruleset.unit} of {given['fan']}: the {res.ruleset.unit} "
                         "is what is wrong")
    if any(p.amount == student for p in s.payments) and len(s.payments) > 1:
        hints.append(f"that is one payer's share: the winner collects from all {len(s.payments)} payers")
    if kind in FORMULAS:
        flat = sum(FORMULAS[kind](s.fan, params)[0] for _ in s.payments)
        if flat == student and flat != s.points and any(p.extras for p in s.payments):
            own = {id(a) for p in s.payments for a in p.extras}  # items not on every payment of this hand
            scoped = [a for a in res.best.awards if id(a) in own]
            names = ", ".join(f"{a.item.names.get('zh')} {a.item.id} ({SCOPES[a.item.applies_to]})" for a in scoped)
            hints.append(f"every payer was charged the same {res.ruleset.unit}, but {names} apply only to some payers")
    uncapped = [sum(p.capped_from or p.amount for p in s.payments)]
    if kind in FORMULAS:
        uncapped.append(sum(FORMULAS[kind](p.fan, params)[0] for p in s.payments))
    if s.notes and student in uncapped and student != s.points:
        hints.append("the cap cuts the payments: " + "; ".join(s.notes))
    return head + ("" if not hints else " — " + "; ".join(hints))
