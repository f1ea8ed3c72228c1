"""Comments and docstrings under mjcalc/ (and setup.py) say why in words: no measurements, dates or instruction counts.

Figures belong in docs/performance.md (with the command that reproduces them) and in commit messages, where they
keep their date and machine; in a comment they go stale unseen. Code spans (``…``) and doctest lines are code,
not prose, and are not read. mjcalc/web and mjcalc/logs are other branches' ground for now (see the list below).
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mjcalc"

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
FIGURE = re.compile(
    r"\d[\d,]*(\.\d+)?\s*(ms|µs|us|ns)\b"  # timings
    r"|\d[\d,]*\.\d+\s+s\b|\d{2,}\s+s\b|\d\s+(sec|seconds)\b"
    r"|\d[\d,]*(\.\d+)?\s*%"  # percentages
    r"|\d(\.\d+)?×|\d(\.\d+)?x\b|(?i:x faster|times faster)"  # ratios
    r"|\d[\d,]*(\.\d+)?\s*[kMG]\b"  # 3.5M, 0.4 M, 2k (of instructions, of bytes)
    r"|(?i:instructions|callgrind|cachegrind|page faults|perf stat)"  # instruction counts and their tools
    rf"|\b(19|20)\d\d-\d\d-\d\d\b|\b\d{{1,2}} ({_MONTHS})\b|\b({_MONTHS}) \d{{4}}\b"  # dates
    r"|(?i:\b(measured|benchmarked) (on|at|in)\b)")  # lab-notebook narration
_CODE_SPAN = re.compile(r"``.*?``", re.DOTALL)


def prose(source: str) -> list[tuple[int, str]]:
    """The comments and docstrings of a module's source, line by line (line number, text), code spans and doctest
    lines left out."""
    out: list[tuple[int, str]] = []
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        text = None
        if token.type == tokenize.COMMENT:
            text = token.string
        elif token.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            text = token.string  # a string standing alone as a statement: a docstring
        if token.type not in (tokenize.NL, tokenize.COMMENT):
            previous = token.type
        if text is None:
            continue
        text = _CODE_SPAN.sub("``code``", text)
        doctest = False
        for offset, line in enumerate(text.splitlines()):
            stripped = line.strip()
            if stripped.startswith(">>>"):
                doctest = True
            elif not stripped:
                doctest = False
            if not doctest:
                out.append((token.start[0] + offset, line))
    return out


def figures(source: str) -> list[str]:
    return [f"{number}: {line.strip()}" for number, line in prose(source) if FIGURE.search(line)]


def _modules() -> list[Path]:
    return [ROOT / "setup.py", *sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)]


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_figures_in_comments(path: Path) -> None:
    found = figures(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(ROOT)}: figures in comments (put them in docs/performance.md): {found}"


@pytest.mark.parametrize("planted", [
    "x = 1  # a look-up (callgrind: ~250 instructions a read)\n",
    "x = 1  # 2.8 times faster, 12 ms\n",
    "x = 1  # saves 3 % of a batch\n",
    "x = 1  # 2.8× on two cores\n",
    "x = 1  # 3.5M -> 1.5M over 4,000 hands\n",
    "x = 1  # measured on 3 December 2026\n",
    "x = 1  # see the run of 2026-12-03\n",
    "x = 1  # took 4.3 s on a loaded machine\n",
    'def f():\n    """Fast: 8x faster than the plain one."""\n',
])
def test_the_check_finds_a_planted_figure(planted: str) -> None:
    assert figures(planted), planted


def test_the_check_leaves_code_and_tiles_alone() -> None:
    source = ('"""Tiles 1s 9m 5p, ``parse_size("8M")`` and ``(17%)`` in code.\n\n>>> f("64K")\n65536\n"""\n'
              'x = "3 ms"  # the 5s and 1m of a hand\n')
    assert figures(source) == [], figures(source)
