"""The work of a batch on one process: each record scored (``score_record``) and its output rendered, in order,
counted in the run's ``Summary``; a bug met while scoring a record is that record's error record (kind
``internal``), never the end of the run. Signals ask the run to stop between records (``Stop``)."""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from ..core.result import Result
from ..engine import Request, ruleset_path, score_line
from ..errors import MjcalcError
from ..i18n import localized, tr
from .lines import Record

CHUNK = 256  # records per task sent to a worker process, and per flush of the output


def score_record(record: Record, base: Request) -> Result:
    """The Result for one record (an error Result when the record itself is unreadable)."""
    if record.problem is not None:
        res = Result(record.text, "error", error=MjcalcError("record", record.problem))
    elif record.plain:
        res = score_line(record.text, base, with_wait_scores=False)  # the file's own request
    else:
        request = Request(
            rules=ruleset_path(record.rules, base.rules_dir) if record.rules else base.rules,
            options={**base.options, **record.options},
            flags=[*base.flags, *record.flags],
            config_options=base.config_options,
            lenient=base.lenient,  # --set NAME applies to the records whose ruleset has it
            rules_dir=base.rules_dir,
        )
        res = score_line(record.text, request, with_wait_scores=False)
    res.line = record.line
    return res


# A record's output: text (writers.RENDERERS: the Python API's, Dask's) or the UTF-8 bytes written (writers.ENCODERS:
# the CLI's; each registered in ENCODING, so that a record whose renderer failed is written as its kind of output).
Renderer = Callable[[Record, "Result | None"], str]


Encoder = Callable[[Record, "Result | None"], bytes]
ENCODING: set[Callable[..., Any]] = set()  # the renderers that give bytes (writers.ENCODERS)


def _one(record: Record, base: Request, render: Renderer | Encoder) -> tuple[str, Any]:
    """One record's kind and output (the text or the bytes the renderer gives). Whatever goes wrong inside is this
    record's error record."""
    try:
        if record.skipped:
            return "skipped", render(record, None)
        res = score_record(record, base)
        return res.result, render(record, res)
    except Exception as exc:  # a bug in mjcalc: reported in place, the run goes on
        message = f"internal error: {type(exc).__name__}: {str(exc)[:300]} — a bug in mjcalc, please report it"
        res = Result(record.text, "error", error=MjcalcError("internal", message))
        res.line = record.line
        try:
            return "internal", render(record, res)
        except Exception:
            text = json.dumps({"line": record.line, "input": record.text, "result": "error",
                               "error": {"kind": "internal", "message": message, "column": None}}, ensure_ascii=False)
            return "internal", text.encode("utf-8", "backslashreplace") if render in ENCODING else text


def _score_all(records: Iterable[Record], base: Request, render: Renderer | Encoder, texts: list[Any],
               counts: dict[str, int], stop: bool) -> int:
    """``_one`` for each record in turn, its output appended to ``texts`` and its kind counted in ``counts``; the
    last record's line (0 when none). A plain line (no rules, options or flags of its own: most of a file) is
    scored here as ``score_record`` and ``_one`` do it, without their calls; anything wrong with it is left to
    ``_one``, which says so in the record. ``stop``: end after the record during which a signal came."""
    last = 0
    for record in records:
        if record.plain:
            try:
                res = score_line(record.text, base, with_wait_scores=False)
                res.line = record.line
                text = render(record, res)
                kind = res.result
            except Exception:
                kind, text = _one(record, base, render)
        else:
            kind, text = _one(record, base, render)
        texts.append(text)
        counts[kind] = counts.get(kind, 0) + 1
        last = record.line
        if stop and Stop.signum:
            break
    return last


def _work(chunk: list[Record], base: Request, render: Renderer | Encoder) -> list[tuple[int, str, str | bytes]]:
    return [(record.line, *_one(record, base, render)) for record in chunk]


def _chunks(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    chunk: list[Record] = []
    for r in records:
        chunk.append(r)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class Stop:
    """Signals ask the run to stop between records (the first Ctrl-C or SIGTERM), so the output ends on a
    whole record; a second one stops at once."""

    signum = 0
    active = False  # inside ``handling``: a signal received is this run's

    @classmethod
    def handler(cls, signum: int, frame: Any) -> None:
        if cls.signum:
            raise KeyboardInterrupt
        cls.signum = signum

    @classmethod
    @contextmanager
    def handling(cls) -> Iterator[None]:
        """Our handlers for the time of a run (the main thread only), the previous ones back after."""
        cls.signum, cls.active = 0, True
        previous: dict[int, Any] = {}
        try:
            for name in ("SIGINT", "SIGTERM", "SIGHUP"):
                if hasattr(signal, name):
                    previous[getattr(signal, name)] = signal.signal(getattr(signal, name), cls.handler)
        except ValueError:  # not the main thread: signals stay as they are
            pass
        try:
            yield
        finally:
            cls.active = False
            for signum, handler in previous.items():
                signal.signal(signum, handler)


def _worker_init(parent: int) -> None:
    """A worker leaves Ctrl-C to the parent (which stops it), dies with the parent whatever kills that, and
    says nothing when stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)


class Summary:
    """What a run did so far: counts by kind, the last line written, and why it stopped early if it did."""

    def __init__(self, counts: dict[str, int] | None = None, seconds: float = 0.0, last_line: int = 0,
                 stopped: str | None = None) -> None:
        self.counts: dict[str, int] = {} if counts is None else counts
        self.seconds = seconds
        self.last_line = last_line
        self.stopped = stopped  # "interrupted (SIGINT)" …

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def line(self, lang: str = "en") -> str:
        """The summary line on stderr, in ``lang`` (the catalog's, mjcalc/i18n.py)."""
        def records(n: int) -> str:
            return tr("{n} record" if n == 1 else "{n} records", lang).format(n=f"{n:,}")

        c = self.counts
        rate = self.total / self.seconds if self.seconds else 0.0
        errors = c.get("error", 0) + c.get("internal", 0)
        text = tr("{records}: {won} won, {not_a_win} not a win, {waiting} waiting, {errors}, {skipped} skipped "
                  "({seconds} s{rate})", lang).format(
            records=records(self.total), won=f"{c.get('win', 0):,}", not_a_win=f"{c.get('not_a_win', 0):,}",
            waiting=f"{c.get('waiting', 0):,}", skipped=f"{c.get('skipped', 0):,}", seconds=f"{self.seconds:.1f}",
            errors=tr("{n} error" if errors == 1 else "{n} errors", lang).format(n=f"{errors:,}"),
            rate=tr(", {rate} records/s", lang).format(rate=f"{rate:,.0f}") if self.seconds >= 0.5 else "")
        if c.get("internal"):
            text += "\nmjcalc: " + tr("{records} met a bug in mjcalc (error kind 'internal'): please report it with "
                                      "the line", lang).format(records=records(c["internal"]))
        if self.stopped:
            text += "\nmjcalc: " + tr("{stopped}: {records} written, the last for input line {last}; resume with "
                                      "--from-line {next}", lang).format(
                stopped=localized(self.stopped, lang), records=records(self.total), last=f"{self.last_line:,}",
                next=self.last_line + 1)
        return text
