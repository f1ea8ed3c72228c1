"""The search for the best reading: every way to read the hand (wildcards substituted, each reading of each
hand) is a Candidate; the win conditions are asked, the items evaluated and the hand settled (core.scoring);
the reading that pays the winner most is kept, or, when none passes, the failed conditions of the nearest."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..errors import MjcalcError
from ..support.tuples import new_tuple
from .candidate import Candidate
from .context import Context
from .hand import Hand
from .model import Condition, Ruleset
from .readings.decompose import Reading, readings
from .readings.forms import IMMEDIATE
from .readings.waits import WaitsBeforeWin
from .readings.wildcards import NO_WILDCARDS, Wildcards, reading_class, set_call_hands, substituted_hands, wildcards
from .result import Result, Scored, WaitScore
from .scoring import (
    BoundRuleset,
    _evaluate,
    _short_of,
    below_minimum,
    bound_ruleset,
    evaluate_items,
    with_minimum_message,
)
from .settlement.payments import Award, Settlement



def best_reading(rules: Ruleset, options: Mapping[str, Any], hand: Hand, ctx: Context, wild: Wildcards,
                 waits: Callable[[], frozenset[int]]) -> tuple[Scored | None, list[Condition], int]:
    """Every reading that passes the win conditions, scored; the one that pays the winner most wins (ties:
    fewer items, then the first found). With none, the failed conditions of the nearest reading."""
    best, failed, short, counted, tried = find_best_reading(rules, options, hand, ctx, wild, waits)
    if short is not None:
        failed = [with_minimum_message(cond, short, counted) for cond in failed]
    return best, failed, tried


def find_best_reading(rules: Ruleset, options: Mapping[str, Any], hand: Hand, ctx: Context, wild: Wildcards,
                  waits: Callable[[], frozenset[int]]
                  ) -> tuple[Scored | None, list[Condition], list[Award] | None, int, int]:
    """``best_reading``, a minimum's message not filled in yet: the failed conditions with the items of the nearest
    reading and what they count toward the minimum (None, 0 when no minimum failed), to fill them in from."""
    scoring = bound_ruleset(rules, options)
    # The kinds that complete the shape, held fours included (MCR's wait fans); the waits for any other caller.
    completions: Callable[[], frozenset[int]] = waits
    winning: Callable[[], frozenset[int]] | None = None
    if isinstance(waits, WaitsBeforeWin):
        completions, winning = waits.completions, waits.winning
        waits.judge = WinsOn(scoring, ctx, options)
    best: Scored | None = None
    best_key: tuple[int, ...] | None = None
    nearest: list[Condition] | None = None
    nearest_key: tuple[int, int] = (0, 0)  # fewer conditions failed, then more toward a minimum
    short_awards: list[Award] | None = None  # the items of the nearest reading, when it is short of a minimum
    awards: list[Award] | None
    tried = 0
    # A class-blind ruleset (joker_sets: by_class) cannot tell apart readings of one class: score the first.
    seen: set[tuple[object, ...]] | None = set() if scoring.by_class else None
    for sub_hand, subs in _substitutions(scoring, hand, wild):
        for reading in readings(sub_hand, scoring.forms):
            tried += 1
            if seen is not None:
                key = reading_class(reading)
                if key in seen:
                    continue
                seen.add(key)
            c = Candidate(sub_hand, ctx, reading, subs, waits, wild.kind, wild.count, options, hand, completions,
                          winning)
            failed = None
            counted = 0
            awards = None
            for cond, when in scoring.checks.asked(c.facts):
                if not when(c):
                    failed = [cond] if failed is None else [*failed, cond]
            if failed is None:
                awards, counted = _evaluate(scoring.items, c)
                if scoring.minimums:
                    failed = _short_of(scoring.minimums, scoring.minimum_values, counted)
            if failed:
                near = (len(failed), -counted)
                if nearest is None or near < nearest_key:
                    # A minimum's message is filled in from the items once, for the nearest reading only.
                    nearest, nearest_key, short_awards = failed, near, awards
                continue
            assert awards is not None
            settlement = scoring.settle(c, awards)
            if best is None:  # ranked only against another reading that passes: most hands have one
                best = Scored(c, awards, settlement)
                continue
            if best_key is None:
                best_key = _rank(scoring, best.candidate, best.awards, best.settlement)
            rank = _rank(scoring, c, awards, settlement)
            if rank > best_key:
                best, best_key = Scored(c, awards, settlement), rank
    if best is not None:
        return best, [], None, 0, tried
    if short_awards is not None and nearest is not None:
        return None, nearest, short_awards, -nearest_key[1], tried
    if nearest is None:
        shape = next((cond for cond in rules.conditions if cond.id == "shape"), None)
        nearest = [shape] if shape else [Condition("shape", {"en": "shape", "zh": "牌型"},
                                                   {"en": "not a winning shape", "zh": "不是和牌牌型"}, None, "")]
    return None, nearest, None, 0, tried


class WinsOn:
    """Whether a hand one tile short (``waits``, the waits before the win) wins on a tile in a context: some
    reading of it with that tile passes every win condition that has a ``when`` (not a ``minimum``, which items
    decide). What ``WaitsBeforeWin.winning`` asks."""

    __slots__ = ("scoring", "ctx", "options")

    def __init__(self, scoring: BoundRuleset, ctx: Context, options: Mapping[str, Any]) -> None:
        self.scoring, self.ctx, self.options = scoring, ctx, options

    def __call__(self, waits: WaitsBeforeWin, tile: int) -> bool:
        hand = waits.hand.with_win(tile)
        wild = waits.wild
        jokers = wild.count - (1 if wild.win_is_wild else 0)  # the waited tile is a real one
        kept = Wildcards(wild.kind, jokers, False, wild.labels[:jokers]) if jokers else NO_WILDCARDS
        scoring = self.scoring
        for sub_hand, subs in _substitutions(scoring, hand, kept):
            for reading in readings(sub_hand, scoring.forms):
                c = Candidate(sub_hand, self.ctx, reading, subs, waits, kept.kind, kept.count, self.options, hand,
                              waits.completions, waits.winning)
                if all(when(c) for _, when in scoring.checks.asked(c.facts)):
                    return True
        return False


def _rank(scoring: BoundRuleset, c: Candidate, awards: list[Award], settlement: Settlement) -> tuple[int, ...]:
    """How a reading that passes ranks among the others (higher is better)."""
    return (settlement.uncapped_total, *settlement.rank, *scoring.tie(c, awards))


def immediate_win(rules: Ruleset, options: Mapping[str, Any], hand: Hand, ctx: Context,
                  waits: Callable[[], frozenset[int]]) -> tuple[Scored | None, list[Condition]] | None:
    """An immediate win (an item with ``immediate: true`` holds, such as a flower win): the hand wins whatever
    its tiles, of a winning size or one short, read as no sets at all; the items that hold then are scored as
    usual (the immediate item's ``excludes`` says which others stand). Only ``minimum`` conditions apply (the
    others are about the tiles); failing one, the scored part is None with the conditions failed. None when no
    immediate item holds."""
    c = Candidate(hand, ctx, new_tuple(Reading, (IMMEDIATE, (), None, None)), {}, waits, options=options)
    if not any(item.is_enabled(options) and item.when(c) for item in rules.immediate_items):
        return None
    scoring = bound_ruleset(rules, options)
    awards = evaluate_items(scoring.items, c)
    if not any(a.item.immediate for a in awards):
        return None
    failed = below_minimum(scoring.minimums, awards)
    if failed:
        return None, failed
    return Scored(c, awards, scoring.settle(c, awards)), []


def _substitutions(scoring: BoundRuleset, hand: Hand, wild: Wildcards) -> list[tuple[Hand, dict[str, str]]]:
    """The hand with its wildcards substituted every way, also read with its winning tile completing a
    special set in hand (叫胡) where the ruleset allows it; what each wildcard stood for alongside."""
    specials = scoring.specials
    called = set_call_hands(hand, wild, specials) if specials else []
    if not wild.count and not called:  # the usual hand: itself
        return [(hand, {})]
    return [(sub_hand, {**called_subs, **subs}) for variant, rest, called_subs in [(hand, wild, {}), *called]
            for sub_hand, subs in substituted_hands(variant, rest, scoring.forms, scoring.by_class)]


def score_with_tile(rules: Ruleset, options: Mapping[str, Any], hand: Hand, ctx: Context, tile: int) -> WaitScore:
    """What a waiting hand would score if ``tile`` completed it, in the context given."""
    unseen = 4 - hand.all_tiles().count(tile)
    full = hand.with_win(tile)
    try:
        wild = wildcards(rules.wildcard, full, ctx, {})
    except MjcalcError as exc:  # e.g. a discard win on a wildcard: that wait cannot be won this way
        return WaitScore(tile, unseen, Result(full.text(), "error", rules, dict(options), full, ctx, error=exc))
    best, failed, _ = best_reading(rules, options, full, ctx, wild, WaitsBeforeWin(full, wild, rules.forms))
    res = Result(full.text(), "win" if best else "not_a_win", rules, dict(options), full, ctx, best=best, failed=failed)
    return WaitScore(tile, unseen, res)
