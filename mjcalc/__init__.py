"""mjcalc: a mahjong hand-scoring calculator. One line of notation in; the reading, every item, the formula,
who pays whom and each seat's net out.

>>> from mjcalc import score_line
>>> score_line("123m456p789s111z22z +zimo +seat=E").best.settlement.points
48
"""

from . import engine
from .engine import Request, Result, score_line
from .ruleset import load_ruleset

__all__ = ["Request", "Result", "core", "load_ruleset", "score_line"]
__version__ = "0.1.0"


def core() -> str:
    """Which core this installation runs: its hot modules compiled by mypyc (setup.py), or pure Python."""
    return "pure Python" if engine.__file__.endswith(".py") else "compiled with mypyc"
