"""A batch on several processes: a pool of workers a chunk of records at a time, a bounded number in flight,
results in input order; and a file on disk cut at line ends into byte ranges that each worker reads, scores and
renders itself (``FileRecords``, ``_Range``, ``_score_range``)."""

from __future__ import annotations

import os
import stat
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, TypeVar, cast

from ..engine import Request
from .lines import Line, LineSource, Record, chain, sniff_encoding
from .readers import READERS, decide_format, read_csv_header, read_records
from .work import Encoder, Renderer, Stop, _score_all, _worker_init

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the workers now (they hold no output: the parent writes everything) and wait for them, but not
    for the pool's own thread: a worker stopped while it was sending a chunk's results leaves that thread
    reading a message that never ends, so joining it (here, or at the interpreter's exit) would hang. A run
    stopped this way therefore ends its process with ``os._exit`` (``cli.batch``)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=2)
        if p.is_alive():
            p.kill()
            p.join(timeout=2)
    pool.shutdown(wait=False, cancel_futures=True)


Task = TypeVar("Task")


Done = TypeVar("Done")


def _parallel(work: Callable[..., Done], tasks: Iterable[Task], args: tuple[Any, ...], jobs: int
              ) -> Generator[Done, None, None]:
    """``work(task, *args)`` for each task on ``jobs`` processes, a bounded number in flight, the results
    yielded in input order. A task whose worker fails (a worker killed from outside) is done here instead.
    Closing the generator before its end drops the tasks not yet started and lets the few in flight finish;
    after a signal the workers are ended at once (``_stop_pool``)."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init, initargs=(os.getpid(),))
    pending: deque[tuple[Task, Future[Done] | None]] = deque()
    broken = False

    def finish_one() -> Done:
        nonlocal broken
        task, future = pending.popleft()
        if future is not None and not broken:
            try:
                return future.result()
            except BrokenProcessPool:
                broken = True  # a worker died (killed from outside?): the rest is done here
            except Exception:  # noqa: S110  (the task is done here instead)
                pass
        return work(task, *args)

    clean = False
    try:
        for task in tasks:
            pending.append((task, None if broken else pool.submit(work, task, *args)))
            if len(pending) >= 3 * jobs:
                yield finish_one()
        while pending:
            yield finish_one()
        clean = True
    finally:
        if clean:
            pool.shutdown(wait=True)
        elif Stop.active and Stop.signum:  # the CLI was signalled: it ends its process with os._exit, so nothing is joined
            _stop_pool(pool)
        else:
            # The caller stopped early (closed the iterator, an output error, an exception): the tasks not
            # started are dropped and the few in flight (at most 3 x jobs) finish, so the pool's thread ends
            # cleanly. Terminating the workers here instead could leave that thread blocked on a half-sent
            # result, and the interpreter's exit (which joins it) would hang.
            pool.shutdown(wait=True, cancel_futures=True)


RANGE_BYTES = 1 << 15  # a worker's task: about 500 hand lines (a long line makes its range longer); less on a small file


# Without --jobs, a file of at least this many bytes (some 1,000 hand lines, two ranges) is split between every
# usable core; a smaller one is scored by the main process, where starting workers would cost more than it saves
# (docs/performance.md).
AUTO_JOBS_BYTES = 2 * RANGE_BYTES


SPLIT_FORMATS = ("lines", "csv", "jsonl")  # one record a physical line (a YAML entry spans lines)


class FileRecords:
    """The records of a file on disk, as ``read_records`` reads them from ``source`` (the file opened); and
    what a run on several processes needs to split the file between its workers (``run``)."""

    def __init__(self, path: str, source: LineSource, fmt: str = "auto", from_line: int = 1) -> None:
        self.path = path
        self.source = source
        self.fmt = fmt
        self.from_line = from_line

    def __iter__(self) -> Iterator[Record]:
        return read_records(self.source, self.fmt, self.from_line)

    def plan(self) -> _Plan | None:
        """How the file is split, or None when it is read by one process: not a regular file, not UTF-8
        (decoding cannot start mid-file), YAML (an entry spans lines). The format is decided, and a CSV
        file's header found, as ``read_records`` does, from the file's first lines."""
        try:
            info = os.stat(self.path)
            if not stat.S_ISREG(info.st_mode):  # a pipe, a device: read once, by the parent
                return None
            with open(self.path, "rb") as f:
                codec, _, skip = sniff_encoding(f.read(4))
                if codec != "utf-8":
                    return None
                f.seek(0)
                fmt, lines = decide_format(self.fmt, iter(LineSource(f)))
                if fmt not in SPLIT_FORMATS:
                    return None
                header = None
                if fmt == "csv":  # the first line with something in it, as _read_csv takes it
                    header = next((ln for ln in lines if ln.problem is not None or ln.text.strip()), None)
                    if header is not None and read_csv_header(header)[1] is not None:
                        return None  # no row can be read: one process reads the header and says so
                return _Plan(self.path, fmt, skip, header, self.from_line, info.st_size)
        except OSError:
            return None  # one process reads it and says what is wrong


class _Plan:
    def __init__(self, path: str, fmt: str, skip: int, header: Line | None, from_line: int, size: int = 0) -> None:
        self.path = path
        self.fmt = fmt
        self.skip = skip  # the byte-order mark's length: where the first line starts
        self.header = header  # a CSV file's header line
        self.from_line = from_line
        self.size = size  # the file's bytes, when the plan was made


def _range_bytes(plan: _Plan, jobs: int) -> int:
    """The bytes of a worker's range for this file: RANGE_BYTES, or less for a file of a few thousand lines, so
    that it is cut into some eight ranges a worker and the workers end together (the last range is what one
    waits for while the other is done)."""
    return max(min(RANGE_BYTES, 4096), min(RANGE_BYTES, plan.size // (8 * jobs)))


class _Range:
    """A worker's task: the bytes [start, end) of the file, whole lines, the first numbered ``first``."""

    def __init__(self, plan: _Plan, start: int, end: int, first: int, last: int, head: Line | None) -> None:
        self.plan = plan
        self.start = start
        self.end = end
        self.first = first
        self.last = last
        self.head = head  # the CSV header, read before the range's own lines when the range comes after it


class _Scored:
    """A range's output — its records' texts (str, or the bytes of ENCODERS), or, from a forked worker, ``data``:
    the UTF-8 bytes of its records, each followed by a line end (``size`` bytes of a buffer the run reuses) — and
    their kinds counted, the last record's line, and why the range could not be read to its end, if it could not."""

    def __init__(self, texts: list[Any], counts: dict[str, int], last_line: int, stopped: str | None = None,
                 data: bytearray | None = None, size: int = 0, is_text: bool = False) -> None:
        self.texts = texts
        self.counts = counts
        self.last_line = last_line
        self.stopped = stopped
        self.data = data
        self.size = size
        self.is_text = is_text  # ``data`` holds the records of a text renderer, encoded

    def lines(self) -> Iterator[str | bytes | memoryview]:
        """The output as whole lines (each record followed by a line end), a few records at a time: a text
        of more than 128 KiB is fresh pages each time it is made, so a range's is never joined whole."""
        if self.data is not None:
            data = memoryview(self.data)[:self.size]
            yield data.tobytes().decode("utf-8", "surrogatepass") if self.is_text else data
            return
        for at in range(0, len(self.texts), _JOINED):
            yield _lines(self.texts[at:at + _JOINED])

    @property
    def text(self) -> str | bytes:
        """The records' texts joined by line ends (no line end after the last)."""
        if self.data is not None:
            data = bytes(memoryview(self.data)[:max(self.size - 1, 0)])
            return data.decode("utf-8", "surrogatepass") if self.is_text else data
        return b"\n".join(self.texts) if self.texts and isinstance(self.texts[0], bytes) else "\n".join(self.texts)


def _ranges(plan: _Plan, size: int | None = None) -> Iterator[_Range]:
    """The file cut at line ends into ranges of about ``size`` bytes (RANGE_BYTES), read as the run goes
    (memory stays flat); those wholly before ``from_line`` left out."""
    header = plan.header
    size = size or RANGE_BYTES
    with open(plan.path, "rb") as f:
        start, first = plan.skip, 1
        f.seek(start)
        while block := f.read(size):
            end = start + len(block)
            lines = block.count(b"\n")
            whole = block.endswith(b"\n")
            while not whole:  # on to the end of the line
                more = f.read(size)
                if not more:
                    break  # the file's last line has no line end
                cut = more.find(b"\n")
                if cut < 0:
                    end += len(more)
                    continue
                end += cut + 1
                lines += 1
                whole = True
                f.seek(end)
            last = first + lines - (1 if whole else 0)
            if last >= plan.from_line:
                yield _Range(plan, start, end, first, last,
                             header if header is not None and first > header.number else None)
            start, first = end, last + 1


class _Slice:
    """At most ``left`` bytes of a file, from where it stands."""

    def __init__(self, f: IO[bytes], left: int) -> None:
        self.f, self.left = f, left

    def read(self, n: int = -1) -> bytes:
        data = self.f.read(self.left if n < 0 else min(n, self.left))
        self.left -= len(data)
        return data


def _renumbered(lines: Iterable[Line], offset: int) -> Iterator[Line]:
    for line in lines:
        line.number += offset
        yield line


def _score_range(task: _Range, base: Request, render: Renderer | Encoder) -> _Scored:
    """A worker's range read, scored and rendered: the records ``read_records`` gives for those lines."""
    plan = task.plan
    texts: list[Any] = []  # all text, or all bytes (ENCODERS)
    counts: dict[str, int] = {}
    last = 0
    try:
        with open(plan.path, "rb") as f:
            f.seek(task.start)
            source = LineSource(cast(IO[bytes], _Slice(f, task.end - task.start)), codec="utf-8")
            lines = _renumbered(source, task.first - 1)
            if task.head is not None:
                lines = chain([task.head], lines)
            last = _score_all(READERS[plan.fmt](lines, plan.from_line), base, render, texts, counts, False)
    except OSError as exc:  # the file went away under the run
        return _Scored(texts, counts, last, f"cannot read {plan.path}: {exc.strerror or exc}")
    stopped = None
    if source.stopped:
        stopped = f"cannot read the input after {task.start + source.position:,} bytes: " + \
            source.stopped.split(": ", 1)[-1]
    return _Scored(texts, counts, last, stopped)


def _lines(texts: list[Any]) -> str | bytes:
    """Records' texts (or bytes) as whole lines, each followed by a line end."""
    if texts and isinstance(texts[0], bytes):
        return b"\n".join([*texts, b""])
    return "\n".join([*texts, ""])


_JOINED = 32  # records per text given to ``run``'s ``write`` when it takes them joined
