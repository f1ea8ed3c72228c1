"""The HTTP/1.1 server of ``mjcalc serve``: h11 reads and writes the protocol, asyncio carries the bytes, the
ASGI application answers. Why not Uvicorn, Hypercorn or Granian: docs/performance-serve.md compares them; none
times out a request head, caps its size, keeps idle sockets from crowding out working ones and answers its
own errors with the application's JSON, all four.

What a connection is held to (``Limits``):

- **its head** (request line and headers) arrives within ``head_seconds`` of the connection being ready for
  one — a new connection, or the end of the previous answer on a kept-alive one — else it is closed (a 408
  if part of a head had come, nothing if none had). An idle or slowloris socket is never waited on;
- **a head is at most** ``max_head`` bytes (431), however it is split into writes;
- **a body** arrives within ``body_seconds`` of its head (the application then sees ``http.disconnect``);
- **an answer's writes** drain within ``write_seconds`` (a client that reads nothing is dropped);
- **at most** ``max_connections`` at once: at the cap the connection idle the longest is closed to make room,
  so idle sockets never keep a working client out; only when every connection is mid-request is a new one
  refused (503). A long answer (a stream, such as server-sent events) holds its connection and nothing else:
  requests are not counted against a shared limit here (the workers' queue is the application's); once its
  request is read, ``receive()`` says ``http.disconnect`` as soon as the client closes or loses the connection;
- **every answer the server makes itself** (400 for bad HTTP, 408, 431, 500 for an application that fails
  before answering, 503) is ``refuse(status, kind, message)``: the application's JSON error and headers.

``stop()`` drains: no new connection, idle ones closed, answers in progress finished (each connection closed
after its answer), streams told to end (their ``receive()`` says ``http.disconnect``), the rest cut off after
``drain_seconds``; then the application's lifespan shutdown.
"""

from __future__ import annotations

import asyncio
import re
import socket
import struct
import sys
import traceback
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any
from urllib.parse import unquote, urlsplit

import h11

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]
Headers = list[tuple[bytes, bytes]]
# (status, kind, message) -> the headers and body of the answer (the application's JSON error object)
Refuse = Callable[[int, str, str], tuple[Headers, bytes]]

BLANK_LINE = re.compile(b"\n\r?\n")  # the end of a head, as h11 finds it
READ_BUFFER = 65_536  # bytes held unread before the socket is paused


@dataclass(frozen=True)
class Limits:
    head_seconds: float = 5.0
    body_seconds: float = 20.0
    write_seconds: float = 10.0
    drain_seconds: float = 10.0
    max_head: int = 8_192
    max_connections: int = 1_000


class HeadTooLong(Exception):
    pass


class StartError(Exception):
    """The application's lifespan start-up failed (its message says why)."""


class Server:
    """Serve ``app`` on listening sockets until ``stop()``; ``serve()`` returns once drained and shut down."""

    def __init__(self, app: App, refuse: Refuse, limits: Limits = Limits()) -> None:
        self.app, self.refuse, self.limits = app, refuse, limits
        self.connections: dict[Connection, None] = {}
        self.state: dict[str, Any] = {}
        self.started = False
        self._stop: asyncio.Future[None] | None = None
        self._lifespan: _Lifespan | None = None

    @property
    def stopped(self) -> asyncio.Future[None] | None:
        """Done once ``stop()`` is called (None before ``serve()``)."""
        return self._stop

    def stop(self) -> None:
        """Begin the drain (safe to call more than once, from the event loop's thread)."""
        if self._stop is not None and not self._stop.done():
            self._stop.set_result(None)

    async def serve(self, sockets: list[socket.socket], ready: Callable[[], None] | None = None) -> None:
        loop = asyncio.get_running_loop()
        self._stop = loop.create_future()
        self._lifespan = _Lifespan(self.app, self.state)
        await self._lifespan.startup()
        servers = [await loop.create_server(lambda: Connection(self), sock=s, backlog=1024) for s in sockets]
        self.started = True
        if ready is not None:
            ready()
        try:
            await self._stop
        finally:
            for srv in servers:
                srv.close()
            await self._drain()
            await self._lifespan.shutdown()

    async def _drain(self) -> None:
        for conn in list(self.connections):
            conn.stopping()
        tasks = [c.task for c in self.connections if c.task is not None and not c.task.done()]
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=self.limits.drain_seconds)
            for conn in list(self.connections):
                conn.abort()
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late, timeout=1.0)

    def admit(self, conn: Connection) -> bool:
        """Room for a new connection: at the cap, the one idle the longest makes way; False if none is idle."""
        if len(self.connections) >= self.limits.max_connections:
            idle = [c for c in self.connections if c.idle_since is not None]
            if not idle:
                return False
            min(idle, key=lambda c: c.idle_since or 0.0).abort()
        self.connections[conn] = None
        return True

    def forget(self, conn: Connection) -> None:
        self.connections.pop(conn, None)


class _Lifespan:
    """The ASGI lifespan protocol: start-up before the first connection, shut-down after the last."""

    def __init__(self, app: App, state: dict[str, Any]) -> None:
        self.app, self.state = app, state
        self.inbox: asyncio.Queue[Message] = asyncio.Queue()
        self.said: dict[str, asyncio.Future[Message]] = {}
        self.task: asyncio.Task[None] | None = None
        self.supported = True

    def _future(self, name: str) -> asyncio.Future[Message]:
        if name not in self.said:
            self.said[name] = asyncio.get_running_loop().create_future()
        return self.said[name]

    async def _run(self) -> None:
        scope = {"type": "lifespan", "asgi": {"version": "3.0", "spec_version": "2.0"}, "state": self.state}

        async def send(message: Message) -> None:
            kind = str(message["type"])
            step = "startup" if ".startup." in kind else "shutdown"
            future = self._future(step)
            if not future.done():
                future.set_result(message)

        try:
            await self.app(scope, self.inbox.get, send)
        except Exception as exc:  # an application without a lifespan, or one that failed in it
            failed: Message = {"type": "lifespan.failed", "message": f"{type(exc).__name__}: {exc}"}
            for step in ("startup", "shutdown"):
                future = self._future(step)
                if not future.done():
                    future.set_result(failed)

    async def startup(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())
        await self.inbox.put({"type": "lifespan.startup"})
        said = await self._future("startup")
        if said["type"] != "lifespan.startup.complete":
            raise StartError(str(said.get("message") or "the application did not start"))

    async def shutdown(self) -> None:
        if self.task is None or self.task.done():
            return
        await self.inbox.put({"type": "lifespan.shutdown"})
        done: list[asyncio.Future[Any]] = [self._future("shutdown"), self.task]
        await asyncio.wait(done, timeout=30.0)


class Connection(asyncio.Protocol):
    """One client's connection: requests read one after another (h11), each answered by the application."""

    def __init__(self, server: Server) -> None:
        self.server, self.limits = server, server.limits
        self.h11 = h11.Connection(h11.SERVER, max_incomplete_event_size=server.limits.max_head * 2)
        self.transport: asyncio.Transport | None = None
        self.task: asyncio.Task[None] | None = None
        self.loop = asyncio.get_running_loop()
        self.wake = asyncio.Event()  # bytes came, or the connection ended
        self.writable = asyncio.Event()
        self.writable.set()
        self.gone: asyncio.Future[None] = self.loop.create_future()  # the connection is lost
        self.ended: asyncio.Future[None] = self.loop.create_future()  # the client sent its last byte (EOF)
        self.paused = False
        self.received = 0  # bytes, all told
        self.idle_since: float | None = None  # waiting for a request's head since then (None: in a request)
        self.close_after = False  # the server is stopping: this connection's current answer is its last

    # --- asyncio's side -------------------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if not self.server.admit(self):
            headers, body = self.server.refuse(503, "busy", "the server is busy: every connection is in use; "
                                               "try again in a moment")
            self._write_raw(503, headers, body)
            transport.close()
            return
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # small answers leave at once
            except (OSError, AttributeError):
                pass
        self.idle_since = self.loop.time()
        self.task = self.loop.create_task(self._serve())

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        try:
            self.h11.receive_data(data)
        except RuntimeError:  # data after the client closed its side: nothing to read any more
            return
        self.wake.set()
        if len(self.h11.trailing_data[0]) > READ_BUFFER and not self.paused and self.transport is not None:
            self.paused = True
            self.transport.pause_reading()  # nobody is reading: the client waits instead of filling memory

    def eof_received(self) -> bool:
        try:
            self.h11.receive_data(b"")
        except RuntimeError:
            pass
        self.wake.set()
        if not self.ended.done():
            self.ended.set_result(None)
        return True  # the answer may still be written (a client that half-closed after its request)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.forget(self)
        if not self.gone.done():
            self.gone.set_result(None)
        self.wake.set()
        self.writable.set()

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    # --- the server's side ----------------------------------------------------------------------------------

    def abort(self) -> None:
        """End the connection now; an answer still unsent is dropped, the system's buffers too (a reset)."""
        if self.transport is not None and not self.transport.is_closing():
            sock = self.transport.get_extra_info("socket")
            if sock is not None and self.transport.get_write_buffer_size():
                try:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                except OSError:
                    pass
            self.transport.abort()
        if not self.gone.done():  # connection_lost comes later, from the loop: the waiters need not wait
            self.gone.set_result(None)
        self.wake.set()
        self.writable.set()
        self.server.forget(self)

    def stopping(self) -> None:
        """The server stops: an idle connection is closed now, a busy one after its answer."""
        self.close_after = True
        if self.idle_since is not None and not self.h11.trailing_data[0].strip():
            self.abort()

    async def _next_event(self, deadline: float, head: bool = False) -> Any:
        """h11's next event, waiting for bytes until ``deadline`` (loop time); None when it passes. ``head``:
        a head over ``max_head`` bytes raises HeadTooLong before h11 reads it."""
        while True:
            if head and self._head_too_long():
                raise HeadTooLong
            event = self.h11.next_event()
            if event is not h11.NEED_DATA:
                return event
            if self.gone.done():
                return h11.ConnectionClosed()
            if self.paused and self.transport is not None:
                self.paused = False
                self.transport.resume_reading()
            self.wake.clear()
            before = self.received
            remaining = deadline - self.loop.time()
            if remaining <= 0:
                return None
            timer = self.loop.call_later(remaining, self.wake.set)  # a timer, not a task per read
            try:
                await self.wake.wait()
            finally:
                timer.cancel()
            if self.received == before and not self.gone.done() and self.loop.time() >= deadline:
                return None

    def _head_too_long(self) -> bool:
        """The head waiting in the buffer is over ``max_head`` bytes (h11 only limits one still incomplete)."""
        pending = self.h11.trailing_data[0]
        end = BLANK_LINE.search(pending)
        return (end.start() if end else len(pending)) > self.limits.max_head

    async def _head(self) -> h11.Request | None:
        self.idle_since = self.loop.time()
        deadline = self.idle_since + self.limits.head_seconds
        too_long = f"the request's headers are over {self.limits.max_head:,} bytes"
        try:
            while True:
                try:
                    event = await self._next_event(deadline, head=True)
                except HeadTooLong:
                    await self._refuse(431, "limit", too_long)
                    return None
                if event is None:
                    if self.h11.trailing_data[0].strip():  # part of a head came: say why it is closed
                        await self._refuse(408, "limit", f"the request's headers took over "
                                           f"{self.limits.head_seconds:g} s to arrive")
                    return None
                if isinstance(event, h11.Request):
                    return event
                if isinstance(event, h11.ConnectionClosed) or event is h11.PAUSED:
                    return None
        except h11.RemoteProtocolError as exc:
            if exc.error_status_hint == 431 or self._head_too_long():
                await self._refuse(431, "limit", too_long)
            else:
                why = str(exc).split(":")[0][:200]  # h11's reason, without the bytes it quotes
                await self._refuse(exc.error_status_hint or 400, "request",
                                   f"not an HTTP/1.1 request this server can read: {why}")
            return None
        finally:
            self.idle_since = None

    async def _serve(self) -> None:
        try:
            while not self.gone.done():
                request = await self._head()
                if request is None:
                    break
                if not await self._request(request):
                    break
                self._skip_body()
                if self.close_after or self.h11.our_state is not h11.DONE or self.h11.their_state is not h11.DONE:
                    break  # a body the application did not read, or an answer that ends the connection
                self.h11.start_next_cycle()
        except Exception:  # a bug here: this connection only
            traceback.print_exc(file=sys.stderr)
        finally:
            self._close()

    def _skip_body(self) -> None:
        """What is already here of a body the application did not read (a GET's empty one) is passed over, so
        the connection can take its next request; a body still arriving ends the connection instead."""
        try:
            while self.h11.their_state is h11.SEND_BODY:
                if self.h11.next_event() is h11.NEED_DATA:
                    return
        except h11.RemoteProtocolError:
            return

    def _close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()
        self.server.forget(self)

    async def _refuse(self, status: int, kind: str, message: str) -> None:
        """The server's own answer, then the connection ends."""
        headers, body = self.server.refuse(status, kind, message)
        if self.h11.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            try:
                data = self.h11.send(h11.Response(status_code=status, headers=[*headers, (b"connection", b"close")],
                                                  reason=_reason(status)))
                data = (data or b"") + (self.h11.send(h11.Data(data=body)) or b"") + (
                    self.h11.send(h11.EndOfMessage()) or b"")
            except h11.LocalProtocolError:  # h11 would not write it (its state): write it raw
                self._write_raw(status, headers, body)
            else:
                self._write(data)
        else:
            self._write_raw(status, headers, body)
        await self._drain()

    def _write_raw(self, status: int, headers: Headers, body: bytes) -> None:
        lines = [f"HTTP/1.1 {status} {_reason(status)}".encode(),
                 *(k + b": " + v for k, v in headers), b"connection: close"]
        self._write(b"\r\n".join(lines) + b"\r\n\r\n" + body)

    def _write(self, data: bytes) -> None:
        if data and self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    async def _drain(self) -> None:
        """Wait until the client takes what was written (``write_seconds`` at most, else the connection ends)."""
        if self.writable.is_set():
            return
        try:
            await asyncio.wait_for(self.writable.wait(), self.limits.write_seconds)
        except asyncio.TimeoutError:
            self.abort()
        if self.gone.done():
            raise ConnectionResetError("the client is gone")

    async def _request(self, request: h11.Request) -> bool:
        """Answer one request with the application; False when the connection cannot go on."""
        scope = self._scope(request)
        if scope is None:
            await self._refuse(400, "request", "not a request target this server can read")
            return False
        names = {bytes(k) for k, _ in request.headers}
        if b"content-length" in names and b"transfer-encoding" in names:  # which one frames the body is a guess
            await self._refuse(400, "request", "a request has a Content-Length or a Transfer-Encoding, not both")
            return False
        body_deadline = self.loop.time() + self.limits.body_seconds
        body_done = False
        started = finished = False
        head_only = request.method == b"HEAD"

        async def receive() -> Message:
            nonlocal body_done
            if finished:
                return {"type": "http.disconnect"}
            if not body_done:
                if self.h11.they_are_waiting_for_100_continue and self.h11.our_state is h11.SEND_RESPONSE:
                    go_on = h11.InformationalResponse(status_code=100, headers=[], reason=b"Continue")
                    self._write(self.h11.send(go_on) or b"")
                try:
                    event = await self._next_event(body_deadline)
                except h11.RemoteProtocolError:
                    event = h11.ConnectionClosed()
                if isinstance(event, h11.Data):
                    return {"type": "http.request", "body": bytes(event.data), "more_body": True}
                if isinstance(event, h11.EndOfMessage):
                    body_done = True
                    return {"type": "http.request", "body": b"", "more_body": False}
                self.close_after = True  # the body did not come whole in time: the connection cannot go on
                return {"type": "http.disconnect"}
            # The body is read: what comes next is the client leaving (its connection lost, or closed on its
            # side: no client of a long answer half-closes), or the server stopping.
            stop = self.server.stopped
            waiting: list[asyncio.Future[Any]] = [self.gone, self.ended] + ([] if stop is None else [stop])
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            nonlocal started, finished
            if self.gone.done():
                raise ConnectionResetError("the client is gone")
            kind = message["type"]
            if kind == "http.response.start" and not started:
                started = True
                headers = [(bytes(k).lower(), bytes(v)) for k, v in message.get("headers", ())]
                if self.close_after:  # the server is stopping: this answer is the connection's last
                    headers.append((b"connection", b"close"))
                status = int(message["status"])
                self._write(self.h11.send(h11.Response(status_code=status, headers=headers, reason=_reason(status)))
                            or b"")
            elif kind == "http.response.body" and started and not finished:
                body = bytes(message.get("body", b""))
                if body and not head_only:
                    self._write(self.h11.send(h11.Data(data=body)) or b"")
                if not message.get("more_body", False):
                    finished = True
                    self._write(self.h11.send(h11.EndOfMessage()) or b"")
                await self._drain()
            else:
                raise RuntimeError(f"ASGI message {kind!r} out of order")

        try:
            await self.server.app(scope, receive, send)
        except Exception:
            if not self.gone.done():
                traceback.print_exc(file=sys.stderr)
                if not started:
                    await self._refuse(500, "internal", "internal error in mjcalc (the server's console has the "
                                       "details)")
            return False
        finally:
            finished = True
        if not started:
            await self._refuse(500, "internal", "internal error in mjcalc: the request was not answered")
            return False
        return not self.gone.done() and self.h11.our_state is h11.DONE

    def _scope(self, request: h11.Request) -> dict[str, Any] | None:
        target = bytes(request.target)
        try:
            if target.startswith(b"/"):
                raw_path, _, query = target.partition(b"?")
            elif target.startswith((b"http://", b"https://")):  # absolute form: its path is the target
                parts = urlsplit(target.decode("ascii"))
                raw_path, query = (parts.path or "/").encode("ascii"), parts.query.encode("ascii")
            else:
                return None
            path = unquote(raw_path.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            return None
        transport = self.transport
        peer = transport.get_extra_info("peername") if transport is not None else None
        here = transport.get_extra_info("sockname") if transport is not None else None
        return {
            "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": request.http_version.decode("ascii"), "method": request.method.decode("ascii"),
            "scheme": "http", "path": path, "raw_path": raw_path, "query_string": query, "root_path": "",
            "headers": [(bytes(k), bytes(v)) for k, v in request.headers],
            "client": tuple(peer[:2]) if isinstance(peer, tuple) else None,
            "server": tuple(here[:2]) if isinstance(here, tuple) else None,
            "state": dict(self.server.state),
        }


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""
