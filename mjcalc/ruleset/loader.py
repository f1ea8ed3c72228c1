"""Reading ruleset files: a built-in one by name or a file by path, found and read safely (support/yamlfile.py),
the chain it ``extends`` merged (a child lists only what differs), checked (validate.py) and kept once a process.

The YAML grammar is described in ``rules/SCHEMA.md``. A ruleset file names predicates and formulas; it never
holds code or expressions, and it is read with a safe loader, so a file can never run code. Every mistake in a
file fails at load time, naming the file, the entry and the field. (Importing the package mjcalc.ruleset imports
every family's hooks, so that what they register is known before a file is checked.)
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.model import Ruleset
from ..core.settlement import payments as settlement  # noqa: F401  (the core's formulas registered)
from ..errors import MjcalcError, did_you_mean
from ..i18n import Msg
from ..registry import FORMULA_NEEDS, FORMULAS, SETTLERS
from ..support.builtin import builtin_dir, builtin_names
from ..support.memo import remember
from ..support.yamlfile import check_path, load_trusted
from ..support.yamlfile import load as load_yaml
from .schema import LIMITS
from .validate import _NAME_FIRST, _NAME_REST, _Validator, matches


def decisions_of(rules: Ruleset) -> str | None:
    """The document of a ruleset's decisions, shipped beside the built-in files (``rules/<name>.md``): its own, or
    that of the first built-in ruleset it extends that has one; None when none has."""
    home = os.path.realpath(builtin_dir())
    for file in rules.files:
        folder, name = os.path.split(file)
        doc = os.path.join(folder, name.rsplit(".", 1)[0] + ".md")
        if folder == home and os.path.isfile(doc):
            return doc
    return None


def check_builtin(ref: str, where: str, column: int | None = None) -> None:
    """Refuse a ruleset that is not a built-in one, by name, without reading anything the reference names:
    for a caller that must never open a file a user names (``mjcalc serve``)."""
    names = builtin_names()
    if isinstance(ref, str) and ref in names:
        return
    shown = str(ref)[:64] + ("…" if len(str(ref)) > 64 else "")
    shown = "".join(ch if ch.isprintable() else "?" for ch in shown)
    raise MjcalcError("ruleset", f"{where}: '{shown}' is not a built-in ruleset{did_you_mean(str(ref)[:64], names)}; "
                      f"only the built-in ones can be used here ({', '.join(names)}), not a ruleset file", column)


# --- the model -----------------------------------------------------------------------------------------


# --- loading -------------------------------------------------------------------------------------------


RULESET_KEYS = ("id", "names", "items", "extends", "formula")  # a file with none of them is no ruleset


def where_of(path: Path) -> str:
    """How messages name a ruleset file: a built-in by its file name, a user's file by the path given."""
    return path.name if path.parent == builtin_dir() else str(path)


def is_builtin(path: Path) -> bool:
    return path.parent == builtin_dir() and path.suffix == ".yaml"


class _Loader:
    """Reads one ruleset file and the chain it extends; every error names the file, entry and field.

    Each file is read by ``yamlfile`` (a regular file, 1 MB at most, no aliases, bounded nesting); a user's
    file is checked against the schema (``schema.py``) before it is merged; the chain is at most
    ``LIMITS["extends"]`` files long and never comes back to a file it holds."""

    def __init__(self) -> None:
        self.chain: list[str] = []

    def read(self, ref: str, relative_to: Path | None = None) -> tuple[dict[str, Any], Path]:
        path = self.locate(ref, relative_to)
        where = where_of(path)
        try:
            real = os.path.realpath(path)
        except (OSError, ValueError):
            real = str(path)
        if real in self.chain:
            raise MjcalcError("ruleset", f"{where}: 'extends' goes round in a circle: "
                              f"{' → '.join([*self.chain, real])}")
        if len(self.chain) >= LIMITS["extends"][0]:
            raise MjcalcError("ruleset", f"{where}: 'extends' goes more than {LIMITS['extends'][0]} files deep")
        self.chain.append(real)
        data = load_trusted(str(path)) if is_builtin(path) else load_yaml(str(path), where)
        if not isinstance(data, dict):
            raise MjcalcError("ruleset", f"{where}: not a ruleset: not a YAML mapping (id:, names:, items: …)")
        if not any(key in data for key in RULESET_KEYS if isinstance(key, str)):
            raise MjcalcError("ruleset", f"{where}: not a ruleset: it has none of the fields "
                              f"{', '.join(RULESET_KEYS)}")
        if not is_builtin(path):  # the built-in files are validated by the test suite
            from .schema_check import problem  # a user's file only (the built-in ones: the test suite)

            found = problem(data, partial="extends" in data)
            if found:
                raise MjcalcError("ruleset", Msg("{where}: {problem}", where=where, problem=found))
        parent_ref = data.pop("extends", None)
        if parent_ref is None:
            return data, path
        if not isinstance(parent_ref, str):
            raise MjcalcError("ruleset", f"{where}: field 'extends' names one ruleset (a built-in name or a file)")
        try:
            parent, _ = self.read(parent_ref, path.parent)
        except MjcalcError as exc:
            if exc.message.startswith(where):
                raise
            raise MjcalcError("ruleset", f"{where}: field 'extends': {exc.message}") from None
        return merge(parent, data), path

    @staticmethod
    def locate(ref: str, relative_to: Path | None) -> Path:
        if not isinstance(ref, str):
            raise MjcalcError("ruleset", f"a ruleset is named by text, not {type(ref).__name__}")
        if ref.endswith((".yaml", ".yml")) or "/" in ref or "\\" in ref or ref.startswith((".", "~")):
            check_path(ref, "ruleset file")
            try:
                path = Path(ref).expanduser()
                if not path.is_absolute() and relative_to is not None and (relative_to / path).exists():
                    path = relative_to / path
                found = path.exists()
            except (OSError, ValueError, RuntimeError) as exc:  # too long a name, no home directory …
                raise MjcalcError("ruleset", Msg("ruleset file {path}: cannot read: {reason}", path=ref[:200],
                                                 reason=getattr(exc, "strerror", None) or str(exc))) from None
            if not found:
                raise MjcalcError("ruleset", Msg("ruleset file not found: {path}", path=ref[:300]))
            return path
        names = builtin_names()
        path = builtin_dir() / f"{ref}.yaml"
        if len(ref) > 64 or not matches(ref, _NAME_FIRST, _NAME_REST) or ref not in names:
            shown = ref if len(ref) <= 64 else f"{ref[:64]}… ({len(ref)} characters)"
            shown = "".join(ch if ch.isprintable() else "?" for ch in shown)
            raise MjcalcError(
                "ruleset",
                Msg("unknown ruleset '{name}'{hint}; built-in: {names} (or give a path to a .yaml file)", name=shown,
                    hint=did_you_mean(ref[:64], names), names=", ".join(names)),
            )
        return path


KEYED_LISTS = ("items", "win_conditions")
UNION_LISTS = ("flags",)


def merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """A child ruleset lists only what differs: mappings merge, id-keyed lists merge by id (``remove: true``
    drops an entry), ``flags`` add to the parent's, anything else replaces."""
    out = dict(parent)
    for key, value in child.items():
        base = parent.get(key)
        if key in KEYED_LISTS and isinstance(base, list) and isinstance(value, list):
            merged = {e.get("id"): dict(e) for e in base if isinstance(e, dict)}
            for entry in value:
                if not isinstance(entry, dict) or "id" not in entry:
                    merged[str(entry)] = entry  # reported by validation
                    continue
                if entry.get("remove"):
                    merged.pop(entry["id"], None)
                elif entry["id"] in merged:
                    merged[entry["id"]] = {**merged[entry["id"]], **entry}
                else:
                    merged[entry["id"]] = dict(entry)
            out[key] = list(merged.values())
        elif key in UNION_LISTS and isinstance(base, list) and isinstance(value, list):
            out[key] = base + [v for v in value if v not in base]
        elif isinstance(base, dict) and isinstance(value, dict):
            out[key] = {**base, **{k: merge(base[k], v) if isinstance(base.get(k), dict) and isinstance(v, dict)
                                   else v for k, v in value.items()}}
        else:
            out[key] = value
    return out


class _Cached:
    """``load_ruleset``: each ruleset read once per process, and so is each broken one (a batch whose every line
    names the same broken file gets the same error at once), at most ``LIMIT`` of each. ``cache_clear()`` forgets
    both."""

    LIMIT = 64

    def __init__(self) -> None:
        # The rulesets loaded, by reference: the engine (compiled) looks a line's up here first, a dictionary
        # look-up instead of a call into this module. Emptied, never
        # replaced (the engine holds it), by cache_clear and when full.
        self.found: dict[str, Ruleset] = {}
        self.broken: dict[str, MjcalcError] = {}

    def __call__(self, ref: str) -> Ruleset:
        rules = self.found.get(ref)
        if rules is not None:
            return rules
        error = self.broken.get(ref)
        if error is None:
            try:
                return remember(self.found, ref, _load_ruleset(ref), self.LIMIT)
            except MjcalcError as exc:
                error = remember(self.broken, ref, exc, self.LIMIT)
        raise MjcalcError(error.kind, error.message, error.column)  # a fresh one: no traceback piles up

    def cache_clear(self) -> None:
        self.found.clear()
        self.broken.clear()


load_ruleset = _Cached()
load_ruleset.__doc__ = "Load a built-in ruleset by name, or a YAML file by path (it may extend a built-in)."


def _load_ruleset(ref: str) -> Ruleset:
    """Load a built-in ruleset by name, or a YAML file by path (it may extend a built-in)."""
    loader = _Loader()
    data, path = loader.read(ref)
    where = where_of(path)
    try:
        rules = _Validator(data, path, tuple(loader.chain)).ruleset()
    except MjcalcError:
        raise
    except (TypeError, AttributeError, ValueError, KeyError, IndexError, StopIteration, RecursionError) as exc:
        # The schema admits only what the checks below can read: this is a gap in the schema, not the user's.
        raise MjcalcError("ruleset", f"{where}: not a valid ruleset ({type(exc).__name__} while checking it; "
                          "rules/SCHEMA.md has the grammar)") from None
    kind = rules.formula.get("kind")
    if kind not in FORMULAS and kind not in SETTLERS:
        known = [*FORMULAS, *SETTLERS]
        raise MjcalcError("ruleset", f"{where}: field 'formula.kind': unknown kind '{str(kind)[:64]}'"
                          f"{did_you_mean(str(kind), known)}; "
                          f"known: {', '.join(known)}")
    needs = FORMULA_NEEDS.get(str(kind), {})
    for param in needs.get("params", ()):
        if param not in rules.formula:
            raise MjcalcError("ruleset", f"{where}: field 'formula.{param}' is missing: kind '{kind}' needs it")
    missing = [name for name in needs.get("options", ()) if name not in rules.options]
    if missing:
        raise MjcalcError("ruleset", f"{where}: field 'formula': kind '{kind}' needs the option"
                          f"{'s' * (len(missing) != 1)} {', '.join(missing)}, which the ruleset does not declare")
    return rules


@lru_cache(maxsize=1)
def builtin_option_names() -> frozenset[str]:
    """Every option some built-in ruleset has: what a config file's ``set:`` may name."""
    return frozenset(name for ruleset in builtin_names() for name in load_ruleset(ruleset).options)


@lru_cache(maxsize=64)
def check_config_options(names: tuple[str, ...], rules_id: str, source: str) -> None:
    """A config file's ``set:`` names options of some ruleset: ``names`` are those the ruleset in use lacks,
    which a built-in one must have; else it is a typo, named with the file and the nearest option."""
    known = builtin_option_names()
    for name in names:
        if name not in known:
            raise MjcalcError("ruleset", Msg("{source}: set: '{name}' is not an option of {ruleset} or of any built-in "
                                             "ruleset{hint}", source=source, name=name[:64], ruleset=rules_id,
                                             hint=did_you_mean(name, sorted(known))))

