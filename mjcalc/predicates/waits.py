"""Predicates of the wait: where this reading places the winning tile, and the waits of the hand before the win
(core/readings/waits.py works them out; a predicate only counts them)."""

from __future__ import annotations

from ..core.candidate import Candidate
from ..core.facts import Gate
from ..core.readings.decompose import WAIT_FACTS
from .binding import explained_by, needs, params, predicate


def _wait_kinds() -> tuple[str, ...]:
    """a wait kind: edge, closed, two_sided, pair, dual_pung"""
    return tuple(k for k in WAIT_FACTS if k)


@predicate
@explained_by("win")
def placed_in_single_wait(c: Candidate) -> bool:
    """In this reading the winning tile completes an edge (12→3, 89→7), a closed wait (13→2) or the pair."""
    return c.reading.wait in ("edge", "closed", "pair")


@predicate
@explained_by("win", "waits")
def one_tile_wait(c: Candidate) -> bool:
    """The hand before the win waited on exactly one tile kind (kinds already held four times left out)."""
    return len(c.waits) == 1


@predicate
@explained_by("win", "waits", "winning_waits")
def one_winning_tile(c: Candidate) -> bool:
    """The hand before the win could win on exactly one tile kind: every other kind that completes its shape
    breaks a win condition (kinds already held four times left out)."""
    return len(c.winning_waits) == 1


@predicate
@needs(lambda kind: Gate(WAIT_FACTS.get(kind, 0)), exact=True)
@params(kind=_wait_kinds)
@explained_by("win")
def wait_is(c: Candidate, kind: str) -> bool:
    """The winning tile completes this kind of wait in the reading: edge, closed, two_sided, pair, dual_pung."""
    return c.reading.wait == kind
