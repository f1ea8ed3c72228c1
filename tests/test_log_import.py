"""Game logs as games (GAME.md, "Logs of online games"; issue 34): ``mjcalc game import`` replays every real log of
tests/data/tenhou with the game engine, and under riichi-tenhou the sheet is Tenhou's own — each hand's start
(scores, dealer, honba, deposits), each win's han, fu, points, yaku and changes, each draw, the end, the final
scores and points; ``game export --format tenhou-json`` writes a game back (import ∘ export is the identity on the
results, for the real logs and for games made up here); ``mjcalc batch`` scores every win of a folder of logs.
"""

from __future__ import annotations

import gzip
import json
import random
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from mjcalc.cli import app
from mjcalc.game import Game, GameError
from mjcalc.logs import LogError, read_log, read_path
from mjcalc.logs.export import tenhou_json
from mjcalc.logs.importer import import_game, record_jsonl

DATA = Path(__file__).parent / "data" / "tenhou"
LOGS = sorted(p for p in DATA.iterdir() if p.name != "README.md")
WHOLE = [p for p in LOGS if read_path(p).whole and read_path(p).final_scores is not None]
runner = CliRunner()


@cache
def imported(name: str, rules: str = "riichi-tenhou") -> Any:
    return import_game(read_path(DATA / name), rules)


def cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


# --- the real logs, replayed: the sheet is what Tenhou recorded ---------------------------------------------

@pytest.mark.parametrize("path", WHOLE, ids=lambda p: p.name)
def test_the_replayed_sheet_is_the_log(path: Path) -> None:
    imp = imported(path.name)
    game = imp.game
    assert imp.differences == []
    sheet = imp.sheet
    assert [(h.label, h.dealer, h.honba, h.table, h.start) for h in sheet.hands] == \
           [(h.label, h.dealer, h.honba, 1000 * h.sticks, h.scores) for h in game.hands]
    for entry in sheet.hands:
        for won in entry.wins:
            assert won.agrees is True and won.log is not None
    final = sheet.final
    assert final.ended and final.scores == game.final_scores
    assert final.points == pytest.approx(game.final_points)
    assert final.ranking == sorted(range(4), key=lambda p: (-game.final_scores[p], p))  # type: ignore[index]


def test_the_logs_hold_what_the_issue_asks_for() -> None:
    """Among the real whole games: a double ron, pao, a kan-dora from another player's kong, abortive draws, a game
    extended into the West round, a nagashi mangan — each as the sheet shows it."""
    entries = [(imported(p.name), e) for p in WHOLE for e in imported(p.name).sheet.hands]
    doubles = [e for _, e in entries if len(e.wins) == 2]
    assert doubles and all(e.wins[1].scored.result.ctx.get("honba") == 0 for e in doubles)
    assert any(w.pao is not None for _, e in entries for w in e.wins)
    assert {e.abort for _, e in entries if e.result == "abort"} >= {"nine_terminals", "four_winds", "four_riichi",
                                                                    "four_kongs", "triple_ron"}
    assert any(e.round == "W" for _, e in entries)
    assert any(e.nagashi for _, e in entries)
    kan_dora = 0
    for _, e in entries:
        for won in e.wins:
            ctx = won.scored.result.ctx
            own = sum(m.kind in ("kong", "concealed_kong") for m in won.scored.result.hand.melds)
            kan_dora += len(ctx.get("dora")) > 1 + own  # indicators turned by another player's kong
    assert kan_dora


def test_the_sheet_json_has_the_log_beside_each_win_and_hand() -> None:
    imp = imported("nm-case-2025010410gm-00a9-0000-b84156ef.xml")
    out = imp.to_json()
    win = out["hands"][0]["wins"][0]
    assert win["log"] == {"han": 1, "fu": 30, "points": 1500, "changes": [1500, 0, 0, -1500],
                          "yaku": [["yakuhai_chun", 1]], "limit": None}
    assert win["agrees"] is True and win["score"]["points"] == 1500
    assert out["hands"][0]["log"] == {"label": "东1局", "round": "E", "dealer": 0, "honba": 0, "table": 0,
                                      "start": [25000] * 4, "riichi": [], "changes": [1500, 0, 2000, -3500]}
    assert out["log"]["agrees"] is True and out["log"]["differences"] == [] and out["log"]["own_rules"] is True
    assert out["log"]["final"]["scores"] == out["final"]["scores"]


def test_a_win_s_points_are_the_hand_s_own_beside_honba_and_deposits() -> None:
    """The log's points are the hand's value; mjcalc's score includes the honba and the sticks taken."""
    imp = imported("2019021004gm-00a9-0000-e2f6516d.json")
    entry = next(e for e in imp.sheet.hands if e.honba and e.wins)
    won = entry.wins[0]
    assert won.agrees and won.log is not None
    assert won.scored.summary["points"] == won.log["points"] + 300 * entry.honba + entry.table + \
        1000 * len(entry.riichi)


def test_a_difference_from_the_log_is_listed_never_hidden() -> None:
    """A converter that drops kan-dora (or a log whose points were changed): the win disagrees, and says how."""
    text = (DATA / "nm-case-2025010410gm-00a9-0000-b84156ef.xml").read_text("utf-8")
    bad = text.replace('ten="30,1500,0"', 'ten="30,2500,0"', 1)
    imp = import_game(read_log(bad, "bad.xml"))
    assert len(imp.differences) == 1
    d = imp.differences[0]
    assert (d["hand"], d["label"]) == (0, "东1局") and "points 1500, the log 2500" in d["what"]
    assert imp.sheet.hands[0].wins[0].agrees is False and imp.to_json()["log"]["agrees"] is False
    data = json.loads((DATA / "2023053016gm-0029-0000-e54b3b98.json").read_text("utf-8"))
    for hand in data["log"]:
        hand[2] = hand[2][:1]  # the kan-dora indicators dropped, as a careless converter does
    imp = import_game(read_log(json.dumps(data), "no-kan-dora.json"))
    assert any("han" in d["what"] and "the log" in d["what"] for d in imp.differences)


# --- other rules: the same hands, another game -------------------------------------------------------------

def test_under_other_rules_the_hands_after_the_end_are_not_played() -> None:
    """mjx's game goes into the West round at Tenhou (nobody at 30000 after South); under M-League's rules (no
    extension) it ends after South 4, and the West hands are listed as not played."""
    name = "mjx_encdec-no-north-rounds.mjlog"
    tenhou = imported(name)
    assert any(h.round == "W" for h in tenhou.sheet.hands)
    mleague = imported(name, "riichi-mleague")
    assert mleague.sheet.final.ended and all(h.round in "ES" for h in mleague.sheet.hands)
    skipped = mleague.not_played()
    assert skipped and all(s["round"] == "W" and not s["refused"] for s in skipped)
    assert len(skipped) + len(mleague.sheet.hands) == len(tenhou.sheet.hands)
    assert mleague.differences == []  # the hands it plays score as Tenhou's: nothing else to say
    assert mleague.sheet.final.points != tenhou.sheet.final.points


def test_house_options_re_score_the_wins(tmp_path: Path) -> None:
    """kiriage=on: a 4 han 30 fu hand becomes a mangan; the difference is listed, exit 1."""
    r = cli("game", "import", str(DATA / "2023053016gm-0029-0000-e54b3b98.json"), "--set", "kiriage=on")
    assert r.exit_code == 1, r.output
    assert "differences from the log" in r.stdout and "points 8000, the log 7700" in r.stdout


# --- the command --------------------------------------------------------------------------------------------

def test_import_prints_the_sheet_and_says_it_agrees() -> None:
    r = cli("game", "import", str(DATA / "nm-case-2025010410gm-00a9-0000-b84156ef.xml"))
    assert r.exit_code == 0, r.output
    assert "南4局" in r.stdout and "final ranking" in r.stdout
    assert "every hand's start, every win and the end agree with the log" in r.stdout


def test_import_json_is_the_sheet_of_each_log(tmp_path: Path) -> None:
    logs = [DATA / "2019021004gm-00a9-0000-e2f6516d.json", DATA / "agari2-case-2025010100gm-00a9-0000-2f9c2895.xml"]
    r = cli("game", "import", *map(str, logs), "--rules", "riichi-tenhou", "--json")
    assert r.exit_code == 0, r.output
    sheets = [json.loads(line) for line in r.stdout.splitlines()]
    assert [s["log"]["file"] for s in sheets] == list(map(str, logs))
    for sheet, path in zip(sheets, logs, strict=True):
        game = read_path(path)
        assert [h["start"] for h in sheet["hands"]] == [h.scores for h in game.hands]
        assert sheet["final"]["scores"] == game.final_scores and sheet["final"]["ended"] is True
        assert all(w["agrees"] for h in sheet["hands"] for w in h["wins"])


def test_a_log_that_cannot_be_read_is_named_and_the_others_still_imported(tmp_path: Path) -> None:
    good = DATA / "yakuman-case-2025010123gm-00a9-0000-4697b56c.xml"
    cut = tmp_path / "cut.xml"
    cut.write_text(good.read_text("utf-8")[:3000], "utf-8")
    packed = tmp_path / "packed.xml.gz"
    packed.write_bytes(gzip.compress(good.read_bytes()))
    r = cli("game", "import", str(cut), str(packed), "--json")
    assert r.exit_code == 2
    assert f"{cut}: line 1, column" in r.stderr and "not well-formed XML" in r.stderr
    assert len(r.stdout.splitlines()) == 1 and json.loads(r.stdout)["log"]["file"] == str(packed)
    r = cli("game", "import", str(DATA / "mjai-reviewer_double_ron.json"))
    assert r.exit_code == 2 and "not at the game's start" in r.stderr


def test_import_keeps_the_game_with_db_and_name(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    log = DATA / "kan4-case-2025012500gm-00a9-0000-c294f3d0.xml"
    r = cli("game", "import", str(log), "--db", db, "--name", "kan4", "--json")
    assert r.exit_code == 0, r.output
    shown = cli("game", "show", "kan4", "--db", db, "--json")
    assert shown.exit_code == 0
    kept, fresh = json.loads(shown.stdout), json.loads(r.stdout)
    assert kept["hands"] == [{k: v for k, v in h.items() if k != "log"} for h in fresh["hands"]]
    assert kept["final"] == fresh["final"]
    r = cli("game", "import", str(log), "--db", db)
    assert r.exit_code == 0 and "kan4-case-2025012500gm-00a9-0000-c294f3d0" in cli("game", "list", "--db", db).stdout
    r = cli("game", "import", str(log), "--db", db, "--name", "kan4")
    assert r.exit_code == 2 and "already kept" in r.stderr


# --- export, and import ∘ export ---------------------------------------------------------------------------

def _export(game: Game, name: str = "g") -> str:
    return json.dumps(tenhou_json(game.header, game.results, game.sheet(), name), ensure_ascii=False)


def _record_game(rows: list[dict[str, Any]]) -> Game:
    return Game.from_record([json.dumps(r, ensure_ascii=False) for r in rows], errors="raise")


@pytest.mark.parametrize("path", WHOLE, ids=lambda p: p.name)
def test_import_of_the_export_is_the_identity_on_the_results(path: Path) -> None:
    imp = imported(path.name)
    rows = record_jsonl(imp)
    again = import_game(read_log(_export(_record_game(rows), path.stem), "exported.json"))
    assert record_jsonl(again) == rows
    assert again.differences == []


@pytest.mark.parametrize("path", WHOLE, ids=lambda p: p.name)
def test_the_export_without_mjcalc_s_key_is_still_the_game(path: Path) -> None:
    """What Tenhou's format holds alone (a viewer, another tool) replays to the same sheet — except who was ready
    at a nagashi draw, which only mjcalc's key says (the nagashi game's dealer then moves on)."""
    imp = imported(path.name)
    data = json.loads(_export(_record_game(record_jsonl(imp))))
    del data["mjcalc"]
    again = import_game(read_log(json.dumps(data), "plain.json"))
    same = [(h.start, h.changes) for h in again.sheet.hands] == [(h.start, h.changes) for h in imp.sheet.hands]
    assert same == (not any(h.nagashi for h in imp.sheet.hands))


def test_the_export_is_tenhou_s_format() -> None:
    imp = imported("2019021004gm-00a9-0000-e2f6516d.json")
    data = json.loads(_export(_record_game(record_jsonl(imp)), "t"))
    original = json.loads((DATA / "2019021004gm-00a9-0000-e2f6516d.json").read_text("utf-8"))
    assert data["name"] == original["name"] and data["rule"]["disp"] == "般南喰赤"
    assert [h[0] for h in data["log"]] == [h[0] for h in original["log"]]
    assert [h[1] for h in data["log"]] == [h[1] for h in original["log"]]
    assert [h[16] for h in data["log"]] == [h[16] for h in original["log"]]  # the results, as Tenhou wrote them
    assert data["sc"] == [4400, -46.0, 7100, -33.0, 40700, 21.0, 47800, 58.0]


def _pool() -> list[tuple[str, bool]]:
    """Winning lines of the real logs, without the flags a game fills in: (line, self-drawn)."""
    out = []
    for path in WHOLE:
        for hand in read_path(path).hands:
            for w in hand.wins:
                from mjcalc.logs.record import win_line

                line = win_line(hand, w, context=False)
                if "+ura=" not in line and "+wriichi" not in line and "+ippatsu" not in line:
                    out.append((line, w.tsumo))
    return out


def made_up_game(seed: int, results: int = 40) -> Game:
    """A riichi-tenhou game of random results (the engine refuses what cannot be: a hand with no yaku at that
    seat …): wins (one or two on a discard, self-drawn, pao), draws with the ready and nagashi, aborts, riichi,
    penalties."""
    rnd = random.Random(seed)
    pool = _pool()
    game = Game.new(["东家", "B", "C", "D"], "riichi-tenhou")
    for _ in range(results * 20):
        if game.ended or len(game.results) >= results:
            break
        players = list(game.header.players)
        riichi = [p for p in players if rnd.random() < 0.15]
        roll = rnd.random()
        result: dict[str, Any]
        if roll < 0.55:
            line, tsumo = rnd.choice(pool)
            winner = rnd.choice(players)
            win: dict[str, Any] = {"winner": winner, "hand": line}
            if not tsumo:
                win["from"] = rnd.choice([p for p in players if p != winner])
            result = {"win": [win]}
            if not tsumo and rnd.random() < 0.15:
                second, _ = rnd.choice([x for x in pool if not x[1]])
                dora = line[line.index("+dora="):].split()[0]  # one hand, one set of dora indicators
                second = second[:second.index("+dora=")] + dora + \
                    "".join(" " + w for w in second[second.index("+dora="):].split()[1:])
                other = rnd.choice([p for p in players if p not in (winner, win["from"])])
                result["win"].append({"winner": other, "from": win["from"], "hand": second})
        elif roll < 0.8:
            ready = [p for p in players if rnd.random() < 0.4]
            result = {"draw": {"ready": ready, "nagashi": [rnd.choice(players)] if rnd.random() < 0.1 else []}}
        elif roll < 0.9:
            result = {"abort": rnd.choice(["nine_terminals", "four_winds", "four_kongs", "triple_ron"])}
            riichi = [] if result["abort"] == "nine_terminals" else riichi
        else:
            who = rnd.choice(players)
            result = {"penalty": {"player": who, "kind": "false_win"} if rnd.random() < 0.5 else
                      {"player": who, "amount": 1000, "to": rnd.choice(["table", "each"])}}
            riichi = []
        if riichi:
            result["riichi"] = riichi
        try:
            game.add(result)
        except GameError:
            continue
    return game


@pytest.mark.parametrize("seed", range(16))
def test_a_made_up_game_exported_and_imported_is_the_same_game(seed: int) -> None:
    game = made_up_game(seed)
    assert len(game.results) >= 3
    again = import_game(read_log(_export(game), "made-up.json"))
    rows = [r for r in record_jsonl(again)]
    mine = json.loads("[" + ",".join(game.to_jsonl().splitlines()) + "]")
    assert [{k: v for k, v in r.items()} for r in rows[1:]] == [_with_logs(r, w) for r, w in
                                                                   zip(mine[1:], rows[1:], strict=True)]
    assert again.sheet.final.scores == game.sheet().final.scores
    assert [(h.label, h.start, h.changes) for h in again.sheet.hands] == \
           [(h.label, h.start, h.changes) for h in game.sheet().hands]
    assert again.differences == []  # the values written are mjcalc's own: they agree


def _with_logs(typed: dict[str, Any], back: dict[str, Any]) -> dict[str, Any]:
    """A typed result as it comes back from the export: each win with the values written beside it (``log``),
    its hand as the export writes it."""
    if "win" not in typed:
        return typed
    out = dict(typed)
    out["win"] = [{**w, "hand": b["hand"], "log": b["log"]} for w, b in zip(typed["win"], back["win"], strict=True)]
    return out


def test_export_command_writes_tenhou_json(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert cli("game", "new", "t", "--rules", "riichi-tenhou", "--players", "A,B,C,D", "--db", db).exit_code == 0
    assert cli("game", "add", "t", "B ron C 123m456p789s777z 66z +dora=6z riichi B D", "--db", db).exit_code == 0
    assert cli("game", "add", "t", "draw ready A", "--db", db).exit_code == 0
    out = tmp_path / "t.json"
    r = cli("game", "export", "t", "--format", "tenhou-json", "-o", str(out), "--db", db)
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text("utf-8"))
    assert data["log"][0][16] == ["和了", [0, 10000, -8000, 0],  # the two riichi sticks taken
                                  [1, 2, 1, "満貫8000点", "立直(1飜)", "役牌 中(1飜)", "ドラ(3飜)"]]
    assert data["log"][0][4 + 3 * 3 + 2] == ["r60"]  # D's riichi
    assert data["log"][1][16] == ["流局", [3000, -1000, -1000, -1000]]
    r = cli("game", "import", str(out), "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["final"]["scores"] == [28000, 33000, 16000, 23000]
    assert cli("game", "new", "c", "--rules", "changchun", "--players", "A,B,C,D", "--db", db).exit_code == 0
    r = cli("game", "export", "c", "--format", "tenhou-json", "--db", db)
    assert r.exit_code == 3 and "no riichi ruleset" in r.stderr


# --- batch on logs -----------------------------------------------------------------------------------------

def test_batch_scores_every_win_of_a_folder_of_logs(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    shutil.copytree(DATA, folder)
    (folder / "notes.txt").write_text("not a log", "utf-8")
    (folder / "broken.mjlog").write_text("<mjloggm><GO type=", "utf-8")
    r = cli("batch", str(folder), "--format", "jsonl")
    assert r.exit_code == 2  # one log cannot be read
    records = [json.loads(line) for line in r.stdout.splitlines()]
    wins = [x for x in records if x["result"] == "win"]
    errors = [x for x in records if x["result"] == "error"]
    assert len(wins) == sum(len(h.wins) for p in LOGS for h in read_path(p).hands)
    assert all(x["agrees"] for x in wins) and all(x["log"]["han"] == x["mjcalc"]["han"] for x in wins)
    assert [e["file"] for e in errors] == [str(folder / "broken.mjlog")] and "line 1" in errors[0]["error"]
    assert "wins:" in r.stderr and "1 unreadable" in r.stderr
    r = cli("batch", str(DATA / "nm-case-2025010410gm-00a9-0000-b84156ef.xml"), "--format", "csv")
    assert r.exit_code == 0 and r.stdout.splitlines()[0].startswith("file,ref,hand,label,win")
    assert len(r.stdout.splitlines()) == 13


def test_batch_reads_a_log_by_its_content_or_as_told(tmp_path: Path) -> None:
    odd = tmp_path / "game.log"
    odd.write_bytes(gzip.compress((DATA / "yao9-case-2025010123gm-00a9-0000-e11f5a1d.xml").read_bytes()))
    r = cli("batch", str(odd), "--input-format", "tenhou")
    assert r.exit_code == 0, r.output
    assert all(line.endswith(" · ok") for line in r.stdout.splitlines())
    plain = tmp_path / "game.json"
    shutil.copy(DATA / "2019080322gm-00a9-0000-81e85e04.json", plain)
    r = cli("batch", str(plain), "--format", "jsonl")
    assert r.exit_code == 0 and all(json.loads(x)["agrees"] for x in r.stdout.splitlines())


def test_batch_says_where_a_win_differs(tmp_path: Path) -> None:
    text = (DATA / "nm-case-2025010410gm-00a9-0000-b84156ef.xml").read_text("utf-8")
    bad = tmp_path / "bad.xml"
    bad.write_text(text.replace('ten="30,1500,0"', 'ten="30,2500,0"', 1), "utf-8")
    r = cli("batch", str(bad))
    assert r.exit_code == 1
    assert "东1局: mjcalc 1 han 30 fu 1500 · log 1 han 30 fu 2500 · DIFFERS: points" in r.stdout
    assert "11 agree with the log, 1 differ (points 1)" in r.stderr


def test_batch_of_excerpts_scores_their_wins() -> None:
    """A log of a few hands is no game to import, but its wins are scored."""
    r = cli("batch", str(DATA / "mjai-reviewer_double_ron.json"), "--format", "jsonl")
    assert r.exit_code == 0
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(records) == 2 and all(x["agrees"] for x in records)
    assert records[1]["line"].count("+honba") == 0  # the second winner takes no honba


def test_read_errors_name_the_file_and_the_place() -> None:
    with pytest.raises(LogError, match=r"^x\.json: log\[0\]\[4\]: expected 13 tiles dealt, found 12"):
        data = json.loads((DATA / "2019080322gm-00a9-0000-81e85e04.json").read_text("utf-8"))
        data["log"][0][4] = data["log"][0][4][:12]
        read_log(json.dumps(data), "x.json")


@pytest.mark.parametrize("name", ["nm-case-2025010410gm-00a9-0000-b84156ef.xml",
                                  "2019103023gm-00a9-0000-f90e0fe9.json"])
def test_a_damaged_log_is_an_error_or_a_game_never_a_crash(name: str) -> None:
    """A log cut, a character dropped or changed anywhere: read (and imported) or refused with a LogError naming
    the file — never another exception."""
    text = (DATA / name).read_text("utf-8")
    rnd = random.Random(7)
    refused = 0
    for _ in range(300):
        at = rnd.randrange(len(text))
        roll = rnd.random()
        if roll < 0.3:
            bad = text[:at]
        elif roll < 0.6:
            bad = text[:at] + text[at + 1:]
        else:
            bad = text[:at] + rnd.choice('0123456789",<>/[]{}=-ab ') + text[at + 1:]
        try:
            game = read_log(bad, "bad.log")
            import_game(game)
        except LogError as exc:
            assert str(exc).startswith("bad.log: ")
            refused += 1
    assert refused > 150
