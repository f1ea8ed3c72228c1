"""The ASGI application of ``mjcalc serve``: the page (``static/``) and the JSON API it calls.

- ``POST /api/score``, ``POST /api/waits``: a JSON object ``{"hand": "…", "rules": "riichi", "set": {"aka":
  false}, "lang": "zh"}`` (only ``hand`` is needed) in; the object ``mjcalc score --json`` / ``mjcalc waits
  --json`` prints for that line, ruleset and ``--set`` out, byte for byte (a line that cannot be read is
  its error object, with the column, and status 200, as the command line prints it);
- ``GET /api/rules``: ``{"rulesets": {ID: <mjcalc rules show ID --json>}, "flag_defs": [<each flag a line
  can carry>], "labels": {"applies_to" | "wait": {ID: {"en", "zh"}}}}`` (``jobs.labels``).

Anything else that goes wrong is ``{"result": "error", "error": {"kind", "message", "column"}}`` with a
status: ``request`` (400: not a JSON object of those keys and types; 405: a wrong method), ``ruleset`` (400: a
ruleset that is not a built-in one, an option it lacks or a value it cannot take), ``limit`` (413: a request
over ``MAX_BODY`` bytes; 408: one that took over the time limit to arrive; 422: a line that took over it to
score), ``busy`` (503), ``not_found`` (404), ``internal`` (500, no details). Made for a shared network: the
web never reads a file a request names, every request is bounded, and no answer carries a traceback or a path
of this machine.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .jobs import Answer, error_text
from .workers import Pool

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 16_384  # bytes in one request: a line is at most 1,000 characters (notation.MAX_LINE), options few
MAX_OPTIONS = 64  # entries of "set"
MAX_NAME = 64  # characters in a ruleset or option name
MAX_VALUE = 1_000  # characters in an option's value (as batch.readers.MAX_VALUE)
# A line (or its waits) is cut off after this long. The slowest seen, the waits of a Meihe hand with four
# wildcards (666777m3333p789s8m +zimo +hui=3p), took 4.3 s on a loaded 2-core machine.
LINE_SECONDS = 10.0
KEYS = ("hand", "rules", "set", "lang")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class BadRequest(Exception):
    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


def _json(answer: Answer) -> Response:
    status, text = answer
    return Response(text.encode("utf-8", "backslashreplace"), status, media_type="application/json; charset=utf-8",
                    headers={"Cache-Control": "no-store"})


async def _body(request: Request, seconds: float) -> bytes:
    """The request's bytes, refused past MAX_BODY (by its Content-Length, or as it arrives) and when they take
    over ``seconds`` to come (a client that sends a byte now and then holds no connection for long)."""
    too_big = BadRequest(413, "limit", f"a request is at most {MAX_BODY:,} bytes")
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise too_big
    chunks, size = [], 0
    with anyio.move_on_after(seconds) as waited:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise too_big
            chunks.append(chunk)
    if waited.cancelled_caught:
        raise BadRequest(408, "limit", f"the request took over {seconds:g} s to arrive")
    return b"".join(chunks)


def _text(body: dict[str, Any], key: str, limit: int, default: str | None) -> str | None:
    value = body.get(key, default)
    if value is None and (key != "hand"):
        return default
    if not isinstance(value, str):
        raise BadRequest(400, "request", f"'{key}' is a string, not {_type(value)}")
    if len(value) > limit:
        raise BadRequest(400, "request", f"'{key}' is {len(value):,} characters long; at most {limit:,}")
    return value


def _type(value: object) -> str:
    return {dict: "an object", list: "a list", bool: "true or false", type(None): "null", str: "a string"}.get(
        type(value), "a number")


def read_request(data: bytes) -> dict[str, Any]:
    """The body of a score or waits request, checked: ``hand`` (a string), ``rules`` (a name, or null for the
    default), ``set`` (an object of option values: strings, numbers, booleans), ``lang`` (``en`` / ``zh``)."""
    try:
        body = json.loads(data)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, absurdly deep or long numbers
        raise BadRequest(400, "request", 'the request is not JSON: send {"hand": "123m456p789s111z22z"}') from None
    if not isinstance(body, dict):
        raise BadRequest(400, "request", f'the request is a JSON object ({{"hand": "…"}}), not {_type(body)}')
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
    options = body.get("set") or {}
    if not isinstance(options, dict):
        raise BadRequest(400, "request", f"'set' is an object of options ({{\"cap\": 500}}), not {_type(options)}")
    if len(options) > MAX_OPTIONS:
        raise BadRequest(400, "request", f"'set' has {len(options):,} options; at most {MAX_OPTIONS}")
    for key, value in options.items():
        if len(key) > MAX_NAME:
            raise BadRequest(400, "request", f"'set': an option name is at most {MAX_NAME} characters")
        if not isinstance(value, (str, int, float)):  # bool is an int
            raise BadRequest(400, "request", f"'set': '{key}' is a string, a number or true / false, "
                             f"not {_type(value)}")
        if isinstance(value, str) and len(value) > MAX_VALUE:
            raise BadRequest(400, "request", f"'set': the value of '{key}' is at most {MAX_VALUE:,} characters")
    return {"hand": hand, "rules": rules, "set": options, "lang": lang}


def create_app(workers: int = 2, seconds: float = LINE_SECONDS, static: Path = STATIC) -> _Headers:
    """The application, with a pool of ``workers`` processes (started and stopped by its lifespan: run it with
    Uvicorn, or ``with TestClient(create_app()) as client``) and a time limit of ``seconds`` a line."""
    pool = Pool(workers, seconds)
    catalogue: list[Answer] = []

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        try:
            yield
        finally:
            await pool.close()

    def scoring(kind: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                body = read_request(await _body(request, seconds))
            except BadRequest as exc:
                return _json((exc.status, error_text(exc.kind, exc.message)))
            return _json(await pool.run((kind, body)))

        return endpoint

    async def rules(request: Request) -> Response:
        if not catalogue or catalogue[0][0] != 200:
            catalogue[:] = [await pool.run(("rules", None))]
        return _json(catalogue[0])

    async def http_error(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if status == 404:
            message = f"nothing at {request.url.path[:200]}: the page is at /, the API at /api/score, /api/waits, /api/rules"
        elif status == 405:
            message = f"{request.url.path[:200]} does not take {request.method}"
        else:
            message = "the request could not be answered"
        kind = "not_found" if status == 404 else "request" if status < 500 else "internal"
        return _json((status, error_text(kind, message)))

    async def internal(request: Request, exc: Exception) -> Response:
        return _json((500, error_text("internal", "internal error in mjcalc (the server's console has the details)")))

    routes = [
        Mount("/api", routes=[  # its own router: a wrong method is a 405 here, not the page's 404
            Route("/score", scoring("score"), methods=["POST"]),
            Route("/waits", scoring("waits"), methods=["POST"]),
            Route("/rules", rules, methods=["GET"]),
        ]),
    ]
    if static.is_dir():  # a checkout without the page still serves the API
        routes.append(Mount("/", app=StaticFiles(directory=static, html=True), name="static"))
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: internal},
        lifespan=lifespan,
    )
    wrapped = _Headers(app)
    wrapped.pool = pool  # for tests: its workers
    return wrapped


# What the page may load and run: its own script, style sheet and requests only (no inline script or style,
# nothing from another site); images from itself and the data: URLs of the tiles it draws (app.js tileSvg).
CONTENT_SECURITY_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


class _Headers:
    """Headers on every answer: a content security policy, no content sniffing, no referrer sent on, and the
    page is not framed by another site."""

    HEADERS = ((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
               (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
               (b"x-frame-options", b"DENY"))

    def __init__(self, app: Starlette) -> None:
        self.app = app
        self.pool: Pool | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, sending)
