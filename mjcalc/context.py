"""Context flags: the table of every flag (name, aliases, type, default) and the frozen Context built from them.

The flag table is the notation contract's table written as data, once. A ruleset declares which flags it
reads; a known flag it does not read is accepted and reported as ignored, and a word that is no flag at
all is an error listing the flags the ruleset reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from . import tiles as T
from .errors import MjcalcError, did_you_mean
from .i18n import N_, Msg
from .facts import new as new_fact
from .hand import KONG_KINDS, Hand, TileRules
from .memo import remember
from .normalise import normalise
from .notation import FlagsRead, FlagWord, ParsedLine, parse_tile_list  # the tile grammar lives in notation


# Plain classes, not dataclasses or named tuples: their generated methods are Python source compiled when the module
# is imported, every command's start-up (benchmarks/bench_startup.py); mypyc compiles these.
class FlagDef:
    __slots__ = ("name", "kind", "doc", "aliases", "default_doc", "most")

    def __init__(self, name: str, kind: str, doc: str, aliases: tuple[str, ...] = (), default_doc: str = "off",
                 most: int = 0) -> None:
        self.name: Final = name
        self.kind: Final = kind  # bool | seat | seats | tile | tiles | int | name
        self.doc: Final = doc
        self.aliases: Final = aliases
        self.default_doc: Final = default_doc
        self.most: Final = most  # an int flag's largest value (the smallest is 0): a line's numbers have a documented range

    def to_json(self) -> dict[str, object]:
        """Its fields by name, in order (``GET /api/rules``)."""
        return {"name": self.name, "kind": self.kind, "doc": self.doc, "aliases": list(self.aliases),
                "default_doc": self.default_doc, "most": self.most}


FLAGS: Final[tuple[FlagDef, ...]] = (
    FlagDef("zimo", "bool", "self-drawn", ("tsumo", "自摸"), "won on a discard"),
    FlagDef("seat", "seat", "winner's seat wind; East is the dealer", ("座", "门风"), "S"),
    FlagDef("from", "seat", "discarder's seat, on a discard win", ("点炮", "放炮"), "the seat opposite the winner"),
    FlagDef("round", "seat", "prevalent wind", ("圈", "圈风"), "E"),
    FlagDef("gang", "bool", "won on a kong replacement tile (a self-draw)", ("rinshan", "杠上开花", "杠上花")),
    FlagDef("qiang", "bool", "won by robbing a kong", ("chankan", "抢杠", "抢杠胡", "抢杠和")),
    FlagDef("last", "bool", "won on the last tile", ("haidi", "海底", "haitei", "houtei")),
    FlagDef("tian", "bool", "heavenly hand (the dealer's dealt tiles, a self-draw)", ("tenhou", "天胡", "天和")),
    FlagDef("di", "bool", "earthly hand (first draw, a self-draw)", ("chiihou", "地胡", "地和")),
    FlagDef("ren", "bool", "human hand (a discard in the first go-round)", ("renhou", "人胡", "人和")),
    FlagDef("closed", "seats", "the other seats whose hands are closed", ("门清",), "none"),
    FlagDef("bao", "tile", "the treasure tile (宝牌)", ("宝", "宝牌"), "none"),
    FlagDef("mobao", "bool", "won by drawing the treasure tile as a wildcard", ("摸宝",)),
    FlagDef("duibao", "bool", "the treasure tile is exactly the winning tile", ("对宝", "通宝", "冲宝")),
    FlagDef("hui", "tile", "the wildcard tile kind (会牌)", ("会", "会牌"), "none"),
    FlagDef("flip", "tile", "the tile flipped to find the wildcard (the wildcard is the next kind)", ("翻",), "none"),
    FlagDef("gangpao", "bool", "the winning discard came right after the discarder's kong", ("杠点炮",)),
    FlagDef("riichi", "bool", "riichi declared", ("reach", "立直")),
    FlagDef("wriichi", "bool", "double riichi declared", ("double_riichi", "两立直")),
    FlagDef("ippatsu", "bool", "won within one go-round of riichi", ("一发",)),
    FlagDef("dora", "tiles", "dora indicators", ("宝牌指示牌",), "none"),
    FlagDef("ura", "tiles", "ura-dora indicators", ("uradora", "里宝牌"), "none"),
    FlagDef("honba", "int", "riichi repeat counters", ("本场",), "0", most=99),
    FlagDef("sticks", "int", "riichi sticks on the table", ("供托",), "0", most=99),
    FlagDef("fourth", "bool", "the winning tile was the last of its kind (和绝张)", ("和绝张", "绝张")),
    FlagDef("lian", "int", "dealer's consecutive wins (连庄)", ("连庄",), "0", most=99),
    FlagDef("baozhuang", "bool", "包庄: the discarder was not ready and pays all three shares", ("包庄",)),
    FlagDef("pao", "seat", "the player liable for the hand (責任払い): fed the set that made its yakuman",
            ("包", "责任支付", "責任払い"), "none"),
    FlagDef("base", "int", "room base", ("底", "底分"), "the ruleset's", most=1_000_000),
    FlagDef("cap", "int", "cap override", ("封顶",), "the ruleset's", most=1_000_000_000),
    FlagDef("rules", "name", "ruleset for this line", ("规则",), "CLI --rules, then the configured default"),
    FlagDef("win", "tile", "the winning tile (instead of the last bare tile)", ("和", "胡"), "the last bare tile"),
)
FLAG_BY_NAME: Final = {f.name: f for f in FLAGS}
# Words that set a flag to a fixed value: ``+dealer`` is ``+seat=E``.
SHORTHANDS: Final = {"dealer": ("seat", "E"), "庄": ("seat", "E"), "庄家": ("seat", "E")}
ALIASES: Final = {a.lower(): f.name for f in FLAGS for a in (f.name, *f.aliases)}
# Flags that are about the hand's options, not the situation: they feed ruleset options.
OPTION_FLAGS: Final = ("base", "cap")
# Flags that only happen on a self-draw, and those that only happen on a discard.
SELF_DRAW_FLAGS: Final = ("mobao", "duibao", "gang", "tian", "di")
DISCARD_FLAGS: Final = ("qiang", "ren", "gangpao", "baozhuang")


LOSERS: Final = {seat: tuple(T.next_seat(seat, k) for k in (1, 2, 3)) for seat in T.SEATS}
OPPOSITE: Final = {seat: T.next_seat(seat, 2) for seat in T.SEATS}
_SELF_DRAW, _DISCARD = frozenset(SELF_DRAW_FLAGS), frozenset(DISCARD_FLAGS)
_NOT_FIELDS: Final = frozenset(("from", *OPTION_FLAGS, "rules"))  # flags read that are no field of the Context


_NO_SEATS: Final[frozenset[str]] = frozenset()


class Context:
    """Everything about the win besides the tiles. Seats are named by wind; East is the dealer.

    The fields (``FIELDS``) have their defaults in the class; ``values`` holds those the line set (the seat, the way
    of winning and the discarder are always set: arguments of their own), ``given`` the flags it gave, ``facts`` the
    flags that are on and whether the dealer wins (facts.py). A native class when compiled: a Python-level class's
    field cost compiled code some 250 instructions a read (PyObject_GenericGetAttr), about 16 a riichi line. Made
    once and not changed (``replace`` makes another)."""

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
    bao: int | None = None
    mobao: bool = False
    duibao: bool = False
    hui: int | None = None
    flip: int | None = None
    gangpao: bool = False
    riichi: bool = False
    wriichi: bool = False
    ippatsu: bool = False
    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()
    honba: int = 0
    sticks: int = 0
    fourth: bool = False
    lian: int = 0
    baozhuang: bool = False
    pao: str | None = None  # the seat liable for the hand (責任払い)
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
        own: each ``values`` item is set by name (PyObject_SetAttr and the dictionary's iteration, callgrind: ~300
        instructions an item)."""
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
        context line): a frozenset made for every line cost ~1,100 instructions."""
        given = self._given
        return frozenset(self.values) if given is None else given

    def _key(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in _CONTEXT_FIELDS])

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
    if isinstance(value, frozenset):
        return [s for s in T.SEATS if s in value]
    if name in ("bao", "hui", "flip", "win") and value is not None:
        return T.name(value)  # type: ignore[arg-type]
    if name in ("dora", "ura"):
        return [T.name(t) for t in value]  # type: ignore[attr-defined]
    return value


# The Context's fields in order (the class attributes above, ``given`` last).
FIELDS: Final = ("seat", "round", "zimo", "discarder", "gang", "qiang", "last", "tian", "di", "ren", "closed", "bao",
                 "mobao", "duibao", "hui", "flip", "gangpao", "riichi", "wriichi", "ippatsu", "dora", "ura", "honba",
                 "sticks", "fourth", "lian", "baozhuang", "pao", "win", "given")
_CONTEXT_FIELDS: Final = FIELDS[:-1]
_CONTEXT_FIELDS_SET: Final = frozenset(_CONTEXT_FIELDS)
_VALUE_FIELDS: Final = _CONTEXT_FIELDS_SET - {"discarder"}  # those a Context's ``values`` may hold
# Every field at its default: a compiled class's defaults are no class attributes to read.
DEFAULT: Final = Context("S", False, "N", {}, None, 0)
_DEFAULT_JSON: Final = {"from" if name == "discarder" else name: _json_value(name, getattr(DEFAULT, name))
                        for name in _CONTEXT_FIELDS}
_LIST_DEFAULTS: Final = tuple(key for key, value in _DEFAULT_JSON.items() if isinstance(value, list))
# A fact (facts.py) per flag of the Context that can be on or off: on, or given a value other than none / 0
# (``+dora=…``); the flag predicate and those reading one flag need it.
FLAG_FACTS: Final = {f.name: new_fact(f"+{f.name}") for f in FLAGS
              if f.kind in ("bool", "seats", "tiles", "int") and f.name in _CONTEXT_FIELDS}
DEALER: Final = new_fact(N_("the dealer wins"))
CONTEXT_FACTS: Final = DEALER | sum(FLAG_FACTS.values())  # every fact a Context's ``facts`` may hold
_ZIMO: Final = FLAG_FACTS["zimo"]
# While a line's flags are read, its context facts are kept shifted down by their lowest bit (``_FACTS_AT``): the
# unions of small ints, which a compiled module makes without a big int each, then one shift up in ``_context``
# (callgrind: ~1,000 instructions a riichi line less). Any facts shift back exactly: only speed depends on the span.
_FACTS_AT: Final = (CONTEXT_FACTS & -CONTEXT_FACTS).bit_length() - 1
_ZIMO_LOW: Final = _ZIMO >> _FACTS_AT
_DEALER_LOW: Final = DEALER >> _FACTS_AT


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
    if used.get("pao") == seat:
        raise _refused(values, Msg("+pao names the player liable for the winner's hand, who cannot be the winner "
                                   "(+seat={seat})", seat=seat), "pao")
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


# Flags whose value is a field of the Context and nothing more, bar what a self-drawn or discard flag (+gang,
# +qiang …) says of the way of winning and +tian / +di of the seat, which ``_plain_context`` checks (by their
# facts); the engine reads none from the flag values (as it reads +win, +base, +cap and the wildcard flags).
_PLAIN_FLAGS: Final = frozenset(f.name for f in FLAGS if f.name in _CONTEXT_FIELDS_SET) - {
    "closed", "pao", "win", "bao", "hui", "flip"}
_SELF_DRAW_LOW: Final = sum(FLAG_FACTS[f] for f in SELF_DRAW_FLAGS) >> _FACTS_AT
_DISCARD_LOW: Final = sum(FLAG_FACTS[f] for f in DISCARD_FLAGS) >> _FACTS_AT
_TIAN_LOW: Final = FLAG_FACTS["tian"] >> _FACTS_AT
_DI_LOW: Final = FLAG_FACTS["di"] >> _FACTS_AT
# By ruleset (the flags it reads): each (word, value) written on a plain flag the ruleset reads, typed, with the
# fact it turns on (shifted down by _FACTS_AT); _NOT_PLAIN (no name) for any other. One tuple type, not a union
# with a marker: a compiled module unpacks it without the iterator protocol. Bounded: a batch's memory must not
# grow with the file.
_PLAIN_TYPED: Final[dict[frozenset[str], dict[tuple[str, str | None], tuple[str, object, int]]]] = {}
_NOT_PLAIN: Final[tuple[str, object, int]] = ("", None, 0)
# _PLAIN_TYPED of the words written without a value, by the word alone: a string is looked up without a tuple
# made and hashed for it (callgrind: ~250 instructions a word).
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
    if facts & (_SELF_DRAW_LOW | _DISCARD_LOW):  # a few lines: the way of winning said twice
        if facts & _SELF_DRAW_LOW:
            if "zimo" in fields and not zimo:
                return None
            zimo = True
        if zimo and facts & _DISCARD_LOW:
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
# add one (MCR's +fourth, say), append to HAND_CHECKS: the caret goes under the flag where it was written.


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


# The dead wall shows one dora indicator, and one more for each kong declared at the table (anyone's, up to four).
MOST_INDICATORS: Final = 5


def _dora_indicators(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+dora: one indicator, and one more for each kong at the table (anyone's): five at most."""
    given = len(ctx.dora)
    if given <= MOST_INDICATORS:
        return _too_many_copies("dora", hand, ctx.dora)
    return Msg("+dora: {given} indicators, but a table turns at most {most}: one, and one more for each of up to four "
               "kongs", given=given, most=MOST_INDICATORS)


def _ura_indicators(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+ura: one under each dora indicator, so no more of them than of the dora indicators (a line without +dora
    has one, which the hand was not hit by)."""
    given, dora = len(ctx.ura), max(1, len(ctx.dora))
    if given <= dora:
        return _too_many_copies("ura", hand, ctx.dora + ctx.ura)
    if dora == 1:
        return Msg("+ura: {given} indicators, but there is one under each dora indicator, and the line gives one "
                   "(write every dora indicator: +dora=…)", given=given)
    return Msg("+ura: {given} indicators, but there is one under each dora indicator, and the line gives {dora}",
               given=given, dora=dora)


def _too_many_copies(flag: str, hand: Hand, indicators: tuple[int, ...]) -> str | None:
    """An indicator is a tile of the set: a kind's copies in the hand and among the indicators are four at most."""
    counts = hand.counts
    for kind in indicators:
        held = counts[kind] + indicators.count(kind)
        if held > 4:
            return Msg("+{flag}: {tile}: the hand holds {held} and the indicators show {shown}, but there are four "
                       "of each tile", flag=flag, tile=T.name(kind), held=counts[kind], shown=indicators.count(kind))
    return None


def _ura_needs_riichi(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+ura: ura-dora are turned over for a riichi hand only."""
    if ctx.riichi or ctx.wriichi:
        return None
    return Msg("+ura: the ura-dora are turned over only for a hand that declared riichi: add +riichi (or +wriichi)")


def _fourth_is_the_last_copy(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+fourth (和绝张): the winning tile was the last of its kind, the other three on the table (discards and
    melds, the winner's own included), so none of them is among the winner's concealed tiles."""
    win = hand.win_tile
    if win is None:
        return None
    in_hand = hand.concealed.count(win) - 1
    if not in_hand:
        return None
    return Msg("+fourth: the winning tile {tile} is the last of its kind, but the hand holds {more} more of it (和绝张: "
               "the other three were on the table)", tile=T.name(win), more=in_hand)


HAND_CHECKS: Final[tuple[HandCheck, ...]] = (
    HandCheck("gang", _gang_needs_a_replacement),
    HandCheck("fourth", _fourth_is_the_last_copy),
    HandCheck("dora", _dora_indicators),
    HandCheck("ura", _ura_needs_riichi),
    HandCheck("ura", _ura_indicators),
)
_CHECKED_FACTS: Final = sum({FLAG_FACTS[c.flag] for c in HAND_CHECKS})  # one test tells most lines none applies
# The checks that apply, by the checked flags that are on (few combinations), shifted down by _FACTS_AT: one
# look-up, not a big-int test per check (callgrind: ~1,500 instructions a riichi line less), by a small int,
# hashed without the digits of a big one (~300 instructions less).
_CHECKS_ON: Final[dict[int, tuple[HandCheck, ...]]] = {}


def check_hand(line: ParsedLine, more: Sequence[FlagWord], hand: Hand, ctx: Context, tiles: TileRules) -> None:
    """Refuse the first flag of HAND_CHECKS that is on and that the hand contradicts: a context error with the
    column of the flag as written (in ``line``, or among ``more``: the command line's)."""
    on = ctx.facts & _CHECKED_FACTS
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
