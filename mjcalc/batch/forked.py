"""The ranges of a file scored by forked workers (Linux): each starts with everything this process loaded, takes
ranges over a pipe and sends back its records' bytes, which this process reads into a buffer it reuses; this
process scores ranges of its own while it waits."""

from __future__ import annotations

import os
import signal
import sys
from collections import deque
from collections.abc import Generator
from functools import lru_cache

from ..engine import Request
from .parallel import _Plan, _Range, _range_bytes, _ranges, _score_range, _Scored
from .work import Encoder, Renderer, _worker_init

# A forked worker's messages. A task, from the parent: a length (8 bytes, little-endian) and that many bytes,
# marshalled (the standard library's own serialization of plain values, built in: nothing to import). A range's
# result, from the worker: the lengths of its two parts (8 bytes each); its counts, last line, reason for stopping
# and whether its records are text, marshalled; its records' UTF-8 bytes, each followed by a line end. The records
# go as they are, many buffers to a system call (os.writev), and the parent reads them into a buffer it reuses:
# a range's output is never joined, marshalled or copied whole: each copy would be fresh memory, touched page by page.
_LENGTH = 8


@lru_cache(maxsize=1)
def _iov_max() -> int:
    """Buffers one os.writev takes (IOV_MAX, 1,024 on Linux)."""
    try:
        return max(16, min(os.sysconf("SC_IOV_MAX"), 1024))
    except (AttributeError, ValueError, OSError):
        return 16


def _send(fd: int, parts: list[bytes]) -> None:
    """``parts`` written to ``fd`` whole and in order, up to ``_iov_max()`` of them a system call."""
    at, most = 0, _iov_max()
    while at < len(parts):
        written = os.writev(fd, parts[at:at + most])
        while at < len(parts) and written >= len(parts[at]):  # the parts written whole
            written -= len(parts[at])
            at += 1
        if written:  # one cut short (a signal, a full pipe): the rest of it, then on as before
            view = memoryview(parts[at])[written:]
            while view:
                view = view[os.write(fd, view):]
            at += 1


def _task_parts(message: bytes) -> list[bytes]:
    return [len(message).to_bytes(_LENGTH, "little"), message]


def _result_parts(done: _Scored) -> list[bytes]:
    """A range's result as a forked worker sends it (``_read_some`` reads it)."""
    import marshal

    is_text = bool(done.texts) and isinstance(done.texts[0], str)
    records = [text.encode("utf-8", "surrogatepass") for text in done.texts] if is_text else done.texts
    parts = [b"", marshal.dumps((done.counts, done.last_line, done.stopped, is_text))]
    size = 0
    for record in records:
        parts += (record, b"\n")
        size += len(record) + 1
    parts[0] = len(parts[1]).to_bytes(_LENGTH, "little") + size.to_bytes(_LENGTH, "little")
    return parts


def _receive(fd: int) -> bytes | None:
    """One whole message from ``fd``; None at the end of the stream (the other side closed it, or died)."""
    head = _read_exactly(fd, _LENGTH)
    return None if head is None else _read_exactly(fd, int.from_bytes(head, "little"))


def _read_exactly(fd: int, n: int) -> bytes | None:
    parts = []
    while n:
        data = os.read(fd, min(n, 1 << 20))
        if not data:
            return None
        parts.append(data)
        n -= len(data)
    return b"".join(parts)


def _serve(plan: _Plan, base: Request, render: Renderer | Encoder, tasks: int, results: int) -> None:
    """A forked worker: ranges (start, end, first, last, whether the CSV header comes first) in, each scored
    and rendered (``_score_range``) out, until the parent closes its end."""
    import marshal

    while (message := _receive(tasks)) is not None:
        start, end, first, last, head = marshal.loads(message)
        done = _score_range(_Range(plan, start, end, first, last, plan.header if head else None), base, render)
        _send(results, _result_parts(done))


class _Worker:
    """A forked worker as the parent sees it: its process, the two ends of its pipes, what it was given."""

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.given: deque[int] = deque()  # the numbers of the ranges sent and not answered yet, in order
        self.alive = True
        # The result being read: its part being filled (``into``, ``got`` of its bytes there), and its stage —
        # 0 the lengths, 1 the marshalled part, 2 the records (``size`` bytes); ``meta``, the part read.
        self.stage = 0
        self.into = bytearray(2 * _LENGTH)
        self.got = 0
        self.size = 0
        self.meta: tuple[dict[str, int], int, str | None, bool] = ({}, 0, None, False)

    def fileno(self) -> int:  # select() waits on its results
        return self.results


_AHEAD = 4  # ranges this process scores ahead of their turn while a worker owes the one before (memory stays flat)


def _forked(plan: _Plan, base: Request, render: Renderer | Encoder, jobs: int) -> Generator[_Scored, None, None]:
    """The ranges of the file on ``jobs`` processes, their results yielded in the file's order: this one and
    ``jobs - 1`` forked workers. A forked worker starts at once with everything this process loaded (modules,
    rulesets): nothing imported, nothing pickled but plain values, no thread in this process; at most two ranges in
    flight a worker. This process scores a range of its own whenever the next result is a worker's and not there
    yet (at most ``_AHEAD`` ranges ahead, so memory stays flat): on two cores, one forked copy of the process
    (whose first touches of the memory it shares cost page copies) instead of two and a waiting parent. A range
    whose worker dies is scored here instead. Closing the generator before its end (an output error, a signal)
    ends the workers at once: they hold no output. A result yielded is the caller's until it asks for the next,
    when the buffer that holds a worker's records is reused."""
    import marshal
    import select

    parent = os.getpid()
    workers: list[_Worker] = []
    try:
        for _ in range(jobs - 1):
            try:
                tasks_r, tasks_w = os.pipe()
            except OSError:  # out of file descriptors: the workers started so far (or none: all here)
                break
            try:
                results_r, results_w = os.pipe()
            except OSError:
                os.close(tasks_r)
                os.close(tasks_w)
                break
            _widen(results_w)
            try:
                pid = os.fork()
            except OSError:  # out of processes or memory: as above
                for fd in (tasks_r, tasks_w, results_r, results_w):
                    os.close(fd)
                break
            if pid == 0:  # the worker: never returns, never runs the parent's exit-time code nor flushes its buffers
                code = 0
                try:
                    for w in workers:
                        if w.tasks >= 0:
                            os.close(w.tasks)
                        os.close(w.results)
                    os.close(tasks_w)
                    os.close(results_r)
                    _worker_init(parent)
                    _serve(plan, base, render, tasks_r, results_w)
                except BaseException:  # noqa: BLE001  (the parent scores what this worker did not answer)
                    code = 1
                os._exit(code)
            os.close(tasks_r)
            os.close(results_w)
            os.set_blocking(results_r, False)  # read as far as a result has come (_read_some), then on
            workers.append(_Worker(pid, tasks_w, results_r))
        ranges = _ranges(plan, _range_bytes(plan, jobs))
        sent: dict[int, _Range] = {}  # the ranges given out, by number, until their results are yielded
        done: dict[int, _Scored] = {}
        order: deque[tuple[int, _Worker | None]] = deque()  # every range in the file's order, and its worker
        count = 0
        more = True
        ahead = 0  # ranges scored here before their turn, held in ``done``
        spare: list[bytearray] = []  # the buffers of workers' results written out, for the next ones

        def take() -> _Range | None:
            """The next range of the file; at the end, the workers are told there is no more (they end when they
            have answered what they hold, while this process is still busy)."""
            nonlocal more
            task = next(ranges, None) if more else None
            if task is None and more:
                more = False
                for w in workers:
                    if w.tasks >= 0:
                        os.close(w.tasks)
                        w.tasks = -1
            return task

        def give() -> None:
            nonlocal count
            for w in workers:
                while more and w.alive and len(w.given) < 2:
                    task = take()
                    if task is None:
                        return
                    try:
                        _send(w.tasks, _task_parts(marshal.dumps((task.start, task.end, task.first, task.last,
                                                                  task.head is not None))))
                    except OSError:
                        w.alive = False  # gone: this range and those it held are scored here
                        order.append((count, None))
                    else:
                        w.given.append(count)
                        order.append((count, w))
                    sent[count] = task
                    count += 1

        def own() -> bool:
            """Take the next range and score it here, now; False when the file has no more."""
            nonlocal count, ahead
            task = take()
            if task is None:
                return False
            sent[count] = task
            order.append((count, None))
            done[count] = _score_range(task, base, render)
            count += 1
            ahead += 1
            return True

        def arrived(block: bool) -> None:
            """File what the workers have sent: what is there now, or (``block``) wait until something comes."""
            busy = [w for w in workers if w.alive and w.given]
            if busy:
                for w in select.select(busy, [], [], None if block else 0)[0]:
                    _read_some(w, done, spare)

        def collect(wanted: _Worker) -> None:
            """Until the result ``wanted`` owes first has come (or it died): this process scores ranges of its own
            meanwhile, as many as ``_AHEAD``, then waits."""
            while wanted.alive and wanted.given and wanted.given[0] not in done:
                arrived(False)
                if wanted.alive and wanted.given and wanted.given[0] not in done:
                    if ahead < _AHEAD and own():
                        give()
                    else:
                        arrived(True)

        give()
        while order or own():
            number, worker = order.popleft()
            if worker is not None and worker.alive:
                collect(worker)
            scored = done.pop(number, None)
            if scored is None:  # no worker, or it died before answering: scored here
                if worker is not None and number in worker.given:
                    worker.given.remove(number)
                scored = _score_range(sent[number], base, render)
            elif worker is not None:
                worker.given.popleft()
            else:
                ahead -= 1
            del sent[number]
            yield scored
            if scored.data is not None:  # written out (the caller has it until it asks for the next)
                spare.append(scored.data)
            give()
    finally:
        for w in workers:
            if w.tasks >= 0:
                os.close(w.tasks)  # the worker's end of its work: it exits
        unfinished = bool(sys.exc_info()[0]) or any(w.given for w in workers)
        for w in workers:
            if unfinished:
                try:
                    os.kill(w.pid, signal.SIGTERM)
                except OSError:
                    pass
            os.close(w.results)
        for w in workers:
            try:
                os.waitpid(w.pid, 0)
            except ChildProcessError:
                pass


def _widen(fd: int) -> None:
    """A pipe that holds a whole range's output (Linux: 64 KiB otherwise), so that a worker writes it at once and
    goes on with its next range instead of waiting for the parent to read it piece by piece."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass


def _read_some(w: _Worker, done: dict[int, _Scored], spare: list[bytearray]) -> None:
    """What worker ``w`` has sent, as far as it goes now (its pipe does not block): each whole result filed under
    its range's number, its records in a buffer taken from ``spare`` (those of results written out, for reuse); at
    the end of its stream (it died), the worker is marked dead and its ranges are left to the parent."""
    import marshal

    answered = sum(1 for n in w.given if n in done)
    while True:
        need = w.size if w.stage == 2 else len(w.into)
        if w.got < need:
            try:
                n = os.readv(w.results, [memoryview(w.into)[w.got:need]])
            except BlockingIOError:
                return
            if not n:
                w.alive = False
                return
            w.got += n
        elif w.stage == 0:
            meta, w.size = int.from_bytes(w.into[:_LENGTH], "little"), int.from_bytes(w.into[_LENGTH:], "little")
            w.stage, w.into, w.got = 1, bytearray(meta), 0
        elif w.stage == 1:
            w.meta = marshal.loads(w.into)
            w.stage, w.into, w.got = 2, _buffer(spare, w.size), 0
        else:
            counts, last, stopped, is_text = w.meta
            done[w.given[answered]] = _Scored([], counts, last, stopped, w.into, w.size, is_text)
            answered += 1
            w.stage, w.into, w.got, w.size = 0, bytearray(2 * _LENGTH), 0, 0


def _buffer(spare: list[bytearray], size: int) -> bytearray:
    """A buffer of at least ``size`` bytes: a spare one when one is large enough (its pages are already there),
    else a new one, a quarter larger, in place of the smallest spare one."""
    for i, buf in enumerate(spare):
        if len(buf) >= size:
            return spare.pop(i)
    if spare:
        spare.remove(min(spare, key=len))
    return bytearray(size + size // 4)
