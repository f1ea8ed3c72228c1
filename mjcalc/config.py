"""The user's defaults: a ruleset, options and language, from an environment variable or a config file.

Looked up in this order, the first found wins for each key:
  1. ``MJCALC_RULES`` (a ruleset name or path) and ``MJCALC_LANG`` (en | zh);
  2. the file named by ``MJCALC_CONFIG``, else ``$XDG_CONFIG_HOME/mjcalc/config.yaml``
     (``~/.config/mjcalc/config.yaml``), a YAML mapping such as::

         rules: jilin
         lang: zh
         set: {base: 2, cap: 500}

Options under ``set`` apply to whichever ruleset has them; command-line ``--rules`` and ``--set`` win over
the file, and a line's own ``+rules=`` / ``+base=`` / ``+cap=`` win over both. An option under ``set`` that
no ruleset has (a typo) is an error naming it and the file, with the nearest option name; a value an option
cannot take is blamed on the file, not on ``--set`` (``engine.request_options``).

The file is read as a ruleset file is (``yamlfile``): a regular file of at most 64 kB, UTF-8 or a UTF-16 /
UTF-8 text with a byte-order mark, no YAML aliases, shallow nesting; a mistake names the file and the key.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .errors import MjcalcError, did_you_mean
from .errors import quoted as _shown
from .i18n import N_, Msg
from .support.yamlfile import load

if TYPE_CHECKING:  # what mypy reads; at run time the same classes without the dataclasses module (support/frozen.py)
    from dataclasses import dataclass, field
else:
    from .support.frozen import dataclass, field

MAX_CONFIG_BYTES = 64_000
KEYS = ("rules", "lang", "set")
LANGS = ("en", "zh")

# The ruleset a line is scored by when neither it (+rules=), the command line, MJCALC_RULES nor the config file
# names one.
DEFAULT_RULESET: Final = "changchun"
# The help of the command line's --rules, which names it (tests/test_cli.py holds the two together).
RULES_HELP: Final = N_("Ruleset name or path to a .yaml file (default: MJCALC_RULES, the config file, then changchun).")
# The ruleset a game log is replayed by unless --rules names another: the rules Tenhou's logs were played by.
LOGS_RULESET: Final = "riichi-tenhou"
# The help of `game import --rules`, which names it (tests/test_game_cli.py holds the two together).
LOGS_RULES_HELP: Final = N_("Replay under these rules (default riichi-tenhou, the log's own): the hands and their "
                            "order stay the log's.")


class ConfigOptions(dict[str, Any]):
    """The config file's ``set:``, which remembers the file it came from, for messages (it travels with a
    Request to the processes of a batch, and pickles as a dict with that one attribute)."""

    source: str = Msg("the config file")

    def __init__(self, values: dict[str, Any] | None = None, source: str | None = None) -> None:
        super().__init__(values or {})
        self.source = Msg("the config file") if source is None else source


@dataclass(frozen=True)
class Config:
    rules: str | None = None
    lang: str | None = None
    options: ConfigOptions = field(default_factory=ConfigOptions)
    path: str | None = None


def config_path() -> Path:
    if os.environ.get("MJCALC_CONFIG"):
        return Path(os.environ["MJCALC_CONFIG"]).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mjcalc" / "config.yaml"


def _exists(path: Path) -> bool:
    try:
        return path.exists() or path.is_symlink()
    except (OSError, ValueError):  # a name too long, a NUL: reported by load()
        return True


def load_config() -> Config:
    try:
        path = config_path()
    except RuntimeError:  # no home directory to look in
        return _from_environment({}, None)
    where = Msg("config file {path}", path=str(path))
    data: Any = {}
    if _exists(path):
        data = load(str(path), where, MAX_CONFIG_BYTES, kind="config file")
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise MjcalcError("ruleset", Msg("{where}: not a config file: expected a mapping (rules:, lang:, set:)",
                                             where=where))
        unknown = [k for k in data if k not in KEYS]
        if unknown:
            raise MjcalcError("ruleset", Msg("{where}: unknown key {key}{hint}; known: {known}", where=where,
                                             key=_shown(unknown[0]), hint=did_you_mean(str(unknown[0]), KEYS),
                                             known=", ".join(KEYS)))
        rules = data.get("rules")
        if rules is not None and not (isinstance(rules, str) and rules.strip()):
            raise MjcalcError("ruleset", Msg("{where}: 'rules' is a ruleset name or a path, not {value}", where=where,
                                             value=_shown(rules)))
        lang = data.get("lang")
        if lang is not None and lang not in LANGS:
            raise MjcalcError("ruleset", Msg("{where}: 'lang' is en or zh, not {value}", where=where,
                                             value=_shown(lang)))
        options = data.get("set") or {}
        if not isinstance(options, dict):
            raise MjcalcError("ruleset", Msg("{where}: 'set' is a mapping of option: value, such as {{base: 2}}",
                                             where=where))
        for key, value in options.items():
            if not isinstance(key, str):
                raise MjcalcError("ruleset", Msg("{where}: set: {key} is no option name", where=where, key=_shown(key)))
            if isinstance(value, (dict, list, float)):
                raise MjcalcError("ruleset", Msg("{where}: set: option '{key}' takes one value (a number, on / off, "
                                                 "a word or none), not {value}", where=where, key=key,
                                                 value=_shown(value)))
    return _from_environment(data, path if _exists(path) else None)


def _from_environment(data: dict[str, Any], path: Path | None) -> Config:
    where = Msg("config file {path}", path=str(path)) if path is not None else Msg("the config file")
    env_lang = os.environ.get("MJCALC_LANG") or None
    if env_lang is not None and env_lang not in LANGS:
        raise MjcalcError("ruleset", Msg("MJCALC_LANG is en or zh, not {value}", value=_shown(env_lang)))
    return Config(
        rules=os.environ.get("MJCALC_RULES") or data.get("rules"),
        lang=env_lang or data.get("lang"),
        options=ConfigOptions(dict(data.get("set") or {}), where),
        path=str(path) if path is not None else None,
    )

