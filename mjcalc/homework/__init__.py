"""Homework checking: a student's answer next to the right one, and why they differ.

An answer follows the hand after ``=>`` as key–value pairs, any subset::

    123m456p13s777z55z 2s +from=W => fan 3 points 16 items 平胡,放炮,夹胡,立胡
    ... => han 3 fu 30 points 3900          (riichi)
    ... => fan 4 items 自摸:1,夹胡:2          (an item's value after a colon)
    ... => not a win

Keys (English or Chinese): fan 番, han 翻, tai 台, fu 符, points 分, items 番种, result 结果.

Every difference names the fact of this hand that decides it, read from the scoring itself: the reading kept
(where the winning tile went, which wait), the wildcard and what it stood for, the context (who discarded,
the dealer, the closed seats) and the settlement (each payment's items, formula and cap). A wrong total is
traced to its step by settling the same reading again with that one step done the way the student did it
(``mjcalc.registry.WHAT_IF``). Each wrong number gets one difference: the explanation that gives it most directly, with
the others that give it too as "or" (``_choose``); each carries a ``cause`` from ``CAUSES`` (docs/OUTPUT.md).
"""

from .answer import Answer, parse_answer, suggest
from .compare import check_record, compare, why_not
from .explain import Difference
from .messages import CAUSES, MESSAGES, msg, score_text

__all__ = ["CAUSES", "MESSAGES", "Answer", "Difference", "check_record", "compare", "msg", "parse_answer",
           "score_text", "suggest", "why_not"]
