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
from fractions import Fraction

from .rules import PointsRule


def ranking_of(scores: Sequence[int]) -> list[int]:
    """Player indices, first place first: by score, ties by seat order at the start (the first dealer first)."""
    return sorted(range(len(scores)), key=lambda p: (-scores[p], p))


def _tenths(value: Fraction) -> int:
    """A value in tenths, rounded half away from zero."""
    scaled = value * 10
    whole = (abs(scaled.numerator) * 2 + scaled.denominator) // (2 * scaled.denominator)
    return whole if scaled >= 0 else -whole


def _thousands(score: int) -> int:
    """A score rounded to the thousand, 500 away from zero (35500 → 36000, −7500 → −8000)."""
    whole = (abs(score) + 500) // 1000 * 1000
    return whole if score >= 0 else -whole


def points_of(rule: PointsRule, scores: Sequence[int], ranking: Sequence[int], start: int) -> list[float]:
    """Each player's final points (by player index) under ``rule``."""
    place = {p: k for k, p in enumerate(ranking)}
    counted = [_thousands(s) if rule.rounding == "thousand" else s for s in scores]
    base = [Fraction(c - rule.returned, 1000) for c in counted]
    if rule.kind == "first_balances":
        first = ranking[0]
        tenths = [0] * len(scores)
        for p in range(len(scores)):
            if p != first:
                tenths[p] = _tenths(base[p] + rule.uma[place[p]])
        tenths[first] = -sum(tenths)
        return [t / 10 for t in tenths]
    # shared: the oka (what the return takes beyond the start, from every player) goes to first place
    bonus = [Fraction(u) for u in rule.uma]
    bonus[0] += Fraction((rule.returned - start) * len(scores), 1000)
    out: list[float] = []
    for p in range(len(scores)):
        k = place[p]
        if rule.ties == "share":
            tied = [place[q] for q in range(len(scores)) if scores[q] == scores[p]]
            share = sum((bonus[t] for t in tied), Fraction(0)) / len(tied)
        else:
            share = bonus[k]
        out.append(_tenths(base[p] + share) / 10)
    return out
