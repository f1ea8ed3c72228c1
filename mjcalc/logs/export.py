"""A game written as tenhou.net/6 JSON, the form Tenhou's viewer reads (``mjcalc game export NAME --format
tenhou-json``): ``{"title", "name", "rule", "log": [hand…], "sc"}``, each hand ``[[kyoku, honba, deposits],
scores, dora, ura, then for each seat its tiles dealt, taken and given, then the result]``.

A game record holds each hand's result, not its draws and discards, so each hand is written results-only: its
start (round, dealer, honba, deposits, scores), the winners' final hands (the concealed tiles as dealt, the calls
among the tiles taken, a concealed or added kong among those given, the winning tile drawn or, on a discard, the
one tile its discarder gives; an accepted riichi ``"r60"`` among the tiles its declarer gives), the dora and
ura-dora indicators, and the result as Tenhou writes it —
``["和了", changes, [winner, from, liable, "30符1飜1000点", "立直(1飜)", …]]``, ``["流局", changes]``,
``["九種九牌"]`` … The viewer shows each hand's start and its result. What the format has no place for is kept
under the key ``mjcalc`` (ignored by the viewer, read back by ``game import``): each hand's accepted riichi, who
was ready at a draw, each win's situation flags (ippatsu, rinshan …) and results no Tenhou hand has (penalties).

The limits: who a call was taken from is not in a game record (a chi is written from the left player, a pon or a
kong from the left too); which five of a kind is the red one is chosen; a hand's dora are known only from its
wins (a drawn hand is written with none); the log's own han, fu and points are written where the game has them
(an imported log), else mjcalc's.
"""

from __future__ import annotations

from typing import Any

from ..game import Header, Result, Sheet, WinResult, result_to_json
from ..game.sheet import HandEntry, WinEntry
from .model import TENHOU_YAKU, LogError

ABORT_NAMES = {"nine_terminals": "九種九牌", "four_riichi": "四家立直", "triple_ron": "三家和了",
               "four_kongs": "四槓散了", "four_winds": "四風連打"}
LIMIT_NAMES = {"mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満", "yakuman": "役満",
               "kazoe yakuman": "数え役満", "double yakuman": "役満", "triple yakuman": "役満"}
LIMIT_WORDS = frozenset(("満貫", "跳満", "倍満", "三倍満", "数え役満", "役満"))
WIND_CHARS = "東南西北"
NAME_OF = {ident: name for _, (name, ident) in sorted(TENHOU_YAKU.items(), reverse=True)}  # the first number's name
NAME_OF["renhou_yakuman"] = "人和"
NUMBER_OF = {ident: number for number, (_, ident) in sorted(TENHOU_YAKU.items(), reverse=True)}  # Tenhou's order
SITUATION_FLAGS = ("wriichi", "ippatsu", "gang", "qiang", "last", "tian", "di")


def code(kind: int, red: bool = False) -> int:
    """Tenhou's tile code of a kind (0–33): 11–19 the man tiles, 21–29 the pin, 31–39 the sou, 41–47 the
    honors; 51–53 the red fives."""
    if kind >= 27:
        return 41 + kind - 27
    suit, number = divmod(kind, 9)
    return 51 + suit if red and number == 4 else 10 * (suit + 1) + number + 1


def _codes(kinds: list[int], reds: list[int]) -> list[int]:
    """The codes of tiles, the kinds in ``reds`` written red once each."""
    left = list(reds)
    out = []
    for k in kinds:
        red = k in left
        if red:
            left.remove(k)
        out.append(code(k, red))
    return out


def _meld_text(kind: str, tiles: list[int]) -> str:
    """A call as tenhou.net/6 writes it, the taken tile after the letter (from the left player)."""
    t = [f"{c:02d}" for c in tiles]
    if kind == "chi":
        return "c" + "".join(t)
    if kind == "pon":
        return "p" + "".join(t)
    if kind == "open_kong":
        return "m" + "".join(t)
    if kind == "added_kong":
        return "k" + "".join(t)
    return "".join(t[:3]) + "a" + t[3]  # a concealed kong


class _Seat:
    def __init__(self) -> None:
        self.dealt: list[int] = []
        self.taken: list[Any] = []
        self.given: list[Any] = []


def _win_tiles(won: WinEntry, seats: list[_Seat], entry: HandEntry, winner_from: int | None) -> dict[str, Any]:
    """The winner's tiles into its seat (and the winning tile into the discarder's), the win's dora and flags."""
    result = won.scored.result
    hand = result.hand
    ctx = result.ctx
    assert hand is not None and ctx is not None
    reds = list(hand.red_kinds)
    for m in hand.melds:
        for k in m.reds:
            if k in reds:
                reds.remove(k)
    concealed = list(hand.concealed)
    win = hand.win_tile
    assert win is not None
    concealed.remove(win)
    win_red = win in reds and concealed.count(win) == 0
    if win_red:
        reds.remove(win)
    seat = seats[won.winner]
    seat.dealt = sorted(_codes(concealed, reds), key=_code_order)
    for m in hand.melds:
        tiles = _codes(list(m.held), list(m.reds))
        if m.kind == "concealed_kong":
            seat.given.append(_meld_text("concealed_kong", tiles))
        elif m.kind == "kong" and m.added:
            seat.given.append(_meld_text("added_kong", tiles))
        else:
            seat.taken.append(_meld_text("open_kong" if m.kind == "kong" else m.kind, tiles))
    tile = code(win, win_red)
    if winner_from is None:
        seat.taken.append(tile)
    else:  # one tile for the winners on one discard (a typed game's may differ: one a winner then)
        given = [t for t in seats[winner_from].given if isinstance(t, int)]
        if not given or (n_ron(entry, won) > len(given) - 1 and given[-1] != tile):
            seats[winner_from].given.append(tile)
    return {"dora": _indicators(won.hand, "dora", ctx.get("dora")), "ura": _indicators(won.hand, "ura", ctx.get("ura")),
            "flags": [f for f in SITUATION_FLAGS if ctx.get(f)]}


def n_ron(entry: HandEntry, won: WinEntry) -> int:
    """Which of the hand's wins on a discard this one is (0 the first)."""
    return [w for w in entry.wins if w.discarder is not None].index(won)


def _indicators(line: str, flag: str, value: object) -> list[int]:
    """A win's dora (or ura-dora) indicators as its line writes them (a red five stays red), else the kinds (the
    flag's value in the context)."""
    import re

    kinds: tuple[int, ...] = value if isinstance(value, tuple) else ()

    found = re.search(rf"\+{flag}=([0-9mpsz]+)(?:\s|$)", line)
    if found is None:
        return [code(k) for k in kinds]
    out = []
    digits = ""
    for ch in found.group(1):
        if ch.isdigit():
            digits += ch
            continue
        for d in digits:
            out.append(50 + "mps".index(ch) + 1 if d == "0" else 10 * ("mpsz".index(ch) + 1) + int(d))
        digits = ""
    return out if len(out) == len(kinds) else [code(k) for k in kinds]


def _code_order(c: int) -> tuple[int, int]:
    """Codes in the order of their tiles, a red five among the fives (51 is 5m)."""
    return (c - 50, 5) if c >= 51 else divmod(c, 10)


def _own_changes(won: WinEntry, dealer: int) -> list[int]:
    net = won.scored.net
    return [net[("E", "S", "W", "N")[(p - dealer) % 4]] for p in range(4)]


def _detail(won: WinEntry, entry: HandEntry, changes: list[int], honba: int) -> list[Any]:
    """``[winner, from, liable, "30符1飜1000点", "立直(1飜)", …]``: the log's own figures where the game has them."""
    from ..game.hands import items_of, paid_beside

    summary = won.scored.summary
    log = won.log or {}
    han = log.get("han", summary["fan"])
    fu = log.get("fu", summary["fu"])
    value = log.get("points", summary["points"] - paid_beside(won.scored))
    limit = log.get("limit") if "limit" in log else LIMIT_NAMES.get(str(summary["limit"] or ""))
    if limit is None and han >= 13 and log.get("fu") is None and "yaku" in log:
        limit = "役満"
    winner, dealer = won.winner, entry.dealer
    if won.discarder is not None:
        amount = f"{value}点"
    elif won.pao is not None:  # the liable player paid it all: the split of the hand's value
        amount = f"{value // 3}点∀" if winner == dealer else f"{value // 4}-{value // 2}点"
    elif winner == dealer:
        other = next(p for p in range(4) if p != winner)
        amount = f"{-changes[other] - 100 * honba}点∀"
    else:
        other = next(p for p in range(4) if p not in (winner, dealer))
        amount = f"{-changes[other] - 100 * honba}-{-changes[dealer] - 100 * honba}点"
    head = str(limit) if limit in LIMIT_WORDS else f"{fu}符{han}飜"
    if "yaku" in log:
        yaku = [(str(i), int(v)) for i, v in log["yaku"]]
    else:
        yaku = sorted(items_of(won.scored), key=lambda item: NUMBER_OF.get(item[0], 99))
    seat_wind = WIND_CHARS[(winner - dealer) % 4]
    round_wind = WIND_CHARS["ESWN".index(entry.round)]
    names = []
    for ident, v in yaku:
        if ident == "yakuhai_seat_wind":
            name = f"自風 {seat_wind}"
        elif ident == "yakuhai_round_wind":
            name = f"場風 {round_wind}"
        else:
            name = NAME_OF.get(ident, ident)
        if v >= 13 and v % 13 == 0 and ident not in ("dora", "aka_dora", "ura_dora"):
            names.append(f"{name}(役満)" if v == 13 else f"{name}({v // 13}倍役満)")
        else:
            names.append(f"{name}({v}飜)")
    return [winner, winner if won.discarder is None else won.discarder,
            winner if won.pao is None else won.pao, head + amount, *names]


def tenhou_json(header: Header, results: list[Result], sheet: Sheet, title: str = "") -> dict[str, Any]:
    """The game as tenhou.net/6 JSON (results-only hands; see the module's note). LogError for a game that is no
    riichi game."""
    options = sheet.options
    if not _is_riichi(header):  # a riichi game: its rules take riichi deposits
        raise LogError(f"tenhou.net/6 JSON is riichi's: {header.rules} is no riichi ruleset")
    aka = options.get("aka", True) is not False
    kuitan = options.get("kuitan", True) is not False
    length = options.get("length", "hanchan")
    disp = "般" + ("東" if length == "tonpuu" else "南") + ("喰" if kuitan else "") + ("赤" if aka else "")
    rule: dict[str, Any] = {"disp": disp, "aka": int(aka)}
    if aka:
        rule.update({"aka51": 1, "aka52": 1, "aka53": 1})
    log: list[Any] = []
    extra: list[dict[str, Any]] = []
    hands: list[dict[str, Any]] = []
    for entry in sheet.hands:
        result = results[entry.index]
        if entry.result in ("redeal", "penalty"):
            extra.append({"before": len(log), "result": result_to_json(result, header)})
            continue
        log.append(_exported_hand(entry, result, hands))
    out: dict[str, Any] = {"title": [title, ""], "name": list(header.players), "rule": rule, "log": log}
    final = sheet.final
    if final.ended:
        points = final.points or [0.0] * 4
        out["sc"] = [v for p in range(4) for v in (final.scores[p], points[p])]
    out["mjcalc"] = {"results_only": True, "rules": header.rules, "set": dict(header.options), "hands": hands,
                     "extra": extra}
    return out


def _is_riichi(header: Header) -> bool:
    from ..game import game_rules

    return bool(game_rules(header.rules, header.options).deposit)


def _exported_hand(entry: HandEntry, result: Result, hands: list[dict[str, Any]]) -> list[Any]:
    seats = [_Seat() for _ in range(4)]
    kyoku = (entry.round_number - 1) * 4 + entry.dealer
    dora: list[int] = []
    ura: list[int] = []
    info: dict[str, Any] = {"riichi": list(entry.riichi)}
    outcome: list[Any]
    if entry.result == "win":
        outcome = ["和了"]
        flags = []
        fus: list[Any] = []  # the fu a limit's points string leaves out
        discarder = entry.wins[0].discarder
        for n, won in enumerate(entry.wins):
            tiles = _win_tiles(won, seats, entry, discarder)
            dora = dora or tiles["dora"]
            ura = ura or tiles["ura"]
            flags.append(tiles["flags"])
            fus.append(won.log.get("fu") if won.log else won.scored.summary["fu"])
            changes = list(won.log["changes"]) if won.log and won.log.get("changes") else \
                _own_changes(won, entry.dealer)
            if n == 0 and not (won.log and won.log.get("changes")):
                leftover = entry.table % 1000  # a penalty's part of the table beyond whole sticks
                changes[won.winner] += leftover
            outcome += [changes, _detail(won, entry, changes, entry.honba if n == 0 else 0)]
        info["flags"] = flags
        info["fu"] = fus
        if isinstance(result, WinResult):
            info["order"] = [w.winner for w in result.wins]
    elif entry.result == "draw":
        changes = [entry.changes[p] + (1000 if p in entry.riichi else 0) for p in range(4)]
        if entry.nagashi:
            outcome = ["流し満貫", changes]
        elif len(entry.ready) == 4:
            outcome = ["全員聴牌", changes]
        elif not entry.ready:
            outcome = ["全員不聴", changes]
        else:
            outcome = ["流局", changes]
        info["ready"] = list(entry.ready)
        info["nagashi"] = list(entry.nagashi)
    else:
        outcome = [ABORT_NAMES.get(entry.abort or "", entry.abort or "")]
    for p in entry.riichi:  # an accepted riichi, as the format writes one: its declaration tile marked r
        seats[p].given.insert(0, "r60")
    hands.append(info)
    row: list[Any] = [[kyoku, entry.honba, entry.table // 1000], list(entry.start), dora, ura]
    for s in seats:
        row += [s.dealt, s.taken, s.given]
    row.append(outcome)
    return row
