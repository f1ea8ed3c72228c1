"""A game's sheet for people: every entry's label, the result in words, each player's change and running total;
the standing or the final ranking; what the next hand is; a compact text chart of the scores. And the sheet as
CSV. Presentation only: every number comes from the engine's sheet (mjcalc.game.Sheet).

The layout fits the width it is given: one row an entry when that fits, else two rows an entry (the result, then
the players' columns), else a block an entry (a narrow terminal: a player a line).
"""

from __future__ import annotations

import re
from typing import Any

from ..i18n import N_, tr
from ..output.fit import cols, wrap, wrap_parts

ABORT_NAMES = {"nine_terminals": N_("nine terminals"), "four_winds": N_("four winds"),
               "four_riichi": N_("four riichi"), "four_kongs": N_("four kongs"), "triple_ron": N_("three winners")}
UNITS = {"fan": N_("fan"), "han": N_("han"), "tai": N_("tai")}
WIND_NAMES = {"E": "东", "S": "南", "W": "西", "N": "北"}
SPARKS = "▁▂▃▄▅▆▇█"
MAX_WORDS = 44  # the widest the result column of the one-row layout grows


# Why a game ended, as the engine says it (mjcalc/game/replay.py), for the languages: fixed texts and patterns.
REASONS = (N_("a score below zero"), N_("the last dealer stops in first place"), N_("the last round is played"))
REASON_PATTERNS = ((re.compile(r"a player at (\d+) or more in the extra round$"),
                    N_("a player at {n} or more in the extra round")),
                   (re.compile(r"a player at (\d+) or more after the last round$"),
                    N_("a player at {n} or more after the last round")),
                   (re.compile(r"(\d+) hands are played$"), N_("{n} hands are played")))


def reason_words(reason: str | None, lang: str) -> str:
    """Why the game ended, in ``lang`` (a reason this module does not know stays as the engine says it)."""
    if reason is None or lang == "en":
        return reason or ""
    if reason in REASONS:
        return tr(reason, lang)
    for pattern, text in REASON_PATTERNS:
        found = pattern.match(reason)
        if found:
            return tr(text, lang).format(n=found.group(1))
    return reason


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else "±0" if value == 0 else str(value)


def _number(value: float | int | None) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:+.1f}"
    return str(value)


def _unit(unit: str, lang: str) -> str:
    return tr(UNITS[unit], lang) if unit in UNITS else unit


def _names(players: list[str], who: list[int]) -> str:
    return " ".join(players[p] for p in who)


def result_words(entry: Any, players: list[str], lang: str) -> str:
    """The entry's result in words: ``B ron C · 4 han 50 fu · mangan · 8000 · riichi B D``."""
    parts: list[str] = []
    if entry.result == "win":
        wins = []
        for w in entry.wins:
            if w.discarder is None:
                head = tr("{winner} tsumo", lang).format(winner=players[w.winner])
            else:
                head = tr("{winner} ron {discarder}", lang).format(winner=players[w.winner],
                                                                    discarder=players[w.discarder])
            s = w.scored.summary
            words = [head, f"{s['fan']} {_unit(s['unit'], lang)}" + (f" {s['fu']} {tr('fu', lang)}" if s["fu"] else "")]
            if s["limit"]:
                words.append(tr(s["limit"], lang))
            words.append(str(s["points"]))
            if w.pao is not None:
                words.append(tr("pao {player}", lang).format(player=players[w.pao]))
            wins.append(" · ".join(words))
        parts.append("; ".join(wins))
    elif entry.result == "draw":
        parts.append(tr("draw", lang))
        if entry.ready:
            parts.append(tr("ready {players}", lang).format(players=_names(players, entry.ready)))
        if entry.nagashi:
            parts.append(tr("nagashi {players}", lang).format(players=_names(players, entry.nagashi)))
    elif entry.result == "abort":
        kind = entry.abort or ""
        parts.append(tr("abort: {kind}", lang).format(kind=tr(ABORT_NAMES[kind], lang) if kind in ABORT_NAMES
                                                      else kind))
    else:  # redeal (a false win) or a penalty
        p = entry.penalty or {}
        who = players[p["player"]] if isinstance(p.get("player"), int) else "?"
        if p.get("kind") == "false_win":
            parts.append(tr("{player} false win", lang).format(player=who))
            if entry.result == "redeal":
                parts.append(tr("redealt", lang))
        else:
            to = p.get("to")
            target = players[to] if isinstance(to, int) else tr("table", lang) if to == "table" else tr("each", lang)
            parts.append(tr("penalty {player} {amount} → {to}", lang).format(player=who, amount=p.get("amount"),
                                                                            to=target))
    if entry.riichi:
        parts.append(tr("riichi {players}", lang).format(players=_names(players, entry.riichi)))
    for k in entry.kongs:
        parts.append(tr("kongs {player} {kongs}", lang).format(player=players[k["player"]], kongs=" ".join(k["kongs"])))
    return " · ".join(parts)


def next_words(nxt: dict[str, Any], players: list[str], lang: str) -> str:
    """``hand 8 · 东3局 4本场 · dealer C · round E · honba 4 · table 0 · streak 0``."""
    return " · ".join([tr("hand {number}", lang).format(number=nxt["number"]), str(nxt["label"]),
                       tr("dealer {player}", lang).format(player=players[nxt["dealer"]]),
                       tr("round {wind}", lang).format(wind=WIND_NAMES.get(nxt["round"], nxt["round"]) if lang == "zh"
                                                       else nxt["round"]),
                       tr("honba {n}", lang).format(n=nxt["honba"]), tr("table {n}", lang).format(n=nxt["table"]),
                       tr("streak {n}", lang).format(n=nxt["lian"])])


def next_lines(nxt: dict[str, Any], players: list[str], lang: str, width: int | None) -> list[str]:
    """``next: hand 8 · 东3局 4本场 · …`` fitted to ``width``, broken only between its parts."""
    return wrap_parts(tr("next: {what}", lang).format(what=next_words(nxt, players, lang)), width, 2)


def _pad(text: str, width: int, right: bool = False) -> str:
    room = max(0, width - cols(text))
    return " " * room + text if right else text + " " * room


def sheet_text(name: str, sheet: Any, lang: str = "en", width: int | None = None, *, chart: bool = True) -> str:
    """The whole sheet as text, fitted to ``width`` columns (None: the one-row layout, as wide as it is)."""
    players = sheet.players
    lines = wrap(f"{name} · {sheet.ruleset} · " + tr("{players} ({first} deals first)", lang).format(
        players=", ".join(players), first=players[0]), width, 2)
    if sheet.options:
        lines += wrap(tr("options", lang) + ": " + " ".join(f"{k}={_option(v)}" for k, v in sheet.options.items()),
                      width, 2)
    lines.append("")
    if sheet.hands:
        lines += _entries(sheet, lang, width)
    else:
        lines.append(tr("no hand played yet", lang))
    for error in sheet.errors:
        lines += wrap(tr("result {n} no longer applies: {message}", lang).format(
            n=(error.index or 0) + 1, message=error.render(lang).splitlines()[0]), width, 2)
    lines.append("")
    lines += standing_text(sheet, lang, width)
    if chart and sheet.hands:
        drawn = chart_text(sheet, width)
        if drawn:
            lines.append("")
            lines += drawn
    return "\n".join(lines)


def _option(value: Any) -> str:
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def _entries(sheet: Any, lang: str, width: int | None) -> list[str]:
    players = sheet.players
    rows = []
    for h in sheet.hands:
        rows.append((str(h.number), h.label, result_words(h, players, lang),
                     [(signed(c), str(e)) for c, e in zip(h.changes, h.end, strict=True)]))
    wn = max(cols(r[0]) for r in rows)
    wl = max(cols(r[1]) for r in rows)
    wc = [max(cols(r[3][p][0]) for r in rows) for p in range(4)]
    we = [max(cols(r[3][p][1]) for r in rows) for p in range(4)]
    cell = [max(wc[p] + 1 + we[p], cols(players[p])) for p in range(4)]
    ww = min(MAX_WORDS, max(cols(r[2]) for r in rows))
    head = [tr("label", lang), tr("result", lang)]
    players_width = sum(cell) + 2 * 4

    def player_cells(r: tuple[str, str, str, list[tuple[str, str]]]) -> str:
        return "".join("  " + _pad(_pad(c, wc[p], True) + " " + _pad(e, we[p], True), cell[p], True)
                       for p, (c, e) in enumerate(r[3]))

    names_row = "".join("  " + _pad(players[p], cell[p], True) for p in range(4))
    one_row = wn + 2 + wl + 2 + ww + players_width
    out: list[str] = []
    if width is None or one_row <= width:
        out.append(_pad("#", wn, True) + "  " + _pad(head[0], wl) + "  " + _pad(head[1], ww) + names_row)
        for r in rows:
            words = wrap(r[2], ww, 2) if cols(r[2]) > ww else [r[2]]
            out.append(_pad(r[0], wn, True) + "  " + _pad(r[1], wl) + "  " + _pad(words[0], ww) + player_cells(r))
            out += [" " * (wn + 2 + wl + 2) + w for w in words[1:]]
        return out
    if players_width + 2 <= width:
        out.append(_pad("#", wn, True) + "  " + tr("hand · result", lang))
        out.append("  " + names_row)
        for r in rows:
            out += wrap(_pad(r[0], wn, True) + "  " + r[1] + " · " + r[2], width, wn + 2)
            out.append("  " + player_cells(r))
        return out
    wname = max(cols(p) for p in players)
    for r in rows:
        out += wrap(f"{r[0]} {r[1]} · {r[2]}", width, 2)
        for p, (c, e) in enumerate(r[3]):
            out.append("  " + _pad(players[p], wname) + "  " + _pad(c, max(wc), True) + "  " + _pad(e, max(we), True))
    return out


def standing_text(sheet: Any, lang: str, width: int | None) -> list[str]:
    """The ranking (final once ended: with points and grades where the rules have them), then the next hand."""
    final = sheet.final
    players = sheet.players
    out: list[str] = []
    if final.ended:
        out += wrap(tr("the game has ended: {reason}", lang).format(reason=reason_words(final.reason, lang)), width, 2)
        out.append(tr("final ranking:", lang))
    else:
        out.append(tr("standing:", lang))
    wname = max(cols(p) for p in players)
    wscore = max(len(str(s)) for s in final.scores)
    for place, p in enumerate(final.ranking, 1):
        parts = [f"  {place}. " + _pad(players[p], wname) + "  " + _pad(str(final.scores[p]), wscore, True)]
        if final.points is not None:
            parts.append(tr("{points} pt", lang).format(points=_number(final.points[p])))
        if final.grades is not None and final.grades[p]:
            grade = final.grades[p]
            parts.append(grade.get(lang) or grade.get("en") or "")
        out += wrap("  ".join(parts), width, 6)
    if final.leftover:
        out += wrap(tr("the table's {n} went to first place", lang).format(n=final.leftover), width, 2)
    if final.next is not None:
        out += next_lines(final.next, players, lang, width)
    return out


def chart_text(sheet: Any, width: int | None) -> list[str]:
    """Each player's score over the hands as a line of ▁…█ (one scale for all), from the start to the last entry;
    squeezed to the width (each column the score at the end of its share of the entries). Nothing when under
    eight columns are left for it."""
    players = sheet.players
    series = [[sheet.hands[0].start[p]] + [h.end[p] for h in sheet.hands] for p in range(4)]
    low = min(min(s) for s in series)
    high = max(max(s) for s in series)
    wname = max(cols(p) for p in players)
    last = [str(s[-1]) for s in series]
    room = (width if width is not None else 2 + wname + 2 + len(series[0]) + 2 + max(map(len, last))) \
        - (2 + wname + 2) - 2 - max(map(len, last))
    if room < 8:
        return []
    points = len(series[0])
    if points > room:
        picks = [round((i + 1) * points / room) - 1 for i in range(room)]
        picks[0] = 0
    else:
        picks = list(range(points))
    span = high - low
    out = [f"  {_pad('', wname)}  {low} … {high}"]
    for p in range(4):
        marks = "".join(SPARKS[0 if span == 0 else min(7, (series[p][i] - low) * 8 // (span + 1))] for i in picks)
        out.append(f"  {_pad(players[p], wname)}  {marks}  {last[p]}")
    return out


# --- CSV ----------------------------------------------------------------------------------------------------

def sheet_csv(sheet: Any, lang: str = "en") -> str:
    """One row an entry: number, label, round, dealer, honba, table, the result's kind and words, then each
    player's change and score after it; a last row with the final scores (and points, where the rules have them)."""
    import csv
    import io

    players = sheet.players
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")
    out.writerow(["number", "label", "round", "dealer", "honba", "table", "result", "words",
                  *(f"{p} change" for p in players), *(f"{p} score" for p in players)])
    for h in sheet.hands:
        out.writerow([h.number, h.label, h.round, players[h.dealer], h.honba, h.table, h.result,
                      result_words(h, players, lang), *h.changes, *h.end])
    final = sheet.final
    out.writerow(["", "final", "", "", "", "", "ended" if final.ended else "standing", final.reason or "",
                  *([""] * 4 if final.points is None else [_number(x) for x in final.points]), *final.scores])
    return buffer.getvalue()
