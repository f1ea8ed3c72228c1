"""The processes that score for the server: a few, each answering one job at a time, each job under a time
limit. A worker still busy at the limit is killed and a fresh one takes its place, so a line that takes too
long costs its request an error and nothing else: no thread or process is left working on it.

A line past the limit is its own fault only if its worker spent the time working on it: a worker that used
little of it (frozen by a signal, starved, blocked) is the server's fault, and said to be (``STUCK``).

The server keeps two pools, lanes that do not wait on each other: the quick one for scores and the rulesets,
the slow one (its processes at a lower priority) for the waits of a hand, which can cost a hundred times a
score: clients looping the slowest waits queue behind each other, not in front of a score.

The event loop never waits on a worker itself: a job is sent and its answer awaited in a thread
(``anyio.to_thread``), so the server keeps answering while lines are scored.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import multiprocessing
import os
import time
from typing import Any

import anyio.to_thread

from .jobs import Answer, error_text, serve

DIED: Answer = (500, error_text("internal", "internal error in mjcalc: a worker process ended without an answer "
                                "(the server's console has the details)"))
SLOW: Answer = (422, "")  # the job used its time working and did not finish: the line's fault (the text: Pool.run)
STUCK: Answer = (503, "")  # the worker did not work on it for most of the time: the server's fault
WORKING = 0.5  # a job that took all its time is the line's fault if its worker was on a CPU this share of it


TICK = 1 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01  # what /proc counts in


def cpu_seconds(pid: int) -> float | None:
    """The processor time a process has used so far (Linux: /proc; to the nanosecond where the scheduler
    counts it, else in ticks), else None."""
    try:
        with open(f"/proc/{pid}/schedstat", "rb") as sched:
            return int(sched.read().split()[0]) / 1e9  # time on a CPU
    except (OSError, ValueError, IndexError):
        pass
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) * TICK  # utime + stime
    except (OSError, ValueError, IndexError):
        return None


STARTING_SECONDS = 120.0  # a worker's start (an interpreter, the engine, every ruleset) on a slow, busy machine


class Worker:
    """One process and the pipe to it, ready when made: its start (the rulesets loaded) is not counted in the
    time limit of the first line it scores."""

    def __init__(self, context: Any, wait: bool = True, nice: int = 0) -> None:
        here, there = context.Pipe()
        self.process = context.Process(target=serve, args=(there, os.getpid(), nice), daemon=True,
                                       name="mjcalc serve worker")
        self.process.start()
        there.close()
        self.conn = here
        self.used: float | None = None  # the processor time of the last job answered, where the system says
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        try:
            ready = self.conn.poll(STARTING_SECONDS) and self.conn.recv() == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            self.stop()
            raise RuntimeError("a worker process did not start (its error, if any, is above)")

    def call(self, job: tuple[str, Any], seconds: float) -> Answer:
        """The job's answer; SLOW or STUCK when the worker did not answer within ``seconds`` (working on it all
        along, or not); DIED when it ended without an answer."""
        self.used = None
        try:
            before = cpu_seconds(self.process.pid)
            self.conn.send(job)
            if not self.conn.poll(seconds):
                after = cpu_seconds(self.process.pid)
                if before is not None and after is not None and after - before + TICK < WORKING * seconds:
                    return STUCK
                return SLOW
            answer: Answer = self.conn.recv()
            after = cpu_seconds(self.process.pid)
            if before is not None and after is not None:
                self.used = after - before
            return answer
        except (EOFError, OSError):
            return DIED

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class Fair:
    """The order in which a lane's waiting jobs get a worker: start-time fair queuing, each client (a
    connection: address and port) a queue of its own. A job's tag is where its client's last job finished on
    the lane's clock of work done (its tag plus the worker's processor time it took), or the clock itself if
    that is past; the smallest tag goes first, and the clock moves to it. So every client gets its turn in
    proportion to what it asks: one looping the slowest lines has its next job tagged far ahead, and a cheap
    request from anyone else, tagged at the clock, goes before it however many wait. A connection not seen yet
    starts where its address's clients finished, but at most ``NEW`` past the clock: a client opening a
    connection for each expensive line waits behind the others, a phone back on a new connection does not
    wait for long. Bounded: the oldest clients are forgotten."""

    MOST = 4_096
    NEW = 0.005  # seconds of work

    def __init__(self) -> None:
        self.clock = 0.0
        self.finish: dict[Any, float] = {}
        self.by_address: dict[Any, float] = {}

    def tag(self, client: Any) -> float:
        if client is None:
            return self.clock
        last = self.finish.get(client)
        if last is None:
            last = min(self.by_address.get(_address(client), 0.0), self.clock + self.NEW)
        return max(self.clock, last)

    def begun(self, tag: float) -> None:
        self.clock = max(self.clock, tag)

    def done(self, client: Any, tag: float, seconds: float) -> None:
        if client is None:
            return
        finished = tag + seconds
        address = _address(client)
        self.finish.pop(client, None)  # put back as the newest
        self.finish[client] = finished
        self.by_address[address] = max(finished, self.by_address.pop(address, 0.0))
        for table in (self.finish, self.by_address):
            if len(table) > self.MOST:
                for old in list(table)[: self.MOST // 2]:
                    del table[old]


def _address(client: Any) -> Any:
    return client[0] if isinstance(client, tuple) and client else client


class Pool:
    """``size`` workers; a job waits at most ``seconds`` for a free one (else the server is busy) and at most
    ``seconds`` for its answer (else its worker is replaced). ``nice``: added to the workers' scheduling
    priority (a slow lane yields the processors to the quick one).

    A free worker goes to the waiting job with the smallest tag (``Fair``), the earliest among equals: clients
    looping expensive lines wait behind each other and behind the cheap ones that come meanwhile, and still
    come to their turn."""

    def __init__(self, size: int, seconds: float, nice: int = 0) -> None:
        self.size, self.seconds, self.nice = size, seconds, nice
        self.context = multiprocessing.get_context("spawn")  # no fork of a process that has threads
        self.free: list[Worker] = []
        self.waiting: list[tuple[float, int, asyncio.Future[Worker]]] = []  # a heap: (tag, arrival, its turn)
        self.arrivals = itertools.count()
        self.fair = Fair()
        self.workers: list[Worker] = []
        self.renewing: set[asyncio.Future[None]] = set()
        self.started = self.closed = False

    async def start(self) -> None:
        """Start the workers side by side and wait until each is ready."""
        # The processes start on this (the event loop's) thread, which lives as long as the server: a worker
        # dies with the thread that started it (PR_SET_PDEATHSIG, batch.work._worker_init), and a thread of
        # anyio's pool is retired when idle. Only the wait for them to be ready is done in a thread.
        started = [Worker(self.context, wait=False, nice=self.nice) for _ in range(self.size)]

        def start_all() -> list[Worker]:
            try:
                for worker in started:
                    worker.wait_ready()
            except RuntimeError:
                for worker in started:
                    worker.stop()
                raise
            return started

        self.workers = await anyio.to_thread.run_sync(start_all)
        self.started = True
        for worker in self.workers:
            self._release(worker)

    async def run(self, job: tuple[str, Any], client: Any = None) -> Answer:
        """The job's answer; ``client``: who asks (its address and port), for the order of the waiting jobs."""
        assert self.started, "the pool is started by the application's lifespan"
        tag = self.fair.tag(client)
        worker = await self._idle_worker(tag)
        if worker is None:
            return 503, error_text("busy", f"the server is busy: every worker has been scoring for over "
                                   f"{self.seconds:g} s; try again in a moment")
        self.fair.begun(tag)
        answer = DIED
        began = time.monotonic()
        try:
            answer = await anyio.to_thread.run_sync(worker.call, job, self.seconds)
        finally:
            used = worker.used  # what the line cost, not what the machine's load added to it
            self.fair.done(client, tag, used if used is not None else time.monotonic() - began)
            if answer in (SLOW, STUCK, DIED) and not self.closed:  # its state unknown: a fresh one, meanwhile
                renewing = asyncio.ensure_future(self._renew(worker))  # answered
                self.renewing.add(renewing)
                renewing.add_done_callback(self.renewing.discard)
            else:
                self._release(worker)
        if answer is SLOW:
            return 422, error_text("limit", f"this line took longer than {self.seconds:g} s to work out and was "
                                   "stopped")
        if answer is STUCK:
            return 503, error_text("internal", "the server's fault, not the line's: the process scoring it stopped "
                                   "working (it has been replaced); send the line again")
        return answer

    def _release(self, worker: Worker) -> None:
        """A worker is free: to the first waiting job still waiting, else to the free ones."""
        while self.waiting:
            _, _, turn = heapq.heappop(self.waiting)
            if not turn.done():
                turn.set_result(worker)
                return
        self.free.append(worker)

    async def _idle_worker(self, tag: float) -> Worker | None:
        """A free worker within ``seconds``, else None; among the jobs waiting, the smallest ``tag`` goes first."""
        if self.free and not self.waiting:
            return self.free.pop()
        turn: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        heapq.heappush(self.waiting, (tag, next(self.arrivals), turn))
        try:
            await asyncio.wait({turn}, timeout=self.seconds)
        except BaseException:  # this request cancelled: a worker it was given goes on to the next
            if turn.done() and not turn.cancelled():
                self._release(turn.result())
            turn.cancel()
            raise
        if turn.done():
            return turn.result()
        turn.cancel()  # left in the heap, passed over by _release
        return None

    async def _renew(self, worker: Worker) -> None:
        """Stop ``worker`` and put a fresh one in its place (itself if none starts: the next job that gets it
        is an internal error, and tries again)."""
        await anyio.to_thread.run_sync(worker.stop)
        try:
            fresh = Worker(self.context, wait=False, nice=self.nice)  # on the loop's thread, as in start()
            self.workers = [fresh if w is worker else w for w in self.workers]
            await anyio.to_thread.run_sync(fresh.wait_ready)
        except RuntimeError:
            fresh = worker
        if self.closed:
            await anyio.to_thread.run_sync(fresh.stop)
        else:
            self._release(fresh)

    async def close(self) -> None:
        self.closed = True
        if self.renewing:
            await asyncio.wait(set(self.renewing), timeout=STARTING_SECONDS)
        workers, self.workers = self.workers, []

        def stop_all() -> None:
            for w in workers:
                w.stop()

        await anyio.to_thread.run_sync(stop_all)
