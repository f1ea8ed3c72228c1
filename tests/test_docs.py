"""The documentation in the repository: README.md, docs/*.md and the rulesets' pages rules/*.md link only to files
and headings that exist, name only files the repository holds (never the project's spec/ or seeds/, which are
not shipped), and the README stays a front page."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

TOP = Path(__file__).parent.parent
DOCS = [TOP / "README.md", *sorted((TOP / "docs").glob("*.md")), *sorted((TOP / "rules").glob("*.md"))]
# Written on a branch of its own (the code map of issue 32); a link to it may wait for it, and is checked once it exists.
PENDING = {TOP / "docs" / "contributing.md"}
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.S | re.M)
LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w./~$-])((?:mjcalc|rules|tests|docs|examples|benchmarks|tools|spec|seeds)/[\w./*<>-]*)")


def _prose(text: str) -> str:
    """The text without fenced code blocks and inline code (links there are examples, not links)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: the text as shown, lower case, without punctuation, spaces as hyphens."""
    text = LINK.sub(r"\1", heading).replace("`", "").strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in FENCE.sub("", path.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"#{1,6} +(.+?) *#* *$", line)
        if m:
            base = anchor(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def test_the_anchor_rule() -> None:
    assert anchor("Batch throughput, and `--jobs`") == "batch-throughput-and---jobs"
    assert anchor("Language (`--lang`, `MJCALC_LANG`, the config file)") == "language---lang-mjcalc_lang-the-config-file"
    assert anchor("长春 Changchun (`changchun`, the default)") == "长春-changchun-changchun-the-default"
    assert anchor("The notation (cheat-sheet)") == "the-notation-cheat-sheet"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(TOP)))
def test_every_relative_link_points_at_a_file_and_heading(doc: Path) -> None:
    bad = []
    for _, target in LINK.findall(_prose(doc.read_text(encoding="utf-8"))):
        if re.match(r"[a-z]+:", target):
            continue  # another site
        file, _, frag = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        if not path.exists():
            if path not in PENDING:
                bad.append(f"{target}: no such file")
            continue
        if frag and path.suffix == ".md" and frag not in anchors(path):
            bad.append(f"{target}: no heading with the anchor #{frag}")
    assert not bad, f"{doc.relative_to(TOP)}: " + "; ".join(bad)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(TOP)))
def test_every_path_named_is_in_the_repository(doc: Path) -> None:
    bad = []
    for name in PATH.findall(doc.read_text(encoding="utf-8")):
        name = name.rstrip(".,")
        if name.startswith(("spec/", "seeds/")):
            bad.append(f"{name}: the project's {name.split('/')[0]}/ is not in the repository; name the source in words")
        elif "<" not in name and not any(TOP.glob(name.rstrip("/"))) and (TOP / name) not in PENDING:
            bad.append(f"{name}: no such file")
    assert not bad, f"{doc.relative_to(TOP)}: " + "; ".join(bad)


def test_the_path_check_can_fail(tmp_path: Path) -> None:
    assert PATH.findall("decided in `spec/rules/mcr.md` (seeds/000_x.txt)") == ["spec/rules/mcr.md", "seeds/000_x.txt"]
    assert PATH.findall("~/.config/mjcalc/config.yaml and $XDG_CONFIG_HOME/mjcalc/x") == []


def test_the_readme_is_a_front_page() -> None:
    """What it is, the Quick start, the notation, one example a command and a ruleset, links: the rest is in docs/."""
    assert len((TOP / "README.md").read_text(encoding="utf-8").splitlines()) <= 300
