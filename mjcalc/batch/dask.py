"""Batches beyond one machine, on Dask: ``mjcalc batch FILES… --dask SCHEDULER -o DIR`` (the optional extra,
``pip install 'mjcalc[dask]'``).

The files are cut into partitions at line ends (a UTF-8 file of lines, CSV or JSON Lines; a YAML or UTF-16
file is one partition); each partition is read, scored and written by a worker, into one output file of
its own in DIR, every record with its input file and line. The client only plans the partitions and
counts what comes back: a partition must give exactly one record per input record, and one that fails or
falls short is reported with its file and line range, never dropped in silence.

Nothing here imports Dask but ``run``: a worker only needs mjcalc itself, and ``mjcalc`` without ``--dask``
never loads it.
"""

from __future__ import annotations

import glob
import json
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from ..engine import Request, checked_request
from ..errors import MjcalcError
from ..output.jsonl import json_line
from .lines import LineSource, Record
from .parallel import FileRecords, _Range, _ranges, _score_range, usable_cpus
from .readers import detect_format, file_problem, read_records
from .work import Summary, _one
from .writers import CSV_COLUMNS, RENDERERS, _csv_row

PARTITION_BYTES = 8 << 20  # a partition: about 150,000 hand lines, a minute or so of one core
OUTPUT_FORMATS = ("jsonl", "csv")
INSTALL_HINT = "pip install 'mjcalc[dask]' (dask and distributed), on this machine and on every worker"
NO_DASK = "--dask needs Dask, which is not installed: " + INSTALL_HINT


@dataclass
class Partition:
    """One task: lines ``first`` to ``last`` of ``file`` (``last`` None: the whole file, read as one
    process reads it), and the output file it is written to."""

    file: str  # as given (in the records and the messages)
    path: str  # absolute: where a worker opens it
    index: int  # the partition's number in its file, from 0
    output: str  # the output file's name in DIR
    part: _Range | None  # None: the file is read whole (YAML, UTF-16 …)
    fmt: str = "auto"

    @property
    def expected(self) -> int | None:
        """How many records the partition must give: one a line (the CSV header excepted)."""
        if self.part is None:
            return None
        header = self.part.plan.header
        inside = header is not None and self.part.first <= header.number <= self.part.last
        return self.part.last - self.part.first + 1 - inside

    def where(self) -> str:
        if self.part is None:
            return f"{self.file} (the whole file)"
        return f"{self.file} lines {self.part.first:,}–{self.part.last:,}"


@dataclass
class Written:
    """What a worker did with a partition: the records it wrote, by kind, and the last one's line."""

    counts: dict[str, int]
    last_line: int
    stopped: str | None  # the input could not be read to the partition's end
    seconds: float

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def expand(patterns: list[str]) -> list[str]:
    """The files the arguments name, in order, each once: a glob (``logs/*.jsonl``) is expanded, sorted."""
    files: list[str] = []
    for pattern in patterns:
        found = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if pattern == "-":
            raise MjcalcError("option", "--dask reads files (the workers open them), not standard input")
        if not found:
            raise MjcalcError("context", f"no file matches {pattern}")
        for name in found:
            if not os.path.isfile(name):
                raise MjcalcError("context", f"cannot read {name}: " + (
                    "Is a directory" if os.path.isdir(name) else "No such file"))
            if name not in files:
                files.append(name)
    return files


def partitions(patterns: list[str], input_format: str = "auto", ext: str = "jsonl",
               size: int = PARTITION_BYTES) -> Iterator[Partition]:
    """The files the paths and globs name, each cut into partitions of about ``size`` bytes at line ends, as
    the run goes (``ext``: of the output files' names)."""
    stems: dict[str, int] = {}
    for number, name in enumerate(expand(patterns)):
        base = os.path.basename(name)
        stem = base if base not in stems else f"{base}~{number}"  # two files of one name in different folders
        stems[stem] = number
        path = os.path.abspath(name)
        fmt = detect_format(name, input_format)
        try:
            with open(path, "rb") as f:
                plan = FileRecords(path, LineSource(f), fmt).plan()
        except OSError as exc:
            raise MjcalcError("context", f"cannot read {name}: {exc.strerror or exc}") from None
        if plan is None:
            yield Partition(name, path, 0, f"{stem}.00000.{ext}", None, fmt)
            continue
        for index, part in enumerate(_ranges(plan, size)):
            yield Partition(name, path, index, f"{stem}.{index:05d}.{ext}", part, plan.fmt)


# The scoring is CPU-bound Python (a worker's threads would only take turns) and its writers reuse buffers:
# a worker process scores one partition at a time, whatever its number of threads.
_ONE_AT_A_TIME = threading.Lock()


@dataclass(frozen=True)
class _Tagged:
    """A renderer whose every record also names its input file (the first key, or the first column)."""

    file: str
    fmt: str

    def __call__(self, record: Record, res: Any) -> str:
        text = RENDERERS[self.fmt](record, res)
        if self.fmt == "csv":
            return _csv_row([self.file]) + "," + text
        return '{"file":' + json_line(self.file) + "," + text[1:]


def csv_header() -> str:
    return _csv_row(("file", *CSV_COLUMNS))


def _scored(partition: Partition, base: Request, output_format: str) -> tuple[str, dict[str, int], int, str | None]:
    """A partition's records scored: their texts joined by line ends, their kinds counted, the last one's line,
    and why the input could not be read to the end."""
    render = _Tagged(partition.file, output_format)
    request = base.in_folder(os.path.dirname(partition.path))  # +rules=house.yaml beside it
    if partition.part is not None:
        done = _score_range(partition.part, request, render)
        return cast(str, done.text), done.counts, done.last_line, done.stopped  # text: _Tagged gives text
    texts: list[str] = []
    counts: dict[str, int] = {}
    last = 0
    try:
        with open(partition.path, "rb") as f:
            source = LineSource(f)
            for record in read_records(source, partition.fmt):
                kind, one = _one(record, request, render)
                texts.append(one)
                counts[kind] = counts.get(kind, 0) + 1
                last = record.line
    except OSError as exc:
        return "\n".join(texts), counts, last, f"cannot read {partition.file}: {exc.strerror or exc}"
    return "\n".join(texts), counts, last, source.stopped


def records(partition: Partition, rules: str | None = None, options: Mapping[str, Any] | None = None
            ) -> list[dict[str, Any]]:
    """A partition's records as ``mjcalc.score_many`` gives them (the objects of docs/OUTPUT.md with ``line``),
    each with its ``file``: what a ``dask.bag`` of ``partitions(…)`` maps (the README's recipe). ``rules`` and
    ``options`` as for ``mjcalc.score_many`` (a mistake raises ``mjcalc.RulesetError``)."""
    with _ONE_AT_A_TIME:
        text, _, _, stopped = _scored(partition, checked_request(rules, options), "jsonl")
    if stopped:
        raise MjcalcError("context", f"{partition.where()}: {stopped}")
    return [json.loads(line) for line in text.split("\n")] if text else []


def score_partition(partition: Partition, base: Request, output_format: str, out_dir: str) -> Written:
    """A worker's task: the partition read, scored and written into ``out_dir`` (under a temporary name until
    it is whole, so a file there is always a whole partition)."""
    start = time.perf_counter()
    with _ONE_AT_A_TIME:
        text, counts, last, stopped = _scored(partition, base, output_format)
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, partition.output)
    temporary = f"{target}.{os.getpid()}.part"
    with open(temporary, "wb") as out:
        if output_format == "csv":
            out.write((csv_header() + "\n").encode("utf-8"))
        if text:
            out.write((text + "\n").encode("utf-8", "backslashreplace"))
    os.replace(temporary, target)
    return Written(counts, last, stopped, time.perf_counter() - start)


def account(partition: Partition, outcome: Written | BaseException, summary: Summary) -> str | None:
    """A partition's outcome counted into the summary; what went wrong with it, if anything: it was not scored
    (the exception), or its input could not be read to the end, or it gave another number of records than
    it has lines."""
    if isinstance(outcome, BaseException):
        return f"{partition.where()}: not scored: {type(outcome).__name__}: {outcome}"
    for kind, n in outcome.counts.items():
        summary.counts[kind] = summary.counts.get(kind, 0) + n
    expected = partition.expected
    if outcome.stopped or (expected is not None and outcome.total != expected):
        why = outcome.stopped or "a record is missing"
        of = f" of {expected:,}" if expected is not None else ""
        return f"{partition.where()}: {outcome.total:,}{of} records written to {partition.output}: {why}"
    return None


def parse_size(text: str) -> int:
    """A size in bytes: ``65536``, ``64KiB``, ``8MiB``, ``1GiB`` (KB, MB, GB and K, M, G alike, powers of 1,024).

    >>> parse_size("64KiB"), parse_size("8M"), parse_size("1000")
    (65536, 8388608, 1000)
    """
    import re

    found = re.fullmatch(r"\s*(\d+)\s*([kmg]?)(?:i?b)?\s*", text, re.IGNORECASE)
    if found is None or int(found.group(1)) == 0:
        raise MjcalcError("option", f"--partition-size is a size such as 8MiB or 65536, not '{text}'")
    return int(found.group(1)) << {"": 0, "k": 10, "m": 20, "g": 30}[found.group(2).lower()]


def run(patterns: list[str], scheduler: str, out_dir: str, base: Request, input_format: str = "auto",
        output_format: str = "jsonl", say: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
        size: int = PARTITION_BYTES) -> tuple[Summary, list[str]]:
    """Score the files on a Dask cluster (``scheduler``: its address, or ``local`` for a LocalCluster of one
    worker process a core here), one output file a partition in ``out_dir``. The summary of every record
    written, and a message for each partition that failed or fell short."""
    try:
        from distributed import as_completed
    except ImportError:
        raise MjcalcError("option", NO_DASK) from None

    files = expand(patterns)  # a wrong name stops here, before a cluster is started

    for name in files:  # so does a file no record of which can be read (a CSV header without a hand column)
        problem = file_problem(os.path.abspath(name), detect_format(name, input_format))
        if problem is not None:
            raise MjcalcError("record", f"{name}: {problem}")
    summary = Summary()
    failures: list[str] = []
    start = time.perf_counter()
    try:
        with dask_client(scheduler, out_dir) as client:
            tasks = {}
            for partition in partitions(files, input_format, output_format, size):
                future = client.submit(score_partition, partition, base, output_format, os.path.abspath(out_dir),
                                       pure=False, retries=1)
                tasks[future] = partition
            say(f"mjcalc: {len(files):,} file{'s' * (len(files) != 1)} in {len(tasks):,} partition"
                f"{'s' * (len(tasks) != 1)} on {scheduler}")
            for future in as_completed(list(tasks)):
                partition = tasks.pop(future)
                outcome = future.result() if future.status == "finished" else future.exception()
                failure = account(partition, outcome, summary)
                if failure is not None:
                    failures.append(failure)
    finally:
        summary.seconds = time.perf_counter() - start
    return summary, failures


@contextmanager
def dask_client(scheduler: str, out_dir: str) -> Iterator[Any]:
    """A Dask client on ``scheduler`` (``local``: a cluster of one worker process a core here, its scratch files
    removed after), ``out_dir`` made first; MjcalcError for a folder that cannot be made or a scheduler out of
    reach. The caller has checked that distributed is installed."""
    from distributed import Client, LocalCluster

    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as exc:
        raise MjcalcError("option", f"cannot write {out_dir}: {exc.strerror or exc}") from None
    cluster = None
    scratch = tempfile.TemporaryDirectory(prefix="mjcalc-dask-")  # the local workers' own files, removed after
    try:
        if scheduler == "local":
            # Only distributed's critical logs reach the terminal: a part that fails is reported by the caller in
            # mjcalc's own words, and a busy machine makes a worker log a missed heartbeat as an error, traceback
            # and all, though the work goes on and every record is still written.
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
            yield client
    finally:
        if cluster is not None:
            cluster.close()
        scratch.cleanup()
