"""The shape of the package (docs/contributing.md): the import-linter contracts of pyproject.toml hold (no import
cycle, the layers, the registries a leaf, no family outside its hook); the core and the front ends name no
built-in ruleset and no family's flag; no two private helpers of one package share a name; every module says its
job in a docstring."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mjcalc"

# What may name no ruleset and no family's flag: the core (the scoring itself), and what shows or drives it.
NEUTRAL = [PACKAGE / "core", PACKAGE / "batch", PACKAGE / "output", PACKAGE / "homework", PACKAGE / "cli.py",
           PACKAGE / "cli_run.py", PACKAGE / "engine.py"]
# What may name no ruleset: a whole game, its logs and their commands (a game's rules are its ruleset's `game:`
# section; the rules Tenhou's logs were played by are config.LOGS_RULESET). "riichi" alone is also a word of the
# game's record (docs/GAME.md: who declared riichi) and of Tenhou's logs: only the longer ids are looked for there,
# and a family's flags are the game's to read (its results give +riichi, +honba, +pao).
GAME_NEUTRAL = [PACKAGE / "game", PACKAGE / "logs", PACKAGE / "cli_game.py"]
GAME_WORDS = {"riichi"}
# Where a ruleset or a family's flag is named on purpose, and why: words of a message (its text is output, the same
# whatever the ruleset), and the GB string's own fields (docs/NOTATION.md), a flag each whatever the ruleset.
ALLOWED = {
    ("core/notation.py", "fourth"): "the GB string's 'last of its kind' bit is +fourth (docs/NOTATION.md)",
    ("core/hand.py", "riichi"): "a message's words: red fives are riichi tiles",
    ("engine.py", "jilin"): "a message's words: an example of +rules=NAME",
}


def _lint_imports() -> list[str]:
    found = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    return [found] if found else [sys.executable, "-m", "importlinter.cli"]


def test_the_import_contracts_hold() -> None:
    run = subprocess.run([*_lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout and "kept" in run.stdout


def _family_words() -> tuple[set[str], set[str]]:
    """The built-in rulesets' ids, and the flags only a family declares (hooks/)."""
    from mjcalc import ruleset  # noqa: F401  (every family registered)
    from mjcalc.core.context import GENERIC_FLAGS
    from mjcalc.registry import FLAGS
    from mjcalc.support.builtin import builtin_names

    generic = {f.name for f in GENERIC_FLAGS}
    return set(builtin_names()), {f.name for f in FLAGS if f.name not in generic}


def _files(places: list[Path] = NEUTRAL) -> list[Path]:
    out: list[Path] = []
    for place in places:
        out.extend(sorted(place.rglob("*.py")) if place.is_dir() else [place])
    return out


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value,
                                                                                                      str):
                found.add(id(first.value))
    return found


def _knowledge(path: Path, rulesets: set[str], flags: set[str], base: Path = PACKAGE) -> list[str]:
    """Where a module names a ruleset (in a text or a name) or a family's flag (a text of the flag's name or
    +name, an attribute or a name of it): docstrings and comments aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    ids = re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, rulesets), key=len, reverse=True)) + r")(?![\w-])")
    where = str(path.relative_to(base))
    out: list[str] = []

    def said(what: str, line: int) -> None:
        if (where, what) not in ALLOWED:
            out.append(f"{where}:{line}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            for found in ids.findall(node.value):
                said(found, node.lineno)
            text = node.value.lstrip("+")
            if text in flags:
                said(text, node.lineno)
        elif isinstance(node, ast.Attribute) and node.attr in flags | rulesets:
            said(node.attr, node.lineno)
        elif isinstance(node, ast.Name) and (node.id in flags or _names(node.id, rulesets)):
            said(node.id, node.lineno)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and _names(node.name, rulesets):
            said(node.name, node.lineno)
    return out


def _names(identifier: str, rulesets: set[str]) -> bool:
    """Whether an identifier names a ruleset among its words (``_riichi_hypotheses``)."""
    return any(word in rulesets for word in identifier.lower().split("_"))


def test_the_core_and_the_front_ends_name_no_ruleset_and_no_familys_flag() -> None:
    rulesets, flags = _family_words()
    assert {"riichi", "mcr", "changchun"} <= rulesets and {"pao", "bao", "hui", "dora", "lian"} <= flags
    found = [hit for path in _files() for hit in _knowledge(path, rulesets, flags)]
    assert not found, "a ruleset or a family's flag named outside its hook:\n" + "\n".join(found)


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The check above would see a family named in code (a check that cannot fail is a defect)."""
    rulesets, flags = _family_words()
    sample = tmp_path / "sample.py"
    sample.write_text('"""a riichi docstring"""\n# riichi in a comment\nx = ctx.pao\ny = "riichi"\nz = "+dora"\n'
                      "def _riichi_things(): pass\n", encoding="utf-8")
    found = [hit.split(": ", 1)[1] for hit in _knowledge(sample, rulesets, flags, tmp_path)]
    assert sorted(found) == ["_riichi_things", "dora", "pao", "riichi", "riichi"], found  # riichi: a ruleset, a flag


def test_the_game_and_its_logs_name_no_ruleset() -> None:
    rulesets, _ = _family_words()
    assert {"riichi-tenhou", "changchun"} <= rulesets - GAME_WORDS
    found = [hit for path in _files(GAME_NEUTRAL) for hit in _knowledge(path, rulesets - GAME_WORDS, set())]
    assert not found, "a ruleset named in the game, its logs or their commands:\n" + "\n".join(found)


@pytest.mark.parametrize("package", sorted({p.parent for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_no_two_private_helpers_of_a_package_share_a_name(package: Path) -> None:
    """A private function or class is found by its name in its package: one of each name."""
    twice = _private_names_twice(package)
    assert not twice, twice


def _private_names_twice(package: Path) -> list[str]:
    seen: dict[str, str] = {}
    twice = []
    for path in sorted(package.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name.startswith("_") \
                    and not node.name.startswith("__"):
                if node.name in seen:
                    twice.append(f"{node.name}: {seen[node.name]} and {path.name}")
                seen.setdefault(node.name, path.name)
    return twice


def test_the_private_name_check_finds_a_planted_twin(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def _filled():\n    pass\n\n\ndef _only_here():\n    pass\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("class _Other:\n    def _filled(self):  # a method: not a helper\n        pass\n\n\n"
                                   "def _filled():\n    pass\n", encoding="utf-8")
    assert _private_names_twice(tmp_path) == ["_filled: a.py and b.py"]


@pytest.mark.parametrize("path", sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_module_says_its_job(path: Path) -> None:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc and len(doc.split()) >= 5 and not doc.startswith("mjcalc."), f"{path}: no docstring saying its job"


def _mapped_modules() -> set[str]:
    """The modules docs/contributing.md's tree names, as paths under mjcalc/ (a folder listed in brackets, as
    ``logs/ … (model, replay)``, by its modules' names)."""
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    block = text.split("## The tree", 1)[1].split("```", 2)[1]
    found: set[str] = set()
    folders: list[str] = []
    for line in block.splitlines()[1:]:
        match = re.match(r"( *)(\S+)", line)
        if not match or line.startswith("rules/"):
            continue
        depth = len(match.group(1)) // 2
        if depth == 0 or depth > len(folders) + 1:  # mjcalc/ itself, or a description's continued line
            continue
        name = match.group(2)
        del folders[depth - 1:]
        if name.endswith("/"):
            folders.append(name)
            listed = re.search(r"\(([^)]*)\)\s*$", line)
            if listed and name in ("logs/", "web/"):
                found.update(f"{''.join(folders)}{m.strip()}.py" for m in listed.group(1).split(";")[0].split(","))
        elif name.endswith(".py"):
            found.add("".join(folders) + name)
    return found


def test_the_map_in_contributing_names_every_module() -> None:
    """docs/contributing.md's tree is the package: every module it names exists, and it names every module (a
    package's __init__ aside)."""
    mapped = _mapped_modules()
    modules = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
               if "__pycache__" not in p.parts and not (p.name == "__init__.py" and p.parent != PACKAGE)}
    assert mapped - modules == set(), "named in docs/contributing.md but not in mjcalc/"
    assert modules - mapped == set(), "in mjcalc/ but not in docs/contributing.md's tree"
