"""Predicates: small pure functions of one Candidate, named from ruleset YAML, shared by every ruleset.

A predicate returns a bool (the item counts once) or an int (it counts that many times). Its docstring is
what ``mjcalc rules show`` prints. Parameters come only from YAML (``{pair_is: {kind: dragon}}``), so the
data shows every dependency; predicates never read options. ``@needs`` declares a predicate's gate
(facts.py): whole-hand facts it cannot be true without, so that the engine skips it cheaply.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, Final

from . import tiles as T
from .context import DEALER, FLAG_BY_NAME, FLAG_FACTS, Context
from .facts import (
    CHI,
    CLOSED,
    CONCEALED_PUNG,
    DRAGON,
    DRAGON_KINDS,
    DRAGON_PUNG,
    HONOR,
    HONOR_KINDS,
    KIND_BITS,
    KONG,
    MELDED,
    ONE_SUIT,
    OPEN_GATE,
    PUNG,
    TERMINAL,
    TERMINAL_KINDS,
    THREE_SUITS,
    WIND,
    WIND_KINDS,
    WIND_PUNG,
    WIDTH,
    Gate,
    unmet,
)
from .hand import Hand, Meld
from .memo import remember
from .readings import FORM_FACTS, WAIT_FACTS, Group, Reading


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
# and two look-ups a reading become one look-up (callgrind: ~1,000 instructions a reading less), by an int rather
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


Predicate = Callable[..., "bool | int"]
PREDICATES: Final[dict[str, Predicate]] = {}
# Each predicate's declared gate (``needs``) and whether it is exact, by the function itself: kept here, not as
# attributes of the function, which a compiled function cannot carry.
DECLARED: Final[dict[Predicate, tuple[Gate | Callable[..., Gate], bool]]] = {}
ZIMO, REGULAR = FLAG_FACTS["zimo"], FORM_FACTS["regular"]


class Tallied:
    """A predicate that one tally counts, bound to the value of its one parameter (``tallied``): called, it looks
    that value up in what the tally counted for the candidate. The engine does not call it: it asks the tally once
    a reading for all the items it counts (``BoundItem.tally``), instead of a call per item."""

    def __init__(self, tally: Callable[[Candidate], dict[Any, int]], key: Any) -> None:
        self.tally = tally
        self.key = key

    def __call__(self, c: Candidate) -> int:
        return self.tally(c).get(self.key, 0)


# The tally of each tallied predicate (``tallied``), by the predicate itself.
TALLIES: Final[dict[Predicate, Callable[[Candidate], dict[Any, int]]]] = {}


def tallied(tally: Callable[[Candidate], dict[Any, int]]) -> Callable[[Predicate], Predicate]:
    """Declare a predicate of one parameter whose answers for every value are counted together by ``tally`` (a
    function of the candidate giving, by the parameter's value, how many times the predicate holds, absent for
    none): items that name the predicate with a value of their own are then scored from one call of the tally
    a reading (the tally should keep its answer for the candidate it last counted). The predicate itself must
    give the same answers (it is what other callers use: win conditions, ``any`` / ``all``). Predicates that
    share a tally must give their values different keys."""
    def declare(fn: Predicate) -> Predicate:
        TALLIES[fn] = tally
        return fn

    return declare


def predicate(fn: Predicate) -> Predicate:
    """Register a predicate under its function name (hooks use ``ruleset.name``: ``namespaced``)."""
    PREDICATES[fn.__name__] = fn
    return fn


def needs(need: int | Callable[..., Gate] = 0, forbid: int = 0, *,
          exact: bool = False) -> Callable[[Predicate], Predicate]:
    """Declare a predicate's gate: facts (facts.py) that must all hold and facts none of which may hold for it
    to be true; or a function of the predicate's parameters that returns the Gate. Only a necessary condition:
    the predicate still decides; a wrong gate would silently drop an item, so each stays obviously implied.
    ``exact``: the predicate is true exactly when its gate is met (it reads that one fact), so its negation
    has a gate too (``Gate.inverse``), for a win condition's ``not``."""
    def declare(fn: Predicate) -> Predicate:
        DECLARED[fn] = (need if callable(need) else Gate(need, forbid), exact)
        return fn

    return declare


def gate_of(name: str, params: Mapping[str, object]) -> tuple[Gate, Gate, bool]:
    """The gates of a predicate with its YAML parameters being true and being false (open where it declares
    none, or when a parameter it depends on is an option's value, known only when scoring), and whether it is
    true exactly when its gate is met."""
    declared, exact = DECLARED.get(PREDICATES[name], (OPEN_GATE, False))
    if isinstance(declared, Gate):
        gate = declared
    else:
        if any(isinstance(v, dict) for v in params.values()):
            return OPEN_GATE, OPEN_GATE, False
        gate = declared(**params)
    exact = exact and gate != OPEN_GATE
    return gate, gate.inverse() if exact else OPEN_GATE, exact


def namespaced(namespace: str) -> Callable[[Predicate], Predicate]:
    def register(fn: Predicate) -> Predicate:
        PREDICATES[f"{namespace}.{fn.__name__}"] = fn
        return fn

    return register


# Predicates that only read one attribute, bound as a C-level attrgetter (the same answer, a fraction of the
# cost: they run on every reading). ``flag`` is one too, for flags that are on / off.
ATTRIBUTE_PREDICATES: Final = {"self_drawn": "ctx.zimo", "closed_hand": "hand.closed",
                               "dealer_wins": "ctx.winner_is_dealer"}


_SIGNATURES: Final[dict[Predicate, inspect.Signature]] = {}


def signature_of(fn: Callable[..., Any]) -> inspect.Signature:
    """``inspect.signature(fn)``, made faster for a compiled function: it carries its signature as text, such as
    ``(c, suit, n=1)``, which inspect reads with Python's tokenizer, costing a ruleset's load more than the rest
    of it did. Read here with ``ast`` instead when the text is a plain ``def``'s parameters of literal defaults
    (tests/test_startup.py: the same Signature for every predicate), else by inspect."""
    text = getattr(fn, "__text_signature__", None)
    if not isinstance(text, str) or "$" in text:
        return inspect.signature(fn)
    import ast

    try:
        tree = ast.parse(f"def f{text}: pass")
        node = tree.body[0]
        if not isinstance(node, ast.FunctionDef):
            return inspect.signature(fn)
        args = node.args
        if args.vararg is not None or args.kwarg is not None:
            return inspect.signature(fn)
        empty = inspect.Parameter.empty
        positional = [*args.posonlyargs, *args.args]
        defaults: list[Any] = [empty] * (len(positional) - len(args.defaults)) + \
            [ast.literal_eval(d) for d in args.defaults]
        kinds = [inspect.Parameter.POSITIONAL_ONLY] * len(args.posonlyargs) + \
            [inspect.Parameter.POSITIONAL_OR_KEYWORD] * len(args.args)
        parameters = [inspect.Parameter(a.arg, kind, default=d) for a, kind, d in zip(positional, kinds, defaults)]
        parameters += [inspect.Parameter(a.arg, inspect.Parameter.KEYWORD_ONLY,
                                         default=empty if d is None else ast.literal_eval(d))
                       for a, d in zip(args.kwonlyargs, args.kw_defaults)]
        return inspect.Signature(parameters)
    except (SyntaxError, ValueError, TypeError):
        return inspect.signature(fn)


def _signature(fn: Predicate) -> inspect.Signature:
    """``signature_of(fn)``, read once a process."""
    signature = _SIGNATURES.get(fn)
    if signature is None:
        signature = _SIGNATURES[fn] = signature_of(fn)
    return signature


# A predicate's parameters after the candidate, each (name, default or REQUIRED), when all of them can be given by
# position or by name; None for any other signature (which ``bind`` leaves to inspect). By the function, read once.
REQUIRED: Final = inspect.Parameter.empty
_PARAMETERS: Final[dict[Predicate, tuple[tuple[str, object], ...] | None]] = {}
_LITERALS: Final[dict[str, object]] = {"True": True, "False": False, "None": None}


def parameters_of(fn: Predicate) -> tuple[tuple[str, object], ...] | None:
    """The parameters of ``fn`` after the candidate, with their defaults (``REQUIRED`` for none), as
    ``signature_of(fn)`` has them when all are plain (positional or keyword); else None. A compiled function's
    text signature of names and simple literal defaults, such as ``(c, count, pair=False)``, is read as text:
    signature_of parses it as Python (a compile each, 3.4 M instructions of a riichi batch's start-up)."""
    if fn in _PARAMETERS:
        return _PARAMETERS[fn]
    found = _parameters_from_text(getattr(fn, "__text_signature__", None))
    if found is None:
        found = _parameters_from_signature(_signature(fn))
    _PARAMETERS[fn] = found
    return found


def _parameters_from_text(text: object) -> tuple[tuple[str, object], ...] | None:
    """``parameters_of`` from a text signature of plain names and defaults True, False, None, whole numbers or
    quoted words; None for anything else (positional-only or keyword-only markers, annotations, other values)."""
    if not isinstance(text, str) or not text.startswith("(") or not text.endswith(")"):
        return None
    out: list[tuple[str, object]] = []
    for part in text[1:-1].split(","):
        name, equals, default = part.strip().partition("=")
        if not name.isidentifier():
            return None
        if not equals:
            if out and out[-1][1] is not REQUIRED:
                return None  # not Python
            out.append((name, REQUIRED))
        elif not out:
            return None  # the candidate has no default
        elif default in _LITERALS:
            out.append((name, _LITERALS[default]))
        elif default.isdigit() or (default[:1] == "-" and default[1:].isdigit()):
            out.append((name, int(default)))
        elif len(default) >= 2 and default[0] in "'\"" and default[-1] == default[0] and default[1:-1].isalnum():
            out.append((name, default[1:-1]))
        else:
            return None
    return tuple(out[1:])


def _parameters_from_signature(signature: inspect.Signature) -> tuple[tuple[str, object], ...] | None:
    parameters = list(signature.parameters.values())
    if not parameters or any(p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters):
        return None
    return tuple((p.name, p.default) for p in parameters[1:])


def _arguments(fn: Predicate, params: Mapping[str, object]) -> tuple[object, ...]:
    """The values of ``fn``'s parameters after the candidate, in order, its defaults filled in: what inspect's
    ``Signature.bind(None, **params)`` and ``apply_defaults`` give, read from ``parameters_of``. Parameters that
    do not fit go through inspect, for the very TypeError it raises."""
    table = parameters_of(fn)
    if table is not None:
        args: list[object] = []
        given = 0
        for name, default in table:
            if name in params:
                args.append(params[name])
                given += 1
            elif default is not REQUIRED:
                args.append(default)
            else:
                break
        else:
            if given == len(params):
                return tuple(args)
    bound = _signature(fn).bind(None, **params)
    bound.apply_defaults()
    return tuple(bound.arguments.values())[1:]


def bind(name: str, params: dict[str, object]) -> Callable[[Candidate], bool | int]:
    """The predicate with its YAML parameters bound; unknown or missing parameters raise TypeError. An exact one is
    recorded as decided by the facts (``DECIDED``)."""
    return bind_gated(name, params)[0]


def bind_gated(name: str, params: dict[str, object]) -> tuple[Callable[[Candidate], bool | int], Gate, Gate, bool]:
    """``bind``, with the gates of the predicate so bound (``gate_of``), read once for both."""
    bound = _bind(name, params)
    gate, fail_gate, exact = gate_of(name, params)
    if exact:
        mask = gate.mask
        DECIDED[bound] = ((mask | mask >> WIDTH) & _ALL_FACTS, lambda facts: not mask & unmet(facts))
    return bound, gate, fail_gate, exact


def _bind(name: str, params: dict[str, object]) -> Callable[[Candidate], bool | int]:
    fn = PREDICATES[name]
    args = _arguments(fn, params)
    if name in ATTRIBUTE_PREDICATES:
        return attrgetter(ATTRIBUTE_PREDICATES[name])
    if name == "flag" and FLAG_BY_NAME.get(str(params["name"]), None) is not None \
            and FLAG_BY_NAME[str(params["name"])].kind == "bool":
        return attrgetter(f"ctx.{params['name']}")
    if not params:
        return fn
    tally = TALLIES.get(fn)
    if tally is not None and len(params) == 1:
        return Tallied(tally, next(iter(params.values())))
    return _positional(fn, args)


# Bound predicates, and any / all / not of them, whose answer the facts of a reading decide (facts.py): each is an
# exact predicate (``needs(..., exact=True)``: true exactly when its gate is met) or made of them. By the callable
# bound: the facts its answer reads, and the answer from the facts (truthy or not). The engine asks a win condition
# decided so once for each set of those facts, not once a reading (engine.Checks).
DECIDED: Final[dict[object, tuple[int, Callable[[int], bool]]]] = {}
_ALL_FACTS: Final = (1 << WIDTH) - 1


def _any_decided(parts: list[Callable[[int], bool]]) -> Callable[[int], bool]:
    def decide(facts: int) -> bool:
        for part in parts:  # noqa: SIM110
            if part(facts):
                return True
        return False
    return decide


def _all_decided(parts: list[Callable[[int], bool]]) -> Callable[[int], bool]:
    def decide(facts: int) -> bool:
        for part in parts:  # noqa: SIM110
            if not part(facts):
                return False
        return True
    return decide


def _decided_as(made: Callable[[Candidate], bool | int], key: str,
                fns: tuple[Callable[[Candidate], bool | int], ...]) -> None:
    """Record ``made`` (``key`` any / all / not of ``fns``) as decided by the facts when every one of ``fns`` is."""
    reads = 0
    parts: list[Callable[[int], bool]] = []
    for fn in fns:
        found = DECIDED.get(fn)
        if found is None:
            return
        reads |= found[0]
        parts.append(found[1])
    if key == "not":
        part = parts[0]
        DECIDED[made] = (reads, lambda facts: not part(facts))
    else:
        DECIDED[made] = (reads, _any_decided(parts) if key == "any" else _all_decided(parts))


def _positional(fn: Predicate, args: tuple[object, ...]) -> Callable[[Candidate], bool | int]:
    """``fn`` with its parameters bound as default arguments: the cheapest call Python has, made for every item on
    every reading (a closure with ``*args`` costs a third more)."""
    if len(args) == 1:
        def one(c: Candidate, fn: Predicate = fn, a: object = args[0]) -> bool | int:
            return fn(c, a)
        return one
    if len(args) == 2:
        def two(c: Candidate, fn: Predicate = fn, a: object = args[0], b: object = args[1]) -> bool | int:
            return fn(c, a, b)
        return two
    return lambda c: fn(c, *args)


# How a ruleset's ``when`` combines predicates (ruleset.py compiles it once; these run on every reading).


def combined(key: str, fns: tuple[Callable[[Candidate], bool | int], ...]) -> Callable[[Candidate], bool | int]:
    """``any`` / ``all`` of bound predicates, as plain loops (any() over a generator costs more). ``all`` gives
    the last part's value when every part holds, as Python's ``and`` does: a count there counts the item."""
    if key == "any":
        def any_of(c: Candidate) -> bool:
            for fn in fns:  # noqa: SIM110
                if fn(c):
                    return True
            return False
        _decided_as(any_of, key, fns)
        return any_of

    def all_of(c: Candidate) -> bool | int:
        value: bool | int = True
        for fn in fns:
            value = fn(c)
            if not value:
                return False
        return value
    _decided_as(all_of, key, fns)
    return all_of


def negated(fn: Callable[[Candidate], bool | int]) -> Callable[[Candidate], bool]:
    def not_(c: Candidate) -> bool:
        return not fn(c)
    _decided_as(not_, "not", (fn,))
    return not_


def with_options(fn: Predicate, fixed: dict[str, Any], refs: dict[str, str]) -> Callable[[Candidate], bool | int]:
    """``fn`` with ``fixed`` parameters, and those in ``refs`` read from the options scored with (a YAML parameter
    written ``{option: NAME}``)."""
    positional = _option_args(fn, fixed, refs)
    if positional is not None:  # one or two parameters, passed by position: no dictionary to build on each call
        if len(positional) == 1:
            option = positional[0][1]
            return lambda c: fn(c, c.options[option])
        (first_is_option, a), (second_is_option, b) = positional
        if first_is_option and second_is_option:
            return lambda c: fn(c, c.options[a], c.options[b])
        if first_is_option:
            return lambda c: fn(c, c.options[a], b)
        if second_is_option:
            return lambda c: fn(c, a, c.options[b])
    if len(refs) == 1 and not fixed:
        (key, option), = refs.items()
        return lambda c: fn(c, **{key: c.options[option]})
    return lambda c: fn(c, **fixed, **{k: c.options[o] for k, o in refs.items()})


def _option_args(fn: Predicate, fixed: dict[str, Any], refs: dict[str, str]) -> list[tuple[bool, Any]] | None:
    """The parameters of ``fn`` after the candidate in order, each (True, an option's name) or (False, its value),
    when there are one or two, each given or with a default, and all can be passed by position; else None."""
    params = parameters_of(fn)  # None: not all positional or keyword (bind has refused positional-only ones)
    if params is None or not 1 <= len(params) <= 2 or (set(fixed) | set(refs)) - {name for name, _ in params}:
        return None
    out: list[tuple[bool, Any]] = []
    for name, default in params:
        if name in refs:
            out.append((True, refs[name]))
        elif name in fixed:
            out.append((False, fixed[name]))
        elif default is not REQUIRED:
            out.append((False, default))
        else:
            return None
    return out


# --- situation -----------------------------------------------------------------------------------------


@predicate
def always(c: Candidate) -> bool:
    """Always: every win."""
    return True


@predicate
@needs(ZIMO, exact=True)
def self_drawn(c: Candidate) -> bool:
    """The winning tile was drawn by the winner (treasure wins and replacement tiles included)."""
    return c.ctx.zimo


@predicate
@needs(forbid=ZIMO, exact=True)
def won_on_discard(c: Candidate) -> bool:
    """The winning tile was another player's discard (or a robbed kong)."""
    return not c.ctx.zimo


@predicate
@needs(DEALER, exact=True)
def dealer_wins(c: Candidate) -> bool:
    """The winner is the dealer (seat East)."""
    return c.ctx.winner_is_dealer


@predicate
@needs(forbid=ZIMO | DEALER)
def dealer_discarded(c: Candidate) -> bool:
    """Another player won on the dealer's discard (or robbed the dealer's kong, or his eighth flower)."""
    return not c.ctx.zimo and c.ctx.discarder == c.ctx.dealer


@predicate
@needs(lambda name: Gate(FLAG_FACTS.get(name, 0)), exact=True)
def flag(c: Candidate, name: str) -> bool:
    """The context flag ``name`` is on (``+gang``, ``+mobao`` …)."""
    return bool(getattr(c.ctx, name))


@predicate
@needs(CLOSED, exact=True)
def closed_hand(c: Candidate) -> bool:
    """No chi, pon or exposed kong: concealed kongs and special kongs keep a hand closed."""
    return c.hand.closed


@predicate
def all_sets_declared(c: Candidate) -> bool:
    """Every set was declared before the win (chi, pon, kongs, special kongs): one tile was left in hand."""
    return len(c.hand.melds) >= c.hand.sets


@predicate
@needs(MELDED)
def all_sets_shown(c: Candidate) -> bool:
    """Every set was shown before the win (chi, pon, exposed kong, special kong): one tile was left in hand; a
    concealed kong counts as tiles in hand (MIL 2024: "暗杠计为手牌")."""
    shown = 0
    for m in c.hand.melds:
        shown += m.kind != "concealed_kong"
    return shown >= c.hand.sets


@predicate
@needs(KONG.need(1))
def special_kong_added(c: Candidate) -> bool:
    """A special kong took a tile added to it beyond the tiles it needs (a 加杠)."""
    for m in c.hand.melds:
        if m.kind == "special" and m.extra > 0:
            return True
    return False


@predicate
def melded_sets_at_most(c: Candidate, count: int) -> bool:
    """At most ``count`` chi / pon / exposed-kong melds."""
    return sum(1 for m in c.hand.melds if m.exposed) <= count


@predicate
@needs(lambda name: Gate(FLAG_FACTS.get(name, 0)))
def flag_value(c: Candidate, name: str) -> int:
    """The number a context flag holds (``+lian=N``: N), counting the item that many times."""
    return int(getattr(c.ctx, name))


@predicate
def all_sets_exposed(c: Candidate) -> bool:
    """Every set is a chi, pon or exposed kong declared before the win (a concealed kong does not count): one
    tile was left in hand."""
    exposed = 0
    for m in c.hand.melds:
        exposed += m.exposed
    return exposed >= c.hand.sets


# --- flowers (1f-8f: 春 夏 秋 冬 梅 兰 竹 菊, set aside as drawn; never part of a reading) -----------------

FLOWER_SETS: Final = ((0, 1, 2, 3), (4, 5, 6, 7))  # 春夏秋冬 and 梅兰竹菊
NUM_FLOWERS: Final = 8


@predicate
def flower_count(c: Candidate) -> int:
    """How many flowers the winner holds (1f-8f, or the count of a GB string): each counts once (MCR 花牌 a fan each)."""
    return len(c.hand.flowers)


@predicate
def all_flowers(c: Candidate) -> bool:
    """The winner holds all eight flowers."""
    return len(c.hand.flowers) == NUM_FLOWERS


def _complete_flower_sets(flowers: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [group for group in FLOWER_SETS if all(f in flowers for f in group)]


@predicate
def seat_flowers(c: Candidate, except_in_sets: bool = False) -> int:
    """How many flowers of the winner's seat he holds: 东 1f 5f, 南 2f 6f, 西 3f 7f, 北 4f 8f (a flower's number
    less one, modulo 4, is its seat); with ``except_in_sets``, not one in a complete set of four (花杠)."""
    seat = T.wind_index(c.ctx.seat)
    flowers = c.hand.flowers
    complete = _complete_flower_sets(flowers) if except_in_sets else []
    return sum(1 for f in flowers if f % 4 == seat and not any(f in group for group in complete))


@predicate
def flower_sets(c: Candidate) -> int:
    """How many complete sets of four flowers the winner holds: 春夏秋冬 (1f-4f), 梅兰竹菊 (5f-8f)."""
    return len(_complete_flower_sets(c.hand.flowers))


# --- tiles anywhere in the hand ------------------------------------------------------------------------


@predicate
@needs(THREE_SUITS, exact=True)
def has_all_three_suits(c: Candidate) -> bool:
    """Tiles of all three suits (万 筒 条) appear in the hand, melds and special kongs included."""
    return len(c.suits) == 3


@predicate
def one_suit_plus_honors(c: Candidate) -> bool:
    """At most one suit, honors allowed (an all-honor hand passes too)."""
    return len(c.suits) <= 1


@predicate
@needs(TERMINAL, exact=True)
def has_terminal(c: Candidate) -> bool:
    """At least one 1 or 9 of a suit."""
    return bool(c.kinds & TERMINAL_KINDS)


@predicate
@needs(HONOR, exact=True)
def has_honor(c: Candidate) -> bool:
    """At least one wind or dragon tile."""
    return bool(c.kinds & HONOR_KINDS)


@predicate
@needs(DRAGON, exact=True)
def has_dragon(c: Candidate) -> bool:
    """At least one 中, 发 or 白 tile."""
    return bool(c.kinds & DRAGON_KINDS)


# --- sets of the reading -------------------------------------------------------------------------------


@predicate
@needs(lambda special_counts=False: OPEN_GATE if special_counts else Gate(PUNG.need(1)), exact=True)
def has_triplet_or_kong(c: Candidate, special_counts: bool = False) -> bool:
    """At least one triplet or kong, exposed or concealed (special kongs too when ``special_counts``)."""
    return any(g.is_triplet or (special_counts and g.kind == "special") for g in c.sets)


@predicate
def has_special_kong(c: Candidate) -> bool:
    """The hand holds a special kong (旋风杠, 喜杠, 幺蛋, 九蛋 …)."""
    return any(m.kind == "special" for m in c.hand.melds)


@predicate
@needs(KONG.need(1), exact=True)
def has_declared_kong(c: Candidate) -> bool:
    """The hand holds a declared kong of any kind (exposed, concealed or special)."""
    return any(m.is_kong for m in c.hand.melds)


_PAIR_KIND_FACTS: Final = {"dragon": DRAGON, "wind": WIND, "honor": HONOR, "terminal": TERMINAL}


@predicate
@needs(lambda kind: Gate(_PAIR_KIND_FACTS.get(kind, 0)))
def pair_is(c: Candidate, kind: str) -> bool:
    """The pair is a ``kind`` tile: dragon, wind, honor or terminal."""
    if c.pair is None:
        return False
    t = c.pair.tiles[0]
    tests = {"dragon": T.is_dragon, "wind": T.is_wind, "honor": T.is_honor, "terminal": T.is_terminal}
    return tests[kind](t)


@predicate
@needs(REGULAR | CHI.need(1))
def all_sequences(c: Candidate) -> bool:
    """A regular hand whose every set is a chow (平胡's five sequences and a pair)."""
    return c.reading.form == "regular" and len(c.chi_starts) == len(c.sets)


@predicate
@needs(REGULAR, forbid=CHI.need(1), exact=True)
def all_triplets(c: Candidate) -> bool:
    """Every set is a triplet or kong (special kongs allowed); no chi, no sequence."""
    return c.reading.form == "regular" and not c.chi_starts


@predicate
@needs(lambda name: Gate(FORM_FACTS.get(name, 0)), exact=True)
def form(c: Candidate, name: str) -> bool:
    """The hand is read in the special form ``name`` (seven_pairs, thirteen_orphans …)."""
    return c.reading.form == name


@predicate
@needs(FORM_FACTS["seven_pairs"])
def seven_pairs_with_four(c: Candidate) -> bool:
    """Seven pairs with a four-of-a-kind among them (豪华七对)."""
    if c.reading.form != "seven_pairs":
        return False
    kinds = [g.tiles[0] for g in c.reading.groups if g.kind == "pair"]
    return len(set(kinds)) < len(kinds)


@predicate
@needs(FORM_FACTS["seven_pairs"])
def seven_pairs_win_makes_four(c: Candidate) -> bool:
    """Seven pairs whose winning tile is the fourth of its kind: it waited beside a pair the player held (豪华七对
    as the MIL 2024 book has it, "听牌为手中已经有的一对"; a four held before the win does not count)."""
    win = c.hand.win_tile
    return c.reading.form == "seven_pairs" and win is not None and c.hand.concealed.count(win) == 4


# --- the wait ------------------------------------------------------------------------------------------


@predicate
def placed_in_single_wait(c: Candidate) -> bool:
    """In this reading the winning tile completes an edge (12→3, 89→7), a closed wait (13→2) or the pair."""
    return c.reading.wait in ("edge", "closed", "pair")


@predicate
def one_tile_wait(c: Candidate) -> bool:
    """The hand before the win waited on exactly one tile kind (kinds already held four times left out)."""
    return len(c.waits) == 1


@predicate
def one_winning_tile(c: Candidate) -> bool:
    """The hand before the win could win on exactly one tile kind: every other kind that completes its shape
    breaks a win condition (kinds already held four times left out)."""
    return len(c.winning_waits) == 1


# --- riichi-family patterns ----------------------------------------------------------------------------
# Patterns that riichi names first but that any ruleset may use (MCR and Taiwan have most of them too). Each
# first rules out the common hand cheaply (a mask test, too few chows): items are asked on every reading. Those
# that only forbid kinds are exactly their gate (the kinds the engine tests), so they are never called then.

TERMINALS_AND_HONORS: Final[int] = TERMINAL_KINDS | HONOR_KINDS
GREEN_MASK: Final[int] = T.mask([T.parse_tile(t) for t in ("2s", "3s", "4s", "6s", "8s", "6z")])


@predicate
@needs(forbid=TERMINALS_AND_HONORS, exact=True)
def all_simples(c: Candidate) -> bool:
    """No 1, 9 or honor anywhere in the hand (断幺九)."""
    return not c.kinds & TERMINALS_AND_HONORS


@predicate
@needs(ONE_SUIT, forbid=HONOR_KINDS)
def full_flush(c: Candidate) -> bool:
    """Every tile of one suit, no honors (清一色)."""
    return len(c.suits) == 1 and not c.kinds & HONOR_KINDS


@predicate
@needs(ONE_SUIT | HONOR)
def half_flush(c: Candidate) -> bool:
    """One suit plus honors, with at least one honor (混一色)."""
    return len(c.suits) == 1 and bool(c.kinds & HONOR_KINDS)


@predicate
@needs(forbid=KIND_BITS & ~HONOR_KINDS, exact=True)
def all_honors(c: Candidate) -> bool:
    """Every tile a wind or a dragon (字一色)."""
    return not c.kinds & ~HONOR_KINDS


@predicate
@needs(forbid=KIND_BITS & ~TERMINAL_KINDS, exact=True)
def all_terminals(c: Candidate) -> bool:
    """Every tile a 1 or a 9 of a suit (清老头)."""
    return not c.kinds & ~TERMINAL_KINDS


@predicate
@needs(forbid=KIND_BITS & ~TERMINALS_AND_HONORS, exact=True)
def all_terminals_and_honors(c: Candidate) -> bool:
    """Every tile a 1, a 9 or an honor (混老头)."""
    return not c.kinds & ~TERMINALS_AND_HONORS


@predicate
@needs(forbid=KIND_BITS & ~GREEN_MASK, exact=True)
def all_green(c: Candidate) -> bool:
    """Every tile green: 2 3 4 6 8 of bamboo and 发 (绿一色)."""
    return not c.kinds & ~GREEN_MASK


@predicate
@needs(CHI.need(3))
def pure_straight(c: Candidate) -> bool:
    """Chows 123, 456 and 789 of one suit (一气通贯)."""
    starts = c.chi_starts
    return len(starts) >= 3 and any(s in starts and s + 3 in starts and s + 6 in starts for s in (0, 9, 18))


@predicate
@needs(CHI.need(3) | THREE_SUITS)
def mixed_triple_chow(c: Candidate) -> bool:
    """The same chow in all three suits (三色同顺)."""
    starts = c.chi_starts
    return len(starts) >= 3 and any(s + 9 in starts and s + 18 in starts for s in starts if s < 9)


@predicate
@needs(PUNG.need(3) | THREE_SUITS)
def triple_pung(c: Candidate) -> bool:
    """Triplets or kongs of the same number in all three suits (三色同刻)."""
    kinds = c.pung_kinds
    return len(kinds) >= 3 and any(k + 9 in kinds and k + 18 in kinds for k in kinds if k < 9)


@predicate
@needs(lambda pairs: Gate(CHI.need(2 * pairs)))
def identical_chows(c: Candidate, pairs: int) -> bool:
    """At least ``pairs`` pairs of identical chows (一杯口 1, 两杯口 2)."""
    starts = c.chi_starts  # sorted: identical chows are neighbours
    found, i = 0, 0
    while i + 1 < len(starts):
        if starts[i] == starts[i + 1]:
            found += 1
            i += 2
        else:
            i += 1
    return found >= pairs


@predicate
@needs(lambda honors: Gate(REGULAR | CHI.need(1) | TERMINAL | HONOR) if honors
       else Gate(REGULAR | CHI.need(1) | TERMINAL, HONOR_KINDS))
def outside_hand(c: Candidate, honors: bool) -> bool:
    """A regular hand with a chow whose every set and pair holds a terminal or an honor: with ``honors``, at
    least one honor set (混全带幺九); without, terminals only (纯全带幺九)."""
    if not c.chi_starts or c.reading.form != "regular" or bool(c.kinds & HONOR_KINDS) != honors:
        return False
    for g in c.reading.groups:
        tiles = g[1]
        if not (_OUTSIDE[tiles[0]] or _OUTSIDE[tiles[-1]]):
            return False
    return True


_OUTSIDE: Final = tuple(T.is_terminal(t) or T.is_honor(t) for t in range(T.NUM_KINDS))  # a 1, a 9 or an honor


_KIND_BY_NAME: Final = {T.name(t): t for t in range(T.NUM_KINDS)}


def _pung_of_fact(t: int) -> int:
    """The fact a triplet of ``t`` sets: a dragon or wind triplet, or any triplet."""
    return DRAGON_PUNG.need(1) if t in T.DRAGONS else WIND_PUNG.need(1) if t in T.WINDS else PUNG.need(1)


@predicate
@needs(lambda tile: Gate(1 << _KIND_BY_NAME[tile] | _pung_of_fact(_KIND_BY_NAME[tile])) if tile in _KIND_BY_NAME
       else OPEN_GATE)
def pung_of(c: Candidate, tile: str) -> bool:
    """A triplet or kong of ``tile`` (``5z`` 白 …)."""
    return _KIND_BY_NAME[tile] in c.pung_kinds


@predicate
@needs(WIND_PUNG.need(1))
def seat_wind_pung(c: Candidate) -> bool:
    """A triplet or kong of the winner's seat wind (门风刻)."""
    return _WIND_OF[c.ctx.seat] in c.pung_kinds


@predicate
@needs(WIND_PUNG.need(1))
def round_wind_pung(c: Candidate) -> bool:
    """A triplet or kong of the prevalent wind (圈风刻)."""
    return _WIND_OF[c.ctx.round] in c.pung_kinds


_WIND_OF: Final = {seat: T.seat_wind_tile(seat) for seat in T.SEATS}


def _honor_sets(c: Candidate, kinds: tuple[int, ...]) -> tuple[int, bool]:
    """How many triplets or kongs of ``kinds``, and whether the pair is one of them."""
    pungs = sum(1 for k in c.pung_kinds if k in kinds)
    return pungs, c.pair is not None and c.pair.tiles[0] in kinds


_PUNG_KINDS: Final = {"dragon": (DRAGON_PUNG, T.DRAGONS), "wind": (WIND_PUNG, T.WINDS)}


@predicate
@needs(lambda kind: Gate(_PUNG_KINDS[kind][0].need(1)))
def pungs_of(c: Candidate, kind: str) -> int:
    """How many triplets or kongs of ``kind`` (dragon, wind) the reading holds: the item counts once for each."""
    kinds = _PUNG_KINDS[kind][1]
    return sum(1 for k in c.pung_kinds if k in kinds)


@predicate
@needs(lambda count, pair=False: Gate(DRAGON | DRAGON_PUNG.need(count)))
def dragon_pungs(c: Candidate, count: int, pair: bool = False) -> bool:
    """Exactly ``count`` dragon triplets or kongs, and with ``pair`` a dragon pair (小三元 2 + pair, 大三元 3)."""
    if not c.kinds & DRAGON_KINDS:
        return False
    pungs, has_pair = _honor_sets(c, T.DRAGONS)
    return pungs == count and (has_pair or not pair)


@predicate
@needs(lambda count, pair=False: Gate(WIND | WIND_PUNG.need(count)))
def wind_pungs(c: Candidate, count: int, pair: bool = False) -> bool:
    """Exactly ``count`` wind triplets or kongs, and with ``pair`` a wind pair (小四喜 3 + pair, 大四喜 4)."""
    if not c.kinds & WIND_KINDS:
        return False
    pungs, has_pair = _honor_sets(c, T.WINDS)
    return pungs == count and (has_pair or not pair)


@predicate
@needs(lambda count: Gate(CONCEALED_PUNG.need(count)))
def concealed_pungs(c: Candidate, count: int) -> bool:
    """Exactly ``count`` concealed triplets or kongs; one that a discard completed is not concealed (三暗刻 3)."""
    if len(c.pung_kinds) < count:
        return False
    win_index = None if c.ctx.zimo else c.reading.win_index
    found = 0
    for i, g in enumerate(c.reading.groups):
        if (g[0] == "pon" or g[0] == "kong") and g[2] and i != win_index:  # a concealed triplet or kong
            found += 1
    return found == count


@predicate
@needs(lambda count: Gate(KONG.need(count)))
def kongs(c: Candidate, count: int) -> bool:
    """Exactly ``count`` declared kongs, exposed or concealed (三杠子 3, 四杠子 4)."""
    return len(c.hand.melds) >= count and sum(1 for m in c.hand.melds if m.is_kong) == count


@predicate
@needs(lambda kind: Gate(WAIT_FACTS.get(kind, 0)), exact=True)
def wait_is(c: Candidate, kind: str) -> bool:
    """The winning tile completes this kind of wait in the reading: edge, closed, two_sided, pair, dual_pung."""
    return c.reading.wait == kind


@predicate
@needs(lambda pure=False: Gate(ONE_SUIT | TERMINAL, MELDED | HONOR_KINDS))
def nine_gates(c: Candidate, pure: bool = False) -> bool:
    """A closed hand without melds of 1112345678999 plus one tile of the same suit (九莲宝灯); ``pure``: the hand
    before the win was exactly 1112345678999, waiting on all nine (纯正九莲)."""
    if c.hand.melds or len(c.suits) != 1 or c.kinds & HONOR_KINDS:
        return False
    suit = next(iter(c.suits)) * 9
    counts = c.counts
    if counts[suit] < 3 or counts[suit + 8] < 3 or 0 in counts[suit + 1:suit + 8]:
        return False
    # 14 tiles of one suit holding 111 2-8 999: exactly one kind has one tile more than that
    return not pure or (c.hand.win_tile is not None
                        and counts[c.hand.win_tile] == (4 if c.hand.win_tile in (suit, suit + 8) else 2))


# --- north-eastern patterns ----------------------------------------------------------------------------


@predicate
def no_wildcard_held(c: Candidate) -> bool:
    """The hand holds no wildcard tile anywhere, as itself or standing in (a kong of wildcards counts)."""
    return c.wild_kind is None or c.wild_kind not in c.raw.all_tiles()


@predicate
def all_others_closed(c: Candidate) -> bool:
    """Every other seat's hand is closed (+closed lists all three)."""
    return set(c.ctx.losers) <= c.ctx.closed


@predicate
def completed_special_set(c: Candidate) -> bool:
    """The winning tile completed a special kong's set in hand (中发白 叫胡)."""
    return any(m.called for m in c.hand.melds)
