"""A ruleset file's data (merged with what it extends) checked field by field and made into the model
(core/model.py): every predicate, form, flag, option and item it names must exist, every value fit; each
mistake names the file, the entry and the field. ``when:`` is compiled here, with the gates of its predicates."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..core import tiles as T
from ..core.candidate import Candidate
from ..core.context import FLAG_BY_NAME, OPTION_FLAGS
from ..core.facts import OPEN_GATE, Gate
from ..core.hand import SpecialKongDef, TileRules
from ..core.model import Condition, ItemDef, KongRule, OptionDef, Ruleset, SpecialKongPoints, option_key
from ..core.readings.forms import FORM_NAMES, FormSpec
from ..errors import MjcalcError, did_you_mean
from ..errors import quoted as _shown
from ..i18n import Msg
from ..predicates.binding import bind_gated, combined, negated, with_options
from ..registry import KONG_FINDERS, PREDICATE_PARAMS, PREDICATES
from ..support.builtin import builtin_dir
from .schema import (
    FORM_PARAMS,
    FORMULA_PARAMS,
    JOKER_SETS,
    OPTION_TYPES,
    PAYMENT_PARAMS,
    SCOPES,
    option_fits,
    param_problem,
    wildcard_providers,
)

VALUE_DOC = """an item's value: a whole number; {option: NAME} (an int option); {option: NAME, values: {on: 2, off: 1}}
(a value per option value: on/off for a bool option, each choice for a choice option); or {closed: V, open: V}
with V any of these, where 0 means the item does not count on that kind of hand (open 0 = closed only)"""


_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")


_ID_FIRST, _ID_REST = _LOWER, _LOWER | frozenset("0123456789_")  # an item's id: ^[a-z][a-z0-9_]*$


_NAME_FIRST = _LOWER | frozenset("0123456789")  # a built-in ruleset's name: schema.RULESET_ID_PATTERN


_NAME_REST = _NAME_FIRST | frozenset("_-")


def matches(text: str, first: frozenset[str], rest: frozenset[str]) -> bool:
    """Whether ``re.match(f"^[{first}][{rest}]*$", text)`` would match (``$`` also before a last newline), read
    without compiling a pattern: compiling the two patterns cost a command more than checking every id of a
    ruleset with them (tests/test_ruleset.py holds this to ``re``)."""
    body = text[:-1] if text.endswith("\n") else text
    return bool(body) and body[0] in first and rest.issuperset(body[1:])


class Compiled:
    """A compiled ``when``: the function, its text, its gates (facts.py) for being true and being false, and
    whether it holds exactly when its true gate is met. (A plain class: a NamedTuple is made by compiling its
    ``__new__`` at every command's start-up.)"""

    __slots__ = ("fn", "text", "gate", "fail_gate", "exact")

    def __init__(self, fn: Callable[[Candidate], bool | int], text: str, gate: Gate = OPEN_GATE,
                 fail_gate: Gate = OPEN_GATE, exact: bool = False) -> None:
        self.fn = fn
        self.text = text
        self.gate = gate
        self.fail_gate = fail_gate
        self.exact = exact


_ITEM_FIELDS = {"id", "names", "value", "when", "applies_to", "excludes", "enabled", "doc", "tier", "bonus",
                "fallback", "immediate", "liable", "remove"}


class _Validator:
    def __init__(self, data: dict[str, Any], path: Path, files: tuple[str, ...] = ()) -> None:
        self.data = data
        self.path = path
        self.files = files
        self.options_def: dict[str, OptionDef] = {}
        self.where = path.name if path.parent == builtin_dir() else str(path)

    def fail(self, message: str) -> MjcalcError:
        return MjcalcError("ruleset", f"{self.where}: {message}")

    def need(self, obj: dict[str, Any], key: str, kind: type | tuple[type, ...], entry: str) -> Any:
        if key not in obj:
            raise self.fail(f"{entry}: field '{key}' is missing")
        if not isinstance(obj[key], kind):
            raise self.fail(f"{entry}: field '{key}' has the wrong type ({type(obj[key]).__name__})")
        return obj[key]

    def text(self, raw: Any, entry: str, key: str, strip: bool = True) -> str:
        """A text the user reads (``description``, ``doc``): a string, or ``{en: …, zh: …}`` (a Msg.pair, whose
        ``str`` is the English and which renders in each language)."""
        if raw is None:
            return ""
        if isinstance(raw, dict):
            if not raw or not all(isinstance(v, str) for v in raw.values()):
                raise self.fail(f"{entry}field '{key}' is a text, or the text by language {{en: …, zh: …}}")
            return Msg.pair({str(k): v.strip() if strip else v for k, v in raw.items()})
        if not isinstance(raw, str):
            raise self.fail(f"{entry}field '{key}' has the wrong type ({type(raw).__name__})")
        return raw.strip() if strip else raw

    def names(self, obj: dict[str, Any], entry: str) -> dict[str, str]:
        names = self.need(obj, "names", dict, entry)
        if not names.get("zh") or not names.get("en"):
            raise self.fail(f"{entry}: field 'names' needs both zh and en")
        return {str(k): str(v) for k, v in names.items()}

    def tile(self, text: Any, entry: str, key: str) -> int:
        try:
            return T.parse_tile(str(text))
        except ValueError:
            raise self.fail(f"{entry}: field '{key}': '{text}' is not a tile") from None

    def ruleset(self) -> Ruleset:
        d = self.data
        known = {"id", "names", "description", "source", "unit", "tiles", "forms", "wildcard", "special_kongs",
                 "kongs", "flags", "options", "win_conditions", "items", "formula", "payments", "joker_sets", "tiers",
                 "refused_flags", "ties", "game"}
        for key in d:
            if key not in known:
                raise self.fail(f"unknown field '{key}'{did_you_mean(key, known)}")
        rid = self.need(d, "id", str, "ruleset")
        names = self.names(d, "ruleset")
        options = self.options(d.get("options") or {})
        game = d.get("game") or {}
        if not isinstance(game, dict):
            raise self.fail("field 'game' is a mapping (docs/GAME.md)")
        for name, option in self.options(game.get("options") or {}, game=True).items():
            if name in options:  # one --set NAME for both: a name means one thing
                raise self.fail(f"game: option '{name}' is also an option of the hand")
            options[name] = option
        self.option_refs({k: v for k, v in game.items() if k != "options"}, options, "game")
        specials, special_points = self.special_kongs(d.get("special_kongs") or {})
        tiles = d.get("tiles") or {}
        tile_rules = TileRules(
            ruleset=rid,
            sets=int(tiles.get("sets", 4)),
            red_fives=bool(tiles.get("red_fives", False)),
            flowers=bool(tiles.get("flowers", False)),
            flower_replacement=bool(tiles.get("flower_replacement", False)),
            special_kongs=specials,
        )
        forms = self.forms(d.get("forms") or ["regular"])
        wildcard = str(d.get("wildcard", "none"))
        if wildcard not in wildcard_providers():
            raise self.fail(f"field 'wildcard': '{wildcard}' is not one of {', '.join(wildcard_providers())}")
        joker_sets = str(d.get("joker_sets", "every_tile"))
        if joker_sets not in JOKER_SETS:
            raise self.fail(f"field 'joker_sets': '{joker_sets}' is not one of {', '.join(JOKER_SETS)}")
        flags = frozenset(self.flags(d.get("flags") or [], options))
        self.options_def = options
        tiers = tuple(str(t) for t in d.get("tiers") or ["regular"])
        conditions = tuple(self.condition(c, i) for i, c in enumerate(d.get("win_conditions") or []))
        items = tuple(self.item(e, i, options, tiers) for i, e in enumerate(self.need(d, "items", list, "ruleset")))
        ids = [i.id for i in items]
        for item in items:
            for ex in (*item.excludes, *(r for r, _ in item.reduces), *item.spares):
                if ex != "*" and ex not in ids:
                    raise self.fail(f"item '{item.id}': field 'excludes': unknown item '{ex}'{did_you_mean(ex, ids)}")
        formula = dict(self.need(d, "formula", dict, "ruleset"))
        self.option_refs(formula, options, "formula", FORMULA_PARAMS)
        payments = dict(d.get("payments") or {})
        self.option_refs(payments, options, "payments", PAYMENT_PARAMS)
        cover_flag = payments.get("cover_flag")
        if cover_flag is not None and getattr(FLAG_BY_NAME.get(str(cover_flag)), "kind", None) != "bool":
            on_off = [name for name, f in FLAG_BY_NAME.items() if f.kind == "bool"]
            raise self.fail(f"field 'payments.cover_flag': {_shown(cover_flag)} is no on/off flag"
                            f"{did_you_mean(str(cover_flag), on_off)}")
        kongs = self.kongs(d.get("kongs") or {})
        refused = self.refused_flags(d.get("refused_flags") or {}, flags)
        ties = self.ties(d.get("ties") or ["fewer_items"], {i.id for i in items}, forms)
        return Ruleset(
            id=rid, names=names, description=self.text(d.get("description", ""), "", "description"), source=str(d.get("source", "")),
            path=str(self.path), unit=str(d.get("unit", "fan")), tile_rules=tile_rules, forms=forms,
            wildcard=wildcard, flags=flags, options=options, conditions=conditions, items=items, formula=formula,
            payments=payments, kongs=kongs, special_kong_points=special_points, joker_sets=joker_sets, raw=d,
            tiers=tiers, refused_flags=refused, ties=ties, files=self.files,
        )

    def ties(self, raw: Any, items: set[str], forms: tuple[FormSpec, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """``ties: [{items: [ID, …]}, {forms: [NAME, …]}, fewer_items | first]``: how equal readings are ordered."""
        doc = "field 'ties' is a list of {items: [ID, …]}, {forms: [NAME, …]}, fewer_items or first"
        if not isinstance(raw, list):
            raise self.fail(doc)
        out: list[tuple[str, tuple[str, ...]]] = []
        for entry in raw:
            if entry in ("fewer_items", "first"):
                out.append((str(entry), ()))
                continue
            if not isinstance(entry, dict) or len(entry) != 1 or next(iter(entry)) not in ("items", "forms"):
                raise self.fail(doc)
            (key, names), = entry.items()
            known = items if key == "items" else {f.name for f in forms}
            for name in names if isinstance(names, list) else [names]:
                if name not in known:
                    raise self.fail(f"field 'ties': {key}: '{name}' is not one of the ruleset's {key}"
                                    f"{did_you_mean(str(name), known)}")
            out.append((str(key), tuple(str(n) for n in (names if isinstance(names, list) else [names]))))
        return tuple(out)

    def refused_flags(self, raw: Any, reads: frozenset[str]) -> dict[str, dict[str, str]]:
        """``refused_flags: {FLAG: {zh: …, en: …}}``: flags of the notation a line may not give, with why."""
        if not isinstance(raw, dict):
            raise self.fail("field 'refused_flags' maps a flag to its message {zh: …, en: …}")
        out = {}
        for name, message in raw.items():
            entry = f"refused flag '{name}'"
            if name not in FLAG_BY_NAME:
                raise self.fail(f"{entry}: unknown flag{did_you_mean(str(name), FLAG_BY_NAME)}")
            if name in reads:
                raise self.fail(f"{entry}: the ruleset reads it (field 'flags')")
            if not isinstance(message, dict) or not message.get("en") or not message.get("zh"):
                raise self.fail(f"{entry}: the message needs both zh and en")
            out[str(name)] = {str(k): str(v) for k, v in message.items()}
        return out

    def options(self, raw: dict[str, Any], game: bool = False) -> dict[str, OptionDef]:
        out = {}
        for name, spec in raw.items():
            entry = f"{'game: ' if game else ''}option '{name}'"
            if not isinstance(spec, dict):
                raise self.fail(f"{entry}: expected a mapping with type, default and doc")
            kind = self.need(spec, "type", str, entry)
            if kind not in OPTION_TYPES:
                raise self.fail(f"{entry}: field 'type': '{kind}' is not one of {', '.join(OPTION_TYPES)}")
            choices = tuple(option_key(c) for c in spec.get("choices") or ())  # YAML reads off as false
            if kind == "choice" and not choices:
                raise self.fail(f"{entry}: field 'choices' is missing")
            doc = self.text(self.need(spec, "doc", (str, dict), entry), f"{entry}: ", "doc", strip=False)
            option = OptionDef(name, kind, None, doc, choices)
            if "default" not in spec:
                raise self.fail(f"{entry}: field 'default' is missing")
            default = option.parse(spec["default"], f"{self.where}: {entry}")
            out[name] = OptionDef(name, kind, default, doc, choices, game)
        return out

    def option_refs(self, obj: Any, options: dict[str, OptionDef], entry: str,
                    specs: Mapping[str, Any] | None = None) -> None:
        """``{option: NAME}`` anywhere in ``obj`` names a declared option; with ``specs`` (FORMULA_PARAMS …), of
        a type that fits the parameter it stands for."""
        if isinstance(obj, dict):
            if set(obj) == {"option"}:
                self.option_ref(obj["option"], options, f"field '{entry}'", None)
                return
            for k, v in obj.items():
                if specs is not None and k in specs and isinstance(v, dict) and set(v) == {"option"}:
                    self.option_ref(v["option"], options, f"field '{entry}.{k}'", specs[k])
                else:
                    self.option_refs(v, options, f"{entry}.{k}")

    def option_ref(self, name: Any, options: dict[str, OptionDef], entry: str, spec: Any) -> OptionDef:
        """The option ``{option: NAME}`` names, which must be declared and, for a parameter of this ``spec``, of a
        type that can stand for it."""
        option = options.get(name) if isinstance(name, str) else None
        if option is None:
            raise self.fail(f"{entry}: unknown option {_shown(name)}{did_you_mean(str(name), options)}")
        if spec is not None:
            wrong = option_fits(spec, option.type, option.choices)
            if wrong:
                raise self.fail(f"{entry}: option '{option.name}' is {option.type}; it needs {wrong}")
        return option

    def forms(self, raw: list[Any]) -> tuple[FormSpec, ...]:
        out = []
        for f in raw:
            name, params = (next(iter(f.items())) if isinstance(f, dict) and f else (f, {}))
            if name not in FORM_NAMES:
                raise self.fail(f"field 'forms': unknown form {_shown(name)}{did_you_mean(str(name), FORM_NAMES)}; "
                                f"known: {', '.join(FORM_NAMES)}")
            declared = FORM_PARAMS.get(name, {})
            for key, given in (params or {}).items():
                if key not in declared:
                    raise self.fail(f"field 'forms': form '{name}' has no parameter {_shown(key)}"
                                    f"{did_you_mean(str(key), declared)}; its parameters: "
                                    f"{', '.join(declared) or 'none'}")
                wrong = param_problem(declared[key], given)
                if wrong:
                    raise self.fail(f"field 'forms': form '{name}': parameter '{key}' is {wrong}, not {_shown(given)}")
            out.append(FormSpec(str(name), tuple(sorted((params or {}).items()))))
        return tuple(out)

    def flags(self, raw: list[Any], options: dict[str, OptionDef]) -> list[str]:
        out = ["rules", "win"]
        for f in raw:
            if f not in FLAG_BY_NAME:
                raise self.fail(f"field 'flags': unknown flag '{f}'{did_you_mean(str(f), FLAG_BY_NAME)}")
            if f in OPTION_FLAGS and f not in options:
                raise self.fail(f"field 'flags': flag '{f}' sets the option of that name, which is not declared")
            out.append(str(f))
        return out

    def special_kongs(self, raw: dict[str, Any]) -> tuple[tuple[SpecialKongDef, ...], dict[str, SpecialKongPoints]]:
        defs, points = [], {}
        for kid, spec in raw.items():
            entry = f"special kong '{kid}'"
            core = tuple(self.tile(t, entry, "core") for t in self.need(spec, "core", list, entry))
            extra = tuple(self.tile(t, entry, "extra_from") for t in spec.get("extra_from", [])) or core
            wild = tuple(self.tile(t, entry, "wild") for t in spec.get("wild", []))
            defs.append(SpecialKongDef(kid, self.names(spec, entry), core, int(spec.get("min_distinct", len(core))),
                                       extra, wild, bool(spec.get("last_set", False))))
            points[kid] = SpecialKongPoints(int(spec.get("points", 0)), int(spec.get("extra_points", 0)),
                                            int(spec.get("per_tile", 0)))
        return tuple(defs), points

    def kongs(self, raw: dict[str, Any]) -> dict[str, KongRule]:
        out = {}
        for kid, spec in raw.items():
            entry = f"kong '{kid}'"
            tiles = tuple(self.tile(t, entry, "tiles") for t in spec.get("tiles", []))
            found_by = spec.get("found_by")
            if found_by is not None and found_by not in KONG_FINDERS:
                raise self.fail(f"{entry}: field 'found_by': unknown kong finder '{found_by}'"
                                f"{did_you_mean(str(found_by), KONG_FINDERS)}; "
                                f"known: {', '.join(KONG_FINDERS) or 'none'}")
            out[kid] = KongRule(kid, self.names(spec, entry), int(spec.get("points", 0)), tiles,
                                int(spec.get("exposed", 0)), int(spec.get("concealed", 0)),
                                bool(spec.get("wildcard", False)), found_by)
        for needed in ("minggang", "angang"):
            if raw and needed not in out:
                raise self.fail(f"field 'kongs': entry '{needed}' is missing")
        return out

    def condition(self, raw: Any, index: int) -> Condition:
        if not isinstance(raw, dict):
            raise self.fail(f"win condition #{index + 1}: expected a mapping")
        cid = self.need(raw, "id", str, f"win condition #{index + 1}")
        entry = f"win condition '{cid}'"
        message = self.need(raw, "message", dict, entry)
        if not message.get("en") or not message.get("zh"):
            raise self.fail(f"{entry}: field 'message' needs both zh and en")
        if cid == "shape":
            return Condition(cid, self.names(raw, entry), message, None, "the hand's winning forms")
        enabled, enabled_values = self.enabled(raw.get("enabled"), self.options_def, entry)
        if "minimum" in raw:
            minimum = raw["minimum"]
            if isinstance(minimum, dict) and set(minimum) == {"option"}:
                option = self.options_def.get(str(minimum["option"]))
                if option is None or option.type != "int":
                    raise self.fail(f"{entry}: field 'minimum': {{option: NAME}} names a declared int option")
                return Condition(cid, self.names(raw, entry), message, None,
                                 f"the items every payer pays, bonus apart, add up to option {option.name}+",
                                 option.default, enabled, enabled_values, minimum_option=option.name)
            if not isinstance(minimum, int) or isinstance(minimum, bool) or minimum < 1:
                raise self.fail(f"{entry}: field 'minimum' is a whole number of 1 or more, or {{option: NAME}}")
            return Condition(cid, self.names(raw, entry), message, None,
                             f"the items every payer pays, bonus apart, add up to {minimum}+",
                             minimum, enabled, enabled_values)
        when = self.when(self.need(raw, "when", (str, dict), entry), entry)
        return Condition(cid, self.names(raw, entry), message, when.fn, when.text, None, enabled, enabled_values,
                         when.fail_gate)

    def item(self, raw: Any, index: int, options: dict[str, OptionDef], tiers: tuple[str, ...]) -> ItemDef:
        if not isinstance(raw, dict):
            raise self.fail(f"item #{index + 1}: expected a mapping")
        iid = self.need(raw, "id", str, f"item #{index + 1}")
        entry = f"item '{iid}'"
        if not matches(iid, _ID_FIRST, _ID_REST):
            raise self.fail(f"{entry}: ids are snake_case ASCII")
        for key in raw:
            if key not in _ITEM_FIELDS:
                raise self.fail(f"{entry}: unknown field '{key}'{did_you_mean(key, _ITEM_FIELDS)}")
        value = self.need(raw, "value", (int, dict), entry)
        self.value(value, options, f"{entry}: field 'value'", top=True)
        when = self.when(self.need(raw, "when", (str, dict), entry), entry)
        scope = str(raw.get("applies_to", "all"))
        if scope not in SCOPES:
            raise self.fail(f"{entry}: field 'applies_to': '{scope}' is not one of {', '.join(SCOPES)}")
        excludes_raw = raw.get("excludes") or []
        spares: tuple[str, ...] = ()
        if isinstance(excludes_raw, dict):  # {all_but: [ids]}: every other item but these
            if set(excludes_raw) != {"all_but"} or not isinstance(excludes_raw["all_but"], list):
                raise self.fail(f"{entry}: field 'excludes' is \"*\", a list of item ids and {{ID: N}}, or "
                                "{all_but: [ids]} (every other item but these)")
            spares = tuple(str(e) for e in excludes_raw["all_but"])
            excludes_raw = "*"
        excludes, reduces = self.excludes(excludes_raw, entry)
        immediate = raw.get("immediate", False)
        if not isinstance(immediate, bool):
            raise self.fail(f"{entry}: field 'immediate' is true or false")
        enabled, enabled_values = self.enabled(raw.get("enabled"), options, entry)
        tier = str(raw.get("tier", tiers[-1]))
        if tier not in tiers:
            raise self.fail(f"{entry}: field 'tier': '{tier}' is not one of the ruleset's tiers ({', '.join(tiers)})")
        liable, liable_option, liable_values = self.liable(raw.get("liable", False), options, entry)
        return ItemDef(iid, self.names(raw, entry), value, when.fn, when.text, scope, excludes, enabled,
                       self.text(raw.get("doc", ""), f"{entry}: ", "doc"), enabled_values, tier, bool(raw.get("bonus", False)),
                       bool(raw.get("fallback", False)), reduces, when.gate, when.exact, spares, immediate,
                       liable=liable, liable_option=liable_option, liable_values=liable_values)

    def liable(self, raw: Any, options: dict[str, OptionDef],
               entry: str) -> tuple[bool, str | None, tuple[Any, ...]]:
        """``liable: true`` (a player named by +pao pays for a hand holding the item), or ``{option: NAME}`` /
        ``{option: NAME, is: VALUE}``: so while that option says so."""
        if isinstance(raw, bool):
            return raw, None, ()
        if not isinstance(raw, dict):
            raise self.fail(f"{entry}: field 'liable' is true or false, or {{option: NAME}} naming a declared bool "
                            "option")
        option, values = self.enabled(raw, options, entry, "liable")
        return True, option, values

    def excludes(self, raw: Any, entry: str) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
        """``excludes: "*"``, or a list of item ids (each dropped) and ``{ID: N}`` (N of its count dropped)."""
        if raw == "*":
            return ("*",), ()
        if not isinstance(raw, list):
            raise self.fail(f"{entry}: field 'excludes' is \"*\" or a list of item ids and {{ID: N}}")
        ids: list[str] = []
        reduces: list[tuple[str, int]] = []
        for e in raw:
            if isinstance(e, dict) and len(e) == 1:
                (key, n), = e.items()
                if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                    raise self.fail(f"{entry}: field 'excludes': {{{key}: N}} takes a whole number of 1 or more")
                reduces.append((str(key), n))
            else:
                ids.append(str(e))
        return tuple(ids), tuple(reduces)

    def enabled(self, raw: Any, options: dict[str, OptionDef], entry: str,
                field: str = "enabled") -> tuple[str | None, tuple[Any, ...]]:
        """``{option: NAME}`` (a bool option, on) or ``{option: NAME, is: VALUE or [VALUES]}``."""
        if raw is None:
            return None, ()
        if not isinstance(raw, dict) or not set(raw) <= {"option", "is"} or raw.get("option") not in options:
            raise self.fail(f"{entry}: field '{field}' is {{option: NAME}} naming a declared bool option, "
                            "or {option: NAME, is: VALUE}")
        option = options[raw["option"]]
        wanted = raw.get("is")
        if wanted is None:
            if option.type != "bool":
                raise self.fail(f"{entry}: field '{field}': option '{option.name}' is not on/off; say which values "
                                "with `is:`")
            return option.name, ()
        values = tuple(option.parse(v, f"{self.where}: {entry}: field '{field}'")
                       for v in (wanted if isinstance(wanted, list) else [wanted]))
        return option.name, values

    def value(self, value: Any, options: dict[str, OptionDef], entry: str, top: bool = False) -> None:
        """Check an item value against VALUE_DOC: numbers, option references, per-option tables, closed/open."""
        if isinstance(value, int) and not isinstance(value, bool):
            return
        if isinstance(value, dict) and top and set(value) == {"closed", "open"}:
            for side in ("closed", "open"):
                self.value(value[side], options, f"{entry}.{side}")
            return
        if isinstance(value, dict) and "option" in value and set(value) <= {"option", "values"}:
            name = value["option"]
            option = self.option_ref(name, options, entry, int if "values" not in value else None)
            if "values" not in value:
                return
            keys = ["on", "off"] if option.type == "bool" else list(option.choices)
            table = value["values"]
            if not isinstance(table, dict) or sorted(map(option_key, table)) != sorted(keys):
                raise self.fail(f"{entry}: 'values' of option '{name}' gives one value for each of {', '.join(keys)}")
            value["values"] = {option_key(k): v for k, v in table.items()}  # YAML reads on / off as booleans
            for v in value["values"].values():
                self.value(v, options, f"{entry}.values")
            return
        raise self.fail(f"{entry}: {VALUE_DOC}")

    def when(self, expr: Any, entry: str) -> Compiled:
        """Compile ``when``: a name, ``{name: {params}}``, or ``{any|all: [...]}`` / ``{not: ...}``; with its
        text and its gates (facts.py) for being true and for being false, from the predicates' own gates."""
        if isinstance(expr, str):
            return Compiled(*self.pred(expr, {}, entry, expr))
        if isinstance(expr, dict) and len(expr) == 1:
            (key, arg), = expr.items()
            if key in ("any", "all"):
                if not isinstance(arg, list) or not arg:
                    raise self.fail(f"{entry}: field 'when': '{key}' takes a list")
                parts = [self.when(a, entry) for a in arg]
                text = f"{key}({', '.join(p.text for p in parts)})"
                true, false = parts[0].gate, parts[0].fail_gate
                for part in parts[1:]:  # any: true by one part, false by all of them; all the other way round
                    true = true.any(part.gate) if key == "any" else true.all(part.gate)
                    false = false.all(part.fail_gate) if key == "any" else false.any(part.fail_gate)
                exact = all(p.exact for p in parts) and (key == "all" or len(parts) == 1)
                return Compiled(combined(key, tuple(p.fn for p in parts)), text, true, false, exact)
            if key == "not":
                inner = self.when(arg, entry)
                return Compiled(negated(inner.fn), f"not {inner.text}", inner.fail_gate, inner.gate,
                                inner.exact and inner.fail_gate != OPEN_GATE)
            params = arg if isinstance(arg, dict) else None
            if params is None:
                raise self.fail(f"{entry}: field 'when': parameters of '{key}' are a mapping")
            inner_text = ", ".join(f"{k}={v}" for k, v in params.items())
            return Compiled(*self.pred(str(key), params, entry, f"{key}({inner_text})"))
        raise self.fail(f"{entry}: field 'when' is a predicate name, {{name: {{params}}}}, or any / all / not")

    def pred(self, name: str, params: dict[str, Any], entry: str,
             text: str) -> tuple[Callable[[Candidate], bool | int], str, Gate, Gate, bool]:
        """The predicate bound to its parameters, with ``text`` and its gates (``Compiled``'s fields)."""
        if name not in PREDICATES:
            raise self.fail(f"{entry}: field 'when': unknown predicate '{name[:64]}'"
                            f"{did_you_mean(name, PREDICATES)}")
        declared = PREDICATE_PARAMS.get(name, {})
        for key, given in params.items():
            if key not in declared:
                known = ", ".join(declared) or "none"
                raise self.fail(f"{entry}: field 'when': predicate '{name}' has no parameter '{str(key)[:64]}'"
                                f"{did_you_mean(str(key), declared)}; its parameters: {known}")
            if isinstance(given, dict) and set(given) == {"option"}:
                continue  # checked below, against the declared options
            wrong = param_problem(declared[key], given)
            if wrong:
                raise self.fail(f"{entry}: field 'when': predicate '{name}': parameter '{key}' is {wrong}, "
                                f"not {_shown(given)}")
        try:
            fn, gate, fail_gate, exact = bind_gated(name, params)
        except TypeError as exc:
            raise self.fail(f"{entry}: field 'when': predicate '{name}': {exc}") from None
        refs = {k: v["option"] for k, v in params.items() if isinstance(v, dict) and set(v) == {"option"}}
        if not refs:
            return fn, text, gate, fail_gate, exact
        # A parameter may be an option's value ({option: NAME}); it is read from the options the engine scores with.
        for key, ref in refs.items():
            self.option_ref(ref, self.options_def, f"{entry}: field 'when': predicate '{name}': parameter '{key}'",
                            declared.get(key))
        return (with_options(PREDICATES[name], {k: v for k, v in params.items() if k not in refs}, refs), text, gate,
                fail_gate, exact)
