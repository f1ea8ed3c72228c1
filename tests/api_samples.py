"""What the tests of the Python API (tests/test_api.py) and of the web API (tests/test_serve_api.py) share:
the CLI run in this process with no user configuration, a sample of lines of every built-in ruleset, and the
``--set`` arguments of a case's options, so that both compare their answers with ``score --json``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner

from mjcalc.cli import app
from mjcalc.support.builtin import builtin_names

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def cli(*args: str) -> Any:
    """The CLI run in this process, with no user configuration (neither API reads any)."""
    return runner.invoke(app, list(args), env={"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml", "MJCALC_RULES": None,
                                               "MJCALC_LANG": None})


def sample(every: int, first: int, per_example: int) -> list[tuple[str, str, dict[str, Any]]]:
    """(ruleset, line, options): every ``every``-th case of tests/cases from the ``first`` (the first ones are
    the spec's worked examples) and the first ``per_example`` lines of each examples/<ruleset>.txt; every
    built-in ruleset is in it."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for path in sorted((ROOT / "tests" / "cases").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for case in data["cases"][first::every]:
            out.append((case.get("rules", data["ruleset"]), case["hand"], case.get("set") or {}))
    for name in builtin_names():
        path = ROOT / "examples" / f"{name}.txt"
        if path.exists():
            lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
            out += [(name, ln, {}) for ln in lines if ln and not ln.startswith("#")][:per_example]
    return out


def set_args(options: dict[str, Any]) -> list[str]:
    """A case's options as the CLI's ``--set NAME=VALUE`` arguments (None as ``none``, booleans as ``true``)."""
    out = []
    for key, value in options.items():
        text = "none" if value is None else str(value).lower() if isinstance(value, bool) else value
        out += ["--set", f"{key}={text}"]
    return out
