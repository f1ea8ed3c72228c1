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
(``settlement.WHAT_IF``). Each wrong number gets one difference: the explanation that gives it most directly, with
the others that give it too as "or" (``_choose``); each carries a ``cause`` from ``CAUSES`` (docs/OUTPUT.md).
"""

from __future__ import annotations

import dataclasses
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
    "fan_items": N_("{unit}: your {given} is the sum of the items you counted; it is {actual} ({items}{besides})"),
    "or_line": N_("or: {text}"),
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
    "f_winning_waits": N_("of them only {waits} makes a legal win"),
    "f_reading": N_("read as {reading}"),
    "f_form": N_("the hand is read as {form}"),
    "f_zimo": N_("self-drawn"),
    "f_discard": N_("won on {seat}'s discard"),
    "f_dealer_wins": N_("the winner {seat} is the dealer"),
    "f_dealer_other": N_("the winner is {seat}; the dealer is E"),
    "f_closed": N_("the winner's hand is closed"),
    "f_open": N_("the winner's hand is open ({melds})"),
    "f_special_added": N_("a tile was added to the special kong {melds} (a 加杠)"),
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
            hint = suggest(tokens[i], KEYS, lang)
            if re.fullmatch(r"[+-]?\d+", tokens[i]) and i + 1 < len(tokens) and _key(tokens[i + 1]):  # 5 fan
                hint = msg("did_you_mean", lang, words=f"'{tokens[i + 1].rstrip(':')} {tokens[i]}'")
            raise MjcalcError("answer", msg("no_key", lang, word=tokens[i], hint=hint))
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
    """One wrong number (or item) of the answer, explained once: the explanation that reproduces it most directly,
    and the others that reproduce it too (``alternatives``: cause and text, shown as "or …")."""

    field: str  # result | fan | fu | points | items
    kind: str  # not_a_win | is_a_win | missed | not_applicable | wrong_value | unknown_item | wrong | formula
    message: str
    cause: str = "arithmetic"  # one of CAUSES
    alternatives: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # (cause, text)

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "kind": self.kind, "cause": self.cause, "message": self.message,
                "or": [{"cause": c, "message": m} for c, m in self.alternatives]}


@dataclass
class Why:
    """One explanation of a wrong number: what reproduces the student's figure, and how directly."""

    cause: str
    message: str  # the text when it is the explanation given
    short: str = ""  # the text under "or" (the message when empty)
    cost: int = 1  # the mistakes it needs beyond the student's other wrong numbers (0: it carries one through)
    prio: int = 5  # between explanations of equal cost and support: the lower first
    follows: tuple[str, ...] = ()  # the student's own wrong numbers it carries through: fan, fu, items
    inherit: bool = False  # its cause is the cause of the numbers it follows (the points of the student's fan)
    carries: bool = True  # a fan / fu explained so gives the points of that fan / fu on every payer
    generic: bool = False  # "you wrote 5, it is 4": said when nothing else explains it, never as an "or"
    same: tuple[str, ...] = ()  # the payments it settles: two explanations that settle the same are said once


@dataclass
class Wrong:
    """A wrong number of the answer (one item, the fan, the fu, the points) and its explanations."""

    field: str
    kind: str
    whys: list[Why]


# The causes of a wrong item, the most telling first: a fan or points that follow from the items take one.
ITEM_CAUSES: Final = ("not_applicable", "excluded", "wrong_value", "missed_item", "payer_item_missed")


def _choose(wrongs: list[Wrong]) -> list[Difference]:
    """One difference per wrong number. Its explanation is the one of fewest mistakes beyond the student's other
    wrong numbers; then the one whose cause explains most of the wrong numbers at once; then the one linked to
    the student's own numbers; then the more specific (``Why.prio``). The others that reproduce it are its "or"."""
    items = [w for w in wrongs if w.field in ("items", "result")]
    picked: dict[str, Why] = {}
    out: dict[int, Difference] = {}
    for w in items:
        out[id(w)] = _pick(w, w.whys, {})
    counts: dict[str, int] = {}
    for w in items:
        cause = out[id(w)].cause
        if cause in ITEM_CAUSES:
            counts[cause] = counts.get(cause, 0) + 1
    items_cause = max(counts, key=lambda c: (counts[c], -ITEM_CAUSES.index(c))) if counts else "wrong_fan"
    numbers = {w.field: w for w in wrongs if w.field in ("fan", "fu")}
    for w in wrongs:  # an explanation by the student's items takes their cause
        for y in w.whys:
            if y.inherit and y.follows == ("items",):
                y.cause, y.inherit = items_cause, False
    support: dict[str, int] = {}
    for w in wrongs:
        mine: set[str] = set()
        for y in w.whys:
            if not y.inherit:
                mine.add(y.cause)
            for f in y.follows:
                if f == "items":
                    mine.add(items_cause)
                elif f in numbers:
                    mine |= {z.cause for z in numbers[f].whys if z.carries and not z.inherit}
        for cause in mine:
            support[cause] = support.get(cause, 0) + 1
    for name in ("fan", "fu"):
        if name in numbers:
            w = numbers[name]
            out[id(w)] = _pick(w, w.whys, support)
            picked[name] = w.whys[0]
    for w in wrongs:
        if id(w) in out:
            continue
        for y in w.whys:
            if y.inherit:  # the points of the student's fan: the cause of that fan, if its explanation carries
                y.cause = next((picked[f].cause for f in y.follows if f in picked and picked[f].carries),
                               y.cause)
        out[id(w)] = _pick(w, w.whys, support)
    return [out[id(w)] for w in wrongs]


def _pick(w: Wrong, whys: list[Why], support: Mapping[str, int]) -> Difference:
    """``w``'s explanations ranked (the first one kept first in ``whys``): the difference it makes."""
    order = sorted(range(len(whys)), key=lambda i: (whys[i].cost, -support.get(whys[i].cause, 0),
                                                    not whys[i].follows, whys[i].prio, i))
    whys[:] = [whys[i] for i in order]
    first = whys[0]
    texts, settled = {first.short or first.message}, {first.same}
    alternatives: list[tuple[str, str]] = []
    for y in whys[1:]:
        text = y.short or y.message
        if y.generic or text in texts or (y.same and y.same in settled):
            continue
        texts.add(text)
        settled.add(y.same)
        alternatives.append((y.cause, text))
    return Difference(w.field, w.kind, first.message, first.cause, alternatives)


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

    def winning_waits(self) -> str:
        """Which of the waits make a legal win, when some do not (单和 counts those)."""
        legal = self.c.winning_waits
        if not legal or set(legal) == set(self.res.waits):
            return ""
        return msg("f_winning_waits", self.lang, waits=" ".join(T.name(t) for t in sorted(legal)))

    def special_added(self) -> str:
        """The special kongs that took an added tile, when any did (that opens the hand under some rules)."""
        added = [m.text() for m in self.c.raw.melds if m.kind == "special" and m.extra > 0]
        return msg("f_special_added", self.lang, melds=" ".join(added)) if added else self.closed()

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
    "one_winning_tile": ("win", "waits", "winning_waits"), "special_kong_added": ("special_added",),
    "all_sets_shown": ("closed", "draw"), "seven_pairs_win_makes_four": ("form", "win"),
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
            unit=_unit(rules.unit, lang), minimum=c.minimum, why=_name(c.message, lang)) for c in res.failed),
            "below_minimum")
    why = "; ".join(f"{c.id}: {_name(c.message, lang)}" for c in res.failed)
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
                    lang: str) -> Wrong:
    """The explanations of wrong points: each hypothesis (``Hypothesis``) that settles the student's number, alone
    or with one more step, and one payer's share given for the total."""
    assert res.best is not None and res.ruleset is not None
    s = res.best.settlement
    student = given["points"]
    resettle = Resettle(res)
    hypotheses = (_riichi_hypotheses if resettle.kind == "riichi" else _per_payer_hypotheses)(
        res, resettle, given, student_awards, lang)
    worked = _worked(s, lang)
    out: list[Why] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    carried: set[tuple[str, ...]] = set()  # the payments the student's own numbers give: no step said to give them

    def add(h: Hypothesis, why: str, alt: Settlement | None, cause: str, cost: int) -> None:
        formulas = tuple(p.formula for p in alt.payments) if alt is not None else (why,)
        if (cause, formulas) in seen or (not h.inherit and formulas in carried):
            return  # the same payments by the same step another way (rounded to 1 or to 10): said once
        seen.add((cause, formulas))
        if h.inherit and cost == 0:
            carried.add(formulas)
        text = why if alt is None else f"{why} — " + msg("yours", lang, what=student, worked=_worked(alt, lang))
        out.append(Why(cause, msg("points", lang, given=student, actual=s.points, why=text, worked=worked), text,
                       cost, h.prio, h.follows, h.inherit and cost == 0, same=formulas))

    def shares(h: Hypothesis, alt: Settlement) -> None:
        for p in alt.payments:
            if p.amount == student and len(alt.payments) > 1:
                add(h, h.why + "; " + _one_share(alt, p, lang), alt, "one_share", h.cost + 1)
                return

    settled = [(h, resettle.run(h.change)) for h in sorted(hypotheses, key=lambda h: (h.cost, h.prio))]
    hit: set[int] = set()
    for h, alt in settled:
        if alt is None or alt.points == s.points:
            continue
        if alt.points == student:
            hit.add(id(h))
            add(h, h.why, alt, h.causes[0], h.cost)
        elif h.role == "given":
            shares(h, alt)
    steps = [h for h in hypotheses if h.role == "step"]

    def combined(firsts: list[Hypothesis]) -> None:  # a step besides: where neither alone gives the number
        for h in firsts:
            for step in steps:
                both = h.change.plus(step.change)
                if both is None or id(h) in hit or id(step) in hit:
                    continue
                alt = resettle.run(both)
                if alt is not None and alt.points == student and alt.points != s.points:
                    add(Hypothesis(step.causes, f"{h.why}; {step.why}", both, "step", h.follows, step.prio,
                                   h.cost + 1), f"{h.why}; {step.why}", alt, step.causes[0], h.cost + 1)

    combined([h for h in hypotheses if h.role == "given"])
    if not any(y.cost <= 1 for y in out):
        combined([h for h in hypotheses if h.role == "payer"])
    if len(s.payments) > 1:
        for p in s.payments:
            if p.amount == student:
                add(Hypothesis(("one_share",), "", Change(), "step", prio=2), _one_share(s, p, lang), None,
                    "one_share", 1)
                break
    if not out:
        out.append(Why("arithmetic", msg("points_plain", lang, given=student, actual=s.points, worked=worked),
                       generic=True))
    return Wrong("points", "formula", out)


def _one_share(s: Settlement, p: Any, lang: str) -> str:
    return msg("h_one_share", lang, payer=p.payer, n=len(s.payments),
               amounts=" + ".join(str(q.amount) for q in s.payments) + f" = {s.points}")


@dataclass(frozen=True)
class Hypothesis:
    """A way the student may have reached their points: the settlement done with one step changed."""

    causes: tuple[str, ...]  # the first is the cause it names
    why: str
    change: Change
    role: str  # given (the student's own fan, fu or items) | payer | step | search (a fan or fu they did not write)
    follows: tuple[str, ...] = ()  # given: the student's numbers it carries through (fan, fu, items)
    prio: int = 5  # Why.prio
    cost: int = 1  # Why.cost: 0 for the student's own numbers carried through, with no step of its own

    @property
    def inherit(self) -> bool:
        return self.role == "given" and self.cost == 0


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
    own: list[Award] = []  # items of some payers only
    for p in s.payments:
        for a in p.extras:
            if all(a is not b for b in own):
                own.append(a)
    if "fan" in given and given["fan"] != s.fan:
        out.append(Hypothesis(("wrong_fan",), msg("h_fan", lang, unit=unit, given=given["fan"], actual=s.fan),
                              again(_shifted(res, given["fan"] - s.fan)), "given", ("fan",), 7, 0))
    counted = sum(a.total for a in student_awards or () if a.item.applies_to == "all")
    if student_awards is not None and not _only_payer_items_missed(res, student_awards, own):
        # the items counted (a payer's item among them) carried through
        out.append(Hypothesis(("wrong_fan",), msg("h_items", lang, unit=unit, given=counted, actual=s.fan),
                              again(student_awards), "given", ("items",), 7, 0))
    if "fan" not in given:
        for delta in (-3, -2, -1, 1, 2, 3):
            if s.fan + delta >= 0:
                out.append(Hypothesis(("wrong_fan",), msg("h_fan_other", lang, unit=unit, given=s.fan + delta,
                                                         actual=s.fan), again(_shifted(res, delta)), "search",
                                      prio=5 if abs(delta) == 1 else 9))  # before a base that pays the same
    written = {a.item.id for a in student_awards} if student_awards is not None else None
    for a in own:
        payers = ", ".join(p.payer for p in s.payments if any(x is a for x in p.extras))
        label, scope = _item_label(a.item, lang), _scope_text(a.item.applies_to, lang)
        if written is None or a.item.id in written:  # charged to all: counted, so written if items are
            to_all = [Award(replace(b.item, applies_to="all"), b.value, b.count) if b is a else b
                      for b in res.best.awards]
            out.append(Hypothesis(("payer_item_to_all",), msg("h_to_all", lang, item=label, scope=scope,
                                                              payers=payers), again(to_all), "payer", prio=0))
        out.append(Hypothesis(("payer_item_missed",), msg("h_payer_missed", lang, item=label, scope=scope,
                                                          payers=payers),
                              again([b for b in res.best.awards if b is not a]), "payer", prio=0))
    if len(own) > 1:
        names = ", ".join(_item_label(a.item, lang) for a in own)
        scopes = ", ".join(dict.fromkeys(_scope_text(a.item.applies_to, lang) for a in own))
        payers = ", ".join(dict.fromkeys(p.payer for p in s.payments if p.extras))
        if written is None or all(a.item.id in written for a in own):
            out.append(Hypothesis(("payer_item_to_all",), msg("h_to_all", lang, item=names, scope=scopes,
                                                              payers=payers),
                                  again([Award(replace(b.item, applies_to="all"), b.value, b.count)
                                         if any(b is a for a in own) else b for b in res.best.awards]),
                                  "payer", prio=1))
        out.append(Hypothesis(("payer_item_missed",), msg("h_payer_missed", lang, item=names, scope=scopes,
                                                          payers=payers),
                              again([b for b in res.best.awards if all(b is not a for a in own)]), "payer", prio=1))
    pay_cfg = {k: rules.resolve(v, res.options) for k, v in rules.payments.items()}
    if not ctx.zimo and pay_cfg.get("fan_on_discard") == "discarder":
        out.append(Hypothesis(("payer_item_to_all",), msg("h_fan_on_discard", lang, unit=unit, payer=ctx.discarder),
                              again(what_if={"payments": (("fan_on_discard", None),)}), "payer", prio=0))
    if not ctx.zimo and pay_cfg.get("discard") == "discarder":
        out.append(Hypothesis(("payer_item_to_all",), msg("h_discarder_only", lang, payer=ctx.discarder),
                              again(what_if={"payments": (("discard", "all_losers"),)}), "payer", prio=0))
    # the base (底) and the per-fan price (台钱): a near value before one from the usual list
    for param in ("base", "per_fan"):
        if param in again.params:
            actual = int(again.params[param])
            label = _param_label(rules, param)
            near = {actual * 2, actual // 2, actual + 1, max(actual - 1, 0), _default(rules, param)}
            for value in sorted({*BASES, *near} - {actual, None}):  # type: ignore[operator]
                out.append(Hypothesis(("wrong_base",), msg("h_base", lang, name=label, value=value, actual=actual),
                                      again(None, None, None, **{param: value}), "step",
                                      prio=5 if value in near else 8))
    if again.kind == "additive" and "per_fan" in again.params and int(again.params.get("base", 0)):
        base = int(again.params["base"])  # 台 × 底 with no 底 of its own: the base taken for the price of a 台
        out.append(Hypothesis(("wrong_base",), msg("h_base_as_price", lang, base=base, price=again.params["per_fan"],
                                                   unit=unit),
                              again(None, None, None, base=0, per_fan=base), "step", prio=5))
    # caps
    capped = any(p.capped_from is not None for p in s.payments)
    cap, fan_cap = again.params.get("cap"), again.params.get("fan_cap")
    notes = "; ".join(s.notes) or msg("no_cap_here", lang)
    caps = [(name, value) for name, value in (("cap", cap), ("fan_cap", fan_cap)) if value is not None]
    if caps:  # tried whether or not a cap cuts the right payments: a step done the student's way may reach it
        def cap_text(names: list[tuple[str, Any]]) -> str:
            return msg("h_cap_missed", lang, caps=", ".join(f"{_param_label(rules, n)} {v}" for n, v in names),
                       notes=notes)

        out.append(Hypothesis(("cap_missed",), cap_text(caps), again(cap=None, fan_cap=None), "step", prio=3))
        if len(caps) > 1:
            for name, value in caps:
                out.append(Hypothesis(("cap_missed",), cap_text([(name, value)]),
                                      again(None, None, None, **{name: None}), "step", prio=3))
    if cap is not None:
        scope = again.params.get("cap_scope", "per_player_net")
        other = "per_payer" if scope == "per_player_net" else "per_player_net"
        words = {"per_payer": msg("scope_per_payer", lang), "per_player_net": msg("scope_net", lang)}
        out.append(Hypothesis(("cap_wrong",), msg("h_cap_scope", lang, wrong=words[other], right=words[scope],
                                                  notes=notes), again(cap_scope=other), "step", prio=4))
    capping: tuple[tuple[str, Any], ...] = (("cap", cap), ("fan_cap", fan_cap))
    for name, value in capping:
        default = _default(rules, name)
        tries = set()
        if value is not None and capped:  # the cap cut a payment here: at another height?
            tries |= {value - 2, value - 1, value + 1, value + 2} if name == "fan_cap" else {value // 2, value * 2}
        if default is not None and default != value:
            tries.add(default)
        for other_value in sorted(t for t in tries if t is not None and t > 0):
            what = f" {unit}" if name == "fan_cap" else ""
            out.append(Hypothesis(("cap_wrong",), msg("h_cap_value", lang, value=other_value, unit=what,
                                                      actual=value if value is not None else "—"),
                                  again(None, None, None, **{name: other_value}), "step", prio=4))
    return out


def _default(rules: Ruleset, param: str) -> Any:
    """The default of the option a formula parameter reads, or None."""
    option = rules.formula.get(param)
    if isinstance(option, dict) and "option" in option and option["option"] in rules.options:
        return rules.options[option["option"]].default
    return None


def _only_payer_items_missed(res: Result, student_awards: list[Award], own: list[Award]) -> bool:
    """The student's items are the right ones but for items of some payers left out: the payer's hypotheses say
    it (their points are those of the items they counted)."""
    assert res.best is not None
    written = {(a.item.id, a.total) for a in student_awards}
    right = {(a.item.id, a.total) for a in res.best.awards if a.total}
    return written <= right and all(any(b is a for b in own) for a in res.best.awards
                                    if a.total and (a.item.id, a.total) not in written)


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
    h_han = msg("h_fan", lang, unit=_unit("han", lang), given=g_han, actual=han)
    h_fu = msg("h_fu", lang, given=g_fu, actual=fu, lines=lines)
    if g_han is not None and g_fu is not None:
        out.append(Hypothesis(("wrong_fan", "wrong_fu"), f"{h_han}; {h_fu}", again(what_if={"han": g_han, "fu": g_fu}),
                              "given", ("fan", "fu"), 7, 0))
    if g_han is not None:
        out.append(Hypothesis(("wrong_fan",), h_han, again(what_if={"han": g_han}), "given", ("fan",), 7, 0))
    if g_fu is not None:
        out.append(Hypothesis(("wrong_fu",), h_fu, again(what_if={"fu": g_fu}), "given", ("fu",), 7, 0))
    if student_awards is not None:
        counted = sum(a.total for a in student_awards)
        if counted != han:
            out.append(Hypothesis(("wrong_fan",), msg("h_items", lang, unit=_unit("han", lang), given=counted,
                                                      actual=han),
                                  again(what_if={"han": counted, **({"fu": g_fu} if g_fu is not None else {})}),
                                  "given", ("items", "fu") if g_fu is not None else ("items",), 7, 0))
    if "fan" not in given:
        for other in range(1, 14):
            if other != han:
                out.append(Hypothesis(("wrong_fan",), msg("h_fan_other", lang, unit=_unit("han", lang), given=other,
                                                         actual=han), again(what_if={"han": other}), "search",
                                      prio=5 if abs(other - han) == 1 else 9))
    if "fu" not in given and s.fu_lines:
        for other in FU_STEPS:
            if other != fu:
                out.append(Hypothesis(("wrong_fu",), msg("h_fu", lang, given=other, actual=fu, lines=lines),
                                      again(what_if={"fu": other}), "search", prio=5 if abs(other - fu) <= 10 else 9))
    # fu → base points → rounding
    if raw != fu and s.fu_lines and res.best.candidate.reading.form != "seven_pairs":
        why = msg("h_round_fu", lang, raw=raw, fu=fu)
        out.append(Hypothesis(("rounding",), why, again(what_if={"fu_unrounded": True}), "step", prio=3))
        out.append(Hypothesis(("rounding",), why + "; " + msg("h_round_pay", lang),
                              again(what_if={"fu_unrounded": True, "round_to": 1}), "step", prio=4))
    if s.fu_lines and raw % 10 and res.best.candidate.reading.form != "seven_pairs":
        down = raw // 10 * 10
        out.append(Hypothesis(("rounding",), msg("h_round_fu_down", lang, raw=raw, down=down, fu=fu),
                              again(what_if={"fu": down}), "step", prio=8))
    out.append(Hypothesis(("rounding",), msg("h_round_pay", lang), again(what_if={"round_to": 1}), "step", prio=3))
    out.append(Hypothesis(("rounding",), msg("h_round_pay_to", lang, step=10), again(what_if={"round_to": 10}),
                          "step", prio=6))
    if g_fu is not None:
        out.append(Hypothesis(("rounding",), f"{h_fu}; " + msg("h_round_pay", lang),
                              again(what_if={"fu": g_fu, "round_to": 1}), "given", ("fu",), 3))
    # limits
    note = "; ".join(s.notes)
    if s.limit is not None:
        out.append(Hypothesis(("cap_missed",), msg("h_limit_missed", lang, note=note),
                              again(what_if={"no_limit": True}), "step", prio=3))
    if "kiriage" in res.options:
        flipped = {**res.options, "kiriage": not res.options["kiriage"]}
        on, off = msg("on_word", lang), msg("off_word", lang)
        out.append(Hypothesis(("cap_wrong",), msg("h_kiriage", lang, on=on if flipped["kiriage"] else off,
                                                  now=off if flipped["kiriage"] else on),
                              again(options=flipped), "step", prio=4))
    for base, name in LIMIT_BASES.items():
        out.append(Hypothesis(("cap_wrong",), msg("h_limit_wrong", lang, base=base, name=tr(name, lang), note=note),
                              again(what_if={"base_points": base}), "step", prio=6))
    # the dealer's share of the base points
    dealer = ctx.seat == "E"
    out.append(Hypothesis(("wrong_base",), msg("h_dealer", lang, wrong=msg("non_dealer_word" if dealer else
                                                                          "dealer_word", lang),
                                               seat=ctx.seat, right=msg("is_dealer" if dealer else "is_not_dealer",
                                                                        lang)),
                          again(what_if={"dealer": not dealer}), "step", prio=4))
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

