"""One way to read the win (``Candidate``): the hand with its wildcards substituted, its context, one reading, and
the whole-hand facts of the three: what every predicate receives."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..core import tiles as T
from ..core.context import Context
from ..core.facts import CHI, CONCEALED_PUNG, DRAGON_PUNG, PUNG, WIND_PUNG
from ..core.hand import Hand, Meld
from ..core.readings.decompose import WAIT_FACTS, Reading
from ..core.readings.forms import FORM_FACTS, Group
from ..support.memo import remember


class Candidate:
    """One way to read the win: the hand (wildcards substituted), its context, one reading; ``raw`` is the
    hand as written, for what counts real tiles (kong points, 穷胡).

    The shape of the reading (its sets, pair, chows, triplets) and the whole-hand facts are read in one pass
    when the candidate is made, as plain attributes: every reading is asked for its facts, and predicates read
    them again and again (an attribute computed on first use costs more on every later read). The few that
    only some predicates read (waits, tiles, counts) are computed on first use and kept."""

    def __init__(self, hand: Hand, ctx: Context, reading: Reading, subs: dict[str, str],
                 waits: Callable[[], frozenset[int]], wild_kind: int | None = None, wild_count: int = 0,
                 options: Mapping[str, Any] | None = None, raw: Hand | None = None,
                 completions: Callable[[], frozenset[int]] | None = None,
                 winning: Callable[[], frozenset[int]] | None = None) -> None:
        self.hand = hand
        self.raw = raw if raw is not None else hand
        self.ctx = ctx
        self.reading = reading
        self.subs = subs
        self.waits_of = waits  # computed only for a predicate that asks (one_tile_wait)
        self.completions_of = completions if completions is not None else waits  # kinds held four times included
        self.winning_of = winning if winning is not None else waits  # the waits that pass the win conditions
        self.wild_kind = wild_kind
        self.wild_count = wild_count
        self.options = options or {}  # read only by YAML parameters written {option: NAME}, never by predicates
        self._waits: frozenset[int] | None = None
        self._tiles: list[int] | None = None
        self._counts: list[int] | None = None
        # A concealed kong of four wildcards (黄金杠) is left unsubstituted and so stands for no tile (no suit,
        # no 1 or 9, no dragon): the whole-hand facts then come from ``tiles``, not from the hand's own.
        self.has_wildcard_kong = wild_kind is not None and any(self.is_wildcard_kong(m) for m in hand.melds)
        self.kinds: int
        self.suits: frozenset[int]
        if self.has_wildcard_kong:
            self.kinds = T.mask(self.tiles)
            self.suits = T.suits_of(self.kinds)
        else:
            self.kinds = hand.kinds
            self.suits = hand.suits
        chis: list[int] = []
        pungs: list[int] = []
        sets: list[Group] = []
        pairs: list[Group] = []
        concealed = dragons = winds = 0  # triplets of each sort, for the facts
        for g in reading.groups:
            kind, tiles, closed = g[0], g[1], g[2]  # by index: a named tuple's attributes cost more
            if kind == "chi":
                chis.append(tiles[0])
                sets.append(g)
            elif kind == "pon" or kind == "kong":
                t = tiles[0]
                pungs.append(t)
                sets.append(g)
                concealed += closed
                if t >= T.HONOR_START:
                    if t in T.DRAGONS:
                        dragons += 1
                    else:
                        winds += 1
            elif kind == "pair":
                pairs.append(g)
            elif kind == "special":
                sets.append(g)
        chis.sort()
        self.sets = sets
        self.pair = pairs[0] if len(pairs) == 1 else None
        self.chi_starts = chis  # the first tile of each chow, sorted
        self.pung_kinds = pungs  # the kind of each triplet or ordinary kong
        # Whole-hand facts (facts.py) of the hand, its context and this reading, for the items' gates; None when
        # a kong of four wildcards makes the tile facts ambiguous (it counts as no tile to some predicates, as a
        # kong to others): every item is asked then.
        self.facts: int | None = None if self.has_wildcard_kong else (
            hand.facts | ctx.facts | _reading_facts(reading[0], reading[3], len(chis), len(pungs), concealed, dragons,
                                                    winds))

    @property
    def waits(self) -> frozenset[int]:
        """The shape waits of the hand before the win."""
        if self._waits is None:
            self._waits = self.waits_of()
        return self._waits

    @property
    def completions(self) -> frozenset[int]:
        """The kinds that would have completed the shape of the hand before the win, kinds it holds all four of
        included (MCR's reference counts waits so)."""
        return self.completions_of()

    @property
    def winning_waits(self) -> frozenset[int]:
        """The waits of the hand before the win on which it would win: every win condition holds for some reading
        (the engine's; without it, the shape waits)."""
        return self.winning_of()

    @property
    def tiles(self) -> list[int]:
        """Every tile as it counts: wildcards as what they stand for, while a concealed kong of four wildcards
        (黄金杠) is left unsubstituted and so stands for no tile (no suit, no 1 or 9, no dragon)."""
        if self._tiles is None:
            out = list(self.hand.concealed)
            for m in self.hand.melds:
                if not self.is_wildcard_kong(m):
                    out.extend(m.tiles)
            self._tiles = out
        return self._tiles

    def is_wildcard_kong(self, m: Meld) -> bool:
        return m.kind == "concealed_kong" and m.tiles[0] == self.wild_kind

    @property
    def counts(self) -> list[int]:
        if self._counts is None:
            self._counts = T.counts_of(self.tiles) if self.has_wildcard_kong else self.hand.counts
        return self._counts

    @property
    def win_group(self) -> Group | None:
        i = self.reading.win_index
        return None if i is None else self.reading.groups[i]


# The facts of a reading's form, wait and set counts, by the counts packed in one small int (each below 64:
# MAX_GROUPS), the form and the wait beside them by their place in FORM_FACTS and WAIT_FACTS: seven big-int unions
# and two look-ups a reading become one look-up, by an int rather
# than a tuple (~500 less again). Few combinations occur.
_READING_FACTS: Final[dict[int, int]] = {}


_FORM_AT: Final = {form: i for i, form in enumerate(FORM_FACTS)}


_WAIT_AT: Final = {wait: i for i, wait in enumerate(WAIT_FACTS)}


def _reading_facts(form: str, wait: str | None, chis: int, pungs: int, concealed: int, dragons: int,
                   winds: int) -> int:
    key = chis | pungs << 6 | concealed << 12 | dragons << 18 | winds << 24 | _FORM_AT[form] << 30 | _WAIT_AT[wait] << 36
    found = _READING_FACTS.get(key)
    if found is None:
        found = remember(_READING_FACTS, key, FORM_FACTS[form] | WAIT_FACTS[wait] | CHI.of[chis] | PUNG.of[pungs]
                         | CONCEALED_PUNG.of[concealed] | DRAGON_PUNG.of[dragons] | WIND_PUNG.of[winds])
    return found
