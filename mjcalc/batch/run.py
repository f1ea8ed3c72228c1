"""A batch's run: every record scored in input order and its output handed on in that order, on this process
(work.py) or on several (``jobs``): a file on disk split in byte ranges between forked workers (forked.py) or a
process pool (parallel.py), other records sent to a pool a chunk at a time; ``scored`` is the same as an
iterator (the Python API's ``score_many``)."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable, Generator, Iterable
from contextlib import closing
from itertools import islice
from typing import Any

from ..engine import Request
from ..i18n import Msg
from .forked import _forked
from .lines import Record
from .parallel import FileRecords, _parallel, _Plan, _range_bytes, _ranges, _score_range, _Scored
from .work import CHUNK, Encoder, Renderer, Stop, Summary, _chunks, _one, _score_all, _work

# Imported when first needed, so that a batch starts without them (benchmarks/bench_startup.py): the process
# pool with --jobs 2 or more (_parallel), PyYAML for a YAML batch file (_yaml_record, _yaml_whole).

# --- readers -------------------------------------------------------------------------------------------


# --- scoring in order, on one or more processes --------------------------------------------------------


def run(records: Iterable[Record], base: Request, render: Renderer | Encoder, write: Callable[[Any], object],
        jobs: int = 1, progress: Callable[[Summary], None] | None = None, summary: Summary | None = None,
        chunk: int | None = None, flush: Callable[[], object] | None = None, split_only: bool = False,
        joined: bool = False) -> Summary:
    """Score every record in input order and hand the output texts to ``write``, in order; ``flush`` is
    called after each chunk of records (so an output file grows by whole records). ``jobs`` > 1 spreads the
    work over processes, a bounded amount in flight, so memory does not grow with the file: the records of
    a ``FileRecords`` (a UTF-8 file of lines, CSV or JSON Lines) are read by the workers themselves, each a
    byte range of the file at a time (``write`` is then given the texts of a range a forked worker scored as one,
    joined by line ends); other records are sent to the workers a chunk at a time, unless ``split_only`` (the CLI
    without ``--jobs``): then they are scored by this process, where handing them out would gain little.
    ``joined`` (the CLI's output): ``write`` is given whole lines instead, each record's text followed by a line
    end, a few records at a time or a worker's range at once — text, bytes, or a memoryview of bytes that is valid
    during the call only. ``summary`` is filled in as records are written, so that a caller still has it when the
    run is interrupted."""
    summary = Summary() if summary is None else summary
    size = chunk or CHUNK
    start = time.perf_counter()

    def emit(scored: _Scored) -> None:
        if joined:
            for lines in scored.lines():
                write(lines)
        elif scored.data is not None:
            write(scored.text)
        else:
            for text in scored.texts:
                write(text)
        if flush is not None:
            flush()
        for kind, n in scored.counts.items():  # counted once out: the summary says how far the output got
            summary.counts[kind] = summary.counts.get(kind, 0) + n
        summary.last_line = scored.last_line
        summary.seconds = time.perf_counter() - start
        if progress is not None:
            progress(summary)

    def emit_records(results: list[tuple[int, str, str | bytes]]) -> None:
        if results:
            counts: dict[str, int] = {}
            for _, kind, _ in results:
                counts[kind] = counts.get(kind, 0) + 1
            emit(_Scored([text for _, _, text in results], counts, results[-1][0]))

    def stopping() -> bool:
        if Stop.signum:
            summary.stopped = Msg("interrupted ({signal})", signal=signal.Signals(Stop.signum).name)
            return True
        return False

    try:
        plan = records.plan() if jobs > 1 and isinstance(records, FileRecords) else None
        if plan is None and split_only:
            jobs = 1
        if plan is not None and isinstance(records, FileRecords):
            with closing(_split(plan, base, render, jobs)) as parts:
                for done_range in parts:
                    if done_range.last_line:
                        emit(done_range)
                    if done_range.stopped:  # the file could not be read to its end: as one process, stop there
                        records.source.stopped = done_range.stopped
                        sys.stderr.write(f"mjcalc: {done_range.stopped}\n")
                        break
                    if stopping():
                        break
        elif jobs <= 1:
            stream = iter(records)
            while part := list(islice(stream, size)):
                texts: list[Any] = []
                counts: dict[str, int] = {}
                last = _score_all(part, base, render, texts, counts, True)
                if texts:
                    emit(_Scored(texts, counts, last))
                if stopping():
                    break
        else:
            with closing(_parallel(_work, _chunks(records, size), (base, render), jobs)) as scored_chunks:
                for results in scored_chunks:
                    emit_records(results)
                    if stopping():
                        break
    finally:
        summary.seconds = time.perf_counter() - start
    return summary


def scored(records: Iterable[Record], base: Request, render: Renderer, jobs: int = 1
           ) -> Generator[tuple[int, str, str | bytes], None, None]:
    """Each record's line, kind and output text, in input order, as they are scored: the pull-style run that
    the Python API (``mjcalc.score_many``) iterates. Records are read as they are needed; stopping early (closing
    the iterator) ends the workers."""
    if jobs <= 1:
        for record in records:
            yield (record.line, *_one(record, base, render))
        return
    with closing(_parallel(_work, _chunks(records, CHUNK), (base, render), jobs)) as scored_chunks:
        for results in scored_chunks:
            yield from results


# --- a file split between processes: each worker reads, scores and renders its own byte ranges ------------

def _split(plan: _Plan, base: Request, render: Renderer | Encoder, jobs: int) -> Generator[_Scored, None, None]:
    """The file's ranges scored on ``jobs`` processes, in order: forked workers on Linux when no other thread runs
    (``_forked``), else a process pool (``_parallel``). Not on macOS, where Python itself no longer forks by
    default: a forked copy of a process that has loaded the system's frameworks may crash."""
    import threading

    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return _forked(plan, base, render, jobs)
    return _parallel(_score_range, _ranges(plan, _range_bytes(plan, jobs)), (base, render), jobs)


# --- writers -------------------------------------------------------------------------------------------
