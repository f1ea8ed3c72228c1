"""``python -m mjcalc``, and the ``mjcalc`` command (pyproject.toml's [project.scripts]).

Start-up allocates hundreds of thousands of objects (modules, classes, functions, the ruleset) and frees
almost none, so the garbage collector's passes over them find nothing: it is off until a command begins work
that makes garbage for long (``cli.main``: at once for most commands, when its records are read for ``batch``),
and a brief command ends before it would matter. Nor does a command wait for the interpreter's teardown (a
last full collection, every module freed one by one: longer than scoring a hand) when nothing is left for it
to do — no exit-time work registered (``atexit``: the process pool of ``--jobs``, Dask) and no other thread
running: once its output is written and flushed (``cli.main``), the process ends at once with the command's
exit code. A command that fails with a traceback (``MJCALC_DEBUG=1``) ends as Python does.
benchmarks/bench_startup.py measures it.
"""

from __future__ import annotations

import gc
import sys
from typing import Any


def main() -> Any:
    gc.disable()
    from .cli import main as run

    code: Any = 0
    try:
        run()
    except SystemExit as exc:
        code = exc.code
    if not _nothing_left(code):
        sys.exit(code)
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit((code or 0) % 256)


def _nothing_left(code: object) -> bool:
    """Whether the interpreter's exit has nothing to do but free memory: the code a number (or none), no
    exit-time function registered, no other thread running."""
    import atexit

    count = getattr(atexit, "_ncallbacks", None)  # CPython's; elsewhere the interpreter ends as usual
    threading = sys.modules.get("threading")
    return (code is None or isinstance(code, int)) and count is not None and count() == 0 and \
        (threading is None or threading.active_count() == 1)


if __name__ == "__main__":
    main()
