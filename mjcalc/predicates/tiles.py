"""Predicates of the tiles anywhere in the hand, whatever the reading: suits, terminals, honors, simples, flushes,
all green, nine gates. Each first rules out the common hand cheaply (a mask test): items are asked on every
reading. Those that only forbid kinds are exactly their gate (the kinds the engine tests), so they are never
called then."""

from __future__ import annotations

from typing import Final

from ..core import tiles as T
from ..core.candidate import Candidate
from ..core.facts import (
    DRAGON,
    DRAGON_KINDS,
    HONOR,
    HONOR_KINDS,
    KIND_BITS,
    MELDED,
    ONE_SUIT,
    TERMINAL,
    TERMINAL_KINDS,
    THREE_SUITS,
    Gate,
)
from .binding import needs, params, predicate


@predicate
@needs(THREE_SUITS, exact=True)
def has_all_three_suits(c: Candidate) -> bool:
    """Tiles of all three suits (万 筒 条) appear in the hand, melds and special kongs included."""
    return len(c.suits) == 3


@predicate
def one_suit_plus_honors(c: Candidate) -> bool:
    """At most one suit, honors allowed (an all-honor hand passes too)."""
    return len(c.suits) <= 1


@predicate
@needs(TERMINAL, exact=True)
def has_terminal(c: Candidate) -> bool:
    """At least one 1 or 9 of a suit."""
    return bool(c.kinds & TERMINAL_KINDS)


@predicate
@needs(HONOR, exact=True)
def has_honor(c: Candidate) -> bool:
    """At least one wind or dragon tile."""
    return bool(c.kinds & HONOR_KINDS)


@predicate
@needs(DRAGON, exact=True)
def has_dragon(c: Candidate) -> bool:
    """At least one 中, 发 or 白 tile."""
    return bool(c.kinds & DRAGON_KINDS)


TERMINALS_AND_HONORS: Final[int] = TERMINAL_KINDS | HONOR_KINDS


GREEN_MASK: Final[int] = T.mask([T.parse_tile(t) for t in ("2s", "3s", "4s", "6s", "8s", "6z")])


@predicate
@needs(forbid=TERMINALS_AND_HONORS, exact=True)
def all_simples(c: Candidate) -> bool:
    """No 1, 9 or honor anywhere in the hand (断幺九)."""
    return not c.kinds & TERMINALS_AND_HONORS


@predicate
@needs(ONE_SUIT, forbid=HONOR_KINDS)
def full_flush(c: Candidate) -> bool:
    """Every tile of one suit, no honors (清一色)."""
    return len(c.suits) == 1 and not c.kinds & HONOR_KINDS


@predicate
@needs(ONE_SUIT | HONOR)
def half_flush(c: Candidate) -> bool:
    """One suit plus honors, with at least one honor (混一色)."""
    return len(c.suits) == 1 and bool(c.kinds & HONOR_KINDS)


@predicate
@needs(forbid=KIND_BITS & ~HONOR_KINDS, exact=True)
def all_honors(c: Candidate) -> bool:
    """Every tile a wind or a dragon (字一色)."""
    return not c.kinds & ~HONOR_KINDS


@predicate
@needs(forbid=KIND_BITS & ~TERMINAL_KINDS, exact=True)
def all_terminals(c: Candidate) -> bool:
    """Every tile a 1 or a 9 of a suit (清老头)."""
    return not c.kinds & ~TERMINAL_KINDS


@predicate
@needs(forbid=KIND_BITS & ~TERMINALS_AND_HONORS, exact=True)
def all_terminals_and_honors(c: Candidate) -> bool:
    """Every tile a 1, a 9 or an honor (混老头)."""
    return not c.kinds & ~TERMINALS_AND_HONORS


@predicate
@needs(forbid=KIND_BITS & ~GREEN_MASK, exact=True)
def all_green(c: Candidate) -> bool:
    """Every tile green: 2 3 4 6 8 of bamboo and 发 (绿一色)."""
    return not c.kinds & ~GREEN_MASK


@predicate
@needs(lambda pure=False: Gate(ONE_SUIT | TERMINAL, MELDED | HONOR_KINDS))
@params(pure=bool)
def nine_gates(c: Candidate, pure: bool = False) -> bool:
    """A closed hand without melds of 1112345678999 plus one tile of the same suit (九莲宝灯); ``pure``: the hand
    before the win was exactly 1112345678999, waiting on all nine (纯正九莲)."""
    if c.hand.melds or len(c.suits) != 1 or c.kinds & HONOR_KINDS:
        return False
    suit = next(iter(c.suits)) * 9
    counts = c.counts
    if counts[suit] < 3 or counts[suit + 8] < 3 or 0 in counts[suit + 1:suit + 8]:
        return False
    # 14 tiles of one suit holding 111 2-8 999: exactly one kind has one tile more than that
    return not pure or (c.hand.win_tile is not None
                        and counts[c.hand.win_tile] == (4 if c.hand.win_tile in (suit, suit + 8) else 2))
