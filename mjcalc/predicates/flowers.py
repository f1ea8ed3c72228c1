"""Predicates of flowers (1f-8f: 春 夏 秋 冬 梅 兰 竹 菊, set aside as drawn; never part of a reading)."""

from __future__ import annotations

from typing import Final

from ..core import tiles as T
from ..core.candidate import Candidate
from .binding import explained_by, params, predicate

FLOWER_SETS: Final = ((0, 1, 2, 3), (4, 5, 6, 7))  # 春夏秋冬 and 梅兰竹菊


NUM_FLOWERS: Final = 8


@predicate
@explained_by("flowers")
def flower_count(c: Candidate) -> int:
    """How many flowers the winner holds (1f-8f, or the count of a GB string): each counts once (MCR 花牌 a fan each)."""
    return len(c.hand.flowers)


@predicate
@explained_by("flowers", "draw")
def all_flowers(c: Candidate) -> bool:
    """The winner holds all eight flowers."""
    return len(c.hand.flowers) == NUM_FLOWERS


def _complete_flower_sets(flowers: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [group for group in FLOWER_SETS if all(f in flowers for f in group)]


@predicate
@params(except_in_sets=bool)
@explained_by("flowers", "seat")
def seat_flowers(c: Candidate, except_in_sets: bool = False) -> int:
    """How many flowers of the winner's seat he holds: 东 1f 5f, 南 2f 6f, 西 3f 7f, 北 4f 8f (a flower's number
    less one, modulo 4, is its seat); with ``except_in_sets``, not one in a complete set of four (花杠)."""
    seat = T.wind_index(c.ctx.seat)
    flowers = c.hand.flowers
    complete = _complete_flower_sets(flowers) if except_in_sets else []
    return sum(1 for f in flowers if f % 4 == seat and not any(f in group for group in complete))


@predicate
@explained_by("flowers")
def flower_sets(c: Candidate) -> int:
    """How many complete sets of four flowers the winner holds: 春夏秋冬 (1f-4f), 梅兰竹菊 (5f-8f)."""
    return len(_complete_flower_sets(c.hand.flowers))
