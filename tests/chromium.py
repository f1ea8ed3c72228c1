"""What the browser tests share: Debian's Chromium (``MJCALC_CHROMIUM`` to name another), whether it, Playwright
and the serve extra are here, and the browser launched for a module. Without them a browser test module is
skipped on a developer's machine and fails in CI (CI=true), where ``.ci/run`` installs Chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMIUM = os.environ.get("MJCALC_CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install '.[test]')"
    try:
        import h11  # noqa: F401
        import starlette  # noqa: F401
    except ImportError:
        return "the serve extra is not installed (pip install '.[serve]')"
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


def need_chromium() -> None:
    """Skip the calling test module when the browser cannot run here; in CI, fail instead."""
    missing = _missing()
    if missing:
        if os.environ.get("CI"):
            raise RuntimeError(f"the browser tests cannot run in CI: {missing}")
        pytest.skip(missing, allow_module_level=True)


@contextmanager
def launched() -> Iterator[Any]:
    """Chromium, headless, for one module's tests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield chromium
        finally:
            chromium.close()
