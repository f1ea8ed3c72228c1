"""The installed package must carry every subpackage and the ruleset files, not only a source checkout."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.search(r"^packages = \[(.*)\]$", text, re.M).group(1).replace('"', "").replace(" ", "").split(","))
    found = {"mjcalc." + p.parent.name for p in (ROOT / "mjcalc").glob("*/__init__.py")} | {"mjcalc", "mjcalc.rules",
                                                                                          "mjcalc.locale"}
    assert found == listed


def test_rules_ship_as_package_data() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"mjcalc.rules" = "rules"' in text
    assert '"mjcalc.rules" = ["*.yaml", "*.md"]' in text
    assert list((ROOT / "rules").glob("*.yaml"))
