"""The message catalog (mjcalc/i18n.py): every text of the CLI in both languages, and Chinese output free of the
catalog's English sentences."""

from __future__ import annotations

import gettext
import io
import json
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjcalc import i18n
from mjcalc.cli import app
from mjcalc.errors import MjcalcError
from mjcalc.i18n import Msg, localized, read_po, write_mo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import catalog  # noqa: E402  (tools/catalog.py: the texts collected from the source)

PO = ROOT / "mjcalc" / "locale" / "zh.po"
TEXTS = catalog.collect()
ZH = read_po(PO.read_text(encoding="utf-8"))
ZH.pop("", None)


def test_every_text_has_a_translation() -> None:
    missing = [t for t in TEXTS if not ZH.get(t)]
    assert not missing, f"texts with no zh translation (run tools/catalog.py, then translate): {missing}"


def test_no_translation_is_orphaned() -> None:
    orphans = [t for t in ZH if t not in TEXTS]
    assert not orphans, f"zh entries whose text is no longer in the source (run tools/catalog.py): {orphans}"


def test_translations_keep_the_placeholders() -> None:
    wrong = {t: ZH[t] for t in TEXTS if t in ZH and catalog.placeholders(t) - {"s"} != catalog.placeholders(ZH[t])}
    assert not wrong


def test_the_collector_finds_each_kind_of_mark(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text('Msg("a {x}" if c else "b", x=1)\ntr("c", lang)\nN_("d")\nMsg(name)\nprint("e")\n')
    assert catalog.texts_of(module) == ["a {x}", "b", "c", "d"]


def test_mo_round_trip_as_gettext_reads_it() -> None:
    entries = read_po(PO.read_text(encoding="utf-8"))
    translations = gettext.GNUTranslations(io.BytesIO(write_mo(entries)))
    for msgid, msgstr in ZH.items():
        assert translations.gettext(msgid) == msgstr
    assert translations.gettext("not in the catalog") == "not in the catalog"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
def test_gnu_msgfmt_accepts_the_catalog(tmp_path: Path) -> None:
    done = subprocess.run(["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(PO)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_an_installed_package_carries_the_compiled_catalog() -> None:
    here = Path(i18n.__file__).resolve()
    if ROOT in here.parents:
        pytest.skip("the checkout's source: the .po is read directly")
    assert (here.parent / "locale" / "zh.mo").is_file()


def test_a_msg_is_its_english_text_and_renders_again() -> None:
    m = Msg("a fifth {tile}: there are only four of each tile", tile="1z")
    assert m == "a fifth 1z: there are only four of each tile" and isinstance(m, str)
    assert localized(m, "zh") == "第五张 1z：每种牌只有四张"
    outer = Msg("+{flag}: {problem}", flag="bao", problem=m)
    assert outer.render("zh") == "+bao：第五张 1z：每种牌只有四张"
    again = pickle.loads(pickle.dumps(outer))
    assert again == outer and again.render("zh") == outer.render("zh")
    pair = Msg.pair({"en": "no", "zh": "不"})
    assert pair == "no" and pair.render("zh") == "不" and pickle.loads(pickle.dumps(pair)).render("zh") == "不"


def test_an_error_keeps_its_english_message_and_renders_in_chinese() -> None:
    err = MjcalcError("notation", Msg("empty meld '{meld}'", meld="[]"), 3)
    assert err.message == "empty meld '[]'" and err.to_json() == {"kind": "notation", "message": err.message, "column": 3}
    assert err.to_json("zh")["message"] == "空的副露 '[]'"


# --- Chinese output holds none of the catalog's English sentences -------------------------------------------

def _english_sentences() -> list[str]:
    """The fixed parts of the catalog's texts that are English prose, where the translation differs: none of them
    may show in Chinese output. Prose is two words or more for a whole text ("applies to"), three for a part
    between parameters (not "is not", which a ruleset's own English description may hold)."""
    out = set()
    for msgid, msgstr in ZH.items():
        if msgstr == msgid:
            continue
        parts = re.split(catalog.PLACEHOLDER, msgid)
        prose = r"[A-Za-z]{2,} [a-z]{2,}" if len(parts) == 1 else r"[A-Za-z]{2,} [a-z]{2,} [a-z]{2,}"
        for part in parts:
            part = part.strip(" ;:,.()'")
            if re.search(prose, part) and part not in msgstr:
                out.add(part)
    return sorted(out)


ENGLISH = _english_sentences()

ZH_COMMANDS = [
    ["score", "123m456p789s111z22z +zimo +seat=E"],
    ["score", "123m456p13s777z55z 2s +from=W"],
    ["score", "123m456m789m111z22z"],  # not a win
    ["score", "123m456p789s11111z"],  # errors of each kind
    ["score", "123m456p789s111z22z +zim"],
    ["score", "123m456p789s111z22z +zimo +from=W"],
    ["score", "123m456p789s111z22z zimo"],
    ["score", "123m456p789s111z22z +seat=X"],
    ["score", "123m456p789s[111z"],
    ["score", "123m456p789s111z"],
    ["score", "19m19p19s1234567z 1m", "--rules", "riichi"],
    ["score", "123m456p789s234p55s +riichi +zimo +dora=1m +honba=1 +sticks=1", "--rules", "riichi"],
    ["score", "123m456p789s111z22z +zimo +seat=E +cap=10"],  # a cap's notes
    ["score", "111m223344p5599s 1m +duibao +bao=1m +seat=E", "--rules", "changchun-mil"],  # a fan cap per payer
    ["score", "234m456m789m123p456p1s 1s +seat=E +lian=2", "--rules", "taiwan"],
    ["score", "123m456m789m123p45p 6p", "--rules", "mcr"],
    ["score", "2345m345678p55s5m +hui=5m +zimo", "--rules", "meihe"],
    ["score", "123m456p789s111z22z", "--set", "base=x"],
    ["score", "123m456p789s111z22z", "--set", "bsae=2"],
    ["score", "123m456p789s111z22z", "--rules", "nosuch"],
    ["score", "123m456p789s111z22z", "--rules", "/nonexistent/house.yaml"],
    ["score", "123m456p789s111z22z", "--json"],
    ["score", "123m456p789s11111z", "--json"],
    ["waits", "123m456p789s111z2z"],
    ["waits", "123m456p789s111z2z", "--json"],
    ["waits", "123m456p789s111z22z"],
    ["waits", "13m458p79s1136z2z"],
    *(["check", str(ROOT / "examples" / f"{name}-homework.txt"), "--rules", name]
      for name in ("changchun", "changchun-mil", "riichi", "mcr", "taiwan", "meihe")),
    ["check", str(ROOT / "examples" / "taiwan-homework.txt")],  # every line an error: the wrong ruleset
    ["rules", "show", "changchun"],
    ["rules", "show", "riichi"],
    ["rules", "show", "nosuch"],
    ["rules", "show", "mcr"],
    ["rules", "show", "taiwan"],
    ["rules", "list"],
]


def _data_texts(ruleset: str) -> str:
    """The ruleset's own texts (its description, the docs of its options and items: English data, not the
    catalog's), which ``rules show`` prints as they are."""
    from mjcalc.output.rules_table import ruleset_json
    from mjcalc.ruleset.loader import load_ruleset

    return " ".join(" ".join(str(v).split()) for v in _strings(ruleset_json(load_ruleset(ruleset))))


def _strings(value: object) -> list[object]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("args", ZH_COMMANDS, ids=lambda a: " ".join(a)[:60])
def test_zh_output_has_no_english_sentence_of_the_catalog(args: list[str]) -> None:
    r = CliRunner().invoke(app, [*args, "--lang", "zh"])
    shown = r.output + (r.stderr if r.stderr_bytes is not None else "")
    # the options line is option names and values as --set takes them (kazoe yakuman): no prose
    shown = "\n".join(line for line in shown.splitlines() if not line.startswith("选项  "))
    named = args[args.index("--rules") + 1] if "--rules" in args[:-1] else args[-1] if args[:2] == ["rules", "show"] \
        else "changchun"
    data = _data_texts(named if named in ("changchun-mil", "taiwan", "mcr", "meihe", "riichi") else "changchun")
    found = [s for s in ENGLISH if s in shown and s not in data]
    assert not found, f"{found}\n{shown}"


def test_zh_from_the_environment_and_the_config_file(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["score", "123m456p789s11111z"], env={"MJCALC_LANG": "zh"})
    assert "每种牌只有四张" in r.output
    config = tmp_path / "config.yaml"
    config.write_text("lang: zh\n", encoding="utf-8")
    r = CliRunner().invoke(app, ["score", "123m456p789s11111z"], env={"MJCALC_CONFIG": str(config), "MJCALC_LANG": ""})
    assert "每种牌只有四张" in r.output
    r = CliRunner().invoke(app, ["score", "123m456p789s11111z", "--lang", "en"], env={"MJCALC_LANG": "zh"})
    assert "there are only four of each tile" in r.output


def test_zh_json_messages_and_english_by_default() -> None:
    zh = json.loads(CliRunner().invoke(app, ["score", "123m456p789s11111z", "--json", "--lang", "zh"]).output)
    en = json.loads(CliRunner().invoke(app, ["score", "123m456p789s11111z", "--json"]).output)
    assert en["error"]["message"] == "a fifth 1z: there are only four of each tile"
    assert zh["error"] == {**en["error"], "message": "第五张 1z：每种牌只有四张"}


HELP_COMMANDS = [[], ["score"], ["waits"], ["check"], ["batch"], ["rules"], ["rules", "show"], ["rules", "list"]]


@pytest.mark.parametrize("args", HELP_COMMANDS, ids=lambda a: " ".join(a) or "mjcalc")
def test_zh_help_has_no_english_sentence_of_the_catalog(args: list[str], monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from typer import rich_utils

    from mjcalc.cli import _PANELS, main

    for name in _PANELS:  # the translation sets Typer's panel titles: put them back after the test
        if hasattr(rich_utils, name):
            monkeypatch.setattr(rich_utils, name, getattr(rich_utils, name))
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("MJCALC_LANG", "zh")  # batch and rules list have no --lang
    with pytest.raises(SystemExit) as done:
        main([*args, "--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    found = [s for s in ENGLISH if s in shown]
    assert not found, f"{found}\n{shown}"
    assert "Show this message and exit." not in shown and "显示本帮助并退出" in shown


def test_help_language_from_the_arguments_then_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from mjcalc.cli import _help_lang

    monkeypatch.setenv("MJCALC_LANG", "zh")
    assert _help_lang(["score", "--help"]) == "zh"
    assert _help_lang(["score", "--help", "--lang", "en"]) == "en"
    assert _help_lang(["score", "--lang=fr"]) == "en"  # the command says what is wrong, in English
    monkeypatch.setenv("MJCALC_LANG", "")
    monkeypatch.setenv("MJCALC_CONFIG", "/nonexistent/mjcalc.yaml")
    assert _help_lang(["--help"]) == "en"


# --- the rulesets' own texts, the fact names, rules list, batch's summary and the file validator in zh --------

def test_every_builtin_description_and_option_doc_is_given_in_both_languages() -> None:
    import yaml

    from mjcalc.ruleset.loader import load_ruleset
    from mjcalc.support.builtin import builtin_dir, builtin_names

    for name in builtin_names():
        raw = yaml.safe_load((builtin_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
        texts = [("description", raw["description"])] + [
            (f"option {k}", o["doc"]) for k, o in (raw.get("options") or {}).items() if "doc" in o]
        for where, text in texts:
            assert isinstance(text, dict) and set(text) == {"en", "zh"} and all(text.values()), (name, where)
        rules = load_ruleset(name)
        assert localized(rules.description, "zh") != rules.description == raw["description"]["en"].strip()
        for k, o in rules.options.items():
            assert localized(o.doc, "zh") != o.doc, (name, k)


@pytest.mark.parametrize("name", ["changchun", "mcr", "riichi", "taiwan"])
def test_rules_show_in_zh_gives_the_rulesets_own_texts_and_the_facts_in_chinese(name: str) -> None:
    from mjcalc.ruleset.loader import load_ruleset

    rules = load_ruleset(name)
    shown = CliRunner().invoke(app, ["rules", "show", name, "--lang", "zh"], env={"COLUMNS": "400"}).output
    flat = " ".join(shown.split())
    assert " ".join(localized(rules.description, "zh").split()) in flat and rules.description[:30] not in flat
    for o in rules.options.values():
        assert localized(o.doc, "zh").split("：")[0] in shown
    gates = re.findall(r"\[需要 [^\]]*\]|\[不含 [^\]]*\]", shown)  # what an item needs of the hand's facts
    assert gates and not [g for g in gates if re.search(r"form [a-z_]+|[a-z_]+ wait", g)], gates


def test_rules_list_in_zh() -> None:
    en = CliRunner().invoke(app, ["rules", "list"]).output
    zh = CliRunner().invoke(app, ["rules", "list", "--lang", "zh"]).output
    assert "unit" in en and "items" in en and "fan" in en
    assert "单位" in zh and "番种数" in zh and "unit" not in zh and " han " not in zh and "翻" in zh


def test_batch_summary_line_in_the_configured_language(tmp_path: Path) -> None:
    lines = tmp_path / "hands.txt"
    lines.write_text("123m456p789s111z22z +zimo\n123m456p789s111z2z\n12345\n", encoding="utf-8")
    en = CliRunner().invoke(app, ["batch", str(lines)], env={"MJCALC_LANG": ""})
    zh = CliRunner().invoke(app, ["batch", str(lines)], env={"MJCALC_LANG": "zh"})
    assert "3 records: 1 won, 0 not a win, 1 waiting, 1 error, 0 skipped" in en.stderr
    assert "3 条记录：1 条和牌，0 条不能和，1 条听牌，1 条出错，0 条跳过" in zh.stderr
    assert zh.stdout == en.stdout  # the records themselves stay English (docs/OUTPUT.md)


def test_a_ruleset_file_problem_in_zh(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: changchun\nitems:\n  - {id: x, names: {zh: 甲, en: X}, value: 1, when: always, "
                     "colour: red}\n", encoding="utf-8")
    en = CliRunner().invoke(app, ["score", "123m456p789s111z22z", "--rules", str(house)])
    zh = CliRunner().invoke(app, ["score", "123m456p789s111z22z", "--rules", str(house), "--lang", "zh"])
    assert en.exit_code == zh.exit_code == 3
    assert "item 'x': unknown field 'colour'; known: id, names" in en.stderr
    assert "番种 'x'：没有字段 'colour'；可用的字段：id, names" in zh.stderr


def test_a_ruleset_file_may_give_its_texts_by_language(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: changchun\nid: house\ndescription: {en: Our table, zh: 我们这桌}\n"
                     "options:\n  base: {doc: {en: the room base, zh: 房间底分}}\n", encoding="utf-8")
    en = CliRunner().invoke(app, ["rules", "show", str(house)]).output
    zh = CliRunner().invoke(app, ["rules", "show", str(house), "--lang", "zh"]).output
    assert "Our table" in en and "the room base" in en and "我们这桌" not in en
    assert "我们这桌" in zh and "房间底分" in zh and "Our table" not in zh
    data = json.loads(CliRunner().invoke(app, ["rules", "show", str(house), "--json"]).output)
    assert data["description"] == "Our table" and data["options"]["base"]["doc"] == "the room base"
