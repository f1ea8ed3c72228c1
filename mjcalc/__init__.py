"""mjcalc: a mahjong hand-scoring calculator. One line of notation in; the reading, every item, the formula,
who pays whom and each seat's net out.

The public API is in mjcalc.api (the README's "Python" section): score, score_many, waits, check, rulesets,
Game (a whole game, docs/GAME.md), and the exceptions MjcalcError, RulesetError and GameError. Importing the
package is cheap: the engine is imported when a function is first called.

>>> import mjcalc
>>> mjcalc.score("123m456p789s111z22z +zimo +seat=E")["points"]
48
"""

from __future__ import annotations

from typing import Any

from .api import Game, GameError, MjcalcError, RulesetError, check, rulesets, score, score_many, waits

__all__ = ["Game", "GameError", "MjcalcError", "RulesetError", "check", "core_build", "rulesets", "score",
           "score_many", "waits"]
__version__ = "0.1.0"

# Internal names once imported from here, kept importable (not part of the API: they may change).
_INTERNAL = {"Request": "engine", "Result": "engine", "score_line": "engine", "load_ruleset": "ruleset",
             "engine": None}


def __getattr__(name: str) -> Any:
    if name in _INTERNAL:
        import importlib

        module = importlib.import_module(f".{_INTERNAL[name] or name}", __name__)
        return module if _INTERNAL[name] is None else getattr(module, name)
    raise AttributeError(f"module 'mjcalc' has no attribute {name!r}")


def core_build() -> str:
    """Which core this installation runs: its hot modules compiled by mypyc (setup.py), or pure Python."""
    from . import engine

    return "pure Python" if engine.__file__.endswith(".py") else "compiled with mypyc"
