"""A game read from a log, written in mjcalc's own forms: each win as a line of notation (docs/NOTATION.md), the
whole game as GAME.md's JSON Lines game record — the same record a table would have typed."""

from __future__ import annotations

from typing import Any

from .model import WINDS, Game, Hand, LogError, Win, write_tiles

ROUND_WINDS = ("E", "S", "W", "N")


def win_line(hand: Hand, win: Win, context: bool = True) -> str:
    """The win as one line: concealed tiles, melds, the winning tile apart, then its flags. ``context`` adds the
    flags a game fills in itself (seat, round, from, honba, sticks, riichi, pao); without it the line is the
    ``hand`` of a game record."""
    rest = list(win.concealed)
    rest.remove(win.winning_tile)
    parts = [write_tiles(rest)] if rest else []
    parts += [m.notation() for m in win.melds]
    parts.append(write_tiles([win.winning_tile]))
    flags: list[str] = []
    if win.tsumo:
        flags.append("+zimo")
    if context:
        flags.append(f"+seat={hand.seat_wind(win.winner)}")
        flags.append(f"+round={ROUND_WINDS[hand.round]}")
        if win.from_who is not None:
            flags.append(f"+from={hand.seat_wind(win.from_who)}")
        if win.riichi:
            flags.append("+riichi")
    if win.double_riichi:
        flags.append("+wriichi")
    for name, on in (("+ippatsu", win.ippatsu), ("+gang", win.rinshan), ("+qiang", win.chankan),
                     ("+last", win.haitei or win.houtei), ("+tian", win.tenhou), ("+di", win.chiihou)):
        if on:
            flags.append(name)
    flags.append("+dora=" + "".join(win.dora))
    if win.ura and (win.riichi or win.double_riichi):
        flags.append("+ura=" + "".join(win.ura))
    if context:
        if win.honba:
            flags.append(f"+honba={win.honba}")
        if win.sticks:
            flags.append(f"+sticks={win.sticks}")
        if win.pao is not None:
            flags.append(f"+pao={hand.seat_wind(win.pao)}")
    return " ".join(parts + flags)


def _player_names(game: Game) -> list[str]:
    """The players' names, made unique (a log may name two players alike, or leave a name empty)."""
    names: list[str] = []
    for seat, name in enumerate(game.players):
        name = name or f"player {seat + 1}"
        while name in names:
            name = f"{name} ({WINDS[seat]})"
        names.append(name)
    return names


def tenhou_points(scores: list[int], thousand: bool) -> list[float]:
    """riichi-tenhou's final points (GAME.md): return 30000, uma +20/+10/−10/−20, each non-first player's
    (score − 30000) / 1000, first place the others' sum negated; ``thousand`` rounds each score to the thousand
    first, 500 away from zero. Ties rank by seat order."""
    order = sorted(range(4), key=lambda p: (-scores[p], p))
    uma = (20, 10, -10, -20)
    points = [0.0] * 4
    for rank, p in enumerate(order[1:], 1):
        s = scores[p]
        if thousand:
            s = (abs(s) + 500) // 1000 * 1000 * (1 if s >= 0 else -1)
        points[p] = round((s - 30000) / 1000 + uma[rank], 1)
    points[order[0]] = round(-sum(points), 1)
    return points


def rounding(game: Game) -> str | None:
    """How the log's final points were rounded: ``none`` (to one decimal) or ``thousand`` (older logs: scores
    to the thousand first), whichever reproduces them; None when the log gives none or neither does."""
    if game.final_points is None or game.final_scores is None:
        return None
    for how, thousand in (("none", False), ("thousand", True)):
        points = tenhou_points(game.final_scores, thousand)
        if all(abs(a - b) < 0.05 for a, b in zip(points, game.final_points, strict=True)):
            return how
    return None


def game_record(game: Game, rules: str) -> list[dict[str, Any]]:
    """GAME.md's JSON Lines record of a whole game: ``{"game": …}`` then one result a line, its header naming the
    ruleset ``rules`` (Tenhou's own: mjcalc.config.LOGS_RULESET)."""
    if not game.whole:
        first = game.hands[0]
        raise LogError(f"{game.source}: the log starts at {first.label} with scores {first.scores}, not at the "
                       f"game's start: a game record needs the whole game")
    names = _player_names(game)
    settings: dict[str, Any] = {}
    if game.rules.length != "hanchan":
        settings["length"] = game.rules.length
    if not game.rules.red_fives:
        settings["aka"] = "off"
    if not game.rules.open_tanyao:
        settings["kuitan"] = "off"
    how = rounding(game)
    if how == "thousand":
        settings["rounding"] = "thousand"
    records: list[dict[str, Any]] = [{"game": {"players": names, "rules": rules, "set": settings}}]
    for hand in game.hands:
        record: dict[str, Any] = {}
        if hand.wins:
            wins = []
            for win in hand.wins:
                entry: dict[str, Any] = {"winner": names[win.winner]}
                if win.from_who is not None:
                    entry["from"] = names[win.from_who]
                entry["hand"] = win_line(hand, win, context=False)
                if win.pao is not None:
                    entry["pao"] = names[win.pao]
                wins.append(entry)
            record["win"] = wins
        elif hand.draw is not None and hand.draw.abortive:
            record["abort"] = hand.draw.kind
        elif hand.draw is not None:
            record["draw"] = {"ready": [names[p] for p in hand.draw.ready],
                              "nagashi": [names[p] for p in hand.draw.nagashi]}
        if hand.riichi:
            record["riichi"] = [names[p] for p in hand.riichi]
        records.append(record)
    return records

