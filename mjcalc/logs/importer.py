"""A game log imported as a game (GAME.md, "Logs of online games"): the game record a table would have typed, each
result built from the log, replayed by the game engine (mjcalc.game) to the sheet, each win re-scored beside what
the log recorded, and every difference between the two listed.

Under the log's own rules (``riichi-tenhou``, the lobby's red fives, open tanyao and length, the rounding of the
final points the log's own) the sheet must be the log: each hand's start (scores, dealer, honba, deposits), each
win's han, fu, points, yaku and changes, each draw's changes, the end and the final scores and points. Under other
rules (``rules``, ``options``) the hands and their order stay the log's; the scores, the dealer, the honba and the
end follow those rules, and the hands the log goes on with after the game's end there are listed as not played.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ..config import LOGS_RULESET
from ..game import (
    AbortResult,
    DrawResult,
    GameError,
    Header,
    Replay,
    Result,
    Sheet,
    WinResult,
    header_to_json,
    result_to_json,
)
from ..game import Win as GameWin
from ..game.sheet import HandEntry, WinEntry
from .model import TENHOU_YAKU, WINDS, Game, Hand, LogError, Win
from .record import rounding, win_line

TENHOU_RULES = LOGS_RULESET  # the rules of Tenhou's logs, unless --rules names others
MAX_NAME = 60  # a game record's names are at most 64 characters: room for the seat added to a name met twice


def player_names(game: Game) -> list[str]:
    """The players' names as a game record takes them: printable, without double quotes or spaces at the ends,
    distinct (a name met twice gets its seat), an empty one ``player N``."""
    names: list[str] = []
    for seat, raw in enumerate(game.players):
        text = "".join(c if c.isprintable() and c != '"' else "'" if c == '"' else "" for c in
                       unicodedata.normalize("NFC", raw)).strip()[:MAX_NAME].strip()
        name = text or f"player {seat + 1}"
        while name in names:
            name = f"{name} ({WINDS[seat]})"
        names.append(name)
    return names


def lobby_options(game: Game, options: dict[str, Any], declared: tuple[str, ...]) -> dict[str, Any]:
    """The options the log's lobby sets (red fives, open tanyao, the length, the rounding of the final points),
    those the ruleset declares, under what ``options`` (the user's) says."""
    found: dict[str, Any] = {}
    if not game.rules.red_fives:
        found["aka"] = False
    if not game.rules.open_tanyao:
        found["kuitan"] = False
    if game.rules.length != "hanchan":
        found["length"] = game.rules.length
    if rounding(game) == "thousand":
        found["rounding"] = "thousand"
    out = {k: v for k, v in found.items() if k in declared}
    out.update(options)
    return out


def log_of(win: Win) -> dict[str, Any]:
    """What the log recorded of a win, as the sheet's ``log``: han, fu (None where the log gives none, and for a
    yakuman, whose fu count for nothing), points (the hand's own value, without honba and deposits), each player's
    change over the win, the yaku as mjcalc's items with their han, the limit in the log's words."""
    score = win.log
    if score is None:
        return {}
    return {"han": score.han, "fu": None if score.yakuman else score.fu, "points": score.points,
            "changes": list(win.changes), "yaku": [[TENHOU_YAKU[n][1], h] for n, h in score.yaku if h],
            "limit": score.limit}


def results_of(game: Game, header: Header) -> list[tuple[int | None, Result]]:
    """Each hand of the log as the result a table would have typed (players are the log's seats), with the index
    of its hand; the results no Tenhou hand has (a game mjcalc wrote: penalties) where they were, with None."""
    from ..game import result_from_json

    extra = sorted(game.extra, key=lambda e: e[0])
    out: list[tuple[int | None, Result]] = []
    for i, hand in enumerate(game.hands):
        while extra and extra[0][0] <= i:
            try:
                out.append((None, result_from_json(extra.pop(0)[1], header)))
            except GameError as exc:
                raise LogError(f"{game.source}: mjcalc.extra: {exc.message}") from None
        riichi = tuple(hand.riichi)
        if hand.wins:
            out.append((i, WinResult(tuple(GameWin(w.winner, w.from_who, win_line(hand, w, context=False), w.pao,
                                                   log_of(w)) for w in hand.wins), riichi)))
        elif hand.draw is not None and hand.draw.abortive:
            out.append((i, AbortResult(hand.draw.kind, riichi)))
        elif hand.draw is not None:
            out.append((i, DrawResult(tuple(hand.draw.ready), tuple(hand.draw.nagashi), riichi)))
        else:  # the readers refuse a hand without a result
            raise LogError(f"{game.source}: {hand.label} has no result")
    for _, obj in extra:
        try:
            out.append((None, result_from_json(obj, header)))
        except GameError as exc:
            raise LogError(f"{game.source}: mjcalc.extra: {exc.message}") from None
    return out


class Imported:
    """A log imported: the log as read, the header and results a table would have typed (each with the index of
    its hand in the log, None for a result no Tenhou hand has), the sheet they replay to, whether the rules are
    the log's own, which results were applied (False once the game has ended under these rules, or where the
    result could not be applied: ``errors``), and the differences from the log (``{"hand", "label", "what"}``)."""

    def __init__(self, game: Game, header: Header, results: list[tuple[int | None, Result]], sheet: Sheet,
                 own: bool, applied: list[bool], errors: dict[int, GameError],
                 differences: list[dict[str, Any]]) -> None:
        self.game = game
        self.header = header
        self.results = results
        self.sheet = sheet
        self.own = own
        self.applied = applied
        self.errors = errors
        self.differences = differences

    @property
    def agrees(self) -> bool:
        return not self.differences

    def not_played(self) -> list[dict[str, Any]]:
        """The log's hands that are no part of the sheet: after the game's end under these rules, or refused."""
        out = []
        ended_at = self.sheet.hands[-1].label if self.sheet.hands else None
        for n, (i, result) in enumerate(self.results):
            if self.applied[n] or i is None:
                continue
            hand = self.game.hands[i]
            error = self.errors.get(n)
            reason = error.message if error is not None else \
                f"the game ended before it ({self.sheet.final.reason}, after {ended_at})"
            out.append({"index": i, "label": hand.label, "round": WINDS[hand.round], "dealer": hand.dealer,
                        "result": _result_kind(hand), "record": result_to_json(result, self.header),
                        "refused": error is not None, "reason": reason})
        return out

    def log_json(self) -> dict[str, Any]:
        """The sheet's ``log`` key: where the game comes from, what the log says of its end, the differences."""
        g = self.game
        return {"file": g.source, "format": g.format, "ref": g.reference, "lobby": g.rules.described,
                "rules": {"red_fives": g.rules.red_fives, "open_tanyao": g.rules.open_tanyao,
                          "length": g.rules.length},
                "players": list(g.players), "own_rules": self.own,
                "final": None if g.final_scores is None else {"scores": g.final_scores, "points": g.final_points},
                "agrees": self.agrees, "differences": self.differences, "not_played": self.not_played()}

    def to_json(self, lang: str = "en") -> dict[str, Any]:
        """GAME.md's sheet, with the log's own state of each hand beside it (``hands[].log``) and the ``log``."""
        out = self.sheet.to_json(lang)
        for entry, hand in zip(out["hands"], self.sheet.hands, strict=True):
            i = self.results[hand.index][0]
            entry["log"] = None if i is None else hand_state(self.game.hands[i])
        out["log"] = self.log_json()
        return out


    def json_bytes(self) -> bytes:
        """``to_json()`` as compact JSON (UTF-8), each win's score written as a batch writes its record."""
        from ..game.hands import FRAGMENT, json_bytes

        if FRAGMENT is None:
            return json_bytes(self.to_json())
        out = self.sheet.to_json("en", lambda scored: FRAGMENT(scored.json_bytes()))
        for entry, hand in zip(out["hands"], self.sheet.hands, strict=True):
            i = self.results[hand.index][0]
            entry["log"] = None if i is None else hand_state(self.game.hands[i])
        out["log"] = self.log_json()
        return json_bytes(out)


def hand_state(hand: Hand) -> dict[str, Any]:
    """A hand's state at its start and its changes, as the log recorded them (riichi deposits apart)."""
    if hand.wins:
        changes = [sum(w.changes[p] for w in hand.wins) for p in range(4)]
    else:
        changes = list(hand.draw.changes) if hand.draw is not None else [0, 0, 0, 0]
    return {"label": hand.label, "round": WINDS[hand.round], "dealer": hand.dealer, "honba": hand.honba,
            "table": 1000 * hand.sticks, "start": list(hand.scores), "riichi": list(hand.riichi), "changes": changes}


def _result_kind(hand: Hand) -> str:
    if hand.wins:
        return "win"
    return "abort" if hand.draw is not None and hand.draw.abortive else "draw"


def header_of(game: Game, rules: str = TENHOU_RULES, options: dict[str, Any] | None = None) -> tuple[Header, bool]:
    """The header of the game's record under ``rules`` and ``options``; whether those are the log's own rules.
    MjcalcError (a ruleset or option that cannot be used), LogError (a log that is no whole game, or rules that
    are no riichi)."""
    from ..game import game_rules

    if not game.whole:
        first = game.hands[0]
        raise LogError(f"{game.source}: the log starts at {first.label} with scores {first.scores}, not at the "
                       f"game's start: only a whole game can be imported (mjcalc batch scores its wins)")
    probe = game_rules(rules, {})
    if not probe.deposit:
        raise LogError(f"{game.source}: a Tenhou log is a riichi game; {rules} is no riichi ruleset")
    chosen = lobby_options(game, dict(options or {}), probe.hand.option_names)
    header = Header(tuple(player_names(game)), rules, chosen)
    game_rules(rules, chosen)  # the options checked (MjcalcError)
    return header, rules == TENHOU_RULES and not options


def import_game(game: Game, rules: str = TENHOU_RULES, options: dict[str, Any] | None = None) -> Imported:
    """Replay a log read (mjcalc.logs.read_path) as a game under ``rules``; every difference from the log listed."""
    header, own = header_of(game, rules, options)
    results = results_of(game, header)
    replay = Replay(header)
    applied = [False] * len(results)
    errors: dict[int, GameError] = {}
    for n, (_, result) in enumerate(results):
        if replay.ended:
            break
        try:
            replay.apply(result, n)
        except GameError as exc:
            errors[n] = exc
            continue
        applied[n] = True
    sheet = replay.sheet()
    differences = _differences(game, sheet, header, results, applied, errors, own)
    return Imported(game, header, results, sheet, own, applied, errors, differences)


def _differences(game: Game, sheet: Sheet, header: Header, results: list[tuple[int | None, Result]],
                 applied: list[bool], errors: dict[int, GameError], own: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    names = list(header.players)

    def say(i: int | None, label: str, what: str) -> None:
        out.append({"hand": i, "label": label, "what": what})

    entries = {entry.index: entry for entry in sheet.hands}
    for n, (i, _) in enumerate(results):
        label = game.hands[i].label if i is not None else f"result {n + 1}"
        if n in errors:
            say(i, label, f"not applied: {errors[n].message}")
            continue
        if not applied[n]:
            if own and i is not None:
                say(i, label, f"the log plays it, but the game has ended ({sheet.final.reason})")
            continue
        if i is None:
            continue
        hand = game.hands[i]
        entry = entries[n]
        if own:
            for what in _state(hand, entry):
                say(i, label, what)
        for won, win in zip(entry.wins, _sheet_order(hand), strict=True):
            for what in win_differences(won, win, names):
                say(i, label, what)
        if hand.draw is not None:
            mine = [entry.changes[p] + (1000 if p in entry.riichi else 0) for p in range(4)]
            if mine != hand.draw.changes:
                say(i, label, f"{hand.draw.kind}: changes {mine}, the log {hand.draw.changes}")
    if own and game.final_scores is not None and all(applied):
        final = sheet.final
        if not final.ended:
            say(None, "end", f"the log ends the game here; mjcalc plays on ({(final.next or {}).get('label')})")
        if final.scores != game.final_scores:
            say(None, "end", f"final scores {final.scores}, the log {game.final_scores}")
        if game.final_points is not None and final.points is not None and \
                any(abs(a - b) > 0.05 for a, b in zip(final.points, game.final_points, strict=True)):
            say(None, "end", f"final points {final.points}, the log {game.final_points}")
    return out


def _sheet_order(hand: Hand) -> list[Win]:
    """The log's wins in the sheet's order: nearest to the discarder first."""
    if len(hand.wins) < 2:
        return list(hand.wins)
    discarder = hand.wins[0].from_who or 0
    return sorted(hand.wins, key=lambda w: (w.winner - discarder) % 4)


def _state(hand: Hand, entry: HandEntry) -> list[str]:
    found = []
    if entry.label != hand.label:
        found.append(f"label {entry.label}, the log {hand.label}")
    if entry.dealer != hand.dealer:
        found.append(f"dealer {entry.dealer}, the log {hand.dealer}")
    if entry.honba != hand.honba:
        found.append(f"honba {entry.honba}, the log {hand.honba}")
    if entry.table != 1000 * hand.sticks:
        found.append(f"deposits on the table {entry.table}, the log {1000 * hand.sticks}")
    if entry.start != hand.scores:
        found.append(f"scores at the start {entry.start}, the log {hand.scores}")
    return found


def win_differences(won: WinEntry, win: Win, names: list[str]) -> list[str]:
    """How mjcalc's score of a win differs from the log's, in words (none when it agrees)."""
    log = won.log
    if won.agrees is not False or log is None:
        return []
    s = won.scored.summary
    who = names[won.winner] + (" tsumo" if won.discarder is None else f" ron {names[won.discarder]}")
    found = []
    if log.get("han") is not None and s["fan"] != log["han"]:
        found.append(f"han {s['fan']}, the log {log['han']}")
    if log.get("fu") is not None and s["fu"] != log["fu"]:
        found.append(f"fu {s['fu']}, the log {log['fu']}")
    from ..game.hands import items_of, paid_beside

    own = s["points"] - paid_beside(won.scored)
    if log.get("points") is not None and own != log["points"]:
        found.append(f"points {own}, the log {log['points']}")
    if log.get("yaku") is not None:
        mine = items_of(won.scored)
        theirs = sorted((str(i), int(v)) for i, v in log["yaku"])
        if mine != theirs:
            missing = [f"{i} {v}" for i, v in theirs if (i, v) not in mine]
            extra = [f"{i} {v}" for i, v in mine if (i, v) not in theirs]
            found.append("yaku: " + "; ".join(filter(None, [("mjcalc has " + ", ".join(extra)) if extra else "",
                                                            ("the log has " + ", ".join(missing)) if missing else ""])))
    if not found:
        found.append(f"changes differ from the log's {log.get('changes')}")
    return [f"{who} ({won.hand}): {what}" for what in found]


def record_jsonl(imported: Imported) -> list[dict[str, Any]]:
    """The game's record (GAME.md's JSON Lines objects) as applied: header, then each result played."""
    rows = [header_to_json(imported.header)]
    rows += [result_to_json(r, imported.header) for (_, r), ok in zip(imported.results, imported.applied,
                                                                       strict=True) if ok]
    return rows


def import_path(path: str, rules: str = TENHOU_RULES, options: dict[str, Any] | None = None) -> Imported:
    """A log file read and imported (LogError: it cannot be read, or is no whole game)."""
    from . import read_path

    return import_game(read_path(path), rules, options)
