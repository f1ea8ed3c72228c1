"""长春麻将 Changchun and the north-eastern rules that share its treasure (宝牌: jilin, changchun-mil): the flags
of the treasure and of 包庄, and the treasure as a wildcard provider (``wildcard: treasure``) — on +mobao the
winning tile is the treasure drawn, standing for whatever tile scores best."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..core import tiles as T
from ..core.context import Context, FlagDef, declare_flags
from ..core.hand import Hand
from ..core.readings.wildcards import NO_WILDCARDS, Wildcards
from ..i18n import N_, Msg
from ..registry import EXPLAINED_BY, WILDCARD_PROVIDERS

declare_flags(
    FlagDef("bao", "tile", "the treasure tile (宝牌)", ("宝", "宝牌"), "none", position=11, plain=False),
    FlagDef("mobao", "bool", "won by drawing the treasure tile as a wildcard", ("摸宝",), position=12,
            way="self_draw"),
    FlagDef("duibao", "bool", "the treasure tile is exactly the winning tile", ("对宝", "通宝", "冲宝"), position=13,
            way="self_draw"),
    FlagDef("baozhuang", "bool", "包庄: the discarder was not ready and pays all three shares", ("包庄",),
            position=26, way="discard"),
)
# the homework checker explains an item that reads +mobao or +duibao by the flag and the wildcard read
EXPLAINED_BY["+mobao"] = EXPLAINED_BY["+duibao"] = ("flag", "wild")


class Treasure:
    """The treasure (宝牌, ``+bao``): on +mobao the winning tile is the treasure drawn, a wildcard standing for the
    best tile; +duibao is scored as the flag says."""

    drawn_label: Final = N_("treasure drawn")

    def wildcards(self, hand: Hand, ctx: Context, column: Callable[[str], int | None]) -> Wildcards:
        if hand.waiting:
            return NO_WILDCARDS
        win = hand.win_tile
        bao = ctx.flag("bao")
        # A treasure that is not the winning tile contradicts the flags; the score does not depend on it
        # (the flags decide the items, a drawn treasure stands for the best tile), so say so and go on.
        mismatch = bao is not None and bao != win
        if not ctx.flag("mobao"):
            note = Msg("+duibao with +bao={bao}: the treasure is normally the winning tile ({win}); 对宝 is scored "
                       "as the flag says", bao=T.name(bao), win=T.name(win)) if ctx.flag("duibao") and mismatch else None  # type: ignore[arg-type]
            return Wildcards(note=note)
        note = Msg("+mobao: the winning tile {win} is read as the treasure drawn (+bao={bao}), a wildcard standing "
                   "for the best tile", win=T.name(win), bao=T.name(bao)) if mismatch else None  # type: ignore[arg-type]
        return Wildcards(win, 1, True, (T.name(win),), note)  # type: ignore[arg-type]

    def drawn(self, reads: frozenset[str], ctx: Context) -> tuple[int, Context] | None:
        """A ready hand that draws the treasure (``+bao``) wins on it as 摸宝, where the ruleset reads +mobao."""
        bao = ctx.flag("bao")
        if bao is None or "mobao" not in reads:
            return None
        return bao, ctx.replace(mobao=True)  # type: ignore[return-value]


WILDCARD_PROVIDERS["treasure"] = Treasure()
