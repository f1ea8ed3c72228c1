"""Reading a batch's records: the format decided (the file's extension, else its first line), then one-line
notation (lines.py), CSV, JSON Lines or YAML read record by record, each value checked for its type and size;
a record that cannot be read is an error record with its line number, and the reading goes on."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import IO, Any

from ..core.notation import FlagWord
from ..errors import MjcalcError
from .lines import JSON_START, MAX_RECORD, Line, LineSource, Record, chain, read_lines, split_answer, unread

INPUT_FORMATS = ("auto", "lines", "csv", "jsonl", "yaml")


RECORD_KEYS = ("hand", "rules", "set", "answer", "line")


# Bounds, each with its own message. A hand line is under 200 characters; these leave room for comments and
# homework answers and keep a hostile file from taking the memory or the time of the run.
# MAX_RECORD (batch.lines): characters in one physical line (one record of lines / CSV / JSONL)
MAX_YAML_ENTRY = 65_536  # characters in one entry of a YAML list


MAX_YAML_WHOLE = 2 * 1024 * 1024  # a YAML file not laid out as a block list is read whole: its size


MAX_VALUE = 1_000  # characters in one option or flag value of a CSV / JSON / YAML record


MAX_LIST = 64  # items in a flag's list value (``dora: [3m, 7z]``)


def detect_format(name: str, requested: str) -> str:
    """The format a file's name says (``auto`` when it says none: then the content decides)."""
    if requested != "auto":
        return requested
    low = name.lower()
    for ext, fmt in ((".csv", "csv"), (".jsonl", "jsonl"), (".ndjson", "jsonl"), (".yaml", "yaml"), (".yml", "yaml")):
        if low.endswith(ext):
            return fmt
    return "auto"


_YAML_START = re.compile(r"""-\s+\{?\s*["']?hand["']?\s*:|hands\s*:\s*(#.*)?$|---\s*$""")


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


_SURROGATE = re.compile("[\ud800-\udfff]")


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


_ENTRY = re.compile(r"( *)-(?: |$)")


_YAML_HEAD = re.compile(r"hands\s*:\s*(?:#.*)?$")


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
    where PyYAML has it (much faster than pure Python; None elsewhere), and a safe loader without
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
