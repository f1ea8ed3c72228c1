"""A file split between worker processes (``--jobs``): each worker reads, scores and renders its own byte
ranges of the file, cut at line ends, and the parent writes the ranges' output in order. Whatever the file
holds, the output is the one-process output byte for byte."""

from __future__ import annotations

import codecs
import io
import json
import random
import sys
import threading
from pathlib import Path

import pytest

from mjcalc.batch import forked, parallel
from mjcalc.batch import run as run_module
from mjcalc.batch.lines import LineSource
from mjcalc.batch.parallel import FileRecords
from mjcalc.batch.readers import read_records
from mjcalc.batch.run import run
from mjcalc.batch.work import Summary
from mjcalc.batch.writers import RENDERERS
from mjcalc.engine import Request

WIN = "123m456p789s111z22z +zimo +seat=E"
LINES = [WIN, "123m456m789m111z22z", "123m456p789s111z2z", "456p23s55z777z [123m] 1s +from=W",
         "123m456p789s11111z", "[[[", "你好 +rules=riichi", "123m456p789s111z22z +rules=nosuch", "", "   ",
         "# a comment", "\u3000", '{"hand": "x"}', f"{WIN} => fan 5", f"{WIN}\r", "123m456p789s111z22z +rules=riichi"]


def _lines_file(rng: random.Random, n: int) -> bytes:
    out = []
    for i in range(n):
        if i % 97 == 13:
            out.append(b"123m\xff\xfe456p")  # not UTF-8
        elif i % 211 == 5:
            out.append(b"1m" * 3000)  # a long line, over several ranges
        else:
            out.append(rng.choice(LINES).encode())
    return b"\n".join(out)  # no line end after the last line


def _csv_file(rng: random.Random, n: int) -> bytes:
    rows = ["", "  ", "hand,rules,base"]  # blank lines before the header
    for i in range(n):
        rows.append(rng.choice([f"{WIN},,2", f'"{WIN}",riichi,', "123m,,", f"{WIN},,x", '"unclosed,,', "",
                                f"{WIN},changchun,1,extra", "# not a comment in CSV,,"]) if i % 50 else "\udce9,,")
    return "\n".join(rows).encode("utf-8", "surrogateescape") + b"\n"


def _jsonl_file(rng: random.Random, n: int) -> bytes:
    rows = []
    for _ in range(n):
        rows.append(rng.choice(['{"hand": "%s"}' % WIN, '{"hand": "123m456p789s111z22z", "zimo": true, "seat": "S"}',
                                '{"hand": 5}', "{bad json", "", "[1, 2]", '{"hand": "%s", "rules": "riichi"}' % WIN,
                                '{"hand": "%s", "set": {"base": 3}}' % WIN]))
    return ("\n".join(rows) + "\n").encode()


def _outputs(path: Path, fmt: str, output: str, from_line: int = 1) -> tuple[str, str, Summary]:
    """The output of one process and of two, each as the text the CLI would write."""
    got = []
    summary = None
    for jobs in (1, 2):
        out: list[str] = []
        with open(path, "rb") as f:
            summary = run(FileRecords(str(path), LineSource(f), fmt, from_line), Request(lenient=True),
                          RENDERERS[output], out.append, jobs=jobs)
        got.append("".join(text + "\n" for text in out))
    assert summary is not None
    return got[0], got[1], summary


@pytest.fixture
def small_ranges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "RANGE_BYTES", 700)  # many ranges over a small file (read by the parent)


@pytest.mark.parametrize(("name", "maker", "fmt"), [
    ("hands.txt", _lines_file, "auto"), ("hands.csv", _csv_file, "csv"), ("hands.jsonl", _jsonl_file, "jsonl"),
    ("hands.dat", _csv_file, "auto"), ("bom.txt", _lines_file, "lines"),
])
def test_two_workers_reading_their_own_ranges_write_what_one_process_does(
        tmp_path: Path, small_ranges: None, name: str, maker, fmt: str) -> None:
    data = maker(random.Random(name), 700)
    if name.startswith("bom"):
        data = codecs.BOM_UTF8 + data
    path = tmp_path / name
    path.write_bytes(data)
    with open(path, "rb") as f:
        assert FileRecords(str(path), LineSource(f), fmt).plan() is not None  # split, not read by the parent
    for output in ("jsonl", "csv", "table"):
        one, two, summary = _outputs(path, fmt, output)
        assert one == two
        assert summary.total == len(one.splitlines())
    one, two, _ = _outputs(path, fmt, "jsonl", from_line=333)
    assert one == two and json.loads(one.splitlines()[0])["line"] == 333


def test_the_ranges_cover_the_file_at_line_ends(tmp_path: Path, small_ranges: None) -> None:
    data = _lines_file(random.Random(1), 500)
    path = tmp_path / "h.txt"
    path.write_bytes(data)
    with open(path, "rb") as f:
        plan = FileRecords(str(path), LineSource(f)).plan()
    assert plan is not None
    ranges = list(parallel._ranges(plan))
    assert len(ranges) > 10
    assert ranges[0].start == 0 and ranges[-1].end == len(data)
    for before, after in zip(ranges, ranges[1:]):
        assert before.end == after.start and data[before.end - 1:before.end] == b"\n"
        assert after.first == before.first + data[before.start:before.end].count(b"\n")


def test_files_that_cannot_be_split_are_read_by_one_process(tmp_path: Path, small_ranges: None) -> None:
    text = "\n".join([WIN, "123m", "", WIN] * 100) + "\n"
    cases = {"utf16.txt": codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
             "hands.yaml": "".join(f"- hand: {WIN}\n  base: 2\n" for _ in range(200)).encode()}
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with open(path, "rb") as f:
            assert FileRecords(str(path), LineSource(f)).plan() is None
        one, two, summary = _outputs(path, "auto", "jsonl")
        assert one == two and summary.total == len(one.splitlines())
    with open(path, "rb") as f:
        expected = [r.line for r in read_records(LineSource(f), "auto")]
    assert len(expected) == 200


def test_a_run_stopped_early_leaves_no_thread_running(tmp_path: Path, small_ranges: None) -> None:
    path = tmp_path / "h.txt"
    path.write_text(f"{WIN}\n" * 3000, encoding="utf-8")

    class Full(Exception):
        pass

    def write(text: str) -> None:
        raise Full  # as an output that fails on its first write

    with open(path, "rb") as f, pytest.raises(Full):
        run(FileRecords(str(path), LineSource(f)), Request(), RENDERERS["jsonl"], write, jobs=2)
    left = [t for t in threading.enumerate() if "Executor" in type(t).__name__ and t.is_alive()]
    assert left == []
    if Path("/proc").is_dir():  # the forked workers ended and waited for
        assert _live_children() == []


def _live_children() -> list[int]:
    """The processes this one started that still run (not yet waited for), from /proc."""
    import os

    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == os.getpid():
                found.append(int(entry.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux; reads /proc")
@pytest.mark.parametrize("after", [0, 1])
def test_the_ranges_of_a_worker_that_dies_are_scored_by_the_parent(
        tmp_path: Path, small_ranges: None, monkeypatch: pytest.MonkeyPatch, after: int) -> None:
    """A forked worker that dies (killed from outside), at once or after answering one range: the parent
    scores the ranges it held and the rest, the output is one process's, and no process is left behind."""
    import os

    real = forked._serve

    def dying(plan, base, render, tasks, results):  # noqa: ANN001, ANN202
        if after and os.getpid() % 2:  # one worker or the other answers a range first
            message = forked._receive(tasks)
            assert message is not None
            start, end, first, last, head = __import__("marshal").loads(message)
            done = forked._score_range(parallel._Range(plan, start, end, first, last, None), base, render)
            forked._send(results, forked._result_parts(done))
        os._exit(9)

    path = tmp_path / "h.txt"
    path.write_bytes(_lines_file(random.Random(3), 400))
    monkeypatch.setattr(forked, "_serve", dying)
    one, two, summary = _outputs(path, "lines", "jsonl")
    assert one == two and summary.total == len(one.splitlines())
    monkeypatch.setattr(forked, "_serve", real)
    assert _live_children() == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux")
def test_a_worker_that_cannot_be_started_leaves_the_work_to_the_parent(
        tmp_path: Path, small_ranges: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    def no_fork() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    path = tmp_path / "h.txt"
    path.write_bytes(_lines_file(random.Random(4), 300))
    monkeypatch.setattr(os, "fork", no_fork)
    one, two, summary = _outputs(path, "lines", "jsonl")
    assert one == two and summary.total == len(one.splitlines())


def test_a_file_gone_under_the_run_is_a_read_error(tmp_path: Path, small_ranges: None) -> None:
    path = tmp_path / "h.txt"
    path.write_text(f"{WIN}\n" * 50, encoding="utf-8")
    plan = FileRecords(str(path), LineSource(io.BytesIO(b""))).plan()
    assert plan is not None
    first = next(parallel._ranges(plan))
    path.unlink()
    done = forked._score_range(first, Request(), RENDERERS["jsonl"])
    assert done.stopped is not None and "cannot read" in done.stopped and done.last_line == 0


@pytest.mark.parametrize(("name", "lines", "workers"), [
    ("big.txt", 6000, 2),  # over AUTO_JOBS_BYTES: split between the cores
    ("small.txt", 40, 0),  # under it: the main process alone
    ("big.yaml", 6000, 0),  # YAML cannot be split at line ends: the main process alone
])
def test_without_jobs_a_large_file_is_split_between_the_cores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, lines: int, workers: int) -> None:
    from typer.testing import CliRunner

    from mjcalc.cli import app

    path = tmp_path / name
    if name.endswith(".yaml"):
        path.write_text("".join(f"- hand: {WIN}\n" for _ in range(lines)), encoding="utf-8")
    else:
        path.write_text("".join(f"{WIN if i % 2 else LINES[i % 6]}\n" for i in range(lines)), encoding="utf-8")
    assert (path.stat().st_size >= parallel.AUTO_JOBS_BYTES) == (lines > 1000)
    pools: list[int] = []
    real = run_module._split

    def spy(plan, base, render, jobs):  # noqa: ANN001, ANN202
        pools.append(jobs)
        return real(plan, base, render, jobs)

    monkeypatch.setattr(parallel, "usable_cpus", lambda: 2)
    monkeypatch.setattr(run_module, "_split", spy)
    env = {"MJCALC_CONFIG": str(tmp_path / "none.yaml"), "COLUMNS": "200"}
    auto = CliRunner().invoke(app, ["batch", str(path), "--format", "jsonl", "-o", str(tmp_path / "auto.jsonl")],
                              env=env)
    assert pools == ([workers] if workers else []), auto.stderr
    one = CliRunner().invoke(app, ["batch", str(path), "--format", "jsonl", "-j", "1", "-o",
                                   str(tmp_path / "one.jsonl")], env=env)
    assert pools == ([workers] if workers else [])  # --jobs 1: no pool
    assert auto.exit_code == one.exit_code and auto.stderr.split("(")[0] == one.stderr.split("(")[0]
    assert (tmp_path / "auto.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()
    assert (tmp_path / "one.jsonl").read_text(encoding="utf-8").count("\n") == lines



@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers are forked on Linux; reads /proc")
@pytest.mark.parametrize("jobs", [2, 3])
def test_the_parent_scores_ranges_beside_its_workers(
        tmp_path: Path, small_ranges: None, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    """``jobs`` processes score: this one and ``jobs - 1`` forked workers, each taking ranges as it is free; the
    output is one process's, and every worker is waited for."""
    import os

    parent = os.getpid()
    forks: list[int] = []
    real_fork = os.fork

    def counted_fork() -> int:
        pid = real_fork()
        if pid:
            forks.append(pid)
        return pid

    scored_here: list[int] = []
    real_score = forked._score_range

    def spy(task, base, render):  # noqa: ANN001, ANN202
        if os.getpid() == parent:
            scored_here.append(task.first)
        return real_score(task, base, render)

    path = tmp_path / "h.txt"
    path.write_bytes(_lines_file(random.Random(5), 600))
    with open(path, "rb") as f:
        plan = FileRecords(str(path), LineSource(f)).plan()
    assert plan is not None
    ranges = len(list(parallel._ranges(plan, parallel._range_bytes(plan, jobs))))
    one, _, _ = _outputs(path, "lines", "jsonl")
    monkeypatch.setattr(os, "fork", counted_fork)
    monkeypatch.setattr(forked, "_score_range", spy)
    out: list[str] = []
    with open(path, "rb") as f:
        summary = run(FileRecords(str(path), LineSource(f), "lines"), Request(lenient=True), RENDERERS["jsonl"],
                      out.append, jobs=jobs)
    assert "".join(text + "\n" for text in out) == one and summary.total == len(one.splitlines())
    assert len(forks) == jobs - 1
    assert 0 < len(scored_here) < ranges  # some ranges here, the others by the workers
    assert _live_children() == []


@pytest.mark.skipif(not hasattr(__import__("os"), "writev"), reason="os.writev: POSIX")
@pytest.mark.parametrize("most", [1, 5, 1000])
def test_a_result_cut_short_by_the_pipe_is_sent_whole_and_read_back_as_it_was(
        monkeypatch: pytest.MonkeyPatch, most: int) -> None:
    """A worker's result goes as many buffers to a system call; one that writes only part of them (a signal, a full
    pipe) is finished, and the parent reads back, a piece at a time, the records and their counts as they were."""
    import os

    texts = [f'{{"line": {i}, "input": "{"x" * (i % 7)}"}}'.encode() for i in range(300)]
    scored = parallel._Scored(texts, {"win": 290, "error": 10}, 300, None)
    parts = forked._result_parts(scored)
    real_writev = os.writev

    def short_writev(fd, buffers):  # noqa: ANN001, ANN202  (at most ``most`` bytes a call)
        data = b"".join(bytes(b) for b in buffers)[:most]
        return real_writev(fd, [data])

    monkeypatch.setattr(os, "writev", short_writev)
    r, w = os.pipe()
    try:
        forked._widen(w)
        forked._send(w, parts)
        os.close(w)
        os.set_blocking(r, False)
        worker = forked._Worker(0, -1, r)
        worker.given.append(7)
        done: dict[int, parallel._Scored] = {}
        spare = [bytearray(10)]  # too small: replaced by one large enough
        while 7 not in done and worker.alive:
            forked._read_some(worker, done, spare)
    finally:
        os.close(r)
    got = done[7]
    assert got.counts == {"win": 290, "error": 10} and got.last_line == 300 and got.stopped is None
    assert b"".join(bytes(c) for c in got.lines()) == b"".join(t + b"\n" for t in texts)
    assert got.text == b"\n".join(texts) and spare == []
