"""Homework checking: a student's answer next to the right one, and why they differ.

An answer follows the hand after ``=>`` as key–value pairs, any subset::

    123m456p13s777z55z 2s +from=W => fan 3 points 16 items 平胡,放炮,夹胡,立胡
    ... => han 3 fu 30 points 3900          (riichi)
    ... => fan 4 items 自摸:1,夹胡:2          (an item's value after a colon)
    ... => not a win

Keys (English or Chinese): fan 番, han 翻, tai 台, fu 符, points 分, items 番种, result 结果.

Every difference names the fact of this hand that decides it, read from the scoring itself: the reading kept
(where the winning tile went, which wait), the wildcard and what it stood for, the context (who discarded,
the dealer, the closed seats) and the settlement (each payment's items, formula and cap). A wrong total is
traced to its step by settling the same reading again with that one step done the way the student did it
(``settlement.WHAT_IF``): every way that gives the student's number is named. Each difference carries a
``cause`` from ``CAUSES`` (docs/OUTPUT.md).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from . import tiles as T
from .engine import Result
from .errors import MjcalcError
from .frozen import replace
from .i18n import N_, localized, tr
from .render import UNITS
from .ruleset import ItemDef, Ruleset
from .settlement import SETTLERS, Award, Settlement, settle_per_payer

if TYPE_CHECKING:
    from .batch import Record
    from .engine import Request

KEYS = {
    "fan": "fan", "番": "fan", "番数": "fan", "han": "fan", "翻": "fan", "翻数": "fan", "tai": "fan", "台": "fan",
    "台数": "fan", "fu": "fu", "符": "fu", "符数": "fu", "points": "points", "point": "points", "pts": "points",
    "分": "points", "得分": "points", "分数": "points", "items": "items", "番种": "items", "result": "result",
    "结果": "result",
}
NOT_A_WIN = {"not a win", "not_a_win", "no win", "不能和", "不能胡", "不和", "诈和", "诈胡"}
NO_ITEMS = {"none", "-", "—", "无", "没有", "无番"}
ITEM_SPLIT = re.compile(r"[,，、;；]\s*")

# The causes a difference can carry (docs/OUTPUT.md, "check --json"): what step of the answer went wrong.
CAUSES: Final = (
    "missed_item", "not_applicable", "excluded", "wrong_value", "unknown_item", "wrong_fan", "wrong_fu",
    "payer_item_to_all", "payer_item_missed", "one_share", "wrong_base", "cap_missed", "cap_wrong", "rounding",
    "is_a_win", "not_a_win", "below_minimum", "arithmetic",
)

# --- the texts, in English: the message ids of the catalog (mjcalc/locale/*.po holds every other language) --

MESSAGES: Final[dict[str, str]] = {
    "no_key": N_("'{word}' is not an answer key{hint}; use fan, han, tai, fu, points, items, result"),
    "no_value": N_("'{word}' needs a value"),
    "not_number": N_("{key}: '{text}' is not a whole number"),
    "no_answer": N_("no answer: write it after the hand, e.g. => fan 3 points 16"),
    "did_you_mean": N_(" (did you mean {words}?)"),
    "or": N_(" or "),
    "unknown_item": N_("'{name}' is not an item of {rules}{hint}"),
    "not_a_win": N_("the hand is not a win — {why}"),
    "waiting": N_("the hand is not a win: it is one tile short (waiting on {waits})"),
    "below_minimum": N_("below the minimum: its items count {reached} {unit}, {minimum} are needed to win ({why})"),
    "is_a_win": N_("the hand is a win: {reading}; it meets every condition of {rules} ({conditions})"),
    "missed": N_("missed {item} +{value}{scope}: {why}"),
    "missed_maybe": N_("{unit}: {given} is this hand's {actual} without {items} — missed it?"),
    "maybe_item": N_("{item} +{value} ({why})"),
    "not_applicable": N_("counted {item}, which does not apply: {why}"),
    "excluded": N_("counted {item}, which this hand has but may not count: {why}"),
    "too_many": N_("{unit}: {given} is {excess} more than this hand's {actual} — an item counted that it does "
                   "not have? It counts {items} ({facts})"),
    "excluded_maybe": N_("{unit}: {given} is {item}'s {value} too many — {why}"),
    "excluded_by": N_("{by} excludes it (不计 {item})"),
    "taken_by": N_("{by}, which this hand counts, rules it out"),
    "dropped_by_tier": N_("{by} ({tier}) drops every item of a lower tier"),
    "reduced_by": N_("{by} takes {n} of its count (不计)"),
    "house_rule": N_("it counts only under the house rule {option} (see mjcalc rules show {rules})"),
    "wrong_value": N_("{item} is worth {value} {unit} here, not {given}{why}"),
    "value_side": N_(" (the hand is {side})"),
    "value_count": N_(" ({value} × {count})"),
    "value_option": N_(" (option {option} = {chosen})"),
    "closed": N_("closed"),
    "open": N_("open"),
    "fan": N_("{unit}: you wrote {given}, it is {actual} ({items}{besides})"),
    "no_item": N_("no item"),
    "besides": N_("; besides, {what}"),
    "payment_only": N_("{item} {value} on the payment of {payers} only"),
    "fan_payer_item": N_("{unit}: your {given} counts {items}, which {payer} alone pays: the hand's {unit} is "
                         "what every payer pays on ({actual}), {payer} pays {theirs}"),
    "fan_capped": N_("{unit}: {given} is the cap — the cap ({cap} {unit}) cuts each payment, the hand's {unit} "
                     "stays {actual}"),
    "fu": N_("fu: you wrote {given}, it is {actual} ({lines}{rounded})"),
    "fu_rounded": N_(" = {raw}, rounded up to {fu}"),
    "fu_unrounded": N_("fu: {given} is the fu before rounding — fu are rounded up to the next 10: {raw} → {fu}"),
    "points": N_("points: you wrote {given}, it is {actual} — {why}; right: {worked}"),
    "points_plain": N_("points: you wrote {given}, it is {actual} — {worked}"),
    "yours": N_("{what}: {worked}"),
    "total": N_("total {total}"),
    "cut": N_(" (cut to {amount})"),
    "h_fan": N_("your points follow from your {unit} of {given} (it is {actual})"),
    "h_items": N_("your points follow from the items you counted ({unit} {given}; it is {actual})"),
    "h_fan_other": N_("those are the points of {given} {unit} (it is {actual} {unit})"),
    "h_fu": N_("your points follow from {given} fu (it is {actual}: {lines})"),
    "h_to_all": N_("every payer was charged {item}, but it applies to {scope} (here: {payers})"),
    "h_payer_missed": N_("{item} was left out of the payment of {payers}: it applies to {scope}"),
    "h_fan_on_discard": N_("every payer was charged the {unit}: on a discard only the discarder {payer} pays it, "
                           "the others pay the base alone"),
    "h_discarder_only": N_("every loser was charged: on a discard only the discarder {payer} pays"),
    "h_one_share": N_("that is {payer}'s payment alone: the winner collects from {n} payers ({amounts})"),
    "h_base": N_("those are the points at {name} {value}; it is {actual} here"),
    "h_base_as_price": N_("the base {base} was taken as the price of each {unit} and not paid itself: it is base "
                          "{base} + each {unit} × {price}"),
    "h_cap_missed": N_("the cap was not applied ({caps}): {notes}"),
    "h_cap_scope": N_("the cap was applied {wrong} — here it is {right}: {notes}"),
    "h_cap_value": N_("those are the points with the cap at {value}{unit}; it is {actual}"),
    "h_limit_missed": N_("the limit was not applied: {note}"),
    "h_limit_wrong": N_("those are the points of base {base} ({name}); it is {note}"),
    "on_word": N_("on"),
    "off_word": N_("off"),
    "h_kiriage": N_("those are the points with kiriage mangan {on}; the option kiriage is {now}"),
    "h_round_fu": N_("the fu were not rounded up: {raw} → {fu}"),
    "h_round_fu_down": N_("the fu were rounded down: {raw} → {down}, it is up: {raw} → {fu}"),
    "h_round_pay": N_("the payments were not rounded up to 100"),
    "h_round_pay_to": N_("the payments were rounded to {step}, not up to 100"),
    "h_dealer": N_("those are the points of a {wrong} win; {seat} is {right}"),
    "dealer_word": N_("dealer's"),
    "non_dealer_word": N_("non-dealer's"),
    "is_dealer": N_("the dealer"),
    "is_not_dealer": N_("not the dealer"),
    "scope_per_payer": N_("to each payment on its own"),
    "scope_net": N_("to the winner's total"),
    "no_cap_here": N_("no cap cuts this hand"),
    # facts of this hand
    "f_win": N_("the winning tile {tile} completes {group}: {wait}"),
    "f_win_plain": N_("the winning tile {tile} completes {group}"),
    "f_waits": N_("before it the hand waited on {waits}"),
    "f_reading": N_("read as {reading}"),
    "f_form": N_("the hand is read as {form}"),
    "f_zimo": N_("self-drawn"),
    "f_discard": N_("won on {seat}'s discard"),
    "f_dealer_wins": N_("the winner {seat} is the dealer"),
    "f_dealer_other": N_("the winner is {seat}; the dealer is E"),
    "f_closed": N_("the winner's hand is closed"),
    "f_open": N_("the winner's hand is open ({melds})"),
    "f_closed_payers": N_("closed losers (+closed): {seats}"),
    "f_no_closed_payers": N_("no loser is closed (+closed names none)"),
    "f_wild": N_("the wildcard is {tile}; the hand holds {count}{stood}"),
    "f_wild_stood": N_(", here {subs}"),
    "f_no_wild_held": N_("the wildcard is {tile}; the hand holds none"),
    "f_no_wildcard": N_("no wildcard is named on the line"),
    "f_flag_on": N_("the line says +{flag}"),
    "f_flag_off": N_("the line has no +{flag}"),
    "f_flowers": N_("flowers: {flowers}"),
    "f_no_flowers": N_("no flowers"),
    "f_dora": N_("dora indicators: {tiles}"),
    "f_seat": N_("seat {seat}, round {round}"),
    "here": N_("here: {facts}"),
    "score_line": N_("{right} of {total} right"),
    "score_pct": N_(" ({pct}%)"),
    "score_errors": N_("; {n} could not be checked"),
}


def _unit(unit: str, lang: str) -> str:
    """A ruleset's unit in ``lang``: fan 番, han 翻, tai 台 (the catalog's words of render.UNITS)."""
    return tr(UNITS[unit], lang) if unit in UNITS else unit


def msg(name: str, lang: str = "en", /, **values: Any) -> str:
    """A text of ``MESSAGES`` in ``lang``, from the catalog (English when it has no translation), filled in."""
    english = MESSAGES[name]
    text = tr(english, lang)
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a translation that names a blank wrongly: the English
        return english.format(**values)


def score_text(right: int, total: int, errors: int, lang: str = "en") -> str:
    """The score line of ``mjcalc check``: ``2 of 12 right (17%)``, rounded to the nearest per cent."""
    text = msg("score_line", lang, right=right, total=total)
    if total:
        text += msg("score_pct", lang, pct=round(100 * right / total))
    if errors:
        text += msg("score_errors", lang, n=errors)
    return text


def suggest(word: str, known: Iterable[str], lang: str = "en", cutoff: float = 0.5) -> str:
    """`` (did you mean 'x'?)`` for the closest of ``known`` (case and spaces aside), else empty. The cutoff is
    low enough for a two-character Chinese word with one character wrong (自莫 → 自摸)."""
    spelled: dict[str, str] = {}
    for k in known:
        spelled.setdefault(_plain(k), k)
    close = difflib.get_close_matches(_plain(word), list(spelled), n=2, cutoff=cutoff)
    if not close:
        return ""
    return msg("did_you_mean", lang, words=msg("or", lang).join(f"'{spelled[c]}'" for c in close))


# Traditional characters of item names, to their simplified form: an answer written in either reads the same.
TRADITIONAL: Final = str.maketrans(
    "門莊聽槓龍風對雙發無連獨將滿雜點砲寶邊張東數氣貫順並計減過撈開絕單釣臺異紅綠圓碼買賣嶺嶺啟鬥鳥頭幹骰盤陸見區戰",
    "门庄听杠龙风对双发无连独将满杂点炮宝边张东数气贯顺并计减过捞开绝单钓台异红绿圆码买卖岭岭启斗鸟头干骰盘陆见区战")


def _plain(text: str) -> str:
    return re.sub(r"[\s_,，-]", "", text.strip().lower().translate(TRADITIONAL))


@dataclass
class Answer:
    values: dict[str, Any] = field(default_factory=dict)  # fan, fu, points: int; result: str
    items: list[tuple[str, int | None]] | None = None  # (name as written, value if given)


def parse_answer(raw: str | dict[str, Any], lang: str = "en") -> Answer:
    """The student's answer from ``fan 3 points 16 items 自摸,夹胡`` (or a mapping of the same keys)."""
    if isinstance(raw, dict):
        return _answer_from_mapping(raw, lang)
    text = raw.strip()
    if text.lower() in NOT_A_WIN:
        return Answer({"result": "not_a_win"})
    tokens = re.split(r"\s+", text.replace("=", " ").replace("：", ": ").strip())
    answer = Answer()
    i = 0
    while i < len(tokens):
        key = _key(tokens[i])
        if key is None:
            raise MjcalcError("answer", msg("no_key", lang, word=tokens[i], hint=suggest(tokens[i], KEYS, lang)))
        j = i + 1
        while j < len(tokens) and _key(tokens[j]) is None:
            j += 1
        value = " ".join(tokens[i + 1 : j])
        if not value and ":" in tokens[i].rstrip(":"):  # fan:3
            value = tokens[i].split(":", 1)[1]
        if not value and key == "items":  # no item at all
            answer.items = []
            i = j
            continue
        if not value:
            raise MjcalcError("answer", msg("no_value", lang, word=tokens[i]))
        _set(answer, key, value, lang)
        i = j
    return answer


def _key(token: str) -> str | None:
    word = token.rstrip(":").lower()
    return KEYS.get(word) or KEYS.get(word.split(":", 1)[0]) if word else None


def _answer_from_mapping(raw: dict[str, Any], lang: str) -> Answer:
    answer = Answer()
    for k, v in raw.items():
        key = KEYS.get(str(k).lower())
        if key is None:
            raise MjcalcError("answer", msg("no_key", lang, word=k, hint=suggest(str(k), KEYS, lang)))
        _set(answer, key, ",".join(map(str, v)) if isinstance(v, list) else str(v), lang)
    return answer


def _set(answer: Answer, key: str, value: str, lang: str) -> None:
    if key == "items":
        answer.items = []
        if value.strip().lower() in NO_ITEMS:
            return
        for part in ITEM_SPLIT.split(value):
            part = part.strip()
            if not part:
                continue
            name, colon, number = part.rpartition(":")
            if colon and re.fullmatch(r"\s*[+-]?\d+\s*", number):  # 自摸:2; a name with a colon (Dragon triplet: green)
                answer.items.append((name.strip(), int(number)))
            else:
                answer.items.append((part, None))
    elif key == "result":
        answer.values["result"] = "not_a_win" if value.lower() in NOT_A_WIN else value.lower()
    else:
        answer.values[key] = _int(value, key, lang)


def _int(text: str, key: str, lang: str) -> int:
    try:
        return int(text.strip().lstrip("+"))
    except ValueError:
        raise MjcalcError("answer", msg("not_number", lang, key=key, text=text)) from None


@dataclass
class Difference:
    field: str  # result | fan | fu | points | items
    kind: str  # not_a_win | is_a_win | missed | not_applicable | wrong_value | unknown_item | wrong | formula
    message: str
    cause: str = "arithmetic"  # one of CAUSES

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "kind": self.kind, "cause": self.cause, "message": self.message}


# --- the facts of this hand, from the scoring ----------------------------------------------------------------


def _name(names: Mapping[str, str], lang: str) -> str:
    return names.get(lang) or names.get("en") or next(iter(names.values()))


def _item_label(item: ItemDef, lang: str) -> str:
    other = "en" if lang == "zh" else "zh"
    first, second = _name(item.names, lang), item.names.get(other)
    return f"{first} ({second})" if second and second != first else first


WAIT_NAMES: Final = {
    "edge": N_("an edge wait (边张)"),
    "closed": N_("a closed wait (坎张)"),
    "pair": N_("a pair wait (单钓)"),
    "two_sided": N_("a two-sided wait (两面)"),
    "dual_pung": N_("a dual-pung wait (对碰)"),
    "single": N_("a single tile"),
}
FORM_NAMES: Final = {
    "regular": N_("sets and a pair"),
    "seven_pairs": N_("seven pairs"),
    "thirteen_orphans": N_("thirteen orphans"),
}


class Facts:
    """The facts of one scored hand in words, each computed once: the sentences a difference quotes."""

    def __init__(self, res: Result, lang: str) -> None:
        assert res.best is not None and res.ruleset is not None
        self.res, self.lang = res, lang
        self.c = res.best.candidate
        self.ctx = self.c.ctx

    def reading(self) -> str:
        marked = [f"{t}*" if i == self.c.reading.win_index else t for i, t in enumerate(self.c.reading.text())]
        return msg("f_reading", self.lang, reading=" ".join(marked))

    def win(self) -> str:
        c, lang = self.c, self.lang
        tile = c.hand.win_tile
        if tile is None or c.reading.win_index is None:
            return self.reading()
        group = c.reading.groups[c.reading.win_index].text()
        wait = WAIT_NAMES.get(c.reading.wait or "")
        text = (msg("f_win", lang, tile=T.name(tile), group=group, wait=tr(wait, lang))
                if wait else msg("f_win_plain", lang, tile=T.name(tile), group=group))
        return text

    def waits(self) -> str:
        waits = self.res.waits
        return msg("f_waits", self.lang, waits=" ".join(T.name(t) for t in waits)) if waits else ""

    def form(self) -> str:
        form = FORM_NAMES.get(self.c.reading.form)
        return msg("f_form", self.lang, form=tr(form, self.lang)) if form else self.reading()

    def draw(self) -> str:
        return msg("f_zimo", self.lang) if self.ctx.zimo else msg("f_discard", self.lang, seat=self.ctx.discarder)

    def dealer(self) -> str:
        if self.ctx.winner_is_dealer:
            return msg("f_dealer_wins", self.lang, seat=self.ctx.seat)
        return msg("f_dealer_other", self.lang, seat=self.ctx.seat)

    def closed(self) -> str:
        hand = self.c.raw
        if hand.closed:
            return msg("f_closed", self.lang)
        melds = " ".join(m.text() if hasattr(m, "text") else T.format_tiles(m.tiles) for m in hand.melds)
        return msg("f_open", self.lang, melds=melds)

    def closed_payers(self) -> str:
        seats = sorted(self.ctx.closed)
        return (msg("f_closed_payers", self.lang, seats=", ".join(seats)) if seats
                else msg("f_no_closed_payers", self.lang))

    def wild(self) -> str:
        c, lang = self.c, self.lang
        kind = c.wild_kind
        if kind is None:
            return msg("f_no_wildcard", lang)
        if not c.wild_count and not c.subs:
            return msg("f_no_wild_held", lang, tile=T.name(kind))
        stood = msg("f_wild_stood", lang, subs=", ".join(f"{k} → {v}" for k, v in c.subs.items())) if c.subs else ""
        return msg("f_wild", lang, tile=T.name(kind), count=c.wild_count or len(c.subs), stood=stood)

    def flag(self, name: str) -> str:
        on = bool(getattr(self.ctx, name, False))
        return msg("f_flag_on" if on else "f_flag_off", self.lang, flag=name)

    def flowers(self) -> str:
        flowers = self.c.hand.flowers
        return (msg("f_flowers", self.lang, flowers=T.format_tiles(flowers)) if flowers
                else msg("f_no_flowers", self.lang))

    def seat(self) -> str:
        return msg("f_seat", self.lang, seat=self.ctx.seat, round=self.ctx.round)

    def dora(self) -> str:
        return msg("f_dora", self.lang, tiles=T.format_tiles(self.ctx.dora) if self.ctx.dora else "—")

    def for_item(self, item: ItemDef) -> str:
        """The facts of this hand that an item's condition reads, by the predicates and flags it names."""
        words = set(re.findall(r"[a-z_.]+", re.sub(r"\w+=\w+", "", item.when_text)))  # predicates, not params
        facts: list[str] = []

        def add(text: str) -> None:
            if text and text not in facts:
                facts.append(text)

        for name in re.findall(r"flag(?:_value)?\(name=(\w+)", item.when_text):  # flag(name=X): what the line says
            if name == "closed":
                add(self.closed_payers())
            elif name in ("mobao", "duibao"):
                add(self.flag(name))
                add(self.wild())
            else:
                add(self.flag(name))
        for word in sorted(words):
            for fact in FACT_OF.get(word, ()):
                add(getattr(self, fact)())
        if item.applies_to in ("dealer_paying", "dealer_involved"):
            add(self.dealer())
        if item.applies_to == "discarder":
            add(self.draw())
        if item.applies_to == "closed_payers":
            add(self.closed_payers())
        if not facts or words & SHAPE_WORDS or words - FACT_FREE:
            add(self.reading())
        return "; ".join(facts)


# Which facts of the hand a predicate reads (the rest read the sets of the reading kept: ``Facts.reading``).
FACT_OF: Final[dict[str, tuple[str, ...]]] = {
    "placed_in_single_wait": ("win",), "one_tile_wait": ("win", "waits"), "wait_is": ("win",),
    "riichi.pinfu": ("win",), "mcr.wait_fan": ("win", "waits"), "wait_fans": ("win", "waits"),
    "self_drawn": ("draw",), "won_on_discard": ("draw",), "dealer_discarded": ("draw", "dealer"),
    "dealer_wins": ("dealer",), "closed_hand": ("closed",), "all_others_closed": ("closed_payers",),
    "all_sets_exposed": ("closed", "draw"), "mcr.melded_hand": ("closed", "draw"),
    "no_wildcard_held": ("wild",), "form": ("form",), "seven_pairs_with_four": ("form",),
    "flower_count": ("flowers",), "flower_sets": ("flowers",), "seat_flowers": ("flowers", "seat"),
    "all_flowers": ("flowers", "draw"), "seat_wind_pung": ("seat",), "round_wind_pung": ("seat",),
    "riichi.dora": ("dora",), "riichi.ura_dora": ("dora",), "mcr.last_tile": ("win",),
}
SHAPE_WORDS: Final = frozenset({"all_triplets", "all_sequences", "concealed_pungs", "pung_of", "pungs_of",
                                "identical_chows", "has_honor", "seat_wind_pung", "round_wind_pung"})
FACT_FREE: Final = frozenset({"always", "flag", "name", "not", "any", "all", "option", "flag_value", "true",
                              "false"} | set(FACT_OF) - SHAPE_WORDS)


# --- comparing ----------------------------------------------------------------------------------------------


def compare(res: Result, answer: Answer, lang: str = "en") -> list[Difference]:
    """What the student got wrong, each with the reason and its cause."""
    rules = res.ruleset
    assert rules is not None
    given = answer.values
    if res.best is None:
        if given.get("result") == "not_a_win":
            return []
        return _not_a_win(res, rules, lang)
    facts = Facts(res, lang)
    if given.get("result") == "not_a_win":
        return [Difference("result", "is_a_win", msg(
            "is_a_win", lang, reading=f"{facts.reading()}, {facts.win()}", rules=rules.id,
            conditions=", ".join(c.id for c in rules.conditions)), "is_a_win")]
    out: list[Difference] = []
    s = res.best.settlement
    student_awards: list[Award] | None = None
    if answer.items is not None:
        found, student_awards = _compare_items(res, rules, answer.items, facts, lang)
        out.extend(found)
    if "fan" in given and given["fan"] != s.fan:
        out.extend(_compare_fan(res, rules, given["fan"], facts, lang, answer.items is None))
    if "fu" in given and s.fu is not None and given["fu"] != s.fu:
        out.extend(_compare_fu(s, given["fu"], lang))
    if "points" in given and given["points"] != s.points:
        out.extend(_compare_points(res, given, student_awards, lang))
    return out


def _not_a_win(res: Result, rules: Ruleset, lang: str) -> list[Difference]:
    if res.result == "waiting":
        waits = " ".join(T.name(t) for t in res.waits) or "—"
        return [Difference("result", "not_a_win", msg("waiting", lang, waits=waits), "not_a_win")]
    why = "; ".join(f"{c.id}: {_name(c.message, lang)}" for c in res.failed)
    out = [Difference("result", "not_a_win", msg("not_a_win", lang, why=why), "not_a_win")]
    for cond in res.failed:
        if cond.minimum is not None:
            reached = getattr(cond, "reached", None)
            out.append(Difference("result", "not_a_win", msg(
                "below_minimum", lang, reached="?" if reached is None else reached, unit=_unit(rules.unit, lang),
                minimum=cond.minimum, why=_name(cond.message, lang)), "below_minimum"))
    return out


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
                   lang: str) -> tuple[list[Difference], list[Award]]:
    """The item differences, and the awards the student counted (for tracing the points they wrote)."""
    assert res.best is not None
    actual = {a.item.id: a for a in res.best.awards}
    out: list[Difference] = []
    named: dict[str, int | None] = {}
    for name, item, value in _resolved(rules, written):
        if item is None:
            spellings = [n for i in rules.items for n in (i.id, *i.names.values())]
            out.append(Difference("items", "unknown_item", msg("unknown_item", lang, name=name, rules=rules.id,
                                                                hint=suggest(name, spellings, lang)), "unknown_item"))
            continue
        named[item.id] = value
    own = _payer_only(res)
    for iid, award in actual.items():
        if iid not in named and award.total:  # an item worth nothing (平和 0 in fan-from-0 rules) is no miss
            scope = f", {_scope_text(award.item.applies_to, lang)}" if id(award) in own else ""
            out.append(Difference("items", "missed", msg("missed", lang, item=_item_label(award.item, lang),
                                                         value=award.total, scope=scope,
                                                         why=facts.for_item(award.item)), "missed_item"))
    counted: list[Award] = []
    for iid, value in named.items():
        item = next(i for i in rules.items if i.id == iid)
        if iid not in actual:
            cause, why = why_not(res, item, lang, facts)
            if cause == "not_applicable+excluded":  # its own rule leaves out what a counted item has: say both
                out.append(Difference("items", "not_applicable", msg("not_applicable", lang, item=_item_label(
                    item, lang), why=_doc(item, lang) + " — " + msg("here", lang, facts=facts.for_item(item))),
                    "not_applicable"))
                cause = "excluded"
            out.append(Difference("items", "not_applicable", msg(cause, lang, item=_item_label(item, lang), why=why),
                                  cause))
            counted.append(Award(item, value if value is not None else _value_of(res, item), 1))
            continue
        a = actual[iid]
        counted.append(a if value is None or value in (a.total, a.value) else Award(a.item, value, 1))
        # an item counted N times: its total (一般高:2), or the value of one (一般高:1, as the JSON's value and count)
        if value is not None and value != a.total and not (a.count > 1 and value == a.value):
            out.append(Difference("items", "wrong_value", msg(
                "wrong_value", lang, item=_item_label(a.item, lang), value=a.total, unit=_unit(rules.unit, lang), given=value,
                why=_value_why(res, a, lang)), "wrong_value"))
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
                                   item=_name(item.names, lang))
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
    from .docs import doc_of
    from .predicates import PREDICATES

    name = re.match(r"[\w.]+", item.when_text)
    fn = PREDICATES.get(name.group(0)) if name else None
    doc = re.sub(r"\s+", " ", doc_of(fn).strip().split("\n\n")[0])
    for param, value in re.findall(r"(\w+)=([^,()]+)", item.when_text):  # the parameters this item gives
        doc = doc.replace(f"``{param}``", value.strip())
    return doc.replace("``", "") or item.when_text


def _scope_text(scope: str, lang: str) -> str:
    from .schema import SCOPES

    return tr(SCOPES[scope], lang)


def _payer_only(res: Result) -> set[int]:
    """The awards (by id) that are not on every payment of this hand."""
    assert res.best is not None
    return {id(a) for p in res.best.settlement.payments for a in p.extras}


def _compare_fan(res: Result, rules: Ruleset, given: int, facts: Facts, lang: str,
                 no_items: bool) -> list[Difference]:
    assert res.best is not None
    s = res.best.settlement
    unit = _unit(rules.unit, lang)
    own = _payer_only(res)
    common = [a for a in res.best.awards if id(a) not in own]
    besides = [msg("payment_only", lang, item=_item_label(a.item, lang), value=a.total, payers=", ".join(
        p.payer for p in s.payments if any(x is a for x in p.extras))) for a in res.best.awards if id(a) in own]
    items = " + ".join(f"{_item_label(a.item, lang)} {a.total}" for a in common) or msg("no_item", lang)
    out = [Difference("fan", "wrong", msg("fan", lang, unit=unit, given=given, actual=s.fan, items=items,
                                          besides=msg("besides", lang, what="; ".join(besides)) if besides else ""),
                      "wrong_fan")]
    for p in s.payments:  # the fan of one payment, its payer's own items in it
        if p.extras and p.fan == given:
            out.append(Difference("fan", "wrong", msg(
                "fan_payer_item", lang, unit=unit, given=given, payer=p.payer, theirs=p.fan, actual=s.fan,
                items=", ".join(_item_label(a.item, lang) for a in p.extras)), "payer_item_to_all"))
            break
    fan_cap = rules.resolve(rules.formula.get("fan_cap"), res.options) if "fan_cap" in rules.formula else None
    if fan_cap is not None and given == fan_cap and s.fan > fan_cap:
        out.append(Difference("fan", "wrong", msg("fan_capped", lang, unit=unit, given=given, cap=fan_cap,
                                                  actual=s.fan), "cap_wrong"))
    if no_items:  # the fan alone: one item's value away from it names that item
        c = res.best.candidate
        valued = [a for a in common if a.total]
        short = [msg("maybe_item", lang, item=_item_label(a.item, lang), value=a.total, why=facts.for_item(a.item))
                 for a in valued if given == s.fan - a.total]
        if not short:  # two items short
            short = [msg("maybe_item", lang, item=f"{_item_label(a.item, lang)} + {_item_label(b.item, lang)}",
                         value=a.total + b.total, why=f"{facts.for_item(a.item)}; {facts.for_item(b.item)}")
                     for i, a in enumerate(valued) for b in valued[i + 1:] if given == s.fan - a.total - b.total]
        if short:
            out.append(Difference("fan", "wrong", msg("missed_maybe", lang, unit=unit, given=given, actual=s.fan,
                                                      items=msg("or", lang).join(short)), "missed_item"))
        awarded = {a.item.id for a in res.best.awards}
        for item in rules.items:
            if item.id in awarded or not item.is_enabled(res.options) or not item.when(c):
                continue
            value = _value_of(res, item)
            if value and given == s.fan + value:
                cause, why = why_not(res, item, lang, facts)
                cause = cause.split("+")[-1]
                out.append(Difference("fan", "wrong", msg("excluded_maybe", lang, unit=unit, given=given,
                                                          item=_item_label(item, lang), value=value, why=why), cause))
        if given > s.fan and not any(d.cause in ("excluded", "not_applicable") for d in out):
            out.append(Difference("fan", "wrong", msg("too_many", lang, unit=unit, given=given, actual=s.fan,
                                                      excess=given - s.fan, items=items, facts=facts.reading()),
                                  "not_applicable"))
    return out


def _compare_fu(s: Settlement, given: int, lang: str) -> list[Difference]:
    raw = sum(fu for _, fu in s.fu_lines)
    lines = " + ".join(f"{tr(reason, lang)} {fu}" for reason, fu in s.fu_lines) or "—"
    rounded = msg("fu_rounded", lang, raw=raw, fu=s.fu) if raw != s.fu else ""
    out = [Difference("fu", "wrong", msg("fu", lang, given=given, actual=s.fu, lines=lines, rounded=rounded),
                      "wrong_fu")]
    if raw != s.fu and given == raw:
        out.append(Difference("fu", "wrong", msg("fu_unrounded", lang, given=given, raw=raw, fu=s.fu), "rounding"))
    elif raw != s.fu and raw % 10 and given == raw // 10 * 10:
        out.append(Difference("fu", "wrong", msg("h_round_fu_down", lang, raw=raw, down=given, fu=s.fu), "rounding"))
    return out


# --- tracing a wrong total to its step ---------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Change:
    """One step of the settlement done another way: other awards, options, formula parameters or ``what_if``
    (settlement.WHAT_IF). Two changes of different steps make one (a wrong fan and a cap missed)."""

    awards: tuple[Award, ...] | None = None
    options: Mapping[str, Any] | None = None
    params: tuple[tuple[str, Any], ...] = ()
    what_if: tuple[tuple[str, Any], ...] = ()

    def plus(self, other: Change) -> Change | None:
        if (self.awards is not None and other.awards is not None) or (self.options and other.options) \
                or {k for k, _ in self.params} & {k for k, _ in other.params} \
                or {k for k, _ in self.what_if} & {k for k, _ in other.what_if}:
            return None
        return Change(self.awards if other.awards is None else other.awards, self.options or other.options,
                      self.params + other.params, self.what_if + other.what_if)


class Resettle:
    """The kept reading settled again with one step changed: the ruleset's own settler, with its parameters (base,
    cap …) or ``what_if`` (settlement.WHAT_IF) replaced. None when that settlement cannot be made."""

    def __init__(self, res: Result) -> None:
        assert res.best is not None and res.ruleset is not None
        self.rules, self.options = res.ruleset, res.options
        self.c, self.awards = res.best.candidate, res.best.awards
        self.params = {k: self.rules.resolve(v, self.options) for k, v in self.rules.formula.items()}
        self.kind = self.params.get("kind")
        self.fn = SETTLERS.get(str(self.kind), settle_per_payer)

    def __call__(self, awards: list[Award] | None = None, options: Mapping[str, Any] | None = None,
                 what_if: Mapping[str, Any] | None = None, **params: Any) -> Change:
        return Change(None if awards is None else tuple(awards), options, tuple(params.items()),
                      tuple((what_if or {}).items()))

    def run(self, change: Change) -> Settlement | None:
        params = {**self.params, **dict(change.params)}
        if change.what_if:
            params["what_if"] = {k: (dict(v) if isinstance(v, tuple) else v) for k, v in change.what_if}
        try:
            done: Settlement | None = self.fn(self.rules, change.options if change.options is not None else
                                              self.options, params, self.c,
                                              list(self.awards if change.awards is None else change.awards))
        except (MjcalcError, ArithmeticError, KeyError, ValueError, TypeError, AssertionError):
            done = None
        return done


def _worked(s: Settlement, lang: str) -> str:
    parts = [f"{p.payer}: {localized(p.formula, lang)}"
             + (msg("cut", lang, amount=p.amount) if p.capped_from is not None
                and str(p.amount) not in p.formula.rsplit("=", 1)[-1] else "")
             for p in s.payments]
    return "; ".join(parts) + "; " + msg("total", lang, total=s.points)


def _compare_points(res: Result, given: dict[str, Any], student_awards: list[Award] | None,
                    lang: str) -> list[Difference]:
    assert res.best is not None and res.ruleset is not None
    s = res.best.settlement
    student = given["points"]
    resettle = Resettle(res)
    hypotheses = (_riichi_hypotheses if resettle.kind == "riichi" else _per_payer_hypotheses)(
        res, resettle, given, student_awards, lang)
    worked = _worked(s, lang)
    out: list[Difference] = []
    seen: set[tuple[tuple[str, ...], str]] = set()

    def add(causes: tuple[str, ...], why: str, alt: Settlement | None) -> None:
        if (causes, why) in seen:
            return
        seen.add((causes, why))
        text = why if alt is None else f"{why} — " + msg("yours", lang, what=student, worked=_worked(alt, lang))
        for cause in dict.fromkeys(causes):
            out.append(Difference("points", "formula", msg("points", lang, given=student, actual=s.points, why=text,
                                                           worked=worked), cause))

    same: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()

    def tried(causes: tuple[str, ...], why: str, change: Change, shares: bool) -> None:
        alt = resettle.run(change)
        if alt is None or alt.points == s.points:
            return
        if alt.points == student:
            key = (causes, tuple(p.formula for p in alt.payments))
            if key in same:  # the same payments by the same step another way (rounded to 1 or to 10): said once
                return
            same.add(key)
            add(causes, why, alt)
        elif shares and len(alt.payments) > 1:
            for p in alt.payments:
                if p.amount == student:
                    add((*causes, "one_share"), why + "; " + _one_share(alt, p, lang), alt)
                    break

    def combined(firsts: list[Hypothesis], steps: list[Hypothesis]) -> None:
        for causes, why, change, _ in firsts:
            for causes2, why2, change2, _ in steps:
                both = change.plus(change2)
                if both is not None:
                    tried((*causes, *causes2), f"{why}; {why2}", both, False)

    given_ = [h for h in hypotheses if h[3] == "given"]
    steps = [h for h in hypotheses if h[3] == "step"]
    for causes, why, change, _ in given_:
        tried(causes, why, change, True)
    if not out:  # the student's own fan, fu or items and one step of the arithmetic
        combined(given_, steps)
    if not out:  # the student's own numbers do not explain it: which other step does
        for causes, why, change, role in hypotheses:
            if role != "given":
                tried(causes, why, change, False)
    if not out:
        combined([h for h in hypotheses if h[3] == "payer"], steps)
    if len(s.payments) > 1:
        for p in s.payments:
            if p.amount == student:
                add(("one_share",), _one_share(s, p, lang), None)
                break
    if not out:
        out.append(Difference("points", "formula", msg("points_plain", lang, given=student, actual=s.points,
                                                       worked=worked), "arithmetic"))
    return out


def _one_share(s: Settlement, p: Any, lang: str) -> str:
    return msg("h_one_share", lang, payer=p.payer, n=len(s.payments),
               amounts=" + ".join(str(q.amount) for q in s.payments) + f" = {s.points}")


Hypothesis = tuple[tuple[str, ...], str, Change, str]  # causes, why, the change, its role
BASES: Final = (0, 1, 2, 3, 4, 5, 6, 8, 10, 16, 20, 30, 50, 100)


def _shifted(res: Result, delta: int) -> list[Award]:
    """The kept awards and ``delta`` more (or less) on every payer: a student's total counted another way."""
    assert res.best is not None
    awards = res.best.awards
    base_item = next((a.item for a in awards if a.item.applies_to == "all"), None) or (
        awards[0].item if awards else None)
    if base_item is None:
        return list(awards)
    shift = replace(base_item, id="_shift", applies_to="all", excludes=(), reduces=())
    return [*awards, Award(shift, delta, 1)]


def _per_payer_hypotheses(res: Result, again: Resettle, given: dict[str, Any], student_awards: list[Award] | None,
                          lang: str) -> list[Hypothesis]:
    assert res.best is not None and res.ruleset is not None
    rules, s, ctx = res.ruleset, res.best.settlement, res.best.candidate.ctx
    unit = _unit(rules.unit, lang)
    out: list[Hypothesis] = []
    if "fan" in given and given["fan"] != s.fan:
        out.append((("wrong_fan",), msg("h_fan", lang, unit=unit, given=given["fan"], actual=s.fan),
                    again(_shifted(res, given["fan"] - s.fan)), "given"))
    counted = sum(a.total for a in student_awards or () if a.item.applies_to == "all")
    if student_awards is not None:  # the items counted (a payer's item among them) carried through
        out.append((("wrong_fan",), msg("h_items", lang, unit=unit, given=counted, actual=s.fan),
                    again(student_awards), "given"))
    if "fan" not in given:
        for delta in (-3, -2, -1, 1, 2, 3):
            if s.fan + delta >= 0:
                out.append((("wrong_fan",), msg("h_fan_other", lang, unit=unit, given=s.fan + delta, actual=s.fan),
                            again(_shifted(res, delta)), "search"))
    # items of some payers only
    own: list[Award] = []
    for p in s.payments:
        for a in p.extras:
            if all(a is not b for b in own):
                own.append(a)
    for a in own:
        payers = ", ".join(p.payer for p in s.payments if any(x is a for x in p.extras))
        to_all = [Award(replace(b.item, applies_to="all"), b.value, b.count) if b is a else b for b in res.best.awards]
        out.append((("payer_item_to_all",), msg("h_to_all", lang, item=_item_label(a.item, lang),
                                               scope=_scope_text(a.item.applies_to, lang), payers=payers),
                    again(to_all), "payer"))
        out.append((("payer_item_missed",), msg("h_payer_missed", lang, item=_item_label(a.item, lang),
                                               scope=_scope_text(a.item.applies_to, lang), payers=payers),
                    again([b for b in res.best.awards if b is not a]), "payer"))
    if len(own) > 1:
        names = ", ".join(_item_label(a.item, lang) for a in own)
        scopes = ", ".join(dict.fromkeys(_scope_text(a.item.applies_to, lang) for a in own))
        payers = ", ".join(dict.fromkeys(p.payer for p in s.payments if p.extras))
        out.append((("payer_item_to_all",), msg("h_to_all", lang, item=names, scope=scopes, payers=payers),
                    again([Award(replace(b.item, applies_to="all"), b.value, b.count) if any(b is a for a in own)
                           else b for b in res.best.awards]), "payer"))
        out.append((("payer_item_missed",), msg("h_payer_missed", lang, item=names, scope=scopes, payers=payers),
                    again([b for b in res.best.awards if all(b is not a for a in own)]), "payer"))
    pay_cfg = {k: rules.resolve(v, res.options) for k, v in rules.payments.items()}
    if not ctx.zimo and pay_cfg.get("fan_on_discard") == "discarder":
        out.append((("payer_item_to_all",), msg("h_fan_on_discard", lang, unit=unit, payer=ctx.discarder),
                    again(what_if={"payments": (("fan_on_discard", None),)}), "payer"))
    if not ctx.zimo and pay_cfg.get("discard") == "discarder":
        out.append((("payer_item_to_all",), msg("h_discarder_only", lang, payer=ctx.discarder),
                    again(what_if={"payments": (("discard", "all_losers"),)}), "payer"))
    # the base (底) and the per-fan price (台钱)
    for param, name in (("base", "base"), ("per_fan", "per_fan")):
        if param in again.params:
            actual = int(again.params[param])
            label = _param_label(rules, param)
            for value in sorted({*BASES, actual * 2, actual // 2, actual + 1, max(actual - 1, 0)} - {actual}):
                out.append((("wrong_base",), msg("h_base", lang, name=label, value=value, actual=actual),
                            again(None, None, None, **{param: value}), "step"))
    if again.kind == "additive" and "per_fan" in again.params and int(again.params.get("base", 0)):
        base = int(again.params["base"])  # 台 × 底 with no 底 of its own: the base taken for the price of a 台
        out.append((("wrong_base",), msg("h_base_as_price", lang, base=base, price=again.params["per_fan"], unit=unit),
                    again(None, None, None, base=0, per_fan=base), "step"))
    # caps
    capped = any(p.capped_from is not None for p in s.payments)
    cap, fan_cap = again.params.get("cap"), again.params.get("fan_cap")
    notes = "; ".join(s.notes) or msg("no_cap_here", lang)
    caps = [(name, value) for name, value in (("cap", cap), ("fan_cap", fan_cap)) if value is not None]
    if caps:  # tried whether or not a cap cuts the right payments: a step done the student's way may reach it
        def cap_text(names: list[tuple[str, Any]]) -> str:
            return msg("h_cap_missed", lang, caps=", ".join(f"{_param_label(rules, n)} {v}" for n, v in names),
                       notes=notes)

        out.append((("cap_missed",), cap_text(caps), again(cap=None, fan_cap=None), "step"))
        if len(caps) > 1:
            for name, value in caps:
                out.append((("cap_missed",), cap_text([(name, value)]), again(None, None, None, **{name: None}),
                            "step"))
    if cap is not None:
        scope = again.params.get("cap_scope", "per_player_net")
        other = "per_payer" if scope == "per_player_net" else "per_player_net"
        words = {"per_payer": msg("scope_per_payer", lang), "per_player_net": msg("scope_net", lang)}
        out.append((("cap_wrong",), msg("h_cap_scope", lang, wrong=words[other], right=words[scope], notes=notes),
                    again(cap_scope=other), "step"))
    capping: tuple[tuple[str, Any], ...] = (("cap", cap), ("fan_cap", fan_cap))
    for name, value in capping:
        option = rules.formula.get(name)
        default = rules.options[option["option"]].default if isinstance(option, dict) and "option" in option \
            and option["option"] in rules.options else None
        tries = set()
        if value is not None and capped:  # the cap cut a payment here: at another height?
            tries |= {value - 2, value - 1, value + 1, value + 2} if name == "fan_cap" else {value // 2, value * 2}
        if default is not None and default != value:
            tries.add(default)
        for other_value in sorted(t for t in tries if t is not None and t > 0):
            what = f" {unit}" if name == "fan_cap" else ""
            out.append((("cap_wrong",), msg("h_cap_value", lang, value=other_value, unit=what,
                                            actual=value if value is not None else "—"),
                        again(None, None, None, **{name: other_value}), "step"))
    return out


def _param_label(rules: Ruleset, param: str) -> str:
    """A formula parameter as the user sets it: its option's name, else the parameter's (base, per_fan)."""
    ref = rules.formula.get(param)
    if isinstance(ref, dict) and "option" in ref:
        return f"{ref['option']}"
    return {"per_fan": f"per_{rules.unit}"}.get(param, param)


FU_STEPS: Final = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
LIMIT_BASES: Final = {2000: N_("mangan"), 3000: N_("haneman"), 4000: N_("baiman"), 6000: N_("sanbaiman"),
                      8000: N_("yakuman"), 16000: N_("double yakuman")}


def _riichi_hypotheses(res: Result, again: Resettle, given: dict[str, Any], student_awards: list[Award] | None,
                       lang: str) -> list[Hypothesis]:
    assert res.best is not None and res.ruleset is not None
    s, ctx = res.best.settlement, res.best.candidate.ctx
    han, fu = s.fan, s.fu if s.fu is not None else 0
    raw = sum(part for _, part in s.fu_lines)
    lines = " + ".join(f"{tr(reason, lang)} {part}" for reason, part in s.fu_lines) or "—"
    out: list[Hypothesis] = []
    g_han = given.get("fan") if given.get("fan") not in (None, han) else None
    g_fu = given.get("fu") if given.get("fu") not in (None, fu) else None
    if g_han is not None and g_fu is not None:
        out.append((("wrong_fan", "wrong_fu"), msg("h_fan", lang, unit=_unit("han", lang), given=g_han, actual=han) + "; "
                    + msg("h_fu", lang, given=g_fu, actual=fu, lines=lines), again(what_if={"han": g_han, "fu": g_fu}), "given"))
    if g_han is not None:
        out.append((("wrong_fan",), msg("h_fan", lang, unit=_unit("han", lang), given=g_han, actual=han),
                    again(what_if={"han": g_han}), "given"))
    if g_fu is not None:
        out.append((("wrong_fu",), msg("h_fu", lang, given=g_fu, actual=fu, lines=lines),
                    again(what_if={"fu": g_fu}), "given"))
    if student_awards is not None:
        counted = sum(a.total for a in student_awards)
        if counted != han:
            out.append((("wrong_fan",), msg("h_items", lang, unit=_unit("han", lang), given=counted, actual=han),
                        again(what_if={"han": counted, **({"fu": g_fu} if g_fu is not None else {})}), "given"))
    if "fan" not in given:
        for other in range(1, 14):
            if other != han:
                out.append((("wrong_fan",), msg("h_fan_other", lang, unit=_unit("han", lang), given=other, actual=han),
                            again(what_if={"han": other}), "search"))
    if "fu" not in given and s.fu_lines:
        for other in FU_STEPS:
            if other != fu:
                out.append((("wrong_fu",), msg("h_fu", lang, given=other, actual=fu, lines=lines),
                            again(what_if={"fu": other}), "search"))
    # fu → base points → rounding
    if raw != fu and s.fu_lines and res.best.candidate.reading.form != "seven_pairs":
        why = msg("h_round_fu", lang, raw=raw, fu=fu)
        out.append((("rounding",), why, again(what_if={"fu_unrounded": True}), "step"))
        out.append((("rounding",), why + "; " + msg("h_round_pay", lang),
                    again(what_if={"fu_unrounded": True, "round_to": 1}), "step"))
    if s.fu_lines and raw % 10 and res.best.candidate.reading.form != "seven_pairs":
        down = raw // 10 * 10
        out.append((("rounding", "wrong_fu"), msg("h_round_fu_down", lang, raw=raw, down=down, fu=fu),
                    again(what_if={"fu": down}), "step"))
    out.append((("rounding",), msg("h_round_pay", lang), again(what_if={"round_to": 1}), "step"))
    out.append((("rounding",), msg("h_round_pay_to", lang, step=10), again(what_if={"round_to": 10}), "step"))
    if g_fu is not None:
        out.append((("wrong_fu", "rounding"), msg("h_fu", lang, given=g_fu, actual=fu, lines=lines) + "; "
                    + msg("h_round_pay", lang), again(what_if={"fu": g_fu, "round_to": 1}), "given"))
    # limits
    note = "; ".join(s.notes)
    if s.limit is not None:
        out.append((("cap_missed",), msg("h_limit_missed", lang, note=note),
                    again(what_if={"no_limit": True}), "step"))
    if "kiriage" in res.options:
        flipped = {**res.options, "kiriage": not res.options["kiriage"]}
        on, off = msg("on_word", lang), msg("off_word", lang)
        out.append((("cap_wrong",), msg("h_kiriage", lang, on=on if flipped["kiriage"] else off,
                                        now=off if flipped["kiriage"] else on),
                    again(options=flipped), "step"))
    for base, name in LIMIT_BASES.items():
        out.append((("cap_wrong",), msg("h_limit_wrong", lang, base=base, name=tr(name, lang), note=note),
                    again(what_if={"base_points": base}), "step"))
    # the dealer's share of the base points
    dealer = ctx.seat == "E"
    out.append((("wrong_base",), msg("h_dealer", lang, wrong=msg("non_dealer_word" if dealer else "dealer_word", lang),
                                     seat=ctx.seat, right=msg("is_dealer" if dealer else "is_not_dealer", lang)),
                again(what_if={"dealer": not dealer}), "step"))
    return out


# --- one record ---------------------------------------------------------------------------------------------


def check_record(record: Record, request: Request, lang: str = "en") -> dict[str, Any]:
    """One homework record checked: the object ``check --json`` prints for it (``correct`` is None when the
    record cannot be checked, with the ``error``); ``request`` is the file's. The one place that builds it:
    ``check --json`` and ``mjcalc.check``."""
    from .batch import score_record

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


__all__ = ["CAUSES", "MESSAGES", "Answer", "Difference", "check_record", "compare", "msg", "parse_answer",
           "score_text", "suggest", "why_not"]

