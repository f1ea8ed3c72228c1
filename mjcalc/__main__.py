"""``python -m mjcalc``, and the ``mjcalc`` command (pyproject.toml's [project.scripts]).

Start-up allocates hundreds of thousands of objects (modules, classes, functions, the ruleset) and frees
almost none, so the garbage collector's passes over them find nothing: it is off until a command begins work
that makes garbage for long (``cli.main``: at once for most commands, when its records are read for ``batch``),
and a one-hand command ends before it would matter (benchmarks/bench_startup.py).
"""

from __future__ import annotations

import gc
from typing import Any


def main() -> Any:
    gc.disable()
    from .cli import main as run

    return run()


if __name__ == "__main__":
    main()
