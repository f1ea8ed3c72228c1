"""Predicates of the sets of a reading: triplets, kongs (special kongs too), the pair, chows, the form, and the
patterns they make (pure straight, mixed triple chow, wind and dragon sets …). Patterns riichi names first are
here too: any ruleset may use them (MCR and Taiwan have most of them)."""

from __future__ import annotations

from typing import Final

from ..core import tiles as T
from ..core.candidate import Candidate
from ..core.facts import (
    CHI,
    CONCEALED_PUNG,
    DRAGON,
    DRAGON_KINDS,
    DRAGON_PUNG,
    HONOR,
    HONOR_KINDS,
    KONG,
    OPEN_GATE,
    PUNG,
    TERMINAL,
    THREE_SUITS,
    WIND,
    WIND_KINDS,
    WIND_PUNG,
    Gate,
)
from ..core.readings.forms import FORM_FACTS, FORM_NAMES, REGULAR
from .binding import explained_by, needs, params, predicate


def _form_names() -> tuple[str, ...]:
    """a form name: regular, seven_pairs, thirteen_orphans … (mjcalc/core/readings/forms.py)"""
    return tuple(FORM_NAMES)


def _pair_kinds() -> tuple[str, ...]:
    """dragon, wind, honor or terminal"""
    return tuple(_PAIR_KIND_FACTS)


def _tile_names() -> tuple[str, ...]:
    """a tile: 1m … 9s, 1z … 7z"""
    return _TILE_NAMES


_TILE_NAMES: Final = tuple(T.name(t) for t in range(T.NUM_KINDS))


@predicate
@needs(KONG.need(1))
@explained_by("special_added")
def special_kong_added(c: Candidate) -> bool:
    """A special kong took a tile added to it beyond the tiles it needs (a 加杠)."""
    for m in c.hand.melds:
        if m.kind == "special" and m.extra > 0:
            return True
    return False


@predicate
@needs(lambda special_counts=False: OPEN_GATE if special_counts else Gate(PUNG.need(1)), exact=True)
@params(special_counts=bool)
def has_triplet_or_kong(c: Candidate, special_counts: bool = False) -> bool:
    """At least one triplet or kong, exposed or concealed (special kongs too when ``special_counts``)."""
    return any(g.is_triplet or (special_counts and g.kind == "special") for g in c.sets)


@predicate
def has_special_kong(c: Candidate) -> bool:
    """The hand holds a special kong (旋风杠, 喜杠, 幺蛋, 九蛋 …)."""
    return any(m.kind == "special" for m in c.hand.melds)


@predicate
@needs(KONG.need(1), exact=True)
def has_declared_kong(c: Candidate) -> bool:
    """The hand holds a declared kong of any kind (exposed, concealed or special)."""
    return any(m.is_kong for m in c.hand.melds)


_PAIR_KIND_FACTS: Final = {"dragon": DRAGON, "wind": WIND, "honor": HONOR, "terminal": TERMINAL}


@predicate
@needs(lambda kind: Gate(_PAIR_KIND_FACTS.get(kind, 0)))
@params(kind=_pair_kinds)
def pair_is(c: Candidate, kind: str) -> bool:
    """The pair is a ``kind`` tile: dragon, wind, honor or terminal."""
    if c.pair is None:
        return False
    t = c.pair.tiles[0]
    tests = {"dragon": T.is_dragon, "wind": T.is_wind, "honor": T.is_honor, "terminal": T.is_terminal}
    return tests[kind](t)


@predicate
@needs(REGULAR | CHI.need(1))
def all_sequences(c: Candidate) -> bool:
    """A regular hand whose every set is a chow (平胡's five sequences and a pair)."""
    return c.reading.form == "regular" and len(c.chi_starts) == len(c.sets)


@predicate
@needs(REGULAR, forbid=CHI.need(1), exact=True)
def all_triplets(c: Candidate) -> bool:
    """Every set is a triplet or kong (special kongs allowed); no chi, no sequence."""
    return c.reading.form == "regular" and not c.chi_starts


@predicate
@needs(lambda name: Gate(FORM_FACTS.get(name, 0)), exact=True)
@params(name=_form_names)
@explained_by("form")
def form(c: Candidate, name: str) -> bool:
    """The hand is read in the special form ``name`` (seven_pairs, thirteen_orphans …)."""
    return c.reading.form == name


@predicate
@needs(FORM_FACTS["seven_pairs"])
@explained_by("form")
def seven_pairs_with_four(c: Candidate) -> bool:
    """Seven pairs with a four-of-a-kind among them (豪华七对)."""
    if c.reading.form != "seven_pairs":
        return False
    kinds = [g.tiles[0] for g in c.reading.groups if g.kind == "pair"]
    return len(set(kinds)) < len(kinds)


@predicate
@needs(FORM_FACTS["seven_pairs"])
@explained_by("form", "win")
def seven_pairs_win_makes_four(c: Candidate) -> bool:
    """Seven pairs whose winning tile is the fourth of its kind: it waited beside a pair the player held (豪华七对
    as the MIL 2024 book has it, "听牌为手中已经有的一对"; a four held before the win does not count)."""
    win = c.hand.win_tile
    return c.reading.form == "seven_pairs" and win is not None and c.hand.concealed.count(win) == 4


@predicate
@needs(CHI.need(3))
def pure_straight(c: Candidate) -> bool:
    """Chows 123, 456 and 789 of one suit (一气通贯)."""
    starts = c.chi_starts
    return len(starts) >= 3 and any(s in starts and s + 3 in starts and s + 6 in starts for s in (0, 9, 18))


@predicate
@needs(CHI.need(3) | THREE_SUITS)
def mixed_triple_chow(c: Candidate) -> bool:
    """The same chow in all three suits (三色同顺)."""
    starts = c.chi_starts
    return len(starts) >= 3 and any(s + 9 in starts and s + 18 in starts for s in starts if s < 9)


@predicate
@needs(PUNG.need(3) | THREE_SUITS)
def triple_pung(c: Candidate) -> bool:
    """Triplets or kongs of the same number in all three suits (三色同刻)."""
    kinds = c.pung_kinds
    return len(kinds) >= 3 and any(k + 9 in kinds and k + 18 in kinds for k in kinds if k < 9)


@predicate
@needs(lambda pairs: Gate(CHI.need(2 * pairs)))
@params(pairs=int)
def identical_chows(c: Candidate, pairs: int) -> bool:
    """At least ``pairs`` pairs of identical chows (一杯口 1, 两杯口 2)."""
    starts = c.chi_starts  # sorted: identical chows are neighbours
    found, i = 0, 0
    while i + 1 < len(starts):
        if starts[i] == starts[i + 1]:
            found += 1
            i += 2
        else:
            i += 1
    return found >= pairs


@predicate
@needs(lambda honors: Gate(REGULAR | CHI.need(1) | TERMINAL | HONOR) if honors
       else Gate(REGULAR | CHI.need(1) | TERMINAL, HONOR_KINDS))
@params(honors=bool)
def outside_hand(c: Candidate, honors: bool) -> bool:
    """A regular hand with a chow whose every set and pair holds a terminal or an honor: with ``honors``, at
    least one honor set (混全带幺九); without, terminals only (纯全带幺九)."""
    if not c.chi_starts or c.reading.form != "regular" or bool(c.kinds & HONOR_KINDS) != honors:
        return False
    for g in c.reading.groups:
        tiles = g[1]
        if not (_OUTSIDE[tiles[0]] or _OUTSIDE[tiles[-1]]):
            return False
    return True


_OUTSIDE: Final = tuple(T.is_terminal(t) or T.is_honor(t) for t in range(T.NUM_KINDS))  # a 1, a 9 or an honor


_KIND_BY_NAME: Final = {T.name(t): t for t in range(T.NUM_KINDS)}


def _pung_of_fact(t: int) -> int:
    """The fact a triplet of ``t`` sets: a dragon or wind triplet, or any triplet."""
    return DRAGON_PUNG.need(1) if t in T.DRAGONS else WIND_PUNG.need(1) if t in T.WINDS else PUNG.need(1)


@predicate
@needs(lambda tile: Gate(1 << _KIND_BY_NAME[tile] | _pung_of_fact(_KIND_BY_NAME[tile])) if tile in _KIND_BY_NAME
       else OPEN_GATE)
@params(tile=_tile_names)
def pung_of(c: Candidate, tile: str) -> bool:
    """A triplet or kong of ``tile`` (``5z`` 白 …)."""
    return _KIND_BY_NAME[tile] in c.pung_kinds


@predicate
@needs(WIND_PUNG.need(1))
@explained_by("seat", "reading")
def seat_wind_pung(c: Candidate) -> bool:
    """A triplet or kong of the winner's seat wind (门风刻)."""
    return _WIND_OF[c.ctx.seat] in c.pung_kinds


@predicate
@needs(WIND_PUNG.need(1))
@explained_by("seat", "reading")
def round_wind_pung(c: Candidate) -> bool:
    """A triplet or kong of the prevalent wind (圈风刻)."""
    return _WIND_OF[c.ctx.round] in c.pung_kinds


_WIND_OF: Final = {seat: T.seat_wind_tile(seat) for seat in T.SEATS}


def _honor_sets(c: Candidate, kinds: tuple[int, ...]) -> tuple[int, bool]:
    """How many triplets or kongs of ``kinds``, and whether the pair is one of them."""
    pungs = sum(1 for k in c.pung_kinds if k in kinds)
    return pungs, c.pair is not None and c.pair.tiles[0] in kinds


_PUNG_KINDS: Final = {"dragon": (DRAGON_PUNG, T.DRAGONS), "wind": (WIND_PUNG, T.WINDS)}


@predicate
@needs(lambda kind: Gate(_PUNG_KINDS[kind][0].need(1)))
@params(kind=("dragon", "wind"))
def pungs_of(c: Candidate, kind: str) -> int:
    """How many triplets or kongs of ``kind`` (dragon, wind) the reading holds: the item counts once for each."""
    kinds = _PUNG_KINDS[kind][1]
    return sum(1 for k in c.pung_kinds if k in kinds)


@predicate
@needs(lambda count, pair=False: Gate(DRAGON | DRAGON_PUNG.need(count)))
@params(count=int, pair=bool)
def dragon_pungs(c: Candidate, count: int, pair: bool = False) -> bool:
    """Exactly ``count`` dragon triplets or kongs, and with ``pair`` a dragon pair (小三元 2 + pair, 大三元 3)."""
    if not c.kinds & DRAGON_KINDS:
        return False
    pungs, has_pair = _honor_sets(c, T.DRAGONS)
    return pungs == count and (has_pair or not pair)


@predicate
@needs(lambda count, pair=False: Gate(WIND | WIND_PUNG.need(count)))
@params(count=int, pair=bool)
def wind_pungs(c: Candidate, count: int, pair: bool = False) -> bool:
    """Exactly ``count`` wind triplets or kongs, and with ``pair`` a wind pair (小四喜 3 + pair, 大四喜 4)."""
    if not c.kinds & WIND_KINDS:
        return False
    pungs, has_pair = _honor_sets(c, T.WINDS)
    return pungs == count and (has_pair or not pair)


@predicate
@needs(lambda count: Gate(CONCEALED_PUNG.need(count)))
@params(count=int)
def concealed_pungs(c: Candidate, count: int) -> bool:
    """Exactly ``count`` concealed triplets or kongs; one that a discard completed is not concealed (三暗刻 3)."""
    if len(c.pung_kinds) < count:
        return False
    win_index = None if c.ctx.zimo else c.reading.win_index
    found = 0
    for i, g in enumerate(c.reading.groups):
        if (g[0] == "pon" or g[0] == "kong") and g[2] and i != win_index:  # a concealed triplet or kong
            found += 1
    return found == count


@predicate
@needs(lambda count: Gate(KONG.need(count)))
@params(count=int)
def kongs(c: Candidate, count: int) -> bool:
    """Exactly ``count`` declared kongs, exposed or concealed (三杠子 3, 四杠子 4)."""
    return len(c.hand.melds) >= count and sum(1 for m in c.hand.melds if m.is_kong) == count


@predicate
def completed_special_set(c: Candidate) -> bool:
    """The winning tile completed a special kong's set in hand (中发白 叫胡)."""
    return any(m.called for m in c.hand.melds)
