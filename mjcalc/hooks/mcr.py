"""国标麻将 MCR: what its YAML cannot say — the fans that combine sets under the account-once principle (套算一次)
and the principles that go with it (不拆移 / 不得相同), counts the exclusions (不计) of ``rules/mcr.yaml`` cannot
express as whole items, the wait fans, and the kong fans.

The principles, as the reference calculator (ChineseOfficialMahjongHelper, PyPI ``pymahjonggb`` 1.4.0) applies
them and as ``rules/mcr.md`` explains:

- 不拆移: a reading never splits a set to use its tiles twice; each reading is scored on its own sets, and the
  best reading is kept (the engine).
- 套算一次: among chows (and among triplets), a fan of three sets takes those three; the fourth may then combine
  once with one of them. Without a fan of three, pairs of sets combine so that every set joins the others at
  most through one chain: the pairs chosen make no cycle (4 sets: at most 3 pair fans).
- 不得相同: a set combines with another into a given fan only once.
- 不计 / 不重复: fans implied by a bigger one are excluded (``excludes:`` in the YAML); a triplet that earns
  箭刻, 圈风刻 or 门风刻 earns no 幺九刻 as well (``pung_of_terminals_or_honors`` counts only the others).

>>> chow_fans((0, 0, 9, 9))  # 123m 123m 123p 123p: two pure double chows and one mixed, three pairs at most
(('pure_double_chow', 2), ('mixed_double_chow', 1))
>>> chow_fans((0, 3, 6, 9))  # 清龙 123 456 789m, and 123p joins 123m once
(('pure_straight', 1), ('mixed_double_chow', 1))
>>> pung_fans((0, 1, 2, 10))  # 111 222 333m: 一色三节高; 222p joins 222m as a double pung
(('pure_shifted_pungs', 1), ('double_pung', 1))
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from ..core import tiles as T
from ..core.candidate import Candidate
from ..core.context import ZIMO, Context, FlagDef, declare_flags, declare_hand_check
from ..core.facts import (
    CHI,
    CLOSED,
    DRAGON_PUNG,
    HONOR,
    HONOR_KINDS,
    KIND_BITS,
    KONG,
    MELDED,
    ONE_SUIT,
    PUNG,
    TERMINAL,
    THREE_SUITS,
    WIND,
    WIND_PUNG,
    Gate,
)
from ..core.facts import DRAGON as DRAGON_FACT
from ..core.hand import EXPOSED_KINDS, KONG_KINDS, Hand, TileRules
from ..core.readings.forms import FORM_FACTS, REGULAR
from ..i18n import Msg
from ..predicates.binding import explained_by, namespaced, needs, params, tallied
from ..registry import EXPLAINED_BY
from ..support.builtin import builtin_dir
from ..support.memo import remember
from ..support.yamlfile import load_trusted

mcr = namespaced("mcr")

declare_flags(FlagDef("fourth", "bool", "the winning tile was the last of its kind (和绝张)", ("和绝张", "绝张"),
                      position=24))


def _fourth_is_the_last_copy(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+fourth (和绝张): the winning tile was the last of its kind, the other three on the table (discards and
    melds, the winner's own included), so none of them is among the winner's concealed tiles."""
    win = hand.win_tile
    if win is None:
        return None
    in_hand = hand.concealed.count(win) - 1
    if not in_hand:
        return None
    return Msg("+fourth: the winning tile {tile} is the last of its kind, but the hand holds {more} more of it (和绝张: "
               "the other three were on the table)", tile=T.name(win), more=in_hand)


declare_hand_check("fourth", _fourth_is_the_last_copy)
# the option wait_fans, written in the wait fans' ``when``, is explained as they are
EXPLAINED_BY["wait_fans"] = ("win", "waits")

Fans = tuple[tuple[str, int], ...]  # (fan id, count), in the order of preference below

# The combination fans' values decide which combination is kept; on a tie, the fan listed first wins. Both come
# from rules/mcr.yaml, its items of ``mcr.chow_fan`` / ``mcr.pung_fan`` (their value and their order), read when
# first needed (``_fan_values``): the built-in file's, also for a ruleset that extends it.
VALUES: Final[dict[str, int]] = {}
ORDER: Final[dict[str, int]] = {}  # each fan's place in that order
_SHIFT: Final[dict[str, int]] = {}  # each fan's two bits in a combination's rank (``_rank_of``)


def _fan_values() -> None:
    """VALUES, ORDER and _SHIFT from the items of rules/mcr.yaml that name a combination fan."""
    data = load_trusted(str(builtin_dir() / "mcr.yaml"))
    for item in data["items"]:
        when = item.get("when")
        if isinstance(when, dict) and len(when) == 1:
            (name, params), = when.items()
            if name in ("mcr.chow_fan", "mcr.pung_fan"):
                VALUES[params["name"]] = int(item["value"])
    for i, fan in enumerate(VALUES):
        ORDER[fan] = i
        _SHIFT[fan] = 2 * (len(VALUES) - 1 - i)


def _suit(t: int) -> int:
    return t // 9


def _rank(t: int) -> int:
    return t % 9


# --- chows: the first tile of each, sorted -------------------------------------------------------------


def _chow_pair(a: int, b: int) -> str | None:
    """The fan two chows make together (a <= b), if any."""
    if a == b:
        return "pure_double_chow"
    if _suit(a) != _suit(b):
        return "mixed_double_chow" if _rank(a) == _rank(b) else None
    if b - a == 3:
        return "short_straight"
    if _rank(a) == 0 and _rank(b) == 6:
        return "two_terminal_chows"
    return None


def _chow_three(a: int, b: int, c: int) -> str | None:
    """The fan three chows make together (sorted), if any."""
    sa, sb, sc = _suit(a), _suit(b), _suit(c)
    if sa == sb == sc:
        if a == b == c:
            return "pure_triple_chow"
        if _rank(a) == 0 and b == a + 3 and c == a + 6:
            return "pure_straight"
        if b - a == c - b and (b - a == 1 or b - a == 2):
            return "pure_shifted_chows"
        return None
    if sa == sb or sb == sc or sa == sc:  # two suits only
        return None
    low, mid, high = _three_in_order(_rank(a), _rank(b), _rank(c))
    if low == 0 and mid == 3 and high == 6:
        return "mixed_straight"
    if low == high:
        return "mixed_triple_chow"
    if mid == low + 1 and high == mid + 1:
        return "mixed_shifted_chows"
    return None


def _three_in_order(x: int, y: int, z: int) -> tuple[int, int, int]:
    """Three numbers in order (comparisons: no list to sort)."""
    if x > y:
        x, y = y, x
    if y > z:
        y, z = z, y
    if x > y:
        x, y = y, x
    return x, y, z


def _chow_four(a: int, b: int, c: int, d: int) -> str | None:
    if a == b == c == d:
        return "quadruple_chow"
    if _suit(a) == _suit(d) and b - a == c - b == d - c and (b - a == 1 or b - a == 2):
        return "four_pure_shifted_chows"
    return None


def _pung_pair(a: int, b: int) -> str | None:
    if a < T.HONOR_START and b < T.HONOR_START and _suit(a) != _suit(b) and _rank(a) == _rank(b):
        return "double_pung"
    return None


def _pung_three(a: int, b: int, c: int) -> str | None:
    if c >= T.HONOR_START:
        return None
    sa, sb, sc = _suit(a), _suit(b), _suit(c)
    if sa == sb == sc:
        return "pure_shifted_pungs" if b == a + 1 and c == b + 1 else None
    if sa == sb or sb == sc or sa == sc:  # two suits only
        return None
    low, mid, high = _three_in_order(_rank(a), _rank(b), _rank(c))
    if low == high:
        return "triple_pung"
    if mid == low + 1 and high == mid + 1:
        return "mixed_shifted_pungs"
    return None


def _pung_four(a: int, b: int, c: int, d: int) -> str | None:
    if d < T.HONOR_START and _suit(a) == _suit(d) and b == a + 1 and c == b + 1 and d == c + 1:
        return "four_pure_shifted_pungs"
    return None


def _rank_of(fans: dict[str, int]) -> int:
    """How good a combination is: its total, then its fans in the table's order (more of an earlier fan first), as
    one number that orders as that tuple would (a combination holds fewer than four of any fan: two bits each)."""
    total = 0
    code = 0
    for name, n in fans.items():
        total += VALUES[name] * n
        code |= n << _SHIFT[name]
    return total << (2 * len(VALUES)) | code



def _as_fans(found: dict[str, int]) -> Fans:
    """The fans found in the table's order (a combination makes at most three: a loop over them, not a sort with
    a key, whose calls are Python-level)."""
    out: list[tuple[str, int]] = []
    for name, n in found.items():
        at = len(out)
        while at and ORDER[out[at - 1][0]] > ORDER[name]:
            at -= 1
        out.insert(at, (name, n))
    return tuple(out)


# The trios of 3 or 4 sets (in combinations' order), each with the sets left over; the pairs of 2 to 4 sets.
_TRIOS: Final = {n: tuple((trio, tuple(i for i in range(n) if i not in trio)) for trio in combinations(range(n), 3))
                 for n in (3, 4)}
_PAIRS: Final = {n: tuple(combinations(range(n), 2)) for n in (2, 3, 4)}


def _pair_fan(a: int, b: int, chows: bool) -> str | None:
    """The fan two chows (by their first tiles) or two triplets (by their kinds) make, a <= b. A plain dispatch:
    a compiled module calls these functions directly, a function passed as a value as a Python object."""
    return _chow_pair(a, b) if chows else _pung_pair(a, b)


def _three_fan(a: int, b: int, c: int, chows: bool) -> str | None:
    return _chow_three(a, b, c) if chows else _pung_three(a, b, c)


def _four_fan(a: int, b: int, c: int, d: int, chows: bool) -> str | None:
    return _chow_four(a, b, c, d) if chows else _pung_four(a, b, c, d)


def _combine(sets: tuple[int, ...], chows: bool) -> Fans:
    """The account-once principle over up to four sets (``chows``: chows by their first tiles, else triplets by
    their kinds), sorted: a fan of four takes them all; else the best fan of three, with the set left over combined
    once with one of the three; else the best forest of pair fans (no cycle, no set in the same fan twice)."""
    n = len(sets)
    if n == 4:
        fan4 = _four_fan(sets[0], sets[1], sets[2], sets[3], chows)
        if fan4 is not None:
            return ((fan4, 1),)
    if n >= 3:
        best: dict[str, int] | None = None
        best_rank = -1
        for trio, rest in _TRIOS[n]:
            fan3 = _three_fan(sets[trio[0]], sets[trio[1]], sets[trio[2]], chows)
            if fan3 is None:
                continue
            found = {fan3: 1}
            extra: str | None = None
            for i in rest:
                for j in trio:
                    a, b = (sets[i], sets[j]) if sets[i] <= sets[j] else (sets[j], sets[i])
                    cand = _pair_fan(a, b, chows)
                    if cand is not None and (extra is None or ORDER[cand] < ORDER[extra]):
                        extra = cand
            if extra is not None:
                found[extra] = found.get(extra, 0) + 1
            rank = _rank_of(found)
            if rank > best_rank:
                best, best_rank = found, rank
        if best is not None:
            return _as_fans(best)
    ends: list[tuple[int, int]] = []  # the pairs of sets that make a fan, and the fan of each
    fans: list[str] = []
    for i, j in _PAIRS[n]:
        a, b = (sets[i], sets[j]) if sets[i] <= sets[j] else (sets[j], sets[i])
        fan = _pair_fan(a, b, chows)
        if fan is not None:
            ends.append((i, j))
            fans.append(fan)
    if not fans:
        return ()
    # Every choice of those pairs (a bit each) that makes a forest: the best by rank. Two choices of the same rank
    # make the same fans (the rank holds every fan's count), so the order they are tried in changes nothing.
    chosen_best: dict[str, int] = {}
    chosen_rank = 0
    fan_bits = [1 << ORDER[fan] for fan in fans]
    for chosen in range(1, 1 << len(fans)):
        if _ONES[chosen] > n - 1 or not _forest(ends, fan_bits, chosen):
            continue
        counted: dict[str, int] = {}
        for k in range(len(fans)):
            if chosen >> k & 1:
                counted[fans[k]] = counted.get(fans[k], 0) + 1
        rank = _rank_of(counted)
        if rank > chosen_rank:
            chosen_best, chosen_rank = counted, rank
    return _as_fans(chosen_best)


def _forest(ends: list[tuple[int, int]], fan_bits: list[int], chosen: int) -> bool:
    """The pairs chosen (bit k: pair k) make no cycle, and no set is in two pairs of the same fan (不得相同);
    ``fan_bits``: of each pair, its fan's bit (its place in ORDER)."""
    parent = [0, 1, 2, 3]
    used = [0, 0, 0, 0]  # of each set, the bits of the fans it is in (small ints: no big-int operation)
    for k in range(len(fan_bits)):
        if not chosen >> k & 1:
            continue
        i, j = ends[k]
        bit = fan_bits[k]
        if used[i] & bit or used[j] & bit:
            return False
        used[i] |= bit
        used[j] |= bit
        ri = i
        while parent[ri] != ri:
            ri = parent[ri]
        rj = j
        while parent[rj] != rj:
            rj = parent[rj]
        if ri == rj:
            return False
        parent[ri] = rj
    return True


# How many bits each choice of pairs sets (up to the six pairs of four sets): ``bin().count`` is a Python-level call.
_ONES: Final = tuple(bin(chosen).count("1") for chosen in range(1 << 6))


# The fans of every combination of chows and of suited triplets met so far, by its shape: the fans of chows and
# triplets in three suits depend on where the sets sit within each suit, not on which suit is which (no fan names
# a suit), so a combination and its renamings of the suits share one entry (tests/test_mcr_shapes.py checks every
# combination of two to four sets against its renamings). Dictionaries rather than lru_caches: the call through
# a cache's wrapper costs more than the look-up. Keyed by shape, the memos have a fifth as many entries to fill
# (2,408 of chows, 3,822 of triplets), and a batch of fresh MCR hands misses them less.
_CHOW_FANS: Final[dict[int, Fans]] = {}
_PUNG_FANS: Final[dict[int, Fans]] = {}

# A suit's sets as one number: a digit for each rank, base 5 for chows (up to four chows of one start), base 2 for
# triplets (one of a kind); the shape, the three suits' numbers sorted, as one int below 2**62.
_CHOW_PLACE: Final[tuple[int, ...]] = tuple(5 ** _rank(t) for t in range(T.HONOR_START))
_CHOW_SPAN: Final = 5 ** 7
_PUNG_PLACE: Final[tuple[int, ...]] = tuple(2 ** _rank(t) for t in range(T.HONOR_START))
_PUNG_SPAN: Final = 2 ** 9


def _shape(sets: list[int], chows: bool) -> int:
    """The shape of these chows (their first tiles) or suited triplets (their kinds), in any order: the same for
    two combinations exactly when one is the other with its suits renamed."""
    place = _CHOW_PLACE if chows else _PUNG_PLACE
    m = p = s = 0
    for t in sets:
        if t < 9:
            m += place[t]
        elif t < 18:
            p += place[t]
        else:
            s += place[t]
    low, mid, high = _three_in_order(m, p, s)
    span = _CHOW_SPAN if chows else _PUNG_SPAN
    return (high * span + mid) * span + low


def chow_fans(starts: tuple[int, ...]) -> Fans:
    """The fans the chows of a reading make together (their first tiles), under the account-once rule."""
    return _fans_of(list(starts), True)


def pung_fans(kinds: tuple[int, ...]) -> Fans:
    """The fans the triplets and kongs of a reading make together (their kinds)."""
    return _fans_of([k for k in kinds if k < T.HONOR_START], False)


def _fans_of(sets: list[int], chows: bool) -> Fans:
    """The fans of these chows (their first tiles) or suited triplets (their kinds), in any order: from the memo of
    their shape, or worked out and remembered there."""
    key = _shape(sets, chows)
    found = _CHOW_FANS.get(key) if chows else _PUNG_FANS.get(key)
    if found is not None:
        return found
    if not VALUES:
        _fan_values()
    ordered = tuple(sorted(sets))
    fans = _combine(ordered, chows) if len(ordered) >= 2 else ()
    if chows:
        return remember(_CHOW_FANS, key, fans, 16384)
    return remember(_PUNG_FANS, key, fans, 32768)


# What each combination fan needs of the hand's facts (facts.py): how many chows or triplets, all three suits.
_CHOW_GATES: Final = {"quadruple_chow": Gate(CHI.need(4)), "four_pure_shifted_chows": Gate(CHI.need(4)),
                      "pure_triple_chow": Gate(CHI.need(3)), "pure_straight": Gate(CHI.need(3)),
                      "pure_shifted_chows": Gate(CHI.need(3)), "mixed_straight": Gate(CHI.need(3) | THREE_SUITS),
                      "mixed_triple_chow": Gate(CHI.need(3) | THREE_SUITS),
                      "mixed_shifted_chows": Gate(CHI.need(3) | THREE_SUITS)}
_PUNG_GATES: Final = {"four_pure_shifted_pungs": Gate(PUNG.need(4)), "pure_shifted_pungs": Gate(PUNG.need(3)),
                      "triple_pung": Gate(PUNG.need(3) | THREE_SUITS),
                      "mixed_shifted_pungs": Gate(PUNG.need(3) | THREE_SUITS)}


def combination_fans(c: Candidate) -> dict[Any, int]:
    """The fans the chows of a reading make together and those its triplets and kongs make (套算一次), by name: the
    tally of ``chow_fan`` and ``pung_fan`` (predicates.binding.tallied), which the engine asks once a reading for their
    dozen and a half items. Kept for the candidate last asked (held here, so that no other object can take its
    identity)."""
    if c is _LAST_COUNTED[0]:
        return _LAST_FANS[0]
    found: dict[Any, int] = {}
    _add_fans(found, c.chi_starts, True)
    kinds = c.pung_kinds
    if len(kinds) >= 2:
        _add_fans(found, [k for k in kinds if k < T.HONOR_START], False)
    _LAST_COUNTED[0] = c
    _LAST_FANS[0] = found
    return found


def _add_fans(found: dict[Any, int], sets: list[int], chows: bool) -> None:
    """The fans these chows (their starts, sorted) or suited triplets (their kinds, in any order) make together,
    added to ``found``. Two sets make one pair fan or none, worked out at once (``_pung_pair`` takes its two in
    either order): no memo to key."""
    if len(sets) == 2:
        fan = _chow_pair(sets[0], sets[1]) if chows else _pung_pair(sets[0], sets[1])
        if fan is not None:
            found[fan] = 1
    elif len(sets) > 2:
        for name, n in _fans_of(sets, chows):
            found[name] = n


_LAST_COUNTED: Final[list[Candidate | None]] = [None]
_LAST_FANS: Final[list[dict[Any, int]]] = [{}]


@mcr
@needs(lambda name: _CHOW_GATES.get(name, Gate(CHI.need(2))))
@tallied(combination_fans)
@params(name=str)
def chow_fan(c: Candidate, name: str) -> int:
    """How many times the chows make the fan ``name`` together, by the account-once principle (套算一次)."""
    return combination_fans(c).get(name, 0)


@mcr
@needs(lambda name: _PUNG_GATES.get(name, Gate(PUNG.need(2))))
@tallied(combination_fans)
@params(name=str)
def pung_fan(c: Candidate, name: str) -> int:
    """How many times the triplets and kongs make the fan ``name`` together (同刻, 节高), account-once."""
    return combination_fans(c).get(name, 0)


# --- whole-hand patterns ------------------------------------------------------------------------------


@mcr
@params(allowed=bool)
def combines_with_seven_pairs(c: Candidate, allowed: bool) -> bool:
    """Not seven pairs, or seven pairs where the option lets a tile fan combine with it (全大, 绿一色 …)."""
    return allowed or c.reading.form != "seven_pairs"


@mcr
@needs(FORM_FACTS["seven_pairs"])
def seven_shifted_pairs(c: Candidate) -> bool:
    """Seven pairs of seven consecutive numbers of one suit (连七对)."""
    if c.reading.form != "seven_pairs":
        return False
    kinds = sorted({g[1][0] for g in c.reading.groups})
    return (len(kinds) == 7 and kinds[-1] < T.HONOR_START and _suit(kinds[0]) == _suit(kinds[-1])
            and kinds[-1] - kinds[0] == 6)


@mcr
@needs(REGULAR | CHI.need(4))
@params(suits=int)
def terminal_chows(c: Candidate, suits: int) -> bool:
    """双龙会: chows 123 and 789 twice and a pair of 5 — all of one suit (``suits`` 1: 一色双龙会), or the chows
    in two suits and the pair of 5 in the third (``suits`` 3: 三色双龙会)."""
    starts = c.chi_starts
    pair = c.pair
    if len(starts) != 4 or pair is None or c.reading.form != "regular":
        return False
    five = pair.tiles[0]
    if five >= T.HONOR_START or _rank(five) != 4:
        return False
    if suits == 1:
        s = _suit(five) * 9
        return starts == [s, s, s + 6, s + 6]
    chow_suits = sorted({_suit(t) for t in starts})
    if len(chow_suits) != 2 or _suit(five) in chow_suits:
        return False
    a, b = chow_suits[0] * 9, chow_suits[1] * 9
    return sorted(starts) == sorted([a, a + 6, b, b + 6])


EVEN: Final = T.mask(t for t in range(T.HONOR_START) if _rank(t) % 2 == 1)  # 2 4 6 8 of each suit


@mcr
@needs(REGULAR, forbid=CHI.need(1))
def all_even_pungs(c: Candidate) -> bool:
    """Every set a triplet or kong of 2, 4, 6 or 8, and the pair too (全双刻)."""
    return c.reading.form == "regular" and not c.chi_starts and not c.kinds & ~EVEN


def _outside(low: int, high: int) -> int:
    """The kinds that are not suited tiles numbered ``low`` to ``high``."""
    return KIND_BITS & ~T.mask(t for t in range(T.HONOR_START) if low <= _rank(t) + 1 <= high)


@mcr
@needs(lambda low, high: Gate(0, _outside(low, high)), exact=True)
@params(low=int, high=int)
def tiles_within(c: Candidate, low: int, high: int) -> bool:
    """Every tile a suited tile numbered ``low`` to ``high`` (全大 7-9, 全中 4-6, 全小 1-3, 大于五, 小于五)."""
    kinds = c.kinds
    if kinds & ~((1 << T.HONOR_START) - 1):
        return False
    for t in range(T.HONOR_START):
        if kinds >> t & 1 and not low <= _rank(t) + 1 <= high:
            return False
    return True


@mcr
@needs(REGULAR)
def all_five(c: Candidate) -> bool:
    """Every set and the pair hold a 5 (全带五)."""
    if c.reading.form != "regular":
        return False
    for g in c.reading.groups:
        five = False
        for t in g[1]:  # loops rather than any() / sum() of generators, which cost a compiled module more
            if t < T.HONOR_START and t % 9 == 4:
                five = True
                break
        if not five:
            return False
    return True


@mcr
@needs(REGULAR)
def outside_hand(c: Candidate) -> bool:
    """Every set and the pair hold a 1, a 9 or an honor (全带幺)."""
    if c.reading.form != "regular":
        return False
    for g in c.reading.groups:
        tiles = g[1]
        if not (_OUTSIDE[tiles[0]] or _OUTSIDE[tiles[-1]]):
            return False
    return True


_OUTSIDE: Final = tuple(T.is_terminal(t) or T.is_honor(t) for t in range(T.NUM_KINDS))
REVERSIBLE: Final = T.mask([T.parse_tile(t) for t in ("1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s",
                                                      "6s", "8s", "9s", "5z")])


@mcr
@needs(forbid=KIND_BITS & ~REVERSIBLE, exact=True)
def reversible_tiles(c: Candidate) -> bool:
    """Every tile looks the same upside down: 1234589 of dots, 245689 of bamboo, 白 (推不倒)."""
    return not c.kinds & ~REVERSIBLE


@mcr
@needs(THREE_SUITS | WIND | DRAGON_FACT, exact=True)
def all_types(c: Candidate) -> bool:
    """Tiles of all three suits, a wind and a dragon (五门齐)."""
    return len(c.suits) == 3 and bool(c.kinds & _WIND_MASK) and bool(c.kinds & _DRAGON_MASK)


_WIND_MASK: Final = T.mask(T.WINDS)
_DRAGON_MASK: Final = T.mask(T.DRAGONS)
_HONOR_MASK: Final = _WIND_MASK | _DRAGON_MASK


@mcr
@needs(forbid=THREE_SUITS | ONE_SUIT)
def one_voided_suit(c: Candidate) -> bool:
    """Tiles of exactly two of the three suits (缺一门)."""
    return len(c.suits) == 2


@mcr
@needs(forbid=HONOR, exact=True)
def no_honors(c: Candidate) -> bool:
    """No wind or dragon anywhere (无字)."""
    return not c.kinds & _HONOR_MASK


@mcr
@needs(CHI.need(1), forbid=HONOR | PUNG.need(1))
def all_chows(c: Candidate) -> bool:
    """Four chows (a knitted straight counts as three) and a pair of a suit: no triplet, no honor (平和)."""
    form = c.reading.form
    if form != "regular" and form != "knitted_straight":
        return False
    if c.pung_kinds or c.kinds & _HONOR_MASK:
        return False
    for g in c.reading.groups:  # noqa: SIM110
        if g[0] == "special":
            return False
    return True


@mcr
@needs(forbid=FORM_FACTS["regular"] | FORM_FACTS["seven_pairs"] | FORM_FACTS["thirteen_orphans"])
def knitted(c: Candidate) -> bool:
    """The hand holds a knitted straight: 147, 258 and 369, one suit each (组合龙); only the knitted forms
    (组合龙 in a regular hand, 全不靠) read one."""
    for g in c.reading.groups:  # noqa: SIM110
        if g[0] == "knitted":
            return True
    return False


@mcr
@needs(FORM_FACTS["honors_and_knitted"])
@params(all_honors=bool)
def honors_and_knitted(c: Candidate, all_honors: bool) -> bool:
    """Fourteen different honors and knitted tiles (全不靠); with ``all_honors``, all seven honors among them
    (七星不靠)."""
    if c.reading.form != "honors_and_knitted":
        return False
    return (bin(c.kinds & _HONOR_MASK).count("1") == 7) == all_honors


@mcr
@needs(MELDED, forbid=CLOSED | ZIMO)
@explained_by("closed", "draw")
def melded_hand(c: Candidate) -> bool:
    """Every set declared as a chi, pon or exposed kong, and the pair completed by a discard (全求人)."""
    if c.ctx.zimo:
        return False
    melds = c.hand.melds
    if len(melds) != c.hand.sets:
        return False
    for m in melds:  # noqa: SIM110
        if not m.exposed:
            return False
    return True


@mcr
@needs(PUNG.need(1))
def pung_of_terminals_or_honors(c: Candidate) -> int:
    """Triplets and kongs of 1s, 9s and winds, each once; one that earns 圈风刻 or 门风刻 is not counted again,
    nor three or four winds that earn 三风刻 (小四喜, 大四喜); dragons earn 箭刻."""
    found = 0
    seat, prevalent = _WIND_OF[c.ctx.seat], _WIND_OF[c.ctx.round]
    kinds = c.pung_kinds
    winds = 0
    for k in kinds:
        if _WIND_LOW <= k <= _WIND_HIGH:
            winds += 1
    winds_apart = winds >= 3  # 三风刻 / 小四喜 / 大四喜 take their winds
    for k in kinds:  # by ranges of kinds, not ``in`` another module's tuples (each a Python-level look-up)
        if k >= _DRAGON_LOW or k == seat or k == prevalent:
            continue
        if k >= _WIND_LOW:
            if not winds_apart:
                found += 1
        elif k % 9 == 0 or k % 9 == 8:
            found += 1
    return found


_WIND_OF: Final = {seat: T.seat_wind_tile(seat) for seat in T.SEATS}
_WIND_LOW: Final = T.WINDS[0]
_WIND_HIGH: Final = T.WINDS[-1]
_DRAGON_LOW: Final = T.DRAGONS[0]


@mcr
@needs(DRAGON_PUNG.need(1))
def dragon_pungs(c: Candidate) -> int:
    """How many triplets or kongs of dragons (箭刻, each)."""
    found = 0
    for k in c.pung_kinds:
        if k >= _DRAGON_LOW:
            found += 1
    return found


@mcr
@needs(WIND_PUNG.need(3))
def big_three_winds(c: Candidate) -> bool:
    """Three triplets or kongs of winds (三风刻)."""
    found = 0
    for k in c.pung_kinds:
        if _WIND_LOW <= k <= _WIND_HIGH:
            found += 1
    return found == 3


@mcr
def tile_hog(c: Candidate) -> int:
    """How many kinds the hand holds all four of without a kong of them (四归一)."""
    hand = c.hand
    if not c.has_wildcard_kong:
        if not hand.melds:
            # The concealed tiles are sorted: four of a kind side by side.
            tiles = hand.concealed
            found = 0
            for i in range(len(tiles) - 3):
                if tiles[i] == tiles[i + 3]:
                    found += 1
            return found
        # The kinds four times among the tiles but the kongs' (a kong holds every copy of its kind, so such a kind
        # is never a kong's). The melds' tiles are read from the reading's groups of them (a reading from
        # ``readings`` ends with a group of each meld): a tuple each, where a Meld costs two attribute reads.
        held = list(hand.concealed)
        declared = 0
        for g in c.reading.groups:
            if g[3]:
                declared += 1
                kind = g[0]
                if kind != "kong" and kind != "special":
                    held.extend(g[1])
        if declared != len(hand.melds):  # a reading without its melds' groups: from the melds themselves
            held = list(hand.concealed)
            for m in hand.melds:
                if m.kind not in KONG_KINDS:  # as ``Meld.is_kong``, without the property's call
                    held.extend(m.tiles)
        return _fours(held)
    counts = c.counts
    four = False
    for n in counts:  # a typed loop: ``4 in counts`` compares as Python objects
        if n == 4:
            four = True
            break
    if not four:
        return 0
    kongs = {m.tiles[0] for m in hand.melds if m.is_kong}
    return sum(1 for t, n in enumerate(counts) if n == 4 and t not in kongs)


def _fours(tiles: list[int]) -> int:
    """How many kinds these tiles hold four of (``T.copy_masks``)."""
    four = T.copy_masks(tiles)[0]
    found = 0
    while four:
        four &= four - 1
        found += 1
    return found


# --- kongs ---------------------------------------------------------------------------------------------


def _kong_fans(melded: int, concealed: int, mingangang: bool) -> tuple[str, ...]:
    total = melded + concealed
    if total == 4:
        return ("four_kongs",)
    if total == 3:
        return ("three_kongs",)
    if total == 2:
        if concealed == 2:
            return ("two_concealed_kongs",)
        if melded == 2:
            return ("two_melded_kongs",)
        return ("concealed_kong_and_melded_kong",) if mingangang else ("melded_kong", "concealed_kong")
    if total == 1:
        return ("concealed_kong",) if concealed else ("melded_kong",)
    return ()


@mcr
@needs(KONG.need(1))
@params(name=str, mingangang=bool)
def kong_fan(c: Candidate, name: str, mingangang: bool) -> bool:
    """The kongs declared make the fan ``name``: 明杠 / 暗杠 for one, 双明杠 / 双暗杠 / 明暗杠 for two (with the
    option ``mingangang`` off, one of each is 明杠 + 暗杠), 三杠, 四杠."""
    hand = c.hand
    if hand is not _KONGS_OF[0]:  # counted once for the hand's seven kong items
        _KONGS_OF[0] = hand
        melded = concealed = 0
        for m in hand.melds:
            kind = m.kind
            if kind == "kong":
                melded += 1
            elif kind == "concealed_kong":
                concealed += 1
        _KONGS[0] = melded
        _KONGS[1] = concealed
    return name in _kong_fans(_KONGS[0], _KONGS[1], mingangang)


# The hand last asked (held, so that no other object can take its identity) and its melded and concealed kongs.
_KONGS_OF: Final[list[Any]] = [None]
_KONGS: Final[list[int]] = [0, 0]


# --- the wait ------------------------------------------------------------------------------------------


@mcr
@params(kind=("edge", "closed", "pair"), mode=("only_wait", "by_reading"))
@explained_by("win", "waits")
def wait_fan(c: Candidate, kind: str, mode: str) -> bool:
    """边张 / 嵌张 / 单钓将 (``kind`` edge, closed, pair). Mode ``only_wait`` (the option wait_fans, the reference):
    only when one tile kind completed the shape of the hand (kinds it holds four of count too), then 边张 when the
    winning tile is an end of a concealed chow of the reading, else 嵌张 when it is the middle of one, else 单钓将
    when it is the pair; none when it is only a tile of a knitted straight. Mode ``by_reading``: where this reading
    places the winning tile (12→3 or 89→7, 13→2, the pair)."""
    if mode != "only_wait":
        return c.reading.wait == kind
    if c is not _WAIT_OF[0]:  # worked out once for the reading's three wait items
        _WAIT_OF[0] = c
        _UNIQUE_WAIT[0] = _unique_wait(c)
    return _UNIQUE_WAIT[0] == kind and len(c.completions) == 1


# The candidate last asked (held, so that no other object can take its identity) and its _unique_wait.
_WAIT_OF: Final[list[Candidate | None]] = [None]
_UNIQUE_WAIT: Final[list[str | None]] = [None]


def _unique_wait(c: Candidate) -> str | None:
    """The wait fan the winning tile's place in this reading could make, if the wait is the hand's only one. None
    at once for a two-sided chow (23 won on 4): the tile at its other end completes the same sets, so the hand
    had two waits whatever else it holds, and the hand's waits need not be worked out."""
    win = c.hand.win_tile
    if win is None:  # a waiting hand: no group holds the winning tile
        return None
    end = middle = pair = False
    for g in c.reading.groups:
        if g[3]:  # a declared meld
            continue
        kind, tiles = g[0], g[1]
        held = False
        for t in tiles:  # a loop: ``in`` a tuple goes through the Python protocol in a compiled module
            if t == win:
                held = True
                break
        if not held:
            continue
        if kind == "chi":
            first = tiles[0]
            if win == tiles[1]:
                middle = True
            elif (win == first and _rank(first) != 6) or (win != first and _rank(first) != 0):
                return None
            else:
                end = True
        elif kind == "pair":
            pair = True
    return "edge" if end else "closed" if middle else "pair" if pair else None


# --- nine gates ----------------------------------------------------------------------------------------


@mcr
@needs(ONE_SUIT | TERMINAL, forbid=MELDED | HONOR_KINDS)
@params(shape=("waiting_on_nine", "holds_the_shape"))
def nine_gates(c: Candidate, shape: str) -> bool:
    """九莲宝灯: a closed hand without melds, 1112345678999 of one suit plus one tile of it. ``shape`` (the option
    nine_gates): waiting_on_nine, the hand before the win was exactly 1112345678999 (the winning tile the extra
    one); holds_the_shape, any such fourteen tiles."""
    hand = c.hand
    if hand.melds or len(c.suits) != 1 or c.kinds & _HONOR_MASK:
        return False
    suit = next(iter(c.suits)) * 9
    counts = c.counts
    if counts[suit] < 3 or counts[suit + 8] < 3 or 0 in counts[suit + 1:suit + 8]:
        return False
    if shape != "waiting_on_nine":
        return True
    win = hand.win_tile
    return win is not None and counts[win] == (4 if win in (suit, suit + 8) else 2)


# --- the last tile ------------------------------------------------------------------------------------


@mcr
@explained_by("win")
def last_tile(c: Candidate) -> bool:
    """和绝张: +fourth (the other three copies were in sight), or the winner's own chi / pon melds show the other
    three copies of the winning tile."""
    if c.ctx.flag("fourth"):
        return True
    hand = c.hand
    win = hand.win_tile
    if win is None or hand.closed:  # no chi or pon to show a copy
        return False
    held = 0  # the other three shown: the winning tile the only one of its kind among the concealed (a cheap test)
    for t in hand.concealed:
        if t == win:
            held += 1
    if held > 1:
        return False
    shown = 0
    for m in hand.melds:
        if m.kind in EXPOSED_KINDS:  # Meld.exposed, without the property's call
            for t in m.tiles:  # a loop: tuple.count is a Python-level method call in a compiled module
                if t == win:
                    shown += 1
    return shown == 3
