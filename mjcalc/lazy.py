"""``lazy``: a property computed on first use and then stored on the instance.

Like ``functools.cached_property`` without its lock (Python 3.11 takes one on every first access): facts
of a hand or a reading are asked for on every reading of every hand of a batch, always from one thread.
It writes the instance's ``__dict__`` directly, so it works on frozen dataclasses too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class lazy(Generic[T]):
    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", "")  # set again by __set_name__: a compiled method may have none
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value
