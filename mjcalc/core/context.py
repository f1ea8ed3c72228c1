"""Context flags: every flag a line can carry (name, aliases, type, default) and the frozen Context built from
them.

The generic flags — the seat, the way of winning, the discarder, the situational ones several families share —
are declared here; a family of rulesets declares its own in its hook (mjcalc/hooks/), with ``declare_flags``.
Together they are the notation contract's table (docs/NOTATION.md), written as data. A ruleset declares which
flags it reads; a known flag it does not read is accepted and reported as ignored, and a word that is no flag
at all is an error listing the flags the ruleset reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from ..errors import MjcalcError, did_you_mean
from ..i18n import N_, Msg
from ..registry import CONTEXT_CHECKS, FLAGS, HAND_CHECKS
from ..support.memo import remember
from . import tiles as T
from .facts import new as new_fact
from .hand import KONG_KINDS, Hand, TileRules
from .normalise import normalise
from .notation import FlagsRead, FlagWord, ParsedLine, parse_tile_list  # the tile grammar lives in notation


# Plain classes, not dataclasses or named tuples: their generated methods are Python source compiled when the module
# is imported, every command's start-up (benchmarks/bench_startup.py); mypyc compiles these.
class FlagDef:
    """One flag: its name, kind (bool | seat | seats | tile | tiles | int | name), what it means, other spellings,
    its default in words, an int flag's largest value, and where it stands (``position``) among the fields of
    every output's context (docs/OUTPUT.md: the next free number for a new flag, never another's). ``way``:
    the flag only happens on a self-draw (``self_draw``) or on a discard (``discard``). ``plain``: nothing but the
    Context reads it (no check of its value, no column of it asked for), so a line's usual flags are read in one
    pass (``read_plain_flags``)."""

    __slots__ = ("name", "kind", "doc", "aliases", "default_doc", "most", "position", "way", "plain")

    def __init__(self, name: str, kind: str, doc: str, aliases: tuple[str, ...] = (), default_doc: str = "off",
                 most: int = 0, position: int = 0, way: str | None = None, plain: bool = True) -> None:
        self.name: Final = name
        self.kind: Final = kind  # bool | seat | seats | tile | tiles | int | name
        self.doc: Final = doc
        self.aliases: Final = aliases
        self.default_doc: Final = default_doc
        self.most: Final = most  # an int flag's largest value (the smallest is 0): a line's numbers have a documented range
        self.position: Final = position
        self.way: Final = way
        self.plain: Final = plain

    def to_json(self) -> dict[str, object]:
        """Its fields by name, in order (``GET /api/rules``)."""
        return {"name": self.name, "kind": self.kind, "doc": self.doc, "aliases": list(self.aliases),
                "default_doc": self.default_doc, "most": self.most}

    @property
    def default(self) -> object:
        """Its value when a line does not give it."""
        return _DEFAULTS_BY_KIND.get(self.kind)


_DEFAULTS_BY_KIND: Final[dict[str, object]] = {"bool": False, "seats": frozenset(), "tiles": (), "int": 0}
# Words that set a flag to a fixed value: ``+dealer`` is ``+seat=E``.
SHORTHANDS: Final = {"dealer": ("seat", "E"), "庄": ("seat", "E"), "庄家": ("seat", "E")}
# Flags that are about the hand's options, not the situation: they feed ruleset options.
OPTION_FLAGS: Final = ("base", "cap")
LOSERS: Final = {seat: tuple(T.next_seat(seat, k) for k in (1, 2, 3)) for seat in T.SEATS}
OPPOSITE: Final = {seat: T.next_seat(seat, 2) for seat in T.SEATS}
_NOT_FIELDS: Final = frozenset(("from", *OPTION_FLAGS, "rules"))  # flags read that are no field of the Context
# The fields a Context holds as attributes (the generic flags': what every ruleset's lines may set, and what the
# core reads); a family's flags are held in ``values`` alone (``Context.get``). ``discarder`` is +from's.
ATTRIBUTES: Final = ("seat", "round", "zimo", "discarder", "gang", "qiang", "last", "tian", "di", "ren", "closed",
                     "win")
_ATTRIBUTE_SET: Final = frozenset(ATTRIBUTES)

# --- the tables of the flags declared so far, kept in step by declare_flags------------------------------------
# (dictionaries, sets and lists changed in place: what holds them keeps seeing the current ones)
FLAG_BY_NAME: Final[dict[str, FlagDef]] = {}
ALIASES: Final[dict[str, str]] = {}  # every spelling, lower case -> the flag's name
FLAG_FACTS: Final[dict[str, int]] = {}  # the fact of each flag that can be on or off (facts.py)
# The Context's fields in order (``to_json``'s), ``given`` last: seat, round, zimo, discarder, then every other field
# by its flag's position.
FIELDS: Final[list[str]] = []
_CONTEXT_FIELDS: Final[list[str]] = []  # FIELDS but ``given``
_VALUE_FIELDS: Final[set[str]] = set()  # those a Context's ``values`` may hold
_FAMILY_FIELDS: Final[list[str]] = []  # the fields that are no attribute, in order
_DEFAULT_OF: Final[dict[str, object]] = {}  # each field's default
_DEFAULT_JSON: Final[dict[str, object]] = {}  # every field at its default, as to_json writes it
_LIST_DEFAULTS: Final[list[str]] = []  # the fields whose default is written as a list
SELF_DRAW_FLAGS: Final[list[str]] = []  # flags that only happen on a self-draw, by position
DISCARD_FLAGS: Final[list[str]] = []  # and those that only happen on a discard
_SELF_DRAW: Final[set[str]] = set()
_DISCARD: Final[set[str]] = set()
# Flags whose value is a field of the Context and nothing more, bar what a self-drawn or discard flag (+gang,
# +qiang …) says of the way of winning and +tian / +di of the seat, which ``_plain_context`` checks (by their facts).
_PLAIN_FLAGS: Final[set[str]] = set()


class _Facts:
    """The facts of the flags, shifted down (``_FACTS_AT``), that the plain reading of a line tests."""

    def __init__(self) -> None:
        self.context = 0  # every fact a Context's ``facts`` may hold (not shifted)
        self.self_draw_low = 0
        self.discard_low = 0
        self.checked = 0  # the facts of the flags HAND_CHECKS check (not shifted)


_TABLE: Final = _Facts()


def declare_flags(*flags: FlagDef) -> tuple[int, ...]:
    """Add flags that lines can carry (the generic ones, here; a family's, all at once, in its hook): the tables
    kept in step (made again once a declaration), each flag's fact (facts.py) made when it can be on or off; those
    facts (0 for none), in order. A flag declared twice is one declaration too many (AssertionError)."""
    facts = tuple([_register(flag) for flag in flags])
    _rebuild()
    _forget()
    return facts


def _register(flag: FlagDef) -> int:
    if flag.name in FLAG_BY_NAME:
        raise AssertionError(f"the flag +{flag.name} is declared twice")
    FLAGS.append(flag)
    FLAGS.sort(key=_position)
    FLAG_BY_NAME[flag.name] = flag
    if flag.kind in ("bool", "seats", "tiles", "int") and flag.name not in _NOT_FIELDS:
        fact = FLAG_FACTS[flag.name] = new_fact(f"+{flag.name}")
        return fact
    return 0


def _position(flag: FlagDef) -> int:
    return flag.position


def _rebuild() -> None:
    """The tables of ``declare_flags``, made again from FLAGS (a few dozen flags, at import)."""
    ALIASES.clear()
    ALIASES.update({a.lower(): f.name for f in FLAGS for a in (f.name, *f.aliases)})
    names = [f.name for f in FLAGS if f.name not in _NOT_FIELDS]
    head = ["seat", "round", "zimo", "discarder"]
    fields = head + [name for name in names if name not in ("seat", "round", "zimo")]
    FIELDS[:] = [*fields, "given"]
    _CONTEXT_FIELDS[:] = fields
    _VALUE_FIELDS.clear()
    _VALUE_FIELDS.update(name for name in fields if name != "discarder")
    _FAMILY_FIELDS[:] = [name for name in fields if name not in _ATTRIBUTE_SET]
    _DEFAULT_OF.clear()
    for name in fields:
        _DEFAULT_OF[name] = getattr(DEFAULT, name) if name in _ATTRIBUTE_SET else FLAG_BY_NAME[name].default
    _DEFAULT_JSON.clear()
    _DEFAULT_JSON.update({"from" if name == "discarder" else name: _json_value(name, _DEFAULT_OF[name])
                          for name in fields})
    _LIST_DEFAULTS[:] = [key for key, value in _DEFAULT_JSON.items() if isinstance(value, list)]
    SELF_DRAW_FLAGS[:] = [f.name for f in FLAGS if f.way == "self_draw"]
    DISCARD_FLAGS[:] = [f.name for f in FLAGS if f.way == "discard"]
    _SELF_DRAW.clear()
    _SELF_DRAW.update(SELF_DRAW_FLAGS)
    _DISCARD.clear()
    _DISCARD.update(DISCARD_FLAGS)
    _PLAIN_FLAGS.clear()
    _PLAIN_FLAGS.update(f.name for f in FLAGS if f.plain and f.name in _VALUE_FIELDS)
    _TABLE.context = DEALER | sum(FLAG_FACTS.values())
    _TABLE.self_draw_low = sum(FLAG_FACTS[f] for f in SELF_DRAW_FLAGS) >> _FACTS_AT
    _TABLE.discard_low = sum(FLAG_FACTS[f] for f in DISCARD_FLAGS) >> _FACTS_AT


def _forget() -> None:
    """What was worked out from the flags before this declaration (a word not a flag then may be one now)."""
    _typed.cache_clear()
    _PLAIN_TYPED.clear()
    _PLAIN_BARE.clear()
    _CHECKS_ON.clear()


def context_facts() -> int:
    """Every fact a Context's ``facts`` may hold: the dealer's and each flag's."""
    return _TABLE.context


_NO_SEATS: Final[frozenset[str]] = frozenset()
_UNSET: Final = object()  # no value given (``Context.get``)


class Context:
    """Everything about the win besides the tiles. Seats are named by wind; East is the dealer.

    The generic fields (``ATTRIBUTES``) have their defaults in the class; a family's flags are no attributes
    (``get``). ``values`` holds the fields the line set (the seat, the way of winning and the discarder are always
    set: arguments of their own), ``given`` the flags it gave, ``facts`` the flags that are on and whether the
    dealer wins (facts.py). A native class when compiled: compiled code reads a native class's fields directly,
    a Python-level class's through a look-up. Made once and not changed (``replace``
    makes another)."""

    seat: str = "S"
    round: str = "E"
    zimo: bool = False
    discarder: str | None = "N"
    gang: bool = False
    qiang: bool = False
    last: bool = False
    tian: bool = False
    di: bool = False
    ren: bool = False
    closed: frozenset[str] = _NO_SEATS
    win: int | None = None
    facts: int = 0  # read for every reading of every line
    values: dict[str, object]  # the fields the line set, by name (``to_json`` and a batch's record write those)
    _given: frozenset[str] | None  # ``given``, or None: those of ``values``

    def __init__(self, seat: str = "S", zimo: bool = False, discarder: str | None = "N",
                 values: dict[str, object] | None = None, given: frozenset[str] | None = None,
                 facts: int | None = None) -> None:
        """A Context of the seat, the way of winning, the discarder and the field values the line set (the others
        at their defaults; kept, not copied; the seat or +zimo among them, the same as the arguments, when the line
        gave them), and the flags given (None: those of ``values``, made when asked for); ``facts`` of the fields,
        made from them unless given (the reader of a line has them). The three always set are arguments of their
        own: each ``values`` item that is an attribute is set by name (PyObject_SetAttr and the dictionary's
        iteration), which costs more than an argument."""
        if values is None:
            values = {}
        if facts is None:
            unknown = values.keys() - _VALUE_FIELDS
            if unknown:
                raise TypeError(f"Context has no field {sorted(unknown)[0]!r}")
            facts = _facts_of(seat, zimo, values)
        self.seat = seat
        self.zimo = zimo
        self.discarder = discarder
        for name, value in values.items():
            if name in _ATTRIBUTE_SET:
                setattr(self, name, value)
        self.values = values
        self._given = given
        self.facts = facts

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its values, flags given and facts (a compiled class has no instance dictionary)."""
        return Context, (self.seat, self.zimo, self.discarder, self.values, self._given, self.facts)

    @property
    def given(self) -> frozenset[str]:
        """The flags the line gave. Most lines' are those of ``values``, made only when asked for (a table's
        context line), not a frozenset made for every line."""
        given = self._given
        return frozenset(self.values) if given is None else given

    def get(self, name: str) -> object:
        """The value of any field: as the line set it, else its default (a family's flag, ``+dora``, by name)."""
        if name in _ATTRIBUTE_SET:
            return getattr(self, name)
        found = self.values.get(name, _UNSET)
        return _DEFAULT_OF.get(name) if found is _UNSET else found

    def flag(self, name: str) -> object:
        """The value of a family's flag (declared by its hook: no attribute), as the line set it, else its
        default: ``get`` without asking whether the name is an attribute's, for the hooks' reads on every line."""
        found = self.values.get(name, _UNSET)
        return _DEFAULT_OF[name] if found is _UNSET else found

    def _key(self) -> tuple[object, ...]:
        return tuple([self.get(name) for name in _CONTEXT_FIELDS])

    def __eq__(self, other: object) -> bool:
        """Equal when every field but ``given`` is (``facts`` follows from them)."""
        if not isinstance(other, Context):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def replace(self, **changes: Any) -> Context:
        """This context with some fields changed (as ``dataclasses.replace``): its facts made again."""
        values = dict(self.values)
        values.update(changes)
        seat: str = values.pop("seat", self.seat)  # type: ignore[assignment]
        zimo: bool = values.pop("zimo", self.zimo)  # type: ignore[assignment]
        discarder: str | None = values.pop("discarder", self.discarder)  # type: ignore[assignment]
        return Context(seat, zimo, discarder, values, self.given)

    @property
    def dealer(self) -> str:
        return "E"

    @property
    def winner_is_dealer(self) -> bool:
        return self.seat == "E"

    @property
    def losers(self) -> tuple[str, ...]:
        """The other three seats in turn order from the winner's."""
        return LOSERS[self.seat]

    def to_json(self) -> dict[str, object]:
        """Every flag, defaults filled in, in the notation's spelling (``from``, tiles as ``5m``). Most fields
        keep their defaults: those are written once (``_DEFAULT_JSON``), the others on top, in field order."""
        out = dict(_DEFAULT_JSON)
        for key in _LIST_DEFAULTS:  # a list of its own in every output: a caller may change it
            out[key] = []
        out["seat"], out["zimo"], out["from"] = self.seat, self.zimo, self.discarder
        for name, value in self.values.items():  # the others set (the rest are at their defaults); each key is in
            out[name] = _json_value(name, value)  # ``out`` already, so the order stays the fields' order
        return out


def _json_value(name: str, value: object) -> object:
    """A field's value as the notation writes it: seats in turn order, tiles by name."""
    if isinstance(value, frozenset):
        return [s for s in T.SEATS if s in value]
    flag = FLAG_BY_NAME.get(name)
    kind = flag.kind if flag is not None else ""
    if kind == "tile" and value is not None:
        return T.name(value)  # type: ignore[arg-type]
    if kind == "tiles":
        return [T.name(t) for t in value]  # type: ignore[attr-defined]
    return value


# Every field at its default: a compiled class's defaults are no class attributes to read.
DEFAULT: Final = Context("S", False, "N", {}, None, 0)

GENERIC_FLAGS: Final = (
    FlagDef("zimo", "bool", "self-drawn", ("tsumo", "自摸"), "won on a discard", position=0),
    FlagDef("seat", "seat", "winner's seat wind; East is the dealer", ("座", "门风"), "S", position=1),
    FlagDef("from", "seat", "discarder's seat, on a discard win", ("点炮", "放炮"), "the seat opposite the winner",
            position=2),
    FlagDef("round", "seat", "prevalent wind", ("圈", "圈风"), "E", position=3),
    FlagDef("gang", "bool", "won on a kong replacement tile (a self-draw)", ("rinshan", "杠上开花", "杠上花"),
            position=4, way="self_draw"),
    FlagDef("qiang", "bool", "won by robbing a kong", ("chankan", "抢杠", "抢杠胡", "抢杠和"), position=5,
            way="discard"),
    FlagDef("last", "bool", "won on the last tile", ("haidi", "海底", "haitei", "houtei"), position=6),
    FlagDef("tian", "bool", "heavenly hand (the dealer's dealt tiles, a self-draw)", ("tenhou", "天胡", "天和"),
            position=7, way="self_draw"),
    FlagDef("di", "bool", "earthly hand (first draw, a self-draw)", ("chiihou", "地胡", "地和"), position=8,
            way="self_draw"),
    FlagDef("ren", "bool", "human hand (a discard in the first go-round)", ("renhou", "人胡", "人和"), position=9,
            way="discard"),
    # the other seats whose hands are closed: payer items of several families (闭门, 门清) and the closed_payers scope
    FlagDef("closed", "seats", "the other seats whose hands are closed", ("门清",), "none", position=10, plain=False),
    FlagDef("base", "int", "room base", ("底", "底分"), "the ruleset's", most=1_000_000, position=28),
    FlagDef("cap", "int", "cap override", ("封顶",), "the ruleset's", most=1_000_000_000, position=29),
    FlagDef("rules", "name", "ruleset for this line", ("规则",), "CLI --rules, then the configured default",
            position=30),
    FlagDef("win", "tile", "the winning tile (instead of the last bare tile)", ("和", "胡"), "the last bare tile",
            position=31, plain=False),
)
for _flag in GENERIC_FLAGS:
    _register(_flag)
DEALER: Final = new_fact(N_("the dealer wins"))
ZIMO: Final = FLAG_FACTS["zimo"]
_ZIMO: Final = ZIMO
# While a line's flags are read, its context facts are kept shifted down by their lowest bit (``_FACTS_AT``): the unions
# of small ints, which a compiled module makes without a big int each, then one shift up in ``_context``. The generic
# flags' facts come first (a family's are made later, above them); any facts shift back exactly: only speed depends on
# the span.
_FACTS_AT: Final = (ZIMO & -ZIMO).bit_length() - 1
_ZIMO_LOW: Final = _ZIMO >> _FACTS_AT
_DEALER_LOW: Final = DEALER >> _FACTS_AT
_rebuild()


def _facts_of(seat: str, zimo: bool, fields: Mapping[str, object]) -> int:
    """The facts of a context's seat, way of winning and other flag fields (facts.py)."""
    facts = DEALER if seat == "E" else 0
    if zimo:
        facts |= _ZIMO
    for name in fields.keys() & FLAG_FACTS.keys():
        if fields[name]:
            facts |= FLAG_FACTS[name]
    return facts


def _parse_value(flag: FlagDef, raw: str | None, column: int | None) -> object:
    def bad(expected: str) -> MjcalcError:
        what = (f"'{raw}'" if raw is None or len(raw) <= 40
                else Msg("'{head}…' ({length:,} characters)", head=raw[:20], length=len(raw)))
        return MjcalcError("context", Msg("+{flag}: {value} is not {expected}", flag=flag.name, value=what,
                                          expected=expected), column)

    if raw is not None and not raw.isascii():  # a value given as a command-line option; a line's is normalised
        try:
            raw = normalise(raw)
        except MjcalcError as exc:
            raise MjcalcError("context", Msg("+{flag}: {problem}", flag=flag.name, problem=exc.msg), column) from None
    if flag.kind == "bool":
        if raw is None:
            return True
        low = raw.lower()
        if low in ("1", "true", "yes", "on", "y"):
            return True
        if low in ("0", "false", "no", "off", "n"):
            return False
        raise bad(Msg("on or off"))
    if raw is None or raw == "":
        raise MjcalcError("context", Msg("+{flag} needs a value: +{flag}=…", flag=flag.name), column)
    if flag.kind == "seat":
        seat = _seat(raw)
        if seat is None:
            raise bad(Msg("a seat wind (E, S, W or N)"))
        return seat
    if flag.kind == "seats":
        seats = [_seat(part) for part in raw.replace("，", ",").split(",") if part]
        if not seats or None in seats:
            raise bad(Msg("a list of seat winds such as W,N"))
        return frozenset(seats)
    if flag.kind in ("tile", "tiles"):
        try:
            found = parse_tile_list(raw)
        except MjcalcError:
            raise bad(Msg("a tile such as 5m") if flag.kind == "tile" else Msg("a list of tiles such as 3m7z")) from None
        if flag.kind == "tile":
            if len(found) != 1:
                raise bad(Msg("one tile such as 5m"))
            return found[0]
        return tuple(found)
    if flag.kind == "int":
        # Digits 0-9 only (int() also reads "1_000", " 7", "+3" and other scripts' digits), and no more of them
        # than the largest value has: int() of thousands of digits is slow, then refused.
        if not (raw.isascii() and raw.isdigit()) or len(raw.lstrip("0")) > len(str(flag.most)):
            raise bad(Msg("a whole number from 0 to {most:,}", most=flag.most))
        number = int(raw)
        if number > flag.most:
            raise bad(Msg("a whole number from 0 to {most:,}", most=flag.most))
        return number
    return raw  # name


# A seat as people name it besides its letter, its character (东) and its tile (1z): the wind's English name.
SEAT_WORDS: Final = {"east": "E", "south": "S", "west": "W", "north": "N"}


def _seat(text: str) -> str | None:
    text = text.strip()
    if text.upper() in T.SEATS:
        return text.upper()
    if text.lower() in SEAT_WORDS:
        return SEAT_WORDS[text.lower()]
    if text in T.HONOR_CHARS and T.HONOR_CHARS[text] in T.WINDS:
        return T.SEATS[T.WINDS.index(T.HONOR_CHARS[text])]
    if text in ("1z", "2z", "3z", "4z"):
        return T.SEATS[int(text[0]) - 1]
    return None


def resolve_word(word: str, column: int | None, reads: frozenset[str]) -> tuple[str, str | None]:
    """Map a written flag word (alias, any case) to its canonical name, or fail listing what the ruleset reads."""
    low = word.lower()
    if low in SHORTHANDS:
        return SHORTHANDS[low]
    if low in ALIASES:
        return ALIASES[low], None
    known = sorted(reads)
    raise MjcalcError(
        "context",
        Msg("unknown flag '+{word}'{hint}; this ruleset reads: {known}", word=word,
            hint=did_you_mean(low, [*ALIASES, *SHORTHANDS], "+"), known=", ".join("+" + k for k in known)),
        column,
    )


@lru_cache(maxsize=8192)  # the same few words (+seat=E, +riichi, +dora=3m …) come back on every line of a batch
def _typed(word: str, raw_value: str | None, reads: frozenset[str]) -> tuple[str, object]:
    """The canonical flag name of a written word and its typed value; errors carry no column (the caller's)."""
    name, fixed = resolve_word(word, None, reads)
    if fixed is not None and raw_value is not None:
        raise MjcalcError("context", Msg("+{word} takes no value", word=word))
    return name, _parse_value(FLAG_BY_NAME[name], fixed if fixed is not None else raw_value, None)


def collect_flags(words: list[FlagWord],
                  reads: frozenset[str]) -> tuple[dict[str, tuple[object, int | None]], list[str]]:
    """Typed values by canonical flag name, and the flags given that the ruleset does not read.

    The same flag given twice with different values (in the line and as a CLI option, say) is an error:
    nothing is overridden silently.
    """
    values: dict[str, tuple[object, int | None]] = {}
    ignored: list[str] = []
    said: dict[str, FlagWord] = {}
    for w in words:
        try:
            name, value = _typed(w.word, w.value, reads)
        except MjcalcError as exc:
            raise MjcalcError(exc.kind, exc.msg, w.column) from None
        if name in values and values[name][0] != value:
            raise MjcalcError("context", _twice(name, said[name], w), w.column)
        values[name] = (value, w.column)
        said[name] = w
        if name not in reads and name not in ignored and name not in ("rules",):
            ignored.append(name)
    return values, ignored


def _twice(name: str, first: FlagWord, second: FlagWord) -> str:
    """Why one flag given twice is refused: both as written, and what a shorthand (+dealer) stands for."""
    def written(w: FlagWord) -> str:
        return f"+{w.word}" + ("" if w.value is None else f"={w.value}")

    why = [Msg("+{word} means +{flag}={value} (East is the dealer)" if SHORTHANDS[w.word.lower()] == ("seat", "E")
               else "+{word} means +{flag}={value}", word=w.word, flag=SHORTHANDS[w.word.lower()][0],
               value=SHORTHANDS[w.word.lower()][1])
           for w in (first, second) if w.word.lower() in SHORTHANDS]
    if why:
        return Msg("+{flag} is given twice with different values: {first} and {second}; {why}: give one", flag=name,
                   first=written(first), second=written(second), why=why[0] if len(why) == 1 else
                   Msg("{first}, {second}", first=why[0], second=why[1]))
    return Msg("+{flag} is given twice with different values: {first} and {second}: give one", flag=name,
               first=written(first), second=written(second))


def build_context(values: dict[str, tuple[object, int | None]], reads: frozenset[str]) -> Context:
    """The Context from typed flag values: implications filled in, impossible combinations refused."""
    if reads.issuperset(values):  # the usual line: the ruleset reads every flag given
        used = {k: v for k, (v, _) in values.items()}  # also the Context's fields, bar _NOT_FIELDS
    else:
        used = {k: v for k, (v, _) in values.items() if k in reads}
    given = used.keys()
    # Most lines give none of these: one disjointness test says so, without a look-up per flag.
    self_draw_by = [] if given.isdisjoint(_SELF_DRAW) else [f for f in SELF_DRAW_FLAGS if used.get(f)]
    discard_by = [] if given.isdisjoint(_DISCARD) else [f for f in DISCARD_FLAGS if used.get(f)]
    zimo = bool(used.get("zimo")) or bool(self_draw_by)
    if "zimo" in used and not used["zimo"] and self_draw_by:
        raise _refused(values, Msg("+{flag} is a self-drawn win, but +zimo=off was given", flag=self_draw_by[0]),
                       self_draw_by[0])
    if zimo and discard_by:
        first = discard_by[0]
        why = f"+{self_draw_by[0]}" if self_draw_by else "+zimo"
        raise _refused(values, Msg("+{flag} is a win on a discard, but {why} makes it self-drawn", flag=first, why=why),
                       first)
    seat: str = used.get("seat", "S")  # type: ignore[assignment]  # typed by its FlagDef
    discarder: str | None = used.pop("from", None)  # type: ignore[assignment]
    if zimo and discarder is not None:
        raise _refused(values, Msg("+from names the discarder, but a self-drawn win has none"), "from")
    if discarder is None and not zimo:
        discarder = OPPOSITE[seat]  # type: ignore[index]
    if discarder == seat:
        raise _refused(values, Msg("the discarder (+from={seat}) cannot be the winner's own seat", seat=discarder),
                       "from")
    for flag, check in CONTEXT_CHECKS:  # a family's checks of its own flags (riichi's +pao), before the others
        if flag in used:
            problem = check(seat, used[flag])
            if problem is not None:
                raise _refused(values, problem, flag)
    if seat in used.get("closed", ()):  # type: ignore[operator]
        raise _refused(values, Msg("+closed lists the other seats; the winner's own hand is read from the tiles"),
                       "closed")
    if used.get("tian") and seat != "E":
        raise _refused(values, Msg("+tian is the dealer's win: it needs +seat=E"), "tian")
    if used.get("di") and seat == "E":
        raise _refused(values, Msg("+di is a non-dealer's win: the dealer's is +tian"), "di")
    if not given.isdisjoint(_NOT_FIELDS):
        used = {k: v for k, v in used.items() if k not in _NOT_FIELDS}
    facts = 0
    for k, v in used.items():  # the flags that are on (``Context.facts``)
        if v:
            fact = FLAG_FACTS.get(k)
            if fact:
                facts |= fact >> _FACTS_AT
    return _context(used, frozenset(values), seat, zimo, discarder, facts)


def _context(fields: dict[str, object], given: frozenset[str] | None, seat: str, zimo: bool, discarder: str | None,
             facts: int) -> Context:
    """The Context of checked flag fields, with the seat, the way of winning and the discarder settled; ``facts``
    of the flags that are on (shifted down by ``_FACTS_AT``), to which zimo (also when a self-drawn flag implies
    it) and the dealer are added. The Context's ``values`` are ``fields`` itself, not a copy; ``given`` None: the
    flags of ``fields``."""
    facts |= (_ZIMO_LOW if zimo else 0) | (_DEALER_LOW if seat == "E" else 0)
    return Context(seat, zimo, discarder, fields, given, facts << _FACTS_AT)


_TIAN_LOW: Final = FLAG_FACTS["tian"] >> _FACTS_AT
_DI_LOW: Final = FLAG_FACTS["di"] >> _FACTS_AT
# By ruleset (the flags it reads): each (word, value) written on a plain flag the ruleset reads, typed, with the
# fact it turns on (shifted down by _FACTS_AT); _NOT_PLAIN (no name) for any other. One tuple type, not a union
# with a marker: a compiled module unpacks it without the iterator protocol. Bounded: a batch's memory must not
# grow with the file.
_PLAIN_TYPED: Final[dict[frozenset[str], dict[tuple[str, str | None], tuple[str, object, int]]]] = {}
_NOT_PLAIN: Final[tuple[str, object, int]] = ("", None, 0)
# _PLAIN_TYPED of the words written without a value, by the word alone: a string is looked up without a tuple
# made and hashed for it.
_PLAIN_BARE: Final[dict[frozenset[str], dict[str, tuple[str, object, int]]]] = {}


def read_plain_flags(words: list[FlagWord], reads: frozenset[str]) -> Context | None:
    """``build_context(*collect_flags(words, reads))`` in one pass, for the usual line: every flag plain, read by
    the ruleset and given once. None for any other line, which collect_flags and build_context read (and report
    the errors of)."""
    fields: dict[str, object] = {}
    facts = 0
    for w in words:
        # by index: a named tuple unpacked in a loop is iterated over as any object
        name, value, fact = _typed_plain(w[0], w[1], reads)
        if not name:
            return None
        fields[name] = value
        facts |= fact
    if len(fields) != len(words):  # a flag given twice
        return None
    return _plain_context(fields, facts)


def read_plain_groups(groups: list[FlagsRead], reads: frozenset[str]) -> Context | None:
    """``read_plain_flags`` of the flags the fast reader read as ``groups`` (notation.FlagsRead), with no FlagWord
    made: each group's flags are typed once for the ruleset (kept with the group: the same few groups come back
    line after line, in texts that mostly do not)."""
    fields: dict[str, object] = {}
    facts = 0
    count = 0
    for group in groups:
        if group.typed_for is reads:
            typed = group.typed
        else:
            typed = tuple([_typed_plain(word, raw, reads) for word, raw in group.bodies])
            group.typed, group.typed_for = typed, reads
        for name, value, fact in typed:
            if not name:
                return None
            fields[name] = value
            facts |= fact
        count += len(typed)
    if len(fields) != count:  # a flag given twice
        return None
    return _plain_context(fields, facts)


def _typed_plain(word: str, raw: str | None, reads: frozenset[str]) -> tuple[str, object, int]:
    """``_plain_typed``, kept by ruleset (the flags it reads) and by word and value as written."""
    if raw is None:  # a flag without a value (+riichi), looked up by its word alone
        bare = _PLAIN_BARE.get(reads)
        if bare is None:
            bare = _PLAIN_BARE[reads] = {}
        found = bare.get(word)
        return remember(bare, word, _plain_typed(word, None, reads)) if found is None else found
    table = _PLAIN_TYPED.get(reads)
    if table is None:
        table = _PLAIN_TYPED[reads] = {}
    key = (word, raw)
    found = table.get(key)
    return remember(table, key, _plain_typed(word, raw, reads)) if found is None else found


def _plain_context(fields: dict[str, object], facts: int) -> Context | None:
    """The Context of plain flags' fields (``facts``: of those on, shifted down): the seat and the way of winning
    settled, the discarder following. None where build_context refuses them (it says why): a self-drawn flag and
    +zimo=off, a self-drawn win (+zimo, or a flag) and a discard flag, +tian but not the dealer, +di and the dealer."""
    seat: str = fields.get("seat", "S")  # type: ignore[assignment]
    zimo = bool(fields.get("zimo"))
    self_draw_low, discard_low = _TABLE.self_draw_low, _TABLE.discard_low
    if facts & (self_draw_low | discard_low):  # a few lines: the way of winning said twice
        if facts & self_draw_low:
            if "zimo" in fields and not zimo:
                return None
            zimo = True
        if zimo and facts & discard_low:
            return None
        if facts & _TIAN_LOW and seat != "E" or facts & _DI_LOW and seat == "E":
            return None
    return _context(fields, None, seat, zimo, None if zimo else OPPOSITE[seat], facts)


def _plain_typed(word: str, raw: str | None, reads: frozenset[str]) -> tuple[str, object, int]:
    try:
        name, value = _typed(word, raw, reads)
    except MjcalcError:
        return _NOT_PLAIN
    if name not in _PLAIN_FLAGS or name not in reads:
        return _NOT_PLAIN
    return name, value, FLAG_FACTS.get(name, 0) >> _FACTS_AT if value else 0


def _refused(values: dict[str, tuple[object, int | None]], message: str, flag: str) -> MjcalcError:
    """A context error at the column of ``flag`` where it was written."""
    return MjcalcError("context", message, values[flag][1] if flag in values else None)


# --- what the flags say against the tiles ------------------------------------------------------------------
# The reference calculators score what they are told; these checks refuse a flag the hand itself contradicts,
# for every ruleset that reads the flag (a flag a ruleset does not read is not in its Context). One check is one
# HandCheck: the flag it is about (it runs only when the flag is on) and a small pure function of the hand, the
# context and the ruleset's tile rules that says what is wrong (None when nothing is). A ruleset-specific fact
# the check needs is tile-rule data (``tiles.flower_replacement`` in rules/SCHEMA.md), not a ruleset name. To
# add one, ``declare_hand_check`` (a family's, in its hook: hooks/mcr.py +fourth): the caret goes under the flag where
# it was written.


class HandCheck:
    __slots__ = ("flag", "refuses")

    def __init__(self, flag: str, refuses: Callable[[Hand, Context, TileRules], str | None]) -> None:
        self.flag: Final = flag
        self.refuses: Final = refuses


def _kongs(hand: Hand) -> int:
    return sum(1 for m in hand.melds if m.kind in KONG_KINDS)


def _gang_needs_a_replacement(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+gang: won on a kong's replacement tile — or a flower's, where flowers are replaced (Taiwan)."""
    if _kongs(hand) or (tiles.flower_replacement and hand.flowers):
        return None
    if tiles.flower_replacement:
        return Msg("+gang is a win on the tile drawn after a kong or a flower, but the hand has neither")
    return Msg("+gang is a win on the tile drawn after a kong, but the hand has no kong: write it, e.g. (2222s) or "
               "[2222s]")


def declare_context_check(flag: str, check: Callable[[str, object], str | None]) -> None:
    """Add a check of a family's flag against the winner's seat (riichi's +pao names another player): ``check``
    gives what is wrong (a context error under the flag), or None; asked before the generic checks."""
    CONTEXT_CHECKS.append((flag, check))


def declare_hand_check(flag: str, refuses: Callable[[Hand, Context, TileRules], str | None]) -> None:
    """Add a check of the flag ``flag`` against the hand (a family's, in its hook), asked after those before it."""
    HAND_CHECKS.append(HandCheck(flag, refuses))
    _TABLE.checked |= FLAG_FACTS[flag]  # one test tells most lines none applies
    _CHECKS_ON.clear()


# The checks that apply, by the checked flags that are on (few combinations), shifted down by _FACTS_AT: one
# look-up, not a big-int test per check, by a small int,
# hashed without the digits of a big one.
_CHECKS_ON: Final[dict[int, tuple[HandCheck, ...]]] = {}


def check_hand(line: ParsedLine, more: Sequence[FlagWord], hand: Hand, ctx: Context, tiles: TileRules) -> None:
    """Refuse the first flag of HAND_CHECKS that is on and that the hand contradicts: a context error with the
    column of the flag as written (in ``line``, or among ``more``: the command line's)."""
    on = ctx.facts & _TABLE.checked
    if not on:
        return
    key = on >> _FACTS_AT
    checks = _CHECKS_ON.get(key)
    if checks is None:
        checks = remember(_CHECKS_ON, key, tuple(c for c in HAND_CHECKS if on & FLAG_FACTS[c.flag]))
    for check in checks:
        refuses = check.refuses  # the callable itself, called as a function (not looked up as a method)
        message = refuses(hand, ctx, tiles)
        if message is not None:
            raise MjcalcError("context", message, _column_of([*line.flags, *more], check.flag))


def _column_of(words: Sequence[FlagWord], flag: str) -> int | None:
    """Where ``flag`` was written (in any spelling), or None (a command-line option)."""
    for w in words:
        low = w.word.lower()
        if ALIASES.get(low) == flag or (low in SHORTHANDS and SHORTHANDS[low][0] == flag):
            return w.column
    return None


declare_hand_check("gang", _gang_needs_a_replacement)
