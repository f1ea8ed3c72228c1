"""Bounded memos: a batch meets the same few values line after line (flag words, melds, option sets, suit
patterns), and its memory must not grow with the file.

>>> memo = {}
>>> [remember(memo, k, k * k, limit=2) for k in (1, 2, 3)], memo
([1, 4, 9], {3: 9})
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
