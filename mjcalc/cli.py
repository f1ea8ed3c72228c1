"""The command line: parses options into a Request, calls the engine, prints a renderer's output. Thin."""

# No ``from __future__ import annotations`` here: the commands' annotations are what typer reads, and evaluated
# when this module runs (from its .pyc) they cost nothing more; left as text, typer would compile each one.
# Parameters are declared as defaults (``x: bool = typer.Option(False, "--x")``), not ``Annotated[bool,
# typer.Option("--x")] = False``: typing builds each Annotated alias at a cost, and this module declares dozens of
# them for every command.
import json
import sys
from typing import IO, TYPE_CHECKING, Any

import typer

from .cli_run import _LANG, _bounded_jobs, _chosen_lang, _config, _fail, _options, _quiet_collector
from .config import DEFAULT_RULESET, RULES_HELP
from .errors import EXIT_BAD_INPUT, EXIT_BAD_RULESET, MjcalcError
from .i18n import N_, Msg, tr  # no imports of its own: the catalog is read only when a text is shown in zh

# Each command imports what it needs when it runs: `mjcalc score` starts without the batch readers, `mjcalc
# batch` without the tables (tabulate), help and usage errors without any of it (benchmarks/bench_startup.py).
if TYPE_CHECKING:
    from .config import Config
    from .engine import Request

EXIT_INTERNAL = 70  # a bug in mjcalc itself (sysexits' EX_SOFTWARE)

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="mjcalc — a mahjong hand-scoring calculator. `mjcalc score \"123m456p789s111z22z +zimo +seat=E\"`.",
)


def _version(value: bool) -> None:
    if value:
        from . import __version__, core_build  # the installed version (pyproject.toml reads it from there), without
        # importlib.metadata's search of every installed distribution (a third of this command's time)
        typer.echo(f"mjcalc {__version__} (core: {core_build()}; Python {sys.version.split()[0]})")
        raise typer.Exit()


VersionOpt = typer.Option(False, "--version", callback=_version, is_eager=True,
                          help="Print the version and whether the core is compiled.")


@app.callback()
def _app_options(version: bool = VersionOpt) -> None:
    pass  # the options of mjcalc itself (the app's help is the Typer's)


rules_app = typer.Typer(no_args_is_help=True, help="List the rulesets, or show one: every item, condition, option.")
app.add_typer(rules_app, name="rules")
from .cli_game import game_app  # noqa: E402  (the game's commands: mjcalc/cli_game.py)

app.add_typer(game_app, name="game")

RulesOpt = typer.Option(None, "--rules", "-r", help=RULES_HELP)
SetOpt = typer.Option(None, "--set", "-s", help="Option KEY=VALUE (repeatable), e.g. cap=500.")
LangOpt = typer.Option(None, "--lang", help="Language of messages: en or zh.")
JsonOpt = typer.Option(False, "--json", help="Print the JSON object of docs/OUTPUT.md.")


@app.command()
def score(
    hand: list[str] = typer.Argument(..., help="The hand in one line, e.g. \"123m456p789s111z22z +zimo +seat=E\" "
                                               "(quotes optional: the words are joined)."),
    rules: str | None = RulesOpt,
    set_: list[str] | None = SetOpt,
    json_out: bool = JsonOpt,
    lang: str | None = LangOpt,
    zimo: bool = typer.Option(False, "--zimo", help="Self-drawn (+zimo)."),
    seat: str | None = typer.Option(None, help="Winner's seat wind E/S/W/N (or east/south/west/north, "
                                                "东南西北); E is the dealer."),
    from_: str | None = typer.Option(None, "--from", help="Discarder's seat on a discard win."),
    round_: str | None = typer.Option(None, "--round", help="Prevalent wind."),
    closed: str | None = typer.Option(None, help="Other seats whose hands are closed, e.g. W,N."),
    gang: bool = typer.Option(False, "--gang", help="Won on a kong replacement tile."),
    qiang: bool = typer.Option(False, "--qiang", help="Won by robbing a kong."),
    last: bool = typer.Option(False, "--last", help="Won on the last tile."),
    flag: list[str] | None = typer.Option(None, "--flag", "-f", help="Any other flag, as in the line: -f NAME or "
                                          "-f NAME=VALUE (repeatable); mjcalc rules show lists a ruleset's flags."),
) -> None:
    """Score one hand: the reading, every item, the formula per payer, payments and each seat's net."""
    from .core.notation import FlagWord
    from .engine import Request, score_line
    from .output.fit import terminal_width
    from .output.table import to_text

    config = _config(lang)
    chosen = _chosen_lang(lang, config)
    words: list[FlagWord] = []
    for name, on in (("zimo", zimo), ("gang", gang), ("qiang", qiang), ("last", last)):
        if on:
            words.append(FlagWord(name, None, None))
    for name, given in (("seat", seat), ("from", from_), ("round", round_), ("closed", closed)):
        if given is not None:
            words.append(FlagWord(name, given, None))
    for f in flag or []:
        word, eq, value = f.lstrip("+").partition("=")
        words.append(FlagWord(word, value if eq else None, None))
    request = Request(rules or config.rules, _options(set_), words, config.options)
    result = score_line(" ".join(hand), request)
    if json_out:
        from .output.record import to_json

        typer.echo(json.dumps(to_json(result, chosen), ensure_ascii=False, indent=2))
    else:
        text = to_text(result, chosen, terminal_width())
        typer.echo(text, err=result.error is not None)
    raise typer.Exit(result.exit_code)


def _open_input(path: str, fmt: str) -> tuple[IO[bytes], str, int | None]:
    """The input as bytes (decoded line by line by the reader), its format (``auto``: from the content) and
    its size when it is a regular file; ``-`` is standard input."""
    from .batch.readers import INPUT_FORMATS, detect_format

    if fmt not in INPUT_FORMATS:
        _fail(MjcalcError("option", Msg("--input-format is one of {formats}, not '{value}'",
                                        formats=", ".join(INPUT_FORMATS), value=fmt)))
    if path == "-":
        return sys.stdin.buffer, detect_format("", fmt), None
    try:
        stream = open(path, "rb")  # noqa: SIM115  (closed by the caller)
        import os
        import stat

        info = os.fstat(stream.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(21, "Is a directory")
    except OSError as exc:
        _fail(MjcalcError("context", Msg("cannot read {path}: {reason}", path=path, reason=exc.strerror or str(exc))))
        raise AssertionError from exc
    return stream, detect_format(path, fmt), info.st_size if stat.S_ISREG(info.st_mode) else None


class OutputError(Exception):
    """The output cannot be opened or written: the path and the reason (exit 3)."""

    def __init__(self, name: str, exc: OSError) -> None:
        super().__init__(f"cannot write {name}: {exc.strerror or exc}")
        self.broken_pipe = isinstance(exc, BrokenPipeError)


class Output:
    """Where a batch writes: a file (``-o``; appended to when a run is resumed) or standard output, as UTF-8
    bytes, a chunk of whole records at a time and flushed then, so that an interrupted run leaves only whole
    records. Any failure to open or write is an OutputError naming the path."""

    def __init__(self, path: str | None, append: bool = False) -> None:
        self.name = "standard output" if path in (None, "-") else str(path)
        self.stream: IO[bytes]
        try:
            if path in (None, "-"):
                self.stream = sys.stdout.buffer
            else:
                self.stream = open(path, "ab" if append else "wb")  # noqa: SIM115  (closed by close())
            self.empty = not append or self.stream.tell() == 0
        except OSError as exc:
            raise OutputError(self.name, exc) from None

    def write(self, text: str | bytes) -> None:
        """One record (text, or the UTF-8 bytes the batch's ENCODERS give) and its line end."""
        self.write_lines(text + b"\n" if isinstance(text, bytes) else text + "\n")

    def write_lines(self, data: str | bytes | memoryview) -> None:
        """Whole lines (text, or the bytes the batch's ENCODERS give, each record followed by its line end)."""
        try:
            self.stream.write(data.encode("utf-8", "backslashreplace") if isinstance(data, str) else data)
        except OSError as exc:
            raise OutputError(self.name, exc) from None

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as exc:
            raise OutputError(self.name, exc) from None

    def close(self) -> None:
        try:
            if self.stream is sys.stdout.buffer:
                self.stream.flush()
            else:
                self.stream.close()
        except OSError as exc:
            raise OutputError(self.name, exc) from None


def _quiet_broken_pipe() -> None:
    """The reader of our output went away (``| head``): end as a process killed by SIGPIPE does, quietly."""
    import os
    import signal

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # nothing left to flush at exit can fail
    except (OSError, ValueError):
        pass
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    os._exit(141)


def _end_now(code: int) -> None:
    """Exit at once with ``code``, what was written flushed, skipping the interpreter's exit (which joins
    every thread left running)."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _file_request(rules: str | None, set_: list[str] | None, config: "Config") -> "Request":
    """The Request for a whole file, checked once up front: a wrong --rules or --set stops here (exit 3)
    rather than failing every line."""
    from .engine import Request, check_run_options, request_options
    from .ruleset.loader import load_ruleset

    request = Request(rules or config.rules, _options(set_), (), config.options, lenient=True)
    try:
        if request.options:  # NAME: an option of some ruleset; RULESET.NAME: of that one (each ruleset loaded)
            check_run_options(request)
        request_options(load_ruleset(request.rules or DEFAULT_RULESET), request)
    except MjcalcError as exc:
        _fail(exc)
    return request


def _in_folder(request: "Request", file: str) -> "Request":
    """A file's records name ruleset files relative to the file (``+rules=house.yaml`` beside it)."""
    if file == "-":
        return request
    import os

    return request.in_folder(os.path.dirname(os.path.abspath(file)))


@app.command()
def batch(
    files: list[str] = typer.Argument(..., metavar="FILE", help="Hand file (one line per hand, CSV, JSONL or "
                                      "YAML), or - for stdin; with --dask, files and globs. Game logs (Tenhou "
                                      "mjlog XML, .xml.gz, tenhou.net/6 JSON; folders of them): one record a win, "
                                      "the log's values beside mjcalc's."),
    rules: str | None = RulesOpt,
    set_: list[str] | None = SetOpt,
    output_format: str = typer.Option("table", "--format", help="table | csv | jsonl"),
    input_format: str = typer.Option("auto", "--input-format", help="auto | lines | csv | jsonl | yaml | tenhou "
                                     "(auto: the file's extension, else its first line; game logs by their "
                                     "names and content)"),
    output: str | None = typer.Option(None, "--output", "-o", help="Write here instead of stdout."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", show_default=False, help="Worker processes (at "
                                    "most the cores; default: every core for a file of more than "
                                    "about 2,000 lines, else 1); order is kept."),
    from_line: int = typer.Option(1, "--from-line", min=1, help="Resume an interrupted run: score the "
                                  "records from this input line on (line numbers kept; -o is "
                                  "appended to)."),
    dask: str | None = typer.Option(None, "--dask", metavar="SCHEDULER", help="Score on a Dask cluster: its "
                                    "scheduler's address, or local; one output file per partition of "
                                    "the FILEs in -o DIR (needs the dask extra)."),
    partition_size: str | None = typer.Option(None, "--partition-size", metavar="SIZE", help="With --dask: "
                                              "the files are cut into partitions of about this size "
                                              "(default 8MiB: some 150,000 lines)."),
) -> None:
    """Score every hand of a file in order: one output record per input record, errors included."""
    import signal

    if input_format == "tenhou" or (input_format == "auto" and _are_logs(files)):
        _logs_batch(files, dask, rules, set_, output_format, output, jobs, from_line, partition_size)
    if dask is not None:
        _dask_batch(files, dask, rules, set_, output_format, input_format, output, jobs, from_line, partition_size)
    if len(files) != 1:
        _fail(MjcalcError("option", f"batch scores one FILE at a time, not {len(files)} (several, or globs, "
                                    "with --dask)"))
    file = files[0]

    from .batch.lines import LineSource
    from .batch.parallel import FileRecords
    from .batch.readers import INPUT_FORMATS, file_problem, read_records
    from .batch.run import run
    from .batch.work import Stop, Summary
    from .batch.writers import ENCODERS, OUTPUT_FORMATS, Progress, csv_header

    if output_format not in OUTPUT_FORMATS:
        _fail(MjcalcError("option", Msg("--format is one of {formats}, not '{value}'",
                                        formats=", ".join(OUTPUT_FORMATS), value=output_format)))
    if input_format not in INPUT_FORMATS:
        _fail(MjcalcError("option", Msg("--input-format is one of {formats}, not '{value}'",
                                        formats=", ".join(INPUT_FORMATS), value=input_format)))
    config = _config()
    request = _in_folder(_file_request(rules, set_, config), file)
    stream, fmt, size = _open_input(file, input_format)
    problem = file_problem(file, fmt) if size is not None else None  # said once, before any output is written
    if problem is not None:
        stream.close()
        _fail(MjcalcError("record", f"{file}: {problem}"))
    auto = jobs is None
    jobs = _bounded_jobs(jobs, size, file)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # a closed pipe is an error we handle (workers included)
    summary = Summary()
    source = LineSource(stream)
    code = 0
    # on a terminal, unless the records themselves go there
    progress = Progress(size is not None and (output is not None or not sys.stdout.isatty()),
                        None if size is None else file)
    try:
        out = Output(output, append=from_line > 1)
        try:
            if output_format == "csv" and out.empty:
                out.write(csv_header())
            interactive = file == "-" and sys.stdin.isatty()
            with _quiet_collector(), Stop.handling():
                records = read_records(source, fmt, from_line) if file == "-" else \
                    FileRecords(file, source, fmt, from_line)  # --jobs: each worker reads its share of the file
                run(records, request, ENCODERS[output_format], out.write_lines,
                    jobs=jobs, progress=progress, summary=summary, chunk=1 if interactive else None,
                    flush=out.flush, split_only=auto, joined=True)  # without --jobs: a file the workers cannot split stays here
        finally:
            progress.close()
            out.close()
    except OutputError as exc:
        if exc.broken_pipe:
            _quiet_broken_pipe()
        typer.echo(f"mjcalc: {exc}", err=True)
        code = EXIT_BAD_RULESET
    except KeyboardInterrupt:  # a second Ctrl-C (or SIGTERM) while the first was being honoured
        summary.stopped = Msg("interrupted ({signal})", signal=signal.Signals(Stop.signum or signal.SIGINT).name)
        code = 128 + (Stop.signum or signal.SIGINT)
    except MjcalcError as exc:  # the input as a whole cannot be read (standard input's CSV header): one message
        _fail(MjcalcError(exc.kind, f"{'standard input' if file == '-' else file}: {exc.message}"))
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    if source.stopped and not code:
        code = EXIT_BAD_INPUT  # the input could not be read to its end (the reason is on stderr)
    if summary.stopped and not code:
        code = 128 + (Stop.signum or signal.SIGINT)
    if summary.total or not code:
        typer.echo(summary.line(_summary_lang(config)), err=True)
    if code > 128:  # stopped by a signal: end now, without joining the pool's thread (batch.parallel._stop_pool)
        _end_now(code)
    if not code:
        counts = summary.counts
        code = EXIT_INTERNAL if counts.get("internal") else EXIT_BAD_INPUT if counts.get("error") else 0
    raise typer.Exit(code)


def _are_logs(files: list[str]) -> bool:
    """Every FILE is a game log (by its name or its start) or a folder: a batch of logs."""
    import os

    from .logs.files import looks_like_log

    return bool(files) and all(f != "-" and (os.path.isdir(f) or looks_like_log(f)) for f in files)


def _logs_batch(files: list[str], dask: str | None, rules: str | None, set_: list[str] | None, output_format: str,
                output: str | None, jobs: int | None, from_line: int, partition_size: str | None) -> None:
    """``batch`` on game logs (mjcalc.logs.batch): one record a win, the log's values beside mjcalc's; the summary
    on stderr. Exit 0 when every win agrees with its log, 1 when one differs, 2 when a log cannot be read."""
    import time

    from .logs import batch as logs

    config = _config()
    if output_format not in logs.RENDERERS:
        _fail(MjcalcError("option", Msg("--format is one of {formats}, not '{value}'",
                                        formats=", ".join(logs.RENDERERS), value=output_format)))
    if from_line != 1:
        _fail(MjcalcError("option", "--from-line does not go with game logs (a run is redone whole)"))
    options = _options(set_)
    try:
        logs.check_rules(rules, options)
    except MjcalcError as exc:
        _fail(exc)
    start = time.perf_counter()
    if dask is not None:
        from .logs.dask_logs import run_dask

        if output in (None, "-"):
            _fail(MjcalcError("option", "--dask writes one file per group of logs: -o DIR names their folder"))
        try:
            tally, failures = run_dask(files, dask, str(output), rules, options, output_format, partition_size,
                                       say=lambda text: typer.echo(text, err=True))
        except MjcalcError as exc:
            _fail(exc)
            raise AssertionError from exc
        for failure in failures:
            typer.echo(f"mjcalc: {failure}", err=True)
    else:
        failures = []
        try:
            out = Output(output)
            try:
                with _quiet_collector():  # one process unless --jobs: a log's records are soon written
                    tally = logs.run(files, out.write_lines, rules, options, output_format,
                                     jobs=1 if jobs is None else _bounded_jobs(jobs, None, files[0]))
            finally:
                out.close()
        except OutputError as exc:
            if exc.broken_pipe:
                _quiet_broken_pipe()
            typer.echo(f"mjcalc: {exc}", err=True)
            raise typer.Exit(EXIT_BAD_RULESET) from None
    typer.echo("mjcalc: " + tally.line(_summary_lang(config), time.perf_counter() - start), err=True)
    raise typer.Exit(EXIT_BAD_INPUT if tally.unreadable or failures else 1 if tally.agree < tally.wins else 0)


def _summary_lang(config: "Config") -> str:
    """The language of a batch's summary line: MJCALC_LANG or the config file's (its records stay English)."""
    return config.lang if config.lang in ("en", "zh") else "en"


def _dask_batch(files: list[str], scheduler: str, rules: str | None, set_: list[str] | None, output_format: str,
                input_format: str, output: str | None, jobs: int | None, from_line: int, partition_size: str | None) -> None:
    """``batch --dask``: the files scored on a Dask cluster (mjcalc.batch.dask), one output file a partition."""
    import gc

    gc.enable()  # off for start-up (mjcalc.__main__)
    from importlib.util import find_spec

    from .batch.dask import NO_DASK, OUTPUT_FORMATS, PARTITION_BYTES, parse_size, run
    from .batch.readers import INPUT_FORMATS

    if find_spec("distributed") is None:
        _fail(MjcalcError("option", NO_DASK))
    if output_format not in OUTPUT_FORMATS:
        _fail(MjcalcError("option", f"--dask writes files of JSON Lines or CSV: --format jsonl or csv, not "
                                    f"'{output_format}'"))
    if input_format not in INPUT_FORMATS:
        _fail(MjcalcError("option", f"--input-format is one of {', '.join(INPUT_FORMATS)}, not '{input_format}'"))
    if output in (None, "-"):
        _fail(MjcalcError("option", "--dask writes one file per partition: -o DIR names their folder"))
    if jobs not in (None, 1) or from_line != 1:
        _fail(MjcalcError("option", "--jobs and --from-line do not go with --dask (the cluster's workers share "
                                    "the work; a run is redone whole)"))
    config = _config()
    request = _file_request(rules, set_, config)
    try:
        size = PARTITION_BYTES if partition_size is None else parse_size(partition_size)
        summary, failures = run(files, scheduler, str(output), request, input_format, output_format,
                                say=lambda text: typer.echo(text, err=True), size=size)
    except MjcalcError as exc:
        _fail(exc)
        raise AssertionError from exc
    typer.echo(summary.line(_summary_lang(config)), err=True)
    for failure in failures:
        typer.echo(f"mjcalc: {failure}", err=True)
    counts = summary.counts
    if failures:
        typer.echo(f"mjcalc: {len(failures):,} partition{'s' * (len(failures) != 1)} not written whole: their "
                   "records are missing from the output", err=True)
    raise typer.Exit(EXIT_INTERNAL if counts.get("internal") else EXIT_BAD_INPUT if failures or counts.get("error")
                     else 0)


@app.command()
def check(
    file: str = typer.Argument(...,
        help="Homework file: HAND => fan 3 points 16 items 自摸,夹胡 (or - for stdin)."),
    rules: str | None = RulesOpt,
    set_: list[str] | None = SetOpt,
    json_out: bool = JsonOpt,
    lang: str | None = LangOpt,
    input_format: str = typer.Option("auto", "--input-format", help="auto | lines | csv | jsonl | yaml"),
) -> None:
    """Check answers: each record right or wrong, and for a wrong one what differs and why."""
    from .batch.readers import read_records
    from .homework.compare import check_record
    from .homework.messages import msg, score_text
    from .output.fit import terminal_width, wrap

    config = _config(lang)
    chosen = _chosen_lang(lang, config)
    stream, fmt, _ = _open_input(file, input_format)
    request = _in_folder(_file_request(rules, set_, config), file)
    right = wrong = errors = 0
    width = terminal_width()

    def say(text: str, indent: int) -> None:
        typer.echo("\n".join(wrap(text, width, indent)))

    try:
        records = read_records(stream, fmt)
        while True:
            try:
                record = next(records)
            except StopIteration:
                break
            except MjcalcError as exc:  # the input as a whole cannot be read (a CSV header): one message, exit 2
                _fail(MjcalcError(exc.kind, f"{'standard input' if file == '-' else file}: {exc.message}"))
            if record.skipped:
                continue
            entry = check_record(record, request, chosen)
            if json_out:
                typer.echo(json.dumps(entry, ensure_ascii=False))
            correct = entry["correct"]
            if correct is None:
                errors += 1
                if not json_out:
                    say(tr("line {line}:", chosen).format(line=record.line) + f" ? {entry['error']}  | {record.text}", 4)
                continue
            right += correct
            wrong += not correct
            if not json_out:
                mark = "✓" if correct else "✗"
                say(tr("line {line}:", chosen).format(line=record.line) + f" {mark} {record.text}", 4)
                for d in entry["differences"]:  # one per wrong number, its other explanations under it
                    say(f"    - {d['message']}", 6)
                    for alt in d["or"]:
                        say("      " + msg("or_line", chosen, text=alt["message"]), 10)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    typer.echo(score_text(right, right + wrong, errors, chosen), err=True)
    raise typer.Exit(EXIT_BAD_INPUT if errors else (1 if wrong else 0))


@app.command()
def waits(
    hand: list[str] = typer.Argument(..., help="A hand one tile short (13 tiles, 16 for 16-tile rules); "
                                               "quotes optional."),
    rules: str | None = RulesOpt,
    set_: list[str] | None = SetOpt,
    json_out: bool = JsonOpt,
    lang: str | None = LangOpt,
) -> None:
    """The tiles that complete a hand, how many are unseen, and what each would score; else its shanten."""
    from .engine import Request, analyse
    from .output.fit import terminal_width
    from .output.table import waits_text
    from .output.waits import report_json

    config = _config(lang)
    chosen = _chosen_lang(lang, config)
    report = analyse(" ".join(hand), Request(rules or config.rules, _options(set_), (), config.options))
    if json_out:
        typer.echo(json.dumps(report_json(report, chosen), ensure_ascii=False, indent=2))
    else:
        typer.echo(waits_text(report, chosen, terminal_width()))
    res = report.result
    if res.error is not None:
        raise typer.Exit(res.error.exit_code)
    raise typer.Exit(0 if res.result == "waiting" else EXIT_BAD_INPUT)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on: 0.0.0.0 shares the page with the phones on "
                                               "your network (127.0.0.1: this machine only)."),
    port: int = typer.Option(8000, min=0, max=65535, help="Port (0: any free one)."),
    open_: bool = typer.Option(False, "--open", help="Open the page in this machine's browser."),
    allow_host: list[str] = typer.Option([], "--allow-host", metavar="NAME",
                                         help="A name the page may be opened by besides this machine's addresses "
                                              "and localhost (repeatable); other names are refused."),
    db: str | None = typer.Option(None, "--db", help="The games' database file (default: MJCALC_DB, else "
                                                     "~/.local/share/mjcalc/games.db)."),  # mjcalc game's own
) -> None:
    """The calculator as a web page for the phones at the table, and its JSON API (needs the serve extra)."""
    from .web import missing  # the web stack only for this command: the others start without it

    gone = missing()
    if gone:
        _fail(MjcalcError("option", f"mjcalc serve needs {' and '.join(gone)}, which are not installed: "
                          "pip install 'mjcalc[serve]' (from a checkout: pip install '.[serve]')"))
    from .web.server import run

    try:
        code = run(host, port, open_, tuple(allow_host), db)
    except MjcalcError as exc:
        _fail(exc)
        return
    raise typer.Exit(code)


@rules_app.command("list")
def rules_list_cmd(json_out: bool = JsonOpt, lang: str | None = LangOpt) -> None:
    """The built-in rulesets."""
    from .config import Config
    from .output.fit import terminal_width
    from .output.rules_table import rules_list
    from .ruleset.loader import load_ruleset
    from .support.builtin import builtin_names

    # --json reads no configuration
    chosen = _chosen_lang(lang, Config()) if json_out else _chosen_lang(lang, _config(lang))

    try:
        loaded = [load_ruleset(n) for n in builtin_names()]
    except MjcalcError as exc:
        _fail(exc)
        return
    if json_out:
        typer.echo(json.dumps([{"id": r.id, "names": r.names, "unit": r.unit, "description": r.description}
                               for r in loaded], ensure_ascii=False, indent=2))
    else:
        typer.echo(rules_list(loaded, chosen, terminal_width()))


@rules_app.command("schema")
def rules_schema(
    markdown: bool = typer.Option(False, "--markdown", help="The tables of rules/SCHEMA.md instead."),
) -> None:
    """The grammar of a ruleset file, as a JSON Schema (for an editor that checks YAML as you type)."""
    from .ruleset.schema import markdown as schema_markdown
    from .ruleset.schema import ruleset_schema

    typer.echo(schema_markdown() if markdown else json.dumps(ruleset_schema(), ensure_ascii=False, indent=2))


@rules_app.command("show")
def rules_show(
    name: str = typer.Argument(..., help="A built-in ruleset name or a path to a .yaml file."),
    json_out: bool = JsonOpt,
    lang: str | None = LangOpt,
) -> None:
    """Every item, win condition and option of a ruleset, from the same data that scores."""
    from .config import Config
    from .output.fit import terminal_width
    from .output.rules_table import ruleset_json, ruleset_text
    from .ruleset.loader import load_ruleset

    # --json reads no configuration
    chosen = _chosen_lang(lang, Config()) if json_out else _chosen_lang(lang, _config(lang))
    try:
        rules = load_ruleset(name)
    except MjcalcError as exc:
        _fail(exc)
        return
    if json_out:
        typer.echo(json.dumps(ruleset_json(rules), ensure_ascii=False, indent=2, default=str))
    else:
        typer.echo(ruleset_text(rules, chosen, terminal_width()))


def main(argv: list[str] | None = None) -> Any:
    """Entry point: typer's usage errors exit 2; ours carry their own codes; output that cannot be written is
    exit 3 with the reason; a closed pipe (``| head``) ends the process as SIGPIPE does; a bug says so in one
    line (set MJCALC_DEBUG=1 for the traceback)."""
    import errno
    import gc
    import os
    import signal

    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # as every Unix filter: `mjcalc … | head` ends quietly
    for stream in (sys.stdout, sys.stderr):  # an undecodable byte of an argument (a lone surrogate) prints as \udce9
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    try:
        try:
            args = sys.argv[1:] if argv is None else argv
            if _command_name(args) not in _BRIEF:
                gc.enable()  # off for start-up (mjcalc.__main__); a long run collects its garbage
            lang = _help_lang(args)
            if "--help" in args or len(args) <= 1:  # help is shown (no command, or a group without one)
                _fold_help_words()
            if lang == "en":
                return _narrowed(args)(args=argv, standalone_mode=True)
            return _translated(typer.main.get_command(_narrowed(args)), lang)(args=argv, standalone_mode=True)
        finally:
            sys.stdout.flush()  # a full disk shows here, not in an "Exception ignored" at exit
    except MjcalcError as exc:  # a safety net: engine errors are normally inside the Result
        sys.stderr.write(f"mjcalc: {exc.render(_LANG[0])}\n")
        sys.exit(exc.exit_code or EXIT_BAD_INPUT)
    except OSError as exc:
        if exc.errno not in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF, errno.EPIPE):
            if os.environ.get("MJCALC_DEBUG"):
                raise
            _internal(exc)
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (the exit's flush must not fail again)
        except OSError:
            pass
        sys.stderr.write(f"mjcalc: cannot write standard output: {exc.strerror or exc}\n")
        sys.exit(EXIT_BAD_RULESET)
    except Exception as exc:  # the last line of defence: no traceback for users
        if os.environ.get("MJCALC_DEBUG"):
            raise
        _internal(exc)


# Commands that do a bounded amount of work (one hand, one ruleset) and end: they run without the garbage
# collector that mjcalc.__main__ turns off for start-up. batch turns it on once its records are read
# (_quiet_collector); every other command at once.
_BRIEF = ("score", "waits", "rules", "batch")


def _command_name(argv: list[str]) -> str | None:
    """The command that the arguments name: the first that is not an option (mjcalc's own take no value)."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _narrowed(argv: list[str]) -> typer.Typer:
    """The app with only the command that ``argv`` names (``score``, ``rules`` …): Typer builds the click
    command of every command it holds, reading each one's signature, and a run needs one. The whole app when
    no command is named (``mjcalc --help``) or an unknown one (click's error lists the others)."""
    name = _command_name(argv)
    commands = [c for c in app.registered_commands
                if (c.name or c.callback.__name__.lower().replace("_", "-") if c.callback else None) == name]
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    import copy

    narrowed = copy.copy(app)
    narrowed.registered_commands = commands
    narrowed.registered_groups = groups
    return narrowed


def _help_lang(argv: list[str]) -> str:
    """The language of the help texts: --lang in the arguments, else MJCALC_LANG, else (when help is asked for)
    the config file's; English when none says (or says something else: the command then says what is wrong)."""
    import os

    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1] if argv[i + 1] in ("en", "zh") else "en"
        if arg.startswith("--lang="):
            return arg[7:] if arg[7:] in ("en", "zh") else "en"
    env = os.environ.get("MJCALC_LANG")
    if env:
        return env if env in ("en", "zh") else "en"
    if "--help" in argv or len(argv) <= 1:  # help: the commands, which read the config file, do not run
        try:
            from .config import load_config

            chosen = load_config().lang
        except MjcalcError:
            return "en"
        return chosen if chosen in ("en", "zh") else "en"
    return "en"


def _translated(command: Any, lang: str) -> Any:
    """The click command tree of the app with its help texts (and Typer's panel titles) in ``lang``."""
    from .i18n import tr

    def walk(cmd: Any) -> None:
        if cmd.help:
            cmd.help = tr(cmd.help, lang)
        shown = cmd.get_help_option

        def help_option(ctx: Any, shown: Any = shown) -> Any:  # click makes the --help option when asked
            option = shown(ctx)
            if option is not None and option.help == "Show this message and exit.":
                option.help = tr(N_("Show this message and exit."), lang)
            return option

        cmd.get_help_option = help_option
        for param in cmd.params:
            if getattr(param, "help", None):
                param.help = tr(param.help, lang)
        for sub in getattr(cmd, "commands", {}).values():
            walk(sub)

    walk(command)
    try:
        from typer import rich_utils
    except ImportError:  # no rich: click's plain help
        return command
    for name, text in _PANELS.items():
        if hasattr(rich_utils, name):
            setattr(rich_utils, name, tr(text, lang))
    return command


def _fold_help_words() -> None:
    """Help on a narrow terminal keeps every word of it: Typer's rich tables cut a word longer than its column
    (an option's name, a path, a Chinese sentence, which has no spaces) with an ellipsis; folded onto the next
    line instead."""
    try:
        from typer import rich_utils
    except ImportError:  # no rich: click's plain help, which wraps
        return
    if getattr(rich_utils, "_mjcalc_folds", False):
        return

    def folded(make: Any) -> Any:
        def make_folded(*args: Any, **kwargs: Any) -> Any:
            made = make(*args, **kwargs)
            for part in getattr(made, "renderables", None) or [made]:  # an option's help: Columns of texts
                if hasattr(part, "overflow"):
                    part.overflow = "fold"
            return made

        return make_folded

    for name in ("_get_parameter_help", "_make_command_help", "highlighter", "negative_highlighter"):
        if hasattr(rich_utils, name):  # the helps, and the highlighters that make the options' names
            setattr(rich_utils, name, folded(getattr(rich_utils, name)))
    rich_utils._mjcalc_folds = True  # type: ignore[attr-defined]


_PANELS = {"ARGUMENTS_PANEL_TITLE": N_("Arguments"), "OPTIONS_PANEL_TITLE": N_("Options"),
           "COMMANDS_PANEL_TITLE": N_("Commands"), "ERRORS_PANEL_TITLE": N_("Error"),
           "REQUIRED_LONG_STRING": N_("[required]")}


def _internal(exc: BaseException) -> None:
    sys.stderr.write(f"mjcalc: internal error: {type(exc).__name__}: {exc} — please report it with the "
                     "command you ran (MJCALC_DEBUG=1 shows the traceback)\n")
    sys.exit(EXIT_INTERNAL)
