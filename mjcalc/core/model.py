"""A ruleset as the scoring reads it, once loaded: frozen values (``Ruleset``, its ``ItemDef`` items, ``Condition``
win conditions, ``OptionDef`` house rules, kong rows) and the options bound to values. mjcalc.ruleset reads a
file into these; nothing here reads a file.

>>> option_key(True), option_key("yakuman"), sorted(option_refs({"closed": {"option": "a"}, "open": 1}))
('on', 'yakuman', ['a'])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final

from ..errors import MjcalcError, did_you_mean, quoted
from ..i18n import Msg
from ..support.memo import remember
from .facts import OPEN_GATE, Gate
from .hand import TileRules
from .readings.forms import FormSpec

if TYPE_CHECKING:  # what mypy reads; at run time the same classes without the dataclasses module (support/frozen.py)
    from dataclasses import dataclass, field

    from .candidate import Candidate
else:
    from ..support.frozen import dataclass, field


# The range of an int option's value (``default:``, ``--set``, the config's ``set:``): rules/SCHEMA.md lists it
# with the other ranges (ruleset/schema.py RANGES).
OPTION_INT: Final = (0, 1_000_000_000)


def option_key(value: Any) -> str:
    """How an option value is written as a key of ``values:`` (bools as on / off)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def option_refs(value: Any) -> set[str]:
    """The options a YAML value reads (``{option: NAME}`` anywhere inside it)."""
    if isinstance(value, dict):
        found = {value["option"]} if isinstance(value.get("option"), str) else set()
        for v in value.values():
            found |= option_refs(v)
        return found
    return set()


def gate_open(option: str | None, values: tuple[Any, ...], options: Mapping[str, Any]) -> bool:
    """``enabled:`` of an item or a condition: no option, the option on, or the option at one of ``values``."""
    if option is None:
        return True
    value = options.get(option)
    return value in values if values else bool(value)


@dataclass(frozen=True)
class OptionDef:
    name: str
    type: str
    default: Any
    doc: str
    choices: tuple[str, ...] = ()
    game: bool = False  # an option of the game (the `game:` section): the hand scorer never reads it

    def parse(self, raw: Any, where: str) -> Any:
        """A value for this option from YAML, JSON or a ``--set`` string. true / false are the words on / off
        (as YAML reads them): an on/off option's value, a choice's on or off, no number (``base: true`` is no 1)."""
        given = raw
        if isinstance(raw, bool) and self.type != "bool":
            raw = option_key(raw)
        text = str(raw).strip().lower() if not isinstance(raw, (bool, int)) or raw is None else raw
        try:
            if self.type == "bool":
                if isinstance(text, bool):
                    return text
                if text in ("on", "true", "yes", "1"):
                    return True
                if text in ("off", "false", "no", "0"):
                    return False
                raise ValueError
            if self.type == "int_or_none" and (raw is None or text in ("none", "null", "off", "")):
                return None
            if self.type in ("int", "int_or_none"):
                if isinstance(text, str) and len(text) > 12:
                    raise ValueError
                value = int(text)
                low, high = OPTION_INT
                if not low <= value <= high:
                    raise ValueError
                return value
            if self.type == "choice":
                if option_key(text) in self.choices:
                    return option_key(text)
                raise ValueError
        except (ValueError, TypeError):
            pass
        low, high = OPTION_INT
        shown = str(given).lower() if isinstance(given, bool) else quoted(given)  # as JSON and YAML write it
        expected = {
            "bool": Msg("on or off"),
            "int": Msg("a whole number from {low} to {high:,}", low=low, high=high),
            "int_or_none": Msg("a whole number from {low} to {high:,} or none", low=low, high=high),
            "choice": " | ".join(self.choices),
        }[self.type]
        raise MjcalcError("ruleset", Msg("{where}: option '{option}' takes {expected}, not {value}", where=where,
                                         option=self.name, expected=expected, value=shown))


@dataclass(frozen=True)
class Condition:
    id: str
    names: dict[str, str]
    message: dict[str, str]
    when: Callable[[Candidate], bool | int] | None  # None for `shape` and `minimum`, which the engine decides
    when_text: str
    minimum: int | None = None  # the items that are not `bonus` must add up to at least this (riichi: a yaku)
    enabled: str | None = None  # as ItemDef.enabled: the condition holds only under these option values
    enabled_values: tuple[Any, ...] = ()
    fail_gate: Gate = OPEN_GATE  # what `when` needs of the hand's facts (facts.py) to be false: else not asked
    reached: int | None = None  # a `minimum` that failed: how much the reading reached (its message says so too)
    minimum_option: str | None = None  # ``minimum: {option: NAME}``: the minimum is that option's value

    def is_enabled(self, options: Mapping[str, Any]) -> bool:
        return gate_open(self.enabled, self.enabled_values, options)


@dataclass(frozen=True)
class ItemDef:
    id: str
    names: dict[str, str]
    value: Any  # see VALUE_DOC
    when: Callable[[Candidate], bool | int]
    when_text: str
    applies_to: str
    excludes: tuple[str, ...]  # ("*",) = every other item
    enabled: str | None  # an option name: the item counts only while that option is on (or has a listed value)
    doc: str
    enabled_values: tuple[Any, ...] = ()  # empty: the option must be on
    tier: str = "regular"  # an item of a higher tier drops every item of the lower ones (riichi: yakuman)
    bonus: bool = False  # counts in the total but not toward a win condition's `minimum` (dora)
    fallback: bool = False  # counts only when no other item (bonus items aside) does (MCR 无番和)
    reduces: tuple[tuple[str, int], ...] = ()  # `excludes: [{ID: N}]`: N of that item's count go (不计 one of them)
    gate: Gate = OPEN_GATE  # what `when` needs of the hand's facts (facts.py): the engine skips it cheaply
    exact: bool = False  # `when` holds exactly when its gate is met: the engine need not ask it
    spares: tuple[str, ...] = ()  # ``excludes: {all_but: [...]}``: the items "*" leaves standing
    immediate: bool = False  # when it holds the hand wins whatever its tiles, read as no sets (flower wins)
    # ``liable:``: a player named by +pao is liable for the hand when it holds this item (責任払い), while the
    # option ``liable_option`` is on (or at one of ``liable_values``), when one is named
    liable: bool = False
    liable_option: str | None = None
    liable_values: tuple[Any, ...] = ()

    def is_enabled(self, options: Mapping[str, Any]) -> bool:
        return gate_open(self.enabled, self.enabled_values, options)

    def is_liable(self, options: Mapping[str, Any]) -> bool:
        """Whether a liable player (+pao) pays for a hand holding this item, under these options."""
        return self.liable and gate_open(self.liable_option, self.liable_values, options)


@dataclass(frozen=True)
class KongRule:
    id: str
    names: dict[str, str]
    points: int = 0  # ordinary kong (minggang, angang)
    tiles: tuple[int, ...] = ()  # for a "big" kong: the kinds that make it big
    exposed: int = 0
    concealed: int = 0
    wildcard: bool = False  # a kong of the wildcard kind (黄金杠): priced by ``concealed`` instead of 暗杠
    found_by: str | None = None  # a kong no meld declares (瘸腿杠 …): a finder in registry.KONG_FINDERS


@dataclass(frozen=True)
class SpecialKongPoints:
    points: int
    extra_points: int
    per_tile: int


@dataclass(frozen=True)
class Ruleset:
    id: str
    names: dict[str, str]
    description: str
    source: str
    path: str
    unit: str
    tile_rules: TileRules
    forms: tuple[FormSpec, ...]
    wildcard: str
    flags: frozenset[str]
    options: dict[str, OptionDef]
    conditions: tuple[Condition, ...]
    items: tuple[ItemDef, ...]
    formula: dict[str, Any]
    payments: dict[str, Any]
    kongs: dict[str, KongRule]
    special_kong_points: dict[str, SpecialKongPoints]
    # by_class: the rules see of a reading only its sets' classes (kind, suit, 1/9, wind, dragon), not exact
    # tiles nor where the winning tile sits; wildcard substitutions are then tried once per class.
    joker_sets: str = "every_tile"
    raw: dict[str, Any] = field(repr=False, compare=False, default_factory=dict)
    tiers: tuple[str, ...] = ("regular",)  # highest first; items default to the last
    # Flags of the notation that make no sense under these rules and are refused (MCR: 天和 / 地和 / 人和), with the
    # message: not ignored as a flag another ruleset reads would be.
    refused_flags: dict[str, dict[str, str]] = field(default_factory=dict)
    # How readings that pay the same are told apart, in order (``ties:``): ("items", ids) a reading with one of
    # these items first, ("forms", names) a reading of one of these forms first, ("fewer_items", ()), ("first", ())
    # the first reading found.
    ties: tuple[tuple[str, tuple[str, ...]], ...] = (("fewer_items", ()),)
    # The files read for it, its own first, then each one it extends (real paths): where its documents are found.
    files: tuple[str, ...] = ()

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names.get("en") or self.id

    def option_values(self, overrides: Mapping[str, Any], where: str = "--set") -> Mapping[str, Any]:
        """Defaults with overrides applied; an unknown option is an error that lists the known ones. The same
        overrides give the very same mapping (a batch repeats them, and the engine binds items once per
        mapping): read it, never change it."""
        try:
            key = (id(self), where, tuple(overrides.items()))
            found = _OPTION_VALUES.get(key)
        except TypeError:  # an unhashable value: checked below, not remembered
            key, found = None, None
        if found is not None and found[0] is self:
            return found[1]
        values = self._option_values(overrides, where)
        if key is not None:
            remember(_OPTION_VALUES, key, (self, values), 1024)  # per-line +base / +cap can vary
        return values

    def _option_values(self, overrides: Mapping[str, Any], where: str) -> dict[str, Any]:
        values = {k: o.default for k, o in self.options.items()}
        for key, raw in overrides.items():
            if key not in self.options:
                raise MjcalcError(
                    "ruleset",
                    Msg("{where}: '{key}' is not an option of {ruleset}{hint}; options: {options}", where=where,
                        key=key, ruleset=self.id, hint=did_you_mean(key, self.options),
                        options=", ".join(self.options) or Msg("none")),
                )
            values[key] = self.options[key].parse(raw, where)
        return values

    def resolve(self, value: Any, options: Mapping[str, Any]) -> Any:
        """A YAML value that may be ``{option: name}`` or ``{option: name, values: {option value: value}}``."""
        if isinstance(value, dict) and "option" in value:
            chosen = options[value["option"]]
            if "values" not in value:
                return chosen
            return self.resolve(value["values"][option_key(chosen)], options)
        return value

    @cached_property
    def immediate_items(self) -> tuple[ItemDef, ...]:
        """Items that make a win whatever the tiles (``immediate: true``): asked before any reading."""
        return tuple(i for i in self.items if i.immediate)

    @cached_property
    def binding_options(self) -> tuple[str, ...]:
        """The options that decide which items and conditions are in play and what the items are worth: what
        the engine binds once per set of their values (the others, such as the formula's, are read later)."""
        names = {x.enabled for x in self.items if x.enabled} | {x.enabled for x in self.conditions if x.enabled}
        names.update(x.minimum_option for x in self.conditions if x.minimum_option)
        names.update(name for item in self.items for name in option_refs(item.value))
        return tuple(sorted(names))

    def item_value(self, item: ItemDef, options: Mapping[str, Any]) -> int | tuple[int, int]:
        """An item's value under these options: an int, or (closed, open) for ``{closed: …, open: …}``."""
        value = item.value
        if isinstance(value, dict) and "closed" in value:
            return int(self.resolve(value["closed"], options)), int(self.resolve(value["open"], options))
        return int(self.resolve(value, options))


# Option values by (ruleset, where, overrides): a batch gives the same --set on every line.
_OPTION_VALUES: dict[tuple[Any, ...], tuple[Ruleset, dict[str, Any]]] = {}
