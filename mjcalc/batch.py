"""Batch files: read records (one-line notation, CSV, JSONL, YAML), score them in order on one or more
processes, and write one output record per input record — streaming, so memory stays flat on a file of
any length. A record that cannot be read becomes an error record; the run always goes on.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import IO, Any

import yaml

from .engine import Request, Result, score_line
from .errors import MjcalcError
from .notation import FlagWord

INPUT_FORMATS = ("auto", "lines", "csv", "jsonl", "yaml")
OUTPUT_FORMATS = ("table", "csv", "jsonl")
RECORD_KEYS = ("hand", "rules", "set", "answer", "line")
CHUNK = 256  # records per task sent to a worker process


@dataclass
class Record:
    """One input record: a hand line with what the record adds, or a reason it cannot be scored."""

    line: int
    text: str = ""
    rules: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    flags: list[FlagWord] = field(default_factory=list)
    answer: str | dict[str, Any] | None = None  # homework: the student's answer
    skipped: bool = False  # a comment or blank line, kept in place
    problem: str | None = None  # the record itself could not be read (bad JSON, no hand …)


# --- readers -------------------------------------------------------------------------------------------


def detect_format(name: str, requested: str) -> str:
    if requested != "auto":
        return requested
    low = name.lower()
    for ext, fmt in ((".csv", "csv"), (".jsonl", "jsonl"), (".ndjson", "jsonl"), (".yaml", "yaml"), (".yml", "yaml")):
        if low.endswith(ext):
            return fmt
    return "lines"


def read_records(stream: IO[str], fmt: str) -> Iterator[Record]:
    readers: dict[str, Callable[[IO[str]], Iterator[Record]]] = {
        "lines": _read_lines, "csv": _read_csv, "jsonl": _read_jsonl, "yaml": _read_yaml,
    }
    return readers[fmt](stream)


def split_answer(text: str) -> tuple[str, str | None]:
    """``HAND => answer``: the hand and the student's answer (homework lines)."""
    hand, arrow, answer = text.partition("=>")
    return hand.strip(), (answer.strip() if arrow else None)


def _read_lines(stream: IO[str]) -> Iterator[Record]:
    for n, raw in enumerate(stream, 1):
        text = raw.strip().lstrip("\ufeff")  # a byte-order mark from Windows editors on standard input
        if not text or text.startswith("#"):
            yield Record(n, text, skipped=True)
            continue
        hand, answer = split_answer(text)
        yield Record(n, hand, answer=answer)


def _from_mapping(n: int, data: Any) -> Record:
    """A JSON / YAML record: ``hand`` (the one-line form) with optional ``rules``, ``set``, ``answer``; any other
    key is a context flag (``zimo: true``, ``seat: E``)."""
    if isinstance(data, str):
        hand, answer = split_answer(data)
        return Record(n, hand, answer=answer)
    if not isinstance(data, dict):
        return Record(n, json.dumps(data, ensure_ascii=False), problem="a record is a mapping with a 'hand' key")
    if not isinstance(data.get("hand"), str) or not data["hand"].strip():
        return Record(n, json.dumps(data, ensure_ascii=False, default=str), problem="the record has no 'hand' string")
    options = data.get("set") or {}
    if not isinstance(options, dict):
        return Record(n, data["hand"], problem="'set' must be a mapping of option: value")
    flags = []
    for key, value in data.items():
        if key in RECORD_KEYS:
            continue
        if value is True:
            flags.append(FlagWord(str(key), None, None))
        elif value is not False and value is not None:
            text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            flags.append(FlagWord(str(key), text, None))
    hand, answer = split_answer(data["hand"])
    return Record(n, hand, data.get("rules"), dict(options), flags, data.get("answer", answer))


def _read_jsonl(stream: IO[str]) -> Iterator[Record]:
    for n, raw in enumerate(stream, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            yield Record(n, text, skipped=True)
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            yield Record(n, text, problem=f"not valid JSON: {exc.msg} at column {exc.colno}")
            continue
        yield _from_mapping(n, data)


def _read_csv(stream: IO[str]) -> Iterator[Record]:
    """A ``hand`` column; optional ``rules`` and ``answer`` columns; other non-empty cells are options."""
    reader = csv.DictReader(stream)
    if reader.fieldnames is None or "hand" not in reader.fieldnames:
        yield Record(1, ",".join(reader.fieldnames or []), problem="the CSV header needs a 'hand' column")
        return
    for row in reader:
        n = reader.line_num
        hand = (row.get("hand") or "").strip()
        if not hand or hand.startswith("#"):
            yield Record(n, hand, skipped=True)
            continue
        options = {k: v.strip() for k, v in row.items()
                   if k not in ("hand", "rules", "answer", "line") and k and v is not None and v.strip()}
        hand, answer = split_answer(hand)
        yield Record(n, hand, (row.get("rules") or "").strip() or None, options, answer=row.get("answer") or answer)


def _read_yaml(stream: IO[str]) -> Iterator[Record]:
    """A YAML list of records (or a mapping with a ``hands`` list); each keeps the line it starts on. YAML
    files are written by hand and small, so this one reader loads the whole file."""
    loader = yaml.SafeLoader(stream.read())
    try:
        root = loader.get_single_node()
        if isinstance(root, yaml.MappingNode):
            root = next((v for k, v in root.value if k.value == "hands"), None)
        if not isinstance(root, yaml.SequenceNode):
            problem = "a YAML batch file is a list of records (or a mapping with a 'hands' list)"
            records = [Record(1, "", problem=problem)]
        else:
            records = [_from_mapping(node.start_mark.line + 1, loader.construct_object(node, deep=True))
                       for node in root.value]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        records = [Record(mark.line + 1 if mark else 1, "", problem=f"not valid YAML: {getattr(exc, 'problem', exc)}")]
    finally:
        loader.dispose()
    yield from records


# --- scoring in order, on one or more processes --------------------------------------------------------


def score_record(record: Record, base: Request) -> Result:
    """The Result for one record (an error Result when the record itself is unreadable)."""
    if record.problem is not None:
        res = Result(record.text, "error", error=MjcalcError("record", record.problem))
    else:
        request = Request(
            rules=record.rules or base.rules,
            options={**base.options, **record.options},
            flags=[*base.flags, *record.flags],
            config_options=base.config_options,
        )
        res = score_line(record.text, request, with_wait_scores=False)
    res.line = record.line
    return res


Renderer = Callable[[Record, Result | None], str]


def _work(chunk: list[Record], base: Request, render: Renderer) -> list[tuple[str, str]]:
    out = []
    for record in chunk:
        if record.skipped:
            out.append(("skipped", render(record, None)))
            continue
        res = score_record(record, base)
        out.append((res.result, render(record, res)))
    return out


def _chunks(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    chunk: list[Record] = []
    for r in records:
        chunk.append(r)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


@dataclass
class Summary:
    counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def line(self) -> str:
        c = self.counts
        rate = self.total / self.seconds if self.seconds else 0.0
        return (f"{self.total} records: {c.get('win', 0)} won, {c.get('not_a_win', 0)} not a win, "
                f"{c.get('waiting', 0)} waiting, {c.get('error', 0)} errors, {c.get('skipped', 0)} skipped "
                f"({self.seconds:.1f} s, {rate:,.0f} records/s)")


def run(records: Iterable[Record], base: Request, render: Renderer, write: Callable[[str], object],
        jobs: int = 1, progress: Callable[[int], None] | None = None) -> Summary:
    """Score every record in input order; ``jobs`` > 1 spreads chunks over processes, a bounded number in
    flight, so memory does not grow with the file."""
    summary = Summary()
    start = time.perf_counter()

    def emit(results: list[tuple[str, str]]) -> None:
        for kind, text in results:
            summary.counts[kind] = summary.counts.get(kind, 0) + 1
            write(text)
        if progress is not None:
            progress(summary.total)

    if jobs <= 1:
        for chunk in _chunks(records, CHUNK):
            emit(_work(chunk, base, render))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending: deque[Future[list[tuple[str, str]]]] = deque()
            for chunk in _chunks(records, CHUNK):
                pending.append(pool.submit(_work, chunk, base, render))
                if len(pending) >= 3 * jobs:
                    emit(pending.popleft().result())
            while pending:
                emit(pending.popleft().result())
    summary.seconds = time.perf_counter() - start
    return summary


# --- writers -------------------------------------------------------------------------------------------

CSV_COLUMNS = ("line", "input", "ruleset", "result", "fan", "fu", "points", "net_E", "net_S", "net_W", "net_N",
               "items", "error")


def render_jsonl(record: Record, res: Result | None) -> str:
    from .render import to_json

    if res is None:
        return json.dumps({"line": record.line, "input": record.text, "result": "skipped"}, ensure_ascii=False)
    return json.dumps(to_json(res), ensure_ascii=False)


def csv_header() -> str:
    return _csv_row(CSV_COLUMNS)


def _csv_row(values: Iterable[Any]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow(list(values))
    return buf.getvalue()


def render_csv(record: Record, res: Result | None) -> str:
    if res is None:
        return _csv_row([record.line, record.text, "", "skipped", "", "", "", "", "", "", "", "", ""])
    best = res.best
    s = best.settlement if best else None
    net = s.net if s else {}
    error = res.error.message if res.error else "; ".join(c.id for c in res.failed)
    return _csv_row([
        res.line, res.input, res.ruleset.id if res.ruleset else "", res.result,
        s.fan if s else "", s.fu if s and s.fu is not None else "", s.points if s else "",
        *(net.get(seat, "") for seat in "ESWN"),
        " ".join(f"{a.item.id}:{a.total}" for a in best.awards) if best else "", error,
    ])


def render_row(record: Record, res: Result | None) -> str:
    """One human-readable line per record."""
    if res is None:
        return f"{record.line:>7}  skipped"
    if res.error is not None:
        where = f" (column {res.error.column})" if res.error.column else ""
        return f"{res.line:>7}  error      {res.error.message}{where}  | {res.input}"
    if res.best is None:
        why = ", ".join(c.id for c in res.failed) if res.result == "not_a_win" else "waits " + " ".join(
            f"{t}" for t in _wait_names(res))
        return f"{res.line:>7}  {res.result:<9}  {why}  | {res.input}"
    s = res.best.settlement
    net = " ".join(f"{seat}{s.net[seat]:+d}" for seat in "ESWN")
    fu = f" {s.fu}fu" if s.fu is not None else ""
    return f"{res.line:>7}  win        {s.fan:>3} {res.ruleset.unit if res.ruleset else ''}{fu}  " \
           f"{s.points:>6}  {net}  | {res.input}"


def _wait_names(res: Result) -> list[str]:
    from .tiles import name

    return [name(t) for t in res.waits]


RENDERERS: dict[str, Renderer] = {"jsonl": render_jsonl, "csv": render_csv, "table": render_row}


class Progress:
    """A one-line counter on stderr, only when stderr is a terminal and the input is large."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.perf_counter()

    def __call__(self, done: int) -> None:
        if self.enabled:
            rate = done / max(time.perf_counter() - self.start, 1e-9)
            sys.stderr.write(f"\r  {done:,} records · {rate:,.0f}/s ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 40 + "\r")
