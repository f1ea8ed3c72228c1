"""Scoring one reading under a ruleset's options: its items bound once per options (values, gates, exclusions
as bit masks, tiers), the win conditions asked, the items that fire, exclusions and tiers applied, and what
counts toward a minimum (``BoundRuleset``: all of it for one set of option values)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ..registry import DECIDED
from ..support.frozen import replace
from ..support.memo import remember
from ..support.tuples import new_tuple
from .candidate import Candidate
from .context import context_facts
from .facts import ALL as ALL_FACTS
from .facts import KIND_BITS, WIDTH, Gate, unmet
from .hand import SpecialKongDef
from .model import Condition, ItemDef, Ruleset
from .readings.forms import FormSpec
from .settlement.payments import Award, Settlement, settler



class Tallied:
    """A predicate that one tally counts, bound to the value of its one parameter (``tallied``): called, it looks
    that value up in what the tally counted for the candidate. The engine does not call it: it asks the tally once
    a reading for all the items it counts (``BoundItem.tally``), instead of a call per item."""

    def __init__(self, tally: Callable[[Candidate], dict[Any, int]], key: Any) -> None:
        self.tally = tally
        self.key = key

    def __call__(self, c: Candidate) -> int:
        return self.tally(c).get(self.key, 0)


# The engine's bound structures are made once per ruleset and options and read for every reading: slotted
# classes, whose fields Python reads fastest (a named tuple's fields and properties take a slower path).
class BoundRuleset:
    """What scores a reading under one ruleset's options, bound once per options: a batch repeats them."""

    __slots__ = ("rules", "items", "checks", "minimums", "settle", "tie", "forms", "by_class", "specials",
                 "minimum_values")

    def __init__(self, rules: Ruleset, items: BoundItems, checks: Checks, minimums: tuple[Condition, ...],
                 settle: Callable[[Candidate, list[Award]], Settlement],
                 tie: Callable[[Candidate, list[Award]], tuple[int, ...]], forms: tuple[FormSpec, ...],
                 by_class: bool, specials: tuple[SpecialKongDef, ...], minimum_values: tuple[int, ...]) -> None:
        self.rules: Final = rules
        self.items: Final = items
        self.checks: Final = checks  # enabled conditions with a `when`
        self.minimums: Final = minimums  # enabled conditions with a `minimum`
        self.settle: Final = settle
        self.tie: Final = tie  # orders readings that pay the same (``ties``)
        # What best_reading reads of the ruleset on every line, read here once: the Ruleset is a Python object, and
        # each of its attributes costs a compiled module a Python-level look-up.
        self.forms: Final = forms
        self.by_class: Final = by_class  # joker_sets: by_class
        self.specials: Final = specials  # the tile rules' special kongs
        self.minimum_values: Final = minimum_values  # each of ``minimums``' minimum, in order


_BOUND_RULESETS: Final[dict[tuple[int, tuple[tuple[str, Any], ...]], BoundRuleset]] = {}


# Items and conditions bound by the values of the options that decide them (Ruleset.binding_options) alone:
# option sets that differ only in, say, the formula's options share one binding, the costly part of a BoundRuleset.
_BINDINGS: dict[tuple[int, tuple[Any, ...]], tuple[Ruleset, BoundItems, Checks, tuple[Condition, ...]]] = {}


# The BoundRuleset of each options mapping itself (option_values gives the same one for the same overrides), kept with
# it so that its id stays its own: most lines find theirs here without building a key of the option values.
_BOUND_FOR_OPTIONS: Final[dict[int, tuple[Mapping[str, Any], BoundRuleset]]] = {}


def bound_ruleset(rules: Ruleset, options: Mapping[str, Any]) -> BoundRuleset:
    mine = _BOUND_FOR_OPTIONS.get(id(options))
    if mine is not None and mine[0] is options and mine[1].rules is rules:
        return mine[1]
    key = (id(rules), tuple(options.items()))  # option_values builds them in the ruleset's order
    found = _BOUND_RULESETS.get(key)
    if found is None or found.rules is not rules:
        bound_key = (id(rules), tuple(options.get(name) for name in rules.binding_options))
        bound = _BINDINGS.get(bound_key)
        if bound is None or bound[0] is not rules:
            conditions = tuple(c for c in rules.conditions if c.is_enabled(options))
            checks = _checks(conditions)
            minimums = tuple(replace(c, minimum=int(options[c.minimum_option])) if c.minimum_option else c
                             for c in conditions if c.minimum is not None)
            bound = remember(_BINDINGS, bound_key, (rules, bound_items(rules, options), checks, minimums), 1024)
        minimums = bound[3]
        found = remember(_BOUND_RULESETS, key,
                         BoundRuleset(rules, *bound[1:], settler(rules, options), tie_key(rules), rules.forms,
                                      rules.joker_sets == "by_class", rules.tile_rules.special_kongs,
                                      tuple(int(cond.minimum) for cond in minimums)), 1024)  # type: ignore[arg-type]
    remember(_BOUND_FOR_OPTIONS, id(options), (options, found), 1024)
    return found


def _fewer_items(c: Candidate, awards: list[Award]) -> tuple[int, ...]:
    return (-len(awards),)


def tie_key(rules: Ruleset) -> Callable[[Candidate, list[Award]], tuple[int, ...]]:
    """How readings that pay the same are ordered, higher first (``ties:``); a reading that ties on every key
    keeps its place, so the first found wins."""
    ties = rules.ties
    if ties == (("fewer_items", ()),):
        return _fewer_items

    def key(c: Candidate, awards: list[Award]) -> tuple[int, ...]:
        out: list[int] = []
        for kind, names in ties:
            if kind == "fewer_items":
                out.append(-len(awards))
            elif kind == "items":
                held = 0
                for a in awards:  # a loop: any() of a generator costs a compiled module more
                    if a.item.id in names:
                        held = 1
                        break
                out.append(held)
            elif kind == "forms":
                out.append(int(c.reading.form in names))
        return tuple(out)
    return key


def bound_items(rules: Ruleset, options: Mapping[str, Any]) -> BoundItems:
    """Items in play under these options with their values resolved, once for closed hands and once for open
    ones (an item whose {closed, open} value is 0 there is left out), by tier (highest first)."""
    sides: tuple[list[tuple[int, BoundItem]], list[tuple[int, BoundItem]]] = ([], [])
    bits, drops = _drop_masks(rules.items)
    for position, item in enumerate(rules.items):
        if not item.is_enabled(options):
            continue
        value = rules.item_value(item, options)
        tier = rules.tiers.index(item.tier)
        for side, v in zip(sides, value if isinstance(value, tuple) else (value, value), strict=True):
            if v or not isinstance(value, tuple):
                side.append((tier, _bound_item(item, position, v, bits[position], drops[position])))
    closed, open_ = (_gated(side) for side in sides)
    return BoundItems(closed, open_, any(item.fallback for item in rules.items if item.is_enabled(options)))


def _gated(bound: list[tuple[int, BoundItem]]) -> tuple[Tier, ...]:
    """Items by tier, highest first, each tier in the ruleset's order."""
    tiers: dict[int, list[BoundItem]] = {}
    for tier, b in bound:
        tiers.setdefault(tier, []).append(b)
    out = []
    for t in sorted(tiers):
        items = tuple(tiers[t])
        reads = 0
        for b in items:
            reads |= (b.item.gate.need | b.item.gate.forbid) & ~KIND_BITS
        # Option sets that differ in the items' values or in items without a gate read alike: one memo serves them.
        gates = (reads, tuple(b.gate for b in items))
        memos = _MET_BY.get(gates)
        if memos is None:
            memos = remember(_MET_BY, gates, ({}, {}, {}, {}), 256)
        flags = context_facts()
        in_context, in_shape = reads & flags, reads & ~flags
        out.append(Tier(items, in_context, in_shape, memos[0], memos[1], memos[2],
                        _grouped([b.gate & _gate_bits_on(in_context) for b in items]),
                        _grouped([b.gate & _gate_bits_on(in_shape) for b in items]), in_context | in_shape, memos[3]))
    return tuple(out)


def _gate_bits_on(facts: int) -> int:
    """The part of a gate's mask (``Gate.mask``) on these facts: their need bits and their forbid bits."""
    return facts | facts << WIDTH


def _drop_masks(items: Sequence[ItemDef]) -> tuple[list[int], list[int]]:
    """Each item's bit (items of one id share the first one's: an exclusion names an id) and what it excludes
    (``excludes``) as a mask of those bits: ``*`` every other item but those it spares."""
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        first.setdefault(item.id, i)
    bits = [1 << first[item.id] for item in items]
    drops = []
    for i, item in enumerate(items):
        mask = 0
        for rid in item.excludes:
            if rid == "*":
                for j, other in enumerate(items):
                    if j != i and other.id not in item.spares:
                        mask |= bits[j]
            else:
                mask |= 1 << first[rid]
        drops.append(mask)
    return bits, drops


def _bound_item(item: ItemDef, position: int, value: int, bit: int, drops: int) -> BoundItem:
    need, forbid = item.gate
    when = item.when
    tally, key = (when.tally, when.key) if isinstance(when, Tallied) else (None, None)
    return BoundItem(Gate(need & ~KIND_BITS, forbid & ~KIND_BITS).mask, need & KIND_BITS, forbid & KIND_BITS,
                     item.exact, when, position, item, value, Award(item, value, 1),
                     bool(item.excludes or item.reduces), counted_toward_minimum([Award(item, value, 1)]), bit & _LOW_WORD, bit >> WORD, drops & _LOW_WORD, drops >> WORD,
                     tally, key)


WORD: Final = 60  # bits in each word of a bound item's bit and drops: a small int (mypyc: tagged, below 2 ** 62)


_LOW_WORD: Final = (1 << WORD) - 1


class BoundItem:
    __slots__ = ("gate", "need_kinds", "forbid_kinds", "exact", "when", "position", "item", "value", "award",
                 "excluding", "toward", "bit_low", "bit_high", "drops_low", "drops_high", "tally", "key",
                 "fallback", "decides_fallback", "reduces")

    def __init__(self, gate: int, need_kinds: int, forbid_kinds: int, exact: bool,
                 when: Callable[[Candidate], bool | int], position: int, item: ItemDef, value: int, award: Award,
                 excluding: bool, toward: int, bit_low: int, bit_high: int, drops_low: int, drops_high: int,
                 tally: Callable[[Candidate], dict[Any, int]] | None, key: Any) -> None:
        # The item's gate (facts.py), which it must meet to be asked: the mask of its named facts, and apart the
        # tile kinds it needs and forbids (bits 0-33, small ints: a reading tests them without a big-int operation).
        self.gate: Final = gate
        self.need_kinds: Final = need_kinds
        self.forbid_kinds: Final = forbid_kinds
        self.exact: Final = exact  # the item holds whenever its gate is met: not asked when the facts are known
        self.when: Final = when
        self.position: Final = position  # in the ruleset's list: awards are listed in that order
        self.item: Final = item
        self.value: Final = value
        self.award: Final = award  # the item counted once
        self.excluding: Final = excluding  # the item excludes or reduces others
        # what the item counted once adds toward a minimum (``counted_toward_minimum``): its value, or 0
        self.toward: Final = toward
        # 1 << position (of the first item of its id), and the items it excludes (``excludes``) by their bits, each
        # cut in two words of WORD bits (low, high): small ints, whatever the number of items below 2 * WORD.
        self.bit_low: Final = bit_low
        self.bit_high: Final = bit_high
        self.drops_low: Final = drops_low
        self.drops_high: Final = drops_high
        # A tallied predicate's item (predicates.binding.tallied): the tally that counts it with others, once a reading,
        # and its key there; None for the others.
        self.tally: Final = tally
        self.key: Final = key
        # ``ItemDef.fallback``, and whether the item, firing, drops a fallback (not one itself, nor a bonus item)
        self.fallback: Final = item.fallback
        self.decides_fallback: Final = not item.fallback and not item.bonus
        self.reduces: Final = item.reduces  # ``ItemDef.reduces``: (id, n) to take off another item's count


# How many fact sets a tier (or a ruleset's checks) keeps the answer for: a batch meets far fewer, and the memo
# must not grow with the file.
MET_LIMIT: Final = 8192


class GateWords:
    """A tier's gate cut in machine words (``_grouped``): its need bits and its forbid bits, each in three words of
    WORD bits, and the items that have it in two. A compiled class: its fields are read unboxed, where a tuple's
    eight ints are each checked and unboxed."""

    __slots__ = ("n0", "n1", "n2", "f0", "f1", "f2", "items_low", "items_high")

    def __init__(self, n0: int, n1: int, n2: int, f0: int, f1: int, f2: int, items_low: int,
                 items_high: int) -> None:
        self.n0: Final = n0
        self.n1: Final = n1
        self.n2: Final = n2
        self.f0: Final = f0
        self.f1: Final = f1
        self.f2: Final = f2
        self.items_low: Final = items_low
        self.items_high: Final = items_high


class Tier:
    """The items of one tier, in the ruleset's order. Whether an item's gate is met by a reading's named facts
    (beside the tiles: the form, the sets, the flags …) depends only on those that some gate of the tier reads,
    and few sets of those come back line after line: the items they let through are looked up by them
    (``met``) instead of a test per item. The facts of the context (the flags, the dealer) and those of the hand
    and its reading vary apart: each part is looked up by itself (the items whose gates that part meets, as bits),
    so that a new combination of known parts costs no test; the items met on both then give their indices. The
    kinds an item needs or forbids are tested item by item (``BoundItem.need_kinds``): with them in the key,
    nearly every hand would be a new one."""

    __slots__ = ("items", "in_context", "in_shape", "met_in_context", "met_in_shape", "met_by", "context_gates",
                 "shape_gates", "reads", "met_by_facts")

    def __init__(self, items: tuple[BoundItem, ...], in_context: int, in_shape: int, met_in_context: dict[int, int],
                 met_in_shape: dict[int, int], met_by: dict[int, tuple[int, ...]],
                 context_gates: tuple[GateWords, ...], shape_gates: tuple[GateWords, ...], reads: int,
                 met_by_facts: dict[int, tuple[int, ...]]) -> None:
        self.items: Final = items
        self.in_context: Final = in_context  # the named facts of the context that some gate of the tier needs or forbids
        self.in_shape: Final = in_shape  # the other named facts some gate reads (the tiles', the melds', the reading's)
        # the context facts read → the items whose gates they meet there (bit i: item i)
        self.met_in_context: Final = met_in_context
        self.met_in_shape: Final = met_in_shape  # as met_in_context, for the other facts read
        self.met_by: Final = met_by  # the items met on both parts (bits) → their indices, in order
        # the items' gates' masks on the context facts, each with the items that have it (``_grouped``)
        self.context_gates: Final = context_gates
        self.shape_gates: Final = shape_gates  # and on the others
        self.reads: Final = reads  # in_context | in_shape
        # The facts read (both parts at once) → the items met: most readings' facts came before (~3 in 4 of fresh
        # riichi hands after a few thousand), one look-up instead of three.
        self.met_by_facts: Final = met_by_facts

    def met(self, facts: int) -> tuple[int, ...]:
        """The items (their indices) whose gates these facts meet on the named facts, in the ruleset's order."""
        read = facts & self.reads
        found = self.met_by_facts.get(read)
        if found is None:
            found = remember(self.met_by_facts, read, self._met(facts), MET_LIMIT)
        return found

    def _met(self, facts: int) -> tuple[int, ...]:
        """``met`` by the two parts of the facts, each looked up by itself."""
        key = facts & self.in_context
        on_context = self.met_in_context.get(key)
        if on_context is None:
            on_context = remember(self.met_in_context, key, _met_bits(self.context_gates, key), MET_LIMIT)
        key = facts & self.in_shape
        on_shape = self.met_in_shape.get(key)
        if on_shape is None:
            on_shape = remember(self.met_in_shape, key, _met_bits(self.shape_gates, key), MET_LIMIT)
        both = on_context & on_shape
        found = self.met_by.get(both)
        if found is None:
            found = remember(self.met_by, both, _indices(both, len(self.items)), MET_LIMIT)
        return found


def _indices(bits: int, n: int) -> tuple[int, ...]:
    """The indices of the bits set among the first ``n``, in order: a word of ``WORD`` bits at a time, so that each
    test is on a small int (a tier of more than 62 items, MCR's, makes ``bits`` a big int)."""
    out: list[int] = []
    start = 0
    while start < n and bits:
        word = bits & _LOW_WORD
        at = start
        while word:  # a byte at a time, not a bit
            for i in _BYTE_BITS[word & 255]:
                out.append(at + i)
            word >>= 8
            at += 8
        bits >>= WORD
        start += WORD
    return tuple(out)


_BYTE_BITS: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(i for i in range(8) if byte >> i & 1)
                                                       for byte in range(256))


def _grouped(gates: list[int]) -> tuple[GateWords, ...]:
    """The different gates (masks) of a tier's items, each with the items that have it (bit i: item i): items share
    gates (MCR: 37 for 82 items, 23 of them open). Each is cut in words (``GateWords``): a gate's mask spans
    2 * WIDTH bits, and each test on it as one int is a big-int operation."""
    items_of: dict[int, int] = {}
    for i, gate in enumerate(gates):
        items_of[gate] = items_of.get(gate, 0) | 1 << i
    out = []
    for gate, items in items_of.items():
        n0, n1, n2 = _words(gate & ALL_FACTS)
        f0, f1, f2 = _words(gate >> WIDTH)
        out.append(GateWords(n0, n1, n2, f0, f1, f2, items & _LOW_WORD, items >> WORD))
    return tuple(out)


def _words(bits: int) -> tuple[int, int, int]:
    """Facts (below 2 ** WIDTH) cut in three words of WORD bits: small ints, tested without a big-int operation."""
    return bits & _LOW_WORD, bits >> WORD & _LOW_WORD, bits >> 2 * WORD


assert WIDTH <= 3 * WORD, "facts.WIDTH outgrew the three words of scoring._words"


def _met_bits(gates: tuple[GateWords, ...], facts: int) -> int:
    """Bit i for each item i whose gate these facts meet (``gates``: each gate with its items, ``_grouped``; the facts
    no gate reads do not matter: leaving them out changes no answer). A gate is met when none of its need bits is
    missing from the facts and none of its forbid bits is in them (facts.unmet), word by word."""
    h0, h1, h2 = _words(facts)
    m0, m1, m2 = ~h0, ~h1, ~h2
    low = high = 0
    for g in gates:
        if not (g.n0 & m0 or g.n1 & m1 or g.n2 & m2 or g.f0 & h0 or g.f1 & h1 or g.f2 & h2):
            low |= g.items_low
            high |= g.items_high
    return low | high << WORD


# Tiers of one ruleset under different options often have the same gates: they share the memos of ``Tier.met``.
_MET_BY: Final[dict[tuple[int, tuple[int, ...]], tuple[dict[int, int], dict[int, int], dict[int, tuple[int, ...]],
                                                        dict[int, tuple[int, ...]]]]] = {}


class Checks:
    """A ruleset's enabled conditions with a ``when``, each with its fail gate (facts.py): a condition whose fail
    gate is not met holds, unasked. As for a Tier, which are asked is looked up by the facts their gates read."""

    __slots__ = ("conditions", "reads", "asked_by", "decided")

    def __init__(self, conditions: tuple[tuple[int, Condition, Callable[[Candidate], bool | int]], ...], reads: int,
                 asked_by: dict[int, tuple[tuple[Condition, Callable[[Candidate], bool | int]], ...]],
                 decided: tuple[Callable[[int], bool] | None, ...]) -> None:
        # The mask of each one's fail gate, the condition and its ``when`` (apart: a compiled module calls a
        # callable it holds directly, and ``cond.when(c)`` as a method of a Python object, looked up first).
        self.conditions: Final = conditions
        self.reads: Final = reads
        self.asked_by: Final = asked_by
        # Of each condition, the answer from the facts when they decide it (registry.DECIDED), else None.
        self.decided: Final = decided

    def asked(self, facts: int | None) -> tuple[tuple[Condition, Callable[[Candidate], bool | int]], ...]:
        """The conditions to ask for a reading of these facts (every one when the facts are unknown), each with
        its ``when``. One that the facts decide is not asked: it holds, or it is asked by a ``when`` that fails."""
        if facts is None:
            return tuple((cond, when) for _, cond, when in self.conditions)
        key = facts & self.reads
        found = self.asked_by.get(key)
        if found is None:
            not_met = unmet(key)
            asked = []
            for (fails, cond, when), decide in zip(self.conditions, self.decided):
                if fails & not_met:
                    continue
                if decide is None:
                    asked.append((cond, when))
                elif not decide(key):
                    asked.append((cond, _fails))
            found = remember(self.asked_by, key, tuple(asked), MET_LIMIT)
        return found


def _fails(c: Candidate) -> bool:
    """The ``when`` of a condition that the facts decided fails."""
    return False


def _checks(conditions: tuple[Condition, ...]) -> Checks:
    pairs = tuple((c.fail_gate.mask, c, c.when) for c in conditions if c.when is not None)
    reads = 0
    decided: list[Callable[[int], bool] | None] = []
    for c in conditions:
        if c.when is not None:
            reads |= c.fail_gate.need | c.fail_gate.forbid
            found = DECIDED.get(c.when)
            decided.append(None if found is None else found[1])
            if found is not None:
                reads |= found[0]
    return Checks(pairs, reads, {}, tuple(decided))


class BoundItems:
    __slots__ = ("closed", "open", "fallback")

    def __init__(self, closed: tuple[Tier, ...], open: tuple[Tier, ...], fallback: bool = False) -> None:
        self.closed: Final = closed  # for a closed hand, highest tier first
        self.open: Final = open  # for an open one
        self.fallback: Final = fallback  # some item counts only when no other does (``ItemDef.fallback``)


def evaluate_items(items: BoundItems, c: Candidate) -> list[Award]:
    """Items that fire on this reading: an item of a higher tier drops the lower tiers (yakuman drop the rest:
    once one fires, lower tiers are not even asked), then those excluded by another that fired go
    (``excludes``; ``*`` = all). An item whose gate the candidate's facts do not meet is not asked
    (``Tier.met``); with the facts unknown (None), every item is."""
    return _evaluate(items, c)[0]


def _evaluate(items: BoundItems, c: Candidate) -> tuple[list[Award], int]:
    """``evaluate_items``, and what its awards count toward a minimum (``counted_toward_minimum``): summed from the
    bound items as they fire, where the awards' items are Python objects, each field a Python-level look-up."""
    facts = c.facts
    kinds = c.kinds  # the kind bits of the facts
    awards: list[Award] = []
    fired: list[BoundItem] = []  # the bound item of each award
    excluding = False
    counted_by: Callable[[Candidate], dict[Any, int]] | None = None  # the last tally asked, and its counts
    counts: dict[Any, int] = _NOTHING_COUNTED
    counted = 0
    for tier in items.closed if c.hand.closed else items.open:
        in_tier = tier.items
        # Counted once (True, or 1), an item's award is the one made when it was bound: an award is a value.
        if facts is None:
            for b in in_tier:
                n = b.when(c)
                if n:
                    awards.append(b.award if n == 1 else new_tuple(Award, (b.item, b.value, int(n))))
                    fired.append(b)
                    excluding = excluding or b.excluding
                    counted += b.toward * int(n)
        else:
            for i in tier.met(facts):
                b = in_tier[i]
                if b.need_kinds & ~kinds or b.forbid_kinds & kinds:
                    continue
                tally = b.tally
                if b.exact:
                    n = True
                elif tally is None:
                    n = b.when(c)
                else:  # the items of one tally from one call of it a reading
                    if tally is not counted_by:
                        counted_by, counts = tally, tally(c)
                    n = counts.get(b.key, 0)
                if n:
                    awards.append(b.award if n == 1 else new_tuple(Award, (b.item, b.value, int(n))))
                    fired.append(b)
                    excluding = excluding or b.excluding
                    counted += b.toward * int(n)
        if awards:
            break  # in the ruleset's order already: so are a tier's items
    if excluding:
        awards, fired = _excluded(awards, fired)
    dropped = False
    if items.fallback and len(awards) > 1:
        before = len(awards)
        awards, fired = _without_fallback(awards, fired)
        dropped = len(awards) < before
    if excluding or dropped:
        counted = 0
        for a, b in zip(awards, fired):
            counted += b.toward * a.count
    return awards, counted


_NOTHING_COUNTED: Final[dict[Any, int]] = {}


def _excluded(awards: list[Award], fired: list[BoundItem]) -> tuple[list[Award], list[BoundItem]]:
    """The awards left once exclusions apply (``excludes``; ``*`` = all; ``fired``: the bound item of each award),
    with their bound items: an item goes when an item that counts excludes it, and an item that does not count
    excludes nothing (MCR: 四暗刻 drops 不求人, which then does not drop 自摸). Worked out from the top down: each
    pass drops what the items still counting exclude, until the passes agree (chains of exclusions are short), on
    masks of the items' positions in two words of ``WORD`` bits (``BoundItem.drops_low``, ``drops_high``): one int
    of more than 62 items (MCR: 82) would make every test a big-int operation. ``{ID: N}`` entries then take N off
    that item's count. Read from the bound items, whose fields are native (an award's item's are Python-level)."""
    dropped_low = dropped_high = 0
    for _ in range(len(fired) + 1):
        now_low = now_high = 0
        for b in fired:
            if not (b.bit_low & dropped_low or b.bit_high & dropped_high):
                now_low |= b.drops_low
                now_high |= b.drops_high
        if now_low == dropped_low and now_high == dropped_high:
            break
        dropped_low, dropped_high = now_low, now_high
    if dropped_low or dropped_high:
        kept = []
        kept_bound = []
        for a, b in zip(awards, fired):
            if not (b.bit_low & dropped_low or b.bit_high & dropped_high):
                kept.append(a)
                kept_bound.append(b)
    else:
        kept, kept_bound = awards, fired
    cut: dict[str, int] | None = None
    for b in kept_bound:
        for rid, n in b.reduces:
            cut = {} if cut is None else cut
            cut[rid] = cut.get(rid, 0) + n
    if cut is None:
        return kept, kept_bound
    out = []
    out_bound = []
    for a, b in zip(kept, kept_bound):
        left = a.count - cut.get(a.item.id, 0)
        if left > 0:
            out.append(a if left == a.count else new_tuple(Award, (a.item, a.value, left)))
            out_bound.append(b)
    return out, out_bound


def _without_fallback(awards: list[Award], fired: list[BoundItem]) -> tuple[list[Award], list[BoundItem]]:
    """A fallback item (MCR 无番和) counts only when no other item does, bonus items (flowers) aside; ``fired``: the
    bound item of each award, kept alongside."""
    for b in fired:  # loops: any() of a generator costs a compiled module more
        if b.decides_fallback:
            kept = []
            kept_bound = []
            for a, c in zip(awards, fired):
                if not c.fallback:
                    kept.append(a)
                    kept_bound.append(c)
            return kept, kept_bound
    return awards, fired


def counted_toward_minimum(awards: list[Award]) -> int:
    """The total of the items that count toward a win condition's ``minimum``: those every payer pays alike (items
    of some payers only, such as a dealer's, depend on who pays, not on the hand), bonus items such as dora apart."""
    counted = 0
    for a in awards:
        if not a.item.bonus and a.item.applies_to == "all":
            counted += a.value * a.count
    return counted


def below_minimum(conditions: tuple[Condition, ...], awards: list[Award]) -> list[Condition]:
    """Conditions with a ``minimum`` that the items (bonus items such as dora left out) do not reach; a message
    with ``{items}``, ``{total}``, ``{lacking}`` or ``{minimum}`` is filled in from this reading's items."""
    counted = counted_toward_minimum(awards)
    failed = [cond for cond in conditions if cond.minimum is not None and counted < cond.minimum]
    return [with_minimum_message(cond, awards, counted) for cond in failed]


def _short_of(conditions: tuple[Condition, ...], minimums: tuple[int, ...], counted: int) -> list[Condition] | None:
    """``below_minimum``'s conditions (each with a minimum, ``minimums``), their messages not filled in yet (None when
    none fails)."""
    failed = None
    for i in range(len(minimums)):
        if counted < minimums[i]:
            failed = [conditions[i]] if failed is None else [*failed, conditions[i]]
    return failed


# The conditions filled in (``with_minimum_message``), by the condition and the items its message lists: hands
# without a yaku come back with the same few items, and filling one in is dear. By
# identity: the entry holds the condition and the items, so that no other object can take their ids while it is kept.
_WITH_MINIMUM_MESSAGE: Final[dict[tuple[int, int, tuple[tuple[int, int, int], ...]],
                                  tuple[Condition, tuple[Award, ...], Condition]]] = {}


def with_minimum_message(cond: Condition, awards: list[Award], counted: int) -> Condition:
    key = (id(cond), counted, tuple([(id(a.item), a.value, a.count) for a in awards]))
    found = _WITH_MINIMUM_MESSAGE.get(key)
    if found is None:
        found = remember(_WITH_MINIMUM_MESSAGE, key, (cond, tuple(awards), _fill(cond, awards, counted)), 1024)
    return found[2]


def _fill(cond: Condition, awards: list[Award], counted: int) -> Condition:
    minimum: int = cond.minimum  # type: ignore[assignment]
    if "{" not in cond.message.get("en", ""):
        return _reached(cond, cond.message, counted)
    message = {}
    for lang, text in cond.message.items():
        listed = [f"{a.item.names.get(lang) or a.item.names['en']} {a.value}" + (f"×{a.count}" if a.count > 1 else "")
                  for a in awards if not a.item.bonus]
        items = ("、" if lang == "zh" else ", ").join(listed) or ("无番" if lang == "zh" else "no fan")
        message[lang] = text.format(items=items, total=counted, lacking=minimum - counted, minimum=minimum)
    return _reached(cond, message, counted)


def _reached(cond: Condition, message: dict[str, str], counted: int) -> Condition:
    return replace(cond, message=message, reached=counted)
