"""Which files are game logs: a file named on the command line is read whatever its name (its content says what
it is); in a folder, the files named as logs are (``.mjlog``, ``.xml``, ``.xml.gz``, ``.mjlog.gz``, ``.gz``, and a
``.json`` whose start has tenhou.net/6's keys), in name order, sub-folders included."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

LOG_ENDINGS = (".mjlog", ".xml", ".xml.gz", ".mjlog.gz", ".json.gz")
SNIFF_BYTES = 4096  # a tenhou.net/6 log names its keys ("title", "name", "rule", "log") near its start


def is_log_name(name: str) -> bool:
    """A file name that says "Tenhou log" (a ``.json`` needs its content too: ``looks_like_log``)."""
    low = name.lower()
    return low.endswith(LOG_ENDINGS) or low.endswith(".gz")


def looks_like_log(path: str) -> bool:
    """A ``.json`` file with the shape of a tenhou.net/6 log at its start (any other file: its name decides)."""
    if not path.lower().endswith(".json"):
        return is_log_name(path)
    try:
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError:
        return True  # named as one: reading it says why it cannot be read
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text[:1] == b"{" and (b'"log"' in head or (b'"name"' in head and b'"rule"' in head))


def is_log_file(path: str) -> bool:
    """Whether a file met in a folder is a log to read."""
    return is_log_name(path) or (path.lower().endswith(".json") and looks_like_log(path))


def log_files(paths: Iterable[str]) -> Iterator[str]:
    """The files to read: each path that is a file as it is; each folder's log files, in name order."""
    for path in paths:
        if os.path.isdir(path):
            for folder, subfolders, names in os.walk(path):
                subfolders.sort()
                for name in sorted(names):
                    full = os.path.join(folder, name)
                    if is_log_file(full):
                        yield full
        else:
            yield path


def game_name(path: str) -> str:
    """A game's name from its log's file name: the name without its folder and its endings (``.xml.gz``)."""
    base = os.path.basename(path)
    for ending in (".gz", ".mjlog", ".xml", ".json"):
        if base.lower().endswith(ending) and len(base) > len(ending):
            base = base[: -len(ending)]
    return base[:64].strip() or "log"
