"""Bounded memos: a batch meets the same few values line after line (flag words, melds, option sets, suit
patterns), and its memory must not grow with the file.

>>> memo = {}
>>> [remember(memo, k, k * k, limit=2) for k in (1, 2, 3)], memo
([1, 4, 9], {3: 9})
>>> last = LastAnswer()
>>> a, b = object(), object()
>>> last.get(a, b) is None, last.put(a, b, "x"), last.get(a, b), last.get(b, a) is None
(True, 'x', 'x', True)
"""

from __future__ import annotations

from typing import Any, TypeVar

V = TypeVar("V")


def remember(memo: dict[Any, Any], key: Any, value: V, limit: int = 4096) -> V:
    """``memo[key] = value``, the memo emptied first when full (the simplest bound: what is common comes back
    at once); the value, for the caller to use."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value


class LastAnswer:
    """The answer for the last two objects asked about, found by their identity alone: a batch asks with the same
    two line after line, and reading them or hashing a key would cost each line more. The two are held here, so
    that no other object can take their identity while the answer is kept."""

    def __init__(self) -> None:
        self.first: object = None
        self.second: object = None
        self.answer: Any = None

    def get(self, first: object, second: object) -> Any:
        """The answer kept for these two (the very objects), else None."""
        return self.answer if first is self.first and second is self.second and first is not None else None

    def put(self, first: object, second: object, answer: V) -> V:
        self.first, self.second, self.answer = first, second, answer
        return answer
