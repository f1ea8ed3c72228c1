"""What every route of ``mjcalc serve`` shares: a request's body read within its bounds, a refusal with its
status and kind (``BadRequest``), an answer as the API's JSON (``json_answer``)."""

from __future__ import annotations

import anyio
from starlette.requests import Request
from starlette.responses import Response

from .jobs import Answer

MAX_BODY = 16_384  # bytes in one request: a line is at most 1,000 characters (notation.MAX_LINE), options few


class BadRequest(Exception):
    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind, self.message = status, kind, message


def json_answer(answer: Answer, headers: dict[str, str] | None = None) -> Response:
    status, text = answer
    sent = {"Cache-Control": "no-store", **({"Retry-After": "1"} if status == 503 else {}), **(headers or {})}
    return Response(text.encode("utf-8", "backslashreplace"), status, media_type="application/json; charset=utf-8",
                    headers=sent)


async def read_body(request: Request, seconds: float) -> bytes:
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


def type_name(value: object) -> str:
    """A JSON value's kind, for a message: ``an object``, ``a list``, ``a number`` …"""
    return {dict: "an object", list: "a list", bool: "true or false", type(None): "null", str: "a string"}.get(
        type(value), "a number")
