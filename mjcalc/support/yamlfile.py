"""Reading a small YAML file that a user names (a ruleset, ``extends:``, the config file) without trusting it.

Before a byte is read the path must be a regular file (not a device such as /dev/zero, a FIFO or a
directory) no larger than ``MAX_FILE_BYTES``; it is opened without blocking and at most that many bytes
(plus one) are read, whatever the file claims. Text is UTF-8 (a UTF-8 or UTF-16 byte-order mark is
honoured). The YAML is read by ``yaml.SafeLoader`` (no tags that run code) with these limits, each with a
message of its own: no aliases (``*name``: a "billion laughs" cannot expand), nesting at most
``MAX_DEPTH`` deep, at most ``MAX_NODES`` values in all and ``MAX_ENTRIES`` in one list or mapping, no key
given twice in one mapping, no number longer than ``MAX_NUMBER_DIGITS`` digits.

An error names the file and, for a YAML error, the line and column; it never quotes the file's content,
which may not be a ruleset at all (``--rules /etc/shadow``).
"""

from __future__ import annotations

import codecs
import os
import stat
from functools import lru_cache
from typing import Any

from ..errors import MjcalcError
from ..i18n import N_, Msg
from .packed import unpack

MAX_FILE_BYTES = 1_000_000  # 1 MB: the largest built-in ruleset is about 20 kB
MAX_DEPTH = 32  # mappings and lists inside one another; the built-in rulesets need about 12
MAX_NUMBER_DIGITS = 12  # an integer literal; every number of the grammar is far smaller (rules/SCHEMA.md)
MAX_NODES = 20_000  # values (numbers, words, lists, mappings) in one file; the largest built-in has about 2,000
MAX_ENTRIES = 1_000  # entries of one list, or keys of one mapping
MAX_PATH_BYTES = 4096


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return Msg("a directory")
    if stat.S_ISFIFO(mode):
        return Msg("a FIFO (named pipe)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return Msg("a device")
    if stat.S_ISSOCK(mode):
        return Msg("a socket")
    return Msg("not a regular file")


_KINDS = {"ruleset": N_("ruleset"), "config file": N_("config file")}  # what a file should be, in words


def _kind(kind: str) -> str:
    return Msg(_KINDS[kind]) if kind in _KINDS else kind


def check_path(path: str, what: str) -> None:
    """A path a user gave: not empty, no NUL, not absurdly long (the OS would refuse it, in its own way)."""
    if not path:
        raise MjcalcError("ruleset", Msg("{what}: an empty file name", what=what))
    if "\x00" in path:
        raise MjcalcError("ruleset", Msg("{what}: a file name cannot hold a NUL character", what=what))
    if len(os.fsencode(path)) > MAX_PATH_BYTES:
        raise MjcalcError("ruleset", Msg("{what}: a file name of over {most} bytes", what=what, most=MAX_PATH_BYTES))


def read_bytes(path: str, what: str, limit: int = MAX_FILE_BYTES, kind: str = "ruleset") -> bytes:
    """The file's bytes, once it is known to be a regular file of at most ``limit`` bytes. ``what`` names
    the file in messages (its path, or "config file PATH")."""
    check_path(path, what)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise MjcalcError("ruleset", Msg("{what}: no such file", what=what)) from None
    except (OSError, ValueError) as exc:
        raise MjcalcError("ruleset", Msg("{what}: cannot read: {reason}", what=what,
                                         reason=getattr(exc, "strerror", None) or str(exc))) from None
    if not stat.S_ISREG(info.st_mode):
        raise MjcalcError("ruleset", Msg("{what}: not a {kind}: {found}, not a regular file", what=what,
                                         kind=_kind(kind), found=_kind_of(info.st_mode)))
    if info.st_size > limit:
        raise MjcalcError("ruleset", Msg("{what}: too large ({size:,} bytes; at most {most:,})", what=what,
                                         size=info.st_size, most=limit))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise MjcalcError("ruleset", Msg("{what}: cannot read: {reason}", what=what, reason=exc.strerror)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # replaced between the two looks
            raise MjcalcError("ruleset", Msg("{what}: not a {kind}: not a regular file", what=what, kind=_kind(kind)))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise MjcalcError("ruleset", Msg("{what}: cannot read: {reason}", what=what, reason=exc.strerror)) from None
    finally:
        os.close(fd)
    if size > limit:
        raise MjcalcError("ruleset", Msg("{what}: too large (over {most:,} bytes)", what=what, most=limit))
    return b"".join(chunks)


def decode(data: bytes, what: str, kind: str = "ruleset") -> str:
    """UTF-8 text; a byte-order mark selects UTF-8 or UTF-16. No content is quoted on failure."""
    if data.startswith(codecs.BOM_UTF8):
        encoding, data = "utf-8", data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    else:
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise MjcalcError("ruleset", Msg("{what}: not a {kind}: not {encoding} text (a byte that is not, at offset "
                                         "{offset})", what=what, kind=_kind(kind), encoding=encoding.upper(),
                                         offset=exc.start)) from None
    if "\x00" in text:
        raise MjcalcError("ruleset", Msg("{what}: not a {kind}: binary data (a NUL character)", what=what,
                                         kind=_kind(kind)))
    return text


@lru_cache(maxsize=1)
def _loaders() -> tuple[Any, Any]:
    """PyYAML's safe loader (libyaml's where PyYAML was built with it) and the limited one built on it, made
    when a YAML file is first read: a command that reads none starts without PyYAML."""
    import yaml

    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Limited(base):  # type: ignore[misc, valid-type]
        """A safe loader (no tags that build objects) with the limits of this module's doc; ``_scan`` first."""

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if isinstance(node, yaml.MappingNode):
                seen: set[Any] = set()
                for key_node, _ in node.value:
                    key = self.construct_object(key_node, deep=True)
                    try:
                        duplicate = key in seen
                        seen.add(key)
                    except TypeError:
                        raise yaml.constructor.ConstructorError(None, None, "a key that is a list or a mapping",
                                                                key_node.start_mark) from None
                    if duplicate:
                        raise yaml.constructor.ConstructorError(None, None, "a key given twice in one mapping",
                                                                key_node.start_mark)
            return super().construct_mapping(node, deep)

        def construct_yaml_int(self, node: Any) -> Any:
            digits = sum(ch.isalnum() for ch in str(node.value))
            if digits > MAX_NUMBER_DIGITS:
                raise yaml.constructor.ConstructorError(None, None, f"a number of {digits} digits (at most "
                                                        f"{MAX_NUMBER_DIGITS})", node.start_mark)
            return super().construct_yaml_int(node)

        def construct_yaml_float(self, node: Any) -> Any:
            if len(str(node.value)) > 40:
                raise yaml.constructor.ConstructorError(None, None, "a number of over 40 characters",
                                                        node.start_mark)
            return super().construct_yaml_float(node)

    Limited.add_constructor("tag:yaml.org,2002:int", Limited.construct_yaml_int)
    Limited.add_constructor("tag:yaml.org,2002:float", Limited.construct_yaml_float)
    return base, Limited


def _scan(text: str) -> None:
    """Refuse aliases, deep nesting and too many values from the stream of events, before any node is built
    (so that what follows — building, the schema's check — has a bounded amount to do)."""
    import yaml

    children: list[int] = []  # values so far in each open list, or keys and values in each open mapping
    per_entry: list[int] = []  # 1 for a list, 2 for a mapping
    nodes = 0
    for event in yaml.parse(text, Loader=_loaders()[0]):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "YAML aliases (*name) are not allowed here: write the "
                                              "value out", event.start_mark)
        if isinstance(event, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            nodes += 1
            if nodes > MAX_NODES:
                raise yaml.composer.ComposerError(None, None, f"more than {MAX_NODES:,} values in one file",
                                                  event.start_mark)
            if children:
                children[-1] += 1
                if children[-1] > per_entry[-1] * MAX_ENTRIES:
                    raise yaml.composer.ComposerError(None, None, f"a list or mapping of more than {MAX_ENTRIES:,} "
                                                      "entries", event.start_mark)
            if not isinstance(event, yaml.ScalarEvent):
                children.append(0)
                per_entry.append(2 if isinstance(event, yaml.MappingStartEvent) else 1)
                if len(children) > MAX_DEPTH:
                    raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_DEPTH} deep",
                                                      event.start_mark)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            children.pop()
            per_entry.pop()


def parse(text: str, what: str) -> Any:
    """The YAML document in ``text``, within the limits; a mistake names the line and column only."""
    import yaml

    try:
        _scan(text)
        return yaml.load(text, Loader=_loaders()[1])  # a safe loader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or ""
        if "%" in problem or "'" in problem or '"' in problem:  # PyYAML quotes the file's characters there
            problem = problem.split("'")[0].split('"')[0].strip().rstrip(":")
        if mark and problem:  # PyYAML's own words for the problem stay English
            return _fail(Msg("{what}: line {line}, column {column}: not valid YAML: {problem}", what=what,
                             line=mark.line + 1, column=mark.column + 1, problem=problem))
        if mark:
            return _fail(Msg("{what}: line {line}, column {column}: not valid YAML", what=what, line=mark.line + 1,
                             column=mark.column + 1))
        return _fail(Msg("{what}: not valid YAML: {problem}", what=what, problem=problem) if problem
                     else Msg("{what}: not valid YAML", what=what))
    except yaml.YAMLError:
        return _fail(Msg("{what}: not valid YAML", what=what))
    except (ValueError, RecursionError, MemoryError, OverflowError):  # values PyYAML itself cannot build
        return _fail(Msg("{what}: not valid YAML (a value that cannot be read)", what=what))


def _fail(message: str) -> Any:
    raise MjcalcError("ruleset", message)


def load(path: str, what: str, limit: int = MAX_FILE_BYTES, kind: str = "ruleset") -> Any:
    """``read_bytes``, ``decode`` and ``parse`` in one; ``kind`` is what the file should be, for messages."""
    return parse(decode(read_bytes(path, what, limit, kind), what, kind), what)


def load_trusted(path: str) -> Any:
    """A file shipped with mjcalc (a built-in ruleset): read as it is, from the JSON packed from it at build
    time when there is one (``packed``: the same data, without importing PyYAML), else with libyaml where
    there is one. The test suite holds each to the limits and the schema (tests/test_ruleset_hostile.py)."""
    with open(path, "rb") as f:
        raw = f.read()
    root, _ = os.path.splitext(path)
    try:
        with open(root + ".json", encoding="utf-8") as f:
            packed = f.read()
    except OSError:
        packed = None
    if packed is not None:
        data = unpack(packed, raw)
        if data is not None:
            return data
    import yaml

    return yaml.load(raw.decode("utf-8"), Loader=_loaders()[0])  # a safe loader
