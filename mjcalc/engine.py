"""The pipeline, one direction: line → hand + context → readings → win conditions → items → settlement → the
best reading. ``score_line`` never raises for bad input: a line it cannot read is a Result with the error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final, NamedTuple

from . import tiles as T
from .context import (
    ALIASES,
    CONTEXT_FACTS,
    SHORTHANDS,
    Context,
    build_context,
    check_hand,
    collect_flags,
    read_plain_flags,
    read_plain_groups,
)
from .errors import MjcalcError, did_you_mean
from .frozen import replace
from .facts import ALL as ALL_FACTS, KIND_BITS, WIDTH, Gate, unmet
from .i18n import Msg
from .hand import Hand, SpecialKongDef, build_hand
from .memo import remember
from .notation import FlagsRead, FlagWord, ParsedLine, parse_line
from .predicates import DECIDED, Candidate, Tallied
from .readings import (
    IMMEDIATE,
    FormSpec,
    Reading,
    Wildcards,
    reading_class,
    readings,
    set_call_hands,
    shape_waits,
    substituted_hands,
)
from .ruleset import Condition, ItemDef, Ruleset, check_builtin, check_config_options, load_ruleset
from .settlement import Award, Settlement, liable_items, settler
from .shapewaits import hand_shapes, hand_waits, kinds_of

DEFAULT_RULESET: Final = "changchun"

_new: Final = tuple.__new__  # a named tuple from its fields without the Python-level __new__


# Plain classes with an __init__ of their own, here and below, not dataclasses: the methods a dataclass or a named
# tuple generates are Python source compiled when the module is imported (some 0.7M instructions each, every
# command's start-up: benchmarks/bench_startup.py), and mypyc compiles these (native classes). Nothing compares,
# hashes or prints them by value; a frozen one's fields are Final (read-only when compiled).
class Scored:
    """One reading that passes every win condition, with its items and settlement."""

    __slots__ = ("candidate", "awards", "settlement")

    def __init__(self, candidate: Candidate, awards: list[Award], settlement: Settlement) -> None:
        self.candidate = candidate
        self.awards = awards
        self.settlement = settlement


class WaitScore:
    __slots__ = ("tile", "unseen", "result")

    def __init__(self, tile: int, unseen: int, result: Result | None = None) -> None:
        self.tile = tile
        self.unseen = unseen
        self.result = result


# The names of the waits by their mask (Result.wait_names): a few hundred masks in all, met line after line; a
# look-up by an integer costs less than the walk over the 34 kinds that makes the list.
_WAIT_NAMES: Final[dict[int, list[str]]] = {}


class Result:
    __slots__ = ("input", "result", "ruleset", "options", "hand", "ctx", "error", "_failed", "waits_of",
                 "wait_scores", "best", "readings_tried", "ignored_flags", "warnings", "line", "_waits", "_short",
                 "_short_counted")

    def __init__(self, input: str, result: str, ruleset: Ruleset | None = None,
                 options: Mapping[str, Any] | None = None, hand: Hand | None = None, ctx: Context | None = None,
                 error: MjcalcError | None = None, failed: list[Condition] | None = None,
                 waits_of: Callable[[], frozenset[int]] | None = None, wait_scores: list[WaitScore] | None = None,
                 best: Scored | None = None, readings_tried: int = 0, ignored_flags: list[str] | None = None,
                 warnings: list[str] | None = None, line: int | None = None) -> None:
        self.input = input
        self.result = result  # win | not_a_win | waiting | error
        self.ruleset = ruleset
        self.options: Mapping[str, Any] = {} if options is None else options
        self.hand = hand
        self.ctx = ctx
        self.error = error
        self._failed: list[Condition] = [] if failed is None else failed
        # The items of the reading nearest to a minimum, and their count, while ``_failed``'s messages wait to be
        # filled in from them (``failed``).
        self._short: list[Award] | None = None
        self._short_counted = 0
        self.waits_of = waits_of  # computes `waits` when asked
        self.wait_scores: list[WaitScore] = [] if wait_scores is None else wait_scores
        self.best = best
        self.readings_tried = readings_tried
        self.ignored_flags: list[str] = [] if ignored_flags is None else ignored_flags
        self.warnings: list[str] = [] if warnings is None else warnings
        self.line = line
        self._waits: list[int] | None = None

    @property
    def waits(self) -> list[int]:
        """The shape waits of the hand before the win (of the waiting hand as given). Computed on first use:
        a batch that prints no waits does not pay for 34 completeness checks a hand."""
        if self._waits is None:
            self._waits = sorted(self.waits_of()) if self.waits_of is not None else []
        return self._waits

    def wait_names(self) -> list[str]:
        """``[T.name(t) for t in self.waits]``. For a hand without wildcards, from the mask of the waits
        (``_WaitsBeforeWin.mask``: bit t for kind t, in order), without the set of kinds made and sorted (a batch
        writes them for every line: 3k instructions a line less)."""
        w = self.waits_of
        if self._waits is None and isinstance(w, _WaitsBeforeWin):
            mask = w.mask()
            if mask is not None:
                names = _WAIT_NAMES.get(mask)
                if names is None:
                    names = remember(_WAIT_NAMES, mask, [T.name(t) for t in range(T.NUM_KINDS) if mask >> t & 1], 4096)
                return names.copy()  # the caller's own list
        return [T.name(t) for t in self.waits]

    @property
    def failed(self) -> list[Condition]:
        """The win conditions failed (of the nearest reading). A minimum's message is filled in from that reading's
        items on first use: a caller that does not print it (score_line for its result alone) does not pay for it
        (~36,000 instructions, callgrind)."""
        short = self._short
        if short is not None:
            self._short = None
            self._failed = [_filled(cond, short, self._short_counted) for cond in self._failed]
        return self._failed

    @failed.setter
    def failed(self, failed: list[Condition]) -> None:
        self._failed = failed
        self._short = None

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return self.error.exit_code
        return 1 if self.result == "not_a_win" else 0


class Request:
    """What the caller adds to a line: a ruleset, options (``--set``) and flags given as CLI options. A native class
    when compiled (a line reads its ruleset and flags: a Python-level class's field costs compiled code some 250
    instructions a read), pickled (``__reduce__``) to the processes of a batch (--jobs)."""

    def __init__(self, rules: str | None = None, options: Mapping[str, Any] | None = None,
                 flags: Sequence[FlagWord] = (), config_options: Mapping[str, Any] | None = None,
                 lenient: bool = False, rules_dir: str | None = None, builtin_only: bool = False) -> None:
        self.rules: Final = rules
        self.options: Final[Mapping[str, Any]] = {} if options is None else options
        self.flags: Final = flags
        self.config_options: Final[Mapping[str, Any]] = {} if config_options is None else config_options  # from
        # the user config: only where known
        # A run of many lines (batch, check): an option NAME applies to the lines whose ruleset has it (the run
        # checked up front that one has: ``check_run_options``). One line (score, waits): an option its ruleset
        # lacks is an error.
        self.lenient: Final = lenient
        self.rules_dir: Final = rules_dir  # a batch file's folder: a ruleset path a line names is looked up there first
        # Built-in rulesets only (``mjcalc serve``): a ruleset file named by ``rules`` or by a line's ``+rules=`` is
        # refused without being read.
        self.builtin_only: Final = builtin_only

    def __reduce__(self) -> tuple[Any, ...]:
        return Request, (self.rules, self.options, self.flags, self.config_options, self.lenient, self.rules_dir,
                         self.builtin_only)

    def in_folder(self, rules_dir: str | None) -> Request:
        """The same request, its ruleset paths looked up first in ``rules_dir``."""
        return Request(self.rules, self.options, self.flags, self.config_options, self.lenient, rules_dir,
                       self.builtin_only)


def score_line(text: str, request: Request = Request(), *, with_wait_scores: bool = True) -> Result:
    """Score one line of notation. Errors come back in the Result, never as exceptions."""
    text = text.strip()
    rules: Ruleset | None = None
    try:
        parsed = parse_line(text)
        ref = _ruleset_ref(parsed, request)
        rules = _LOADED.get(ref)
        if rules is None:
            rules = load_ruleset(ref)
        return _score(text, parsed, rules, request, with_wait_scores)
    except MjcalcError as exc:
        exc = _bare_flag_hint(text, exc)
        if rules is None and exc.kind != "ruleset":
            try:
                rules = load_ruleset(request.rules or DEFAULT_RULESET)
            except MjcalcError:
                rules = None
        return Result(text, "error", rules, error=exc)


# The rulesets load_ruleset has loaded, by reference (its own dictionary, emptied by its cache_clear).
_LOADED: Final[dict[str, Ruleset]] = load_ruleset.found


def _bare_flag_hint(text: str, exc: MjcalcError) -> MjcalcError:
    """A notation error on a word that is a flag written without its ``+`` (``zimo``, ``seat=E``, ``riichi``):
    the same error, saying which flag was meant."""
    if exc.kind != "notation" or exc.column is None or not 0 < exc.column <= len(text):
        return exc
    at = exc.column - 1
    start = text.rfind(" ", 0, at) + 1
    end = text.find(" ", at)
    word = text[start:] if end < 0 else text[start:end]
    name, eq, value = word.partition("=")
    if not name.isalpha() or len(name) < 2:
        return exc
    words = [*ALIASES, *SHORTHANDS]
    if name.lower() in words:
        meant = name.lower()
    else:
        import difflib

        close = difflib.get_close_matches(name.lower(), words, n=1, cutoff=0.8)
        if not close:
            return exc
        meant = close[0]
    return MjcalcError(exc.kind, Msg("{problem} — '{word}' looks like a flag: did you mean +{meant}? (a flag starts "
                                     "with +)", problem=exc.msg, word=word, meant=f"{meant}{eq}{value}"), exc.column)


_RULES_WORDS: Final = frozenset(word for word, name in ALIASES.items() if name == "rules")
# Whether a word as written names the ruleset (+rules, +RULES …): the same few words come back on every line.
_NAMES_RULES: Final[dict[str, bool]] = {}


def _names_rules(word: str) -> bool:
    names = _NAMES_RULES.get(word)
    return remember(_NAMES_RULES, word, word.lower() in _RULES_WORDS) if names is None else names


def _group_names_rules(group: FlagsRead) -> bool:
    named = group.names_rules
    if named is None:
        named = group.names_rules = any(_names_rules(body[0]) for body in group.bodies)
    return named


def _ruleset_ref(parsed: ParsedLine, request: Request) -> str:
    groups = parsed.flag_groups
    if groups is not None:  # the fast reader's flags: each group asked (most name no ruleset), no FlagWords made
        if not any(_group_names_rules(group) for group in groups):
            return request.rules or DEFAULT_RULESET
    for w in parsed.flags:
        if _names_rules(w[0]):  # by index: a named tuple's attribute costs a compiled module a Python-level look-up
            if not w.value:
                raise MjcalcError("context", Msg("+rules needs a ruleset name: +rules=jilin"), w.column)
            if request.builtin_only:
                check_builtin(w.value, f"+{w.word}", w.column)
            return ruleset_path(w.value, request.rules_dir)
    return request.rules or DEFAULT_RULESET


_RELATIVE: Final[dict[tuple[str, str], str]] = {}


def ruleset_path(ref: str, folder: str | None) -> str:
    """A ruleset reference as given in a batch file: a relative path is taken from the file's ``folder`` when
    the file is there (as ``extends:`` is taken from its file's folder), else as it is; a name as it is."""
    if folder is None or not ref.endswith((".yaml", ".yml")) and "/" not in ref and "\\" not in ref:
        return ref
    found = _RELATIVE.get((folder, ref))
    if found is None:
        import os

        candidate = os.path.join(folder, os.path.expanduser(ref))
        found = remember(_RELATIVE, (folder, ref), candidate if os.path.isfile(candidate) else ref, limit=256)
    return found


class RulesRead:
    """What every line reads of its ruleset, read once (``rules_read``): a Ruleset is a Python-level object, each
    field a look-up for compiled code (~250 instructions), some seven a riichi line (a batch's record reads two)."""

    __slots__ = ("rules", "id", "flags", "tile_rules", "wildcard", "immediate_items", "forms", "unit")

    def __init__(self, rules: Ruleset) -> None:
        self.rules: Final = rules
        self.id: Final = rules.id
        self.flags: Final = rules.flags
        self.tile_rules: Final = rules.tile_rules
        self.wildcard: Final = rules.wildcard
        self.immediate_items: Final = rules.immediate_items
        self.forms: Final = rules.forms
        self.unit: Final = rules.unit


# By the ruleset's identity, the ruleset kept beside it to tell a reused identity apart (a ruleset is never changed
# once loaded). Bounded.
_RULES_READ: Final[dict[int, RulesRead]] = {}


def rules_read(rules: Ruleset) -> RulesRead:
    """What lines read of ``rules``, read once."""
    found = _RULES_READ.get(id(rules))
    if found is None or found.rules is not rules:
        found = remember(_RULES_READ, id(rules), RulesRead(rules), 64)
    return found


class ReadLine:
    """A line read under a ruleset: its flags typed (``values``, by name, with their columns), those the ruleset
    does not read, the options, the hand and the context. A native class, made for every line (a named tuple is
    made through a Python-level call); it unpacks as the five in that order."""

    def __init__(self, values: dict[str, tuple[object, int | None]], ignored: list[str], options: Mapping[str, Any],
                 hand: Hand, ctx: Context) -> None:
        self.values: Final = values
        self.ignored: Final = ignored
        self.options: Final = options
        self.hand: Final = hand
        self.ctx: Final = ctx

    def __iter__(self) -> Iterator[object]:
        return iter((self.values, self.ignored, self.options, self.hand, self.ctx))


def request_options(rules: Ruleset, request: Request) -> Mapping[str, Any]:
    """The options a line is scored with before its own +base / +cap: the config file's ``set:`` where the
    ruleset has the option, then ``--set``. A config option that no ruleset has, or a value that its option
    cannot take, is blamed on the config file (config.py), a bad ``--set`` on ``--set``."""
    last = _LAST_OPTIONS
    if last[0] is request and last[1] is rules:  # the request and ruleset of the line before, as most lines are
        return last[2]  # type: ignore[no-any-return]
    found = _request_options(rules, request)
    last[0], last[1], last[2] = request, rules, found  # held here, so no other object can take their place
    return found


# ``request_options`` of the last request and ruleset asked about (a batch's lines, or a run of one ruleset's, ask
# with the same two): found by identity, without reading the request (a Python object: ~190 instructions an
# attribute) nor making and hashing a key (callgrind: 3,100 -> ~100 instructions a line).
_LAST_OPTIONS: Final[list[Any]] = [None, None, None]


def _request_options(rules: Ruleset, request: Request) -> Mapping[str, Any]:
    config = request.config_options
    if not config:
        return _plain_options(rules, request.options, request.lenient)
    given = options_for(rules, request.options, request.lenient) if request.options else request.options
    known = {k: v for k, v in config.items() if k in rules.options}
    source: str = getattr(config, "source", None) or Msg("the config file")
    if len(known) < len(config):
        check_config_options(tuple(sorted(k for k in config if k not in known)), rules.id, source)
    used = {k: v for k, v in known.items() if k not in given}
    if used:
        rules.option_values(used, Msg("{source}: set", source=source))
    return rules.option_values({**known, **given})


# ``request_options`` of the usual request (no config file), by the ruleset and the ``--set`` options as given
# (their names, then their values: two tuples, not one pair a name), looked up here first: ruleset.py is not
# compiled, and a call into it costs a line ~10,000 instructions (callgrind); this look-up also spares
# ``options_for``. The same mapping either way. (Measured: ~9,000 instructions a riichi line less than the look-up
# by the pairs of the options that ``options_for`` gave.)
_OPTION_VALUES: Final[dict[tuple[int, bool, tuple[str, ...], tuple[Any, ...]], tuple[Ruleset, Mapping[str, Any]]]] = {}


def _plain_options(rules: Ruleset, options: Mapping[str, Any], lenient: bool) -> Mapping[str, Any]:
    key = (id(rules), lenient, tuple(options), tuple(options.values()))
    try:
        found = _OPTION_VALUES.get(key)
    except TypeError:  # an unhashable value: option_values says what is wrong with it
        return rules.option_values(options_for(rules, options, lenient) if options else options)
    if found is None or found[0] is not rules:
        given = options_for(rules, options, lenient) if options else options
        found = remember(_OPTION_VALUES, key, (rules, rules.option_values(given)), 1024)
    return found[1]


def read_line(parsed: ParsedLine, rules: Ruleset, request: Request, seen: RulesRead | None = None) -> ReadLine:
    """The first half of scoring a line: flags, options, hand and context, checked (``seen``: ``rules_read(rules)``,
    when the caller has it)."""
    # The usual line's flags are read in one pass; any other line's by collect_flags, then build_context below.
    # What is read more than once of the line, the request and the ruleset (Python objects) is read once.
    # The line's FlagWords (``parsed.flags``) are asked for only where columns or an unusual line need them.
    if seen is None:
        seen = rules_read(rules)
    more, reads, tile_rules = request.flags, seen.flags, seen.tile_rules
    # What the flags make is kept with their text (the same few come back line after line, ``FlagsRead``), by the
    # flags the ruleset reads: read_plain_flags depends on nothing else; collect_flags and build_context on the
    # columns too.
    memo = None if more else parsed.flag_memo
    plain: Context | None = None
    kept: tuple[dict[str, tuple[object, int | None]], list[str], Context, int] | None = None
    if memo is not None:
        found: Any = memo.contexts.get(reads)
        if found is None:
            read = read_plain_flags(parsed.flags, reads)
            found = remember(memo.contexts, reads, False if read is None else read, 64)
        if found is False:  # not the usual flags
            kept = memo.read_at.get(reads)
            if kept is not None and kept[3] != parsed.flags_at:  # the same flags further along the line
                kept = (_shifted(kept[0], parsed.flags_at - kept[3]), kept[1], kept[2], parsed.flags_at)
        else:
            plain = found
    elif not more:
        groups = parsed.flag_groups  # flags first met, read by the fast reader
        plain = read_plain_flags(parsed.flags, reads) if groups is None else read_plain_groups(groups, reads)
    values: dict[str, tuple[object, int | None]] = {}
    ignored: list[str] = []
    if kept is not None:
        values, ignored = kept[0], list(kept[1])
    elif plain is None:
        words = parsed.flags
        values, ignored = collect_flags([*words, *more] if more else words, reads)
    options = request_options(rules, request)
    win: tuple[object, int | None] = (None, None)
    if values:  # flags read one by one (collect_flags; the usual line's are read in one pass, without values)
        options = _line_options(rules, request, values, options)
        if rules.refused_flags:
            for name, (value, column) in values.items():
                if value and name in rules.refused_flags:
                    raise MjcalcError("context", Msg.pair(rules.refused_flags[name]), column)
        win = values.get("win", win)
    hand = build_hand(parsed, tile_rules, win[0], win[1])  # type: ignore[arg-type]
    if plain is not None:
        ctx = plain
    elif kept is not None:
        ctx = kept[2]
    else:
        ctx = build_context(values, reads)
        if memo is not None:  # shared by the lines that write these flags at this column: never written to
            remember(memo.read_at, reads, (values, list(ignored), ctx, parsed.flags_at), 64)
    check_hand(parsed, more, hand, ctx, tile_rules)
    return ReadLine(values, ignored, options, hand, ctx)


def _line_options(rules: Ruleset, request: Request, values: dict[str, tuple[object, int | None]],
                  options: Mapping[str, Any]) -> Mapping[str, Any]:
    """The options of a line that writes +base or +cap (``values``), over those of the request (``options``)."""
    reads = rules.flags
    for key in ("base", "cap"):
        if key in values and key in reads:
            value, column = values[key]
            line_value = rules.options[key].parse(value, f"+{key}")
            given = options_for(rules, request.options, request.lenient) if request.options else request.options
            if key in given and options[key] != line_value:
                raise MjcalcError("context", Msg("+{key}={value} in the line and --set {key}={given} disagree: give "
                                                 "one (nothing is overridden silently)", key=key, value=value,
                                                 given=given[key]), column)
            options = {**options, key: line_value}
    return options


def _shifted(values: dict[str, tuple[object, int | None]], by: int) -> dict[str, tuple[object, int | None]]:
    """Flag values with their columns ``by`` further along (the same flags written further along the line)."""
    out: dict[str, tuple[object, int | None]] = {}
    for name, (value, column) in values.items():
        out[name] = (value, None if column is None else column + by)
    return out


def options_for(rules: Ruleset, options: Mapping[str, Any], lenient: bool) -> Mapping[str, Any]:
    """The options (``--set``) that apply to ``rules``: ``RULESET.NAME`` for this ruleset only, a plain ``NAME``
    to every ruleset that has it. Not ``lenient`` (one line), a plain NAME this ruleset lacks is kept, so that
    ``option_values`` says it is no option here, and so is one aimed at another ruleset."""
    if not lenient and not _any_aimed(options):
        return options
    out: dict[str, Any] = {}
    for key, value in options.items():
        target, dot, name = key.rpartition(".")
        if dot and target != rules.id:
            if not lenient:
                raise MjcalcError("ruleset", Msg("--set {key}: this line is scored by {ruleset}, not {target}", key=key,
                                                 ruleset=rules.id, target=target))
        elif dot or name in rules.options or not lenient:
            out[name] = value
    return out


def _any_aimed(options: Mapping[str, Any]) -> bool:
    """Whether some option is aimed at one ruleset (``RULESET.NAME``): a plain loop, which a compiled module runs
    without the generator any() needs."""
    for key in options:  # noqa: SIM110
        if "." in key:
            return True
    return False


def check_run_options(request: Request) -> None:
    """Before a run of many lines: each ``--set NAME`` must be an option of the run's ruleset or of a built-in
    one, and ``RULESET.NAME`` of that ruleset; each value must read under every ruleset it is checked by."""
    from .ruleset import builtin_names

    main = load_ruleset(request.rules or DEFAULT_RULESET)
    candidates = [main, *(load_ruleset(n) for n in builtin_names() if n != main.id)]
    for key, value in request.options.items():
        target, dot, name = key.rpartition(".")
        if dot:
            found = next((r for r in candidates if r.id == target), None)
            rules = found if found is not None else load_ruleset(target)
            rules.option_values({name: value}, f"--set {key}")
            continue
        having = [r for r in candidates if name in r.options]
        if not having:
            known = sorted({o for r in candidates for o in r.options})
            raise MjcalcError("ruleset", Msg("--set: '{name}' is an option of no ruleset{hint}", name=name,
                                             hint=did_you_mean(name, known)))
        for r in having:
            r.option_values({name: value})


def _score(text: str, parsed: ParsedLine, rules: Ruleset, request: Request, with_wait_scores: bool) -> Result:
    seen = rules_read(rules)
    read = read_line(parsed, rules, request, seen)
    values, ignored, options, hand, ctx = read.values, read.ignored, read.options, read.hand, read.ctx
    wild = NO_WILDCARDS if seen.wildcard == "none" else wildcards(rules, hand, ctx, values)
    waits_of = _WaitsBeforeWin(rules, hand, wild, seen.forms)
    result = Result(text, "win", rules, options, hand, ctx, ignored_flags=ignored, waits_of=waits_of)
    if wild.note:
        result.warnings.append(wild.note)
    if seen.immediate_items:
        immediate = immediate_win(rules, options, hand, ctx, waits_of)
        if immediate is not None:
            scored, failed = immediate
            if scored is None:
                result.result, result.failed = "not_a_win", failed
            else:
                result.best = scored
            return result
    if hand.waiting:
        result.result = "waiting"
        if with_wait_scores:
            result.wait_scores = [score_with_tile(rules, options, hand, ctx, t) for t in result.waits]
        return result
    best, failed, short, counted, tried = _best_reading(rules, options, hand, ctx, wild, waits_of)
    result.readings_tried = tried
    if best is None:
        result.result = "not_a_win"
        result.failed = failed
        result._short, result._short_counted = short, counted
    else:
        if ctx.pao is not None:
            _check_liable(rules, options, best.awards, values)
        result.best = best
    return result


def _check_liable(rules: Ruleset, options: Mapping[str, Any], awards: list[Award],
                  values: Mapping[str, tuple[object, int | None]]) -> None:
    """+pao names a player liable for the hand (責任払い): the hand must hold an item one can be liable for (the
    ruleset's ``liable:`` items under these options); else a context error under +pao."""
    if liable_items(awards, options):
        return
    column = values["pao"][1] if "pao" in values else None
    for a in awards:
        if a.item.liable:  # liable only under an option that is not set so
            raise MjcalcError("context", Msg("+pao: a player is liable for {item} only under the option {option}",
                                             item=a.item.id, option=a.item.liable_option), column)
    known = ", ".join([i.id for i in rules.items if i.is_liable(options)])
    raise MjcalcError("context", Msg("+pao names the player liable for the hand, but it holds none of the items a "
                                     "player can be liable for ({items})", items=known or Msg("none")), column)


def wildcards(rules: Ruleset, hand: Hand, ctx: Context, values: Mapping[str, tuple[object, int | None]]) -> Wildcards:
    """Which tiles are wildcards, by the ruleset's provider, with the context checks each provider needs."""
    if rules.wildcard == "none":
        return NO_WILDCARDS

    def col(flag: str) -> int | None:
        return values.get(flag, (None, None))[1]

    if rules.wildcard == "treasure":
        if hand.waiting:
            return NO_WILDCARDS
        win = hand.win_tile
        # A treasure that is not the winning tile contradicts the flags; the score does not depend on it
        # (the flags decide the items, a drawn treasure stands for the best tile), so say so and go on.
        mismatch = ctx.bao is not None and ctx.bao != win
        if not ctx.mobao:
            note = Msg("+duibao with +bao={bao}: the treasure is normally the winning tile ({win}); 对宝 is scored "
                       "as the flag says", bao=T.name(ctx.bao), win=T.name(win)) if ctx.duibao and mismatch else None  # type: ignore[arg-type]
            return Wildcards(note=note)
        note = Msg("+mobao: the winning tile {win} is read as the treasure drawn (+bao={bao}), a wildcard standing "
                   "for the best tile", win=T.name(win), bao=T.name(ctx.bao)) if mismatch else None  # type: ignore[arg-type]
        return Wildcards(win, 1, True, (T.name(win),), note)  # type: ignore[arg-type]
    if rules.wildcard == "hui":
        kind = ctx.hui
        if ctx.flip is not None:
            flipped = T.next_kind(ctx.flip)
            if kind is not None and kind != flipped:
                raise MjcalcError("context", Msg("+hui={hui} and +flip={flip} disagree: the flip makes {wildcard} the "
                                                 "wildcard", hui=T.name(kind), flip=T.name(ctx.flip),
                                                 wildcard=T.name(flipped)), col("flip"))
            kind = flipped
        if kind is None:
            return NO_WILDCARDS
        if any(m.exposed and kind in m.tiles for m in hand.melds):
            raise MjcalcError("context", Msg("the wildcard {tile} is never used in a chi, pon or exposed kong",
                                             tile=T.name(kind)), col("hui") or col("flip"))
        count = hand.concealed.count(kind)
        win_is_wild = hand.win_tile == kind
        if win_is_wild and not ctx.zimo:
            raise MjcalcError("context", Msg("the winning tile {tile} is the wildcard, which is never discarded: a "
                                             "win on it must be self-drawn (+zimo)", tile=T.name(kind)),
                              col("hui") or col("flip"))
        labels = tuple(T.name(kind) if i == 0 else f"{T.name(kind)}#{i + 1}" for i in range(count))
        return Wildcards(kind, count, win_is_wild, labels)
    return NO_WILDCARDS


NO_WILDCARDS: Final = Wildcards()


class _WaitsBeforeWin:
    """``_waits_before_win`` of one hand, computed on the first call only: the result and every reading share
    it, and most lines never ask (an object with slots costs less to make than a closure, made once a line).
    Without wildcards the waits and the completions (``completions``) come from one pass (``hand_shapes``)."""

    __slots__ = ("ctx", "forms", "found", "hand", "legal", "masks", "options", "play", "rules", "shapes", "wild")

    def __init__(self, rules: Ruleset, hand: Hand, wild: Wildcards, forms: tuple[FormSpec, ...]) -> None:
        """``forms``: the ruleset's (read of it once, ``rules_read``)."""
        self.rules, self.hand, self.wild, self.forms = rules, hand, wild, forms
        self.found: frozenset[int] | None = None
        self.shapes: frozenset[int] | None = None
        self.masks: tuple[int, int] | None = None
        self.legal: frozenset[int] | None = None
        # what ``winning`` scores with, set by the reading that asks (``_best_reading``)
        self.play: Play | None = None
        self.ctx: Context | None = None
        self.options: Mapping[str, Any] = {}

    def winning(self) -> frozenset[int]:
        """The waits on which the hand would win: some reading of it with that tile passes every win condition
        that has a ``when`` (not a ``minimum``, which items decide). A win condition must not ask for these."""
        if self.legal is None:
            play, ctx = self.play, self.ctx
            if play is None or ctx is None:
                return self()
            self.legal = frozenset()  # what a condition asking for these meanwhile would see (not recursion)
            self.legal = frozenset([t for t in self() if self._wins_on(play, ctx, t)])
        return self.legal

    def _wins_on(self, play: Play, ctx: Context, tile: int) -> bool:
        hand = self.hand.with_win(tile)
        wild = self.wild
        jokers = wild.count - (1 if wild.win_is_wild else 0)  # the waited tile is a real one
        kept = Wildcards(wild.kind, jokers, False, wild.labels[:jokers]) if jokers else NO_WILDCARDS
        for sub_hand, subs in _substitutions(play, hand, kept):
            for reading in readings(sub_hand, play.forms):
                c = Candidate(sub_hand, ctx, reading, subs, self, kept.kind, kept.count, self.options, hand,
                              self.completions, self.winning)
                if all(when(c) for _, when in play.checks.asked(c.facts)):
                    return True
        return False

    def __call__(self) -> frozenset[int]:
        if self.found is None:
            mask = self.mask()
            # the usual hand (a mask): per suit from memoised tables (shapewaits), as shape_waits defines them
            self.found = _waits_before_win(self.rules, self.hand, self.wild) if mask is None else kinds_of(mask)
        return self.found

    def mask(self) -> int | None:
        """The waits as a mask (bit t: kind t), without wildcards in the hand before the win; None with them."""
        wild = self.wild
        if wild.count - (1 if wild.win_is_wild else 0):
            return None
        return self._masks()[1]

    def completions(self) -> frozenset[int]:
        """The kinds that complete the shape, kinds the hand holds four of included (with wildcards: the waits)."""
        if self.shapes is None:
            if self.wild.count:
                self.shapes = self()
            else:  # as readings.shape_completions defines them
                self.shapes = kinds_of(self._masks()[0])
        return self.shapes

    def _masks(self) -> tuple[int, int]:
        if self.masks is None:
            hand = self.hand
            self.masks = hand_shapes(hand.without_win(), hand.melds, hand.sets, self.forms)
        return self.masks


def _waits_before_win(rules: Ruleset, hand: Hand, wild: Wildcards) -> frozenset[int]:
    """Shape waits of the hand one tile short of the win (a waiting hand as given, or a win without its tile)."""
    jokers = wild.count - (1 if wild.win_is_wild else 0)
    if not jokers:  # the usual hand: per suit from memoised tables (shapewaits), as shape_waits defines them
        return hand_waits(hand.without_win(), hand.melds, hand.sets, rules.forms)
    concealed = list(hand.without_win())
    for _ in range(jokers):
        concealed.remove(wild.kind)  # type: ignore[arg-type]
    return shape_waits(concealed, hand.melds, hand.sets, rules.forms, jokers)


def best_reading(rules: Ruleset, options: Mapping[str, Any], hand: Hand, ctx: Context, wild: Wildcards,
                 waits: Callable[[], frozenset[int]]) -> tuple[Scored | None, list[Condition], int]:
    """Every reading that passes the win conditions, scored; the one that pays the winner most wins (ties:
    fewer items, then the first found). With none, the failed conditions of the nearest reading."""
    best, failed, short, counted, tried = _best_reading(rules, options, hand, ctx, wild, waits)
    if short is not None:
        failed = [_filled(cond, short, counted) for cond in failed]
    return best, failed, tried


def _best_reading(rules: Ruleset, options: Mapping[str, Any], hand: Hand, ctx: Context, wild: Wildcards,
                  waits: Callable[[], frozenset[int]]
                  ) -> tuple[Scored | None, list[Condition], list[Award] | None, int, int]:
    """``best_reading``, a minimum's message not filled in yet: the failed conditions with the items of the nearest
    reading and what they count toward the minimum (None, 0 when no minimum failed), to fill them in from."""
    play = _in_play(rules, options)
    # The kinds that complete the shape, held fours included (MCR's wait fans); the waits for any other caller.
    completions: Callable[[], frozenset[int]] = waits
    winning: Callable[[], frozenset[int]] | None = None
    if isinstance(waits, _WaitsBeforeWin):
        completions, winning = waits.completions, waits.winning
        waits.play, waits.ctx, waits.options = play, ctx, options
    best: Scored | None = None
    best_key: tuple[int, ...] | None = None
    nearest: list[Condition] | None = None
    nearest_key: tuple[int, int] = (0, 0)  # fewer conditions failed, then more toward a minimum
    short_awards: list[Award] | None = None  # the items of the nearest reading, when it is short of a minimum
    awards: list[Award] | None
    tried = 0
    # A class-blind ruleset (joker_sets: by_class) cannot tell apart readings of one class: score the first.
    seen: set[tuple[object, ...]] | None = set() if play.by_class else None
    for sub_hand, subs in _substitutions(play, hand, wild):
        for reading in readings(sub_hand, play.forms):
            tried += 1
            if seen is not None:
                key = reading_class(reading)
                if key in seen:
                    continue
                seen.add(key)
            c = Candidate(sub_hand, ctx, reading, subs, waits, wild.kind, wild.count, options, hand, completions,
                          winning)
            failed = None
            counted = 0
            awards = None
            for cond, when in play.checks.asked(c.facts):
                if not when(c):
                    failed = [cond] if failed is None else [*failed, cond]
            if failed is None:
                awards, counted = _evaluate(play.items, c)
                if play.minimums:
                    failed = _short_of(play.minimums, play.minimum_values, counted)
            if failed:
                near = (len(failed), -counted)
                if nearest is None or near < nearest_key:
                    # A minimum's message is filled in from the items once, for the nearest reading only.
                    nearest, nearest_key, short_awards = failed, near, awards
                continue
            assert awards is not None
            settlement = play.settle(c, awards)
            if best is None:  # ranked only against another reading that passes: most hands have one
                best = Scored(c, awards, settlement)
                continue
            if best_key is None:
                best_key = _rank(play, best.candidate, best.awards, best.settlement)
            rank = _rank(play, c, awards, settlement)
            if rank > best_key:
                best, best_key = Scored(c, awards, settlement), rank
    if best is not None:
        return best, [], None, 0, tried
    if short_awards is not None and nearest is not None:
        return None, nearest, short_awards, -nearest_key[1], tried
    if nearest is None:
        shape = next((cond for cond in rules.conditions if cond.id == "shape"), None)
        nearest = [shape] if shape else [Condition("shape", {"en": "shape", "zh": "牌型"},
                                                   {"en": "not a winning shape", "zh": "不是和牌牌型"}, None, "")]
    return None, nearest, None, 0, tried


def _rank(play: Play, c: Candidate, awards: list[Award], settlement: Settlement) -> tuple[int, ...]:
    """How a reading that passes ranks among the others (higher is better)."""
    return (settlement.uncapped_total, *settlement.rank, *play.tie(c, awards))


def immediate_win(rules: Ruleset, options: Mapping[str, Any], hand: Hand, ctx: Context,
                  waits: Callable[[], frozenset[int]]) -> tuple[Scored | None, list[Condition]] | None:
    """An immediate win (an item with ``immediate: true`` holds, such as a flower win): the hand wins whatever
    its tiles, of a winning size or one short, read as no sets at all; the items that hold then are scored as
    usual (the immediate item's ``excludes`` says which others stand). Only ``minimum`` conditions apply (the
    others are about the tiles); failing one, the scored part is None with the conditions failed. None when no
    immediate item holds."""
    c = Candidate(hand, ctx, _new(Reading, (IMMEDIATE, (), None, None)), {}, waits, options=options)
    if not any(item.is_enabled(options) and item.when(c) for item in rules.immediate_items):
        return None
    play = _in_play(rules, options)
    awards = evaluate_items(play.items, c)
    if not any(a.item.immediate for a in awards):
        return None
    failed = below_minimum(play.minimums, awards)
    if failed:
        return None, failed
    return Scored(c, awards, play.settle(c, awards)), []


def _substitutions(play: Play, hand: Hand, wild: Wildcards) -> list[tuple[Hand, dict[str, str]]]:
    """The hand with its wildcards substituted every way, also read with its winning tile completing a
    special set in hand (叫胡) where the ruleset allows it; what each wildcard stood for alongside."""
    specials = play.specials
    called = set_call_hands(hand, wild, specials) if specials else []
    if not wild.count and not called:  # the usual hand: itself
        return [(hand, {})]
    return [(sub_hand, {**called_subs, **subs}) for variant, rest, called_subs in [(hand, wild, {}), *called]
            for sub_hand, subs in substituted_hands(variant, rest, play.forms, play.by_class)]



# The engine's bound structures are made once per ruleset and options and read for every reading: slotted
# classes, whose fields Python reads fastest (a named tuple's fields and properties take a slower path).
class Play:
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
        # each of its attributes costs a compiled module a Python-level look-up (callgrind: ~250 instructions each).
        self.forms: Final = forms
        self.by_class: Final = by_class  # joker_sets: by_class
        self.specials: Final = specials  # the tile rules' special kongs
        self.minimum_values: Final = minimum_values  # each of ``minimums``' minimum, in order


_IN_PLAY: Final[dict[tuple[int, tuple[tuple[str, Any], ...]], Play]] = {}
# Items and conditions bound by the values of the options that decide them (Ruleset.binding_options) alone:
# option sets that differ only in, say, the formula's options share one binding, the costly part of a Play.
_BOUND: dict[tuple[int, tuple[Any, ...]], tuple[Ruleset, BoundItems, Checks, tuple[Condition, ...]]] = {}


# The Play of each options mapping itself (option_values gives the same one for the same overrides), kept with
# it so that its id stays its own: most lines find theirs here without building a key of the option values.
_PLAY_OF: Final[dict[int, tuple[Mapping[str, Any], Play]]] = {}


def _in_play(rules: Ruleset, options: Mapping[str, Any]) -> Play:
    mine = _PLAY_OF.get(id(options))
    if mine is not None and mine[0] is options and mine[1].rules is rules:
        return mine[1]
    key = (id(rules), tuple(options.items()))  # option_values builds them in the ruleset's order
    found = _IN_PLAY.get(key)
    if found is None or found.rules is not rules:
        bound_key = (id(rules), tuple(options.get(name) for name in rules.binding_options))
        bound = _BOUND.get(bound_key)
        if bound is None or bound[0] is not rules:
            conditions = tuple(c for c in rules.conditions if c.is_enabled(options))
            checks = _checks(conditions)
            minimums = tuple(replace(c, minimum=int(options[c.minimum_option])) if c.minimum_option else c
                             for c in conditions if c.minimum is not None)
            bound = remember(_BOUND, bound_key, (rules, bound_items(rules, options), checks, minimums), 1024)
        minimums = bound[3]
        found = remember(_IN_PLAY, key, Play(rules, *bound[1:], settler(rules, options), tie_key(rules), rules.forms,
                                             rules.joker_sets == "by_class", rules.tile_rules.special_kongs,
                                             tuple(int(cond.minimum) for cond in minimums)), 1024)  # type: ignore[arg-type]
    remember(_PLAY_OF, id(options), (options, found), 1024)
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
        in_context, in_shape = reads & CONTEXT_FACTS, reads & ~CONTEXT_FACTS
        out.append(Tier(items, in_context, in_shape, memos[0], memos[1], memos[2],
                        _grouped([b.gate & _on(in_context) for b in items]),
                        _grouped([b.gate & _on(in_shape) for b in items]), in_context | in_shape, memos[3]))
    return tuple(out)


def _on(facts: int) -> int:
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
        # A tallied predicate's item (predicates.tallied): the tally that counts it with others, once a reading,
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
    eight ints are each checked and unboxed (callgrind: ``_met_bits`` ~13,200 instructions for new facts of an MCR
    tier as tuples, ~3,800 so)."""

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
        # riichi hands after a few thousand), one look-up instead of three (callgrind: ~1,500 instructions a hit
        # less).
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
        while word:  # a byte at a time, not a bit (callgrind: ~7,400 instructions for new MCR items, ~6,600 so)
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
    2 * WIDTH bits, and each test on it as one int is a big-int operation (callgrind: ~20,000 instructions for the
    37 gates of a new MCR reading's facts, against ~3,000 on words)."""
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


assert WIDTH <= 3 * WORD, "facts.WIDTH outgrew the three words of engine._words"


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
        # Of each condition, the answer from the facts when they decide it (predicates.DECIDED), else None.
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
                    awards.append(b.award if n == 1 else _new(Award, (b.item, b.value, int(n))))
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
                    awards.append(b.award if n == 1 else _new(Award, (b.item, b.value, int(n))))
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
            out.append(a if left == a.count else _new(Award, (a.item, a.value, left)))
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
    return [_filled(cond, awards, counted) for cond in failed]


def _short_of(conditions: tuple[Condition, ...], minimums: tuple[int, ...], counted: int) -> list[Condition] | None:
    """``below_minimum``'s conditions (each with a minimum, ``minimums``), their messages not filled in yet (None when
    none fails)."""
    failed = None
    for i in range(len(minimums)):
        if counted < minimums[i]:
            failed = [conditions[i]] if failed is None else [*failed, conditions[i]]
    return failed


# The conditions filled in (``_filled``), by the condition and the items its message lists: hands without a yaku
# come back with the same few items, and filling one in costs ~40,000 instructions (callgrind). By identity: the
# entry holds the condition and the items, so that no other object can take their ids while it is kept.
_FILLED: Final[dict[tuple[int, int, tuple[tuple[int, int, int], ...]],
                    tuple[Condition, tuple[Award, ...], Condition]]] = {}


def _filled(cond: Condition, awards: list[Award], counted: int) -> Condition:
    key = (id(cond), counted, tuple([(id(a.item), a.value, a.count) for a in awards]))
    found = _FILLED.get(key)
    if found is None:
        found = remember(_FILLED, key, (cond, tuple(awards), _fill(cond, awards, counted)), 1024)
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
    """``dataclasses.replace(cond, message=message, reached=counted)``, for a fraction of its cost (~36,000
    instructions, callgrind: a hand short of a minimum makes one): the fields copied as they are, two of them new.
    The condition is frozen once made; this is its making."""
    made: Condition = object.__new__(Condition)
    made.__dict__.update(cond.__dict__)
    made.__dict__["message"] = message
    made.__dict__["reached"] = counted
    return made


def score_with_tile(rules: Ruleset, options: Mapping[str, Any], hand: Hand, ctx: Context, tile: int) -> WaitScore:
    """What a waiting hand would score if ``tile`` completed it, in the context given."""
    unseen = 4 - hand.all_tiles().count(tile)
    full = hand.with_win(tile)
    try:
        wild = wildcards(rules, full, ctx, {})
    except MjcalcError as exc:  # e.g. a discard win on a wildcard: that wait cannot be won this way
        return WaitScore(tile, unseen, Result(full.text(), "error", rules, dict(options), full, ctx, error=exc))
    best, failed, _ = best_reading(rules, options, full, ctx, wild, _WaitsBeforeWin(rules, full, wild, rules.forms))
    res = Result(full.text(), "win" if best else "not_a_win", rules, dict(options), full, ctx, best=best, failed=failed)
    return WaitScore(tile, unseen, res)
