"""Batch files: read records (one-line notation, CSV, JSONL, YAML), score them in order on one or more
processes, and write one output record per input record — streaming, so memory stays flat on a file of
any length.

Nothing a file holds stops the run or loses a record: the input is decoded line by line (a byte-order mark
picks UTF-8, UTF-16 or UTF-32), so a line that is not valid text, a CSV row with a stray quote, a JSON
record nested too deep or a YAML entry that does not parse is an error record with its line number, and the
reading goes on with the next record. A bug met while scoring one record is that record's error record
(kind ``internal``), never the end of the run.

The decoding of lines and the reader of one-line notation, which every line of a batch goes through, are in
mjcalc.lines (compiled); this module, with everything else, stays Python.
"""

from __future__ import annotations

import io
import json
import os
import signal
import stat
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing, contextmanager
from functools import lru_cache
from itertools import islice
from typing import IO, TYPE_CHECKING, Any, TypeVar, cast

from .engine import Request, Result, ruleset_path, score_line
from .errors import MjcalcError
from .hooks.riichi import yakuman_shown
from .lines import (
    JSON_START, MAX_RECORD, Line, LineSource, Record, chain, read_lines, sniff_encoding, split_answer, unread,
)
from .notation import FlagWord
from .pyclasses import LazyPattern
from .record import control_escaped as _printable
from .record import csv_cells, encode_jsonl, json_line, to_json

# Imported when first needed, so that a batch starts without them (benchmarks/bench_startup.py): the process
# pool with --jobs 2 or more (_parallel), PyYAML for a YAML batch file (_yaml_record, _yaml_whole).
if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

INPUT_FORMATS = ("auto", "lines", "csv", "jsonl", "yaml")
OUTPUT_FORMATS = ("table", "csv", "jsonl")
RECORD_KEYS = ("hand", "rules", "set", "answer", "line")
CHUNK = 256  # records per task sent to a worker process, and per flush of the output
_JOINED = 32  # records per text given to ``run``'s ``write`` when it takes them joined

# Bounds, each with its own message. A hand line is under 200 characters; these leave room for comments and
# homework answers and keep a hostile file from taking the memory or the time of the run.
# MAX_RECORD (mjcalc.lines): characters in one physical line (one record of lines / CSV / JSONL)
MAX_YAML_ENTRY = 65_536  # characters in one entry of a YAML list
MAX_YAML_WHOLE = 2 * 1024 * 1024  # a YAML file not laid out as a block list is read whole: its size
MAX_VALUE = 1_000  # characters in one option or flag value of a CSV / JSON / YAML record
MAX_LIST = 64  # items in a flag's list value (``dora: [3m, 7z]``)


# --- readers -------------------------------------------------------------------------------------------


def detect_format(name: str, requested: str) -> str:
    """The format a file's name says (``auto`` when it says none: then the content decides)."""
    if requested != "auto":
        return requested
    low = name.lower()
    for ext, fmt in ((".csv", "csv"), (".jsonl", "jsonl"), (".ndjson", "jsonl"), (".yaml", "yaml"), (".yml", "yaml")):
        if low.endswith(ext):
            return fmt
    return "auto"


_YAML_START = LazyPattern(r"""-\s+\{?\s*["']?hand["']?\s*:|hands\s*:\s*(#.*)?$|---\s*$""")


def sniff_format(first: str) -> str:
    """The format of a file or stream that its name does not give, from its first non-blank line: a JSON
    object, a YAML entry with a ``hand`` key, a CSV header naming a ``hand`` column, else the one-line
    notation. Strict on purpose: a hand line, however mangled, is read as a hand line."""
    text = first.strip()
    if text[:1] == "{" and JSON_START.match(text):  # (the patterns compiled only for a line they may match)
        try:
            if isinstance(json.loads(text), dict):
                return "jsonl"
        except (ValueError, RecursionError):
            pass
    if (text[:1] == "-" or text[:5] == "hands") and _YAML_START.match(text):
        return "yaml"
    if "hand" in text.lower():
        import csv

        try:
            cells = next(csv.reader([text], strict=True))
        except (csv.Error, StopIteration):
            cells = []
        if "hand" in (c.strip().lower() for c in cells):
            return "csv"
    return "lines"


def read_records(stream: IO[bytes] | IO[str] | LineSource, fmt: str = "auto", from_line: int = 1
                 ) -> Iterator[Record]:
    """Every record of the stream, in order, each with its line number: ``fmt`` is lines, csv, jsonl, yaml
    or auto (decided from the first non-blank line). Records before ``from_line`` are left out (a resumed
    run keeps the original line numbers)."""
    source = stream if isinstance(stream, LineSource) else LineSource(stream)
    fmt, lines = decide_format(fmt, iter(source))
    yield from READERS[fmt](lines, from_line)
    if source.stopped:
        sys.stderr.write(f"mjcalc: {source.stopped}\n")


def decide_format(fmt: str, lines: Iterator[Line]) -> tuple[str, Iterator[Line]]:
    """The format (``auto``: from the first line with something to read, looking at most 1,000 lines ahead)
    and the lines, those looked at included."""
    if fmt != "auto":
        return fmt, lines
    ahead: list[Line] = []
    for line in lines:
        ahead.append(line)
        if line.problem is None and line.text.strip() and not line.text.lstrip().startswith("#"):
            break
        if len(ahead) > 1000:
            break
    fmt = sniff_format(ahead[-1].text) if ahead and ahead[-1].problem is None else "lines"
    return fmt, chain(ahead, lines)


def _guarded(n: int, text: str, read: Callable[[], Record]) -> Record:
    """A reader's work on one record; a bug there is that record's error, not the end of the reading."""
    try:
        return read()
    except Exception as exc:
        return Record(n, text[:200], problem=f"internal error reading the record: {type(exc).__name__}: {exc}")


def _scalar(key: str, value: Any) -> str:
    """A record's option or flag value as text, checked: a string, a number or a yes/no, of bounded size."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, int):
        if not -10**18 <= value <= 10**18:
            raise _Bad(f"'{key}': the number {str(value)[:12]}… is out of range")
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        if len(value) > MAX_VALUE:
            raise _Bad(f"'{key}': the value is {len(value):,} characters long; at most {MAX_VALUE:,}")
        return value
    raise _Bad(f"'{key}' must be a string or a number, not {_type_name(value)}")


class _Bad(Exception):
    """A record that has the wrong shape: the message says which key and why."""


def _type_name(value: Any) -> str:
    return {dict: "a mapping", list: "a list", type(None): "empty"}.get(type(value), type(value).__name__)


_SURROGATE = LazyPattern("[\ud800-\udfff]")


def _text_field(key: str, value: Any, limit: int = MAX_RECORD) -> str:
    if not isinstance(value, str):
        raise _Bad(f"'{key}' must be a string, not {_type_name(value)}")
    if len(value) > limit:
        raise _Bad(f"'{key}' is {len(value):,} characters long; at most {limit:,}")
    if _SURROGATE.search(value):
        raise _Bad(f"'{key}' holds a lone surrogate (\\u{ord(_SURROGATE.search(value).group()):04x}), "  # type: ignore[union-attr]
                   "which is not text")
    return value


def _from_mapping(n: int, data: Any, source: str) -> Record:
    """A JSON / YAML record: ``hand`` (the one-line form) with optional ``rules``, ``set``, ``answer``; any other
    key is a context flag (``zimo: true``, ``seat: E``). Every value is checked for its type and size: a record
    of the wrong shape is an error record that names the key."""
    try:
        if isinstance(data, str):
            hand, answer = split_answer(_text_field("hand", data))
            return Record(n, hand, answer=answer)
        if not isinstance(data, dict):
            raise _Bad(f"a record is a mapping with a 'hand' key, not {_type_name(data)}")
        if "hand" not in data:
            raise _Bad("the record has no 'hand'")
        hand_text = _text_field("hand", data["hand"]).strip()
        if not hand_text:
            raise _Bad("the record's 'hand' is empty")
        rules = data.get("rules")
        if rules is not None:
            rules = _text_field("rules", rules, 1_000).strip() or None
        raw_options = data.get("set")
        if raw_options is None:
            raw_options = {}
        if not isinstance(raw_options, dict):
            raise _Bad(f"'set' must be a mapping of option: value, not {_type_name(raw_options)}")
        options = {_text_field("set", str(k) if isinstance(k, (int, bool)) else k, 100): _scalar(f"set.{k}", v)
                   for k, v in raw_options.items()}
        flags = []
        for key, value in data.items():
            if key in RECORD_KEYS:
                continue
            if not isinstance(key, str):
                raise _Bad(f"a key must be a flag name, not {_type_name(key)} {str(key)[:20]}")
            _text_field("a flag name", key, 100)
            if value is True:
                flags.append(FlagWord(key, None, None))
            elif value is not False and value is not None:
                if isinstance(value, list):
                    if len(value) > MAX_LIST:
                        raise _Bad(f"'{key}' lists {len(value):,} values; at most {MAX_LIST}")
                    text = ",".join(_scalar(key, v) for v in value)
                else:
                    text = _scalar(key, value)
                flags.append(FlagWord(key, text, None))
        answer = data.get("answer")
        if answer is not None and not isinstance(answer, (str, dict)):
            raise _Bad(f"'answer' must be a string or a mapping, not {_type_name(answer)}")
        hand, inline_answer = split_answer(hand_text)
        return Record(n, hand, rules, options, flags, answer if answer is not None else inline_answer)
    except _Bad as exc:
        return Record(n, source, problem=str(exc))


def _read_jsonl(lines: Iterator[Line], from_line: int) -> Iterator[Record]:
    for line in lines:
        n = line.number
        if n < from_line:
            continue
        text = line.text.strip()
        record = unread(line, text)
        yield record if record is not None else _guarded(n, text, lambda: _json_record(n, text))


def _json_record(n: int, text: str) -> Record:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return Record(n, text, problem=f"not valid JSON: {exc.msg} at column {exc.colno}")
    except RecursionError:
        return Record(n, text, problem="not a record: the JSON is nested too deeply")
    except ValueError as exc:  # a number of more than 4,300 digits
        return Record(n, text, problem=f"not a record: {str(exc).split(';')[0]}")
    return _from_mapping(n, data, text)


def _csv_cells(text: str) -> list[str]:
    """One physical line as CSV cells: a field never runs onto the next line, so a stray quote costs one row."""
    import csv

    return next(csv.reader((text,), strict=True))


def _read_csv(lines: Iterator[Line], from_line: int) -> Iterator[Record]:
    """A header with a ``hand`` column; optional ``rules`` and ``answer`` columns; the other non-empty cells are
    options. One physical line is one row (hands never hold a line break), so a quote left open is an error
    in its own row only. A header without a ``hand`` column, or that cannot be read, leaves no row readable: it is
    the file's one error (MjcalcError, kind ``record``), raised before any row is read."""
    header: list[str] | None = None
    header_line = 0
    for line in lines:
        n = line.number
        if header is None:
            if line.problem is None and not line.text.strip():
                if n >= from_line:
                    yield Record(n, "", skipped=True)
                continue
            header_line = n
            header, problem = read_csv_header(line)
            if problem is not None:
                raise MjcalcError("record", problem)
            continue
        if n < from_line:
            continue
        if line.problem is not None:
            yield Record(n, line.text, problem=line.problem)
        elif not line.text.strip():
            yield Record(n, "", skipped=True)
        else:
            yield _guarded(n, line.text, lambda: _csv_record(n, line.text, header or [], header_line))


def read_csv_header(line: Line) -> tuple[list[str], str | None]:
    """A CSV file's header line: its column names, and what is wrong with it for the whole file (it cannot be
    read, or it names no ``hand`` column), or None."""
    import csv

    n = line.number
    try:
        if line.problem is not None:
            raise csv.Error(line.problem)
        header = [c.strip().lower() for c in _csv_cells(line.text)]
    except csv.Error as exc:
        return [], f"the CSV header (line {n}) cannot be read: {exc}"
    if "hand" not in header:
        shown = ", ".join(repr(c) for c in header[:8]) + (", …" if len(header) > 8 else "")
        return header, (f"the CSV header (line {n}) has no 'hand' column (its columns: {shown}); "
                        "the first line of a CSV file names the columns, one of them 'hand'")
    return header, None


def file_problem(path: str, fmt: str = "auto") -> str | None:
    """What is wrong with a file on disk as a whole, found from its first lines before any record is scored (a
    CSV header without a ``hand`` column), or None: a run says it once, instead of once a row."""
    try:
        with open(path, "rb") as f:
            fmt, lines = decide_format(fmt, iter(LineSource(f)))
            if fmt != "csv":
                return None
            header = next((ln for ln in lines if ln.problem is not None or ln.text.strip()), None)
    except OSError:
        return None  # the reading says what is wrong
    return None if header is None else read_csv_header(header)[1]


def _csv_record(n: int, text: str, header: list[str], header_line: int) -> Record:
    import csv

    try:
        cells = _csv_cells(text)
    except csv.Error as exc:
        why = "a quote is not closed on this line (a field cannot span lines)" \
            if "end of data" in str(exc) else str(exc)
        return Record(n, text, problem=f"not a CSV row: {why}")
    if len(cells) > len(header) and any(c.strip() for c in cells[len(header):]):
        return Record(n, text, problem=f"the row has {len(cells)} cells and the header (line {header_line}) "
                                       f"names {len(header)} columns")
    row = dict(zip(header, cells))
    hand = row.get("hand", "").strip()
    if hand.startswith("#"):
        return Record(n, hand, skipped=True)
    if not hand:
        return Record(n, text, problem="the row has no hand (its 'hand' cell is empty)")
    for key, value in row.items():
        if len(value) > MAX_VALUE and key != "hand":
            return Record(n, text, problem=f"the '{key}' cell is {len(value):,} characters long; at most "
                                           f"{MAX_VALUE:,}")
    options = {k: v.strip() for k, v in row.items()
               if k not in ("hand", "rules", "answer", "line") and k and v.strip()}
    hand, answer = split_answer(hand)
    return Record(n, hand, row.get("rules", "").strip() or None, options,
                  answer=row.get("answer", "").strip() or answer)


_ENTRY = LazyPattern(r"( *)-(?: |$)")
_YAML_HEAD = LazyPattern(r"hands\s*:\s*(?:#.*)?$")


def _read_yaml(lines: Iterator[Line], from_line: int) -> Iterator[Record]:
    """A YAML list of records (or a mapping whose ``hands`` is that list). Laid out as a block list — one
    ``- `` per entry, the usual way — each entry is read on its own, as it comes: a bad entry is one error
    record and the next entry is read, and the file can be of any length. Any other layout (a flow list
    ``[…]``) is read whole, up to a bounded size. Aliases are refused (an entry is a few plain values)."""
    ahead: list[Line] = []
    indent: int | None = None
    for line in lines:
        ahead.append(line)
        stripped = line.text.strip()
        if not stripped and line.problem is not None:  # an over-long first line
            break
        if not stripped or stripped.startswith("#") or stripped == "---" or _YAML_HEAD.match(line.text):
            continue
        found = _ENTRY.match(line.text if line.bare is None else line.bare)
        if found:
            indent = len(found.group(1))
        break
    if indent is None:
        yield from _yaml_whole(chain(ahead, lines), from_line)
        return
    entry: list[Line] = []
    for line in chain(ahead, lines):
        found = _ENTRY.match(line.text if line.bare is None else line.bare)  # a line not text still has a layout
        if found and len(found.group(1)) == indent:
            if entry:
                yield from _yaml_entry(entry, indent, from_line)
            entry = [line]
        elif entry:
            entry.append(line)
        # lines before the first entry: the ``hands:`` key, comments
    if entry:
        yield from _yaml_entry(entry, indent, from_line)


@lru_cache(maxsize=1)
def _loaders() -> tuple[Any, Any]:
    """PyYAML, imported with the first YAML record, and its loaders for a batch entry: libyaml's safe loader
    where PyYAML has it (8x faster on an entry than pure Python; None elsewhere), and a safe loader without
    aliases (an entry is a few plain values, and an alias is how a tiny file becomes an enormous value)."""
    import yaml

    class EntryLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in a batch file",
                                                  event.start_mark)
            return super().compose_node(parent, index)

    return getattr(yaml, "CSafeLoader", None), EntryLoader


def _yaml_problem(exc: Exception, first_line: int) -> str:
    mark = getattr(exc, "problem_mark", None)
    where = f" at line {first_line + mark.line}" if mark is not None else ""
    what = getattr(exc, "problem", None) or str(exc)
    return f"not valid YAML{where}: {what}"


def _yaml_entry(entry: list[Line], indent: int, from_line: int) -> Iterator[Record]:
    """One ``- `` entry of a block list (its lines, the first with the dash) as one record."""
    n = entry[0].number
    if n < from_line:
        return
    shown = entry[0].text.strip()[:200]
    bad = next((ln for ln in entry if ln.problem is not None), None)
    if bad is not None:
        yield Record(n, shown, problem=f"line {bad.number}: {bad.problem}")
        return
    size = sum(len(ln.text) + 1 for ln in entry)
    if size > MAX_YAML_ENTRY:
        yield Record(n, shown, problem=f"the entry is {size:,} characters long; an entry is at most "
                                       f"{MAX_YAML_ENTRY:,}")
        return
    text = "\n".join(ln.text[indent:] if not ln.text[:indent].strip() else ln.text.lstrip() for ln in entry)
    yield _guarded(n, shown, lambda: _yaml_record(n, text, shown))


def _has_alias(text: str) -> bool:
    """Whether an entry uses an alias (``*name``): asked only when a ``*`` is in it at all."""
    import yaml

    return "*" in text and any(isinstance(e, yaml.AliasEvent) for e in yaml.parse(text, Loader=_loaders()[0]))


def _yaml_record(n: int, text: str, shown: str) -> Record:
    fast, entry_loader = _loaders()
    import yaml

    try:
        if fast is not None and not _has_alias(text):
            data = yaml.load(text, Loader=fast)  # noqa: S506  (libyaml's safe loader)
        else:
            data = yaml.load(text, Loader=entry_loader)  # noqa: S506  (a safe loader, aliases refused)
    except yaml.YAMLError as exc:
        return Record(n, shown, problem=_yaml_problem(exc, n))
    except RecursionError:
        return Record(n, shown, problem="not a record: the YAML is nested too deeply")
    except ValueError as exc:  # a number of more than 4,300 digits
        return Record(n, shown, problem=f"not a record: {str(exc).split(';')[0]}")
    if not isinstance(data, list) or len(data) != 1:
        return Record(n, shown, problem="not one list entry (is the indentation right?)")
    return _from_mapping(n, data[0], shown)


def _yaml_whole(lines: Iterator[Line], from_line: int) -> Iterator[Record]:
    """A YAML file not laid out as a block list, read whole (bounded): each entry of its list one record."""
    collected: list[str] = []
    size = 0
    first = 0
    for line in lines:
        first = first or line.number
        if line.problem is not None:
            yield Record(line.number, line.text, problem=line.problem)
            return
        size += len(line.text) + 1
        if size > MAX_YAML_WHOLE:
            yield Record(first, "", problem=f"a YAML batch file not laid out as a list of '- ' entries is read "
                                            f"whole, and this one is over {MAX_YAML_WHOLE:,} characters: write "
                                            "one '- ' entry per record, or use JSON Lines")
            return
        collected.append(line.text)
    if not collected:
        return
    import yaml

    loader = _loaders()[1]("\n".join(collected))
    records: list[Record] = []
    try:
        root = loader.get_single_node()
        if isinstance(root, yaml.MappingNode):
            root = next((v for k, v in root.value if getattr(k, "value", None) == "hands"), None)
        if not isinstance(root, yaml.SequenceNode):
            records = [Record(first, "", problem="a YAML batch file is a list of records "
                                                 "(or a mapping with a 'hands' list)")]
        else:
            for node in root.value:
                n = node.start_mark.line + 1
                if n < from_line:
                    continue
                shown = collected[node.start_mark.line].strip()[:200]
                try:
                    data = loader.construct_object(node, deep=True)
                except (yaml.YAMLError, RecursionError, ValueError) as exc:
                    records.append(Record(n, shown, problem=_yaml_problem(exc, 1)))
                    continue
                records.append(_guarded(n, shown, lambda: _from_mapping(n, data, shown)))  # noqa: B023
    except yaml.YAMLError as exc:
        records = [Record(first, "", problem=_yaml_problem(exc, 1) + " (the file is read whole, as it is not "
                                                                       "a list of '- ' entries)")]
    except RecursionError:
        records = [Record(first, "", problem="not valid YAML: nested too deeply")]
    finally:
        loader.dispose()
    yield from records


READERS: dict[str, Callable[[Iterator[Line], int], Iterator[Record]]] = {
    "lines": read_lines, "csv": _read_csv, "jsonl": _read_jsonl, "yaml": _read_yaml,
}


# --- scoring in order, on one or more processes --------------------------------------------------------


def score_record(record: Record, base: Request) -> Result:
    """The Result for one record (an error Result when the record itself is unreadable)."""
    if record.problem is not None:
        res = Result(record.text, "error", error=MjcalcError("record", record.problem))
    elif record.plain:
        res = score_line(record.text, base, with_wait_scores=False)  # the file's own request
    else:
        request = Request(
            rules=ruleset_path(record.rules, base.rules_dir) if record.rules else base.rules,
            options={**base.options, **record.options},
            flags=[*base.flags, *record.flags],
            config_options=base.config_options,
            lenient=base.lenient,  # --set NAME applies to the records whose ruleset has it
            rules_dir=base.rules_dir,
        )
        res = score_line(record.text, request, with_wait_scores=False)
    res.line = record.line
    return res


# A record's output: text (RENDERERS: the Python API's, Dask's) or the UTF-8 bytes written (ENCODERS: the CLI's).
Renderer = Callable[[Record, "Result | None"], str]
Encoder = Callable[[Record, "Result | None"], bytes]


def _one(record: Record, base: Request, render: Renderer | Encoder) -> tuple[str, Any]:
    """One record's kind and output (the text or the bytes the renderer gives). Whatever goes wrong inside is this
    record's error record."""
    try:
        if record.skipped:
            return "skipped", render(record, None)
        res = score_record(record, base)
        return res.result, render(record, res)
    except Exception as exc:  # a bug in mjcalc: reported in place, the run goes on
        message = f"internal error: {type(exc).__name__}: {str(exc)[:300]} — a bug in mjcalc, please report it"
        res = Result(record.text, "error", error=MjcalcError("internal", message))
        res.line = record.line
        try:
            return "internal", render(record, res)
        except Exception:
            text = json.dumps({"line": record.line, "input": record.text, "result": "error",
                               "error": {"kind": "internal", "message": message, "column": None}}, ensure_ascii=False)
            return "internal", text.encode("utf-8", "backslashreplace") if render in ENCODERS.values() else text


def _score_all(records: Iterable[Record], base: Request, render: Renderer | Encoder, texts: list[Any],
               counts: dict[str, int], stop: bool) -> int:
    """``_one`` for each record in turn, its output appended to ``texts`` and its kind counted in ``counts``; the
    last record's line (0 when none). A plain line (no rules, options or flags of its own: most of a file) is
    scored here as ``score_record`` and ``_one`` do it, without their calls; anything wrong with it is left to
    ``_one``, which says so in the record. ``stop``: end after the record during which a signal came."""
    last = 0
    for record in records:
        if record.plain:
            try:
                res = score_line(record.text, base, with_wait_scores=False)
                res.line = record.line
                text = render(record, res)
                kind = res.result
            except Exception:
                kind, text = _one(record, base, render)
        else:
            kind, text = _one(record, base, render)
        texts.append(text)
        counts[kind] = counts.get(kind, 0) + 1
        last = record.line
        if stop and Stop.signum:
            break
    return last


def _work(chunk: list[Record], base: Request, render: Renderer | Encoder) -> list[tuple[int, str, str | bytes]]:
    return [(record.line, *_one(record, base, render)) for record in chunk]


def _chunks(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    chunk: list[Record] = []
    for r in records:
        chunk.append(r)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


class Summary:
    """What a run did so far: counts by kind, the last line written, and why it stopped early if it did."""

    def __init__(self, counts: dict[str, int] | None = None, seconds: float = 0.0, last_line: int = 0,
                 stopped: str | None = None) -> None:
        self.counts: dict[str, int] = {} if counts is None else counts
        self.seconds = seconds
        self.last_line = last_line
        self.stopped = stopped  # "interrupted (SIGINT)" …

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def line(self, lang: str = "en") -> str:
        """The summary line on stderr, in ``lang`` (the catalog's, mjcalc/i18n.py)."""
        from .i18n import localized, tr

        def records(n: int) -> str:
            return tr("{n} record" if n == 1 else "{n} records", lang).format(n=f"{n:,}")

        c = self.counts
        rate = self.total / self.seconds if self.seconds else 0.0
        errors = c.get("error", 0) + c.get("internal", 0)
        text = tr("{records}: {won} won, {not_a_win} not a win, {waiting} waiting, {errors}, {skipped} skipped "
                  "({seconds} s{rate})", lang).format(
            records=records(self.total), won=f"{c.get('win', 0):,}", not_a_win=f"{c.get('not_a_win', 0):,}",
            waiting=f"{c.get('waiting', 0):,}", skipped=f"{c.get('skipped', 0):,}", seconds=f"{self.seconds:.1f}",
            errors=tr("{n} error" if errors == 1 else "{n} errors", lang).format(n=f"{errors:,}"),
            rate=tr(", {rate} records/s", lang).format(rate=f"{rate:,.0f}") if self.seconds >= 0.5 else "")
        if c.get("internal"):
            text += "\nmjcalc: " + tr("{records} met a bug in mjcalc (error kind 'internal'): please report it with "
                                      "the line", lang).format(records=records(c["internal"]))
        if self.stopped:
            text += "\nmjcalc: " + tr("{stopped}: {records} written, the last for input line {last}; resume with "
                                      "--from-line {next}", lang).format(
                stopped=localized(self.stopped, lang), records=records(self.total), last=f"{self.last_line:,}",
                next=self.last_line + 1)
        return text


class Stop:
    """Signals ask the run to stop between records (the first Ctrl-C or SIGTERM), so the output ends on a
    whole record; a second one stops at once."""

    signum = 0
    active = False  # inside ``handling``: a signal received is this run's

    @classmethod
    def handler(cls, signum: int, frame: Any) -> None:
        if cls.signum:
            raise KeyboardInterrupt
        cls.signum = signum

    @classmethod
    @contextmanager
    def handling(cls) -> Iterator[None]:
        """Our handlers for the time of a run (the main thread only), the previous ones back after."""
        cls.signum, cls.active = 0, True
        previous: dict[int, Any] = {}
        try:
            for name in ("SIGINT", "SIGTERM", "SIGHUP"):
                if hasattr(signal, name):
                    previous[getattr(signal, name)] = signal.signal(getattr(signal, name), cls.handler)
        except ValueError:  # not the main thread: signals stay as they are
            pass
        try:
            yield
        finally:
            cls.active = False
            for signum, handler in previous.items():
                signal.signal(signum, handler)


def _worker_init(parent: int) -> None:
    """A worker leaves Ctrl-C to the parent (which stops it), dies with the parent whatever kills that, and
    says nothing when stopped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(0)


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End the workers now (they hold no output: the parent writes everything) and wait for them, but not
    for the pool's own thread: a worker stopped while it was sending a chunk's results leaves that thread
    reading a message that never ends, so joining it (here, or at the interpreter's exit) would hang. A run
    stopped this way therefore ends its process with ``os._exit`` (``cli.batch``)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=2)
        if p.is_alive():
            p.kill()
            p.join(timeout=2)
    pool.shutdown(wait=False, cancel_futures=True)


def run(records: Iterable[Record], base: Request, render: Renderer | Encoder, write: Callable[[Any], object],
        jobs: int = 1, progress: Callable[[Summary], None] | None = None, summary: Summary | None = None,
        chunk: int | None = None, flush: Callable[[], object] | None = None, split_only: bool = False,
        joined: bool = False) -> Summary:
    """Score every record in input order and hand the output texts to ``write``, in order; ``flush`` is
    called after each chunk of records (so an output file grows by whole records). ``jobs`` > 1 spreads the
    work over processes, a bounded amount in flight, so memory does not grow with the file: the records of
    a ``FileRecords`` (a UTF-8 file of lines, CSV or JSON Lines) are read by the workers themselves, each a
    byte range of the file at a time (``write`` is then given the texts of a range a forked worker scored as one,
    joined by line ends); other records are sent to the workers a chunk at a time, unless ``split_only`` (the CLI
    without ``--jobs``): then they are scored by this process, where handing them out would gain little.
    ``joined`` (the CLI's output): ``write`` is given whole lines instead, each record's text followed by a line
    end, a few records at a time or a worker's range at once — text, bytes, or a memoryview of bytes that is valid
    during the call only. ``summary`` is filled in as records are written, so that a caller still has it when the
    run is interrupted."""
    summary = Summary() if summary is None else summary
    size = chunk or CHUNK
    start = time.perf_counter()

    def emit(scored: _Scored) -> None:
        if joined:
            for lines in scored.lines():
                write(lines)
        elif scored.data is not None:
            write(scored.text)
        else:
            for text in scored.texts:
                write(text)
        if flush is not None:
            flush()
        for kind, n in scored.counts.items():  # counted once out: the summary says how far the output got
            summary.counts[kind] = summary.counts.get(kind, 0) + n
        summary.last_line = scored.last_line
        summary.seconds = time.perf_counter() - start
        if progress is not None:
            progress(summary)

    def emit_records(results: list[tuple[int, str, str | bytes]]) -> None:
        if results:
            counts: dict[str, int] = {}
            for _, kind, _ in results:
                counts[kind] = counts.get(kind, 0) + 1
            emit(_Scored([text for _, _, text in results], counts, results[-1][0]))

    def stopping() -> bool:
        if Stop.signum:
            from .i18n import Msg

            summary.stopped = Msg("interrupted ({signal})", signal=signal.Signals(Stop.signum).name)
            return True
        return False

    try:
        plan = records.plan() if jobs > 1 and isinstance(records, FileRecords) else None
        if plan is None and split_only:
            jobs = 1
        if plan is not None and isinstance(records, FileRecords):
            with closing(_split(plan, base, render, jobs)) as parts:
                for done_range in parts:
                    if done_range.last_line:
                        emit(done_range)
                    if done_range.stopped:  # the file could not be read to its end: as one process, stop there
                        records.source.stopped = done_range.stopped
                        sys.stderr.write(f"mjcalc: {done_range.stopped}\n")
                        break
                    if stopping():
                        break
        elif jobs <= 1:
            stream = iter(records)
            while part := list(islice(stream, size)):
                texts: list[Any] = []
                counts: dict[str, int] = {}
                last = _score_all(part, base, render, texts, counts, True)
                if texts:
                    emit(_Scored(texts, counts, last))
                if stopping():
                    break
        else:
            with closing(_parallel(_work, _chunks(records, size), (base, render), jobs)) as scored_chunks:
                for results in scored_chunks:
                    emit_records(results)
                    if stopping():
                        break
    finally:
        summary.seconds = time.perf_counter() - start
    return summary


def scored(records: Iterable[Record], base: Request, render: Renderer, jobs: int = 1
           ) -> Generator[tuple[int, str, str | bytes], None, None]:
    """Each record's line, kind and output text, in input order, as they are scored: the pull-style run that
    the Python API (``mjcalc.score_many``) iterates. Records are read as they are needed; stopping early (closing
    the iterator) ends the workers."""
    if jobs <= 1:
        for record in records:
            yield (record.line, *_one(record, base, render))
        return
    with closing(_parallel(_work, _chunks(records, CHUNK), (base, render), jobs)) as scored_chunks:
        for results in scored_chunks:
            yield from results


Task = TypeVar("Task")
Done = TypeVar("Done")


def _parallel(work: Callable[..., Done], tasks: Iterable[Task], args: tuple[Any, ...], jobs: int
              ) -> Generator[Done, None, None]:
    """``work(task, *args)`` for each task on ``jobs`` processes, a bounded number in flight, the results
    yielded in input order. A task whose worker fails (a worker killed from outside) is done here instead.
    Closing the generator before its end drops the tasks not yet started and lets the few in flight finish;
    after a signal the workers are ended at once (``_stop_pool``)."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_init, initargs=(os.getpid(),))
    pending: deque[tuple[Task, Future[Done] | None]] = deque()
    broken = False

    def finish_one() -> Done:
        nonlocal broken
        task, future = pending.popleft()
        if future is not None and not broken:
            try:
                return future.result()
            except BrokenProcessPool:
                broken = True  # a worker died (killed from outside?): the rest is done here
            except Exception:  # noqa: S110  (the task is done here instead)
                pass
        return work(task, *args)

    clean = False
    try:
        for task in tasks:
            pending.append((task, None if broken else pool.submit(work, task, *args)))
            if len(pending) >= 3 * jobs:
                yield finish_one()
        while pending:
            yield finish_one()
        clean = True
    finally:
        if clean:
            pool.shutdown(wait=True)
        elif Stop.active and Stop.signum:  # the CLI was signalled: it ends its process with os._exit, so nothing is joined
            _stop_pool(pool)
        else:
            # The caller stopped early (closed the iterator, an output error, an exception): the tasks not
            # started are dropped and the few in flight (at most 3 x jobs) finish, so the pool's thread ends
            # cleanly. Terminating the workers here instead could leave that thread blocked on a half-sent
            # result, and the interpreter's exit (which joins it) would hang.
            pool.shutdown(wait=True, cancel_futures=True)


# --- a file split between processes: each worker reads, scores and renders its own byte ranges ------------

RANGE_BYTES = 1 << 15  # a worker's task: about 500 hand lines (a long line makes its range longer); less on a small file
# Without --jobs, a file of at least this many bytes (some 1,000 hand lines, two ranges) is split between every
# usable core; a smaller one is scored by the main process, where starting workers would cost more than it saves.
# Measured whole, riichi JSON Lines, two idle cores, medians of alternating runs, --jobs 1 against --jobs 2: 500
# lines 130 / 140 ms; 1,000 lines 161 / 150 ms, and in a second run 143 / 140 ms (about even); 1,500 lines 180 / 165
# ms and 151 / 131 ms (at four ranges, the bound before, 1,000 and 1,500 lines stayed on one core).
AUTO_JOBS_BYTES = 2 * RANGE_BYTES
SPLIT_FORMATS = ("lines", "csv", "jsonl")  # one record a physical line (a YAML entry spans lines)


class FileRecords:
    """The records of a file on disk, as ``read_records`` reads them from ``source`` (the file opened); and
    what a run on several processes needs to split the file between its workers (``run``)."""

    def __init__(self, path: str, source: LineSource, fmt: str = "auto", from_line: int = 1) -> None:
        self.path = path
        self.source = source
        self.fmt = fmt
        self.from_line = from_line

    def __iter__(self) -> Iterator[Record]:
        return read_records(self.source, self.fmt, self.from_line)

    def plan(self) -> _Plan | None:
        """How the file is split, or None when it is read by one process: not a regular file, not UTF-8
        (decoding cannot start mid-file), YAML (an entry spans lines). The format is decided, and a CSV
        file's header found, as ``read_records`` does, from the file's first lines."""
        try:
            info = os.stat(self.path)
            if not stat.S_ISREG(info.st_mode):  # a pipe, a device: read once, by the parent
                return None
            with open(self.path, "rb") as f:
                codec, _, skip = sniff_encoding(f.read(4))
                if codec != "utf-8":
                    return None
                f.seek(0)
                fmt, lines = decide_format(self.fmt, iter(LineSource(f)))
                if fmt not in SPLIT_FORMATS:
                    return None
                header = None
                if fmt == "csv":  # the first line with something in it, as _read_csv takes it
                    header = next((ln for ln in lines if ln.problem is not None or ln.text.strip()), None)
                    if header is not None and read_csv_header(header)[1] is not None:
                        return None  # no row can be read: one process reads the header and says so
                return _Plan(self.path, fmt, skip, header, self.from_line, info.st_size)
        except OSError:
            return None  # one process reads it and says what is wrong


class _Plan:
    def __init__(self, path: str, fmt: str, skip: int, header: Line | None, from_line: int, size: int = 0) -> None:
        self.path = path
        self.fmt = fmt
        self.skip = skip  # the byte-order mark's length: where the first line starts
        self.header = header  # a CSV file's header line
        self.from_line = from_line
        self.size = size  # the file's bytes, when the plan was made


def _range_bytes(plan: _Plan, jobs: int) -> int:
    """The bytes of a worker's range for this file: RANGE_BYTES, or less for a file of a few thousand lines, so
    that it is cut into some eight ranges a worker and the workers end together (the last range is what one
    waits for while the other is done)."""
    return max(min(RANGE_BYTES, 4096), min(RANGE_BYTES, plan.size // (8 * jobs)))


class _Range:
    """A worker's task: the bytes [start, end) of the file, whole lines, the first numbered ``first``."""

    def __init__(self, plan: _Plan, start: int, end: int, first: int, last: int, head: Line | None) -> None:
        self.plan = plan
        self.start = start
        self.end = end
        self.first = first
        self.last = last
        self.head = head  # the CSV header, read before the range's own lines when the range comes after it


class _Scored:
    """A range's output — its records' texts (str, or the bytes of ENCODERS), or, from a forked worker, ``data``:
    the UTF-8 bytes of its records, each followed by a line end (``size`` bytes of a buffer the run reuses) — and
    their kinds counted, the last record's line, and why the range could not be read to its end, if it could not."""

    def __init__(self, texts: list[Any], counts: dict[str, int], last_line: int, stopped: str | None = None,
                 data: bytearray | None = None, size: int = 0, is_text: bool = False) -> None:
        self.texts = texts
        self.counts = counts
        self.last_line = last_line
        self.stopped = stopped
        self.data = data
        self.size = size
        self.is_text = is_text  # ``data`` holds the records of a text renderer, encoded

    def lines(self) -> Iterator[str | bytes | memoryview]:
        """The output as whole lines (each record followed by a line end), a few records at a time: a text
        of more than 128 KiB is fresh pages each time it is made, so a range's is never joined whole."""
        if self.data is not None:
            data = memoryview(self.data)[:self.size]
            yield data.tobytes().decode("utf-8", "surrogatepass") if self.is_text else data
            return
        for at in range(0, len(self.texts), _JOINED):
            yield _lines(self.texts[at:at + _JOINED])

    @property
    def text(self) -> str | bytes:
        """The records' texts joined by line ends (no line end after the last)."""
        if self.data is not None:
            data = bytes(memoryview(self.data)[:max(self.size - 1, 0)])
            return data.decode("utf-8", "surrogatepass") if self.is_text else data
        return b"\n".join(self.texts) if self.texts and isinstance(self.texts[0], bytes) else "\n".join(self.texts)


def _ranges(plan: _Plan, size: int | None = None) -> Iterator[_Range]:
    """The file cut at line ends into ranges of about ``size`` bytes (RANGE_BYTES), read as the run goes
    (memory stays flat); those wholly before ``from_line`` left out."""
    header = plan.header
    size = size or RANGE_BYTES
    with open(plan.path, "rb") as f:
        start, first = plan.skip, 1
        f.seek(start)
        while block := f.read(size):
            end = start + len(block)
            lines = block.count(b"\n")
            whole = block.endswith(b"\n")
            while not whole:  # on to the end of the line
                more = f.read(size)
                if not more:
                    break  # the file's last line has no line end
                cut = more.find(b"\n")
                if cut < 0:
                    end += len(more)
                    continue
                end += cut + 1
                lines += 1
                whole = True
                f.seek(end)
            last = first + lines - (1 if whole else 0)
            if last >= plan.from_line:
                yield _Range(plan, start, end, first, last,
                             header if header is not None and first > header.number else None)
            start, first = end, last + 1


class _Slice:
    """At most ``left`` bytes of a file, from where it stands."""

    def __init__(self, f: IO[bytes], left: int) -> None:
        self.f, self.left = f, left

    def read(self, n: int = -1) -> bytes:
        data = self.f.read(self.left if n < 0 else min(n, self.left))
        self.left -= len(data)
        return data


def _split(plan: _Plan, base: Request, render: Renderer | Encoder, jobs: int) -> Generator[_Scored, None, None]:
    """The file's ranges scored on ``jobs`` processes, in order: forked workers on Linux when no other thread runs
    (``_forked``), else a process pool (``_parallel``). Not on macOS, where Python itself no longer forks by
    default: a forked copy of a process that has loaded the system's frameworks may crash."""
    import threading

    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return _forked(plan, base, render, jobs)
    return _parallel(_score_range, _ranges(plan, _range_bytes(plan, jobs)), (base, render), jobs)


# A forked worker's messages. A task, from the parent: a length (8 bytes, little-endian) and that many bytes,
# marshalled (the standard library's own serialization of plain values, built in: nothing to import). A range's
# result, from the worker: the lengths of its two parts (8 bytes each); its counts, last line, reason for stopping
# and whether its records are text, marshalled; its records' UTF-8 bytes, each followed by a line end. The records
# go as they are, many buffers to a system call (os.writev), and the parent reads them into a buffer it reuses:
# a range's output (some 650 KiB of JSON) is never joined, marshalled or copied whole, each of which is fresh memory,
# a page fault every 4 KiB (200,000 lines of JSON Lines with --jobs 2: 141,000 page faults before, 12,800 now).
_LENGTH = 8


@lru_cache(maxsize=1)
def _iov_max() -> int:
    """Buffers one os.writev takes (IOV_MAX, 1,024 on Linux)."""
    try:
        return max(16, min(os.sysconf("SC_IOV_MAX"), 1024))
    except (AttributeError, ValueError, OSError):
        return 16


def _send(fd: int, parts: list[bytes]) -> None:
    """``parts`` written to ``fd`` whole and in order, up to ``_iov_max()`` of them a system call."""
    at, most = 0, _iov_max()
    while at < len(parts):
        written = os.writev(fd, parts[at:at + most])
        while at < len(parts) and written >= len(parts[at]):  # the parts written whole
            written -= len(parts[at])
            at += 1
        if written:  # one cut short (a signal, a full pipe): the rest of it, then on as before
            view = memoryview(parts[at])[written:]
            while view:
                view = view[os.write(fd, view):]
            at += 1


def _task_parts(message: bytes) -> list[bytes]:
    return [len(message).to_bytes(_LENGTH, "little"), message]


def _result_parts(done: _Scored) -> list[bytes]:
    """A range's result as a forked worker sends it (``_read_some`` reads it)."""
    import marshal

    is_text = bool(done.texts) and isinstance(done.texts[0], str)
    records = [text.encode("utf-8", "surrogatepass") for text in done.texts] if is_text else done.texts
    parts = [b"", marshal.dumps((done.counts, done.last_line, done.stopped, is_text))]
    size = 0
    for record in records:
        parts += (record, b"\n")
        size += len(record) + 1
    parts[0] = len(parts[1]).to_bytes(_LENGTH, "little") + size.to_bytes(_LENGTH, "little")
    return parts


def _receive(fd: int) -> bytes | None:
    """One whole message from ``fd``; None at the end of the stream (the other side closed it, or died)."""
    head = _read_exactly(fd, _LENGTH)
    return None if head is None else _read_exactly(fd, int.from_bytes(head, "little"))


def _read_exactly(fd: int, n: int) -> bytes | None:
    parts = []
    while n:
        data = os.read(fd, min(n, 1 << 20))
        if not data:
            return None
        parts.append(data)
        n -= len(data)
    return b"".join(parts)


def _serve(plan: _Plan, base: Request, render: Renderer | Encoder, tasks: int, results: int) -> None:
    """A forked worker: ranges (start, end, first, last, whether the CSV header comes first) in, each scored
    and rendered (``_score_range``) out, until the parent closes its end."""
    import marshal

    while (message := _receive(tasks)) is not None:
        start, end, first, last, head = marshal.loads(message)
        done = _score_range(_Range(plan, start, end, first, last, plan.header if head else None), base, render)
        _send(results, _result_parts(done))


class _Worker:
    """A forked worker as the parent sees it: its process, the two ends of its pipes, what it was given."""

    def __init__(self, pid: int, tasks: int, results: int) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.given: deque[int] = deque()  # the numbers of the ranges sent and not answered yet, in order
        self.alive = True
        # The result being read: its part being filled (``into``, ``got`` of its bytes there), and its stage —
        # 0 the lengths, 1 the marshalled part, 2 the records (``size`` bytes); ``meta``, the part read.
        self.stage = 0
        self.into = bytearray(2 * _LENGTH)
        self.got = 0
        self.size = 0
        self.meta: tuple[dict[str, int], int, str | None, bool] = ({}, 0, None, False)

    def fileno(self) -> int:  # select() waits on its results
        return self.results


_AHEAD = 4  # ranges this process scores ahead of their turn while a worker owes the one before (memory stays flat)


def _forked(plan: _Plan, base: Request, render: Renderer | Encoder, jobs: int) -> Generator[_Scored, None, None]:
    """The ranges of the file on ``jobs`` processes, their results yielded in the file's order: this one and
    ``jobs - 1`` forked workers. A forked worker starts at once with everything this process loaded (modules,
    rulesets): nothing imported, nothing pickled but plain values, no thread in this process; at most two ranges in
    flight a worker. This process scores a range of its own whenever the next result is a worker's and not there
    yet (at most ``_AHEAD`` ranges ahead, so memory stays flat): on two cores, one forked copy of the process
    (whose first touches of the memory it shares cost page copies) instead of two and a waiting parent. A range
    whose worker dies is scored here instead. Closing the generator before its end (an output error, a signal)
    ends the workers at once: they hold no output. A result yielded is the caller's until it asks for the next,
    when the buffer that holds a worker's records is reused."""
    import marshal
    import select

    parent = os.getpid()
    workers: list[_Worker] = []
    try:
        for _ in range(jobs - 1):
            try:
                tasks_r, tasks_w = os.pipe()
            except OSError:  # out of file descriptors: the workers started so far (or none: all here)
                break
            try:
                results_r, results_w = os.pipe()
            except OSError:
                os.close(tasks_r)
                os.close(tasks_w)
                break
            _widen(results_w)
            try:
                pid = os.fork()
            except OSError:  # out of processes or memory: as above
                for fd in (tasks_r, tasks_w, results_r, results_w):
                    os.close(fd)
                break
            if pid == 0:  # the worker: never returns, never runs the parent's exit-time code nor flushes its buffers
                code = 0
                try:
                    for w in workers:
                        if w.tasks >= 0:
                            os.close(w.tasks)
                        os.close(w.results)
                    os.close(tasks_w)
                    os.close(results_r)
                    _worker_init(parent)
                    _serve(plan, base, render, tasks_r, results_w)
                except BaseException:  # noqa: BLE001  (the parent scores what this worker did not answer)
                    code = 1
                os._exit(code)
            os.close(tasks_r)
            os.close(results_w)
            os.set_blocking(results_r, False)  # read as far as a result has come (_read_some), then on
            workers.append(_Worker(pid, tasks_w, results_r))
        ranges = _ranges(plan, _range_bytes(plan, jobs))
        sent: dict[int, _Range] = {}  # the ranges given out, by number, until their results are yielded
        done: dict[int, _Scored] = {}
        order: deque[tuple[int, _Worker | None]] = deque()  # every range in the file's order, and its worker
        count = 0
        more = True
        ahead = 0  # ranges scored here before their turn, held in ``done``
        spare: list[bytearray] = []  # the buffers of workers' results written out, for the next ones

        def take() -> _Range | None:
            """The next range of the file; at the end, the workers are told there is no more (they end when they
            have answered what they hold, while this process is still busy)."""
            nonlocal more
            task = next(ranges, None) if more else None
            if task is None and more:
                more = False
                for w in workers:
                    if w.tasks >= 0:
                        os.close(w.tasks)
                        w.tasks = -1
            return task

        def give() -> None:
            nonlocal count
            for w in workers:
                while more and w.alive and len(w.given) < 2:
                    task = take()
                    if task is None:
                        return
                    try:
                        _send(w.tasks, _task_parts(marshal.dumps((task.start, task.end, task.first, task.last,
                                                                  task.head is not None))))
                    except OSError:
                        w.alive = False  # gone: this range and those it held are scored here
                        order.append((count, None))
                    else:
                        w.given.append(count)
                        order.append((count, w))
                    sent[count] = task
                    count += 1

        def own() -> bool:
            """Take the next range and score it here, now; False when the file has no more."""
            nonlocal count, ahead
            task = take()
            if task is None:
                return False
            sent[count] = task
            order.append((count, None))
            done[count] = _score_range(task, base, render)
            count += 1
            ahead += 1
            return True

        def arrived(block: bool) -> None:
            """File what the workers have sent: what is there now, or (``block``) wait until something comes."""
            busy = [w for w in workers if w.alive and w.given]
            if busy:
                for w in select.select(busy, [], [], None if block else 0)[0]:
                    _read_some(w, done, spare)

        def collect(wanted: _Worker) -> None:
            """Until the result ``wanted`` owes first has come (or it died): this process scores ranges of its own
            meanwhile, as many as ``_AHEAD``, then waits."""
            while wanted.alive and wanted.given and wanted.given[0] not in done:
                arrived(False)
                if wanted.alive and wanted.given and wanted.given[0] not in done:
                    if ahead < _AHEAD and own():
                        give()
                    else:
                        arrived(True)

        give()
        while order or own():
            number, worker = order.popleft()
            if worker is not None and worker.alive:
                collect(worker)
            scored = done.pop(number, None)
            if scored is None:  # no worker, or it died before answering: scored here
                if worker is not None and number in worker.given:
                    worker.given.remove(number)
                scored = _score_range(sent[number], base, render)
            elif worker is not None:
                worker.given.popleft()
            else:
                ahead -= 1
            del sent[number]
            yield scored
            if scored.data is not None:  # written out (the caller has it until it asks for the next)
                spare.append(scored.data)
            give()
    finally:
        for w in workers:
            if w.tasks >= 0:
                os.close(w.tasks)  # the worker's end of its work: it exits
        unfinished = bool(sys.exc_info()[0]) or any(w.given for w in workers)
        for w in workers:
            if unfinished:
                try:
                    os.kill(w.pid, signal.SIGTERM)
                except OSError:
                    pass
            os.close(w.results)
        for w in workers:
            try:
                os.waitpid(w.pid, 0)
            except ChildProcessError:
                pass


def _widen(fd: int) -> None:
    """A pipe that holds a whole range's output (Linux: 64 KiB otherwise), so that a worker writes it at once and
    goes on with its next range instead of waiting for the parent to read it piece by piece."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass


def _read_some(w: _Worker, done: dict[int, _Scored], spare: list[bytearray]) -> None:
    """What worker ``w`` has sent, as far as it goes now (its pipe does not block): each whole result filed under
    its range's number, its records in a buffer taken from ``spare`` (those of results written out, for reuse); at
    the end of its stream (it died), the worker is marked dead and its ranges are left to the parent."""
    import marshal

    answered = sum(1 for n in w.given if n in done)
    while True:
        need = w.size if w.stage == 2 else len(w.into)
        if w.got < need:
            try:
                n = os.readv(w.results, [memoryview(w.into)[w.got:need]])
            except BlockingIOError:
                return
            if not n:
                w.alive = False
                return
            w.got += n
        elif w.stage == 0:
            meta, w.size = int.from_bytes(w.into[:_LENGTH], "little"), int.from_bytes(w.into[_LENGTH:], "little")
            w.stage, w.into, w.got = 1, bytearray(meta), 0
        elif w.stage == 1:
            w.meta = marshal.loads(w.into)
            w.stage, w.into, w.got = 2, _buffer(spare, w.size), 0
        else:
            counts, last, stopped, is_text = w.meta
            done[w.given[answered]] = _Scored([], counts, last, stopped, w.into, w.size, is_text)
            answered += 1
            w.stage, w.into, w.got, w.size = 0, bytearray(2 * _LENGTH), 0, 0


def _buffer(spare: list[bytearray], size: int) -> bytearray:
    """A buffer of at least ``size`` bytes: a spare one when one is large enough (its pages are already there),
    else a new one, a quarter larger, in place of the smallest spare one."""
    for i, buf in enumerate(spare):
        if len(buf) >= size:
            return spare.pop(i)
    if spare:
        spare.remove(min(spare, key=len))
    return bytearray(size + size // 4)


def _renumbered(lines: Iterable[Line], offset: int) -> Iterator[Line]:
    for line in lines:
        line.number += offset
        yield line


def _score_range(task: _Range, base: Request, render: Renderer | Encoder) -> _Scored:
    """A worker's range read, scored and rendered: the records ``read_records`` gives for those lines."""
    plan = task.plan
    texts: list[Any] = []  # all text, or all bytes (ENCODERS)
    counts: dict[str, int] = {}
    last = 0
    try:
        with open(plan.path, "rb") as f:
            f.seek(task.start)
            source = LineSource(cast(IO[bytes], _Slice(f, task.end - task.start)), codec="utf-8")
            lines = _renumbered(source, task.first - 1)
            if task.head is not None:
                lines = chain([task.head], lines)
            last = _score_all(READERS[plan.fmt](lines, plan.from_line), base, render, texts, counts, False)
    except OSError as exc:  # the file went away under the run
        return _Scored(texts, counts, last, f"cannot read {plan.path}: {exc.strerror or exc}")
    stopped = None
    if source.stopped:
        stopped = f"cannot read the input after {task.start + source.position:,} bytes: " + \
            source.stopped.split(": ", 1)[-1]
    return _Scored(texts, counts, last, stopped)


def _lines(texts: list[Any]) -> str | bytes:
    """Records' texts (or bytes) as whole lines, each followed by a line end."""
    if texts and isinstance(texts[0], bytes):
        return b"\n".join([*texts, b""])
    return "\n".join([*texts, ""])


# --- writers -------------------------------------------------------------------------------------------

CSV_COLUMNS = ("line", "input", "ruleset", "result", "fan", "fu", "points", "net_E", "net_S", "net_W", "net_N",
               "items", "error")


def render_jsonl(record: Record, res: Result | None) -> str:
    """One record as one line of compact JSON (record.json_line)."""
    if res is None:
        text = json_line({"line": record.line, "input": record.text, "result": "skipped"})
    else:
        text = json_line(to_json(res))
    if not text.isascii() and ("\u2028" in text or "\u2029" in text or "\x85" in text):
        # valid JSON raw, but a line break to many readers
        text = _LINE_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


_LINE_BREAKS = LazyPattern("[\x85\u2028\u2029]")


def csv_header() -> str:
    return _csv_row(CSV_COLUMNS)


class _CsvRow:
    """One CSV writer on one buffer, reused for every row (a writer and a buffer a row cost more than the row);
    made with the first row (the csv module imported then)."""

    def __init__(self) -> None:
        self.buf = io.StringIO()
        self.writer: Any = None

    def __call__(self, values: Iterable[Any]) -> str:
        if self.writer is None:
            import csv

            self.writer = csv.writer(self.buf, lineterminator="")
        buf = self.buf
        buf.seek(0)
        buf.truncate()
        self.writer.writerow(values)
        return buf.getvalue()


_csv_row = _CsvRow()


def render_csv(record: Record, res: Result | None) -> str:
    if res is None:
        return _csv_row([record.line, record.text, "", "skipped", "", "", "", "", "", "", "", "", ""])
    return _csv_row(csv_cells(res))


def render_row(record: Record, res: Result | None) -> str:
    """One human-readable line per record."""
    if res is None:
        return f"{record.line:>7}  skipped"
    if res.error is not None:
        where = f" (column {res.error.column})" if res.error.column else ""
        return f"{res.line:>7}  error      {_printable(res.error.message)}{where}  | {_printable(res.input)}"
    if res.best is None:
        why = ", ".join(c.id for c in res.failed) if res.result == "not_a_win" else "waits " + " ".join(
            f"{t}" for t in _wait_names(res))
        return f"{res.line:>7}  {res.result:<9}  {why}  | {_printable(res.input)}"
    s = res.best.settlement
    net = " ".join(f"{seat}{s.net[seat]:+d}" for seat in "ESWN")
    shown = yakuman_shown(res.best.awards, s.fan)  # a yakuman hand: its limit, not its count of 13 han a yakuman
    if shown is None:
        shown = f"{s.fan:>3} {res.ruleset.unit if res.ruleset else ''}" + (f" {s.fu} fu" if s.fu is not None else "")
        if s.limit is not None:
            shown += f" {s.limit}"
    return f"{res.line:>7}  win        {shown}  {s.points:>6}  {net}  | {_printable(res.input)}"


def _wait_names(res: Result) -> list[str]:
    from .tiles import name

    return [name(t) for t in res.waits]


RENDERERS: dict[str, Renderer] = {"jsonl": render_jsonl, "csv": render_csv, "table": render_row}
# The same as the UTF-8 bytes a file gets (a lone surrogate written \udcxx), for the CLI's output.
ENCODERS: dict[str, Encoder] = {
    "jsonl": encode_jsonl,
    "csv": lambda record, res: render_csv(record, res).encode("utf-8", "backslashreplace"),
    "table": lambda record, res: render_row(record, res).encode("utf-8", "backslashreplace"),
}


def count_lines(path: str) -> int:
    """The lines of a file, counted fast (bytes, not text): the total a progress line shows."""
    lines = 0
    last = b"\n"
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n")


class Progress:
    """A progress line on stderr while a batch runs — the input line reached of the total, the percentage,
    records a second and the time left — shown only on a terminal, at most a few times a second, and wiped
    at the end. (Written here rather than taken from a progress library: it is one line, and the run's
    start-up stays as fast as it is.)"""

    def __init__(self, enabled: bool, path: str | None = None, stream: IO[str] | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and (stream is not None or sys.stderr.isatty())
        self.start = time.perf_counter()
        self.shown = 0.0
        self.width = 0
        self.total: int | None = None
        if self.enabled and path is not None:
            try:
                self.total = count_lines(path)
            except OSError:
                self.total = None

    def text(self, summary: Summary, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        rate = f"{summary.total / elapsed:,.0f} records/s"
        if not self.total:
            return f"  {_plural(summary.total, 'record')} · {rate}"
        done = min(summary.last_line / self.total, 1.0)
        left = elapsed / done * (1 - done) if done else 0.0
        minutes, seconds = divmod(int(left + 0.5), 60)
        eta = f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}" if minutes >= 60 else f"{minutes}:{seconds:02d}"
        return (f"  line {summary.last_line:,} of {self.total:,} · {done:.0%} · {rate} · "
                f"ETA {eta}")

    def __call__(self, summary: Summary) -> None:
        now = time.perf_counter()
        if not self.enabled or now - self.shown < 0.25:
            return
        self.shown = now
        line = self.text(summary, now)
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def close(self) -> None:
        if self.enabled and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0
