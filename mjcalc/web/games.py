"""The games of ``mjcalc serve``: the routes of ``/api/games`` and the server-sent events that carry each change
to every phone at the table. Only translation here: a request checked and turned into a job, the job done by a
worker process (``game_jobs.py``: one transaction of the store the command line uses, the game engine replaying
it), its answer turned into the API's JSON; no rule of a game is known here.

- ``POST /api/games`` (a GAME.md game header) → 201 ``{"id", "url", "sheet"}``;
- ``GET /api/games/{id}`` → the sheet (GAME.md's JSON);
- ``POST /api/games/{id}/results`` ``{"hand": N, "result": …}`` → 201 the new sheet; 409 when hand N is
  already recorded (another phone was first); 400 with the engine's message for a result it cannot apply;
- ``POST /api/games/{id}/undo`` ``{"hand": N}`` → 200 the sheet without its last result (409: the last is
  not hand N);
- ``GET /api/games/{id}/events`` → ``text/event-stream``: the sheet at once, then again on each change;
- ``GET /api/games/{id}/qr.svg`` (the join link as a QR code), ``GET /api/games/{id}/chart.svg``.

A game's id is its name in the store: 144 random bits (``secrets``), so the link is the key; an id that is not
one, or one no game has, is the same 404.

A stream holds its connection and nothing else: no worker (a change's sheet is made once, by the request that
made the change, and sent to every stream of the game), no slot the server's limits count against other
clients (``http.py``); the server's drain ends it. A change made elsewhere (``mjcalc game add`` on the same
file, another server) is seen by watching the file while streams are open (``Hub.watch``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import os
import re
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from .answers import BadRequest, json_answer, read_body, type_name
from .game_jobs import NOT_FOUND
from .jobs import Answer, error_text

ID_BYTES = 18  # 144 bits: the link to a game is the key to it
ID = re.compile(r"[A-Za-z0-9_-]{22,64}")  # what secrets.token_urlsafe makes (and nothing shorter than 128 bits)
STREAMS_PER_ADDRESS = 16  # a phone has one or two; a script with more is refused (503)
MAX_STREAMS = 512
KEEP_ALIVE = 15.0  # seconds between comments on a quiet stream (a phone that left is found out)
RETRY_MS = 1_000  # a dropped stream's browser tries again after this long
WATCH_SECONDS = 0.5  # how often the store's file is looked at while streams are open
LANGS = ("en", "zh")

Run = Callable[[tuple[str, Any], Any], Awaitable[Answer]]
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

def default_db() -> str:
    """The games' file ``mjcalc game`` uses when given none (``MJCALC_DB``, else the user's data folder)."""
    from ..game.store import default_path

    return default_path()


def new_id() -> str:
    """A game's unguessable id; never one that begins with ``-``, which `mjcalc game show ID` would read as an
    option."""
    while True:
        made = secrets.token_urlsafe(ID_BYTES)
        if not made.startswith("-"):
            return made


def is_id(text: str) -> bool:
    return ID.fullmatch(text) is not None


def not_found() -> Answer:
    return 404, error_text("not_found", NOT_FOUND)


# --- requests ------------------------------------------------------------------------------------------------


def _object(data: bytes, example: str) -> dict[str, Any]:
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):
        raise BadRequest(400, "request", f"the request is not JSON: send {example}") from None
    if not isinstance(body, dict):
        raise BadRequest(400, "request", f"the request is a JSON object ({example}), not {type_name(body)}")
    return body


def _keys(body: dict[str, Any], allowed: tuple[str, ...], needed: tuple[str, ...]) -> None:
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        raise BadRequest(400, "request", f"'{unknown[0][:64]}' is not a key of this request; its keys: "
                         f"{', '.join(allowed)}")
    for key in needed:
        if key not in body:
            raise BadRequest(400, "request", f"the request has no \"{key}\"")


def _count(body: dict[str, Any], key: str, least: int) -> int | None:
    value = body.get(key)
    if value is None and key == "seen":
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= 100_000:
        raise BadRequest(400, "request", f"'{key}' is a whole number from {least}, not {json.dumps(value)[:40]}")
    return value


def read_header(data: bytes) -> dict[str, Any]:
    """The body of ``POST /api/games``: a GAME.md game header, ``{"game": {"players": […], "rules": "…",
    "set": {…}, "dealer": "…"}}`` (checked by the engine; here only its shape)."""
    body = _object(data, '{"game": {"players": ["A", "B", "C", "D"], "rules": "…"}}')
    _keys(body, ("game",), ("game",))
    if not isinstance(body["game"], dict):
        raise BadRequest(400, "request", f"'game' is an object of players, rules, set, dealer, not "
                         f"{type_name(body['game'])}")
    return body


def read_result(data: bytes) -> dict[str, Any]:
    """The body of ``POST /api/games/{id}/results``: ``hand`` (the number of the hand the result is for),
    ``result`` (a GAME.md result, its JSON object), ``seen`` (optional: how many results the sender's sheet had;
    another count is a 409 too)."""
    body = _object(data, '{"hand": 1, "result": {"draw": {"ready": []}}}')
    _keys(body, ("hand", "result", "seen"), ("hand", "result"))
    result = body["result"]
    if not isinstance(result, dict):
        raise BadRequest(400, "request", f"'result' is a GAME.md result (an object), not {type_name(result)}")
    return {"hand": _count(body, "hand", 1), "result": result, "seen": _count(body, "seen", 0)}


def read_undo(data: bytes) -> dict[str, Any]:
    """The body of ``POST /api/games/{id}/undo``: ``hand``, the number of the last result (``seen`` as above)."""
    body = _object(data, '{"hand": 3}')
    _keys(body, ("hand", "seen"), ("hand",))
    return {"hand": _count(body, "hand", 1), "seen": _count(body, "seen", 0)}


def lang_of(request: Request) -> str:
    lang = request.query_params.get("lang", "en")
    if lang not in LANGS:
        raise BadRequest(400, "request", f"'lang' is en or zh, not {lang[:20]}")
    return lang


# --- the sheets a worker sends back ----------------------------------------------------------------------------


class Sheets:
    """A game's state as a job gives it: ``version`` (changes with every change of its results) and the sheet's
    JSON text in each language asked for."""

    __slots__ = ("sheets", "version")

    def __init__(self, version: str, sheets: dict[str, str]) -> None:
        self.version, self.sheets = version, sheets

    @classmethod
    def unpack(cls, text: str) -> Sheets:
        """The worker's text: the version on the first line, then ``lang<TAB>sheet`` a line."""
        version, *lines = text.rstrip("\n").split("\n")
        sheets = {}
        for line in lines:
            lang, _, sheet = line.partition("\t")
            sheets[lang] = sheet
        return cls(version, sheets)


# --- the streams ---------------------------------------------------------------------------------------------


class Stream:
    __slots__ = ("address", "game", "lang", "wake")

    def __init__(self, game: str, lang: str, address: str) -> None:
        self.game, self.lang, self.address = game, lang, address
        self.wake = asyncio.Event()


class Hub:
    """Every open stream by game, and the latest sheets of each game that has one; ``publish`` wakes the game's
    streams. ``run`` does a job on a worker; ``db`` is the store's file (watched for changes made elsewhere)."""

    def __init__(self, run: Run, db: str) -> None:
        self.run, self.db = run, db
        self.streams: dict[str, dict[Stream, None]] = {}
        self.latest: dict[str, Sheets] = {}
        self.by_address: dict[str, int] = {}
        self.count = 0
        self._fetching: dict[tuple[str, str], asyncio.Future[Sheets | None]] = {}
        self.watcher: asyncio.Task[None] | None = None

    def langs(self, game: str, lang: str) -> list[str]:
        """The languages a change of ``game`` is sent in: ``lang`` and those of its streams."""
        wanted = {lang, *(s.lang for s in self.streams.get(game, ()))}
        return [x for x in LANGS if x in wanted]

    def publish(self, game: str, state: Sheets) -> None:
        """``state`` is the game's latest: its streams are woken (a game without streams is not kept)."""
        if game not in self.streams:
            return
        known = self.latest.get(game)
        if known is not None and known.version == state.version:
            known.sheets.update(state.sheets)
        else:
            self.latest[game] = Sheets(state.version, dict(state.sheets))
        for stream in self.streams[game]:
            stream.wake.set()

    async def current(self, game: str, lang: str) -> Sheets | None:
        """The game's latest sheets with ``lang`` among them (a job when none is known); None: no such game."""
        known = self.latest.get(game)
        if known is not None and lang in known.sheets:
            return known
        key = (game, lang)
        waiting = self._fetching.get(key)
        if waiting is None:
            waiting = asyncio.ensure_future(self._fetch(game, lang))
            self._fetching[key] = waiting
            waiting.add_done_callback(lambda _: self._fetching.pop(key, None))
        return await asyncio.shield(waiting)

    async def _fetch(self, game: str, lang: str) -> Sheets | None:
        status, text = await self.run(("game.get", {"db": self.db, "id": game, "langs": self.langs(game, lang)}),
                                      None)
        if status != 200:
            return None
        state = Sheets.unpack(text)
        self.publish(game, state)
        return self.latest.get(game, state)

    def open(self, stream: Stream) -> bool:
        """Count a stream in; False when its address, or the server, has as many as it may."""
        if self.count >= MAX_STREAMS or self.by_address.get(stream.address, 0) >= STREAMS_PER_ADDRESS:
            return False
        self.count += 1
        self.by_address[stream.address] = self.by_address.get(stream.address, 0) + 1
        self.streams.setdefault(stream.game, {})[stream] = None
        return True

    def close(self, stream: Stream) -> None:
        streams = self.streams.get(stream.game)
        if streams is None or stream not in streams:
            return
        del streams[stream]
        if not streams:
            del self.streams[stream.game]
            self.latest.pop(stream.game, None)
        self.count -= 1
        left = self.by_address.get(stream.address, 1) - 1
        if left:
            self.by_address[stream.address] = left
        else:
            self.by_address.pop(stream.address, None)

    # --- changes made elsewhere ---------------------------------------------------------------------------------

    def _stamp(self) -> tuple[tuple[int, int, int], ...]:
        """What changes when anyone commits to the file (its write-ahead log grows, or is folded back)."""
        out = []
        for path in (self.db, self.db + "-wal"):
            try:
                st = os.stat(path)
                out.append((st.st_mtime_ns, st.st_size, st.st_ino))
            except OSError:
                out.append((0, 0, 0))
        return tuple(out)

    async def watch(self) -> None:
        """While streams are open: when the file changed, each watched game's version is asked (a job that
        replays nothing), and a game whose version moved is sent again. A change that lands while this looks is
        seen at the next look (the stamp is taken first)."""
        stamp = self._stamp()
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            if not self.streams:
                stamp = self._stamp()
                continue
            now = self._stamp()
            if now == stamp:
                continue
            stamp = now
            try:
                await self._catch_up()
            except Exception:  # a busy store, a worker replaced: the next change tries again
                continue

    async def _catch_up(self) -> None:
        games = sorted(self.streams)
        status, text = await self.run(("game.versions", {"db": self.db, "ids": games}), None)
        if status != 200:
            return
        versions = json.loads(text)
        for game in games:
            known = self.latest.get(game)
            version = versions.get(game)
            if version is None or (known is not None and known.version == version) or game not in self.streams:
                continue
            langs = [x for x in LANGS if any(s.lang == x for s in self.streams.get(game, ()))]
            got, body = await self.run(("game.get", {"db": self.db, "id": game, "langs": langs}), None)
            if got == 200:
                self.publish(game, Sheets.unpack(body))

    def start(self) -> None:
        self.watcher = asyncio.ensure_future(self.watch())

    async def stop(self) -> None:
        if self.watcher is not None:
            self.watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.watcher


def _event(state: Sheets, lang: str) -> bytes:
    return f"id: {state.version}\nevent: sheet\ndata: {state.sheets[lang]}\n\n".encode()


class Events:
    """``GET /api/games/{id}/events``: the sheet now (unless the client's ``Last-Event-ID`` is already the
    game's version), then on each change; a comment every ``KEEP_ALIVE`` s; ends when the client leaves or the
    server stops (``receive()`` says ``http.disconnect``)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope)
        game = str(scope.get("path_params", {}).get("game", ""))
        try:
            lang = lang_of(request)
        except BadRequest as exc:
            await _answer(send, exc.status, error_text(exc.kind, exc.message))
            return
        if not is_id(game):
            await _answer(send, *not_found())
            return
        address = request.client.host if request.client is not None else ""
        stream = Stream(game, lang, address)
        if not self.hub.open(stream):
            await _answer(send, 503, error_text("busy", "too many open streams from this address (or in all): "
                                                 "close a page of this game and try again"))
            return
        try:
            await self._serve(stream, request, receive, send)
        finally:
            self.hub.close(stream)

    async def _serve(self, stream: Stream, request: Request, receive: Receive, send: Send) -> None:
        state = await self.hub.current(stream.game, stream.lang)
        if state is None:
            await _answer(send, *not_found())
            return
        await receive()  # the request's (empty) body: what receive() says next is the client or server leaving
        if request.method == "HEAD":  # the head of a stream, and no stream
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store")]})
            await send({"type": "http.response.body", "body": b""})
            return
        gone = asyncio.ensure_future(receive())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
                (b"x-accel-buffering", b"no")]})
            sent = request.headers.get("last-event-id", "")
            first = f"retry: {RETRY_MS}\n\n".encode()
            if state.version != sent:
                first += _event(state, stream.lang)
                sent = state.version
            await send({"type": "http.response.body", "body": first, "more_body": True})
            while not gone.done():
                woke = asyncio.ensure_future(stream.wake.wait())
                await asyncio.wait({gone, woke}, timeout=KEEP_ALIVE, return_when=asyncio.FIRST_COMPLETED)
                woke.cancel()
                if gone.done():
                    break
                if not stream.wake.is_set():
                    await send({"type": "http.response.body", "body": b": still here\n\n", "more_body": True})
                    continue
                stream.wake.clear()
                now = await self.hub.current(stream.game, stream.lang)
                if now is not None and now.version != sent and stream.lang in now.sheets:
                    await send({"type": "http.response.body", "body": _event(now, stream.lang), "more_body": True})
                    sent = now.version
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except (OSError, RuntimeError):  # the client is gone mid-write
            return
        finally:
            gone.cancel()


async def _answer(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json; charset=utf-8"), (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"), *([(b"retry-after", b"1")] if status == 503 else [])]})
    await send({"type": "http.response.body", "body": body})


# --- the routes ---------------------------------------------------------------------------------------------


def _loopback(host: str) -> bool:
    """Whether a Host header names this machine itself (``localhost``, ``127.0.0.1:8000``, ``[::1]``)."""
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1:name.find("]")] if "]" in name else name
    elif name.count(":") == 1:
        name = name.partition(":")[0]
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def join_url(request: Request, game: str, shared: str | None) -> str:
    """The link others join by: the address this request came to, unless that is this machine's own name and
    the server is on the network (``shared``: its address there, for the QR code another phone scans)."""
    host = request.headers.get("host", "")
    base = shared if shared and (not host or _loopback(host)) else f"http://{host}/" if host else "/"
    return base + "#game=" + game


class Games:
    """The request handlers of ``/api/games`` (Starlette endpoints), on the lane ``run`` and the store ``db``."""

    def __init__(self, run: Run, db: str, seconds: float, shared: str | None = None) -> None:
        self.run, self.db, self.seconds, self.shared = run, db, seconds, shared
        self.hub = Hub(run, db)
        self.events = Events(self.hub)

    @staticmethod
    def _client(request: Request) -> Any:
        return tuple(request.client) if request.client is not None else None

    async def create(self, request: Request) -> Response:
        try:
            lang = lang_of(request)
            header = read_header(await read_body(request, self.seconds))
        except BadRequest as exc:
            return json_answer((exc.status, error_text(exc.kind, exc.message)))
        for _ in range(3):  # a name already taken (never seen: 144 random bits) is another draw
            game = new_id()
            status, text = await self.run(("game.new", {"db": self.db, "id": game, "header": header, "langs": [lang]}),
                                          self._client(request))
            if status != 409:
                break
        if status != 201:
            return json_answer((status, text))
        state = Sheets.unpack(text)
        url = join_url(request, game, self.shared)
        body = f'{{"id": {json.dumps(game)}, "url": {json.dumps(url)}, "sheet": {state.sheets[lang]}}}\n'
        return json_answer((201, body), {"Location": f"/api/games/{game}"})

    async def get(self, request: Request) -> Response:
        game = request.path_params["game"]
        try:
            lang = lang_of(request)
        except BadRequest as exc:
            return json_answer((exc.status, error_text(exc.kind, exc.message)))
        if not is_id(game):
            return json_answer(not_found())
        status, text = await self.run(("game.get", {"db": self.db, "id": game, "langs": [lang]}),
                                      self._client(request))
        if status != 200:
            return json_answer((status, text))
        state = Sheets.unpack(text)
        return json_answer((200, state.sheets[lang] + "\n"), {"ETag": f'"{state.version}"'})

    async def results(self, request: Request) -> Response:
        return await self._change(request, "game.add", read_result, 201)

    async def undo(self, request: Request) -> Response:
        return await self._change(request, "game.undo", read_undo, 200)

    async def preview(self, request: Request) -> Response:
        """``POST /api/games/{id}/preview``, a result's body: 200 ``{"entry", "final"}``, what recording it would
        make (the sheet's entry and the standing after it), nothing recorded."""
        game = request.path_params["game"]
        try:
            lang = lang_of(request)
            if not is_id(game):
                return json_answer(not_found())
            body = read_result(await read_body(request, self.seconds))
        except BadRequest as exc:
            return json_answer((exc.status, error_text(exc.kind, exc.message)))
        job = {"db": self.db, "id": game, "langs": [lang], **body}
        return json_answer(await self.run(("game.preview", job), self._client(request)))

    async def _change(self, request: Request, kind: str, read: Callable[[bytes], dict[str, Any]],
                      done: int) -> Response:
        game = request.path_params["game"]
        try:
            lang = lang_of(request)
            if not is_id(game):
                return json_answer(not_found())
            body = read(await read_body(request, self.seconds))
        except BadRequest as exc:
            return json_answer((exc.status, error_text(exc.kind, exc.message)))
        job = {"db": self.db, "id": game, "langs": self.hub.langs(game, lang), **body}
        status, text = await self.run((kind, job), self._client(request))
        if status != done:
            return json_answer((status, text))
        state = Sheets.unpack(text)
        self.hub.publish(game, state)
        return json_answer((done, state.sheets[lang] + "\n"), {"ETag": f'"{state.version}"'})

    async def nowhere(self, request: Request) -> Response:
        return json_answer(not_found())

    async def picture(self, request: Request) -> Response:
        """``qr.svg`` (the join link) and ``chart.svg`` (the scores over the hands)."""
        game = request.path_params["game"]
        what = request.path_params["what"]
        try:
            lang = lang_of(request)
        except BadRequest as exc:
            return json_answer((exc.status, error_text(exc.kind, exc.message)))
        if not is_id(game) or what not in ("qr", "chart"):
            return json_answer(not_found())
        job = {"db": self.db, "id": game, "lang": lang, "url": join_url(request, game, self.shared)}
        status, text = await self.run(("game." + what, job), self._client(request))
        if status != 200:
            return json_answer((status, text))
        return Response(text.encode(), 200, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
