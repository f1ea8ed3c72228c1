"""Where the built-in ruleset files are, and their names: inside the installed package (rules/ ships as
mjcalc.rules), or the checkout's rules/ when mjcalc runs from a source tree or an editable install."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def builtin_dir() -> Path:
    """Where the built-in ruleset files are: inside the installed package (rules/ maps to mjcalc.rules, a
    folder of the package), or the checkout's rules/ when mjcalc is imported straight from a source tree
    or installed editable. (Found without importlib.resources, which costs every command's start-up.)"""
    package = Path(__file__).parent.parent
    inside = package / "rules"
    return inside if inside.is_dir() else package.resolve().parent / "rules"


def builtin_names() -> list[str]:
    return sorted(path.stem for path in builtin_dir().glob("*.yaml"))
