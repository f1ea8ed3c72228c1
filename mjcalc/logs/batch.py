"""``mjcalc batch`` on game logs: every win of every log re-scored by mjcalc, one record a win with the log's own
values beside mjcalc's, and a summary of where they differ — the re-scoring a log analyst runs over a year of
games. A file that cannot be read is one error record (naming the file and the place), and the other files are
still read. Logs are read one at a time (memory stays flat in the number of files); ``jobs`` spreads the files
over processes, the output in the files' order.

Each win is scored on its own, as its line with the whole situation the log gives (seat, round, honba, deposits,
riichi, dora …): a log that is only part of a game (a few hands) is scored as well as a whole one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..engine import Request, score_line
from .files import log_files
from .importer import TENHOU_RULES, log_of
from .model import Game, Hand, LogError, Win
from .record import win_line

FIELDS = ("han", "fu", "points", "yaku", "changes")  # what a win's record compares, in this order
CSV_COLUMNS = ("file", "ref", "hand", "label", "win", "winner", "from", "line", "result", "han", "fu", "points",
               "log_han", "log_fu", "log_points", "agrees", "differences", "error")


@dataclass
class Tally:
    """What a run met: files, files that could not be read, games (whole logs), wins, wins that agree, and how
    often each field differed."""

    files: int = 0
    unreadable: int = 0
    games: int = 0
    wins: int = 0
    agree: int = 0
    differ: dict[str, int] = field(default_factory=lambda: {f: 0 for f in FIELDS})
    not_scored: int = 0  # wins mjcalc does not score as a win (or cannot read)

    def add(self, other: Tally) -> None:
        self.files += other.files
        self.unreadable += other.unreadable
        self.games += other.games
        self.wins += other.wins
        self.agree += other.agree
        self.not_scored += other.not_scored
        for k, v in other.differ.items():
            self.differ[k] = self.differ.get(k, 0) + v

    def to_json(self) -> dict[str, Any]:
        return {"files": self.files, "unreadable": self.unreadable, "games": self.games, "wins": self.wins,
                "agree": self.agree, "differ": self.wins - self.agree, "not_scored": self.not_scored,
                "fields": dict(self.differ)}

    def line(self, lang: str = "en", seconds: float = 0.0) -> str:
        from ..i18n import tr

        rate = f", {self.games / seconds:,.0f} games/s" if seconds >= 0.5 and self.games else ""
        fields = ", ".join(f"{k} {v:,}" for k, v in self.differ.items() if v)
        return tr("{files} log files ({unreadable} unreadable), {games} whole games, {wins} wins: {agree} agree "
                  "with the log, {differ} differ{fields} ({seconds} s{rate})", lang).format(
            files=f"{self.files:,}", unreadable=f"{self.unreadable:,}", games=f"{self.games:,}",
            wins=f"{self.wins:,}", agree=f"{self.agree:,}", differ=f"{self.wins - self.agree:,}",
            fields=f" ({fields})" if fields else "", seconds=f"{seconds:.1f}", rate=rate)


def request_for(game: Game, rules: str, options: dict[str, Any]) -> Request:
    """The scorer's request for a log's wins: the rules, the lobby's red fives and open tanyao, the user's options."""
    chosen: dict[str, Any] = {}
    if not game.rules.red_fives:
        chosen["aka"] = "off"
    if not game.rules.open_tanyao:
        chosen["kuitan"] = "off"
    chosen.update(options)
    return Request(rules, chosen)


def win_record(game: Game, index: int, hand: Hand, number: int, win: Win, request: Request) -> dict[str, Any]:
    """One win scored by mjcalc beside what the log recorded of it."""
    line = win_line(hand, win)
    record: dict[str, Any] = {"file": game.source, "ref": game.reference, "hand": index, "label": hand.label,
                              "win": number, "winner": win.winner, "from": win.from_who, "pao": win.pao,
                              "line": line}
    log = log_of(win)
    result = score_line(line, request, with_wait_scores=False)
    best = result.best
    if result.result != "win" or best is None:
        error = result.error.message if result.error is not None else \
            "; ".join(str(c.message.get("en", c.id)) for c in result.failed) or result.result
        record.update({"result": result.result, "mjcalc": None, "log": log, "agrees": False,
                       "differences": ["result"], "error": error})
        return record
    s = best.settlement
    net = s.net
    changes = [net[("E", "S", "W", "N")[(p - hand.dealer) % 4]] for p in range(4)]
    beside = 300 * win.honba + 1000 * win.sticks
    yaku = sorted([a.item.id, a.value * a.count] for a in best.awards if a.value)
    mine = {"han": s.fan, "fu": s.fu, "points": s.points - beside, "limit": s.limit, "yaku": yaku,
            "changes": changes}
    differences = []
    if log.get("han") != s.fan:
        differences.append("han")
    if log.get("fu") is not None and log["fu"] != s.fu:
        differences.append("fu")
    if log.get("points") != mine["points"]:
        differences.append("points")
    if sorted(log.get("yaku") or []) != yaku:
        differences.append("yaku")
    if log.get("changes") != changes:
        differences.append("changes")
    record.update({"result": "win", "mjcalc": mine, "log": log, "agrees": not differences,
                   "differences": differences, "error": None})
    return record


def error_record(path: str, message: str) -> dict[str, Any]:
    return {"file": path, "ref": None, "hand": None, "label": None, "win": None, "winner": None, "from": None,
            "pao": None, "line": None, "result": "error", "mjcalc": None, "log": None, "agrees": None,
            "differences": [], "error": message}


def file_records(path: str, rules: str, options: dict[str, Any], tally: Tally) -> Iterator[dict[str, Any]]:
    """The records of one log file (one error record if it cannot be read), counted into ``tally``."""
    from . import read_path

    tally.files += 1
    try:
        game = read_path(path)
    except LogError as exc:
        tally.unreadable += 1
        yield error_record(path, str(exc))
        return
    if game.whole and game.final_scores is not None:
        tally.games += 1
    request = request_for(game, rules, options)
    for i, hand in enumerate(game.hands):
        for k, win in enumerate(hand.wins):
            record = win_record(game, i, hand, k, win, request)
            tally.wins += 1
            if record["agrees"]:
                tally.agree += 1
            elif record["result"] != "win":
                tally.not_scored += 1
            for name in record["differences"]:
                if name in tally.differ:
                    tally.differ[name] += 1
            yield record


# --- output ----------------------------------------------------------------------------------------------


def render_jsonl(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def render_csv(record: dict[str, Any]) -> str:
    import csv
    import io

    mine = record.get("mjcalc") or {}
    log = record.get("log") or {}
    row = [record["file"], record.get("ref") or "", _cell(record["hand"]), record.get("label") or "",
           _cell(record["win"]), _cell(record["winner"]), _cell(record["from"]), record.get("line") or "",
           record["result"], _cell(mine.get("han")), _cell(mine.get("fu")), _cell(mine.get("points")),
           _cell(log.get("han")), _cell(log.get("fu")), _cell(log.get("points")), _cell(record["agrees"]),
           " ".join(record["differences"]), record.get("error") or ""]
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(row)
    return out.getvalue()


def csv_header() -> str:
    return ",".join(CSV_COLUMNS)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def render_table(record: dict[str, Any]) -> str:
    """One line a win: where, who, mjcalc's han, fu and points, the log's, and whether they agree."""
    if record["result"] == "error" and record.get("hand") is None:
        return f"{record['file']}: error: {record['error']}"
    where = f"{record['file']} {record['label']}" + (f" ({record['win'] + 1})" if record["win"] else "")
    log = record["log"] or {}
    theirs = _figures(log.get("han"), log.get("fu"), log.get("points"))
    if record["mjcalc"] is None:
        return f"{where}: {record['line']}: mjcalc {record['result']}: {record['error']} · log {theirs}"
    mine = record["mjcalc"]
    ours = _figures(mine["han"], mine["fu"] if log.get("fu") is not None else None, mine["points"])
    verdict = "ok" if record["agrees"] else "DIFFERS: " + ", ".join(record["differences"])
    return f"{where}: mjcalc {ours} · log {theirs} · {verdict}"


def _figures(han: Any, fu: Any, points: Any) -> str:
    return f"{han} han" + (f" {fu} fu" if fu else "") + f" {points}"


RENDERERS: dict[str, Callable[[dict[str, Any]], str]] = {"jsonl": render_jsonl, "csv": render_csv,
                                                          "table": render_table}


# --- a run -------------------------------------------------------------------------------------------------


def _file_texts(task: tuple[str, str, dict[str, Any], str]) -> tuple[list[str], Tally]:
    """A worker's task: one file's records rendered, and its tally."""
    path, rules, options, fmt = task
    tally = Tally()
    render = RENDERERS[fmt]
    return [render(r) for r in file_records(path, rules, options, tally)], tally


def run(paths: Iterable[str], write: Callable[[str], object], rules: str | None = None,
        options: dict[str, Any] | None = None, fmt: str = "jsonl", jobs: int = 1) -> Tally:
    """Every win of every log of ``paths`` (files, folders) rendered in ``fmt`` and given to ``write`` a line at
    a time (with its line end), file after file in order; the tally of the run."""
    chosen = rules or TENHOU_RULES
    opts = dict(options or {})
    tally = Tally()
    if fmt == "csv":
        write(csv_header() + "\n")
    tasks = ((path, chosen, opts, fmt) for path in log_files(paths))
    if jobs <= 1:
        for task in tasks:
            texts, one = _file_texts(task)
            tally.add(one)
            for text in texts:
                write(text + "\n")
        return tally
    import multiprocessing

    with multiprocessing.get_context("spawn" if _threads_running() else None).Pool(jobs) as pool:
        for texts, one in pool.imap(_file_texts, tasks, chunksize=4):
            tally.add(one)
            for text in texts:
                write(text + "\n")
    return tally


def _threads_running() -> bool:
    import threading

    return threading.active_count() > 1


def check_rules(rules: str | None, options: dict[str, Any] | None) -> None:
    """The rules and options a log batch scores by, checked once before any file is read (MjcalcError)."""
    from ..errors import MjcalcError
    from ..ruleset.loader import load_ruleset

    ruleset = load_ruleset(rules or TENHOU_RULES)
    ruleset.option_values(dict(options or {}), "set")
    if "riichi" not in ruleset.flags:
        raise MjcalcError("ruleset", f"game logs are riichi games: --rules names a riichi ruleset, not {ruleset.id}")
