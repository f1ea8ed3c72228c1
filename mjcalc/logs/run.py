"""Many logs imported in a row (``mjcalc game import LOG…``): each read, replayed and written out — its sheet as a
line of JSON or as text — one after the other, or on several processes (``jobs``), the output in the logs' order
either way. Memory stays flat in the number of logs: a log is dropped once written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .importer import TENHOU_RULES, import_path, record_jsonl
from .model import LogError


class Done:
    """One log done: its path; the message if it could not be imported; its output (a JSON line, or text); the
    record to keep (when asked); whether it agrees with the log."""

    __slots__ = ("agrees", "error", "output", "path", "rows")

    def __init__(self, path: str, error: str | None, output: bytes | str, rows: list[dict[str, Any]] | None,
                 agrees: bool) -> None:
        self.path = path
        self.error = error
        self.output = output
        self.rows = rows
        self.agrees = agrees


Task = tuple[str, str, dict[str, Any], bool, str, "int | None", bool]


def import_one(task: Task) -> Done:
    """A worker's task: one log imported and written (JSON, or text in ``lang`` fitted to ``width``)."""
    path, rules, options, json_out, lang, width, keep = task
    try:
        imported = import_path(path, rules, options)
    except LogError as exc:
        return Done(path, str(exc), b"", None, False)
    if json_out:
        output: bytes | str = imported.json_bytes()
    else:
        from .report import import_text

        output = import_text(imported, lang, width)
    return Done(path, None, output, record_jsonl(imported) if keep else None, imported.agrees)


def import_many(paths: Iterable[str], rules: str | None = None, options: dict[str, Any] | None = None, *,
                json_out: bool = False, lang: str = "en", width: int | None = None, keep: bool = False,
                jobs: int = 1) -> Iterator[Done]:
    """Each log imported, in order. The rules and options are checked first (MjcalcError)."""
    from ..game import game_rules

    chosen = rules or TENHOU_RULES
    game_rules(chosen, dict(options or {}))  # a wrong ruleset or option: said once, before any log is read
    tasks = ((path, chosen, dict(options or {}), json_out, lang, width, keep) for path in paths)
    if jobs <= 1:
        for task in tasks:
            yield import_one(task)
        return
    import multiprocessing
    import threading

    context = multiprocessing.get_context("spawn" if threading.active_count() > 1 else None)
    with context.Pool(jobs) as pool:
        yield from pool.imap(import_one, tasks, chunksize=4)
