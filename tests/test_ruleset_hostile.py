"""Broken and malicious ruleset files: each is a clear message naming the file (and the entry and field where
there is one), exit 3, never a traceback, an exit 70 or a hang; and the schema holds every built-in file.

Every case runs through ``load_ruleset`` and through the command line (``rules show FILE`` and ``score --rules
FILE``, in-process); the few that could hang a process (a FIFO, a device) also in a subprocess with a timeout.
A seeded fuzz mutates the built-in files (types changed, keys dropped or added, text garbled) and requires
only clean outcomes.
"""

from __future__ import annotations

import copy
import inspect
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from mjcalc import hooks  # noqa: F401  registers the hooks' predicates
from mjcalc.cli import app
from mjcalc.core.readings.forms import FORM_NAMES
from mjcalc.engine import Request, score_line
from mjcalc.errors import MjcalcError
from mjcalc.registry import PREDICATES
from mjcalc.ruleset.loader import load_ruleset, merge
from mjcalc.ruleset.schema import FORM_PARAMS, PREDICATE_PARAMS
from mjcalc.ruleset.schema_check import problem
from mjcalc.support.builtin import builtin_dir, builtin_names
from mjcalc.support.yamlfile import load as load_yaml

QUICK = "123m456p789s111z22z +zimo +seat=E"
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
HEAD = "id: x\nextends: changchun\nnames: {zh: 我的, en: Mine}\n"
runner = CliRunner()


def item(body: str, iid: str = "closed_win") -> str:
    return HEAD + f"items:\n  - id: {iid}\n" + "".join(f"    {line}\n" for line in body.splitlines())


def standalone(mutate: Callable[[dict[str, Any]], None]) -> str:
    """changchun.yaml as a file of its own (no extends), changed by ``mutate``."""
    data = load_yaml(str(builtin_dir() / "changchun.yaml"), "changchun")
    data["id"] = "x"
    mutate(data)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def drop(*path: Any) -> Callable[[dict[str, Any]], None]:
    def go(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return go


def put(value: Any, *path: Any) -> Callable[[dict[str, Any]], None]:
    def go(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return go


# (case id, file text, words the message must hold besides the file's name)
CASES: list[tuple[str, str, list[str]]] = [
    # --- the examples ---
    ("tiles_four", HEAD + "tiles: four\n", ["field 'tiles'", "mapping"]),
    ("kongs_list", HEAD + "kongs: [minggang, angang]\n", ["field 'kongs'", "mapping"]),
    ("excludes_3", item("excludes: 3"), ["item 'closed_win'", "field 'excludes'"]),
    ("formula_base_two", HEAD + "formula: {base: two}\n", ["field 'formula.base'"]),
    ("flags_nested", HEAD + "flags: [[zimo]]\n", ["field 'flags[1]'"]),
    ("forms_mapping", HEAD + "forms: {}\n", ["field 'forms'", "list"]),
    ("forms_empty_list", HEAD + "forms: []\n", ["field 'forms'", "empty"]),
    ("nesting_300_flow", item("when: " + "{not: " * 300 + "always" + "}" * 300), ["nested more than"]),
    ("nesting_500_lists", HEAD + "description: " + "[" * 500 + "]" * 500 + "\n", ["nested more than"]),
    ("nesting_block", HEAD + "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "v: 1\n",
     ["nested more than"]),
    ("value_10_pow_1000", item("value: 1" + "0" * 1000), ["a number of 1001 digits"]),
    ("value_20000", item("value: 20000"), ["item 'closed_win'", "field 'value'", "out of range"]),
    ("formula_cap_negative", HEAD + "formula: {cap: -5}\n", ["field 'formula.cap'", "out of range"]),
    ("option_cap_negative", HEAD + "options:\n  cap: {default: -1}\n", ["option 'cap'", "field 'default'"]),
    # --- wrong types, field by field ---
    ("id_number", standalone(put(5, "id")), ["field 'id'", "wrong type"]),
    ("names_text", "id: x\nextends: changchun\nnames: Mine\n", ["field 'names'"]),
    ("names_no_en", standalone(put({"zh": "我的", "fr": "Mien"}, "names")), ["field 'names.en' is missing"]),
    ("names_bad_language", HEAD.replace("en: Mine", "en: Mine, or yours"), ["field 'names'", "language code"]),
    ("description_list", HEAD + "description: [a, b]\n", ["field 'description'"]),
    ("source_mapping", HEAD + "source: {a: 1}\n", ["field 'source'"]),
    ("unit_number", HEAD + "unit: 5\n", ["field 'unit'"]),
    ("sets_text", HEAD + "tiles: {sets: four}\n", ["field 'tiles.sets'"]),
    ("sets_zero", HEAD + "tiles: {sets: 0}\n", ["field 'tiles.sets'", "out of range"]),
    ("sets_nine", HEAD + "tiles: {sets: 9}\n", ["field 'tiles.sets'", "out of range"]),
    ("red_fives_text", HEAD + "tiles: {red_fives: maybe}\n", ["field 'tiles.red_fives'"]),
    ("flowers_number", HEAD + "tiles: {flowers: 8}\n", ["field 'tiles.flowers'"]),
    ("tiles_unknown_key", HEAD + "tiles: {sets: 4, jokers: 2}\n", ["unknown field 'jokers'"]),
    ("forms_number", HEAD + "forms: [5]\n", ["field 'forms[1]'"]),
    ("form_unknown", HEAD + "forms: [regular, seven_pears]\n", ["unknown form 'seven_pears'", "seven_pairs"]),
    ("form_param_unknown", HEAD + "forms: [{seven_pairs: {allow_five: true}}]\n", ["no parameter 'allow_five'"]),
    ("form_param_type", HEAD + "forms: [{seven_pairs: {allow_four: 3}}]\n", ["parameter 'allow_four'"]),
    ("form_two_keys", HEAD + "forms: [{seven_pairs: {}, regular: {}}]\n", ["field 'forms[1]'"]),
    ("wildcard_unknown", HEAD + "wildcard: joker\n", ["field 'wildcard'", "none, treasure, hui"]),
    ("joker_sets_bool", HEAD + "joker_sets: true\n", ["field 'joker_sets'"]),
    ("tiers_text", HEAD + "tiers: yakuman\n", ["field 'tiers'"]),
    ("tier_unknown", item("tier: legendary"), ["item 'closed_win'", "field 'tier'"]),
    ("special_kongs_list", HEAD + "special_kongs: [xi]\n", ["field 'special_kongs'"]),
    ("special_kong_core_text", HEAD + "special_kongs:\n  xi: {core: 5z6z7z}\n", ["special kong 'xi'", "core"]),
    ("special_kong_bad_tile", HEAD + "special_kongs:\n  xi: {core: [5z, 8z]}\n", ["special kong 'xi'", "core[2]"]),
    ("special_kong_min_distinct", HEAD + "special_kongs:\n  xi: {min_distinct: -3}\n", ["min_distinct"]),
    ("special_kong_points_text", HEAD + "special_kongs:\n  xi: {points: lots}\n", ["special kong 'xi'", "points"]),
    ("special_kong_unknown_key", HEAD + "special_kongs:\n  xi: {pointz: 1}\n", ["unknown field 'pointz'", "points"]),
    ("special_kong_entry_text", HEAD + "special_kongs:\n  xi: big\n", ["special kong 'xi'"]),
    ("kong_points_negative", HEAD + "kongs:\n  minggang: {points: -1}\n", ["kong 'minggang'", "field 'points'"]),
    ("kong_points_huge", HEAD + "kongs:\n  angang: {points: 100000}\n", ["kong 'angang'", "out of range"]),
    ("kong_tiles_number", HEAD + "kongs:\n  dadan: {tiles: 7}\n", ["kong 'dadan'", "field 'tiles'"]),
    ("kong_found_by_unknown", HEAD + "kongs:\n  lame: {names: {zh: 瘸, en: Lame}, points: 1, found_by: meihe.nope}\n",
     ["kong 'lame'", "found_by", "meihe.lame_kong"]),
    ("kong_wildcard_text", HEAD + "kongs:\n  golden: {names: {zh: 金, en: G}, wildcard: yes please}\n",
     ["kong 'golden'", "wildcard"]),
    ("flags_unknown", HEAD + "flags: [zimo, teleport]\n", ["unknown flag 'teleport'"]),
    ("flags_mapping", HEAD + "flags: {zimo: true}\n", ["field 'flags'"]),
    ("options_list", HEAD + "options: [base]\n", ["field 'options'"]),
    ("option_type_unknown", HEAD + "options:\n  foo: {type: float, default: 1, doc: x}\n", ["option 'foo'", "type"]),
    ("option_no_doc", HEAD + "options:\n  foo: {type: int, default: 1}\n", ["option 'foo'", "doc"]),
    ("option_default_wrong", HEAD + "options:\n  base: {default: lots}\n", ["option 'base'"]),
    ("option_default_huge", HEAD + "options:\n  base: {default: 99999999999}\n", ["option 'base'", "out of range"]),
    ("option_choice_default", HEAD + "options:\n  cap_scope: {default: everyone}\n", ["option 'cap_scope'"]),
    ("option_choices_text", HEAD + "options:\n  foo: {type: choice, choices: a b, default: a, doc: x}\n",
     ["option 'foo'", "choices"]),
    ("option_entry_number", HEAD + "options:\n  foo: 3\n", ["option 'foo'"]),
    ("option_bad_name", HEAD + "options:\n  Foo Bar: {type: int, default: 1, doc: x}\n", ["field 'options'"]),
    ("win_conditions_mapping", HEAD + "win_conditions: {a: 1}\n", ["field 'win_conditions'"]),
    ("condition_no_message", HEAD + "win_conditions:\n  - {id: c, names: {zh: c, en: c}, when: always}\n",
     ["win condition 'c'", "message"]),
    ("condition_minimum_zero", HEAD + "win_conditions:\n  - {id: c, names: {zh: c, en: c}, message: {zh: c, en: c},"
     " minimum: 0}\n", ["win condition 'c'", "minimum"]),
    ("condition_when_number", HEAD + "win_conditions:\n  - {id: c, names: {zh: c, en: c}, message: {zh: c, en: c},"
     " when: 7}\n", ["win condition 'c'", "field 'when'"]),
    ("items_mapping", HEAD + "items: {closed_win: 1}\n", ["field 'items'"]),
    ("item_text", HEAD + "items: [closed_win]\n", ["item #1"]),
    ("item_no_id", HEAD + "items:\n  - names: {zh: a, en: a}\n", ["item #1", "id"]),
    ("item_id_caps", item("value: 1", iid="Closed Win"), ["field 'id'"]),
    ("item_unknown_key", item("vaule: 1"), ["item 'closed_win'", "unknown field 'vaule'", "value"]),
    ("item_value_text", item("value: two"), ["item 'closed_win'", "field 'value'"]),
    ("item_value_float", item("value: 1.5"), ["item 'closed_win'", "field 'value'"]),
    ("item_value_bool", item("value: true"), ["item 'closed_win'", "field 'value'"]),
    ("item_value_closed_only", item("value: {closed: 2}"), ["item 'closed_win'", "value.open"]),
    ("item_value_values_text", item("value: {option: dealer_pays_extra, values: {on: x, off: 1}}"),
     ["item 'closed_win'", "value.values.on"]),
    ("item_value_values_keys", item("value: {option: dealer_pays_extra, values: {yes: 1, maybe: 2}}"),
     ["item 'closed_win'", "values"]),
    ("item_value_option_bool", item("value: {option: dealer_pays_extra}"), ["item 'closed_win'", "bool"]),
    ("item_value_option_unknown", item("value: {option: nothing}"), ["item 'closed_win'", "unknown option"]),
    ("item_names_list", item("names: [a, b]"), ["item 'closed_win'", "field 'names'"]),
    ("item_applies_to", item("applies_to: everyone"), ["item 'closed_win'", "applies_to"]),
    ("item_excludes_unknown", item("excludes: [nothing]"), ["item 'closed_win'", "unknown item 'nothing'"]),
    ("item_excludes_mapping", item("excludes: {a: 1}"), ["item 'closed_win'", "'excludes'", "all_but"]),
    ("item_enabled_text", item("enabled: always"), ["item 'closed_win'", "field 'enabled'"]),
    ("item_enabled_unknown", item("enabled: {option: nothing}"), ["item 'closed_win'", "enabled"]),
    ("item_bonus_text", item("bonus: sometimes"), ["item 'closed_win'", "field 'bonus'"]),
    ("item_doc_list", item("doc: [a]"), ["item 'closed_win'", "field 'doc'"]),
    ("item_new_incomplete", item("names: {zh: 新, en: New}\nwhen: always", iid="brand_new"),
     ["item 'brand_new'", "value"]),
    ("when_number", item("when: 5"), ["item 'closed_win'", "field 'when'"]),
    ("when_unknown_predicate", item("when: singel_wait"), ["item 'closed_win'", "unknown predicate 'singel_wait'"]),
    ("when_any_text", item("when: {any: always}"), ["item 'closed_win'", "when.any"]),
    ("when_any_empty", item("when: {any: []}"), ["item 'closed_win'", "when.any"]),
    ("when_two_keys", item("when: {any: [always], all: [always]}"), ["item 'closed_win'", "field 'when'"]),
    ("when_param_unknown", item("when: {pair_is: {knd: dragon}}"), ["item 'closed_win'", "no parameter 'knd'"]),
    ("when_param_word", item("when: {pair_is: {kind: bogus}}"), ["item 'closed_win'", "parameter 'kind'"]),
    ("when_param_number", item("when: {pair_is: {kind: 5}}"), ["item 'closed_win'", "parameter 'kind'"]),
    ("when_param_count_text", item("when: {kongs: {count: two}}"), ["item 'closed_win'", "parameter 'count'"]),
    ("when_param_count_huge", item("when: {kongs: {count: 1000}}"), ["item 'closed_win'", "count"]),
    ("when_flag_unknown", item("when: {flag: {name: teleport}}"), ["item 'closed_win'", "parameter 'name'"]),
    ("when_flag_not_a_field", item("when: {flag: {name: from}}"), ["item 'closed_win'", "parameter 'name'"]),
    ("when_tile_unknown", item("when: {pung_of: {tile: 9z}}"), ["item 'closed_win'", "parameter 'tile'"]),
    ("when_param_option_unknown", item("when: {kongs: {count: {option: nothing}}}"),
     ["item 'closed_win'", "unknown option"]),
    ("when_param_option_type", item("when: {kongs: {count: {option: cap_scope}}}"),
     ["item 'closed_win'", "cap_scope"]),
    ("when_params_list", item("when: {pair_is: [dragon]}"), ["item 'closed_win'", "when"]),
    ("formula_text", HEAD + "formula: exponential\n", ["field 'formula'"]),
    ("formula_kind_unknown", HEAD + "formula: {kind: exponentail}\n", ["formula.kind", "exponential"]),
    ("formula_kind_number", HEAD + "formula: {kind: 2}\n", ["formula.kind"]),
    ("formula_start_huge", HEAD + "formula: {start: 1000000}\n", ["formula.start", "out of range"]),
    ("formula_base_option_unknown", HEAD + "formula: {base: {option: nobase}}\n", ["formula.base", "nobase"]),
    ("formula_base_option_type", HEAD + "formula: {base: {option: cap_scope}}\n", ["formula.base", "cap_scope"]),
    ("formula_cap_scope_word", HEAD + "formula: {cap_scope: everyone}\n", ["formula.cap_scope"]),
    ("formula_kind_needs_options", HEAD + "formula: {kind: riichi}\n",
     ["kind 'riichi' needs the options kazoe, kiriage"]),
    ("formula_kind_needs_base", "id: x\nextends: riichi\nnames: {zh: x, en: x}\nformula: {kind: exponential}\n",
     ["formula.base' is missing"]),
    ("formula_unknown_key", HEAD + "formula: {multiplier: 2}\n", ["unknown field 'multiplier'", "formula"]),
    ("payments_discard_word", HEAD + "payments: {discard: nobody}\n", ["payments.discard"]),
    ("payments_cover_text", HEAD + "payments: {cover: perhaps}\n", ["payments.cover"]),
    ("payments_cover_flag", HEAD + "payments: {cover_flag: seat}\n", ["payments.cover_flag"]),
    ("unknown_top_key", HEAD + "itmes: []\n", ["unknown field 'itmes'", "items"]),
    ("missing_items", standalone(drop("items")), ["field 'items' is missing"]),
    ("missing_formula", standalone(drop("formula")), ["field 'formula' is missing"]),
    ("missing_formula_kind", standalone(drop("formula", "kind")), ["formula.kind' is missing"]),
    # --- YAML itself ---
    ("alias", HEAD + "description: &d text\nsource: *d\n", ["aliases"]),
    ("billion_laughs", HEAD + "a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
     + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)),
     ["aliases"]),
    ("merge_key_alias", HEAD + "base: &b {default: 2}\noptions:\n  base: {<<: *b}\n", ["aliases"]),
    ("wide_list", HEAD + "flags: [" + ", ".join(["zimo"] * 5000) + "]\n", ["more than 1,000 entries"]),
    ("wide_mapping", HEAD + "options:\n" + "".join(f"  o{i}: {{type: int, default: 1, doc: x}}\n" for i in range(1500)),
     ["more than 1,000 entries"]),
    ("many_values", HEAD + "".join(f"k{i}: [{', '.join(['1'] * 900)}]\n" for i in range(30)),
     ["more than 20,000 values"]),
    ("duplicate_key", HEAD + "names: {zh: 二, en: Two}\n", ["given twice"]),
    ("not_yaml", "id: x\nnames: {zh: x, en: x\nitems: [\n", ["not valid YAML", "line"]),
    ("tab_indent", "id: x\n\tnames: {zh: x, en: x}\n", ["not valid YAML"]),
    ("python_tag", "id: !!python/object/apply:os.system ['true']\n", ["not valid YAML"]),
    ("binary_tag", HEAD + "description: !!binary aGVsbG8=\n", ["field 'description'"]),
    ("timestamp", HEAD + "source: 2024-01-01\n", ["field 'source'"]),
    ("list_top", "- id: x\n- names: y\n", ["not a ruleset", "not a YAML mapping"]),
    ("scalar_top", "just some text\n", ["not a ruleset", "not a YAML mapping"]),
    ("empty_file", "", ["not a ruleset"]),
    ("unhashable_key", HEAD + "? [a, b]\n: 1\n", ["not valid YAML"]),
    ("huge_float", HEAD + "tiles: {sets: 1e400}\n", ["field 'tiles.sets'"]),
    ("long_number", HEAD + "tiles: {sets: " + "9" * 5000 + "}\n", ["digits"]),
    # --- extends ---
    ("extends_number", "id: x\nextends: 5\nnames: {zh: x, en: x}\n", ["field 'extends'"]),
    ("extends_unknown", "id: x\nextends: nowhere\nnames: {zh: x, en: x}\n", ["unknown ruleset 'nowhere'"]),
    ("extends_long_name", "id: x\nextends: " + "x" * 300 + "\nnames: {zh: x, en: x}\n", ["unknown ruleset"]),
    ("extends_long_path", "id: x\nextends: /" + "x" * 300 + ".yaml\nnames: {zh: x, en: x}\n", ["extends"]),
    ("extends_self", "id: x\nextends: my.yaml\nnames: {zh: x, en: x}\n", ["circle"]),
    ("extends_dev_zero", "id: x\nextends: /dev/zero\nnames: {zh: x, en: x}\n", ["/dev/zero", "not a regular file"]),
    ("extends_dev_urandom", "id: x\nextends: /dev/urandom\nnames: {zh: x, en: x}\n", ["not a regular file"]),
    ("extends_directory", "id: x\nextends: /tmp/\nnames: {zh: x, en: x}\n", ["a directory"]),
]


def _write(tmp_path: Path, text: str, name: str = "my.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    load_ruleset.cache_clear()
    return str(path)


def _run(*args: str) -> Any:
    return runner.invoke(app, list(args), env={"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"})


def assert_clean(path: str, words: list[str], secret: str | None = None) -> None:
    """load_ruleset, `rules show` and `score --rules` all fail cleanly, exit 3, naming the file and ``words``."""
    load_ruleset.cache_clear()
    with pytest.raises(MjcalcError) as info:
        load_ruleset(path)
    message = info.value.message
    assert info.value.kind == "ruleset" and info.value.exit_code == 3
    assert Path(path).name in message, message
    for word in words:
        assert word in message, (word, message)
    assert "Traceback" not in message and "Error:" not in message
    if secret:
        assert secret not in message
    for args in (("rules", "show", path), ("score", QUICK, "--rules", path), ("score", QUICK + f" +rules={path}")):
        load_ruleset.cache_clear()
        r = _run(*args)
        assert r.exception is None or isinstance(r.exception, SystemExit), (args, r.exception)
        assert r.exit_code == 3, (args, r.exit_code, r.output)
        assert "Traceback" not in r.output and "internal error" not in r.output
        if secret:
            assert secret not in r.output


@pytest.mark.parametrize(("text", "words"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_broken_file_is_a_clear_error(tmp_path: Path, text: str, words: list[str]) -> None:
    assert_clean(_write(tmp_path, text), words)


def test_a_file_that_is_no_ruleset_is_never_quoted(tmp_path: Path) -> None:
    secret = "hunter2-very-secret"
    for text in (f"root:$6${secret}:19000:0:99999:7:::\n", f"password: {secret}\ntoken: {secret}\n",
                 f"{secret}\n", f"- {secret}\n", f"{{{secret}: [\n", f"\t{secret}: x\n"):
        assert_clean(_write(tmp_path, text, "shadow"), ["not"], secret=secret)
    if os.path.exists("/etc/shadow") and os.access("/etc/shadow", os.R_OK):
        first = Path("/etc/shadow").read_text(errors="replace").split(":")[0]
        load_ruleset.cache_clear()
        with pytest.raises(MjcalcError) as info:
            load_ruleset("/etc/shadow")
        assert "not a ruleset" in info.value.message and f"{first}:" not in info.value.message


def test_too_large_a_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with open(path, "wb") as f:  # 50 MB, sparse: the size alone refuses it
        f.truncate(50_000_000)
    assert_clean(str(path), ["too large"])
    assert_clean(_write(tmp_path, HEAD + "description: " + "x" * 1_100_000 + "\n", "big2.yaml"), ["too large"])


def test_not_text(tmp_path: Path) -> None:
    (tmp_path / "latin1.yaml").write_bytes(HEAD.encode() + "description: caf\xe9\n".encode("latin-1"))
    assert_clean(str(tmp_path / "latin1.yaml"), ["not UTF-8"])
    (tmp_path / "nul.yaml").write_bytes(HEAD.encode() + b"description: a\x00b\n")
    assert_clean(str(tmp_path / "nul.yaml"), ["binary"])
    (tmp_path / "random.yaml").write_bytes(random.Random(5).randbytes(5000))
    assert_clean(str(tmp_path / "random.yaml"), ["not"])


def test_utf16_and_bom_files_are_read(tmp_path: Path) -> None:
    for encoding in ("utf-16", "utf-8-sig"):
        path = tmp_path / f"{encoding}.yaml"
        path.write_bytes((HEAD + "options:\n  base: {default: 3}\n").encode(encoding))
        load_ruleset.cache_clear()
        assert load_ruleset(str(path)).options["base"].default == 3


def test_extends_chain_is_bounded(tmp_path: Path) -> None:
    for i in range(12):
        parent = f"r{i + 1}.yaml" if i < 11 else "changchun"
        (tmp_path / f"r{i}.yaml").write_text(f"id: r{i}\nextends: {parent}\n", encoding="utf-8")
    assert_clean(str(tmp_path / "r0.yaml"), ["more than 8 files deep"])
    (tmp_path / "a.yaml").write_text("id: a\nextends: b.yaml\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("id: b\nextends: ./a.yaml\n", encoding="utf-8")
    assert_clean(str(tmp_path / "a.yaml"), ["circle"])


def test_symlink_to_a_device(tmp_path: Path) -> None:
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    assert_clean(str(tmp_path / "zero.yaml"), ["not a regular file"])
    assert_clean(_write(tmp_path, "id: x\nextends: zero.yaml\nnames: {zh: x, en: x}\n"), ["not a regular file"])


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_and_devices_never_hang_a_process(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    child = _write(tmp_path, "id: x\nextends: pipe.yaml\nnames: {zh: x, en: x}\n", "child.yaml")
    lines = tmp_path / "lines.txt"
    lines.write_text("".join(f"{QUICK} +rules={r}\n" for r in (fifo, "/dev/zero", child, "x" * 300, "changchun")),
                     encoding="utf-8")
    for args in (["rules", "show", str(fifo)], ["score", QUICK, "--rules", str(fifo)], ["rules", "show", child],
                 ["score", QUICK, "--rules", "/dev/zero"], ["score", f"{QUICK} +rules={fifo}"]):
        p = subprocess.run([sys.executable, "-m", "mjcalc", *args], capture_output=True, text=True, timeout=20,
                           env={**os.environ, "MJCALC_CONFIG": "/nonexistent"})
        assert p.returncode == 3, (args, p.stdout, p.stderr)
        assert "not a regular file" in p.stdout + p.stderr and "Traceback" not in p.stderr
    p = subprocess.run([sys.executable, "-m", "mjcalc", "batch", str(lines), "--format", "jsonl"],
                       capture_output=True, text=True, timeout=20, env={**os.environ, "MJCALC_CONFIG": "/nonexistent"})
    records = [yaml.safe_load(line) for line in p.stdout.splitlines()]
    assert [r["result"] for r in records] == ["error"] * 4 + ["win"]
    assert all(r["error"]["kind"] == "ruleset" for r in records[:4])
    assert "Traceback" not in p.stderr


def test_a_line_naming_a_broken_ruleset_is_one_error_record(tmp_path: Path) -> None:
    path = _write(tmp_path, item("value: 20000"))
    r = score_line(QUICK, Request(rules=path))
    assert r.result == "error" and r.error.kind == "ruleset" and "out of range" in r.error.message


# --- the schema and the built-in files ------------------------------------------------------------------


@pytest.mark.parametrize("name", builtin_names())
def test_every_builtin_file_matches_the_schema(name: str) -> None:
    """The built-in files are not validated at run time (start-up time): here instead, each file as written and
    the ruleset it makes with what it extends."""
    data = load_yaml(str(builtin_dir() / f"{name}.yaml"), name)
    assert problem(data, partial="extends" in data) is None
    merged = data
    while "extends" in merged:
        parent = load_yaml(str(builtin_dir() / f"{merged['extends']}.yaml"), merged["extends"])
        rest = {k: v for k, v in merged.items() if k != "extends"}
        merged = merge(parent, rest) if "extends" not in parent else {**merge(parent, rest),
                                                                     "extends": parent["extends"]}
    assert problem(merged) is None
    load_ruleset.cache_clear()
    assert load_ruleset(name).id == name


def test_every_predicate_parameter_is_declared() -> None:
    """A predicate with parameters has them declared in schema.PREDICATE_PARAMS, so that a file's values are
    checked when it is loaded (the compiled predicates keep no annotations to check them by)."""
    for name, fn in PREDICATES.items():
        try:
            params = list(inspect.signature(fn).parameters)[1:]
        except (TypeError, ValueError):  # compiled: its signature is checked on the source
            continue
        assert sorted(PREDICATE_PARAMS.get(name, {})) == sorted(params), (
            f"predicate '{name}' takes {params}: declare them in mjcalc/ruleset/schema.py PREDICATE_PARAMS")
    assert set(FORM_PARAMS) <= set(FORM_NAMES)


# --- fuzz ------------------------------------------------------------------------------------------------

JUNK: list[Any] = ["", "x", "always", "zimo", -1, 0, 7, 10**9, 10**11, 2.5, True, None, [], {}, ["x"], {"x": 1},
                   {"option": "base"}, {"option": "nothing"}, [[1]], "1m", "9z", "*", {"any": []}, {"not": 5}]


def _nodes(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _nodes(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _nodes(v, (*path, i))
    return out


def _mutate(data: Any, rng: random.Random) -> Any:
    data = copy.deepcopy(data)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _nodes(data) if p]
        if not paths:
            break
        path = rng.choice(paths)
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        action = rng.random()
        if action < 0.5:
            parent[path[-1]] = rng.choice(JUNK)
        elif action < 0.7:
            del parent[path[-1]]
        elif action < 0.85 and isinstance(parent, dict):
            parent[rng.choice(["extra", "value", "when", "id", "names", "kind", "option"])] = rng.choice(JUNK)
        else:
            parent[path[-1]] = [parent[path[-1]]] if rng.random() < 0.5 else {"x": parent[path[-1]]}
    return data


def _garble(text: str, rng: random.Random) -> str:
    chars = list(text)
    for _ in range(rng.randint(1, 8)):
        i = rng.randrange(len(chars))
        chars[i:i + rng.randint(0, 3)] = rng.choice(["", ":", "{", "[", "-", "&a", "*a", " ", "\n", "'", "!!", "#",
                                                     "9", "x", "\t", "%"])
    return "".join(chars)


def test_fuzz_mutated_builtin_files(tmp_path: Path) -> None:
    """Seeded: 200 mutations of the built-in files (values of every type swapped in, keys dropped or added,
    text garbled); each loads or fails with a clean ruleset error, and one that loads scores a line and shows
    itself without an exception."""
    rng = random.Random(20261201)
    sources = {name: (builtin_dir() / f"{name}.yaml").read_text(encoding="utf-8") for name in builtin_names()}
    parsed = {name: load_yaml(str(builtin_dir() / f"{name}.yaml"), name) for name in sources}
    outcomes = {"loaded": 0, "refused": 0}
    for n in range(200):
        name = rng.choice(sorted(sources))
        if n % 3 == 0:
            text = _garble(sources[name], rng)
        else:
            data = _mutate(parsed[name], rng)
            if isinstance(data, dict) and isinstance(data.get("extends"), str):
                data["extends"] = data["extends"]  # a built-in name: still found
            text = yaml.dump(data, Dumper=DUMPER, allow_unicode=True, sort_keys=False)
        path = _write(tmp_path, text, f"m{n}.yaml")
        try:
            rules = load_ruleset(path)
        except MjcalcError as exc:
            assert exc.kind == "ruleset" and f"m{n}.yaml" in exc.message, exc.message
            outcomes["refused"] += 1
            continue
        outcomes["loaded"] += 1
        for line in (QUICK, "123m456p13s777z55z 2s +from=W", "19m19p19s1234567z 1m +zimo"):
            r = score_line(line, Request(rules=path))
            assert r.result in ("win", "not_a_win", "waiting", "error")
            if r.result == "error":
                assert r.error.kind != "internal", r.error.message
        from mjcalc.output.rules_table import ruleset_text

        ruleset_text(rules)
    assert outcomes["refused"] > 60 and outcomes["loaded"] > 10, outcomes


# --- the config file ------------------------------------------------------------------------------------


def _score_with_config(path: Path | str, *args: str) -> Any:
    return runner.invoke(app, ["score", QUICK, *args], env={"MJCALC_CONFIG": str(path)})


@pytest.mark.parametrize(("text", "words"), [
    ("rules: 5\n", ["'rules' is a ruleset name or a path, not 5"]),
    ("rules: [jilin]\n", ["'rules'"]),
    ("lang: fr\n", ["'lang' is en or zh"]),
    ("set: [base]\n", ["'set' is a mapping"]),
    ("set: {base: [1, 2]}\n", ["option 'base' takes one value"]),
    ("set: {bsae: 2}\n", ["set: 'bsae' is not an option", "did you mean 'base'"]),
    ("set: {base: lots}\n", ["set: option 'base' takes a whole number"]),
    ("set: {base: on}\n", ["set: option 'base' takes a whole number", "not true"]),  # YAML's on is true, no 1
    ("set: {base: 99999999999}\n", ["set: option 'base'"]),
    ("set: {cap_scope: everyone}\n", ["set: option 'cap_scope'"]),
    ("rulez: jilin\n", ["unknown key 'rulez'", "did you mean 'rules'"]),
    ("- rules\n", ["expected a mapping"]),
    ("a: &x 2\nset: {base: *x}\n", ["aliases"]),
    ("set: {base: 1" + "0" * 5000 + "}\n", ["digits"]),
    ("rules: jilin\nrules: meihe\n", ["given twice"]),
    ("set: {" * 40 + "}" * 40 + "\n", ["nested more than"]),
    ("x" * 70_000 + "\n", ["too large"]),
])
def test_broken_config_file_is_blamed_on_the_file(tmp_path: Path, text: str, words: list[str]) -> None:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    load_ruleset.cache_clear()
    r = _score_with_config(path)
    assert r.exit_code == 3, r.output
    assert f"config file {path}" in r.output and "--set" not in r.output, r.output
    for word in words:
        assert word in r.output, (word, r.output)
    assert "Traceback" not in r.output and "internal error" not in r.output


def test_config_file_encodings_and_devices(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_bytes("rules: jilin\nset: {base: 2}\n".encode("utf-16"))
    r = _score_with_config(path, "--json")
    assert r.exit_code == 0 and '"ruleset": "jilin"' in r.output, r.output
    for device in ("/dev/zero", "/dev/urandom", str(tmp_path)):
        r = _score_with_config(device)
        assert r.exit_code == 3 and "not a config file" in r.output, r.output
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        p = subprocess.run([sys.executable, "-m", "mjcalc", "score", QUICK], capture_output=True, text=True,
                           timeout=20, env={**os.environ, "MJCALC_CONFIG": str(tmp_path / "fifo")})
        assert p.returncode == 3 and "a FIFO" in p.stderr, p.stderr


def test_set_wins_over_a_bad_config_value_and_is_blamed_for_its_own(tmp_path: Path) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("set: {base: lots, cap: 500}\n", encoding="utf-8")
    assert _score_with_config(path, "--set", "base=3").exit_code == 0
    r = _score_with_config(tmp_path / "none.yaml", "--set", "base=lots")
    assert r.exit_code == 3 and "--set" in r.output
    path.write_text("rules: riichi\nset: {base: 2, kuitan: off}\n", encoding="utf-8")  # base: riichi has none
    assert _score_with_config(path).exit_code == 0
    path.write_text("set: {kuitann: off}\n", encoding="utf-8")
    r = _score_with_config(path)
    assert r.exit_code == 3 and "did you mean 'kuitan'" in r.output
    lines = tmp_path / "lines.txt"
    lines.write_text(f"{QUICK}\n{QUICK} +rules=jilin\n", encoding="utf-8")
    path.write_text("set: {cap: lots}\n", encoding="utf-8")
    r = runner.invoke(app, ["batch", str(lines)], env={"MJCALC_CONFIG": str(path)})
    assert r.exit_code == 3 and f"config file {path}: set: option 'cap'" in r.output


def test_values_that_add_up_past_the_formula_are_a_ruleset_error(tmp_path: Path) -> None:
    """Each value is in range, but 40 items of 1000 fan make 2^40003: an error, never a number too long to print."""
    items = "".join(f"  - id: big{i}\n    names: {{zh: 大, en: Big}}\n    value: 1000\n    when: always\n"
                    for i in range(40))
    path = _write(tmp_path, HEAD + "options:\n  cap: {default: none}\nitems:\n" + items)
    r = _run("score", QUICK, "--rules", path)
    assert r.exit_code == 3 and "more than the exponential formula pays" in r.output, r.output
    p = subprocess.run([sys.executable, "-m", "mjcalc", "waits", "123m456p789s111z2z", "--rules", path],
                       capture_output=True, text=True, timeout=20, env={**os.environ, "MJCALC_CONFIG": "/nonexistent"})
    assert p.returncode == 3 and "more than the exponential formula pays" in p.stderr, p.stderr


# --- rules/SCHEMA.md describes the schema --------------------------------------------------------------


def test_schema_md_lists_every_key_of_the_schema_and_no_other() -> None:
    """The annotated example of rules/SCHEMA.md holds each key of the schema, at each level, and no other."""
    import re

    from mjcalc.ruleset.schema import ruleset_schema

    text = (builtin_dir() / "SCHEMA.md").read_text(encoding="utf-8")
    example = yaml.safe_load(re.search(r"```yaml\n(.*?)```", text, re.S).group(1))
    schema = ruleset_schema()["properties"]

    def union(entries: Any) -> set[str]:
        values = entries.values() if isinstance(entries, dict) else entries
        return {k for entry in values if isinstance(entry, dict) for k in entry}

    assert set(example) == set(schema)
    for key in ("tiles", "formula", "payments", "game"):
        assert set(example[key]) == set(schema[key]["properties"]), key
    for key in ("items", "win_conditions"):
        assert union(example[key]) == set(schema[key]["items"]["properties"]), key
    for key in ("options", "special_kongs", "kongs"):
        assert union(example[key]) == set(schema[key]["additionalProperties"]["properties"]), key


def test_schema_md_tables_are_generated_from_the_schema() -> None:
    from mjcalc.ruleset.schema import BEGIN, END, markdown

    text = (builtin_dir() / "SCHEMA.md").read_text(encoding="utf-8")
    assert BEGIN + text.partition(BEGIN)[2].partition(END)[0] + END == markdown(), (
        "rules/SCHEMA.md is out of date: run python -m mjcalc.ruleset.schema --write")


def test_a_broken_file_is_read_once_and_its_error_given_each_time(tmp_path: Path) -> None:
    path = _write(tmp_path, item("value: 20000"))
    errors = []
    for _ in range(3):
        with pytest.raises(MjcalcError) as info:
            load_ruleset(path)
        errors.append(info.value)
    assert len({id(e) for e in errors}) == 3 and len({e.message for e in errors}) == 1
    Path(path).write_text(item("value: 2"), encoding="utf-8")
    with pytest.raises(MjcalcError):
        load_ruleset(path)  # remembered for this process …
    load_ruleset.cache_clear()
    assert next(i for i in load_ruleset(path).items if i.id == "closed_win").value == 2  # … until forgotten
