"""A batch's output: each record as JSON Lines, a CSV row or a line of a table (``RENDERERS``; as the UTF-8 bytes
written, ``ENCODERS``), and the progress line on a terminal."""

from __future__ import annotations

import io
import re
import sys
import time
from collections.abc import Iterable
from typing import IO, Any

from ..core.result import Result
from ..core.tiles import name
from ..output.jsonl import encode_jsonl, json_line
from ..output.record import control_escaped as _printable
from ..output.record import csv_cells, to_json
from ..output.totals import total_shown
from .lines import Record
from .work import ENCODING, Encoder, Renderer, Summary

OUTPUT_FORMATS = ("table", "csv", "jsonl")


CSV_COLUMNS = ("line", "input", "ruleset", "result", "fan", "fu", "points", "net_E", "net_S", "net_W", "net_N",
               "items", "error")


def render_jsonl(record: Record, res: Result | None) -> str:
    """One record as one line of compact JSON (record.json_line)."""
    if res is None:
        text = json_line({"line": record.line, "input": record.text, "result": "skipped"})
    else:
        text = json_line(to_json(res))
    if not text.isascii() and ("\u2028" in text or "\u2029" in text or "\x85" in text):
        # valid JSON raw, but a line break to many readers
        text = _LINE_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


_LINE_BREAKS = re.compile("[\x85\u2028\u2029]")


def csv_header() -> str:
    return _csv_row(CSV_COLUMNS)


class _CsvRow:
    """One CSV writer on one buffer, reused for every row (a writer and a buffer a row cost more than the row);
    made with the first row (the csv module imported then)."""

    def __init__(self) -> None:
        self.buf = io.StringIO()
        self.writer: Any = None

    def __call__(self, values: Iterable[Any]) -> str:
        if self.writer is None:
            import csv

            self.writer = csv.writer(self.buf, lineterminator="")
        buf = self.buf
        buf.seek(0)
        buf.truncate()
        self.writer.writerow(values)
        return buf.getvalue()


_csv_row = _CsvRow()


def render_csv(record: Record, res: Result | None) -> str:
    if res is None:
        return _csv_row([record.line, record.text, "", "skipped", "", "", "", "", "", "", "", "", ""])
    return _csv_row(csv_cells(res))


def render_row(record: Record, res: Result | None) -> str:
    """One human-readable line per record."""
    if res is None:
        return f"{record.line:>7}  skipped"
    if res.error is not None:
        where = f" (column {res.error.column})" if res.error.column else ""
        return f"{res.line:>7}  error      {_printable(res.error.message)}{where}  | {_printable(res.input)}"
    if res.best is None:
        why = ", ".join(c.id for c in res.failed) if res.result == "not_a_win" else "waits " + " ".join(
            f"{t}" for t in _wait_names(res))
        return f"{res.line:>7}  {res.result:<9}  {why}  | {_printable(res.input)}"
    s = res.best.settlement
    net = " ".join(f"{seat}{s.net[seat]:+d}" for seat in "ESWN")
    shown = total_shown(res.ruleset, res.best.awards, s.fan)  # a yakuman hand: its limit, not its count of 13 han
    if shown is None:
        shown = f"{s.fan:>3} {res.ruleset.unit if res.ruleset else ''}" + (f" {s.fu} fu" if s.fu is not None else "")
        if s.limit is not None:
            shown += f" {s.limit}"
    return f"{res.line:>7}  win        {shown}  {s.points:>6}  {net}  | {_printable(res.input)}"


def _wait_names(res: Result) -> list[str]:
    return [name(t) for t in res.waits]


RENDERERS: dict[str, Renderer] = {"jsonl": render_jsonl, "csv": render_csv, "table": render_row}


# The same as the UTF-8 bytes a file gets (a lone surrogate written \udcxx), for the CLI's output.
ENCODERS: dict[str, Encoder] = {
    "jsonl": encode_jsonl,
    "csv": lambda record, res: render_csv(record, res).encode("utf-8", "backslashreplace"),
    "table": lambda record, res: render_row(record, res).encode("utf-8", "backslashreplace"),
}
ENCODING.update(ENCODERS.values())


def count_lines(path: str) -> int:
    """The lines of a file, counted fast (bytes, not text): the total a progress line shows."""
    lines = 0
    last = b"\n"
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n")


class Progress:
    """A progress line on stderr while a batch runs — the input line reached of the total, the percentage,
    records a second and the time left — shown only on a terminal, at most a few times a second, and wiped
    at the end. (Written here rather than taken from a progress library: it is one line, and the run's
    start-up stays as fast as it is.)"""

    def __init__(self, enabled: bool, path: str | None = None, stream: IO[str] | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and (stream is not None or sys.stderr.isatty())
        self.start = time.perf_counter()
        self.shown = 0.0
        self.width = 0
        self.total: int | None = None
        if self.enabled and path is not None:
            try:
                self.total = count_lines(path)
            except OSError:
                self.total = None

    def text(self, summary: Summary, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = f"{summary.total / elapsed:,.0f} records/s"
        if not self.total:
            return f"  {_plural(summary.total, 'record')} · {rate}"
        done = min(summary.last_line / self.total, 1.0)
        left = elapsed / done * (1 - done) if done else 0.0
        minutes, seconds = divmod(int(left + 0.5), 60)
        eta = f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}" if minutes >= 60 else f"{minutes}:{seconds:02d}"
        return (f"  line {summary.last_line:,} of {self.total:,} · {done:.0%} · {rate} · "
                f"ETA {eta}")

    def __call__(self, summary: Summary) -> None:
        now = time.perf_counter()
        if not self.enabled or now - self.shown < 0.25:
            return
        self.shown = now
        line = self.text(summary, now)
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"
