"""Predicates of the situation: how and by whom the hand was won, the flags of the line, how its sets were made
(declared, shown, exposed), whether the hand or the other seats are closed, wildcards held."""

from __future__ import annotations

from typing import Final

from ..core.candidate import Candidate
from ..core.context import DEALER, FIELDS, FLAG_FACTS, ZIMO
from ..core.facts import CLOSED, MELDED, Gate
from ..registry import FLAGS
from .binding import explained_by, needs, params, predicate

# The flags a ``flag`` / ``flag_value`` parameter may name, by the number of flags declared (a family declares its own
# when its hook is imported): made once, not once per ``flag`` of a ruleset.
_FLAG_NAMES: Final[dict[int, tuple[str, ...]]] = {}


def _flag_names() -> tuple[str, ...]:
    """a flag the context holds: zimo, gang, mobao … (not from, base, cap, rules)"""
    found = _FLAG_NAMES.get(len(FLAGS))
    if found is None:
        held = set(FIELDS)
        found = _FLAG_NAMES[len(FLAGS)] = tuple(f.name for f in FLAGS if f.name in held)
    return found


@predicate
@explained_by()
def always(c: Candidate) -> bool:
    """Always: every win."""
    return True


@predicate
@needs(ZIMO, exact=True)
@explained_by("draw")
def self_drawn(c: Candidate) -> bool:
    """The winning tile was drawn by the winner (treasure wins and replacement tiles included)."""
    return c.ctx.zimo


@predicate
@needs(forbid=ZIMO, exact=True)
@explained_by("draw")
def won_on_discard(c: Candidate) -> bool:
    """The winning tile was another player's discard (or a robbed kong)."""
    return not c.ctx.zimo


@predicate
@needs(DEALER, exact=True)
@explained_by("dealer")
def dealer_wins(c: Candidate) -> bool:
    """The winner is the dealer (seat East)."""
    return c.ctx.winner_is_dealer


@predicate
@needs(forbid=ZIMO | DEALER)
@explained_by("draw", "dealer")
def dealer_discarded(c: Candidate) -> bool:
    """Another player won on the dealer's discard (or robbed the dealer's kong, or his eighth flower)."""
    return not c.ctx.zimo and c.ctx.discarder == c.ctx.dealer


@predicate
@needs(lambda name: Gate(FLAG_FACTS.get(name, 0)), exact=True)
@params(name=_flag_names)
@explained_by()
def flag(c: Candidate, name: str) -> bool:
    """The context flag ``name`` is on (``+gang``, ``+mobao`` …)."""
    return bool(c.ctx.get(name))


@predicate
@needs(CLOSED, exact=True)
@explained_by("closed")
def closed_hand(c: Candidate) -> bool:
    """No chi, pon or exposed kong: concealed kongs and special kongs keep a hand closed."""
    return c.hand.closed


@predicate
def all_sets_declared(c: Candidate) -> bool:
    """Every set was declared before the win (chi, pon, kongs, special kongs): one tile was left in hand."""
    return len(c.hand.melds) >= c.hand.sets


@predicate
@needs(MELDED)
@explained_by("closed", "draw")
def all_sets_shown(c: Candidate) -> bool:
    """Every set was shown before the win (chi, pon, exposed kong, special kong): one tile was left in hand; a
    concealed kong counts as tiles in hand (MIL 2024: "暗杠计为手牌")."""
    shown = 0
    for m in c.hand.melds:
        shown += m.kind != "concealed_kong"
    return shown >= c.hand.sets


@predicate
@params(count=int)
def melded_sets_at_most(c: Candidate, count: int) -> bool:
    """At most ``count`` chi / pon / exposed-kong melds."""
    return sum(1 for m in c.hand.melds if m.exposed) <= count


@predicate
@needs(lambda name: Gate(FLAG_FACTS.get(name, 0)))
@params(name=_flag_names)
@explained_by()
def flag_value(c: Candidate, name: str) -> int:
    """The number a context flag holds (``+lian=N``: N), counting the item that many times."""
    return int(c.ctx.get(name))  # type: ignore[call-overload]


@predicate
@explained_by("closed", "draw")
def all_sets_exposed(c: Candidate) -> bool:
    """Every set is a chi, pon or exposed kong declared before the win (a concealed kong does not count): one
    tile was left in hand."""
    exposed = 0
    for m in c.hand.melds:
        exposed += m.exposed
    return exposed >= c.hand.sets


@predicate
@explained_by("wild")
def no_wildcard_held(c: Candidate) -> bool:
    """The hand holds no wildcard tile anywhere, as itself or standing in (a kong of wildcards counts)."""
    return c.wild_kind is None or c.wild_kind not in c.raw.all_tiles()


@predicate
@explained_by("closed_payers")
def all_others_closed(c: Candidate) -> bool:
    """Every other seat's hand is closed (+closed lists all three)."""
    return set(c.ctx.losers) <= c.ctx.closed
