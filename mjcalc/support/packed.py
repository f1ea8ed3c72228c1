"""The built-in rulesets' data packed as JSON at build time, so that a command starts without PyYAML.

``pip install .`` (setup.py) writes beside each shipped ``rules/<name>.yaml`` a ``<name>.json`` holding the
very data that a safe YAML load of that file gives, and the CRC-32 of the YAML's bytes. ``yamlfile.load_trusted``
reads the JSON when it is there and its CRC is that of the YAML beside it (a YAML edited after the build is
read as YAML); else the YAML. JSON holds data only (no tags, no code), and only files shipped with mjcalc
are ever read this way: a ruleset file a user names is always read by ``yamlfile.load``, with its limits.
Importing PyYAML costs a command more than reading every ruleset it needs (benchmarks/bench_startup.py).

A file is packed only when JSON gives back exactly the same values, of the same types (a mapping with
number keys, a date or a NaN would not be: such a file is shipped as YAML only). tests/test_startup.py holds
every built-in ruleset to that, and an installed package's JSON files to their YAML.

No imports from the package: setup.py loads this file by its path, before the package is importable.
"""

from __future__ import annotations

import json
import zlib
from typing import Any


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (``1 == 1.0 == True`` in Python, not here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(k, j) and same(a[k], b[j]) for k, j in zip(a, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


PAIRS = "(pairs)"  # a mapping whose keys are not all text (YAML's ``{true: 2, false: 1}``): {PAIRS: [[k, v], …]}


def _tagged(data: Any) -> Any:
    if isinstance(data, dict):
        if all(isinstance(key, str) for key in data):
            return {key: _tagged(value) for key, value in data.items()}
        return {PAIRS: [[key, _tagged(value)] for key, value in data.items()]}
    if isinstance(data, list):
        return [_tagged(value) for value in data]
    return data


def _untagged(mapping: dict[str, Any]) -> Any:
    if PAIRS in mapping and len(mapping) == 1:
        return {key: value for key, value in mapping[PAIRS]}
    return mapping


def pack(raw: bytes, data: Any) -> str | None:
    """The JSON text for a YAML file of bytes ``raw`` whose safe load is ``data``; None when JSON cannot
    give ``data`` back exactly."""
    try:
        text = json.dumps({"yaml_crc32": zlib.crc32(raw), "data": _tagged(data)}, ensure_ascii=False,
                          allow_nan=False, separators=(",", ":"))
        back = json.loads(text, object_hook=_untagged)["data"]
    except (TypeError, ValueError):
        return None
    return text if same(back, data) else None


def unpack(text: str, raw: bytes) -> Any | None:
    """The data of a packed file (``pack``) when it was made from the YAML bytes ``raw``; else None."""
    try:
        packed = json.loads(text, object_hook=_untagged)
    except (ValueError, TypeError):
        return None
    if not isinstance(packed, dict) or packed.get("yaml_crc32") != zlib.crc32(raw) or "data" not in packed:
        return None
    return packed["data"]
