"""Tile kinds as small integers, their names, and the seat winds.

One fact, written once: a tile kind is an int 0-33.

    0-8   1m-9m  万 characters
    9-17  1p-9p  筒 dots
    18-26 1s-9s  条 bamboo
    27-33 1z-7z  东 南 西 北 白 发 中  (tenhou order: E S W N, white, green, red)

Ints rather than objects because a batch scores millions of hands and every reading walks 34-slot count
vectors; the names below are the only place that knows the layout.

>>> name(0), name(13), name(33)
('1m', '5p', '7z')
>>> parse_tile('5p') == 13
True
>>> format_tiles([0, 1, 2, 27, 27])
'123m11z'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SUITS: Final = "mpsz"
NUM_KINDS: Final = 34
HONOR_START: Final = 27
WINDS: Final[tuple[int, ...]] = (27, 28, 29, 30)
DRAGONS: Final[tuple[int, ...]] = (31, 32, 33)  # white, green, red
SEATS: Final = ("E", "S", "W", "N")  # turn order; East is the dealer
HONOR_LETTERS: Final = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
HONOR_CHARS: Final = {"东": 27, "南": 28, "西": 29, "北": 30, "白": 31, "发": 32, "中": 33, "發": 32, "東": 27}


def suit_of(t: int) -> int:
    """0 m, 1 p, 2 s, 3 honors."""
    return t // 9


def rank_of(t: int) -> int:
    """1-9 for suited tiles, 1-7 for honors."""
    return t % 9 + 1 if t < HONOR_START else t - HONOR_START + 1


def is_honor(t: int) -> bool:
    return t >= HONOR_START


def is_terminal(t: int) -> bool:
    """A 1 or 9 of a suit (honors are not terminals)."""
    return t < HONOR_START and t % 9 in (0, 8)


def is_dragon(t: int) -> bool:
    return t in DRAGONS


def is_wind(t: int) -> bool:
    return t in WINDS


def name(t: int) -> str:
    """A kind in mpsz form (``5m``), looked up: every line's JSON names its waits and tiles."""
    return _NAMES[t] if 0 <= t < NUM_KINDS else f"{rank_of(t)}{SUITS[suit_of(t)]}"


def parse_tile(text: str) -> int:
    """One tile in mpsz form, a letter (E S W N P F C) or a Chinese character."""
    if text in HONOR_LETTERS:
        return HONOR_LETTERS[text]
    if text in HONOR_CHARS:
        return HONOR_CHARS[text]
    if len(text) == 2 and text[0].isdigit() and text[1] in SUITS:
        rank, suit = int(text[0]), SUITS.index(text[1])
        if rank == 0 and suit < 3:
            rank = 5
        if 1 <= rank <= (7 if suit == 3 else 9):
            return suit * 9 + rank - 1
    raise ValueError(f"not a tile: {text!r} (write it as 1m-9m, 1p-9p, 1s-9s, 1z-7z, or E S W N P F C)")


def wind_index(seat: str) -> int:
    return SEATS.index(seat)


def seat_wind_tile(seat: str) -> int:
    return WINDS[wind_index(seat)]


def next_seat(seat: str, steps: int = 1) -> str:
    return SEATS[(wind_index(seat) + steps) % 4]


def next_kind(t: int) -> int:
    """The kind after t, as a wildcard indicator counts: 9 → 1 in a suit, 东→南→西→北→东, 中→发→白→中.

    >>> name(next_kind(8)), name(next_kind(30)), name(next_kind(33)), name(next_kind(31))
    ('1m', '1z', '6z', '7z')
    """
    if t < HONOR_START:
        return t - 8 if t % 9 == 8 else t + 1
    if t in WINDS:
        return WINDS[(WINDS.index(t) + 1) % 4]
    dragon_cycle = (33, 32, 31)  # 中 发 白, the order the Meihe rules flip in
    return dragon_cycle[(dragon_cycle.index(t) + 1) % 3]


def previous_kind(t: int) -> int:
    for k in range(NUM_KINDS):
        if next_kind(k) == t:
            return k
    raise AssertionError(t)  # every kind has a predecessor


_DIGIT: Final = tuple(str(rank_of(t)) for t in range(NUM_KINDS))  # of each kind in mpsz form, looked up
_SUIT: Final = tuple(suit_of(t) for t in range(NUM_KINDS))
_LETTER: Final = tuple(SUITS)  # each suit's letter, and with the space after it that Hand.text writes
_SPACED: Final = tuple(letter + " " for letter in SUITS)
_NAMES: Final = tuple(f"{rank_of(t)}{SUITS[suit_of(t)]}" for t in range(NUM_KINDS))


def format_tiles(tiles: Iterable[int], *, sort: bool = True, red: Iterable[int] = (), between: str = "") -> str:
    """Write tiles in compact mpsz form, one suit letter per run: ``123m11z``; one five of each kind in ``red``
    is written as a red five (``0p``); ``between`` after each run but the last.

    >>> format_tiles([12, 13, 14], red=[13])
    '406p'
    >>> format_tiles([0, 1, 12, 27], between=" ")
    '12m 4p 1z'
    """
    # A list, walked as native integers when compiled: a batch writes every hand's tiles (Hand.text), and a loop
    # over any iterable costs more. The suit compared as an int and its letter (with
    # ``between``) appended once a run, not letters compared and joined to ``between`` tile by tile.
    kinds: list[int] = sorted(tiles) if sort else tiles if isinstance(tiles, list) else list(tiles)
    reds = set(red) if red else None
    out: list[str] = []
    suit = -1  # the suit of the run being written: its letter goes out when the next run starts, or at the end
    for t in kinds:
        s = _SUIT[t]
        if s != suit:
            if suit >= 0:
                out.append(_SPACED[suit] if between == " " else _LETTER[suit] + between)
            suit = s
        if reds is not None and t in reds:
            reds.discard(t)
            out.append("0")
        else:
            out.append(_DIGIT[t])
    if suit >= 0:
        out.append(_LETTER[suit])
    return "".join(out)


def counts_of(tiles: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t] += 1
    return counts


def copy_masks(kinds: list[int]) -> tuple[int, int]:
    """The kinds (a mask, bit t for kind t) these tiles hold four of, and those they hold more of, in any order
    and with no counts made: each tile moves its kind's bit a mask up (seen once, twice, three times, four).

    >>> copy_masks([3, 0, 3, 3, 3])
    (8, 0)
    >>> copy_masks([5] * 5)
    (32, 32)
    """
    once = twice = thrice = four = more = 0
    for t in kinds:
        bit = 1 << t
        if four & bit:
            more |= bit
        elif thrice & bit:
            four |= bit
        elif twice & bit:
            thrice |= bit
        elif once & bit:
            twice |= bit
        else:
            once |= bit
    return four, more


BITS: Final = tuple(1 << t for t in range(NUM_KINDS))  # the bit of each kind in a mask


def mask(kinds: Iterable[int]) -> int:
    """A set of kinds as a bit mask (bit t for kind t): ``Hand.kinds & mask(...)`` tests a whole hand at once.

    >>> bin(mask([0, 2]))
    '0b101'
    """
    out = 0
    for t in kinds:
        out |= 1 << t
    return out


_SUIT_SETS: Final = tuple(frozenset(s for s in range(3) if present >> s & 1) for present in range(8))


def suits_of(kinds: int) -> frozenset[int]:
    """The suits (0 m, 1 p, 2 s) present in a mask of kinds.

    >>> sorted(suits_of(mask([0, 30]))), sorted(suits_of(mask([9, 26])))
    ([0], [1, 2])
    """
    return _SUIT_SETS[(kinds & 0x1FF != 0) | (kinds & 0x3FE00 != 0) << 1 | (kinds & 0x7FC0000 != 0) << 2]
