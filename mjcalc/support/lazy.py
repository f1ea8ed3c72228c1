"""A class that stays a Python class in the compiled build. mypyc makes each class of a compiled module (setup.py
COMPILED) a native one, with a fixed set of attributes and none of the special methods a dict subclass relies
on; this one needs a Python class's. Kept here, in a module that is never compiled, rather than marked in the
compiled modules with mypy_extensions' ``mypyc_attr``, an import that every command would pay at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FillingDict(dict[K, V]):
    """A dictionary that makes the value of a key it lacks, ``make(key)``, and keeps it; its look-ups stay the
    dictionary's own (in C)."""

    def __init__(self, make: Callable[[K], V]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: K) -> V:
        value = self[key] = self.make(key)
        return value
