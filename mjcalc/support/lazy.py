"""Classes that stay Python classes in the compiled build. mypyc makes each class of a compiled module (setup.py
COMPILED) a native one, with a fixed set of attributes and none of the special methods a dict subclass relies
on; these two need a Python class's. Kept here, in a module that is never compiled, rather than marked in the
compiled modules with mypy_extensions' ``mypyc_attr``, an import that every command paid at start-up (0.6 ms).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LazyPattern:
    """A regular expression compiled when it is first used (then its methods are kept on the instance): most
    batches need none of the patterns of mjcalc.batch.lines, readers and writers (hand lines in ASCII, JSON Lines
    out), and compiling them all at import cost a batch's start-up about a fifth of what reading its lines costs."""

    def __init__(self, pattern: str | bytes) -> None:
        self.pattern = pattern

    def __getattr__(self, name: str) -> Any:  # only what the instance lacks: the compiled pattern's methods, kept
        value = getattr(re.compile(self.pattern), name)
        setattr(self, name, value)
        return value


class FillingDict(dict[K, V]):
    """A dictionary that makes the value of a key it lacks, ``make(key)``, and keeps it; its look-ups stay the
    dictionary's own (in C)."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self.make(key)
        return value
