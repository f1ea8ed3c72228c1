"""Build mjcalc: pure Python, with its hot modules compiled to C by mypyc where a C compiler is at hand.

Everything else is in pyproject.toml. The compiled modules are the very same source, type-checked
(tests/test_types.py), and score much faster (docs/performance.md has the figures).
tests/test_compiled.py scores the same lines with the installed package and with the checkout's source and
requires identical output.

Pure Python is built instead:
- with ``MJCALC_PURE_PYTHON=1`` in the environment;
- for an editable install (``pip install -e``), so that an edit to a module takes effect without a rebuild;
- module by module where compiling fails (no C compiler): the extensions are optional. pip does not say so
  unless asked (-v); ``mjcalc --version`` does.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

# The line's path through the program, in pipeline order: lines (a batch file's) → notation → hand → readings →
# items → payments. cli, batch (but for lines, its reading of each line), render, ruleset (loaded once) and the
# homework checker stay Python: little time is spent there.
COMPILED = [
    "mjcalc/batch/lines.py",
    "mjcalc/core/tiles.py",
    "mjcalc/core/facts.py",
    "mjcalc/support/memo.py",
    "mjcalc/support/tuples.py",
    "mjcalc/core/notation.py",
    "mjcalc/core/context.py",
    "mjcalc/core/hand.py",
    "mjcalc/core/readings/forms.py",
    "mjcalc/core/readings/decompose.py",
    "mjcalc/core/readings/waits.py",
    "mjcalc/core/readings/wildcards.py",
    "mjcalc/core/readings/shanten.py",
    "mjcalc/core/candidate.py",
    "mjcalc/core/scoring.py",
    "mjcalc/core/result.py",
    "mjcalc/core/search.py",
    "mjcalc/core/settlement/formulas.py",
    "mjcalc/core/settlement/payments.py",
    "mjcalc/core/settlement/kongs.py",
    "mjcalc/predicates/binding.py",
    "mjcalc/predicates/situation.py",
    "mjcalc/predicates/tiles.py",
    "mjcalc/predicates/sets.py",
    "mjcalc/predicates/waits.py",
    "mjcalc/predicates/flowers.py",
    "mjcalc/engine.py",
    "mjcalc/output/record.py",
    "mjcalc/output/jsonl.py",
    "mjcalc/hooks/changchun.py",
    "mjcalc/hooks/meihe.py",
    "mjcalc/hooks/mcr.py",
    "mjcalc/hooks/riichi.py",
    # a replay of many games: each result read, applied and written (its hand scored by the modules above)
    "mjcalc/game/hands.py",
    "mjcalc/game/model.py",
    "mjcalc/game/records.py",
    "mjcalc/game/replay.py",
    "mjcalc/game/sheet.py",
    "mjcalc/game/standing.py",
    "mjcalc/game/game.py",
    "mjcalc/game/rules.py",
    # game logs: every draw and discard of a log followed (a year of logs is millions of events), then replayed
    "mjcalc/logs/model.py",
    "mjcalc/logs/replay.py",
    "mjcalc/logs/tenhou_xml.py",
    "mjcalc/logs/tenhou_json.py",
    "mjcalc/logs/record.py",
    "mjcalc/logs/importer.py",
]


def _compiling() -> bool:
    """Whether this run of setup.py builds the package (not only its metadata), and compiled."""
    building = any(step in sys.argv for step in ("bdist_wheel", "build", "build_ext", "install"))
    editable = any(step in sys.argv for step in ("editable_wheel", "develop"))
    return building and not editable and os.environ.get("MJCALC_PURE_PYTHON", "") in ("", "0")


def _ext_modules() -> list:
    if not _compiling():  # mypyc type-checks the modules first: not worth it for metadata alone
        return []
    from mypyc.build import mypycify  # a build requirement (pyproject.toml)

    extensions = mypycify(COMPILED, opt_level="3", group_name="mjcalc")
    for extension in extensions:
        extension.optional = True  # a module that fails to compile stays pure Python
        if sys.platform != "win32":
            # Only PyInit_* need be seen from outside (the modules reach each other's code by capsules): the
            # library's references to its own functions are then bound when it is linked, not at each start-up.
            extension.extra_compile_args = [*(extension.extra_compile_args or []), "-fvisibility=hidden"]
    return extensions


def _standalone(path: str):  # noqa: ANN202
    """A module of the package that imports nothing from it, loaded from its file (``path`` under mjcalc/): the
    package is not importable while it is being built."""
    import importlib.util
    from pathlib import Path

    name = path.replace("/", "_")
    spec = importlib.util.spec_from_file_location(f"_mjcalc_{name}", Path("mjcalc") / f"{path}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class build_py_with_catalog(build_py):
    """Also compile each message catalog (mjcalc/locale/<lang>.po) to the .mo that gettext
    reads, beside it in the build: a plain ``pip install .`` carries it; the compiler is mjcalc.i18n's own
    (stdlib only). And pack each built-in ruleset (rules/<name>.yaml) as the JSON that mjcalc.support.packed reads
    instead, so that a command starts without importing PyYAML (a build requirement; without it the rulesets
    are shipped as YAML only). An editable install reads the .po and the YAML."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        from pathlib import Path

        i18n = _standalone("i18n")
        for po in sorted(Path("mjcalc/locale").glob("*.po")):
            target = Path(self.build_lib) / po.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(i18n.write_mo(i18n.read_po(po.read_text(encoding="utf-8"))))
        try:
            import yaml
        except ImportError:
            return
        packed = _standalone("support/packed")
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # a safe loader, as mjcalc.support.yamlfile's
        for source in sorted(Path("rules").glob("*.yaml")):
            raw = source.read_bytes()
            text = packed.pack(raw, yaml.load(raw.decode("utf-8"), Loader=loader))
            if text is not None:
                (Path(self.build_lib) / "mjcalc" / "rules" / source.with_suffix(".json").name).write_text(
                    text, encoding="utf-8")


setup(ext_modules=_ext_modules(), cmdclass={"build_py": build_py_with_catalog})
