"""The package is type-clean under mypy, with the settings in pyproject.toml.

A wrong annotation is a bug that has not happened yet; and the compiled core (mypyc, setup.py) compiles only
modules that type-check, and checks the annotations at run time.
"""

from pathlib import Path

from mypy import api

ROOT = Path(__file__).resolve().parent.parent


def test_the_package_type_checks() -> None:
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), str(ROOT / "mjcalc")])
    assert status == 0, out + err
