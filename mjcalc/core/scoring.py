"""Scoring one reading under a ruleset's options: its items bound once per options (values, gates, exclusions
as bit masks, tiers), the win conditions asked, the items that fire, exclusions and tiers applied, and what
counts toward a minimum."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from .candidate import Candidate


class Tallied:
    """A predicate that one tally counts, bound to the value of its one parameter (``tallied``): called, it looks
    that value up in what the tally counted for the candidate. The engine does not call it: it asks the tally once
    a reading for all the items it counts (``BoundItem.tally``), instead of a call per item."""

    def __init__(self, tally: Callable[[Candidate], dict[Any, int]], key: Any) -> None:
        self.tally = tally
        self.key = key

    def __call__(self, c: Candidate) -> int:
        return self.tally(c).get(self.key, 0)
