"""The game engine against the independent game replayer (game_ref.py, written from spec/GAME.md alone) on
generated games of the ten rulesets and presets (gen_games.py: random games, hand-made edge games, bad records),
each written in GAME.md's JSON Lines and replayed by both — the engine as ``game replay`` runs it (files.py).

Every hand's number and label-independent fields (round, dealer, honba, table, streak, start, result, riichi,
ready, nagashi, changes, end), every win's winner / from / pao, the next hand, and the final scores, ranking,
points and end must agree; a bad record's error lines must be the manifest's, for both, and its other lines
still replay. benchmarks/game_agreement.py runs the full set (300 random games a ruleset).
"""

from __future__ import annotations

import copy
import os
from collections import Counter
from typing import Any

import game_diff
import game_ref
import gen_games
import pytest

pytestmark = pytest.mark.independent

SEED = 3333                     # not the full set's 33: the two runs together see more games
PER_RULESET = 200


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = str(tmp_path_factory.mktemp("games"))
    manifest = gen_games.write(out, PER_RULESET, SEED, list(game_ref.GAME_RULESETS), False, False)
    found: dict[str, Any] = {"out": out, "games": []}
    for item in manifest["games"]:
        path = os.path.join(out, item["file"])
        engine, ref = game_diff.engine(path), game_diff.reference(path)
        found["games"].append((item, path, engine, ref))
    return found


def _differences(item: dict[str, Any], engine: Any, ref: Any) -> list[str]:
    (sheets, errors), (ref_sheets, ref_errors) = engine, ref
    out = []
    if item["kind"] == "bad" and errors != item["errors"]:
        out.append(f"engine's error lines {errors}, the record's bad lines {item['errors']}")
    if errors != ref_errors:
        out.append(f"error lines: engine {errors} != ref {ref_errors}")
    if len(sheets) != len(ref_sheets):
        out.append(f"games: engine {len(sheets)} != ref {len(ref_sheets)}")
    for a, b in zip(sheets, ref_sheets, strict=False):
        out += game_diff.diff_sheets(a, b)
    return out


@pytest.mark.parametrize("rules", game_ref.GAME_RULESETS)
def test_engine_and_reference_agree(games: dict[str, Any], rules: str) -> None:
    bad = {}
    count = Counter()
    for item, _, engine, ref in games["games"]:
        if item["rules"] != rules:
            continue
        count[item["kind"]] += 1
        diffs = _differences(item, engine, ref)
        if diffs:
            bad[f"{item['file']} ({item['what']})"] = diffs[:4]
    assert count["random"] == PER_RULESET and count["bad"] > 0
    assert not bad, "\n".join(f"{file}:\n  " + "\n  ".join(d) for file, d in bad.items())


def test_the_games_cover_what_game_md_describes(games: dict[str, Any]) -> None:
    """The set is worth comparing: every kind of result, and the game's turns, happen in it (the engine's sheets)."""
    seen: Counter[str] = Counter()
    for item, _, (sheets, _), _ in games["games"]:
        for sheet in sheets:
            fam = game_ref.family_of(item["rules"])
            final = sheet["final"]
            seen[f"ended:{final['ended']}"] += 1
            seen[f"reason:{(final.get('reason') or '').split(' ')[0]}"] += 1
            if final["points"] is not None:
                seen[f"points:{item['rules']}"] += 1
            for hand in sheet["hands"]:
                seen[f"{fam}:{hand['result']}"] += 1
                seen[f"{fam}:wins:{len(hand['wins'])}"] += 1
                seen[f"{fam}:pao"] += any(w["pao"] is not None for w in hand["wins"])
                seen[f"{fam}:pao-ron-honba"] += any(w["pao"] is not None and w["from"] is not None
                                                    for w in hand["wins"]) and hand["honba"] > 0
                seen[f"{fam}:kongs"] += bool(hand.get("kongs"))
                seen[f"{fam}:nagashi"] += bool(hand["nagashi"])
                seen[f"{fam}:riichi"] += bool(hand["riichi"])
                seen[f"{fam}:table>0"] += hand["table"] > 0
                seen[f"{fam}:lian>1"] += hand["lian"] > 1
                seen[f"{fam}:honba>1"] += hand["honba"] > 1
                seen[f"{fam}:dealer-not-0-first"] += hand["number"] == 1 and sheet["players"][0] != "A"
                for w in hand["wins"]:
                    items = (w.get("score") or {}).get("items") or []
                    seen[f"{item['rules']}:yakuman"] += any(i.get("unit") == "han" and i["value"] >= 13 for i in items)
                    seen[f"{fam}:special-kong"] += "{" in w["hand"]
    need = ["ended:True", "ended:False", "points:riichi-tenhou", "points:riichi-mleague",
            "riichi:win", "riichi:draw", "riichi:abort", "riichi:redeal", "riichi:penalty", "riichi:wins:2",
            "riichi:wins:3", "riichi:pao", "riichi:pao-ron-honba", "riichi:nagashi", "riichi:riichi", "riichi:table>0",
            "riichi:honba>1", "riichi-tenhou:yakuman", "riichi-mleague:yakuman",
            "north_east:win", "north_east:draw", "north_east:penalty", "north_east:kongs", "north_east:special-kong",
            "north_east:table>0", "taiwan:win", "taiwan:draw", "taiwan:lian>1", "mcr:win", "mcr:draw", "mcr:penalty",
            "riichi:dealer-not-0-first", "north_east:dealer-not-0-first"]
    missing = [k for k in need if not seen[k]]
    assert not missing, f"never in the generated games: {missing}"
    reasons = {k for k in seen if k.startswith("reason:")}
    assert len(reasons) >= 5, reasons    # bust, the last round, sudden death, the last dealer's stop, hands …


def test_the_comparison_sees_a_difference(games: dict[str, Any]) -> None:
    """A changed number anywhere the comparison looks is a difference (a test that cannot fail is none)."""
    item, _, (sheets, _), _ = next(g for g in games["games"] if g[0]["rules"] == "riichi-tenhou"
                                   and g[0]["kind"] == "random")
    sheet = sheets[0]
    assert game_diff.diff_sheets(sheet, sheet) == []
    for change in ("start", "changes", "dealer", "honba", "table", "round", "pao", "points", "ranking"):
        other = copy.deepcopy(sheet)
        hand = other["hands"][-1]
        if change == "points":
            other["final"]["points"][0] += 0.1
        elif change == "ranking":
            other["final"]["ranking"].reverse()
        elif change == "pao":
            hand = next(h for h in other["hands"] if h["wins"])
            hand["wins"][0]["pao"] = 3
        elif change in ("start", "changes"):
            hand[change][0] += 100
        elif change == "round":
            hand["round"] = "N" if hand["round"] != "N" else "E"
        else:
            hand[change] += 1
        assert game_diff.diff_sheets(other, sheet), change
