"""梅河麻将 Meihe: its flags (the 会牌 wildcard, +hui or +flip, and 杠点炮), the 会牌 as a wildcard provider
(``wildcard: hui``: up to four in hand), and the kong points that no declared meld shows — the lame kong (瘸腿杠)
and the undeclared four of a kind; each finder returns the kongs it sees in one reading, ``rules/meihe.yaml``
prices them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..core import tiles as T
from ..core.candidate import Candidate
from ..core.context import Context, FlagDef, declare_flags
from ..core.hand import Hand
from ..core.readings.wildcards import NO_WILDCARDS, Wildcards
from ..core.settlement.kongs import kong_finder
from ..errors import MjcalcError
from ..i18n import N_, Msg
from ..registry import WILDCARD_PROVIDERS

declare_flags(
    FlagDef("hui", "tile", "the wildcard tile kind (会牌)", ("会", "会牌"), "none", position=14, plain=False),
    FlagDef("flip", "tile", "the tile flipped to find the wildcard (the wildcard is the next kind)", ("翻",), "none",
            position=15, plain=False),
    FlagDef("gangpao", "bool", "the winning discard came right after the discarder's kong", ("杠点炮",),
            position=16, way="discard"),
)


class Hui:
    """The 会牌 wildcard: the kind ``+hui`` names, or the kind after ``+flip`` (the tile flipped to find it); every
    tile of that kind in the concealed hand is wild."""

    drawn_label: Final = N_("wildcard drawn")

    def wildcards(self, hand: Hand, ctx: Context, column: Callable[[str], int | None]) -> Wildcards:
        kind: int | None = ctx.flag("hui")  # type: ignore[assignment]
        flip: int | None = ctx.flag("flip")  # type: ignore[assignment]
        if flip is not None:
            flipped = T.next_kind(flip)
            if kind is not None and kind != flipped:
                raise MjcalcError("context", Msg("+hui={hui} and +flip={flip} disagree: the flip makes {wildcard} the "
                                                 "wildcard", hui=T.name(kind), flip=T.name(flip),
                                                 wildcard=T.name(flipped)), column("flip"))
            kind = flipped
        if kind is None:
            return NO_WILDCARDS
        if any(m.exposed and kind in m.tiles for m in hand.melds):
            raise MjcalcError("context", Msg("the wildcard {tile} is never used in a chi, pon or exposed kong",
                                             tile=T.name(kind)), column("hui") or column("flip"))
        count = hand.concealed.count(kind)
        win_is_wild = hand.win_tile == kind
        if win_is_wild and not ctx.zimo:
            raise MjcalcError("context", Msg("the winning tile {tile} is the wildcard, which is never discarded: a "
                                             "win on it must be self-drawn (+zimo)", tile=T.name(kind)),
                              column("hui") or column("flip"))
        labels = tuple(T.name(kind) if i == 0 else f"{T.name(kind)}#{i + 1}" for i in range(count))
        return Wildcards(kind, count, win_is_wild, labels)

    def drawn(self, reads: frozenset[str], ctx: Context) -> tuple[int, Context] | None:
        """A ready hand that draws the 会牌, which stands for the best wait."""
        flip: int | None = ctx.flag("flip")  # type: ignore[assignment]
        kind: int | None = T.next_kind(flip) if flip is not None else ctx.flag("hui")  # type: ignore[assignment]
        return None if kind is None else (kind, ctx)


WILDCARD_PROVIDERS["hui"] = Hui()
meihe = kong_finder("meihe")


def flipped_kind(c: Candidate) -> int | None:
    """The kind flipped to find the wildcard: ``+flip``, else the kind before the wildcard (+hui alone)."""
    flip: int | None = c.ctx.flag("flip")  # type: ignore[assignment]
    if flip is not None:
        return flip
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
