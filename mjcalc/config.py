"""The user's defaults: a ruleset, options and language, from an environment variable or a config file.

Looked up in this order, the first found wins for each key:
  1. ``MJCALC_RULES`` (a ruleset name or path) and ``MJCALC_LANG`` (en | zh);
  2. the file named by ``MJCALC_CONFIG``, else ``$XDG_CONFIG_HOME/mjcalc/config.yaml``
     (``~/.config/mjcalc/config.yaml``), a YAML mapping such as::

         rules: jilin
         lang: zh
         set: {base: 2, cap: 500}

Options under ``set`` apply to whichever ruleset has them; command-line ``--rules`` and ``--set`` win over
the file, and a line's own ``+rules=`` / ``+base=`` / ``+cap=`` win over both.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import MjcalcError


@dataclass(frozen=True)
class Config:
    rules: str | None = None
    lang: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    path: str | None = None


def config_path() -> Path:
    if os.environ.get("MJCALC_CONFIG"):
        return Path(os.environ["MJCALC_CONFIG"]).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mjcalc" / "config.yaml"


def load_config() -> Config:
    path = config_path()
    data: dict[str, Any] = {}
    if path.exists():
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise MjcalcError("ruleset", f"config file {path}: {exc}") from None
        if not isinstance(data, dict):
            raise MjcalcError("ruleset", f"config file {path}: expected a mapping (rules:, lang:, set:)")
        unknown = set(data) - {"rules", "lang", "set"}
        if unknown:
            raise MjcalcError("ruleset", f"config file {path}: unknown key(s) {', '.join(sorted(unknown))}; "
                              "known: rules, lang, set")
    options = data.get("set") or {}
    if not isinstance(options, dict):
        raise MjcalcError("ruleset", f"config file {path}: 'set' is a mapping of option: value")
    return Config(
        rules=os.environ.get("MJCALC_RULES") or data.get("rules"),
        lang=os.environ.get("MJCALC_LANG") or data.get("lang"),
        options=options,
        path=str(path) if path.exists() else None,
    )
