"""Hostile batch input and output: whatever a file holds, one output record per input record, in order, and
no traceback; output that cannot be written is exit 3; a closed pipe ends quietly; signals stop every worker
and say how far the run got; --from-line resumes it. (benchmarks/fuzz_batch.py runs the same checks on
random files for as long as you like.)"""

from __future__ import annotations

import codecs
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import mjcalc.batch.work as batch_module
from mjcalc.batch.lines import LineSource, Record
from mjcalc.batch.readers import read_records
from mjcalc.batch.run import run
from mjcalc.batch.writers import Progress, render_jsonl
from mjcalc.cli import app
from mjcalc.engine import Request

runner = CliRunner()
ENV = {"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"}
WIN = "123m456p789s111z22z +zimo +seat=E"  # 48 points
NOT_A_WIN = "123m456m789m111z22z"
ROOT = Path(__file__).resolve().parent.parent


def batch(path: Path, *args: str, code: int | None = None) -> tuple[list[dict], str]:
    """Run `mjcalc batch PATH --format jsonl ARGS`; the records written and stderr."""
    r = runner.invoke(app, ["batch", str(path), "--format", "jsonl", *args], env=ENV)
    assert "Traceback" not in r.output, r.output
    if code is not None:
        assert r.exit_code == code, r.output
    return [json.loads(x) for x in r.stdout.splitlines()], r.stderr


def results(records: list[dict]) -> list[tuple[int, str]]:
    return [(r["line"], r["result"]) for r in records]


def message(record: dict) -> str:
    return record["error"]["message"]


# --- decoding: each line on its own -------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_byte_that_is_not_utf8_is_one_error_record(tmp_path: Path, jobs: str) -> None:
    path = tmp_path / "h.txt"
    path.write_bytes(f"{WIN}\n{WIN}\n".encode() + b"caf\xe9 123m\n" + f"{NOT_A_WIN}\n{WIN}".encode())
    records, err = batch(path, "--jobs", jobs, code=2)
    assert results(records) == [(1, "win"), (2, "win"), (3, "error"), (4, "not_a_win"), (5, "win")]
    assert message(records[2]).startswith("not UTF-8 at byte 4")
    assert records[2]["input"] == "caf\\xe9 123m"  # the bad byte shown, not lost or replaced
    assert "1 error," in err


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_a_byte_order_mark_picks_the_encoding(tmp_path: Path, encoding: str) -> None:
    text = f"{WIN}\n# a comment 注释\n{NOT_A_WIN}\n"
    data = text.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):  # with the mark written by hand, as Windows editors do
        data = (codecs.BOM_UTF16_LE if encoding.endswith("le") else codecs.BOM_UTF16_BE) + data
    path = tmp_path / "h.txt"
    path.write_bytes(data)
    records, _ = batch(path, code=0)
    assert results(records) == [(1, "win"), (2, "skipped"), (3, "not_a_win")]
    assert records[0]["points"] == 48


def test_utf16_without_a_mark_is_recognised(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_bytes(f"{WIN}\n{WIN}\n".encode("utf-16-le"))
    records, _ = batch(path, code=0)
    assert results(records) == [(1, "win"), (2, "win")]


def test_broken_utf16_costs_only_its_line(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    lone_surrogate = b"\x00\xd8"
    path.write_bytes(codecs.BOM_UTF16_LE + f"{WIN}\n".encode("utf-16-le") + lone_surrogate
                     + f"1m\n{WIN}\n".encode("utf-16-le") + b"x")  # and an odd byte at the end
    records, _ = batch(path, code=2)
    assert results(records) == [(1, "win"), (2, "error"), (3, "win"), (4, "error")]
    assert message(records[1]).startswith("not UTF-16 at byte 1")


def test_a_latin1_file_scores_its_ascii_lines(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_bytes(f"# Café Zoë\n{WIN}\n{WIN} # joué\n".encode("latin-1"))
    records, _ = batch(path, code=2)
    assert results(records) == [(1, "error"), (2, "win"), (3, "error")]
    assert all("not UTF-8" in message(r) for r in (records[0], records[2]))


def test_control_bytes_stay_in_their_line(tmp_path: Path) -> None:
    """Lines end at \\n only (and \\r\\n): a stray \\r, form feed or \\x1c inside a line does not split it."""
    path = tmp_path / "h.txt"
    path.write_bytes(f"{WIN}\r\n123m\r456p\x0c\x1c\x1b[31m\n\x00\n{WIN}\u2028x\n{WIN}".encode())
    records, _ = batch(path, code=2)
    assert results(records) == [(1, "win"), (2, "error"), (3, "error"), (4, "error"), (5, "win")]
    r = runner.invoke(app, ["batch", str(path)], env=ENV)  # the table shows control characters escaped
    assert "\x1b" not in r.stdout and "\\x1b" in r.stdout


def test_an_overlong_line_is_one_error_record(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text(f"{WIN}\n{'1m' * 100_000}\n{WIN}\n{'1m' * 5_000_000}\n{WIN}", encoding="utf-8")
    records, _ = batch(path, code=2)
    assert results(records) == [(1, "win"), (2, "error"), (3, "win"), (4, "error"), (5, "win")]
    assert "200,000 characters" in message(records[1]) and "10,000,000 characters" in message(records[3])


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ten_thousand_lines_with_one_bad_line_in_the_middle(tmp_path: Path, jobs: str) -> None:
    lines = [f"{WIN}", f"{NOT_A_WIN}", "123m456p789s111z2z", "# note", "123m456p789s11111z"] * 2000
    data = ("\n".join(lines) + "\n").encode()
    middle = data.index(b"\n", len(data) // 2) + 1
    path = tmp_path / "h.txt"
    path.write_bytes(data[:middle] + b"\xff\xfe" + data[middle:])  # the line after the middle gets two bad bytes
    records, err = batch(path, "--jobs", jobs, code=2)
    assert [r["line"] for r in records] == list(range(1, 10_001))
    bad = [r for r in records if r["result"] == "error" and "UTF-8" in message(r)]
    assert len(bad) == 1 and bad[0]["line"] == data[:middle].count(b"\n") + 1
    assert "10,000 records" in err


# --- records in, records out ---------------------------------------------------------------------------


def test_csv_rows_are_read_one_line_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "h.csv"
    path.write_text(
        "hand,rules,base\n"
        f'"{NOT_A_WIN},changchun,\n'      # 2: a quote never closed: this row only
        f"{WIN},,2\n"                     # 3
        ",changchun,\n"                   # 4: no hand
        f'{WIN},"a"b,\n'                  # 5: junk after a quoted field
        f"{WIN},{'x' * 140_000},\n"       # 6: a field over the csv module's limit
        f"{WIN},,,surplus\n"              # 7: a cell no column names
        "\n"                              # 8: blank
        f"{WIN},,\n",                     # 9
        encoding="utf-8")
    records, err = batch(path, code=2)
    assert results(records) == [(2, "error"), (3, "win"), (4, "error"), (5, "error"), (6, "error"),
                                (7, "error"), (8, "skipped"), (9, "win")]
    assert "quote is not closed" in message(records[0])
    assert records[1]["points"] == 96
    assert "no hand" in message(records[2])
    assert "characters" in message(records[4])
    assert "5 errors" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_csv_without_a_hand_column_is_one_error_for_the_file(tmp_path: Path, jobs: str) -> None:
    """No row of it can be read: one message naming the file, exit 2, no record and no summary — not the same error
    once a row (10,000 lines for 10,000 rows). So for a header that cannot be read, on standard input, for check."""
    path = tmp_path / "h.csv"
    path.write_text(f"tiles,rules\n{WIN},\n{NOT_A_WIN},\n" * 2000, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    r = runner.invoke(app, ["batch", str(path), "--format", "jsonl", "--jobs", jobs, "-o", str(out)], env=ENV)
    assert r.exit_code == 2 and r.stdout == "" and not out.exists()
    assert r.stderr == (f"mjcalc: {path}: the CSV header (line 1) has no 'hand' column (its columns: 'tiles', "
                        "'rules'); the first line of a CSV file names the columns, one of them 'hand'\n")
    piped = runner.invoke(app, ["batch", "-", "--input-format", "csv"], input=path.read_text(encoding="utf-8"), env=ENV)
    assert piped.exit_code == 2 and piped.stdout == "" and piped.stderr.count("\n") == 1
    assert piped.stderr.startswith("mjcalc: standard input: the CSV header (line 1) has no 'hand' column")
    checked = runner.invoke(app, ["check", str(path)], env=ENV)
    assert checked.exit_code == 2 and checked.stdout == "" and checked.stderr.count("\n") == 1
    assert "no 'hand' column" in checked.stderr
    path.write_bytes(b"\xffhand,rules\n" + f"{WIN},\n".encode())  # a header that is no text
    r = runner.invoke(app, ["batch", str(path), "--format", "jsonl", "--jobs", jobs], env=ENV)
    assert r.exit_code == 2 and r.stdout == "" and "the CSV header (line 1) cannot be read" in r.stderr


def test_jsonl_and_yaml_records_without_a_hand_stay_one_error_each(tmp_path: Path) -> None:
    """A JSON Lines or YAML record stands alone (the next may have its hand): one without a hand is its own error
    record and the others are scored."""
    path = tmp_path / "h.jsonl"
    path.write_text(json.dumps({"tiles": WIN}) + "\n" + json.dumps({"hand": WIN}) + "\n", encoding="utf-8")
    records, _ = batch(path, code=2)
    assert results(records) == [(1, "error"), (2, "win")] and message(records[0]) == "the record has no 'hand'"


def test_jsonl_records_of_every_wrong_shape(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text("\n".join([
        json.dumps({"hand": WIN}),
        "[" * 100_000 + "]" * 100_000,                  # 2: over the line limit
        "[" * 20_000 + "]" * 20_000,                    # 3: nested too deep
        '{"hand": "%s", "base": %s}' % (WIN, "9" * 5000),  # 4: a 5,000-digit number
        json.dumps({"hand": WIN, "rules": 5}),          # 5: rules not a string
        json.dumps({"hand": WIN, "seat": {"a": [[1]]}}),  # 6: a flag that is a mapping
        json.dumps({"hand": "\udc80"}),                 # 7: a lone surrogate
        json.dumps({"hand": WIN, "set": [1, 2]}),       # 8: set not a mapping
        json.dumps([WIN]),                              # 9: not a mapping
        json.dumps({"hand": 3}),                        # 10: hand not a string
        "{oops",                                        # 11: not JSON
        json.dumps({"hand": WIN, "dora": list(range(1000))}),  # 12: a list too long
        json.dumps({"hand": NOT_A_WIN}),                # 13
    ]) + "\n", encoding="utf-8")
    records, _ = batch(path, code=2)
    assert [r["result"] for r in records] == ["win", *["error"] * 11, "not_a_win"]
    assert [r["line"] for r in records] == list(range(1, 14))
    assert "nested too deeply" in message(records[2])
    assert "digits" in message(records[3])
    assert "'rules' must be a string" in message(records[4])
    assert "surrogate" in message(records[6])


def test_a_bad_yaml_entry_is_one_error_record(tmp_path: Path) -> None:
    path = tmp_path / "h.yaml"
    path.write_text(f"# hands\n- hand: {WIN}\n- hand: [oops\n  zimo: true\n- hand: {NOT_A_WIN}\n"
                    f"  rules: {{a: 1}}\n- &x hand: {WIN}\n- *x\n- {WIN}\n- hand: {NOT_A_WIN}\n  set: {{base: 2}}\n",
                    encoding="utf-8")
    records, _ = batch(path, code=2)
    assert results(records) == [(2, "win"), (3, "error"), (5, "error"), (7, "win"), (8, "error"), (9, "win"),
                                (10, "not_a_win")]
    assert "not valid YAML at line 4" in message(records[1])
    assert "aliases" in message(records[4])


def test_an_overlong_yaml_entry_line_is_still_its_own_record(tmp_path: Path) -> None:
    path = tmp_path / "h.yaml"
    path.write_text(f"- hand: {WIN}\n- hand: {WIN * 3000}\n  zimo: true\n- hand: {WIN}\n", encoding="utf-8")
    records, _ = batch(path, code=2)
    assert results(records) == [(1, "win"), (2, "error"), (4, "win")]
    assert "characters long" in message(records[1]) and records[1]["input"].startswith("- hand: 123m")


def test_a_yaml_entry_starting_with_a_bad_byte_is_still_its_own_record(tmp_path: Path) -> None:
    path = tmp_path / "h.yaml"
    path.write_bytes(f"- hand: {WIN}\n".encode() + b"\xed\xa0\x80- hand: 1m\n  zimo: true\n"
                     + f"- hand: {WIN}\n".encode())
    records, _ = batch(path, code=2)
    assert results(records) == [(1, "win"), (2, "error"), (4, "win")]
    assert "not UTF-8" in message(records[1])


def test_yaml_with_a_hands_key_and_a_flow_list(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(f"hands:\n  - hand: {WIN}\n  - hand: 1m\n  - hand: {WIN}\n", encoding="utf-8")
    records, _ = batch(tmp_path / "a.yaml", code=2)
    assert results(records) == [(2, "win"), (3, "error"), (4, "win")]
    (tmp_path / "b.yaml").write_text(f'[{{hand: "{WIN}"}}, {{hand: 1m}}, 3]\n', encoding="utf-8")
    records, _ = batch(tmp_path / "b.yaml", code=2)
    assert [r["result"] for r in records] == ["win", "error", "error"]


def test_stdin_jsonl_and_csv_are_recognised_from_the_first_record() -> None:
    for text in (json.dumps({"hand": WIN}) + "\n", f"hand,base\n{WIN},2\n", f"- hand: {WIN}\n"):
        r = runner.invoke(app, ["batch", "-", "--format", "jsonl"], input=text, env=ENV)
        assert r.exit_code == 0, (text, r.output)
        assert json.loads(r.stdout)["result"] == "win"
    r = runner.invoke(app, ["batch", "-", "--format", "jsonl", "--input-format", "lines"],
                      input=json.dumps({"hand": WIN}) + "\n", env=ENV)
    assert "--input-format jsonl" in json.loads(r.stdout)["error"]["message"]


def test_a_bug_while_scoring_one_record_is_that_records_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = batch_module.score_line

    def flaky(text: str, request: Request, **kw: object):
        if "777z" in text:
            raise IndexError("boom")
        return real(text, request, **kw)

    monkeypatch.setattr(batch_module, "score_line", flaky)
    records = [Record(i + 1, "123m456p789s777z22z" if i % 100 == 50 else WIN) for i in range(600)]
    for jobs in (1, 2):  # the workers are forked with the patched module
        out: list[str] = []
        summary = run(iter(records), Request(), render_jsonl, out.append, jobs=jobs)
        got = [json.loads(x) for x in out]
        assert [r["line"] for r in got] == list(range(1, 601))
        bad = [r for r in got if r["result"] == "error"]
        assert [r["line"] for r in bad] == [51, 151, 251, 351, 451, 551]
        assert all(r["error"]["kind"] == "internal" and "IndexError" in r["error"]["message"] for r in bad)
        assert summary.counts["internal"] == 6 and "met a bug" in summary.line()


def test_internal_errors_exit_70_at_the_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_module, "score_line", lambda *a, **k: 1 / 0)
    path = tmp_path / "h.txt"
    path.write_text(f"{WIN}\n{WIN}\n", encoding="utf-8")
    records, err = batch(path, code=70)
    assert [r["error"]["kind"] for r in records] == ["internal", "internal"]
    assert "ZeroDivisionError" in message(records[0])


def test_summary_counts_with_separators_and_plurals() -> None:
    summary = batch_module.Summary({"win": 78_448, "error": 1, "skipped": 1}, 2.0)
    assert summary.line().startswith("78,450 records: 78,448 won, 0 not a win, 0 waiting, 1 error, 1 skipped")
    assert batch_module.Summary({"win": 1}, 1.0).line().startswith("1 record: 1 won")


def test_jobs_is_bounded_by_the_machine(tmp_path: Path) -> None:
    path = tmp_path / "h.txt"
    path.write_text(f"{WIN}\n", encoding="utf-8")
    r = runner.invoke(app, ["batch", str(path), "--jobs", "999"], env=ENV)
    assert r.exit_code == 0 and "--jobs 999" in r.stderr and "core" in r.stderr


def test_reading_stays_streaming() -> None:
    """The reader does not run ahead of the scoring: records come as lines are read."""
    import io

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, b: bytearray) -> int:  # type: ignore[override]
            data = (WIN + "\n").encode() * 100
            b[: len(data)] = data
            return len(data)

    records = read_records(io.BufferedReader(Endless()), "lines")
    assert [next(records).line for _ in range(5)] == [1, 2, 3, 4, 5]


def test_a_read_error_keeps_what_was_read_and_says_why() -> None:
    import io

    class Failing(io.RawIOBase):
        sent = False

        def readable(self) -> bool:
            return True

        def readinto(self, b: bytearray) -> int:  # type: ignore[override]
            if self.sent:
                raise OSError(5, "Input/output error")
            self.sent = True
            data = (WIN + "\n").encode() * 3
            b[: len(data)] = data
            return len(data)

    source = LineSource(io.BufferedReader(Failing()))
    assert [r.line for r in read_records(source, "lines")] == [1, 2, 3]
    assert source.stopped is not None and "Input/output error" in source.stopped


# --- output --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["/nonexistent/dir/out.jsonl", ".", "/dev/full"])
def test_output_that_cannot_be_written_is_exit_3(tmp_path: Path, target: str) -> None:
    if target == "/dev/full" and not Path(target).exists():
        pytest.skip("no /dev/full")
    path = tmp_path / "h.txt"
    path.write_text(f"{WIN}\n" * 3, encoding="utf-8")
    r = runner.invoke(app, ["batch", str(path), "-o", target], env=ENV)
    assert r.exit_code == 3, r.output
    assert f"cannot write {target}:" in r.stderr and "Traceback" not in r.output


def _mjcalc(*args: str, **kw: object) -> subprocess.Popen:
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "mjcalc", *args], env=env, **kw)  # type: ignore[call-overload]


def test_score_to_a_full_disk_is_exit_3() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        p = _mjcalc("score", WIN, stdout=full, stderr=subprocess.PIPE, text=True)
        _, err = p.communicate(timeout=60)
    assert p.returncode == 3 and "cannot write standard output" in err and "Traceback" not in err


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.txt"
    cycle = [WIN, NOT_A_WIN, "456p23s55z777z [123m] 1s +from=W", "123m456p789s11111z", "999p555s777z22z [111m] +zimo"]
    path.write_text("\n".join(cycle * 60_000) + "\n", encoding="utf-8")  # far more than a test waits for
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_closed_pipe_ends_quietly_as_sigpipe_does(big_file: Path, jobs: str) -> None:
    p = _mjcalc("batch", str(big_file), "--jobs", jobs, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    for _ in range(5):
        p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=60)
    assert p.returncode in (-signal.SIGPIPE, 128 + signal.SIGPIPE), (p.returncode, err)
    assert err == ""


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_every_worker_and_the_run_can_resume(big_file: Path, tmp_path: Path, signum: int) -> None:
    out = tmp_path / "out.jsonl"
    p = _mjcalc("batch", str(big_file), "--jobs", "2", "--format", "jsonl", "-o", str(out),
                stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size == 0):
        time.sleep(0.05)
    workers = _children(p.pid)
    assert len(workers) >= 1, workers  # --jobs 2: the batch's own process and one forked worker
    p.send_signal(signum)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 128 + signum, err
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    assert not [w for w in workers if _alive(w)], "workers outlived the batch"
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]  # every line whole
    assert [r["line"] for r in written] == list(range(1, len(written) + 1))
    assert f"{len(written):,} records written" in err and f"--from-line {len(written) + 1}" in err
    # resume the last stretch of the file: appended, with the original line numbers
    records, _ = batch(big_file, "--from-line", "299990", "-o", str(out))
    tail = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()[len(written):]]
    assert [r["line"] for r in tail] == list(range(299_990, 300_001))


# --- the file's own folder, progress -------------------------------------------------------------------


def test_ruleset_paths_in_a_batch_file_are_relative_to_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    folder = tmp_path / "hands"
    folder.mkdir()
    (folder / "house.yaml").write_text("id: house\nextends: changchun\noptions:\n  base: {default: 5}\n",
                                       encoding="utf-8")
    (folder / "h.txt").write_text(f"{WIN} +rules=house.yaml\n{WIN} +rules=missing.yaml\n", encoding="utf-8")
    (folder / "h.csv").write_text(f"hand,rules\n{WIN},house.yaml\n", encoding="utf-8")
    (folder / "h.jsonl").write_text(json.dumps({"hand": WIN, "rules": "house.yaml"}) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # not the file's folder
    records, _ = batch(Path("hands/h.txt"))
    assert [r.get("points") for r in records] == [240, None]
    assert "missing.yaml" in message(records[1])
    for name in ("h.csv", "h.jsonl"):
        records, _ = batch(Path("hands") / name, code=0)
        assert records[0]["ruleset"] == "house" and records[0]["points"] == 240


def test_progress_shows_the_total_percent_rate_and_eta(tmp_path: Path) -> None:
    import io

    path = tmp_path / "h.txt"
    path.write_text(f"{WIN}\n" * 1000, encoding="utf-8")
    screen = io.StringIO()
    progress = Progress(True, str(path), stream=screen)
    assert progress.total == 1000
    summary = batch_module.Summary({"win": 250}, last_line=250)
    progress.start -= 10  # 250 lines in 10 s: 30 s to go
    progress(summary)
    shown = screen.getvalue()
    assert "line 250 of 1,000" in shown and "25%" in shown and "25 records/s" in shown and "ETA 0:30" in shown
    progress.close()
    assert screen.getvalue().endswith("\r")



# --- a few rounds of the fuzz script ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["lines", "csv", "jsonl", "yaml"])
def test_fuzz_rounds(tmp_path: Path, kind: str) -> None:
    """Seeded, small rounds of benchmarks/fuzz_batch.py: exit 0-3, no traceback, one record per record in
    order, --jobs 1 and 2 alike."""
    import random

    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import fuzz_batch
    finally:
        sys.path.pop(0)
    maker = {"lines": fuzz_batch.lines_case, "csv": fuzz_batch.csv_case, "jsonl": fuzz_batch.jsonl_case,
             "yaml": fuzz_batch.yaml_case}[kind]
    case = maker(random.Random(f"{kind}-7"), 150)
    assert fuzz_batch.check_case(case, tmp_path, ["1", "2"], timeout=120) == []
