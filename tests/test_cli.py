"""The command line as a user meets it: the table, the JSON contract, exit codes, rules list / show."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mjcalc.cli import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"  # wherever pytest is run from

runner = CliRunner()
QUICK = "123m456p789s111z22z +zimo +seat=E"


def run(*args: str, env: dict[str, str] | None = None):
    return runner.invoke(app, list(args), env={"MJCALC_CONFIG": "/nonexistent/mjcalc.yaml", **(env or {})})


def test_score_table_shows_everything_a_table_needs() -> None:
    r = run("score", QUICK)
    assert r.exit_code == 0, r.output
    for text in ("长春麻将 Changchun", "seat E (dealer)", "self-drawn", "cap 1000*", "123m 456p 789s 111z 22z*",
                 "basic_win", "平胡", "Self-drawn", "2^(5−1) × 1 = 16", "points to the winner: 48", "+48"):
        assert text in r.output, text


def test_score_json_has_the_contract_keys() -> None:
    r = run("score", QUICK, "--json")
    assert r.exit_code == 0
    out = json.loads(r.output)
    for key in ("input", "ruleset", "hand", "context", "result", "error", "reading", "items", "fan", "payments",
                "kong_payments", "net", "points", "waits", "substitutions"):
        assert key in out, key
    assert out["result"] == "win" and out["fan"] == 5 and out["points"] == 48
    assert out["context"]["seat"] == "E" and out["context"]["zimo"] is True and out["context"]["round"] == "E"
    item = out["items"][0]
    assert set(item) >= {"id", "name", "value", "count", "unit", "applies_to"}
    assert item["name"] == {"zh": "平胡", "en": "Basic win"}
    assert out["payments"][0] == {**out["payments"][0], "payer": "S", "payee": "E", "fan": 5, "amount": 16,
                                  "capped_from": None}
    assert out["net"] == {"E": 48, "S": -16, "W": -16, "N": -16}


PAO = "11p [555z] [666z] [777z] 23p 1p +pao=W +honba=2 +sticks=1"  # daisangen on N's discard, W fed the third dragon


def test_pao_in_the_json_who_pays_what_and_why() -> None:
    out = json.loads(run("score", PAO, "--rules", "riichi", "--json").output)
    assert out["context"]["pao"] == "W" and out["context"]["from"] == "N"
    assert [(p["payer"], p["on_behalf_of"], p["amount"], p["liable_for"]) for p in out["payments"]] == [
        ("N", None, 16600, []), ("W", "N", 16000, ["daisangen"]), ("table", None, 1000, [])]
    assert out["net"] == {"E": 0, "S": 33600, "W": -16000, "N": -16600} and out["points"] == 33600
    assert any("W is liable for daisangen" in note for note in out["notes"])
    plain = json.loads(run("score", "123m456p789s111z22z +zimo +seat=E", "--json").output)
    assert all(p["liable_for"] == [] for p in plain["payments"])


def test_pao_in_the_table() -> None:
    r = run("score", PAO, "--rules", "riichi")
    assert r.exit_code == 0, r.output
    for text in ("W (for N)", "pao: half of 8000 × 4 → 32000: 16000", "16600",
                 "W and the discarder N pay half the hand each, N the honba"):
        assert text in r.output, text
    r = run("score", PAO, "--rules", "riichi-tenhou")  # Tenhou: the liable player pays the honba
    for text in ("pao: half of 8000 × 4 → 32000: 16000 + 600 honba", "W and the discarder N pay half the hand "
                 "each, W the honba"):
        assert text in r.output, text
    r = run("score", "123m456p789s23s55p 1s +riichi +pao=W", "--rules", "riichi")
    assert r.exit_code == 2 and "+pao names the player liable" in r.output
    assert r.output.splitlines()[-1].index("^") == r.output.splitlines()[-2].index("+pao")


def test_context_defaults_are_filled_in() -> None:
    out = json.loads(run("score", "123m456p789s111z22z", "--json").output)
    assert out["context"]["seat"] == "S" and out["context"]["from"] == "N" and out["context"]["zimo"] is False


def test_flags_as_options() -> None:
    r = run("score", "123m456p789s111z22z", "--zimo", "--seat", "E", "--json")
    assert json.loads(r.output)["points"] == 48


def test_not_a_win_exit_1_with_reason_in_words() -> None:
    r = run("score", "123m456m789m111z22z")
    assert r.exit_code == 1
    assert "three_suits" in r.output and "all three suits" in r.output
    out = json.loads(run("score", "123m456m789m111z22z", "--json").output)
    assert out["result"] == "not_a_win" and out["failed_conditions"][0]["id"] == "three_suits"


def test_zh_messages() -> None:
    r = run("score", "123m456m789m111z22z", "--lang", "zh")
    assert "不能和牌" in r.output and "万、筒、条" in r.output


def test_notation_error_exit_2_with_caret() -> None:
    r = run("score", "123m456p789s11111z")
    assert r.exit_code == 2
    lines = r.output.splitlines()
    caret = next(i for i, line in enumerate(lines) if line.strip() == "^")
    assert lines[caret - 1].strip() == "123m456p789s11111z"
    assert lines[caret].index("^") == lines[caret - 1].index("1") + 16
    assert "Traceback" not in r.output


def test_error_json() -> None:
    r = run("score", "123m456p789s11111z", "--json")
    out = json.loads(r.stdout)
    assert r.exit_code == 2 and out["result"] == "error"
    assert out["error"] == {"kind": "notation", "message": out["error"]["message"], "column": 17}


def test_waiting_hand_shows_waits() -> None:
    r = run("score", "123m456p789s111z2z")
    assert r.exit_code == 0 and "WAITING" in r.output and "2z" in r.output
    out = json.loads(run("score", "123m456p789s111z2z", "--json").output)
    assert out["result"] == "waiting" and out["waits"] == ["2z"]


def test_unknown_option_exit_3_lists_options() -> None:
    r = run("score", QUICK, "--set", "cpa=5")
    assert r.exit_code == 3
    assert "did you mean 'cap'" in r.output and "dealer_pays_extra" in r.output


def test_bad_option_value() -> None:
    r = run("score", QUICK, "--set", "cap_scope=everyone")
    assert r.exit_code == 3 and "per_player_net | per_payer" in r.output


def test_unknown_ruleset() -> None:
    r = run("score", QUICK, "--rules", "changchn")
    assert r.exit_code == 3 and "did you mean 'changchun'" in r.output


def test_set_option_changes_the_score() -> None:
    out = json.loads(run("score", QUICK, "--set", "base=2", "--json").output)
    assert out["points"] == 96 and out["options"]["base"] == 2


def test_rules_list_and_show() -> None:
    r = run("rules", "list")
    assert r.exit_code == 0 and "changchun" in r.output and "changchun-mil" in r.output
    r = run("rules", "show", "changchun")
    assert r.exit_code == 0
    for text in ("single_wait", "夹胡", "dealer_pays_extra", "cap_scope", "three_suits", "one_tile_left", "大蛋"):
        assert text in r.output, text
    data = json.loads(run("rules", "show", "changchun-mil", "--json").output)
    assert {i["id"] for i in data["items"]} >= {"seven_pairs", "luxury_seven_pairs", "dealer"}
    assert data["options"]["fan_cap"]["default"] == 6


def test_config_file_and_environment(tmp_path) -> None:
    cfg = tmp_path / "config.yaml"
    cfg.write_text("rules: changchun-mil\nset: {base: 3}\n", encoding="utf-8")
    out = json.loads(run("score", QUICK, "--json", env={"MJCALC_CONFIG": str(cfg)}).output)
    assert out["ruleset"] == "changchun-mil" and out["options"]["base"] == 3
    out = json.loads(run("score", QUICK, "--json", env={"MJCALC_CONFIG": str(cfg), "MJCALC_RULES": "changchun"}).output)
    assert out["ruleset"] == "changchun" and out["options"]["base"] == 3


@pytest.mark.parametrize("argv", [["--help"], ["score", "--help"], ["rules", "--help"]])
def test_help(argv: list[str]) -> None:
    assert run(*argv).exit_code == 0


def test_a_bug_is_one_line_not_a_traceback(monkeypatch, capsys) -> None:
    import mjcalc.cli as cli
    import mjcalc.engine

    def boom(*_args, **_kwargs):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(mjcalc.engine, "score_line", boom)  # the command imports it when it runs
    monkeypatch.delenv("MJCALC_DEBUG", raising=False)
    with pytest.raises(SystemExit) as info:
        cli.main(["score", QUICK])
    assert info.value.code == cli.EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "internal error: ZeroDivisionError: boom" in err and "Traceback" not in err


def test_version_says_whether_the_core_is_compiled() -> None:
    import mjcalc.engine

    r = run("--version")
    assert r.exit_code == 0, r.output
    compiled = not mjcalc.engine.__file__.endswith(".py")
    assert r.output.startswith("mjcalc 0.1.0 (core: ")
    assert ("compiled with mypyc" if compiled else "pure Python") in r.output


def test_seats_by_letter_name_character_or_tile() -> None:
    """--seat, --from and --round (and +seat=, +from=, +round=, +closed=) take east / 东 / 1z as well as E."""
    def context(*args: str) -> dict:
        r = run("score", *args, "--rules", "riichi", "--json")
        assert r.exit_code == 0, r.output
        return json.loads(r.output)["context"]

    want = {"seat": "E", "from": "S", "round": "W"}
    for seat, frm, rnd in [("E", "S", "W"), ("east", "South", "WEST"), ("东", "南", "西"), ("東", "2z", "3z")]:
        got = context("123m456p789s111z22z", "--seat", seat, "--from", frm, "--round", rnd)
        assert {k: got[k] for k in want} == want, (seat, frm, rnd)
    got = context("123m456p789s111z22z +seat=east +from=south +round=west")
    assert {k: got[k] for k in want} == want
    closed = run("score", "123m456p789s111z22z +closed=west,北", "--rules", "jilin", "--json")
    assert closed.exit_code == 0 and json.loads(closed.output)["context"]["closed"] == ["W", "N"]
    bad = run("score", "123m456p789s111z22z", "--seat", "eats")
    assert bad.exit_code == 2 and "'eats' is not a seat wind" in bad.output


def test_the_cli_forgives_what_people_type() -> None:
    """Words after the hand are joined into it; a flag without its + gets a did-you-mean; +dealer with another
    +seat says why it is refused."""
    joined = run("score", "234m", "567p", "345s", "999s", "11z", "+zimo", "--json")
    assert joined.exit_code == 0, joined.output
    assert json.loads(joined.output)["input"] == "234m 567p 345s 999s 11z +zimo"
    assert run("waits", "123m", "456p", "789s", "111z", "2z", "--json").exit_code == 0
    for word, meant in [("zimo", "+zimo"), ("seat=E", "+seat=E"), ("riichi", "+riichi"), ("zimoo", "+zimo")]:
        r = run("score", "234m 567p 345s 999s 11z", word)
        assert r.exit_code == 2 and f"did you mean {meant}?" in r.output, r.output
    assert "did you mean" not in run("score", "234m 567p 345s 999s 11x").output  # no flag-like word: no guess
    for args in (["234m 567p 345s 999s 11z +zmio"], ["234m 567p 345s 999s 11z", "-f", "zmio"]):
        misspelt = run("score", *args)  # a flag misspelt: the suggestion as it is written, with its +
        assert misspelt.exit_code == 2 and "unknown flag '+zmio' (did you mean '+zimo'?)" in misspelt.output
    r = run("score", "123m456p789s111z22z +dealer +seat=S")
    assert r.exit_code == 2
    assert "+dealer and +seat=S" in r.output and "+dealer means +seat=E (East is the dealer)" in r.output
    assert run("score", "123m456p789s111z22z +dealer +seat=E").exit_code == 0  # the same seat: no conflict


def test_one_rule_for_options(tmp_path) -> None:
    """--set NAME applies to every ruleset of the run that has it, an error only when none does; RULESET.NAME
    targets one; +base= in a line and a different --set base= is an error (docs/rulesets.md)."""
    path = tmp_path / "mixed.txt"
    path.write_text("123m456p789s111z22z +zimo\n123m456p789s23s55p 1s +riichi +rules=riichi\n", encoding="utf-8")
    out = run("batch", str(path), "--format", "jsonl", "--set", "base=2", "--set", "kiriage=on")
    assert out.exit_code == 0, out.output
    first, second = (json.loads(x) for x in out.stdout.splitlines())
    assert first["options"]["base"] == 2 and second["options"]["kiriage"] is True
    assert "base" not in second["options"] and "kiriage" not in first["options"]
    targeted = run("batch", str(path), "--format", "jsonl", "--set", "changchun.base=3")
    a, b = (json.loads(x) for x in targeted.stdout.splitlines())
    assert a["options"]["base"] == 3 and b["result"] == "win"
    for bad in ("kiriagee=on", "changchun.kiriage=on", "nope.base=2"):
        r = run("batch", str(path), "--set", bad)
        assert r.exit_code == 3, (bad, r.output)
    assert "option of no ruleset (did you mean 'kiriage'?)" in run("batch", str(path), "--set", "kiriagee=on").output
    assert run("score", QUICK, "--set", "kiriage=on").exit_code == 3  # one line: its ruleset has no kiriage
    assert run("score", QUICK, "--set", "changchun.base=3", "--json").exit_code == 0
    clash = run("score", QUICK + " +base=3", "--set", "base=2")
    assert clash.exit_code == 2 and "+base=3 in the line and --set base=2 disagree" in clash.output
    assert run("score", QUICK + " +base=2", "--set", "base=2").exit_code == 0


@pytest.mark.parametrize("name", ["changchun", "changchun-mil", "jilin", "meihe", "riichi"])
def test_rules_show_writes_values_as_a_reader_does_and_fits_the_terminal(name: str) -> None:
    from mjcalc.output.fit import cols

    for columns in ("60", "100"):
        r = run("rules", "show", name, env={"COLUMNS": columns})
        assert r.exit_code == 0
        assert max(cols(line) for line in r.output.splitlines()) <= int(columns), name
        assert "{'" not in r.output
        assert name == "riichi" or "base option base" in r.output.split("FORMULA")[1]
    assert max(cols(line) for line in run("rules", "show", name, env={"COLUMNS": ""}).output.splitlines()) <= 120


def test_bad_cli_values_are_option_problems_exit_3() -> None:
    for args in (["score", QUICK, "--lang", "fr"], ["batch", str(EXAMPLES / "changchun.txt"), "--format", "xml"],
                 ["batch", str(EXAMPLES / "changchun.txt"), "--jobs", "0"],
                 ["batch", str(EXAMPLES / "changchun.txt"), "--input-format", "xml"]):
        r = run(*args)
        assert r.exit_code == 3, (args, r.output)


def test_the_contracts_live_in_the_repository() -> None:
    from pathlib import Path

    top = Path(__file__).parent.parent
    for doc in ("docs/NOTATION.md", "docs/OUTPUT.md"):
        assert (top / doc).is_file()
    readme = (top / "README.md").read_text(encoding="utf-8")
    assert "spec/NOTATION.md" not in readme and "spec/OUTPUT.md" not in readme and "docs/OUTPUT.md" in readme
    assert "docs/OUTPUT.md" in run("score", "--help", env={"COLUMNS": "200"}).output


def test_the_hand_line_shows_the_hand_as_it_is() -> None:
    """The table's hand line: concealed tiles in the groups the line wrote them in (split at each suit letter and
    space; by suit when the line's tiles are not the hand's), honors a group a kind held more than once, melds,
    flowers, then the winning tile apart after a plus; the JSON keeps notation that reads back to the same hand."""
    def hand_line(*args: str, columns: str = "") -> str:
        out = run(*args, env={"COLUMNS": columns}).output
        return "hand" + out.split("\ncontext")[0].split("\nhand", 1)[1]

    assert hand_line("score", QUICK) == "hand      123m 456p 789s 111z 2z + 2z"
    assert hand_line("score", "45556p23789s [111z] 1s", "--rules", "riichi") == "hand      45556p 23789s [111z] + 1s"
    assert hand_line("score", "123m456p789s23s55p 1s +riichi", "--rules", "riichi") == \
        "hand      123m 456p 789s 23s 55p + 1s"  # as written, not 45556p 23789s
    assert hand_line("score", "123万456筒789条 东东东 南南") == "hand      123m 456p 789s 111z 2z + 2z"
    assert hand_line("score", "19m19p19s1234567z1m", "--rules", "riichi") == "hand      19m 19p 19s 1234567z + 1m"
    assert hand_line("score", "234m067p78s111z99s 9s", "--rules", "riichi") == "hand      234m 067p 78s 111z 99s + 9s"
    assert hand_line("score", "1m2z33z4z555z666z77z 2z") == "hand      1m 2z 33z 4z 555z 666z 77z + 2z"
    assert hand_line("score", "123m456p789s123s456s5z 13f 5z", "--rules", "taiwan") == \
        "hand      123m 456p 789s 123s 456s 5z 13f + 5z"
    assert hand_line("waits", "123m456p789s111z2z") == "hand      123m 456p 789s 111z 2z"  # no winning tile yet
    assert hand_line("score", QUICK, columns="40") == "hand      123m 456p 789s 111z 2z + 2z"
    assert hand_line("score", "123m456p789s2z [5555m] 2z", columns="30") == \
        "hand      123m 456p 789s 2z\n          [5555m] + 2z"  # wrapped between parts, never inside one
    assert json.loads(run("score", QUICK, "--json").output)["hand"] == "123m 456p 789s 1112z 2z"


def test_the_readme_shows_what_mjcalc_prints() -> None:
    """The README's Quick start output and the riichi example of docs/rulesets.md, as printed (to a pipe: no
    width)."""
    from pathlib import Path

    top = Path(__file__).parent.parent
    readme = (top / "README.md").read_text(encoding="utf-8")
    quick = readme.split("The first command prints:\n\n```\n")[1].split("```")[0]
    assert run("score", QUICK, env={"COLUMNS": ""}).output == quick
    rulesets = (top / "docs" / "rulesets.md").read_text(encoding="utf-8")
    riichi = rulesets.split('$ mjcalc score --rules riichi "234m067p78s111z99s 9s +riichi +zimo +honba=1 +sticks=1"\n…\n')
    printed = run("score", "--rules", "riichi", "234m067p78s111z99s 9s +riichi +zimo +honba=1 +sticks=1",
                  env={"COLUMNS": ""}).output
    assert printed.endswith(riichi[1].split("```")[0])


def test_rules_show_names_only_files_in_the_repository(tmp_path) -> None:
    """Each ruleset's source in words and its decisions document (its own, or the ruleset's it extends): no path to
    a file the repository does not hold (the project's seeds/ and spec/ are not shipped)."""
    from pathlib import Path

    from mjcalc.support.builtin import builtin_names

    for name in builtin_names():
        text = run("rules", "show", name, env={"COLUMNS": ""}).output
        data = json.loads(run("rules", "show", name, "--json").output)
        assert "seeds/" not in text and "spec/" not in text and ".txt" not in data["source"], name
        assert Path(data["file"]).is_file()
        if data["decisions"] is not None:
            assert Path(data["decisions"]).is_file() and f"decisions: {data['decisions']}" in text
    assert json.loads(run("rules", "show", "jilin", "--json").output)["decisions"].endswith("rules/jilin.md")
    house = tmp_path / "house.yaml"
    house.write_text("id: house\nextends: riichi\nnames: {zh: 家规, en: House}\n", encoding="utf-8")
    (tmp_path / "house.md").write_text("not a built-in ruleset's document\n", encoding="utf-8")
    shown = json.loads(run("rules", "show", str(house), "--json").output)
    assert shown["decisions"].endswith("rules/riichi.md")  # the built-in one it extends
