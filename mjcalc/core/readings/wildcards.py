"""Wildcards (jokers): which tiles of a hand are wild (``Wildcards``), every way they can stand for real tiles
(``joker_fills``, ``substituted_hands``), a reading as a class-blind ruleset sees it, and the hand read with its
winning tile completing a special set in hand (叫胡, ``set_call_hands``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from functools import cache, lru_cache
from itertools import product
from typing import Any, Final

from ...registry import WILDCARD_PROVIDERS
from .. import tiles as T
from ..context import Context
from ..hand import Hand, Meld, SpecialKongDef
from ..tiles import counts_of, name  # noqa: F401  (counts_of: doctests)
from .decompose import (
    Reading,
    tiles_of,  # noqa: F401  (doctests)
)
from .forms import SPECIAL_FORMS, FormSpec, Group


def joker_fills(counts: tuple[int, ...], jokers: int, free_sets: int, forms: tuple[FormSpec, ...],
                held: tuple[int, ...] | None = None, by_class: bool = False) -> list[tuple[int, ...]]:
    """Every multiset of kinds the jokers can stand for so that the hand is complete.

    ``counts`` are the real tiles (jokers removed); ``held`` counts every real tile of the hand, melds
    included, so that a joker never stands for a fifth copy. With ``by_class``, jokers that make a whole set
    or the pair by themselves are tried once per class of set a class-blind ruleset can see (``_set_class``).

    >>> [tuple(name(k) for k in f) for f in joker_fills(tuple(counts_of(tiles_of("123m456p789s111z2z"))), 1, 4,
    ...                                                   (FormSpec("regular"),))]
    [('2z',)]
    >>> four = tuple(counts_of(tiles_of("123m456p789s2z")))
    >>> regular = (FormSpec("regular"),)
    >>> len(joker_fills(four, 4, 4, regular)), len(joker_fills(four, 4, 4, regular, by_class=True))
    (98, 55)
    """
    limit = held if held is not None else counts
    found: set[tuple[int, ...]] = set()
    candidates: set[tuple[int, ...]] = set()
    for spec in forms:
        if spec.name == "regular":
            if sum(counts) + jokers == 3 * free_sets + 2:
                candidates |= _regular_fills(counts, jokers, free_sets, 1)
        else:
            candidates |= _form_fills(counts, jokers, free_sets, spec)
    for combo in candidates:
        found.update(_expand(combo, limit, by_class))
    return sorted(found)


def _within(limit: tuple[int, ...], combo: tuple[int, ...]) -> bool:
    return all(limit[k] + combo.count(k) <= 4 for k in set(combo))


def _expand(combo: tuple[int, ...], limit: tuple[int, ...], by_class: bool) -> list[tuple[int, ...]]:
    """A fill with its joker-only placeholders replaced by real shapes, within the four-copy limit."""
    fixed = tuple(k for k in combo if k < JOKER_PON)
    holders = [k for k in combo if k >= JOKER_PON]
    if not holders:
        return [combo] if _within(limit, combo) else []
    seen: set[tuple[object, ...]] = set()
    out: list[tuple[int, ...]] = []
    for shapes in product(*(_PLACEHOLDER_SHAPES[h] for h in holders)):
        filled = tuple(sorted(fixed + tuple(t for shape in shapes for t in shape)))
        if not _within(limit, filled):
            continue
        key: tuple[object, ...] = tuple(sorted(_set_class(s) for s in shapes)) if by_class else filled
        if key not in seen:
            seen.add(key)
            out.append(filled)
    return out


def reading_class(reading: Reading) -> tuple[object, ...]:
    """A reading as a class-blind ruleset (``joker_sets: by_class``) sees it: the form and the class of every
    group, not its tiles nor where the winning tile sits. Two readings of one class score alike there."""
    return reading.form, tuple(sorted(_group_class(g) for g in reading.groups))


@cache
def _group_class(g: Group) -> tuple[object, ...]:
    return g.kind, g.special or "", g.meld, g.concealed, g.extra, _set_class(g.tiles)


@cache
def _set_class(shape: tuple[int, ...]) -> tuple[int, bool, int, bool]:
    """What a class-blind ruleset sees of a set or pair: its size, chi or not, the suit (winds and dragons
    apart), and whether it holds a 1 or 9."""
    first = shape[0]
    suit = T.suit_of(first) if first < T.HONOR_START else (3 if T.is_wind(first) else 4)
    return len(shape), shape[0] != shape[-1], suit, any(T.is_terminal(t) for t in shape)


def _form_fills(counts: tuple[int, ...], jokers: int, free_sets: int, spec: FormSpec) -> set[tuple[int, ...]]:
    """Special forms are few and small: try every multiset of kinds."""
    out = set()
    for combo in _multisets(list(range(T.NUM_KINDS)), jokers):
        filled = list(counts)
        for k in combo:
            filled[k] += 1
        if SPECIAL_FORMS[spec.name](tuple(filled), free_sets, spec):
            out.add(combo)
    return out


def _groups_holding(i: int, counts: tuple[int, ...], jokers: int, sets: int,
                    pairs: int) -> Iterator[tuple[dict[int, int], tuple[int, ...], int, int]]:
    """Every group that can hold real tile ``i`` (a pon, the pair, a chi), jokers filling the gaps: the real
    tiles it uses, what its jokers stand for, and the sets and pairs left to make."""
    for size, is_set in ((3, True), (2, False)):
        if (sets if is_set else pairs) == 0:
            continue
        for real in range(1, min(counts[i], size) + 1):
            if size - real <= jokers:
                yield {i: real}, (i,) * (size - real), sets - is_set, pairs - (not is_set)
    if sets and i < T.HONOR_START:
        for first in (i - 2, i - 1, i):
            if first < 0 or T.suit_of(first) != T.suit_of(i) or first % 9 > 6:
                continue
            others = [t for t in (first, first + 1, first + 2) if t != i]
            for choice in product((True, False), repeat=2):  # each other tile: real (if held) or a joker
                used = {i: 1}
                fill = tuple(t for t, real in zip(others, choice, strict=True) if not real)
                for t in (t for t, real in zip(others, choice, strict=True) if real):
                    used[t] = used.get(t, 0) + 1
                if all(counts[t] >= n for t, n in used.items()) and len(fill) <= jokers:
                    yield used, fill, sets - 1, pairs


def _minus(counts: tuple[int, ...], used: dict[int, int]) -> tuple[int, ...]:
    c = list(counts)
    for t, n in used.items():
        c[t] -= n
    return tuple(c)


@lru_cache(maxsize=16384)  # bounded, as above
def _regular_fills(counts: tuple[int, ...], jokers: int, sets: int, pairs: int) -> frozenset[tuple[int, ...]]:
    """Joker substitutions completing ``counts`` into ``sets`` sets and ``pairs`` pairs. Each step takes the
    lowest real tile and tries every group that can hold it, jokers filling the gaps."""
    i = next((t for t, n in enumerate(counts) if n), None)
    if i is None:
        return _joker_only_fills(jokers, sets, pairs)
    out: set[tuple[int, ...]] = set()
    for used, fill, sets_left, pairs_left in _groups_holding(i, counts, jokers, sets, pairs):
        for rest in _regular_fills(_minus(counts, used), jokers - len(fill), sets_left, pairs_left):
            out.add(tuple(sorted(fill + rest)))
    return frozenset(out)


# Jokers that make whole sets or the pair by themselves stand for any pon, chi or pair: the fill keeps a
# placeholder for each such group until the rest of the fill is known (``_expand``). Codes sort after tiles.
JOKER_PON, JOKER_CHI, JOKER_PAIR = 100, 101, 102


_PLACEHOLDER_SHAPES: Final = {
    JOKER_PON: tuple((k, k, k) for k in range(T.NUM_KINDS)),
    JOKER_CHI: tuple((k, k + 1, k + 2) for k in range(T.HONOR_START) if k % 9 <= 6),
    JOKER_PAIR: tuple((k, k) for k in range(T.NUM_KINDS)),
}


@cache
def _joker_only_fills(jokers: int, sets: int, pairs: int) -> frozenset[tuple[int, ...]]:
    """Jokers that make whole sets or the pair by themselves: placeholders, one per group."""
    if jokers != 3 * sets + 2 * pairs:
        return frozenset()
    return frozenset((JOKER_PON,) * pons + (JOKER_CHI,) * (sets - pons) + (JOKER_PAIR,) * pairs
                     for pons in range(sets + 1))


def _multisets(pool: list[int], size: int, start: int = 0) -> Iterator[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    for i in range(start, len(pool)):
        for rest in _multisets(pool, size - 1, i):
            yield (pool[i], *rest)


class Wildcards:  # a plain class: a dataclass's methods are Python source compiled at import (every command's start-up)
    """Which tiles of a hand are wildcards: ``count`` copies of ``kind`` in the concealed tiles, one of them
    the winning tile when ``win_is_wild``."""

    __slots__ = ("kind", "count", "win_is_wild", "labels", "note")

    def __init__(self, kind: int | None = None, count: int = 0, win_is_wild: bool = False,
                 labels: tuple[str, ...] = (), note: str | None = None) -> None:
        self.kind: Final = kind
        self.count: Final = count
        self.win_is_wild: Final = win_is_wild
        self.labels: Final = labels
        self.note: Final = note  # something the reader should know about how the wildcards were read


def substituted_hands(hand: Hand, wild: Wildcards, forms: tuple[FormSpec, ...],
                      by_class: bool = False) -> list[tuple[Hand, dict[str, str]]]:
    """The hand once per way its wildcards can stand for real tiles, with what each stood for. A winning
    wildcard is tried as each kind it can stand for, unless ``by_class`` (the rules never see where the
    winning tile sits)."""
    if not wild.count:
        return [(hand, {})]
    real = list(hand.concealed)
    for _ in range(wild.count):
        real.remove(wild.kind)  # type: ignore[arg-type]
    counts = tuple(T.counts_of(real))
    free = hand.sets - len(hand.melds)
    out: list[tuple[Hand, dict[str, str]]] = []
    for fill in joker_fills(counts, wild.count, free, forms, _held(real, hand.melds), by_class):
        wins = sorted(set(fill))[: 1 if by_class else None] if wild.win_is_wild else [hand.win_tile]
        for win in wins:
            order = list(fill)
            if wild.win_is_wild:  # the winning wildcard is listed first
                order.remove(win)  # type: ignore[arg-type]
                order.insert(0, win)  # type: ignore[arg-type]
            new = Hand(tuple(sorted(real + list(fill))), hand.melds, win, hand.flowers, hand.reds, hand.sets)
            subs = {label: name(k) for label, k in zip(wild.labels, order, strict=True)}
            out.append((new, subs))
    return out


def _held(concealed: Iterable[int], melds: Iterable[Meld]) -> tuple[int, ...]:
    """Counts of every real tile of the hand, melds included: what a joker may not make a fifth copy of, and the
    kinds held four times that are no wait. A special kong's wild 1s counts as the 1s it is (spec/rules)."""
    held = T.counts_of(concealed)
    for m in melds:
        for t in m.held:
            held[t] += 1
    return tuple(held)


def set_call_hands(hand: Hand, wild: Wildcards,
                   specials: Iterable[SpecialKongDef]) -> list[tuple[Hand, Wildcards, dict[str, str]]]:
    """The won hand read with its winning tile completing a special kong's core among the concealed tiles
    (Meihe's 中发白 叫胡, kinds with ``last_set``). The core's other kinds must be real tiles held before the
    win, never wildcards, and so is the winning tile (spec/rules/meihe.md: a drawn wildcard is never the winning
    tile of a 中发白 叫胡; it may still complete the hand another way). The set becomes a called meld, so the rest
    reads as one set fewer and the kong scores like a declared one."""
    specials = [sk for sk in specials if sk.last_set] if specials else []  # most rulesets have none
    if hand.win_tile is None or not specials or wild.win_is_wild:
        return []
    before = list(hand.without_win())
    real = list(before)
    for _ in range(wild.count - wild.win_is_wild):
        real.remove(wild.kind)  # type: ignore[arg-type]
    out: list[tuple[Hand, Wildcards, dict[str, str]]] = []
    for sk in specials:
        for kind in sk.core:
            others = [k for k in sk.core if k != kind]
            if kind != hand.win_tile or any(k not in real for k in others):
                continue
            rest = list(before)
            for k in others:
                rest.remove(k)
            meld = Meld("special", tuple(sorted(sk.core)), sk.id, called=True)
            called = Hand(tuple(sorted(rest)), (*hand.melds, meld), kind, hand.flowers, hand.reds, hand.sets)
            out.append((called, wild, {}))
    return out


def wildcards(provider_name: str, hand: Hand, ctx: Context,
              values: Mapping[str, tuple[object, int | None]]) -> Wildcards:
    """Which tiles are wildcards, by the ruleset's provider (its ``wildcard:``), with the context checks it needs.

    A provider is a family's (its hook registers it in mjcalc.registry.WILDCARD_PROVIDERS by name): an object with
    ``wildcards(hand, ctx, column) -> Wildcards`` (``column(flag)``: where a flag was written, for an error's
    caret), ``drawn(reads, ctx) -> (tile, ctx) | None`` (the tile a ready hand draws as the wildcard, self-drawn,
    and the context it wins in: the ``waits`` command; ``reads``: the flags the ruleset reads) and ``drawn_label``
    (how a waits table names that row, a text of the catalog)."""
    if provider_name == "none":
        return NO_WILDCARDS
    provider: Any = WILDCARD_PROVIDERS.get(provider_name)
    if provider is None:
        return NO_WILDCARDS

    def column(flag: str) -> int | None:
        return values.get(flag, (None, None))[1]

    return provider.wildcards(hand, ctx, column)


NO_WILDCARDS: Final = Wildcards()
