"""The message catalog's texts, collected from the source; and the .po brought up to date with them.

    python tools/catalog.py            # rewrite mjcalc/locale/*.po: new texts added with an
                                       # empty translation (to fill in), texts no longer in the source dropped
    python tools/catalog.py --check    # say what is missing or orphaned; exit 1 if anything is

A text of the catalog is the first argument of ``Msg(...)``, ``tr(...)`` or ``N_(...)`` when it is a string
literal (or a conditional choosing between literals), the help of a command-line option (``help=``) and the
docstring of a command (mjcalc/cli.py). ``tests/test_i18n.py`` runs the same collection.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mjcalc"
LOCALE = PACKAGE / "locale"
MARKERS = {"Msg", "tr", "N_"}
PLACEHOLDER = re.compile(r"(?<!\{)\{([a-zA-Z_][a-zA-Z0-9_]*)?(?:[:!][^{}]*)?\}")


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _is_command(fn: ast.FunctionDef) -> bool:
    for d in fn.decorator_list:
        call = d.func if isinstance(d, ast.Call) else d
        if isinstance(call, ast.Attribute) and call.attr in ("command", "callback"):
            return True
    return False


def texts_of(path: Path) -> list[str]:
    """The catalog's texts in one module, in the order written."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name in MARKERS and node.args:
                found += [(node.lineno, node.col_offset, t) for t in _literals(node.args[0])]
            if path.name == "cli.py":
                for kw in node.keywords:
                    if kw.arg == "help":
                        found += [(node.lineno, node.col_offset, t) for t in _literals(kw.value)]
        elif isinstance(node, ast.FunctionDef) and path.name == "cli.py" and _is_command(node):
            doc = ast.get_docstring(node)
            if doc:
                found.append((node.lineno, 0, doc))
    return [t for _, _, t in sorted(found) if t.strip()]


def collect() -> dict[str, str]:
    """Every text of the catalog → the module it is first met in."""
    out: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for text in texts_of(path):
            out.setdefault(text, str(path.relative_to(ROOT)))
    return out


def placeholders(text: str) -> set[str]:
    return {m.group(1) or "" for m in PLACEHOLDER.finditer(text)}


def _quoted(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{body}"'


def write_po(path: Path, header: str, entries: list[tuple[str, str, str]]) -> None:
    """``entries``: (where, msgid, msgstr), in order."""
    lines = [header.rstrip("\n"), ""]
    for where, msgid, msgstr in entries:
        lines.append(f"#: {where}")
        if placeholders(msgid):
            lines.append("#, python-brace-format")
        lines.append(f"msgid {_quoted(msgid)}")
        lines.append(f"msgstr {_quoted(msgstr)}")
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


HEADER = '''# mjcalc's texts in {lang}. The source of the compiled catalog (setup.py); tools/catalog.py adds new texts.
msgid ""
msgstr ""
"Project-Id-Version: mjcalc\\n"
"Language: {lang}\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
'''


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from mjcalc.i18n import read_po

    texts = collect()
    bad = False
    for po in sorted(LOCALE.glob("*.po")):
        lang = po.stem
        known = read_po(po.read_text(encoding="utf-8"))
        known.pop("", None)
        missing = [t for t in texts if t not in known]
        orphans = [t for t in known if t not in texts]
        for t in missing:
            print(f"{lang}: no translation: {t!r} ({texts[t]})")
        for t in orphans:
            print(f"{lang}: orphaned (not in the source): {t!r}")
        bad = bad or bool(missing or orphans)
        if "--check" not in argv:
            write_po(po, HEADER.format(lang=lang), [(where, t, known.get(t, "")) for t, where in texts.items()])
    return 1 if bad and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
