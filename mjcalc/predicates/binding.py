"""How predicates are declared and bound: ``@predicate`` (``@namespaced("riichi")`` for a family's own) registers a
function under its name (mjcalc.registry), ``@needs`` declares its gate (facts.py), ``@tallied`` a tally that counts
it with others; ``bind`` gives it the parameters a ruleset file writes, ``combined`` / ``negated`` make any / all /
not of bound predicates, and ``with_options`` a parameter read from an option.

A predicate returns a bool (the item counts once) or an int (it counts that many times). Its docstring is what
``mjcalc rules show`` prints. Parameters come only from YAML (``{pair_is: {kind: dragon}}``), so the data shows
every dependency; predicates never read options. ``@needs`` declares a predicate's gate (facts.py): whole-hand
facts it cannot be true without, so that the engine skips it cheaply.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any, Final

from ..core.candidate import Candidate
from ..core.context import ATTRIBUTES, FLAG_BY_NAME
from ..core.facts import OPEN_GATE, WIDTH, Gate, unmet
from ..core.scoring import Tallied
from ..registry import DECIDED, EXPLAINED_BY, PREDICATE_GATES, PREDICATE_PARAMS, PREDICATES, TALLIES

Predicate = Callable[..., "bool | int"]
# Each predicate's declared gate (``needs``) and whether it is exact, by the function itself: kept in the registry,
# not as attributes of the function, which a compiled function cannot carry.
DECLARED: Final = PREDICATE_GATES




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
    """Register a predicate under its function name (hooks use ``ruleset.name``: ``namespaced``), with what
    ``params`` and ``explained_by`` declared of it."""
    _register(fn.__name__, fn)
    return fn


def _register(name: str, fn: Predicate) -> None:
    PREDICATES[name] = fn
    declared = _PARAMS_OF.pop(fn, None)
    if declared is not None:
        PREDICATE_PARAMS[name] = declared
    facts = _EXPLAINED_OF.pop(fn, None)
    if facts is not None:
        EXPLAINED_BY[name] = facts


# What ``params`` and ``explained_by`` declared of a function, until it is registered under its name.
_PARAMS_OF: Final[dict[Predicate, dict[str, Any]]] = {}
_EXPLAINED_OF: Final[dict[Predicate, tuple[str, ...]]] = {}


def params(**specs: Any) -> Callable[[Predicate], Predicate]:
    """Declare the parameters a ruleset's ``when:`` may give a predicate, each with what it takes: ``bool``, ``int``
    (a whole number of the schema's "param_int" range), ``str``, a tuple of the words it may be, or a function
    returning those words whose docstring says what they are (mjcalc.registry.PREDICATE_PARAMS; rules/SCHEMA.md
    lists them). Put under ``@predicate`` (or a family's ``@namespaced``)."""
    def declare(fn: Predicate) -> Predicate:
        _PARAMS_OF[fn] = dict(specs)
        return fn

    return declare


def explained_by(*facts: str) -> Callable[[Predicate], Predicate]:
    """Declare the facts of a hand that explain an item of this predicate to a student (the homework checker's:
    ``win``, ``waits``, ``draw``, ``dealer``, ``closed`` … or a family's, mjcalc.registry.HOMEWORK_FACTS), and
    ``reading`` when the reading kept explains it too. None declared: the reading. Put under ``@predicate``."""
    def declare(fn: Predicate) -> Predicate:
        _EXPLAINED_OF[fn] = facts
        return fn

    return declare


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
    """``predicate`` for a family's own, registered as ``<namespace>.<function name>`` (``riichi.pinfu``)."""
    def register(fn: Predicate) -> Predicate:
        _register(f"{namespace}.{fn.__name__}", fn)
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
    signature_of parses it as Python (a compile each, at every command's start-up)."""
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
    if name == "flag" and str(params["name"]) in ATTRIBUTES and FLAG_BY_NAME[str(params["name"])].kind == "bool":
        return attrgetter(f"ctx.{params['name']}")  # a generic flag is an attribute of the Context
    if not params:
        return fn
    tally = TALLIES.get(fn)
    if tally is not None and len(params) == 1:
        return Tallied(tally, next(iter(params.values())))
    return _positional(fn, args)


# Bound predicates, and any / all / not of them, whose answer the facts of a reading decide (facts.py): each is an
# exact predicate (``needs(..., exact=True)``: true exactly when its gate is met) or made of them. By the callable
# bound: the facts its answer reads, and the answer from the facts (truthy or not). The engine asks a win condition
# decided so once for each set of those facts, not once a reading (core.scoring.Checks).
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


# --- flowers (1f-8f: 春 夏 秋 冬 梅 兰 竹 菊, set aside as drawn; never part of a reading) -----------------

# --- tiles anywhere in the hand ------------------------------------------------------------------------


# --- sets of the reading -------------------------------------------------------------------------------


# --- the wait ------------------------------------------------------------------------------------------


# --- riichi-family patterns ----------------------------------------------------------------------------
# Patterns that riichi names first but that any ruleset may use (MCR and Taiwan have most of them too). Each
# first rules out the common hand cheaply (a mask test, too few chows): items are asked on every reading. Those
# that only forbid kinds are exactly their gate (the kinds the engine tests), so they are never called then.

# --- north-eastern patterns ----------------------------------------------------------------------------

