"""``mjcalc batch LOGS… --dask SCHEDULER -o DIR``: the logs shared out over a Dask cluster in groups of about
``size`` bytes, each group read, scored and written by a worker into one output file of its own in DIR
(``logs.00000.jsonl`` …), the groups in the files' order. The client plans the groups and adds up what comes
back; a group that fails is reported with its files, never dropped in silence. Nothing here imports Dask but
``run_dask``: a worker needs only mjcalc.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import MjcalcError
from .batch import RENDERERS, Tally, csv_header, file_records
from .files import log_files

GROUP_BYTES = 8 << 20  # a group: some hundreds of logs, a few seconds of one core


def groups(paths: list[str], size: int) -> Iterator[list[str]]:
    """The log files in order, in groups of about ``size`` bytes (at least one file a group)."""
    group: list[str] = []
    total = 0
    for path in log_files(paths):
        try:
            n = os.path.getsize(path)
        except OSError:
            n = 0  # the worker says why it cannot be read
        if group and total + n > size:
            yield group
            group, total = [], 0
        group.append(os.path.abspath(path) if os.path.exists(path) else path)
        total += n
    if group:
        yield group


def score_group(files: list[str], rules: str | None, options: dict[str, Any], fmt: str, out: str) -> Tally:
    """A worker's task: a group of logs scored and written to ``out`` (under a temporary name until whole)."""
    from .importer import TENHOU_RULES

    tally = Tally()
    render = RENDERERS[fmt]
    temporary = f"{out}.{os.getpid()}.part"
    with open(temporary, "w", encoding="utf-8", errors="backslashreplace") as f:
        if fmt == "csv":
            f.write(csv_header() + "\n")
        for path in files:
            for record in file_records(path, rules or TENHOU_RULES, options, tally):
                f.write(render(record) + "\n")
    os.replace(temporary, out)
    return tally


def run_dask(paths: list[str], scheduler: str, out_dir: str, rules: str | None, options: dict[str, Any],
             fmt: str = "jsonl", size_text: str | None = None,
             say: Callable[[str], None] = print) -> tuple[Tally, list[str]]:
    """Score the logs on a Dask cluster (``local``: one worker process a core here), one output file a group in
    ``out_dir``; the tally of every group written, and a message for each group that failed."""
    if fmt not in ("jsonl", "csv"):
        raise MjcalcError("option", f"--dask writes files of JSON Lines or CSV: --format jsonl or csv, not '{fmt}'")
    from ..batch.dask import NO_DASK, dask_client, parse_size

    try:
        from distributed import as_completed
    except ImportError:
        raise MjcalcError("option", NO_DASK) from None

    size = GROUP_BYTES if size_text is None else parse_size(size_text)
    planned = list(groups(paths, size))
    if not planned:
        raise MjcalcError("context", "no game log among " + ", ".join(paths))
    tally = Tally()
    failures: list[str] = []
    with dask_client(scheduler, out_dir) as client:
        tasks = {}
        target = os.path.abspath(out_dir)
        for index, files in enumerate(planned):
            out = os.path.join(target, f"logs.{index:05d}.{fmt}")
            tasks[client.submit(score_group, files, rules, options, fmt, out, pure=False, retries=1)] = files
        say(f"mjcalc: {sum(map(len, planned)):,} log files in {len(planned):,} group"
            f"{'s' * (len(planned) != 1)} on {scheduler}")
        for future in as_completed(list(tasks)):
            files = tasks.pop(future)
            if future.status == "finished":
                tally.add(future.result())
            else:
                failures.append(f"{files[0]} … ({len(files)} files): not scored: {future.exception()}")
    return tally, failures
