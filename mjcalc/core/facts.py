"""Whole-hand facts as the bits of one int, and gates: what an item needs of them before it is worth asking.

Items are asked on every reading, and most cannot fire on a given hand: no honor tile, no three chows, no
+riichi. A predicate declares a cheap necessary condition (``predicates.binding.needs``), a Gate: facts that must all
hold (``need``) and facts none of which may hold (``forbid``). The engine groups items by gate and skips a
group with one test when its gate is not met, so a skipped item costs no call.

Bits 0-33 are the tile kinds present (as ``Hand.kinds``): a gate can need a kind (a pung of 白 needs a 白) or
forbid kinds (all simples forbids every 1, 9 and honor). Named facts follow, each allocated once by the module
that knows it (tiles and melds here, forms and waits in readings, flags in context).

One test per gate: a gate is one mask, its needs in the low ``WIDTH`` bits and its forbids above them, and
``unmet(facts)`` holds every need bit that is missing and every forbid bit that holds; ``mask & unmet`` is
zero exactly when the gate is met.

>>> describe(Gate(CHI.need(3)))
'needs chows≥3'
>>> describe(Gate(ONE_SUIT, HONOR_KINDS))
'needs one suit; none of 1234567z'
>>> gate = Gate(ONE_SUIT, HONOR_KINDS)
>>> gate.mask & unmet(ONE_SUIT | 1), gate.mask & unmet(ONE_SUIT | 1 << 27) != 0, gate.mask & unmet(None)
(0, True, 0)
>>> Gate(HONOR).inverse() == Gate(0, HONOR), gate.inverse() == OPEN_GATE
(True, True)
"""

from __future__ import annotations

from typing import Final, NamedTuple

from ..i18n import N_, tr
from . import tiles as T

WIDTH: Final = 128  # bits kept for facts: the kinds and every named fact
ALL: Final = (1 << WIDTH) - 1
KIND_BITS: Final = (1 << T.NUM_KINDS) - 1
_NAMES: Final[dict[int, str]] = {}


def new(name: str) -> int:
    """A fresh fact bit, above the kinds and every fact allocated before."""
    bit = 1 << (T.NUM_KINDS + len(_NAMES))
    if bit > ALL:
        raise AssertionError(f"more than {WIDTH} facts: widen facts.WIDTH")
    _NAMES[bit] = name
    return bit


class Gate(NamedTuple):
    need: int = 0  # facts that must all hold
    forbid: int = 0  # facts none of which may hold

    def all(self, other: Gate) -> Gate:
        """The gate of both holding: every need and every forbid of either."""
        return Gate(self.need | other.need, self.forbid | other.forbid)

    def any(self, other: Gate) -> Gate:
        """The gate of either holding: only what both need or forbid."""
        return Gate(self.need & other.need, self.forbid & other.forbid)

    @property
    def mask(self) -> int:
        return self.need | self.forbid << WIDTH

    def inverse(self) -> Gate:
        """The gate of the opposite of a predicate that holds exactly when this gate is met: one fact missing,
        or one forbidden fact holding; a gate of more facts can fail in more ways than one gate says (open)."""
        if self.need and not self.forbid and self.need & (self.need - 1) == 0:
            return Gate(0, self.need)
        if self.forbid and not self.need and self.forbid & (self.forbid - 1) == 0:
            return Gate(self.forbid, 0)
        return OPEN_GATE


def unmet(facts: int | None) -> int:
    """What a gate's mask must not touch: the facts missing, and (shifted) the facts that hold; never 0 for
    facts known. None (facts unknown) gives 0, which meets every gate."""
    if facts is None:
        return 0
    return (ALL ^ facts) | facts << WIDTH


OPEN_GATE: Final = Gate()

HONOR_KINDS: Final = T.mask(range(T.HONOR_START, T.NUM_KINDS))
WIND_KINDS: Final = T.mask(T.WINDS)
DRAGON_KINDS: Final = T.mask(T.DRAGONS)
TERMINAL_KINDS: Final = T.mask(t for t in range(T.HONOR_START) if T.is_terminal(t))

# --- the tiles and melds of a hand (Hand.facts) ----------------------------------------------------------
HONOR: Final = new(N_("an honor"))
WIND: Final = new(N_("a wind"))
DRAGON: Final = new(N_("a dragon"))
TERMINAL: Final = new(N_("a terminal"))
ONE_SUIT: Final = new(N_("one suit"))  # the suited tiles are all of one suit (honors aside)
THREE_SUITS: Final = new(N_("three suits"))
RED: Final = new(N_("a red five"))
CLOSED: Final = new(N_("a closed hand"))
MELDED: Final = new(N_("a meld"))  # any declared meld, concealed and special kongs included


class Count:
    """Facts 'what≥1' … 'what≥top' of a count of sets: a gate needs one of them; ``of[n]`` are the facts a count
    of n sets, every threshold up to n (a tuple rather than a method: it is read for every reading)."""

    def __init__(self, what: str, top: int = 4) -> None:
        self.at_least = (0, *(new(f"{what}≥{n}") for n in range(1, top + 1)))
        self.of = tuple(sum(self.at_least[1:min(n, top) + 1]) for n in range(MAX_GROUPS + 1))

    def need(self, n: int) -> int:
        """The fact a gate needs for a count of at least ``n`` (the highest threshold for more)."""
        return self.at_least[max(0, min(n, len(self.at_least) - 1))]


MAX_GROUPS: Final = 32  # more groups than any reading has (thirteen orphans has 13)


KONG: Final = Count(N_("kongs"))  # declared kongs, special kongs included
# --- the reading (Candidate.facts) ------------------------------------------------------------------------
CHI: Final = Count(N_("chows"))
PUNG: Final = Count(N_("triplets"))  # triplets and ordinary kongs, melds included
CONCEALED_PUNG: Final = Count(N_("concealed triplets"))  # as groups (one a discard completed still counts here)
DRAGON_PUNG: Final = Count(N_("dragon triplets"), 3)
WIND_PUNG: Final = Count(N_("wind triplets"))


def tile_facts(kinds: int) -> int:
    """The kinds present (bits 0-33) and what they say: honors, terminals, one suit."""
    facts = kinds
    if kinds & HONOR_KINDS:
        facts |= HONOR
        if kinds & WIND_KINDS:
            facts |= WIND
        if kinds & DRAGON_KINDS:
            facts |= DRAGON
    if kinds & TERMINAL_KINDS:
        facts |= TERMINAL
    suits = ((kinds & 0x1FF) != 0) + ((kinds >> 9 & 0x1FF) != 0) + ((kinds >> 18 & 0x1FF) != 0)
    if suits == 1:
        facts |= ONE_SUIT
    elif suits == 3:
        facts |= THREE_SUITS
    return facts


def describe(gate: Gate, lang: str = "en") -> str:
    """A gate in words, for ``mjcalc rules show``; empty for an item asked on every reading."""
    def words(bits: int) -> list[str]:
        out = [T.format_tiles(t for t in range(T.NUM_KINDS) if bits >> t & 1)] if bits & KIND_BITS else []
        return out + [_fact_name_in(name, lang) for bit, name in _NAMES.items() if bits & bit]

    parts = []
    if gate.need:
        parts.append(tr("needs {facts}", lang).format(facts=", ".join(words(gate.need))))
    if gate.forbid:
        parts.append(tr("none of {facts}", lang).format(facts=", ".join(words(gate.forbid))))
    if len(parts) == 2:
        return tr("{first}; {second}", lang).format(first=parts[0], second=parts[1])
    return parts[0] if parts else ""


def _fact_name_in(name: str, lang: str) -> str:
    """A fact's name in ``lang``: ``kongs≥2`` as the count's words and its threshold."""
    what, at_least, n = name.partition("≥")
    return tr(what, lang) + at_least + n
