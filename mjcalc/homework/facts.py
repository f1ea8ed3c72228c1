"""The facts of one scored hand in words, each computed once: the sentences a difference quotes — where the
winning tile went, the waits, the draw, the dealer, the closed seats, the wildcard, the flags, the flowers —
and which of them explain an item (by the words of its ``when``)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from ..core import tiles as T
from ..core.model import ItemDef
from ..core.result import Result
from ..i18n import N_, tr
from ..registry import EXPLAINED_BY, HOMEWORK_FACTS
from ..ruleset.schema import SCOPES
from .messages import msg


def _first_name(names: Mapping[str, str], lang: str) -> str:
    return names.get(lang) or names.get("en") or next(iter(names.values()))


def _item_label(item: ItemDef, lang: str) -> str:
    other = "en" if lang == "zh" else "zh"
    first, second = _first_name(item.names, lang), item.names.get(other)
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
        on = bool(self.ctx.get(name))
        return msg("f_flag_on" if on else "f_flag_off", self.lang, flag=name)

    def flowers(self) -> str:
        flowers = self.c.hand.flowers
        return (msg("f_flowers", self.lang, flowers=T.format_tiles(flowers)) if flowers
                else msg("f_no_flowers", self.lang))

    def seat(self) -> str:
        return msg("f_seat", self.lang, seat=self.ctx.seat, round=self.ctx.round)

    def fact(self, name: str) -> str:
        """A fact by name: one of this class's, or one a family adds (mjcalc.registry.HOMEWORK_FACTS)."""
        family = HOMEWORK_FACTS.get(name)
        text: str = family(self.ctx, self.lang) if family is not None else getattr(self, name)()
        return text

    def for_item(self, item: ItemDef) -> str:
        """The facts of this hand that an item's condition reads, by the predicates and flags it names."""
        words = set(re.findall(r"[a-z_.]+", re.sub(r"\w+=\w+", "", item.when_text)))  # predicates, not params
        facts: list[str] = []

        def add(text: str) -> None:
            if text and text not in facts:
                facts.append(text)

        for name in re.findall(r"flag(?:_value)?\(name=(\w+)", item.when_text):  # flag(name=X): what the line says
            for fact in EXPLAINED_BY.get(f"+{name}", ("flag",)):
                add(self.flag(name) if fact == "flag" else self.fact(fact))
        for word in sorted(words):
            for fact in EXPLAINED_BY.get(word, ()):
                if fact != "reading":
                    add(self.fact(fact))
        if item.applies_to in ("dealer_paying", "dealer_involved"):
            add(self.dealer())
        if item.applies_to == "discarder":
            add(self.draw())
        if item.applies_to == "closed_payers":
            add(self.closed_payers())
        if not facts or any(word not in GRAMMAR_WORDS and "reading" in EXPLAINED_BY.get(word, ("reading",))
                            for word in words):
            add(self.reading())
        return "; ".join(facts)


# Words of a ``when`` text that name no predicate: its grammar and its parameters' words.
GRAMMAR_WORDS: Final = frozenset({"name", "not", "any", "all", "option", "true", "false"})
# An item that reads +closed is explained by the closed seats, not by the flag as written.
EXPLAINED_BY["+closed"] = ("closed_payers",)


def _scope_text(scope: str, lang: str) -> str:
    return tr(SCOPES[scope], lang)
