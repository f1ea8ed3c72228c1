"""The game's one door into the hand pipeline: every call from mjcalc/game into the scorer, the ruleset model, the
notation and the settlement (and the few utilities the game shares with the core) goes through this module, so
that a change of the core's layout touches only here. It raises the core's MjcalcError (with its column); the
game places it (model.GameError).

What it gives the game: a ruleset's view for a game (``hand_rules``: its id, the flags it reads, its options, its
``game:`` section), the flags a winning line gives (``given_flags``), a winning line scored (``score_win``: the
engine's Result, each seat's net, its JSON), the kong money of melds listed for a player (``kong_money``), a tile
read (``tile_kind``). Seats are winds ``E S W N``, East the dealer, as the scorer names them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from ..core.context import ALIASES, SHORTHANDS, _seat, _typed
from ..core.hand import _meld_of
from ..core.model import Ruleset
from ..core.normalise import normalise
from ..core.notation import parse_line, parse_tile_list
from ..core.result import Result
from ..core.settlement.kongs import _kong_value
from ..core.tiles import name as _tile_name
from ..engine import Request, score_line
from ..errors import EXIT_BAD_INPUT, MjcalcError
from ..output.jsonl import _orjson, json_bytes, record_bytes
from ..output.record import to_json
from ..ruleset.loader import load_ruleset
from ..support.memo import remember

# What the rest of mjcalc/game takes from the core, through here only: the error type and its exit code, the bounded
# memo, the text normaliser, the JSON writer and reader.
__all__ = ["EXIT_BAD_INPUT", "FRAGMENT", "HandRules", "MjcalcError", "ScoredWin", "given_flags", "hand_rules",
           "items_of", "json_bytes", "json_loads", "kong_money", "loaded_ruleset", "normalise", "paid_beside",
           "remember", "score_win", "seat_of", "tile_kind", "tile_name"]

# orjson's Fragment (JSON already written, embedded as it is) where orjson has it; None else.
FRAGMENT: Any = getattr(_orjson, "Fragment", None)

SEATS: Final = ("E", "S", "W", "N")


class HandRules:
    """A ruleset as the game uses it, under the game's options: one per game."""

    def __init__(self, ruleset: Ruleset, ref: str, overrides: Mapping[str, Any], options: Mapping[str, Any]) -> None:
        self.ruleset = ruleset
        self.id = ruleset.id
        self.request = Request(ref, dict(overrides))
        self.options = options  # every option's value, hand and game
        self.reads: frozenset[str] = ruleset.flags  # the flags the hand scorer reads
        raw = ruleset.raw.get("game")
        self.game_section: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        self.base = int(options.get("base", 1) or 1)
        # A kong of wildcards is priced apart (Meihe's 黄金杠): a result's kongs then need the wildcard kind.
        self.wildcard_kongs = any(rule.wildcard for rule in ruleset.kongs.values())
        self.option_names = tuple(ruleset.options)


def loaded_ruleset(ref: str) -> Ruleset | None:
    """The ruleset ``ref`` if it is loaded (a cache keyed by it is then still good), else None."""
    return load_ruleset.found.get(ref)


def json_loads(text: str) -> Any:
    """A JSON value (orjson reads it where it is installed; the standard library else); ValueError if none."""
    if _orjson is not None:
        try:
            return _orjson.loads(text)
        except _orjson.JSONDecodeError as exc:
            raise ValueError(str(exc)) from None
    return json.loads(text)


def hand_rules(ref: str, overrides: Mapping[str, Any]) -> HandRules:
    """The ruleset ``ref`` (a built-in name or a file) with ``overrides`` (``--set``) checked: MjcalcError else."""
    if not isinstance(ref, str) or not ref:
        raise MjcalcError("ruleset", "a game names its ruleset: a built-in name or a path to a .yaml file")
    ruleset = load_ruleset(ref)
    options = ruleset.option_values(dict(overrides), "set")
    return HandRules(ruleset, ref, overrides, options)


# The flags the game knows or checks, by every way of writing them (lower case): another flag of a line is the
# scorer's alone, and is not read here.
GAME_FLAGS: Final = frozenset(("seat", "round", "zimo", "from", "honba", "sticks", "lian", "riichi", "wriichi", "pao"))
_GAME_WORDS: Final = frozenset([word for word, name in ALIASES.items() if name in GAME_FLAGS] + list(SHORTHANDS))


def given_flags(line: str) -> dict[str, tuple[object, int]]:
    """The flags of the game (``GAME_FLAGS``) a winning line gives, by canonical name (``+dealer`` is ``seat``,
    ``+tsumo`` is ``zimo``), each with its typed value and its column; a word that is no flag, or a value that
    cannot be read, is left to the scorer to refuse."""
    if "+" not in line:
        return {}
    try:
        text = normalise(line) if not line.isascii() else line
    except MjcalcError:
        return {}  # the scorer says what cannot be read
    out: dict[str, tuple[object, int]] = {}
    # The text between one + and the next (str.split: a line's flags are mostly the scorer's, and a regular
    # expression's match objects cost more than the look-up that skips them); ``at``: the column of each +.
    pieces = text.split("+")
    at = len(pieces[0]) + 1
    for n in range(1, len(pieces)):
        piece = pieces[n]
        column = at
        at += len(piece) + 1
        if not piece or piece[0].isspace():
            continue
        word, eq, value = piece.split(None, 1)[0].partition("=")
        if word.lower() not in _GAME_WORDS:
            continue
        try:
            name, typed = _typed(word, value if eq else None, _NO_READS)
        except MjcalcError:
            continue  # badly written: the scorer says so, with its caret
        if name not in out:
            out[name] = (typed, column)
    return out


_NO_READS: Final[frozenset[str]] = frozenset()


def seat_of(text: str) -> str | None:
    """A seat wind as a flag writes it (E, 南, 3z …), or None."""
    return _seat(text)


class ScoredWin:
    """A winning line scored: the line, the engine's Result, each seat's net (hand payments, the winner's kongs,
    riichi sticks taken), the wildcard kind it played with (Meihe) and the score's JSON (``score --json``)."""

    __slots__ = ("line", "result", "net", "wild_kind")

    def __init__(self, line: str, result: Result) -> None:
        self.line = line
        self.result = result
        best = result.best
        assert best is not None  # a win
        self.net: dict[str, int] = best.settlement.net
        self.wild_kind: int | None = best.candidate.wild_kind

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        return to_json(self.result, lang)

    def json_bytes(self) -> bytes:
        """``to_json`` as compact JSON bytes, as a batch writes it."""
        return record_bytes(self.result)

    @property
    def summary(self) -> dict[str, Any]:
        """What a sheet says of the hand in words: its unit total, fu (riichi), limit, points."""
        best = self.result.best
        assert best is not None
        s = best.settlement
        return {"fan": s.fan, "fu": s.fu, "limit": s.limit, "points": s.points,
                "unit": self.result.ruleset.unit if self.result.ruleset is not None else "fan"}


def paid_beside(scored: ScoredWin) -> int:
    """What a winner was paid apart from the hand itself: the honba (riichi's settler: 300 a count, whoever pays
    them) and the riichi sticks it was told of."""
    ctx = scored.result.ctx
    best = scored.result.best
    if ctx is None or best is None:
        return 0
    sticks = 0
    for p in best.settlement.payments:
        if p.payer == "table":
            sticks += p.amount
    honba = ctx.get("honba")
    return 300 * (honba if isinstance(honba, int) else 0) + sticks


def items_of(scored: ScoredWin) -> list[tuple[str, int]]:
    """The items a win counted, each with its total (value × count), sorted; items worth nothing left out."""
    best = scored.result.best
    assert best is not None
    return sorted((a.item.id, a.value * a.count) for a in best.awards if a.value)


def score_win(rules: HandRules, line: str) -> ScoredWin:
    """Score a winning line (its context filled in by the game). Anything but a win is a MjcalcError: a line that
    names a ruleset, a line that cannot be read (the scorer's own error, with its column), a hand that is no win
    (the failed conditions), a hand one tile short."""
    _names_no_ruleset(line)
    result = score_line(line, rules.request, with_wait_scores=False)
    if result.result == "win":
        return ScoredWin(line, result)
    if result.result == "error":
        error = result.error
        assert error is not None
        raise error
    if result.result == "waiting":
        raise MjcalcError("notation", f"the winning hand is one tile short (it waits on "
                          f"{', '.join(result.wait_names()) or 'nothing'}): give the whole hand, the winning tile "
                          "last", 1)
    failed = "; ".join(str(c.message.get("en", c.id)) for c in result.failed)
    raise MjcalcError("game", f"not a win under {rules.id}: {failed}", 1)


_RULES_WORDS: Final = frozenset(word for word, name in ALIASES.items() if name == "rules")


def _names_no_ruleset(line: str) -> None:
    """A game's hands are scored under the game's ruleset: a line naming another (``+rules=…``) is refused before
    any file it names is read."""
    if "+" not in line and "＋" not in line:
        return
    try:
        text = normalise(line) if not line.isascii() else line
    except MjcalcError:
        return  # the scorer says what cannot be read, before it looks for a ruleset
    column = 0
    for piece in text.split("+"):
        if column and piece and not piece[0].isspace() and piece.split(None, 1)[0].partition("=")[0].lower() in \
                _RULES_WORDS:
            raise MjcalcError("context", "a game's hands are scored under the game's own ruleset: its winning lines "
                              "name none (+rules)", column)
        column += len(piece) + 1


def tile_kind(text: str) -> int:
    """One tile (``5m``) as its kind; MjcalcError else."""
    try:
        found = parse_tile_list(text)
    except MjcalcError:
        found = []
    if len(found) != 1:
        raise MjcalcError("game", f"'{text}' is not one tile (such as 5m)")
    return found[0]


def tile_name(kind: int) -> str:
    return _tile_name(kind)


def kong_money(rules: HandRules, melds: Sequence[str], wild_kind: int | None) -> list[int]:
    """What each of ``melds`` (kongs as written in a hand: ``[7777z]``, ``(1111m)``, ``{12341z}``) earns its owner
    from each other player, by the ruleset's kong table × the base: one amount a kong. MjcalcError for what is no
    kong."""
    ruleset = rules.ruleset
    out = []
    for text in melds:
        try:
            parsed = parse_line(text) if isinstance(text, str) else None
        except MjcalcError as exc:
            raise MjcalcError("game", f"kong {text!r}: {exc.message}") from None
        if parsed is None or len(parsed.melds) != 1 or parsed.kinds or parsed.flower_kinds or parsed.flags:
            raise MjcalcError("game", f"{text!r} is not one kong as a hand writes it: [7777z], (1111m), {{1234z}}")
        try:
            meld = _meld_of(parsed.melds[0], ruleset.tile_rules)
        except MjcalcError as exc:
            raise MjcalcError("game", f"kong {text!r}: {exc.message}") from None
        if not meld.is_kong:
            raise MjcalcError("game", f"{text!r} is not a kong (four of a kind, or a special kong of {rules.id})")
        if meld.kind == "special" and not ruleset.special_kong_points:
            raise MjcalcError("game", f"{text!r}: {rules.id} has no special kongs")
        _, _, _, points = _kong_value(ruleset, meld, wild_kind)
        out.append(points * rules.base)
    return out
