"""Predicates: small pure functions of one Candidate, named from ruleset YAML, shared by every ruleset.

A predicate returns a bool (the item counts once) or an int (it counts that many times). Its docstring is
what ``mjcalc rules show`` prints. Parameters come only from YAML (``{pair_is: {kind: dragon}}``), so the
data shows every dependency; predicates never read options.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cached_property, partial

from . import tiles as T
from .context import Context
from .hand import Hand, Meld
from .readings import Group, Reading


class Candidate:
    """One way to read the win: the hand (wildcards substituted), its context, one reading; ``raw`` is the
    hand as written, for what counts real tiles (kong points, 穷胡)."""

    def __init__(self, hand: Hand, ctx: Context, reading: Reading, subs: dict[str, str],
                 waits: frozenset[int], wild_kind: int | None = None, wild_count: int = 0,
                 raw: Hand | None = None) -> None:
        self.hand = hand
        self.raw = raw if raw is not None else hand
        self.ctx = ctx
        self.reading = reading
        self.subs = subs
        self.waits = waits  # shape waits of the hand before the win
        self.wild_kind = wild_kind
        self.wild_count = wild_count

    @cached_property
    def tiles(self) -> list[int]:
        """Every tile as it counts: wildcards as what they stand for, while a concealed kong of four wildcards
        (黄金杠) is left unsubstituted and so stands for no tile (no suit, no 1 or 9, no dragon)."""
        out = list(self.hand.concealed)
        for m in self.hand.melds:
            if not self.is_wildcard_kong(m):
                out.extend(m.tiles)
        return out

    def is_wildcard_kong(self, m: Meld) -> bool:
        return m.kind == "concealed_kong" and m.tiles[0] == self.wild_kind

    @cached_property
    def counts(self) -> list[int]:
        return T.counts_of(self.tiles)

    @cached_property
    def sets(self) -> list[Group]:
        return [g for g in self.reading.groups if g.is_set]

    @cached_property
    def pair(self) -> Group | None:
        pairs = [g for g in self.reading.groups if g.kind == "pair"]
        return pairs[0] if len(pairs) == 1 else None

    @cached_property
    def suits(self) -> frozenset[int]:
        return frozenset(T.suit_of(t) for t in self.tiles if not T.is_honor(t))

    @property
    def win_group(self) -> Group | None:
        i = self.reading.win_index
        return None if i is None else self.reading.groups[i]


Predicate = Callable[..., "bool | int"]
PREDICATES: dict[str, Predicate] = {}


def predicate(fn: Predicate) -> Predicate:
    """Register a predicate under its function name (hooks use ``ruleset.name``)."""
    PREDICATES[getattr(fn, "predicate_name", fn.__name__)] = fn
    return fn


def namespaced(namespace: str) -> Callable[[Predicate], Predicate]:
    def register(fn: Predicate) -> Predicate:
        fn.predicate_name = f"{namespace}.{fn.__name__}"  # type: ignore[attr-defined]
        return predicate(fn)

    return register


def bind(name: str, params: dict[str, object]) -> Callable[[Candidate], bool | int]:
    """The predicate with its YAML parameters bound; unknown or missing parameters raise TypeError."""
    fn = PREDICATES[name]
    inspect.signature(fn).bind(None, **params)
    return partial(fn, **params) if params else fn


# --- situation -----------------------------------------------------------------------------------------


@predicate
def always(c: Candidate) -> bool:
    """Always: every win."""
    return True


@predicate
def self_drawn(c: Candidate) -> bool:
    """The winning tile was drawn by the winner (treasure wins and replacement tiles included)."""
    return c.ctx.zimo


@predicate
def won_on_discard(c: Candidate) -> bool:
    """The winning tile was another player's discard (or a robbed kong)."""
    return not c.ctx.zimo


@predicate
def dealer_wins(c: Candidate) -> bool:
    """The winner is the dealer (seat East)."""
    return c.ctx.winner_is_dealer


@predicate
def flag(c: Candidate, name: str) -> bool:
    """The context flag ``name`` is on (``+gang``, ``+mobao`` …)."""
    return bool(getattr(c.ctx, name))


@predicate
def closed_hand(c: Candidate) -> bool:
    """No chi, pon or exposed kong: concealed kongs and special kongs keep a hand closed."""
    return c.hand.closed


@predicate
def all_sets_declared(c: Candidate) -> bool:
    """Every set was declared before the win (chi, pon, kongs, special kongs): one tile was left in hand."""
    return len(c.hand.melds) >= c.hand.sets


@predicate
def melded_sets_at_most(c: Candidate, count: int) -> bool:
    """At most ``count`` chi / pon / exposed-kong melds."""
    return sum(1 for m in c.hand.melds if m.exposed) <= count


# --- tiles anywhere in the hand ------------------------------------------------------------------------


@predicate
def has_all_three_suits(c: Candidate) -> bool:
    """Tiles of all three suits (万 筒 条) appear in the hand, melds and special kongs included."""
    return len(c.suits) == 3


@predicate
def one_suit_plus_honors(c: Candidate) -> bool:
    """At most one suit, honors allowed (an all-honor hand passes too)."""
    return len(c.suits) <= 1


@predicate
def has_terminal(c: Candidate) -> bool:
    """At least one 1 or 9 of a suit."""
    return any(T.is_terminal(t) for t in c.tiles)


@predicate
def has_honor(c: Candidate) -> bool:
    """At least one wind or dragon tile."""
    return any(T.is_honor(t) for t in c.tiles)


@predicate
def has_dragon(c: Candidate) -> bool:
    """At least one 中, 发 or 白 tile."""
    return any(T.is_dragon(t) for t in c.tiles)


# --- sets of the reading -------------------------------------------------------------------------------


@predicate
def has_triplet_or_kong(c: Candidate, special_counts: bool = False) -> bool:
    """At least one triplet or kong, exposed or concealed (special kongs too when ``special_counts``)."""
    return any(g.is_triplet or (special_counts and g.kind == "special") for g in c.sets)


@predicate
def has_special_kong(c: Candidate) -> bool:
    """The hand holds a special kong (旋风杠, 喜杠, 幺蛋, 九蛋 …)."""
    return any(m.kind == "special" for m in c.hand.melds)


@predicate
def has_declared_kong(c: Candidate) -> bool:
    """The hand holds a declared kong of any kind (exposed, concealed or special)."""
    return any(m.is_kong for m in c.hand.melds)


@predicate
def pair_is(c: Candidate, kind: str) -> bool:
    """The pair is a ``kind`` tile: dragon, wind, honor or terminal."""
    if c.pair is None:
        return False
    t = c.pair.tiles[0]
    tests = {"dragon": T.is_dragon, "wind": T.is_wind, "honor": T.is_honor, "terminal": T.is_terminal}
    return tests[kind](t)


@predicate
def all_triplets(c: Candidate) -> bool:
    """Every set is a triplet or kong (special kongs allowed); no chi, no sequence."""
    return c.reading.form == "regular" and all(g.kind != "chi" for g in c.sets)


@predicate
def form(c: Candidate, name: str) -> bool:
    """The hand is read in the special form ``name`` (seven_pairs, thirteen_orphans …)."""
    return c.reading.form == name


@predicate
def seven_pairs_with_four(c: Candidate) -> bool:
    """Seven pairs with a four-of-a-kind among them (豪华七对)."""
    if c.reading.form != "seven_pairs":
        return False
    kinds = [g.tiles[0] for g in c.reading.groups if g.kind == "pair"]
    return len(set(kinds)) < len(kinds)


# --- the wait ------------------------------------------------------------------------------------------


@predicate
def placed_in_single_wait(c: Candidate) -> bool:
    """In this reading the winning tile completes an edge (12→3, 89→7), a closed wait (13→2) or the pair."""
    return c.reading.wait in ("edge", "closed", "pair")


@predicate
def one_tile_wait(c: Candidate) -> bool:
    """The hand before the win waited on exactly one tile kind (kinds already held four times left out)."""
    return len(c.waits) == 1


# --- north-eastern patterns ----------------------------------------------------------------------------


@predicate
def no_wildcard_held(c: Candidate) -> bool:
    """The hand holds no wildcard tile anywhere, as itself or standing in (a kong of wildcards counts)."""
    return c.wild_kind is None or c.wild_kind not in c.raw.all_tiles()


@predicate
def all_others_closed(c: Candidate) -> bool:
    """Every other seat's hand is closed (+closed lists all three)."""
    return set(c.ctx.losers) <= c.ctx.closed


@predicate
def completed_special_set(c: Candidate) -> bool:
    """The winning tile completed a special kong's set in hand (中发白 叫胡)."""
    return any(m.called for m in c.hand.melds)
