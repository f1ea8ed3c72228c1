"""The installed package must carry every subpackage, the ruleset files and the page, not only a source checkout
(rules, locale and web.static are folders of data, listed as packages so their files ship)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_subpackage_is_listed_in_pyproject() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.search(r"^packages = \[(.*)\]$", text, re.M).group(1).replace('"', "").replace(" ", "").split(","))
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "mjcalc").rglob("__init__.py")
             if "__pycache__" not in p.parts} | {"mjcalc.rules", "mjcalc.locale", "mjcalc.web.static"}
    assert found == listed


def test_rules_ship_as_package_data() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"mjcalc.rules" = "rules"' in text
    assert '"mjcalc.rules" = ["*.yaml", "*.md"]' in text
    assert list((ROOT / "rules").glob("*.yaml"))


def test_each_rulesets_decisions_document_ships_beside_it() -> None:
    """``rules show`` names a ruleset's decisions document, found beside the built-in files: in a checkout its
    rules/, installed the package's (run against an installed package, this shows the .md files were shipped)."""
    from mjcalc.ruleset.loader import decisions_of, load_ruleset
    from mjcalc.support.builtin import builtin_dir, builtin_names

    home = Path(builtin_dir()).resolve()
    docs = {name: decisions_of(load_ruleset(name)) for name in builtin_names()}
    for name in ("jilin", "meihe", "mcr", "riichi", "taiwan"):
        assert docs[name] == str(home / f"{name}.md"), name
    assert docs["taiwan-common"] == docs["taiwan"]  # a preset without its own: its parent's
    assert docs["changchun-mil"] == docs["changchun"]
    for doc in docs.values():
        assert doc is None or (Path(doc).is_file() and Path(doc).parent == home)
