"""Game logs of online play — Tenhou's mjlog XML (plain or gzip) and tenhou.net/6 JSON — read into one
neutral record (model.py), each win written back as a line of mjcalc's notation and each game as GAME.md's
JSON Lines game record (record.py). Standard library only; nothing here scores a hand.

>>> read_log('{"name": ["A", "B", "C", "D"], "rule": {"disp": "般南喰赤", "aka": 1}, "log": []}')
Traceback (most recent call last):
...
mjcalc.logs.model.LogError: <log>: log: no hand at all
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from .model import Draw, Game, Hand, LogError, LogScore, Meld, Rules, Win
from .record import game_record, win_line
from .tenhou_json import read_json
from .tenhou_xml import read_xml

__all__ = [
    "Draw",
    "Game",
    "Hand",
    "LogError",
    "LogScore",
    "Meld",
    "Rules",
    "Win",
    "game_record",
    "read_json",
    "read_log",
    "read_path",
    "read_xml",
    "win_line",
]


def read_log(data: bytes | str, source: str = "<log>") -> Game:
    """A log's bytes or text: gzip is undone, then its first character tells XML (``<``) from JSON (``{``)."""
    if isinstance(data, bytes):
        if data[:2] == b"\x1f\x8b":
            try:
                data = gzip.decompress(data)
            except (OSError, EOFError, zlib.error) as e:
                raise LogError(f"{source}: the gzip data is damaged or cut short ({e})") from None
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise LogError(f"{source}: byte {e.start}: not UTF-8 text") from None
    else:
        text = data
    head = text.lstrip()[:1]
    if head == "<":
        return read_xml(text, source)
    if head == "{":
        return read_json(text, source)
    raise LogError(f"{source}: neither a Tenhou mjlog (XML) nor a tenhou.net/6 log (JSON)")


def read_path(path: str | Path) -> Game:
    """A log file by its path; its name is the source every message names."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise LogError(f"{p}: cannot be read ({e.strerror})") from None
    return read_log(data, str(p))
