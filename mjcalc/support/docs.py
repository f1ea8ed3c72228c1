"""The docstring of a function, also when its module is compiled (mypyc drops docstrings): read from the
module's source, which an installed package carries beside the compiled one. For explanations in words of a
predicate or a kong finder (``mjcalc check``)."""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any


def doc_of(fn: Callable[..., Any] | None) -> str:
    """``fn``'s docstring, or the one its source gives it; empty when neither has one."""
    if fn is None:
        return ""
    if fn.__doc__:
        return fn.__doc__
    module = sys.modules.get(getattr(fn, "__module__", "") or "")
    path = getattr(module, "__file__", None)
    if not path:
        return ""
    return _docstrings(str(Path(path).parent / (Path(path).name.split(".")[0] + ".py"))).get(
        getattr(fn, "__name__", ""), "")


@lru_cache(maxsize=32)
def _docstrings(path: str) -> dict[str, str]:
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    return {node.name: ast.get_docstring(node) or "" for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
