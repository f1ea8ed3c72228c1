"""Every reading of a hand: its concealed tiles split in every form the ruleset allows (forms.py), its melds
added, and the winning tile placed in each group that holds it, with the wait that makes (edge, closed …). A
reading is what predicates look at.

>>> [r.text() for r in readings(Hand((0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 28, 28), (), 28),
...                             (FormSpec("regular"),))]
[['123m', '123p', '123s', '111z', '22z']]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from ...i18n import N_
from ...support.memo import remember
from ...support.tuples import new_tuple
from .. import tiles as T
from ..facts import new as new_fact
from ..hand import Hand, Meld
from .forms import FormSpec, Group, _group, _regular, may_be, special_form



def tiles_of(text: str) -> list[int]:
    """Tiles of a plain mpsz string (tests and docs)."""
    out: list[int] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out.extend(T.parse_tile(d + ch) for d in digits)
            digits = ""
    return out


class Reading(NamedTuple):  # a tuple: one per decomposition and placement of the winning tile
    form: str  # regular | seven_pairs | thirteen_orphans | …
    groups: tuple[Group, ...]  # concealed groups, then melds
    win_index: int | None  # the group the winning tile completed
    wait: str | None  # edge | closed | two_sided | pair | dual_pung | single | None

    def text(self) -> list[str]:
        return [g.text() for g in self.groups]


# --- regular: N sets + a pair --------------------------------------------------------------------------


# --- special forms: plug-ins by name -------------------------------------------------------------------


def decompositions(concealed: tuple[int, ...], free_sets: int,
                   forms: Iterable[FormSpec]) -> list[tuple[str, tuple[Group, ...]]]:
    """Every split of the concealed tiles (sorted kinds) in every form, with the form's name."""
    out = []
    counts = None
    for spec in forms:
        form = spec[0]  # the name, by index: a named tuple's attribute costs a compiled module a Python look-up
        if form == "regular":
            for groups in _regular(concealed):
                out.append(("regular", groups))
        elif may_be(form, concealed):
            if counts is None:
                counts = tuple(T.counts_of(concealed))
            for d in special_form(form, counts, free_sets, spec):  # mostly none: no comprehension to set up
                out.append((form, tuple([_group(k, t) for k, t in d])))
    return out





# --- readings with the winning tile placed -------------------------------------------------------------

WAITS: Final = ("edge", "closed", "two_sided", "pair", "dual_pung", "single", "knitted", "called")  # Reading.wait, when not None
# facts.py: the reading's wait
WAIT_FACT_NAMES: Final = {
    "edge": N_("edge wait"), "closed": N_("closed wait"), "two_sided": N_("two_sided wait"),
    "pair": N_("pair wait"), "dual_pung": N_("dual_pung wait"), "single": N_("single wait"),
    "knitted": N_("knitted wait"), "called": N_("called wait"),
}
WAIT_FACTS: Final[dict[str | None, int]] = {None: 0, **{w: new_fact(WAIT_FACT_NAMES.get(w, f"{w} wait"))
                                                        for w in WAITS}}


# The group of each meld met, by identity (the entry holds the meld, so no other object can take its id): hands
# are built from the melds kept per text (hand._MELDS), and a meld's group is dear to make.
_MELD_GROUPS: Final[dict[int, tuple[Meld, Group]]] = {}


def _meld_group(m: Meld) -> Group:
    found = _MELD_GROUPS.get(id(m))
    if found is None or found[0] is not m:
        found = remember(_MELD_GROUPS, id(m), (m, meld_group(m)), 4096)
    return found[1]


def meld_group(m: Meld) -> Group:
    if m.kind == "special":
        return new_tuple(Group, ("special", m.tiles, True, True, m.special, m.extra))
    kind = "kong" if m.is_kong else m.kind
    return new_tuple(Group, (kind, m.tiles, m.kind == "concealed_kong", True, None, 0))


def _wait_of(group: Group, win: int) -> str:
    kind = group[0]
    if kind == "pair":
        return "pair"
    if kind == "pon":
        return "dual_pung"
    if kind == "single":
        return "single"
    if kind == "knitted":
        return "knitted"
    first = group[1][0]
    if win == first + 1:
        return "closed"
    if (win == first + 2 and first % 9 == 0) or (win == first and first % 9 == 6):
        return "edge"
    return "two_sided"


def readings(hand: Hand, forms: tuple[FormSpec, ...]) -> list[Reading]:
    """Every reading of a complete hand, one per decomposition and placement of the winning tile. A called
    meld (叫胡) holds the winning tile in every reading."""
    free = hand.sets - len(hand.melds)
    if not hand.melds:
        return _concealed_readings(hand.concealed, hand.win_tile, free, forms)
    melds = tuple([_meld_group(m) for m in hand.melds])
    called = None
    for i, m in enumerate(hand.melds):
        if m.called:
            called = i
            break
    if called is not None:
        return [new_tuple(Reading, (form, groups + melds, len(groups) + called, "called"))
                for form, groups in decompositions(hand.concealed, free, forms)]
    return [new_tuple(Reading, (form, groups + melds, i, wait))
            for form, groups, i, wait in _concealed_readings(hand.concealed, hand.win_tile, free, forms)]


def _concealed_readings(concealed: tuple[int, ...], win: int | None, free: int,
                        forms: tuple[FormSpec, ...]) -> list[Reading]:
    """The readings of the concealed tiles alone (the hand's melds are added after them). Not cached whole:
    whole hands seldom come back, the suits' splits are cached, and a cache of readings would hold many objects
    that the garbage collector walks again and again (measured: no faster, more collector time)."""
    out: list[Reading] = []
    for form, groups in decompositions(concealed, free, forms):
        if win is None:
            out.append(new_tuple(Reading, (form, groups, None, None)))
            continue
        placed: list[Group] = []  # the winning tile once per distinct group (concealed groups are interned)
        for i, g in enumerate(groups):
            if _holds(g[1], win) and not _among(g, placed):
                placed.append(g)
                out.append(new_tuple(Reading, (form, groups, i, _wait_of(g, win))))
    return out


# ``win in g.tiles`` and ``g not in placed`` by plain loops: a compiled module tests ``in`` on a tuple or a list
# through the Python protocol, item by item.
def _holds(tiles: tuple[int, ...], win: int) -> bool:
    for t in tiles:  # noqa: SIM110
        if t == win:
            return True
    return False


def _among(g: Group, placed: list[Group]) -> bool:
    """Whether a group of the concealed tiles is among ``placed``: such a group is its kind and first tile alone."""
    for p in placed:
        if p[0] == g[0] and p[1][0] == g[1][0]:
            return True
    return False


# --- wildcards -----------------------------------------------------------------------------------------

