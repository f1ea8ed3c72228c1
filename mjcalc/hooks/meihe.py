"""Meihe (梅河) kong points that no declared meld shows: the lame kong (瘸腿杠) and the undeclared four of a
kind. Each finder returns the kongs it sees in one reading; ``rules/meihe.yaml`` prices them."""

from __future__ import annotations

from ..core import tiles as T
from ..core.candidate import Candidate
from ..core.settlement.kongs import kong_finder

meihe = kong_finder("meihe")


def flipped_kind(c: Candidate) -> int | None:
    """The kind flipped to find the wildcard: ``+flip``, else the kind before the wildcard (+hui alone)."""
    if c.ctx.flip is not None:
        return c.ctx.flip
    return None if c.wild_kind is None else T.previous_kind(c.wild_kind)


@meihe
def lame_kong(c: Candidate) -> list[tuple[int, ...]]:
    """瘸腿杠: the three real tiles left of the flipped kind (one is out of play), held as a pon or all among
    the concealed tiles with the winning tile, whatever the reading; not when one of them is in a chi."""
    kind = flipped_kind(c)
    if kind is None or any(m.kind == "chi" and kind in m.tiles for m in c.raw.melds):
        return []
    held_as_pon = any(m.kind == "pon" and m.tiles[0] == kind for m in c.raw.melds)
    if held_as_pon or c.raw.concealed.count(kind) >= 3:
        return [(kind,) * 3]
    return []


@meihe
def undeclared_four(c: Candidate) -> list[tuple[int, ...]]:
    """Four real tiles of a kind held at the end, in hand and chi / pon melds together, never declared as a
    kong (declared and special kongs apart; four wildcards count, a wildcard standing in does not)."""
    counts = T.counts_of(c.raw.concealed)
    for m in c.raw.melds:
        if m.kind in ("chi", "pon"):
            for t in m.tiles:
                counts[t] += 1
    for m in c.hand.melds:
        if m.called:  # a set completed in hand by the winning tile is a special kong's tiles
            for t in m.tiles:
                counts[c.raw.win_tile if t == c.hand.win_tile else t] -= 1  # type: ignore[index]
    return [(k,) * 4 for k, n in enumerate(counts) if n == 4]
