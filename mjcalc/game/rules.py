"""A ruleset's ``game:`` section (rules/SCHEMA.md, docs/GAME.md) read under the game's options: the rules the
replay follows, as plain typed fields. Nothing here names a ruleset: what differs between families is data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .hands import HandRules, MjcalcError, hand_rules, loaded_ruleset, remember
from .errors import GameError


class Grade:
    """One step of a grade ladder: from this total on (None: below the next step), its names."""

    __slots__ = ("least", "names")

    def __init__(self, least: int | None, names: dict[str, str]) -> None:
        self.least = least
        self.names = names


class PointsRule:
    """How final points are made (``game: points:``): the kind, the return, the uma by place, the rounding of
    scores and how tied players share."""

    __slots__ = ("kind", "returned", "uma", "rounding", "ties")

    def __init__(self, kind: str, returned: int, uma: tuple[int, ...], rounding: str, ties: str) -> None:
        self.kind = kind
        self.returned = returned
        self.uma = uma
        self.rounding = rounding
        self.ties = ties


class GameRules:
    """The rules of a game under one ruleset and its options. Read once per game (``game_rules``)."""

    def __init__(self, hand: HandRules, options: Mapping[str, Any], section: Mapping[str, Any]) -> None:
        self.hand = hand  # the hand scorer's view (hands.py): ruleset id, flags it reads, kong table …
        self.id = hand.id
        self.options = options

        def get(path: str, default: Any = None) -> Any:
            node: Any = section
            for key in path.split("."):
                if not isinstance(node, Mapping) or key not in node:
                    return default
                node = node[key]
            return self._resolve(node, path)

        self.start: int = int(get("start", 0))
        self.label: str = str(get("label", "hand_in_round"))
        rotation = section.get("rotation") or {}
        self.repeat: frozenset[str] = frozenset(rotation.get("repeat") or ())
        self.honba_repeat: int = int(get("rotation.honba.repeat", 0))
        self.honba_draw: int = int(get("rotation.honba.draw", 0))
        self.honba_abort: int = int(get("rotation.honba.abort", 0))
        self.streak: bool = bool(get("rotation.streak", False))
        self.most_winners: int = int(get("winners.most", 1))
        self.deposit: int = int(get("riichi.deposit", 0))  # 0: no riichi declarations in this family
        self.ready_pool: int = int(get("draw.ready", 0))
        self.nagashi: bool = bool(get("draw.nagashi", False))
        self.mangan_dealer: int = int(get("mangan.dealer", 0))
        self.mangan_other: int = int(get("mangan.other", 0))
        false_win = section.get("false_win")
        self.false_win: bool = isinstance(false_win, Mapping)
        self.false_win_mangan: bool = bool(get("false_win.mangan", False))
        self.false_win_each: int = int(get("false_win.each", 0))
        self.false_win_redeal: bool = bool(get("false_win.redeal", False))
        self.aborts: tuple[str, ...] = tuple(section.get("aborts") or ())
        self.kongs: bool = bool(section.get("kongs", False))
        rounds, hands = get("end.rounds"), get("end.hands")
        self.rounds: int | None = None if rounds is None else int(rounds)
        self.hands: int | None = None if hands is None else int(hands)
        for name, count in (("rounds", self.rounds), ("hands", self.hands)):
            if count is not None and count < 1:  # a game of no hands is none
                raise GameError(f"set: {name} is a number of {name} from 1 (or none), not {count}")
        self.extension: str = str(get("end.extension", "none"))
        self.extra_rounds: int = int(get("end.extra_rounds", 0))
        self.target: int = int(get("end.target", 0))
        self.bust: bool = bool(get("end.bust", False))
        self.last_dealer_stop: bool = bool(get("end.last_dealer_stop", False))
        self.leftover: str = str(get("end.leftover", "to_first"))
        points = section.get("points")
        self.points: PointsRule | None = None
        if isinstance(points, Mapping):
            self.points = PointsRule(str(points.get("kind", "first_balances")), int(get("points.return", 30000)),
                                     tuple(int(u) for u in points.get("uma") or (0, 0, 0, 0)),
                                     str(get("points.rounding", "none")), str(points.get("ties", "seat")))
        self.grades: tuple[Grade, ...] = tuple(
            Grade(g.get("from"), {str(k): str(v) for k, v in (g.get("names") or {}).items()})
            for g in section.get("grades") or ())

    def _resolve(self, value: Any, path: str) -> Any:
        """``{option: NAME}`` or ``{option: NAME, values: {…}}`` read from the options."""
        if isinstance(value, Mapping) and "option" in value:
            name = value["option"]
            if name not in self.options:
                raise GameError(f"{self.id}: game: field '{path}' names option '{name}', which it does not declare",
                                kind="ruleset")
            chosen = self.options[name]
            if "values" not in value:
                return chosen
            table = value["values"]
            key = ("on" if chosen else "off") if isinstance(chosen, bool) else str(chosen)
            if key not in table:
                raise GameError(f"{self.id}: game: field '{path}' gives no value for {name}={key}", kind="ruleset")
            return self._resolve(table[key], path)
        return value

    def grade(self, total: int) -> Grade | None:
        """The grade a player's total earns (the family's ladder), or None where the family has none."""
        found = None
        for g in self.grades:
            if g.least is None or total >= g.least:
                found = g
        return found


def game_rules(rules: str, options: Mapping[str, Any]) -> GameRules:
    """The game rules of a ruleset (a built-in name or a file) under ``options`` (``--set``, hand and game options
    alike, checked). A ruleset without a ``game:`` section, an unknown option, a bad value: GameError. The same
    ruleset and options give the same rules (kept: a replay of many games reads them once); never change them."""
    try:
        key: Any = (rules, tuple(options.items()))
        found = _RULES.get(key)
    except TypeError:  # an option value that is no key: read, not kept
        return _game_rules(rules, options)
    if found is None or found[0] is not loaded_ruleset(rules):
        made = _game_rules(rules, options)
        found = remember(_RULES, key, (loaded_ruleset(rules), made), 64)
    return found[1]


# Game rules by ruleset reference and options, with the Ruleset they were read from (a ruleset loaded again, after
# load_ruleset.cache_clear, is read again).
_RULES: dict[Any, tuple[Any, GameRules]] = {}


def _game_rules(rules: str, options: Mapping[str, Any]) -> GameRules:
    try:
        hand = hand_rules(rules, options)
    except MjcalcError as exc:
        raise GameError(exc.msg, kind=exc.kind) from None
    section = hand.game_section
    if not section:
        raise GameError(f"{hand.id} has no game rules (no game: section in its ruleset file)", kind="ruleset")
    try:
        return GameRules(hand, hand.options, section)
    except (TypeError, ValueError) as exc:
        raise GameError(f"{hand.id}: game: a value is not of its kind ({exc})", kind="ruleset") from None
