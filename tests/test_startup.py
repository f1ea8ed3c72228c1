"""Start-up (benchmarks/bench_startup.py measures it): the built-in rulesets packed as JSON at build time
(mjcalc/support/packed.py) hold exactly the data of their YAML, a command imports only what it uses, and a compiled
predicate's signature is read as inspect reads it."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from mjcalc.support.packed import pack, same, unpack
from mjcalc.support.yamlfile import load_trusted

ROOT = Path(__file__).resolve().parent.parent
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _yaml(raw: bytes) -> object:
    return yaml.load(raw.decode("utf-8"), Loader=LOADER)  # noqa: S506  (a safe loader)


@pytest.mark.parametrize("path", sorted((ROOT / "rules").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_builtin_ruleset_packs_to_the_same_data(path: Path) -> None:
    raw = path.read_bytes()
    data = _yaml(raw)
    text = pack(raw, data)
    assert text is not None, f"{path.name}: JSON cannot give its data back exactly (see mjcalc/support/packed.py)"
    assert same(unpack(text, raw), data)


def test_same_tells_values_of_other_types_apart() -> None:
    assert same({"a": [1, 2.5, None, "x", {True: 1}]}, {"a": [1, 2.5, None, "x", {True: 1}]})
    assert not same(1, True)
    assert not same(1, 1.0)
    assert not same({1: "a"}, {"1": "a"})
    assert not same({"a": 1, "b": 2}, {"b": 2, "a": 1})  # the order of a mapping is kept too
    assert not same([1, 2], [1, 2, 3])


def test_what_json_cannot_hold_is_not_packed() -> None:
    assert pack(b"", {"when": datetime.date(2024, 1, 1)}) is None
    assert pack(b"", {"x": float("nan")}) is None
    assert pack(b"", {"(pairs)": [[1, 2]]}) is None  # a text key that looks like the tag for other keys
    text = pack(b"a", {"values": {True: 2, False: 1, 3: "x", None: 0}})
    assert text is not None
    assert same(unpack(text, b"a"), {"values": {True: 2, False: 1, 3: "x", None: 0}})


def test_the_json_is_read_only_beside_the_yaml_it_was_made_from(tmp_path: Path) -> None:
    source = tmp_path / "house.yaml"
    source.write_bytes(b"id: house\nbase: 1\n")
    assert load_trusted(str(source)) == {"id": "house", "base": 1}  # no JSON: the YAML
    (tmp_path / "house.json").write_text(pack(source.read_bytes(), {"id": "house", "base": 2}), encoding="utf-8")
    assert load_trusted(str(source)) == {"id": "house", "base": 2}  # the JSON made from these bytes
    source.write_bytes(b"id: house\nbase: 3\n")  # the YAML edited after the build
    assert load_trusted(str(source)) == {"id": "house", "base": 3}
    (tmp_path / "house.json").write_text("{not json", encoding="utf-8")
    assert load_trusted(str(source)) == {"id": "house", "base": 3}


def _installed_rules(tmp_path: Path) -> Path:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    found = subprocess.run([sys.executable, "-c", "import mjcalc.support.builtin as r; print(r.builtin_dir())"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    return Path(found.stdout.strip())


def _packed_install(tmp_path: Path) -> bool:
    return _installed_rules(tmp_path).resolve() != (ROOT / "rules").resolve()


def test_the_installed_package_ships_each_ruleset_packed(tmp_path: Path) -> None:
    rules = _installed_rules(tmp_path)
    if not _packed_install(tmp_path):
        pytest.skip("the installed package is this checkout (an editable install): its rulesets are read as YAML")
    sources = sorted(rules.glob("*.yaml"))
    assert sources
    for source in sources:
        packed = source.with_suffix(".json")
        assert packed.exists(), f"{packed.name} is missing from the installed package (setup.py packs it)"
        raw = source.read_bytes()
        assert same(unpack(packed.read_text(encoding="utf-8"), raw), _yaml(raw)), source.name


# What a command must not import (each costs start-up time): the process pool without --jobs, PyYAML when no
# YAML is read (the built-in rulesets are packed as JSON in an installed package), tabulate with no table.
IMPORTS = """
import sys
from mjcalc.cli import main  # as mjcalc.__main__ runs it, which ends the process without a word when done
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print("IMPORTED:", *(m for m in ("concurrent.futures.process", "multiprocessing", "yaml", "tabulate", "mjcalc.batch",
                           "mjcalc.homework", "html", "dataclasses") if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize(("args", "absent"), [
    (["batch", "{hands}", "--rules", "riichi", "--format", "jsonl", "-o", "{out}"],
     {"concurrent.futures.process", "multiprocessing", "yaml", "tabulate", "mjcalc.homework"}),
    (["score", "123m456p789s111z22z +zimo +seat=E", "--json"],
     {"concurrent.futures.process", "multiprocessing", "yaml", "tabulate", "mjcalc.batch", "mjcalc.homework"}),
    (["score", "123m456p789s111z22z +zimo +seat=E"],
     {"concurrent.futures.process", "multiprocessing", "yaml", "mjcalc.batch", "mjcalc.homework", "html",
      "dataclasses"}),
], ids=["batch-jsonl", "score-json", "score"])
def test_a_command_imports_only_what_it_uses(tmp_path: Path, args: list[str], absent: set[str]) -> None:
    hands = tmp_path / "hands.txt"
    hands.write_text("06m444789p11444z7m +seat=W +round=E +dora=5m\n", encoding="utf-8")
    argv = [a.format(hands=hands, out=tmp_path / "out.jsonl") for a in args]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MJCALC_RULES", "MJCALC_LANG")}
    env["MJCALC_CONFIG"] = str(tmp_path / "no-config.yaml")
    run = subprocess.run([sys.executable, "-c", IMPORTS, *argv], cwd=tmp_path, env=env, capture_output=True,
                         text=True, encoding="utf-8")
    imported = set(next(ln for ln in run.stderr.splitlines() if ln.startswith("IMPORTED:")).split()[1:])
    if not _packed_install(tmp_path):
        absent = absent - {"yaml"}  # the checkout's rulesets are YAML only
    assert not imported & absent, run.stderr
    if args[0] == "batch":
        assert json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))["line"] == 1


def test_tables_imported_without_html_still_escape_for_html(tmp_path: Path) -> None:
    """render imports tabulate with a stand-in for the standard html module (which only its HTML formats use):
    the stand-in is gone afterwards, and an HTML table is escaped by the real module."""
    code = """
import sys
from mjcalc.output.table import tabulate
plain = tabulate([["<b>", 1]], headers=["a", "n"], tablefmt="simple")
print("html" in sys.modules, plain.splitlines()[-1])
print(tabulate([["<b>&"]], tablefmt="html").count("&lt;b&gt;&amp;"), type(sys.modules["html"].escape).__name__)
import html
print(html.unescape("&lt;"), hasattr(html, "entities"))
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["False <b>    1", "1 function", "< True"]


def test_tables_imported_without_dataclasses_still_read_dataclass_rows(tmp_path: Path) -> None:
    """render imports tabulate with a stand-in for the standard dataclasses module (which tabulate asks whether the
    first row is a dataclass): the stand-in is gone afterwards, a row that is not a dataclass does not import the
    real module, and rows of a dataclass made later are read by their fields, as tabulate reads them."""
    code = """
import sys
from mjcalc.output.table import tabulate
print(tabulate([("a", 1)], tablefmt="plain"), "dataclasses" in sys.modules)
from dataclasses import dataclass
@dataclass
class Row:
    name: str
    n: int
print(tabulate([Row("b", 2)], headers="keys", tablefmt="plain").splitlines(), type(sys.modules["dataclasses"]).__name__)
print(sys.modules["dataclasses"].__file__ is not None)
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["a  1 False", "['name      n', 'b         2'] module", "True"]


def test_a_predicates_signature_is_read_as_inspect_reads_it() -> None:
    import inspect

    import mjcalc.hooks  # noqa: F401  (their predicates too)
    from mjcalc.predicates.binding import signature_of
    from mjcalc.registry import PREDICATES

    for name, fn in PREDICATES.items():
        assert signature_of(fn) == inspect.signature(fn), name
        assert str(signature_of(fn)) == str(inspect.signature(fn)), name

    def plain(c: object, suit: str, n: int = 1, *, at: tuple[int, ...] = (1, 2)) -> bool:
        return True

    class Compiled:  # how a compiled function carries its signature
        __text_signature__ = "(c, suit, /, n=1, *, at=(1, 2), when=None)"

    assert signature_of(plain) == inspect.signature(plain)
    expected = inspect.Signature([
        inspect.Parameter("c", inspect.Parameter.POSITIONAL_ONLY),
        inspect.Parameter("suit", inspect.Parameter.POSITIONAL_ONLY),
        inspect.Parameter("n", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=1),
        inspect.Parameter("at", inspect.Parameter.KEYWORD_ONLY, default=(1, 2)),
        inspect.Parameter("when", inspect.Parameter.KEYWORD_ONLY, default=None),
    ])
    assert signature_of(Compiled()) == expected


def test_a_predicates_parameters_are_its_signatures() -> None:
    """``parameters_of`` (what bind reads) gives each predicate's parameters and defaults as inspect has them."""
    import inspect

    import mjcalc.hooks  # noqa: F401  (their predicates too)
    from mjcalc.predicates.binding import REQUIRED, _parameters_from_text, parameters_of
    from mjcalc.registry import PREDICATES

    for name, fn in PREDICATES.items():
        parameters = list(inspect.signature(fn).parameters.values())
        assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in parameters), name
        table = parameters_of(fn)
        assert table == tuple((p.name, p.default) for p in parameters[1:]), name
        assert all(type(d) is type(p.default) for (_, d), p in zip(table, parameters[1:])), name
    assert _parameters_from_text("(c, n=-1, s='ab', on=True, no=None)") == (("n", -1), ("s", "ab"), ("on", True),
                                                                          ("no", None))
    assert _parameters_from_text("(c, count)") == (("count", REQUIRED),)
    for text in ("(c, /, x)", "(c, *, x)", "(c, x=(1, 2))", "(c, x='a,b')", "(c=1)", "(c, x=1, y)", "()", None,
                 "($self, c)", "(c, x=1.5)"):
        assert _parameters_from_text(text) is None, text


def test_the_process_ends_with_the_commands_code_and_all_its_output(tmp_path: Path) -> None:
    """mjcalc.__main__ ends a finished command at once (os._exit): its exit code and its output, flushed."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MJCALC_RULES", "MJCALC_LANG")}
    env["MJCALC_CONFIG"] = str(tmp_path / "no-config.yaml")

    def mjcalc(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mjcalc", *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, encoding="utf-8")

    won = mjcalc("score", "123m456p789s111z22z +zimo +seat=E")
    assert won.returncode == 0 and won.stdout.rstrip().endswith("-16"), won
    bad = mjcalc("score", "123m456p789s11111z")
    assert bad.returncode == 2 and "a fifth 1z" in bad.stderr and bad.stderr.endswith("^\n"), bad
    assert mjcalc("score", "123m456p789s111z22z", "--lang", "fr").returncode == 3
    assert mjcalc("nosuch").returncode == 2  # click's usage error
    hands = tmp_path / "hands.txt"
    hands.write_text("123m456p789s111z22z +zimo +seat=E\n" * 700 + "12345\n", encoding="utf-8")
    batch = mjcalc("batch", str(hands), "--format", "jsonl", "-o", str(tmp_path / "out.jsonl"))
    assert batch.returncode == 2 and "701 records" in batch.stderr, batch
    out = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(out) == 701 and json.loads(out[-1])["line"] == 701
    piped = mjcalc("batch", str(hands), "--format", "jsonl")
    assert piped.stdout.count("\n") == 701


def test_a_process_with_exit_work_left_ends_as_python_does(tmp_path: Path) -> None:
    code = """
import atexit, threading, time
from mjcalc.__main__ import _nothing_left
print(_nothing_left(0), _nothing_left(None), _nothing_left("a message"))
other = threading.Thread(target=time.sleep, args=(0.2,))
other.start()
print(_nothing_left(0))
other.join()
print(_nothing_left(0))
atexit.register(print)
print(_nothing_left(0))
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == ["True", "True", "False", "False", "True", "False"]
