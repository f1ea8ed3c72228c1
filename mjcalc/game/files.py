"""Record files: a file holds one game or several, each starting at its header (``game …`` or ``{"game": …}``), in
the text form or GAME.md's JSON Lines. ``replay_files`` replays every game of every file into its sheet: what
``mjcalc game replay FILE…`` does; a line that cannot be read or applied is reported ``FILE:LINE: message`` (with
the line and a caret) and every other line still replayed.

``python -m mjcalc.game replay FILE…`` runs it (one JSON sheet a line on standard output).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import BinaryIO, TextIO

from .game import Game
from .hands import EXIT_BAD_INPUT
from .errors import GameError
from .text import GAME


def is_header_line(line: str) -> bool:
    """Whether a line starts a game: ``game …`` (``对局 …``) or a JSON object whose key is ``game``."""
    text = line.lstrip()
    if text.startswith("{"):
        return text[1:].lstrip().startswith('"game"')
    word = text.split(None, 1)[0].lower() if text else ""
    return word in GAME


def split_games(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    """The games of a file: each its first line's number and its lines (comments and blank lines before the first
    header go with it)."""
    chunk: list[str] = []
    start = 1
    seen_header = False
    for number, line in enumerate(lines, 1):
        if is_header_line(line):
            if seen_header:
                yield start, chunk
                chunk, start = [], number
            seen_header = True
        chunk.append(line.rstrip("\n"))
    if chunk:
        yield start, chunk


def games_of(text: str) -> Iterator[Game | GameError]:
    """Each game of a file's text replayed (its bad lines in ``errors``), or, for a header that cannot be read, its
    GameError and one for each result under it (none of them can be applied)."""
    for start, lines in split_games(text.splitlines()):
        if not any(line.strip() and not line.lstrip().startswith("#") for line in lines):
            continue
        if not any(is_header_line(line) for line in lines):
            for number, line in enumerate(lines, start):
                if line.strip() and not line.lstrip().startswith("#"):
                    yield GameError("a result before any game's header line (game RULES P1 P2 P3 P4, or "
                                    '{"game": {...}})', line=number)
            continue
        skip = 0  # results written before the file's first header: no game to apply them to
        while not is_header_line(lines[skip]):
            if lines[skip].strip() and not lines[skip].lstrip().startswith("#"):
                yield GameError("a result before the game's header line", line=start + skip)
            skip += 1
        start, lines = start + skip, lines[skip:]
        try:
            yield Game.from_record(lines, errors="skip", first_line=start)
        except GameError as exc:
            yield exc
            header = exc.line if exc.line is not None else start
            for number, line in enumerate(lines, start):
                if number > header and line.strip() and not line.lstrip().startswith("#"):
                    yield GameError(f"not replayed: the game's header (line {header}) is in error", line=number)


def replay_files(paths: Iterable[str], out: BinaryIO, err: TextIO) -> int:
    """Replay every game of every file: one sheet a line (GAME.md's JSON) on ``out``, each bad line
    ``FILE:LINE: message`` on ``err``. The exit code: 0, or 2 when a line was bad (every other line replayed)."""
    code = 0
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            err.write(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}\n")
            code = EXIT_BAD_INPUT
            continue
        for found in games_of(text):
            if isinstance(found, GameError):
                err.write(found.render(file=path) + "\n")
                code = EXIT_BAD_INPUT
                continue
            for error in found.errors:
                err.write(error.render(file=path) + "\n")
                code = EXIT_BAD_INPUT
            out.write(found.sheet().json_bytes() + b"\n")
    return code


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] != "replay":
        sys.stderr.write("usage: python -m mjcalc.game replay FILE…\n")
        return EXIT_BAD_INPUT
    import gc

    # as a batch runs (mjcalc.cli): what is loaded set aside from the collector, the youngest generation collected
    # less often; cycles made while replaying are still collected
    gc.enable()
    gc.freeze()
    gc.set_threshold(20_000, *gc.get_threshold()[1:])
    return replay_files(argv[1:], sys.stdout.buffer, sys.stderr)
