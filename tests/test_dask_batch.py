"""`mjcalc batch FILES… --dask local`: generated files (lines, JSON Lines, CSV, YAML; bad lines among them) scored
on a LocalCluster of two worker processes, partition by partition; the union of the output files is the
single-process `batch` output record for record, each record naming its file. And the parts that need no
cluster: a partition's CSV, a failed or short partition reported with its file and lines, the message
without the extra, Dask never imported by a plain batch."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjcalc.batch.work import Summary
from mjcalc.cli import app
from mjcalc.engine import Request

runner = CliRunner()
ENV = {"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"}
ROOT = Path(__file__).resolve().parent.parent
WIN = "123m456p789s111z22z +zimo +seat=E"
LINES = [WIN, "123m456m789m111z22z", "123m456p789s111z2z", "456p23s55z777z [123m] 1s +from=W", "[[[",
         "123m456p789s11111z", "你好", "", "# a comment", "123m456p789s111z22z +rules=riichi +riichi",
         "123m456p789s111z22z +rules=nosuch", '{"hand": "x"}']


def _files(folder: Path) -> list[Path]:
    rng = random.Random(15)
    text = folder / "hands.txt"
    rows = [rng.choice(LINES).encode() for _ in range(1200)]
    rows[700] = b"123m\xff456p"  # not UTF-8
    text.write_bytes(b"\n".join(rows) + b"\n")
    jsonl = folder / "more.jsonl"
    jsonl.write_text("\n".join(rng.choice([json.dumps({"hand": WIN}), json.dumps({"hand": 5}), "{broken",
                                           json.dumps({"hand": "123m456p789s111z22z", "rules": "riichi",
                                                       "riichi": True, "zimo": True})])
                               for _ in range(600)) + "\n", encoding="utf-8")
    csv = folder / "table.csv"
    csv.write_text("hand,base\n" + "\n".join(rng.choice([f"{WIN},2", f"{WIN},x", "123m,", f'"{WIN}'])
                                            for _ in range(500)) + "\n", encoding="utf-8")
    yaml = folder / "list.yaml"  # not split: one partition
    yaml.write_text("".join(f"- hand: {rng.choice([WIN, '123m'])}\n  base: 2\n" for _ in range(100)),
                    encoding="utf-8")
    return [text, jsonl, csv, yaml]


def _single(path: Path) -> list[dict]:
    r = runner.invoke(app, ["batch", str(path), "--format", "jsonl"], env=ENV)
    assert r.exit_code in (0, 2), r.output
    return [json.loads(line) for line in r.stdout.splitlines()]


def test_a_local_cluster_writes_every_record_of_a_single_process_batch(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    folder = tmp_path / "in"
    folder.mkdir()
    files = _files(folder)
    out = tmp_path / "out"
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-m", "mjcalc", "batch", str(folder / "*.txt"), str(folder / "*.jsonl"),
                        str(folder / "table.csv"), str(folder / "list.yaml"), "--dask", "local", "--format", "jsonl",
                        "-o", str(out), "--partition-size", "8KiB"],
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, p.stderr  # some records are errors
    assert "Traceback" not in p.stderr and "partitions on local" in p.stderr
    outputs = sorted(out.iterdir())
    assert len(outputs) > 8 and not [o for o in outputs if o.suffix != ".jsonl"]  # several partitions a file
    got: dict[str, list[dict]] = {}
    for output in outputs:
        for line in output.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            got.setdefault(record.pop("file"), []).append(record)
    assert sorted(got) == sorted(str(f) for f in files)
    total = 0
    for f in files:
        expected = _single(f)
        assert sorted(got[str(f)], key=lambda r: r["line"]) == expected  # record for record
        total += len(expected)
    assert f"{total:,} records:" in p.stderr


def test_a_partition_as_csv_is_the_batch_csv_with_its_file(tmp_path: Path) -> None:
    from mjcalc.batch.dask import partitions, score_partition

    files = _files(tmp_path)
    parts = list(partitions([str(files[0])], ext="csv", size=4096))
    assert len(parts) > 3
    out = tmp_path / "out"
    for part in parts:
        written = score_partition(part, Request(lenient=True), "csv", str(out))
        assert written.total == part.expected and written.stopped is None
    rows = []
    for i, part in enumerate(parts):
        lines = (out / part.output).read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("file,line,input,")
        rows += lines[1:]
        assert part.output == f"hands.txt.{i:05d}.csv"
    r = runner.invoke(app, ["batch", str(files[0]), "--format", "csv"], env=ENV)
    assert rows == [f"{files[0]},{row}" for row in r.stdout.splitlines()[1:]]


def test_a_partition_that_fails_or_falls_short_is_reported_with_its_file_and_lines(tmp_path: Path) -> None:
    from mjcalc.batch.dask import Written, account, partitions, score_partition

    files = _files(tmp_path)
    first, second = list(partitions([str(files[1])], size=16384))[:2]
    summary = Summary()
    assert account(first, Written({"win": first.expected or 0}, 10, None, 0.1), summary) is None
    assert summary.counts == {"win": first.expected}
    failed = account(second, RuntimeError("worker lost"), summary)
    assert failed == (f"{files[1]} lines {second.part.first:,}–{second.part.last:,}: not scored: "
                      "RuntimeError: worker lost")
    short = account(second, Written({"win": 3}, 3, None, 0.1), summary)
    assert short is not None and f"3 of {second.expected:,} records" in short and "lines" in short
    files[1].unlink()  # gone before a worker reads it
    written = score_partition(second, Request(), "jsonl", str(tmp_path / "out"))
    gone = account(second, written, summary)
    assert gone is not None and "cannot read" in gone and f"lines {second.part.first:,}" in gone


def test_without_the_extra_the_option_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "distributed" else
                        real(name, *a))
    path = tmp_path / "h.txt"
    path.write_text(WIN + "\n", encoding="utf-8")
    r = runner.invoke(app, ["batch", str(path), "--dask", "local", "-o", str(tmp_path / "out")], env=ENV)
    assert r.exit_code == 3 and "pip install 'mjcalc[dask]'" in r.stderr


@pytest.mark.parametrize(("args", "said"), [
    (["--format", "table"], "--format jsonl or csv"), ([], "-o DIR"), (["--jobs", "2"], "--jobs"),
    (["--partition-size", "lots"], "--partition-size"),
])
def test_bad_values_with_dask_are_exit_3(tmp_path: Path, args: list[str], said: str) -> None:
    pytest.importorskip("distributed")
    path = tmp_path / "h.txt"
    path.write_text(WIN + "\n", encoding="utf-8")
    if "--format" not in args:
        args = [*args, "--format", "jsonl"]
    if said != "-o DIR":
        args = [*args, "-o", str(tmp_path / "out")]
    r = runner.invoke(app, ["batch", str(path), "--dask", "local", *args], env=ENV)
    assert r.exit_code == 3 and said in r.stderr, r.output


def test_a_csv_without_a_hand_column_stops_before_the_cluster(tmp_path: Path) -> None:
    """One message for the file, exit 2, before a cluster is started or a partition written."""
    pytest.importorskip("distributed")
    good = tmp_path / "h.txt"
    good.write_text(WIN + "\n", encoding="utf-8")
    bad = tmp_path / "h.csv"
    bad.write_text(f"tiles,base\n{WIN},2\n" * 100, encoding="utf-8")
    out = tmp_path / "out"
    r = runner.invoke(app, ["batch", str(good), str(bad), "--dask", "local", "--format", "jsonl", "-o", str(out)],
                      env=ENV)
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.output
    assert r.stderr.startswith(f"mjcalc: {bad}: the CSV header (line 1) has no 'hand' column")
    assert not out.exists()


def test_several_files_without_dask_and_globs_matching_nothing(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text(WIN + "\n", encoding="utf-8")
    r = runner.invoke(app, ["batch", str(path), str(path)], env=ENV)
    assert r.exit_code == 3 and "one FILE at a time" in r.stderr
    from mjcalc.batch.dask import expand
    from mjcalc.errors import MjcalcError

    with pytest.raises(MjcalcError, match="no file matches"):
        expand([str(tmp_path / "*.nothing")])
    assert expand([str(tmp_path / "*.txt"), str(path)]) == [str(path)]


def test_a_plain_batch_never_imports_dask(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text(WIN + "\n", encoding="utf-8")
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "mjcalc", "batch", str(path), "--jobs", "2"],
                       env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    imported = {line.split("|")[-1].strip().split(".")[0] for line in p.stderr.splitlines() if "|" in line}
    assert "mjcalc" in imported and not imported & {"dask", "distributed", "mjcalc.dask_batch"}
    assert "dask_batch" not in p.stderr


def test_the_batch_docs_dask_bag_recipe(tmp_path: Path) -> None:
    """The notebook recipe of docs/batch.md, on the synchronous scheduler (no cluster): the same records as batch."""
    db = pytest.importorskip("dask.bag")
    from mjcalc.batch.dask import partitions, records

    files = _files(tmp_path)
    bag = db.from_sequence(list(partitions([str(tmp_path / "*.jsonl"), str(files[0])], size=8192)),
                           partition_size=1).map(records, rules="changchun").flatten()
    rows = bag.compute(scheduler="sync")
    by_file: dict[str, list[dict]] = {}
    for r in rows:
        by_file.setdefault(r.pop("file"), []).append(r)
    assert list(by_file) == [str(files[1]), str(files[0])]  # in the order given, each in order
    for f in (files[1], files[0]):
        assert by_file[str(f)] == _single(f)
    wins = bag.filter(lambda r: r["result"] == "win").pluck("points").count().compute(scheduler="sync")
    assert wins == sum(r["result"] == "win" for f in (files[0], files[1]) for r in _single(f))


def test_game_logs_on_a_local_cluster_are_the_single_process_records(tmp_path: Path) -> None:
    """``batch LOG… --dask local``: the logs' records, one file a group, each record that of a plain batch of the
    same logs (the file named by its absolute path, as the workers read it)."""
    pytest.importorskip("distributed")
    logs = sorted(str(p) for p in (ROOT / "tests" / "data" / "tenhou").glob("*.json"))
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    plain = subprocess.run([sys.executable, "-m", "mjcalc", "batch", *logs, "--format", "jsonl"],
                           env=env, capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0, plain.stderr
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, "-m", "mjcalc", "batch", *logs, "--dask", "local", "--format", "jsonl",
                        "-o", str(out)], env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "on local" in p.stderr
    got = [json.loads(line) for f in sorted(out.iterdir()) for line in f.read_text(encoding="utf-8").splitlines()]
    expected = [json.loads(line) for line in plain.stdout.splitlines()]
    for record in expected:
        record["file"] = os.path.abspath(record["file"])
    assert got == expected and len(got) > 50
