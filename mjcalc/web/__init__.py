"""``mjcalc serve``: the calculator as a phone page and a JSON API, on Starlette and h11 (the ``serve`` extra:
``pip install 'mjcalc[serve]'``).

- ``app.py``: the ASGI application (the page from ``static/``, ``POST /api/score``, ``POST /api/waits``,
  ``GET /api/rules``), every request bounded;
- ``workers.py``: the processes that score, each line under a time limit (a worker past it is killed and
  replaced, never left running);
- ``jobs.py``: what a worker does: the objects of ``mjcalc.api``, as the command line prints them;
- ``http.py``: the HTTP/1.1 server (h11 on asyncio): every connection bounded in time and size, idle ones
  never in a working one's way, the server's own errors the application's JSON;
- ``server.py``: the socket, the start-up lines (the address to type on a phone, its QR code), the allowed
  Host names, and the server until Ctrl-C or SIGTERM.

Nothing here is imported by the other commands (their start-up time), nor by ``import mjcalc``.
"""

from __future__ import annotations

NEEDS = ("starlette", "h11")  # the serve extra; segno (the QR code) is in it too, but optional here


def missing() -> list[str]:
    """The packages of the serve extra that are not installed (looked up, not imported)."""
    import importlib.util

    gone = []
    for name in NEEDS:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            gone.append(name)
    return gone
