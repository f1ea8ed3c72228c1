"""One line through the pipeline: the line read (core/notation.py), its ruleset found and loaded (``+rules=``,
the request's, the default: mjcalc.ruleset), its flags, options, hand and context read and checked, then the
best reading searched (core/search.py). ``score_line`` never raises for bad input: a line it cannot read is a
Result with the error. ``analyse`` does the same for a hand one tile short, each wait scored both ways (the
``waits`` command)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

from .config import DEFAULT_RULESET
from .core import tiles as T
from .core.context import (
    ALIASES,
    SHORTHANDS,
    Context,
    build_context,
    check_hand,
    collect_flags,
    read_plain_flags,
    read_plain_groups,
)
from .core.hand import Hand, build_hand
from .core.model import Ruleset
from .core.notation import FlagsRead, FlagWord, ParsedLine, parse_line
from .core.readings.shanten import shanten
from .core.readings.waits import WaitsBeforeWin
from .core.readings.wildcards import NO_WILDCARDS, wildcards
from .core.result import Result, WaitScore
from .core.search import find_best_reading, immediate_win, score_with_tile
from .errors import MjcalcError, RulesetError, did_you_mean
from .i18n import Msg
from .registry import RESULT_CHECKS, WILDCARD_PROVIDERS
from .ruleset.loader import check_builtin, check_config_options, load_ruleset
from .support.builtin import builtin_names
from .support.memo import LastAnswer, remember



class Request:
    """What the caller adds to a line: a ruleset, options (``--set``) and flags given as CLI options. A native class
    when compiled (a line reads its ruleset and flags, and compiled code reads a native class's fields directly),
    pickled (``__reduce__``) to the processes of a batch (--jobs)."""

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


def checked_request(rules: str | None, options: Mapping[str, Any] | None, builtin_only: bool = False) -> Request:
    """The Request for a call, its ruleset and options checked once (a mistake raises RulesetError)."""
    if rules is not None and not isinstance(rules, str):
        raise TypeError(f"rules is a ruleset name or a path to a .yaml file, not {type(rules).__name__}")
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"options is a mapping of option name to value, not {type(options).__name__}")
    request = Request(rules, dict(options or {}), builtin_only=builtin_only)
    try:
        if builtin_only and rules is not None:
            check_builtin(rules, "rules")
        load_ruleset(rules or DEFAULT_RULESET).option_values(request.options, "options")
    except MjcalcError as exc:
        raise RulesetError(exc.kind, exc.message, exc.column) from None
    return request


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


class RulesetFields:
    """What every line reads of its ruleset, read once (``ruleset_fields``): a Ruleset is a Python-level object, each
    field a look-up for compiled code, some seven a riichi line (a batch's record reads two)."""

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
_FIELDS_OF: Final[dict[int, RulesetFields]] = {}


def ruleset_fields(rules: Ruleset) -> RulesetFields:
    """What lines read of ``rules``, read once."""
    found = _FIELDS_OF.get(id(rules))
    if found is None or found.rules is not rules:
        found = remember(_FIELDS_OF, id(rules), RulesetFields(rules), 64)
    return found


class CheckedLine:
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
    found = _LAST_OPTIONS.get(request, rules)  # most lines come with the request and ruleset of the line before
    return _LAST_OPTIONS.put(request, rules, options_of(rules, request)) if found is None else found


_LAST_OPTIONS: Final = LastAnswer()


def options_of(rules: Ruleset, request: Request) -> Mapping[str, Any]:
    """``request_options`` worked out, without the memo (the plain version)."""
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
# (their names, then their values: two tuples, not one pair a name), looked up here first: core/model.py is not
# compiled, and a call into it is dear; this look-up also spares
# ``options_for``. The same mapping either way.
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


def read_line(parsed: ParsedLine, rules: Ruleset, request: Request, fields: RulesetFields | None = None) -> CheckedLine:
    """The first half of scoring a line: flags, options, hand and context, checked (``fields``:
    ``ruleset_fields(rules)``, when the caller has it)."""
    # The usual line's flags are read in one pass; any other line's by collect_flags, then build_context below.
    # What is read more than once of the line, the request and the ruleset (Python objects) is read once.
    # The line's FlagWords (``parsed.flags``) are asked for only where columns or an unusual line need them.
    if fields is None:
        fields = ruleset_fields(rules)
    more, reads, tile_rules = request.flags, fields.flags, fields.tile_rules
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
    return CheckedLine(values, ignored, options, hand, ctx)


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
    fields = ruleset_fields(rules)
    read = read_line(parsed, rules, request, fields)
    values, ignored, options, hand, ctx = read.values, read.ignored, read.options, read.hand, read.ctx
    wild = NO_WILDCARDS if fields.wildcard == "none" else wildcards(fields.wildcard, hand, ctx, values)
    waits_of = WaitsBeforeWin(hand, wild, fields.forms)
    result = Result(text, "win", rules, options, hand, ctx, ignored_flags=ignored, waits_of=waits_of)
    if wild.note:
        result.warnings.append(wild.note)
    if fields.immediate_items:
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
    best, failed, short, counted, tried = find_best_reading(rules, options, hand, ctx, wild, waits_of)
    result.readings_tried = tried
    if best is None:
        result.result = "not_a_win"
        result.failed = failed
        result._short, result._short_counted = short, counted
    else:
        for flag, check in RESULT_CHECKS:  # a family's checks of the scored hand against its flags (+pao)
            if ctx.values.get(flag) is not None:
                check(rules, options, best.awards, values)
        result.best = best
    return result


class WaitReport:  # a plain class: a dataclass's methods are compiled from source when the module is imported
    __slots__ = ("result", "shanten", "waits", "wild_draw")

    def __init__(self, result: Result, shanten: int | None = None,
                 waits: list[tuple[WaitScore, WaitScore]] | None = None, wild_draw: WaitScore | None = None) -> None:
        self.result = result  # the line read as a waiting hand (or the error / the complete hand)
        self.shanten = shanten
        self.waits: list[tuple[WaitScore, WaitScore]] = [] if waits is None else waits  # (self-drawn, on a discard)
        self.wild_draw = wild_draw  # drawing the treasure / a wildcard, self-drawn (it is never discarded)


def analyse(text: str, request: Request | None = None) -> WaitReport:
    """Read a line one tile short and work out its waits under both ways of winning."""
    result = score_line(text, request or Request(), with_wait_scores=False)
    report = WaitReport(result)
    if result.result != "waiting" or result.ruleset is None or result.hand is None or result.ctx is None:
        return report
    rules, hand, ctx = result.ruleset, result.hand, result.ctx
    report.shanten = shanten_of(result)
    self_ctx = ctx.replace(zimo=True, discarder=None)
    discard_ctx = ctx if not ctx.zimo else ctx.replace(zimo=False, discarder=T.next_seat(ctx.seat, 2))
    for tile in result.waits:
        report.waits.append((score_with_tile(rules, result.options, hand, self_ctx, tile),
                             score_with_tile(rules, result.options, hand, discard_ctx, tile)))
    for zimo in called_set_waits(result, self_ctx):
        report.waits.append((zimo, score_with_tile(rules, result.options, hand, discard_ctx, zimo.tile)))
        report.shanten = 0
    report.waits.sort(key=lambda pair: pair[0].tile)
    if report.waits:
        report.wild_draw = wild_draw(result, self_ctx)
    return report


def called_set_waits(result: Result, self_ctx: Any) -> list[WaitScore]:
    """The self-drawn wins of a waiting hand whose winning tile completes a special set in hand (Meihe's 中发白
    叫胡, kinds with ``last_set``), which are no shape waits; the kinds the shape waits have are left out."""
    rules, hand = result.ruleset, result.hand
    assert rules is not None and hand is not None
    kinds = {k for sk in rules.tile_rules.special_kongs if sk.last_set for k in sk.core} - set(result.waits)
    found = [score_with_tile(rules, result.options, hand, self_ctx, kind) for kind in sorted(kinds)]
    return [w for w in found if w.result is not None and w.result.best is not None]


def shanten_of(result: Result) -> int | None:
    """How many tiles a waiting hand (one tile short) is from ready: 0 when some tile completes it."""
    if result.result != "waiting" or result.hand is None or result.ruleset is None or result.ctx is None:
        return None
    hand = result.hand
    if result.waits or called_set_waits(result, result.ctx.replace(zimo=True, discarder=None)):
        return 0
    return shanten(list(hand.concealed), len(hand.melds), hand.sets, result.ruleset.forms)


def wild_draw(result: Result, self_ctx: Context) -> WaitScore | None:
    """A ready hand that draws the wildcard of its ruleset's provider (``wildcard:``), self-drawn: the provider
    says which tile and in what context it wins (the treasure won as 摸宝, the 会牌 standing for the best wait);
    None where there is none."""
    rules, hand = result.ruleset, result.hand
    assert rules is not None and hand is not None
    provider: Any = WILDCARD_PROVIDERS.get(rules.wildcard)
    drawn = None if provider is None else provider.drawn(rules.flags, self_ctx)
    if drawn is None:
        return None
    tile, ctx = drawn
    return score_with_tile(rules, result.options, hand, ctx, tile)
