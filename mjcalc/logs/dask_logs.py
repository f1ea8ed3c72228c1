"""``mjcalc batch LOGS… --dask SCHEDULER -o DIR``: the logs shared out over a Dask cluster in groups of about
``size`` bytes, each group read, scored and written by a worker into one output file of its own in DIR
(``logs.00000.jsonl`` …), the groups in the files' order. The client plans the groups and adds up what comes
back; a group that fails is reported with its files, never dropped in silence. Nothing here imports Dask but
``run_dask``: a worker needs only mjcalc.
"""

from __future__ import annotations

import os
import tempfile
import time
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
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise MjcalcError("option", "--dask needs Dask, which is not installed: pip install 'mjcalc[dask]' "
                                    "(on this machine and on every worker)") from None
    from ..batch.dask import parse_size
    from ..batch.parallel import usable_cpus

    size = GROUP_BYTES if size_text is None else parse_size(size_text)
    planned = list(groups(paths, size))
    if not planned:
        raise MjcalcError("context", "no game log among " + ", ".join(paths))
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise MjcalcError("option", f"cannot write {out_dir}: {exc.strerror or exc}") from None
    tally = Tally()
    failures: list[str] = []
    cluster = None
    scratch = tempfile.TemporaryDirectory(prefix="mjcalc-dask-")
    start = time.perf_counter()
    try:
        if scheduler == "local":
            import logging

            cluster = LocalCluster(n_workers=usable_cpus(), threads_per_worker=1, processes=True,
                                   dashboard_address=None, silence_logs=logging.CRITICAL,
                                   local_directory=scratch.name)
            client = Client(cluster)
        else:
            try:
                client = Client(scheduler, timeout="20s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise MjcalcError("option", f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        with client:
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
    finally:
        if cluster is not None:
            cluster.close()
        scratch.cleanup()
    del start
    return tally, failures
