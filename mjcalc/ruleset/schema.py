"""The grammar of a ruleset file, declared once as a JSON Schema (draft 2020-12), and checking a file by it.

``ruleset_schema()`` is the whole grammar: every key, its type, the range of every number, the words a
field may take. What a file *names* — predicates, formula kinds, forms, flags, options, other items, kong
finders, tiles — is checked against the registries in code (``ruleset.validate._Validator``), so a new predicate,
form or formula needs no change here. A new key or formula parameter does: add it below, in one place,
with its range; ``rules/SCHEMA.md`` documents it, and tests/test_ruleset_hostile.py holds the two together.

The built-in files are trusted at run time (the test suite validates each one); a user's file is validated
when it is loaded, which imports the validation library (``jsonschema``) only then. ``problem()`` turns the
library's most relevant error into one message naming the entry (``item 'single_wait'``) and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.model import OPTION_INT
from ..core.settlement.formulas import MAX_POWER
from ..i18n import N_
from ..registry import FORMULA_NEEDS, PREDICATE_PARAMS
from ..registry import WILDCARD_PROVIDERS as _PROVIDERS
from ..support.builtin import builtin_dir
from ..support.yamlfile import MAX_DEPTH, MAX_ENTRIES, MAX_FILE_BYTES, MAX_NODES, MAX_NUMBER_DIGITS

# --- the words of the grammar (ruleset.py reads them from here) ------------------------------------------

SCOPES = {  # each scope in words (render translates them: mjcalc/i18n.py)
    "all": N_("every payer"),
    "discarder": N_("the discarder only"),
    "dealer_paying": N_("the dealer, when paying"),
    "dealer_involved": N_("every payment between the dealer and another player"),
    "closed_payers": N_("each payer whose hand is closed (+closed=…)"),
}
OPTION_TYPES = ("int", "bool", "choice", "int_or_none")
JOKER_SETS = ("every_tile", "by_class")


def wildcard_providers() -> tuple[str, ...]:
    """The words ``wildcard:`` may be: none, or a family's provider (mjcalc.registry.WILDCARD_PROVIDERS)."""
    return ("none", *_PROVIDERS)
CAP_SCOPES = ("per_player_net", "per_payer")
DISCARD_PAYERS = ("all_losers", "discarder")
# The words of a ruleset's `game:` section (the game engine, mjcalc/game, reads them; docs/GAME.md describes them).
GAME_REPEATS = ("dealer_wins", "dealer_ready", "draw")  # what keeps the deal with its dealer
GAME_LABELS = ("dealer_in_round", "hand_in_round")  # 东1局 2本场 | 东风圈 第2盘
GAME_ABORTS = ("nine_terminals", "four_winds", "four_riichi", "four_kongs", "triple_ron")
GAME_EXTENSIONS = ("rounds", "sudden_death", "none")
GAME_LEFTOVER = ("to_first", "lost")
GAME_POINTS = ("first_balances", "shared")  # how final points are made (mjcalc/game/standing.py)
GAME_ROUNDING = ("none", "thousand")
GAME_TIES = ("seat", "share")

# --- what the parameters of forms take ----------------------------------------------------------------------
# A predicate declares its own (``predicates.binding.params``: mjcalc.registry.PREDICATE_PARAMS); a parameter is
# ``bool``, ``int`` (in RANGES["param_int"]), ``str``, a tuple of words, or a function returning the words it may be.
# The parameters of each winning form (``forms: [{seven_pairs: {allow_four: true}}]``), as above.
FORM_PARAMS: dict[str, dict[str, Any]] = {
    "seven_pairs": {"allow_four": bool},
}


class Number:
    """A parameter that is a whole number in ``RANGES[range]`` (``int`` alone means the "param_int" range);
    ``none``: null is allowed too (no cap). (A plain class: a NamedTuple is made by compiling its ``__new__`` at
    every command's start-up.)"""

    __slots__ = ("range", "none")

    def __init__(self, range: str = "param_int", none: bool = False) -> None:  # noqa: A002  (the RANGES key)
        self.range = range
        self.none = none

    def __repr__(self) -> str:
        return f"Number(range={self.range!r}, none={self.none!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Number) and (self.range, self.none) == (other.range, other.none)

    def __hash__(self) -> int:
        return hash((self.range, self.none))


# The parameters of ``formula:`` (any kind) and of ``payments:``; each may also be {option: NAME} naming an
# option of a fitting type. A new formula kind with parameters of its own adds them here.
FORMULA_PARAMS: dict[str, Any] = {
    "start": Number("start"),
    "base": Number("option_int"),
    "cap": Number("option_int", none=True),
    "cap_scope": CAP_SCOPES,
    "fan_cap": Number("option_int", none=True),
    "per_fan": Number("option_int"),  # additive: base + per_fan × fan
}
PAYMENT_PARAMS: dict[str, Any] = {
    "discard": DISCARD_PAYERS,
    "cover": bool,
    "cover_flag": str,  # an on/off flag's name (ruleset.py checks it)
    "fan_on_discard": ("discarder",),  # on a discard win only the discarder pays on the fan (MCR)
}


def _number_of(spec: Any) -> Number | None:
    return Number() if spec is int else spec if isinstance(spec, Number) else None


def param_problem(spec: Any, value: Any) -> str | None:
    """What is wrong with a parameter's value by its spec (PREDICATE_PARAMS, FORM_PARAMS, FORMULA_PARAMS …):
    the words for what it takes, or None."""
    number = _number_of(spec)
    if number is not None:
        low, high, _ = RANGES[number.range]
        if value is None and number.none:
            return None
        ok = isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
        return None if ok else f"a whole number from {low} to {high}{' or null' if number.none else ''}"
    if spec is bool:
        return None if isinstance(value, bool) else "true or false"
    if spec is str:
        return None if isinstance(value, str) else "text"
    words = spec() if callable(spec) else spec
    return None if isinstance(value, str) and value in words else f"one of {', '.join(words)}"


def option_fits(spec: Any, kind: str, choices: Sequence[str]) -> str | None:
    """Whether an option of this type (and choices) can stand for a parameter of this spec; else what it
    would need to be."""
    number = _number_of(spec)
    if number is not None:
        return None if kind == "int" or (number.none and kind == "int_or_none") else \
            f"an int{' or int_or_none' if number.none else ''} option"
    if spec is bool:
        return None if kind == "bool" else "a bool option"
    if spec is str:
        return None
    words = spec() if callable(spec) else spec
    return None if kind == "choice" and set(choices) <= set(words) else f"a choice option among {', '.join(words)}"


def _json_of(spec: Any) -> dict[str, Any]:
    number = _number_of(spec)
    if number is not None:
        low, high, _ = RANGES[number.range]
        schema: dict[str, Any] = {"type": ["integer", "null"] if number.none else "integer",
                                  "minimum": low, "maximum": high}
        return schema
    if spec is bool:
        return {"type": "boolean"}
    if spec is str:
        return {"type": "string", "pattern": ID_PATTERN, "maxLength": 64}
    return {"enum": list(spec() if callable(spec) else spec)}


def _describe(spec: Any) -> str:
    number = _number_of(spec)
    if number is not None:
        low, high, _ = RANGES[number.range]
        return f"a whole number from {low} to {high}{' or null' if number.none else ''}"
    return {bool: "true or false", str: "a name"}.get(spec) or " | ".join(spec() if callable(spec) else spec)


# --- the range of every number (rules/SCHEMA.md lists them; a test keeps the two the same) ---------------
# name: (least, most, what it is)
RANGES: dict[str, tuple[int, int, str]] = {
    "value": (-1000, 1000, "an item's value (fan, tai, han), and each value of `values:` / `closed:` / `open:` "
                           "(below 0: an adjustment, such as 字一色's less 4)"),
    "sets": (1, 5, "`tiles.sets`: sets besides the pair (4; 5 for 16-tile rules)"),
    "min_distinct": (1, 9, "`special_kongs.*.min_distinct`"),
    "kong_points": (0, 1000, "kong points: `points`, `extra_points`, `per_tile`, `exposed`, `concealed`"),
    "minimum": (1, 1000, "a win condition's `minimum`"),
    "start": (0, 100, "`formula.start`"),
    "option_int": (*OPTION_INT, "an int option's value (`default:`, `--set`, the config's `set:`), "
                                     "and a number written directly for `formula.base`, `cap`, `fan_cap`"),
    "param_int": (0, 100, "a whole-number parameter of a predicate or a form"),
    "game_points": (0, 1_000_000_000, "`game:` points: `start`, `target`, a deposit, a payment, `return`"),
    "game_count": (0, 100, "`game:` counts: rounds, hands, honba steps"),
    "game_uma": (-1000, 1000, "`game: points: uma`, each place's"),
}
LIMITS: dict[str, tuple[int, str]] = {
    "items": (500, "items"),
    "win_conditions": (100, "win conditions"),
    "options": (100, "options"),
    "choices": (50, "choices of one option"),
    "flags": (100, "flags"),
    "forms": (20, "forms"),
    "tiers": (10, "tiers"),
    "kongs": (50, "kong rows, and as many special kongs"),
    "tiles": (34, "tiles in one list (`core`, `wild`, `tiles` …)"),
    "when": (100, "parts of one `any` / `all`"),
    "text": (10_000, "characters of a text (`description`, `doc` …); names and ids: 200"),
    "extends": (8, "files in a chain of `extends:`"),
}
MAX_TEXT = LIMITS["text"][0]
MAX_NAME = 200
ID_PATTERN = r"^[a-z][a-z0-9_]*$"  # items, win conditions, options, kongs, tiers
RULESET_ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
PREDICATE_PATTERN = r"^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)?$"  # hooks register theirs as `ruleset.name`
LANG_PATTERN = r"^[a-z]{2,3}$"
TILE_PATTERN = r"^([0-9][mps]|[1-7]z|[ESWNPFC]|[东南西北白发中])$"


def _int(name: str) -> dict[str, Any]:
    low, high, _ = RANGES[name]
    return {"type": "integer", "minimum": low, "maximum": high}


def _text(limit: int = MAX_TEXT) -> dict[str, Any]:
    return {"type": "string", "maxLength": limit}


def _texts() -> dict[str, Any]:
    """A text the user reads (a description, a doc): one text, or the text by language, as ``names``."""
    return {"description": "a text, or the text by language: {en: …, zh: …}",
            "anyOf": [_text(), {"type": "object", "propertyNames": {"pattern": LANG_PATTERN}, "minProperties": 1,
                                "maxProperties": 10, "additionalProperties": _text()}]}


def _id(pattern: str = ID_PATTERN) -> dict[str, Any]:
    return {"type": "string", "pattern": pattern, "minLength": 1, "maxLength": 64}


def _list(items: Mapping[str, Any], limit: str, **more: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, "maxItems": LIMITS[limit][0], **more}


def _object(properties: Mapping[str, Any], required: Sequence[str] = (), **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": dict(properties), "additionalProperties": False, **more}
    if required:
        out["required"] = list(required)
    return out


def _keyed(entry: Mapping[str, Any], limit: str) -> dict[str, Any]:
    """A mapping of id: entry (options, kongs, special kongs)."""
    return {"type": "object", "propertyNames": _id(), "additionalProperties": entry, "maxProperties": LIMITS[limit][0]}


OPTION_REF = {"$ref": "#/$defs/option_ref"}
TILES = {"$ref": "#/$defs/tiles"}


def ruleset_schema(partial: bool = False) -> dict[str, Any]:
    """The JSON Schema of a ruleset file. ``partial``: of a file that ``extends:`` another, which lists only
    what differs, so nothing is required (the merged ruleset is then checked as a whole by ruleset.py)."""
    def need(*keys: str) -> tuple[str, ...]:
        return () if partial else keys

    names = {"type": "object", "required": list(need("zh", "en")), "propertyNames": {"pattern": LANG_PATTERN},
             "additionalProperties": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
             "maxProperties": 10,
             "description": "names by language: {zh: …, en: …} (both required; ja … optional)"}
    scalar = {"type": ["string", "integer", "boolean", "null"], "maxLength": MAX_NAME,
              "minimum": -RANGES["param_int"][1], "maximum": RANGES["param_int"][1]}
    params = {"type": ["object", "null"], "propertyNames": _id(), "maxProperties": 10,
              "additionalProperties": {"anyOf": [scalar, OPTION_REF]},
              "description": "parameters: {name: a word, a whole number, true / false, or {option: NAME}}"}
    when = {
        "description": "a predicate name, {name: {params}}, or {any: [...]}, {all: [...]}, {not: ...}",
        "anyOf": [
            {"type": "string", "pattern": PREDICATE_PATTERN, "maxLength": 100},
            {"type": "object", "minProperties": 1, "maxProperties": 1, "propertyNames": {"maxLength": 100},
             "properties": {"any": _list({"$ref": "#/$defs/when"}, "when", minItems=1),
                            "all": _list({"$ref": "#/$defs/when"}, "when", minItems=1),
                            "not": {"$ref": "#/$defs/when"}},
             "additionalProperties": params},
        ],
    }
    value = {
        "description": "a whole number, {option: NAME}, or {option: NAME, values: {VALUE: number …}}",
        "anyOf": [
            _int("value"),
            _object({"option": _id(), "values": {"type": "object", "minProperties": 1,
                                                 "maxProperties": LIMITS["choices"][0],
                                                 "additionalProperties": {"$ref": "#/$defs/value"}}},
                    required=["option"]),
        ],
    }
    item_value = {
        "description": "a whole number, {option: NAME}, {option: NAME, values: {…}}, or {closed: V, open: V}",
        "anyOf": [{"$ref": "#/$defs/value"},
                  _object({"closed": {"$ref": "#/$defs/value"}, "open": {"$ref": "#/$defs/value"}},
                          required=["closed", "open"])],
    }
    enabled = _object({"option": _id(), "is": {"anyOf": [scalar, _list(scalar, "choices", minItems=1)]}},
                      required=["option"],
                      description="{option: NAME} (a bool option) or {option: NAME, is: VALUE or [VALUES]}")

    def ref_or(schema: Mapping[str, Any], what: str) -> dict[str, Any]:
        return {"description": f"{what}, or {{option: NAME}}", "anyOf": [dict(schema), OPTION_REF]}

    item = _object({
        "id": _id(), "names": names, "value": item_value, "when": {"$ref": "#/$defs/when"},
        "applies_to": {"enum": list(SCOPES)},
        "excludes": {"description": 'a list of item ids and {ID: N} (N of its count), "*" (every other item), '
                                    'or {all_but: [ids]} (every other item but these)',
                     "anyOf": [{"const": "*"}, _list({"anyOf": [_id(), {
                         "type": "object", "minProperties": 1, "maxProperties": 1, "propertyNames": _id(),
                         "additionalProperties": {"type": "integer", "minimum": 1,
                                                  "maximum": RANGES["param_int"][1]}}]}, "items"),
                               _object({"all_but": _list(_id(), "items")}, required=["all_but"])]},
        "immediate": {"type": "boolean"},
        "liable": {"description": "true (a player named by +pao pays for a hand holding the item: 責任払い), or "
                                  "{option: NAME} / {option: NAME, is: VALUE}: so while that option says so",
                   "anyOf": [{"type": "boolean"}, enabled]},
        "enabled": enabled, "doc": _texts(), "tier": _id(), "bonus": {"type": "boolean"},
        "fallback": {"type": "boolean"},
        "remove": {"type": "boolean"},
    }, required=("id", *need("names", "value", "when")))
    condition = _object({
        "id": _id(), "names": names, "message": {**names, "additionalProperties": _text(2000),
                                                 "description": "what the user reads: {zh: …, en: …}"},
        "when": {"$ref": "#/$defs/when"}, "enabled": enabled,
        "minimum": {"description": "a whole number, or {option: NAME} (an int option; 0: no minimum)",
                    "anyOf": [_int("minimum"), OPTION_REF]},
        "remove": {"type": "boolean"},
    }, required=("id",))
    option = _object({
        "type": {"enum": list(OPTION_TYPES)},
        "default": scalar | {"minimum": RANGES["option_int"][0], "maximum": RANGES["option_int"][1]},
        "doc": _texts(),
        "choices": _list({"type": ["string", "boolean", "integer"], "maxLength": 64,
                          "minimum": 0, "maximum": RANGES["option_int"][1]}, "choices", minItems=1, uniqueItems=True),
    })
    special_kong = _object({
        "names": names, "core": TILES, "min_distinct": _int("min_distinct"), "extra_from": TILES, "wild": TILES,
        "points": _int("kong_points"), "extra_points": _int("kong_points"), "per_tile": _int("kong_points"),
        "last_set": {"type": "boolean"},
    })
    kong = _object({
        "names": names, "points": _int("kong_points"), "tiles": TILES, "exposed": _int("kong_points"),
        "concealed": _int("kong_points"), "wildcard": {"type": "boolean"},
        "found_by": {"type": "string", "pattern": PREDICATE_PATTERN, "maxLength": 100},
    })
    formula = _object({
        "kind": {"type": "string", "pattern": PREDICATE_PATTERN, "maxLength": 100},
        **{key: ref_or(_json_of(spec), _describe(spec)) for key, spec in FORMULA_PARAMS.items()},
    }, required=need("kind"), description="{kind: NAME, and its parameters}")
    payments = _object({key: ref_or(_json_of(spec), _describe(spec)) for key, spec in PAYMENT_PARAMS.items()})
    form = {"description": "a form name, or {name: {parameters}}",
            "anyOf": [{"type": "string", "pattern": ID_PATTERN, "maxLength": 64},
                      {"type": "object", "minProperties": 1, "maxProperties": 1, "propertyNames": _id(),
                       "additionalProperties": params}]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "mjcalc ruleset file",
        "type": "object",
        "additionalProperties": False,
        "required": list(need("id", "names", "items", "formula")),
        "properties": {
            "id": _id(RULESET_ID_PATTERN),
            "extends": {"type": "string", "minLength": 1, "maxLength": 4096},
            "names": names,
            "description": _texts(),
            "source": _text(),
            "unit": {"type": "string", "pattern": "^[a-z]+$", "maxLength": 16},
            "tiles": _object({"sets": _int("sets"), "red_fives": {"type": "boolean"},
                              "flowers": {"type": "boolean"}, "flower_replacement": {"type": "boolean"}}),
            "forms": _list(form, "forms", minItems=1),
            "wildcard": {"enum": list(wildcard_providers())},
            "joker_sets": {"enum": list(JOKER_SETS)},
            "tiers": _list(_id(), "tiers", minItems=1, uniqueItems=True),
            "special_kongs": _keyed(special_kong, "kongs"),
            "kongs": _keyed(kong, "kongs"),
            "flags": _list({"type": "string", "pattern": ID_PATTERN, "maxLength": 64}, "flags"),
            "options": _keyed(option, "options"),
            "win_conditions": _list(condition, "win_conditions"),
            "items": _list(item, "items"),
            "formula": formula,
            "payments": payments,
            "refused_flags": {"type": "object", "propertyNames": {"pattern": ID_PATTERN, "maxLength": 64},
                              "maxProperties": LIMITS["flags"][0], "additionalProperties": names,
                              "description": "flags a line may not give: {FLAG: {zh: message, en: message}}"},
            "game": game_schema(option, names),
            "ties": _list({"anyOf": [{"enum": ["fewer_items", "first"]},
                                     _object({"items": _list(_id(), "items", minItems=1)}, required=["items"]),
                                     _object({"forms": _list(_id(), "forms", minItems=1)}, required=["forms"])]},
                          "tiers", minItems=1,
                          description="how readings that pay the same are ordered: {items: [...]}, {forms: [...]}, "
                                      "fewer_items, first"),
        },
        "$defs": {
            "when": when,
            "value": value,
            "option_ref": _object({"option": _id()}, required=["option"],
                                  description="{option: NAME}: the value of a declared option"),
            "tiles": _list({"type": "string", "pattern": TILE_PATTERN}, "tiles",
                           description="a list of tiles: 1m … 9s, 1z … 7z"),
        },
    }


def game_schema(option: Mapping[str, Any], names: Mapping[str, Any]) -> dict[str, Any]:
    """The ``game:`` section of a ruleset file: the rules of a whole game (docs/GAME.md), its options declared as
    the hand's are (``option``). Nothing is required: a file that extends another lists only what differs, and a
    ruleset without the section plays no game. Every number or word may be ``{option: NAME}`` or
    ``{option: NAME, values: {VALUE: …}}``, read from the options when a game is played."""
    def by_option(schema: Mapping[str, Any]) -> dict[str, Any]:
        values = {"type": "object", "minProperties": 1, "maxProperties": LIMITS["choices"][0],
                  "additionalProperties": dict(schema)}
        return {"anyOf": [dict(schema), _object({"option": _id(), "values": values}, required=["option"])]}

    points = _int("game_points")
    words = {"type": "array", "items": {"enum": list(GAME_REPEATS)}, "maxItems": len(GAME_REPEATS),
             "uniqueItems": True}
    return _object({
        "options": _keyed(option, "options"),
        "start": by_option(points),
        "label": {"enum": list(GAME_LABELS)},
        "rotation": _object({
            "repeat": words,
            "honba": _object({key: _int("game_count") for key in ("repeat", "draw", "abort")}),
            "streak": by_option({"type": "boolean"}),
        }),
        "winners": _object({"most": by_option({"type": "integer", "minimum": 1, "maximum": 3})}),
        "riichi": _object({"deposit": points}),
        "draw": _object({"ready": points, "nagashi": by_option({"type": "boolean"})}),
        "mangan": _object({"dealer": points, "other": points}),
        "false_win": _object({"mangan": {"type": "boolean"}, "each": points, "redeal": {"type": "boolean"}}),
        "aborts": {"type": "array", "items": {"enum": list(GAME_ABORTS)}, "uniqueItems": True},
        "kongs": {"type": "boolean"},
        "end": _object({
            "rounds": by_option({"type": ["integer", "null"], "minimum": 1, "maximum": RANGES["game_count"][1]}),
            "hands": by_option({"type": ["integer", "null"], "minimum": 1, "maximum": RANGES["game_count"][1]}),
            "extension": by_option({"enum": list(GAME_EXTENSIONS)}),
            "extra_rounds": by_option(_int("game_count")),
            "target": by_option(points),
            "bust": by_option({"type": "boolean"}),
            "last_dealer_stop": by_option({"type": "boolean"}),
            "leftover": by_option({"enum": list(GAME_LEFTOVER)}),
        }),
        "points": _object({
            "kind": {"enum": list(GAME_POINTS)},
            "return": points,
            "uma": {"type": "array", "items": _int("game_uma"), "minItems": 4, "maxItems": 4},
            "rounding": by_option({"enum": list(GAME_ROUNDING)}),
            "ties": {"enum": list(GAME_TIES)},
        }),
        "grades": _list(_object({"from": {"type": ["integer", "null"], "minimum": -RANGES["game_points"][1],
                                          "maximum": RANGES["game_points"][1]},
                                 "names": dict(names)}, required=["names"]), "choices"),
    }, description="the rules of a whole game (docs/GAME.md)")


# --- the documentation of the grammar (rules/SCHEMA.md), generated from the declarations above ------------

BEGIN = "<!-- generated by `python -m mjcalc.ruleset.schema --write`: do not edit by hand -->"
END = "<!-- end of generated -->"


def _spec_words(spec: Any) -> str:
    number = _number_of(spec)
    if number is not None:
        low, high, _ = RANGES[number.range]
        return f"{low} – {high:,}{' or null' if number.none else ''}"
    if spec is bool:
        return "true / false"
    if spec is str:
        return "a name"
    if callable(spec):  # a function of the names it takes, which its docstring describes (its source's, compiled)
        from ..support.docs import doc_of  # only to write SCHEMA.md: the ast module kept out of every command

        return " ".join((doc_of(spec) or spec.__name__).split())
    return " \\| ".join(spec)


def markdown() -> str:
    """The generated part of rules/SCHEMA.md: every number's range, every limit, every parameter."""
    lines = [BEGIN, "", "### Ranges", "", "| what | least | most |", "| --- | --- | --- |"]

    lines += [f"| {what} | {low:,} | {high:,} |" for low, high, what in RANGES.values()]
    lines += [f"| `kind: exponential`: a hand's fan − `start` (past it, the hand is a ruleset error) | 0 "
              f"| {MAX_POWER:,} |"]
    lines += ["", "### Limits", "", "| what | at most |", "| --- | --- |",
              f"| a file's size (a ruleset; a config file: 64,000) | {MAX_FILE_BYTES:,} bytes |",
              f"| mappings and lists inside one another | {MAX_DEPTH} deep |",
              f"| values (numbers, words, lists, mappings) in one file | {MAX_NODES:,} |",
              f"| entries of one list, keys of one mapping | {MAX_ENTRIES:,} |",
              f"| digits of a number | {MAX_NUMBER_DIGITS} |",
              "| YAML aliases (`*name`), and so merge keys (`<<: *name`) | none |",
              "| a key given twice in one mapping | never |"]
    lines += [f"| {what} | {limit:,} |" for limit, what in LIMITS.values()]
    lines += ["", "### Parameters", "", "| of | parameter | takes |", "| --- | --- | --- |"]
    for kind, table in (("formula", FORMULA_PARAMS), ("payments", PAYMENT_PARAMS)):
        lines += [f"| `{kind}` | `{key}` | {_spec_words(spec)}, or {{option: NAME}} |" for key, spec in table.items()]
    for kind, needs in FORMULA_NEEDS.items():
        wanted = (("parameter", needs.get("params", ())), ("option", needs.get("options", ())))
        lines += [f"| `kind: {kind}` | needs | the {what}{'s' * (len(names) != 1)} "
                  f"{', '.join(f'`{n}`' for n in names)} |" for what, names in wanted if names]
    for name, params in sorted(FORM_PARAMS.items()):
        lines += [f"| form `{name}` | `{key}` | {_spec_words(spec)} |" for key, spec in params.items()]
    for name, params in sorted(PREDICATE_PARAMS.items()):
        lines += [f"| predicate `{name}` | `{key}` | {_spec_words(spec)}, or {{option: NAME}} |"
                  for key, spec in params.items()]
    return "\n".join([*lines, "", END])


def schema_doc_path() -> str:
    return str(builtin_dir() / "SCHEMA.md")


def _main(argv: Sequence[str]) -> int:
    """``python -m mjcalc.ruleset.schema``: the JSON Schema; ``--markdown``: the generated part of rules/SCHEMA.md;
    ``--write``: put it there."""
    import json

    if "--markdown" in argv:
        print(markdown())
    elif "--write" in argv:
        path = schema_doc_path()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        head, _, rest = text.partition(BEGIN)
        _, _, tail = rest.partition(END)
        with open(path, "w", encoding="utf-8") as f:
            f.write(head + markdown() + tail)
    else:
        print(json.dumps(ruleset_schema(), ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(_main(sys.argv[1:]))
