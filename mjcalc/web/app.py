"""The ASGI application of ``mjcalc serve``: the page (``static/``) and the JSON API it calls.

- ``POST /api/score``, ``POST /api/waits``: a JSON object ``{"hand": "…", "rules": "riichi", "set": {"aka":
  false}, "lang": "zh"}`` (only ``hand`` is needed) in; the object ``mjcalc score --json`` / ``mjcalc waits
  --json`` prints for that line, ruleset and ``--set`` out, byte for byte (a line that cannot be read is
  its error object, with the column, and status 200, as the command line prints it);
- ``GET /api/rules``: ``{"rulesets": {ID: <mjcalc rules show ID --json>}, "flag_defs": [<each flag a line
  can carry>], "labels": {"applies_to" | "wait": {ID: {"en", "zh"}}}}`` (``jobs.labels``).

Anything else that goes wrong is ``{"result": "error", "error": {"kind", "message", "column"}}`` with a
status: ``request`` (400: not a JSON object of those keys and types, a Host header that is not this server's
name, HTTP the server cannot read; 405: a wrong method; 415: a body that is not ``application/json``),
``ruleset`` (400: a ruleset that is not a built-in one, an option it lacks or a value it cannot take),
``limit`` (413: a request over ``MAX_BODY`` bytes; 431: headers over 8 KiB; 408: a request that took over the
time limit to arrive; 422: a line that took over it to score), ``busy`` (503: every worker of its lane busy
for the whole time limit), ``not_found`` (404), ``internal`` (500, no details; 503 when the process scoring a
line stopped working: the server's fault, not the line's). The server's own answers (``http.py``) are these
objects too, with the same headers (``refusal``).

Made for a shared network: the web never reads a file a request names, every request is bounded, no answer
carries a traceback or a path of this machine; a request whose Host is not a name of this server is refused
(a page of another site that rebinds its name to this address reads nothing), and a body must be JSON (another
site's page cannot send one without the browser asking first, which this server never allows).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .answers import MAX_BODY, BadRequest, json_answer, read_body, type_name
from .games import Games, default_db
from .jobs import Answer, error_text
from .workers import Pool

STATIC = Path(__file__).resolve().parent / "static"
MAX_OPTIONS = 64  # entries of "set"
MAX_NAME = 64  # characters in a ruleset or option name
MAX_VALUE = 1_000  # characters in an option's value (as batch.readers.MAX_VALUE)
# A line (or its waits) is cut off after this long: well above the slowest hand known (the waits of a Meihe hand
# with four wildcards, docs/performance-serve.md), so only a stuck worker meets it.
LINE_SECONDS = 10.0
WAITS_NICE = 10  # the waits' lane yields the processors to the scores' (workers.py)
KEYS = ("hand", "rules", "set", "lang")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def _text(body: dict[str, Any], key: str, limit: int, default: str | None) -> str | None:
    value = body.get(key, default)
    if value is None and (key != "hand"):
        return default
    if not isinstance(value, str):
        raise BadRequest(400, "request", f"'{key}' is a string, not {type_name(value)}")
    if len(value) > limit:
        raise BadRequest(400, "request", f"'{key}' is {len(value):,} characters long; at most {limit:,}")
    return value


def read_request(data: bytes) -> dict[str, Any]:
    """The body of a score or waits request, checked: ``hand`` (a string), ``rules`` (a name, or null for the
    default), ``set`` (an object of option values: strings, numbers, booleans), ``lang`` (``en`` / ``zh``)."""
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, absurdly deep or long numbers
        raise BadRequest(400, "request", 'the request is not JSON: send {"hand": "123m456p789s111z22z"}') from None
    if not isinstance(body, dict):
        raise BadRequest(400, "request", f'the request is a JSON object ({{"hand": "…"}}), not {type_name(body)}')
    unknown = sorted(k for k in body if k not in KEYS)
    if unknown:
        shown = unknown[0][:MAX_NAME]
        raise BadRequest(400, "request", f"'{shown}' is not a key of a request; its keys: {', '.join(KEYS)}")
    if "hand" not in body:
        raise BadRequest(400, "request", 'the request has no "hand": {"hand": "123m456p789s111z22z"}')
    hand = _text(body, "hand", MAX_BODY, None)
    rules = _text(body, "rules", MAX_VALUE, None)
    lang = _text(body, "lang", 2, "en")
    if lang not in ("en", "zh"):
        raise BadRequest(400, "request", f"'lang' is \"en\" or \"zh\", not \"{lang}\"")
    options = body.get("set")
    if options is None:  # absent, or null as for "rules": the ruleset's defaults
        options = {}
    if not isinstance(options, dict):
        raise BadRequest(400, "request", f"'set' is an object of options ({{\"cap\": 500}}), not {type_name(options)}")
    if len(options) > MAX_OPTIONS:
        raise BadRequest(400, "request", f"'set' has {len(options):,} options; at most {MAX_OPTIONS}")
    for key, value in options.items():
        if len(key) > MAX_NAME:
            raise BadRequest(400, "request", f"'set': an option name is at most {MAX_NAME} characters")
        if not isinstance(value, (str, int, float)):  # bool is an int
            raise BadRequest(400, "request", f"'set': '{key}' is a string, a number or true / false, "
                             f"not {type_name(value)}")
        if isinstance(value, str) and len(value) > MAX_VALUE:
            raise BadRequest(400, "request", f"'set': the value of '{key}' is at most {MAX_VALUE:,} characters")
    return {"hand": hand, "rules": rules, "set": options, "lang": lang}


def create_app(workers: int = 2, seconds: float = LINE_SECONDS, static: Path = STATIC,
               hosts: Hosts | None = None, waits_workers: int | None = None, db: str | None = None,
               shared: str | None = None) -> Guard:
    """The application, with its lanes of worker processes (started and stopped by its lifespan: run it with
    ``http.Server``, or ``with TestClient(create_app()) as client``): ``workers`` for scores, the rulesets and
    the games, ``waits_workers`` (as many, by default) for waits, at a lower priority; a time limit of
    ``seconds`` a line. ``hosts``: the names a request's Host may give (None: any, for tests). ``db``: the
    games' file (None: the one ``mjcalc game`` uses by default); ``shared``: the server's address on the
    network (the join link's, when the page was opened on this machine by its own name)."""
    pool = Pool(workers, seconds)
    slow = Pool(workers if waits_workers is None else waits_workers, seconds, nice=WAITS_NICE)
    catalogue: list[Answer] = []
    games = Games(pool.run, default_db() if db is None else db, seconds, shared)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            started = await asyncio.gather(pool.start(), slow.start(), return_exceptions=True)  # side by side
            for failed in started:
                if isinstance(failed, BaseException):
                    raise failed
            games.hub.start()
            yield
        finally:
            await games.hub.stop()
            await asyncio.gather(pool.close(), slow.close())

    def scoring(kind: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                body = read_request(await read_body(request, seconds))
            except BadRequest as exc:
                return json_answer((exc.status, error_text(exc.kind, exc.message)))
            client = tuple(request.client) if request.client is not None else None
            return json_answer(await (slow if kind == "waits" else pool).run((kind, body), client))

        return endpoint

    async def rules(request: Request) -> Response:
        if not catalogue or catalogue[0][0] != 200:
            catalogue[:] = [await pool.run(("rules", None))]
        return json_answer(catalogue[0])

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if status == 404:
            message = (f"nothing at {request.url.path[:200]}: the page is at /, the API at /api/score, /api/waits, "
                       "/api/rules, /api/games")
        elif status == 405:
            message = f"{request.url.path[:200]} does not take {request.method}"
        else:
            message = "the request could not be answered"
        kind = "not_found" if status == 404 else "request" if status < 500 else "internal"
        return json_answer((status, error_text(kind, message)))

    async def internal(request: Request, exc: Exception) -> Response:
        return json_answer((500, error_text("internal", "internal error in mjcalc (the server's console has the "
                                            "details)")))

    routes = [
        Mount("/api", routes=[  # its own router: a wrong method is a 405 here, not the page's 404
            Route("/score", scoring("score"), methods=["POST"]),
            Route("/waits", scoring("waits"), methods=["POST"]),
            Route("/rules", rules, methods=["GET"]),
            Route("/games", games.create, methods=["POST"]),
            Route("/games/{game}", games.get, methods=["GET"]),
            Route("/games/{game}/results", games.results, methods=["POST"]),
            Route("/games/{game}/undo", games.undo, methods=["POST"]),
            Route("/games/{game}/preview", games.preview, methods=["POST"]),
            Route("/games/{game}/events", games.events, methods=["GET"]),
            Route("/games/{game}/{what}.svg", games.picture, methods=["GET"]),
            # any other path there, whatever the method: the one 404 of an unknown game
            Route("/games/{rest:path}", games.nowhere, methods=["GET", "POST", "PUT", "PATCH", "DELETE"]),
        ]),
    ]
    if static.is_dir():  # a checkout without the page still serves the API
        routes.append(Mount("/", app=StaticFiles(directory=static, html=True), name="static"))
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: internal},
        lifespan=lifespan,
    )
    wrapped = Guard(app, hosts)
    wrapped.pool, wrapped.slow = pool, slow  # for tests: their workers
    wrapped.games = games
    return wrapped


# What the page may load and run: its own script, style sheet and requests only (no inline script or style,
# nothing from another site); images from itself and the data: URLs of the tiles it draws (app.js tileSvg).
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


SECURITY_HEADERS = ((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
                    (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"))


def refusal(status: int, kind: str, message: str) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """An answer that is an error object, with every header of the application's: for the server's own
    answers (``http.Server``) and the guard's."""
    body = error_text(kind, message).encode("utf-8")
    headers = [(b"content-type", b"application/json; charset=utf-8"), (b"content-length", str(len(body)).encode()),
               (b"cache-control", b"no-store"), *SECURITY_HEADERS]
    if status == 503:
        headers.append((b"retry-after", b"1"))
    return headers, body


class Hosts:
    """The names a request's Host header may give: ``names`` (lower case, no port), and any IP address when
    ``any_address`` (a server on every interface answers at whichever address a phone typed; a name is what a
    rebinding page would have, never an address)."""

    def __init__(self, names: set[str], any_address: bool = False) -> None:
        self.names = frozenset(filter(None, (_host_name(n) for n in names)))  # "[::1]", "pc.local:8000" too
        self.any_address = any_address

    def allows(self, host: str) -> bool:
        name = _host_name(host)
        if name is None:
            return False
        if name in self.names:
            return True
        if self.any_address:
            try:
                ipaddress.ip_address(name)
                return True
            except ValueError:
                return False
        return False


def _host_name(host: str) -> str | None:
    """The name of a Host header without its port (``[::1]:8000`` → ``::1``); None if it is no host."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        if end < 0 or (host[end + 1:] and not host[end + 1:].startswith(":")):
            return None
        return host[1:end]
    if host.count(":") > 1:  # a bare IPv6 address: a name given to Hosts (a Host header brackets it)
        return host
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return None
    return name.rstrip(".") or None


BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


class Guard:
    """Before the application: a Host that is not a name of this server is refused (400), and so is a body
    that is not JSON (415); after it, the security headers on every answer (a content security policy, no
    content sniffing, no referrer sent on, the page not framed by another site)."""

    def __init__(self, app: Starlette, hosts: Hosts | None = None) -> None:
        self.app, self.hosts = app, hosts
        self.pool: Pool | None = None
        self.slow: Pool | None = None
        self.games: Games | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = self._refused(scope)
        if refused is not None:
            status, kind, message = refused
            headers, body = refusal(status, kind, message)
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return

        async def sending(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, sending)

    def _refused(self, scope: Scope) -> tuple[int, str, str] | None:
        headers: dict[bytes, bytes] = {}
        for key, value in scope.get("headers", ()):
            headers.setdefault(bytes(key).lower(), bytes(value))
        if self.hosts is not None:
            host = headers.get(b"host", b"").decode("latin-1")
            if not self.hosts.allows(host):
                shown = host[:100] or "(none)"
                return 400, "request", (f"the Host header {shown} is not a name of this server: open the page by "
                                        "the address mjcalc serve printed (or start it with --allow-host NAME)")
        if scope.get("method") in BODY_METHODS:
            kind = headers.get(b"content-type")
            has_body = headers.get(b"content-length", b"0").strip() != b"0" or b"transfer-encoding" in headers
            if kind is not None or has_body:
                media, _, params = (kind or b"").decode("latin-1").partition(";")
                charset = params.strip().lower().partition("charset=")[2].strip('" ')
                if media.strip().lower() != "application/json" or charset not in ("", "utf-8"):
                    shown = (kind or b"none").decode("latin-1")[:100]
                    return 415, "request", (f"the request's Content-Type is {shown}: send JSON "
                                            "(Content-Type: application/json)")
        return None
