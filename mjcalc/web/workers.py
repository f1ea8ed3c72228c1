"""The processes that score for the server: a few, each answering one job at a time, each job under a time
limit. A worker still busy at the limit is killed and a fresh one takes its place, so a line that takes too
long costs its request an error and nothing else: no thread or process is left working on it.

The event loop never waits on a worker itself: a job is sent and its answer awaited in a thread
(``anyio.to_thread``), so the server keeps answering while lines are scored.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from typing import Any

import anyio.to_thread

from .jobs import Answer, error_text, serve

DIED: Answer = (500, error_text("internal", "internal error in mjcalc: a worker process ended without an answer "
                                "(the server's console has the details)"))


STARTING_SECONDS = 120.0  # a worker's start (an interpreter, the engine, every ruleset) on a slow, busy machine


class Worker:
    """One process and the pipe to it, ready when made: its start (the rulesets loaded) is not counted in the
    time limit of the first line it scores."""

    def __init__(self, context: Any, wait: bool = True) -> None:
        here, there = context.Pipe()
        self.process = context.Process(target=serve, args=(there, os.getpid()), daemon=True,
                                       name="mjcalc serve worker")
        self.process.start()
        there.close()
        self.conn = here
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

    def call(self, job: tuple[str, Any], seconds: float) -> Answer | None:
        """The job's answer; None when the worker did not answer within ``seconds``; DIED when it ended
        without an answer."""
        try:
            self.conn.send(job)
            if not self.conn.poll(seconds):
                return None
            answer: Answer = self.conn.recv()
            return answer
        except (EOFError, OSError):
            return DIED

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class Pool:
    """``size`` workers; a job waits at most ``seconds`` for a free one (else the server is busy) and at most
    ``seconds`` for its answer (else its worker is replaced)."""

    def __init__(self, size: int, seconds: float) -> None:
        self.size, self.seconds = size, seconds
        self.context = multiprocessing.get_context("spawn")  # no fork of a process that has threads
        self.idle: asyncio.Queue[Worker] | None = None
        self.workers: list[Worker] = []
        self.closed = False

    async def start(self) -> None:
        """Start the workers side by side and wait until each is ready."""
        self.idle = asyncio.Queue()

        # The processes start on this (the event loop's) thread, which lives as long as the server: a worker
        # dies with the thread that started it (PR_SET_PDEATHSIG, batch.work._worker_init), and a thread of
        # anyio's pool is retired after 10 s idle. Only the wait for them to be ready is done in a thread.
        started = [Worker(self.context, wait=False) for _ in range(self.size)]

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
        for worker in self.workers:
            self.idle.put_nowait(worker)

    async def run(self, job: tuple[str, Any]) -> Answer:
        assert self.idle is not None, "the pool is started by the application's lifespan"
        worker = await self._idle_worker()
        if worker is None:
            return 503, error_text("busy", f"the server is busy: every worker has been scoring for over "
                                   f"{self.seconds:g} s; try again in a moment")
        try:
            answer = await anyio.to_thread.run_sync(worker.call, job, self.seconds)
            if (answer is None or answer is DIED) and not self.closed:
                worker = await self._replace(worker)
        finally:
            self.idle.put_nowait(worker)
        if answer is None:
            return 422, error_text("limit", f"this line took longer than {self.seconds:g} s to work out and was "
                                   "stopped")
        return answer

    async def _idle_worker(self) -> Worker | None:
        """A free worker within ``seconds``, else None. (Not ``wait_for(queue.get())``: before Python 3.12 a
        get that completes as the time runs out loses its worker.)"""
        assert self.idle is not None
        getter = asyncio.ensure_future(self.idle.get())
        try:
            await asyncio.wait({getter}, timeout=self.seconds)
        except BaseException:  # this request cancelled: a worker it got goes back
            getter.cancel()
            if getter.done() and not getter.cancelled():
                self.idle.put_nowait(getter.result())
            raise
        if getter.done():
            return getter.result()
        getter.cancel()  # a cancelled get never takes a worker from the queue
        try:
            return await getter
        except asyncio.CancelledError:
            return None

    async def _replace(self, worker: Worker) -> Worker:
        await anyio.to_thread.run_sync(worker.stop)
        try:
            fresh = Worker(self.context, wait=False)  # on the loop's thread, as in start()
            await anyio.to_thread.run_sync(fresh.wait_ready)
        except RuntimeError:
            return worker  # dead: the next job that gets it is an internal error, and tries again
        self.workers = [fresh if w is worker else w for w in self.workers]
        return fresh

    async def close(self) -> None:
        self.closed = True
        workers, self.workers = self.workers, []

        def stop_all() -> None:
            for w in workers:
                w.stop()

        await anyio.to_thread.run_sync(stop_all)
