"""A game read from a log, written in mjcalc's own forms: each win as a line of notation (docs/NOTATION.md), the
whole game as GAME.md's JSON Lines game record — the same record a table would have typed."""

from __future__ import annotations

from typing import Any

from .model import WINDS, Game, Hand, LogError, Win, plain, write_tiles

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


def _names(game: Game) -> list[str]:
    """The players' names, made unique (a log may name two players alike, or leave a name empty)."""
    names: list[str] = []
    for seat, name in enumerate(game.players):
        name = name or f"player {seat + 1}"
        while name in names:
            name = f"{name} ({WINDS[seat]})"
        names.append(name)
    return names


def rounding(game: Game) -> str | None:
    """``thousand`` when the log's final points are those of scores rounded to the thousand (older logs),
    ``none`` when they are to one decimal, None when the log gives no points or neither fits."""
    if game.final_points_text is None or game.final_scores is None:
        return None
    if all("." in t for t in game.final_points_text):
        return "none"
    if all(t.lstrip("-").isdigit() for t in game.final_points_text):
        return "thousand"
    return None


def game_record(game: Game, rules: str = "riichi-tenhou") -> list[dict[str, Any]]:
    """GAME.md's JSON Lines record of a whole game: ``{"game": …}`` then one result a line."""
    if not game.whole:
        first = game.hands[0]
        raise LogError(f"{game.source}: the log starts at {first.label} with scores {first.scores}, not at the "
                       f"game's start: a game record needs the whole game")
    names = _names(game)
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


def tile_kinds(tiles: list[str]) -> list[str]:
    return [plain(t) for t in tiles]
