"""The final standing: the ranking (ties by seat order at the start) and the points a preset defines, by kind
(``game: points: kind``): ``first_balances`` (Tenhou: each other player's (score − return) / 1000 plus uma, first
place minus their sum) and ``shared`` (M-League: (score − return) / 1000 plus uma, the oka to first place, tied
players sharing their places' uma and oka).

>>> ranking_of([25000, 30200, 19800, 25000])
[1, 0, 3, 2]
>>> rule = PointsRule("first_balances", 30000, (20, 10, -10, -20), "none", "seat")
>>> points_of(rule, [35500, 24500, 47700, -7700], ranking_of([35500, 24500, 47700, -7700]), 25000)
[15.5, -15.5, 57.7, -57.7]
>>> points_of(PointsRule("first_balances", 30000, (20, 10, -10, -20), "thousand", "seat"),
...           [35500, 24500, 47500, -7500], [2, 0, 1, 3], 25000)
[16.0, -15.0, 57.0, -58.0]
>>> points_of(PointsRule("shared", 30000, (30, 10, -10, -30), "none", "share"),
...           [40000, 40000, 10000, 10000], [0, 1, 2, 3], 25000)
[40.0, 40.0, -40.0, -40.0]
"""

from __future__ import annotations

from collections.abc import Sequence

from .rules import PointsRule


def ranking_of(scores: Sequence[int]) -> list[int]:
    """Player indices, first place first: by score, ties by seat order at the start (the first dealer first)."""
    return sorted(range(len(scores)), key=lambda p: (-scores[p], p))


def _tenths(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` (a positive denominator) in tenths, rounded half away from zero."""
    scaled = abs(numerator) * 10
    whole = (scaled * 2 + denominator) // (2 * denominator)
    return whole if numerator >= 0 else -whole


def _thousands(score: int) -> int:
    """A score rounded to the thousand, 500 away from zero (35500 → 36000, −7500 → −8000)."""
    whole = (abs(score) + 500) // 1000 * 1000
    return whole if score >= 0 else -whole


def points_of(rule: PointsRule, scores: Sequence[int], ranking: Sequence[int], start: int) -> list[float]:
    """Each player's final points (by player index) under ``rule``."""
    n = len(scores)
    place = [0] * n
    for k, p in enumerate(ranking):
        place[p] = k
    counted = [_thousands(s) for s in scores] if rule.rounding == "thousand" else list(scores)
    if rule.kind == "first_balances":
        first = ranking[0]
        tenths = [0] * n
        for p in range(n):
            if p != first:  # (score − return) / 1000 + uma = (score − return + 1000 × uma) / 1000
                tenths[p] = _tenths(counted[p] - rule.returned + 1000 * rule.uma[place[p]], 1000)
        tenths[first] = -sum(tenths)
        return [t / 10 for t in tenths]
    # shared: the oka (what the return takes beyond the start, from every player) goes to first place; in points
    # × 1000, a tied group's uma and oka shared equally
    bonus = [1000 * u for u in rule.uma]
    bonus[0] += (rule.returned - start) * n
    out: list[float] = []
    for p in range(n):
        if rule.ties == "share":
            tied = [place[q] for q in range(n) if scores[q] == scores[p]]
        else:
            tied = [place[p]]
        shared = sum(bonus[t] for t in tied)
        out.append(_tenths((counted[p] - rule.returned) * len(tied) + shared, 1000 * len(tied)) / 10)
    return out
