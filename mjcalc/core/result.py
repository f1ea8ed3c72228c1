"""What scoring a line gives (``Result``): the line as read (ruleset, options, hand, context), its result — win,
not_a_win, waiting or error — with the best reading scored (``Scored``), the failed win conditions, or the error;
and the waits, worked out when first asked."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..errors import MjcalcError
from ..support.memo import remember
from . import tiles as T
from .candidate import Candidate
from .context import Context
from .hand import Hand
from .model import Condition, Ruleset
from .readings.waits import WaitsBeforeWin
from .scoring import with_minimum_message
from .settlement.payments import Award, Settlement


# Plain classes with an __init__ of their own, here and below, not dataclasses: the methods a dataclass or a named tuple
# generates are Python source compiled when the module is imported, and mypyc compiles these (native classes). Nothing
# compares, hashes or prints them by value; a frozen one's fields are Final (read-only when compiled).
class Scored:
    """One reading that passes every win condition, with its items and settlement."""

    __slots__ = ("candidate", "awards", "settlement")

    def __init__(self, candidate: Candidate, awards: list[Award], settlement: Settlement) -> None:
        self.candidate = candidate
        self.awards = awards
        self.settlement = settlement


class WaitScore:
    __slots__ = ("tile", "unseen", "result")

    def __init__(self, tile: int, unseen: int, result: Result | None = None) -> None:
        self.tile = tile
        self.unseen = unseen
        self.result = result


# The names of the waits by their mask (Result.wait_names): a few hundred masks in all, met line after line; a
# look-up by an integer costs less than the walk over the 34 kinds that makes the list.
_WAIT_NAMES: Final[dict[int, list[str]]] = {}


class Result:
    __slots__ = ("input", "result", "ruleset", "options", "hand", "ctx", "error", "_failed", "waits_of",
                 "wait_scores", "best", "readings_tried", "ignored_flags", "warnings", "line", "_waits", "_short",
                 "_short_counted")

    def __init__(self, input: str, result: str, ruleset: Ruleset | None = None,
                 options: Mapping[str, Any] | None = None, hand: Hand | None = None, ctx: Context | None = None,
                 error: MjcalcError | None = None, failed: list[Condition] | None = None,
                 waits_of: Callable[[], frozenset[int]] | None = None, wait_scores: list[WaitScore] | None = None,
                 best: Scored | None = None, readings_tried: int = 0, ignored_flags: list[str] | None = None,
                 warnings: list[str] | None = None, line: int | None = None) -> None:
        self.input = input
        self.result = result  # win | not_a_win | waiting | error
        self.ruleset = ruleset
        self.options: Mapping[str, Any] = {} if options is None else options
        self.hand = hand
        self.ctx = ctx
        self.error = error
        self._failed: list[Condition] = [] if failed is None else failed
        # The items of the reading nearest to a minimum, and their count, while ``_failed``'s messages wait to be
        # filled in from them (``failed``).
        self._short: list[Award] | None = None
        self._short_counted = 0
        self.waits_of = waits_of  # computes `waits` when asked
        self.wait_scores: list[WaitScore] = [] if wait_scores is None else wait_scores
        self.best = best
        self.readings_tried = readings_tried
        self.ignored_flags: list[str] = [] if ignored_flags is None else ignored_flags
        self.warnings: list[str] = [] if warnings is None else warnings
        self.line = line
        self._waits: list[int] | None = None

    @property
    def waits(self) -> list[int]:
        """The shape waits of the hand before the win (of the waiting hand as given). Computed on first use:
        a batch that prints no waits does not pay for 34 completeness checks a hand."""
        if self._waits is None:
            self._waits = sorted(self.waits_of()) if self.waits_of is not None else []
        return self._waits

    def wait_names(self) -> list[str]:
        """``[T.name(t) for t in self.waits]``. For a hand without wildcards, from the mask of the waits
        (``WaitsBeforeWin.mask``: bit t for kind t, in order), without the set of kinds made and sorted (a batch
        writes them for every line)."""
        w = self.waits_of
        if self._waits is None and isinstance(w, WaitsBeforeWin):
            mask = w.mask()
            if mask is not None:
                names = _WAIT_NAMES.get(mask)
                if names is None:
                    names = remember(_WAIT_NAMES, mask, [T.name(t) for t in range(T.NUM_KINDS) if mask >> t & 1], 4096)
                return names.copy()  # the caller's own list
        return [T.name(t) for t in self.waits]

    @property
    def failed(self) -> list[Condition]:
        """The win conditions failed (of the nearest reading). A minimum's message is filled in from that reading's
        items on first use: a caller that does not print it (score_line for its result alone) does not pay for it."""
        short = self._short
        if short is not None:
            self._short = None
            self._failed = [with_minimum_message(cond, short, self._short_counted) for cond in self._failed]
        return self._failed

    @failed.setter
    def failed(self, failed: list[Condition]) -> None:
        self._failed = failed
        self._short = None

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return self.error.exit_code
        return 1 if self.result == "not_a_win" else 0
