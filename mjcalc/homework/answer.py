"""A student's answer read: ``fan 3 points 16 items 自摸,夹胡`` after ``=>`` (keys in English or Chinese, any
subset), or a mapping of the same keys; an item's name as written (id, Chinese or English, traditional
characters too)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from ..errors import MjcalcError
from .messages import msg

KEYS = {
    "fan": "fan", "番": "fan", "番数": "fan", "han": "fan", "翻": "fan", "翻数": "fan", "tai": "fan", "台": "fan",
    "台数": "fan", "fu": "fu", "符": "fu", "符数": "fu", "points": "points", "point": "points", "pts": "points",
    "分": "points", "得分": "points", "分数": "points", "items": "items", "番种": "items", "result": "result",
    "结果": "result",
}


NOT_A_WIN = {"not a win", "not_a_win", "no win", "不能和", "不能胡", "不和", "诈和", "诈胡"}


NO_ITEMS = {"none", "-", "—", "无", "没有", "无番"}


ITEM_SPLIT = re.compile(r"[,，、;；]\s*")


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
