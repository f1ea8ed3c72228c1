"""A game record as GAME.md's JSON Lines: the header object and the result objects, read into the typed objects
(model.py) and written back. Players are named as in the header; a reader turns names into indices.

>>> h = header_from_json({"game": {"players": ["A", "B", "C", "D"], "rules": "riichi-tenhou", "set": {}}})
>>> h.players, h.rules
(('A', 'B', 'C', 'D'), 'riichi-tenhou')
>>> r = result_from_json({"win": [{"winner": "B", "from": "C", "hand": "123m456p789s111z 22z"}], "riichi": ["B"]}, h)
>>> r.wins[0].winner, r.wins[0].discarder, r.riichi
(1, 2, (1,))
>>> result_to_json(r, h)
{'win': [{'winner': 'B', 'from': 'C', 'hand': '123m456p789s111z 22z'}], 'riichi': ['B']}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .model import (
    ABORTS,
    AbortResult,
    DrawResult,
    GameError,
    Header,
    PenaltyResult,
    Result,
    Win,
    WinResult,
)

_RESULT_KEYS = ("win", "draw", "abort", "penalty")
_EXTRA_KEYS = ("riichi", "kongs", "hui")
MAX_NAME = 64


def check_players(players: Any) -> tuple[str, ...]:
    """Four distinct names, each printable text of 1 to 64 characters without a double quote."""
    if not isinstance(players, (list, tuple)) or len(players) != 4:
        raise GameError(f"a game has four players, not {players!r}"[:200])
    out = []
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise GameError(f"a player's name is text of 1 to {MAX_NAME} characters, not {name!r}"[:200])
        if '"' in name or not name.isprintable() or name != name.strip():
            raise GameError(f"a player's name has no double quote, no control character and no space at either "
                            f"end: {name!r}"[:200])
        if name in out:
            raise GameError(f"two players are named {name!r}")
        out.append(name)
    return tuple(out)


def make_header(players: Sequence[str], rules: str, options: Mapping[str, Any] | None = None,
                dealer: str | None = None) -> Header:
    """A header checked: four names, a ruleset named, options a mapping; ``dealer`` (a player's name) deals first,
    so the players are turned to start with that player."""
    names = check_players(list(players))
    if not isinstance(rules, str) or not rules:
        raise GameError("a game names its ruleset: a built-in name or a path to a .yaml file")
    if options is not None and not isinstance(options, Mapping):
        raise GameError(f"'set' is a mapping of option names to values, not {options!r}"[:200])
    for key in options or {}:
        if not isinstance(key, str):
            raise GameError(f"an option's name is text, not {key!r}")
    if dealer is not None:
        if dealer not in names:
            raise GameError(f"dealer: {dealer!r} is not one of the players ({', '.join(names)})")
        at = names.index(dealer)
        names = names[at:] + names[:at]
    return Header(names, rules, dict(options or {}))


def header_from_json(obj: Any) -> Header:
    """``{"game": {"players": [...], "rules": "…", "set": {...}}}`` (``dealer``: a player who deals first)."""
    if not isinstance(obj, Mapping) or set(obj) != {"game"} or not isinstance(obj["game"], Mapping):
        raise GameError('a game record starts with {"game": {"players": [...], "rules": "…", "set": {...}}}')
    game = obj["game"]
    unknown = set(game) - {"players", "rules", "set", "dealer"}
    if unknown:
        raise GameError(f"unknown key {sorted(unknown)[0]!r} in the game's header; it has players, rules, set, dealer")
    if "players" not in game or "rules" not in game:
        raise GameError("the game's header names its players and its rules")
    if game["players"].__class__ is not list:
        raise GameError(f'players: a list of the four names in seat order, ["A", "B", "C", "D"], not '
                        f'{game["players"]!r}'[:200])
    return make_header(game["players"], game["rules"], game.get("set") or {}, game.get("dealer"))


def header_to_json(header: Header) -> dict[str, Any]:
    return {"game": {"players": list(header.players), "rules": header.rules, "set": dict(header.options)}}


def _player(name: Any, header: Header, what: str) -> int:
    return _player_of(name, header.players, what)


def _player_of(name: Any, players: tuple[str, ...], what: str) -> int:
    try:
        return players.index(name)
    except ValueError:
        raise GameError(f"{what}: {name!r} is not one of the players ({', '.join(players)})"[:300]) from None


def _players(names: Any, header: Header, what: str) -> tuple[int, ...]:
    if names is None:
        return ()
    if names.__class__ is not list:
        raise GameError(f"{what} lists players: [\"A\", \"C\"], not {names!r}"[:200])
    return tuple([_player(n, header, what) for n in names])


def _kongs(obj: Any, header: Header) -> tuple[tuple[int, tuple[str, ...]], ...]:
    if obj is None:
        return ()
    if not isinstance(obj, Mapping):
        raise GameError('kongs maps a player to the kongs as written: {"C": ["[7777z]", "(1111m)"]}')
    out = []
    for name, melds in obj.items():
        player = _player(name, header, "kongs")
        if not isinstance(melds, list) or not melds or not all(isinstance(m, str) for m in melds):
            raise GameError(f"kongs of {name}: a list of kongs as written, such as [\"[7777z]\"]")
        out.append((player, tuple(melds)))
    return tuple(out)


_WIN_KEYS = frozenset(("winner", "from", "hand", "pao", "log"))


def _win(obj: Any, header: Header) -> Win:
    if obj.__class__ is not dict:  # JSON gives a dict: read as one, its look-ups are the dictionary's own
        if not isinstance(obj, Mapping):
            raise GameError('a win is {"winner": "B", "from": "C", "hand": "…"} ("from" left out: self-drawn)')
        obj = dict(obj)
    win: dict[str, Any] = obj
    if not _WIN_KEYS.issuperset(win):
        unknown = sorted(k for k in win if k not in _WIN_KEYS)
        raise GameError(f"unknown key {unknown[0]!r} in a win; it has winner, from, hand, pao")
    hand = win.get("hand")
    if hand.__class__ is not str or not hand or hand.isspace():
        raise GameError("a win gives its winning hand as a line of notation: \"hand\": \"…\"")
    log = win.get("log")
    if log is not None and not isinstance(log, Mapping):
        raise GameError("a win's log is an object: {\"han\": 3, \"fu\": 40, \"points\": 5200}")
    players = header.players
    discarder, pao = win.get("from"), win.get("pao")
    return Win(_player_of(win.get("winner"), players, "winner"),
               None if discarder is None else _player_of(discarder, players, "from"), hand,
               None if pao is None else _player_of(pao, players, "pao"), None if log is None else dict(log))


_KEYS = frozenset((*_RESULT_KEYS, *_EXTRA_KEYS))


def result_from_json(obj: Any, header: Header) -> Result:
    """One result object of GAME.md's JSON Lines."""
    if obj.__class__ is not dict and not isinstance(obj, Mapping):
        raise GameError("a result is a JSON object: {\"win\": [...]}, {\"draw\": {...}}, {\"abort\": \"…\"} or "
                        "{\"penalty\": {...}}")
    if not _KEYS.issuperset(obj):
        unknown = [k for k in obj if k not in _KEYS]
        raise GameError(f"unknown key {unknown[0]!r} in a result; a result has one of win, draw, abort, penalty, "
                        "and riichi, kongs, hui"[:300])
    if obj.__class__ is dict:  # the usual results, read straight: one win, or one win with riichi
        usual: dict[str, Any] = obj
        size = len(usual)
        wins = usual.get("win")
        if wins.__class__ is list and len(wins) == 1 and (size == 1 or size == 2 and "riichi" in usual):
            riichi = _players(usual.get("riichi"), header, "riichi")  # read first, as below: the same error first
            return WinResult((_win(wins[0], header),), riichi)
    kinds = [k for k in _RESULT_KEYS if k in obj]
    if len(kinds) != 1:
        raise GameError("a result is one of win, draw, abort or penalty" +
                        (f", not {' and '.join(kinds)}" if kinds else ""))
    kind = kinds[0]
    riichi = _players(obj.get("riichi"), header, "riichi")
    hui = obj.get("hui")
    if hui is not None and not isinstance(hui, str):
        raise GameError("hui names a tile: \"5m\"")
    if kind in ("abort", "penalty"):
        for key in ("kongs", "hui"):
            if key in obj:
                raise GameError(f"{key}: only a win or a draw lists kongs")
    if kind == "win":
        wins = obj["win"]
        if isinstance(wins, Mapping):
            wins = [wins]
        if not isinstance(wins, list) or not wins:
            raise GameError("win lists the winners: [{\"winner\": \"B\", \"from\": \"C\", \"hand\": \"…\"}]")
        return WinResult(tuple([_win(w, header) for w in wins]), riichi, _kongs(obj.get("kongs"), header), hui)
    if kind == "draw":
        draw = obj["draw"]
        if draw is True or draw is None:
            draw = {}
        if not isinstance(draw, Mapping) or set(draw) - {"ready", "nagashi"}:
            raise GameError("draw is {\"ready\": [...], \"nagashi\": [...]}")
        return DrawResult(_players(draw.get("ready"), header, "ready"),
                          _players(draw.get("nagashi"), header, "nagashi"), riichi, _kongs(obj.get("kongs"), header),
                          hui)
    if kind == "abort":
        if obj["abort"] not in ABORTS:
            raise GameError(f"abort is one of {', '.join(ABORTS)}, not {obj['abort']!r}"[:200])
        return AbortResult(str(obj["abort"]), riichi)
    penalty = obj["penalty"]
    if not isinstance(penalty, Mapping) or "player" not in penalty:
        raise GameError("penalty is {\"player\": \"B\", \"kind\": \"false_win\"} or "
                        "{\"player\": \"B\", \"amount\": 1000, \"to\": \"table\"}")
    extra = set(penalty) - {"player", "kind", "amount", "to"}
    if extra:
        raise GameError(f"unknown key {sorted(extra)[0]!r} in a penalty; it has player, kind, amount, to")
    player = _player(penalty["player"], header, "penalty")
    if "kind" in penalty:
        if penalty["kind"] != "false_win" or "amount" in penalty or "to" in penalty:
            raise GameError("a penalty's kind is false_win (the family's own), else it gives amount and to")
        return PenaltyResult(player, True, riichi=riichi)
    amount = penalty.get("amount")
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise GameError(f"a penalty's amount is a whole number, not {amount!r}"[:200])
    to = penalty.get("to", "each")
    target: str | int = to if to in ("each", "table") else _player(to, header, "penalty to")
    return PenaltyResult(player, False, amount, target, riichi)


def result_to_json(result: Result, header: Header) -> dict[str, Any]:
    """A result as GAME.md's JSON object (what ``result_from_json`` reads back to the same result)."""
    names = header.players
    out: dict[str, Any] = {}
    if isinstance(result, WinResult):
        wins = []
        for w in result.wins:
            win: dict[str, Any] = {"winner": names[w.winner]}
            if w.discarder is not None:
                win["from"] = names[w.discarder]
            win["hand"] = w.hand
            if w.pao is not None:
                win["pao"] = names[w.pao]
            if w.log is not None:
                win["log"] = w.log
            wins.append(win)
        out["win"] = wins
    elif isinstance(result, DrawResult):
        out["draw"] = {"ready": [names[p] for p in result.ready], "nagashi": [names[p] for p in result.nagashi]}
    elif isinstance(result, AbortResult):
        out["abort"] = result.abort
    else:
        if result.false_win:
            out["penalty"] = {"player": names[result.player], "kind": "false_win"}
        else:
            to = result.to if isinstance(result.to, str) else names[result.to]
            out["penalty"] = {"player": names[result.player], "amount": result.amount, "to": to}
    if result.riichi:
        out["riichi"] = [names[p] for p in result.riichi]
    if isinstance(result, (WinResult, DrawResult)):
        if result.kongs:
            out["kongs"] = {names[p]: list(melds) for p, melds in result.kongs}
        if result.hui is not None:
            out["hui"] = result.hui
    return out
