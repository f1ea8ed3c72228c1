"""Real Tenhou games (tests/data/tenhou, their sources and licences in its README): every win the logs hold is
read by mjcalc.logs, written as a line of notation and scored by mjcalc under the preset riichi-tenhou; han, fu, points,
the yaku and every player's change must be what Tenhou recorded. Around each win, the same hand in other
situations (seats, honba, deposits) is set against the reference library ``mahjong``. The readers' own
bookkeeping is checked against the logs too: each hand starts with the scores, dealer and honba the previous
one left, and the game ends with the log's final scores and points.

Tenhou's rules are the preset's defaults — no kiriage mangan, counted yakuman (13 han and more) a single yakuman,
and no double yakuman for a single hand (13-sided kokushi, suuankou tanki, pure nine gates and daisuushii are
each one yakuman at Tenhou; several yakuman in one hand do add up) —, with red fives and open tanyao as the
lobby says (GO type bits, or the JSON rule).
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import mjcalc
from mjcalc.config import LOGS_RULESET
from mjcalc.logs import Game, Hand, LogError, Win, game_record, read_log, read_path, win_line
from mjcalc.logs.model import TENHOU_YAKU
from mjcalc.logs.record import rounding, tenhou_points

DATA = Path(__file__).parent / "data" / "tenhou"
LOGS = sorted(p for p in DATA.iterdir() if p.name != "README.md")
TENHOU = {"kiriage": False, "double_yakuman": False, "kazoe": "yakuman"}  # the preset's, for the reference library


@cache
def game(name: str) -> Game:
    return read_path(DATA / name)


def options(g: Game) -> dict[str, Any]:
    return {"aka": g.rules.red_fives, "kuitan": g.rules.open_tanyao}


def wins() -> list[tuple[str, int, int]]:
    out = []
    for path in LOGS:
        for h, hand in enumerate(game(path.name).hands):
            out.extend((path.name, h, w) for w in range(len(hand.wins)))
    return out


WINS = wins()


def _id(case: tuple[str, int, int]) -> str:
    name, h, w = case
    return f"{name}:{game(name).hands[h].label}" + (f":{w + 1}" if w else "")


def hand_value(hand: Hand, win: Win, net: dict[str, int]) -> int:
    """The winner's takings less honba and deposits: the hand's points as the log gives them."""
    return net[hand.seat_wind(win.winner)] - 300 * win.honba - 1000 * win.sticks


def disagreements(g: Game, hand: Hand, win: Win) -> list[str]:
    line = win_line(hand, win)
    r = mjcalc.score(line, rules="riichi-tenhou", options=options(g))
    if r["result"] != "win":
        return [f"{line}: mjcalc {r['result']}: {r.get('error') or r.get('failed')}"]
    log = win.log
    assert log is not None
    found = []
    if r["fan"] != log.han:
        found.append(f"han {r['fan']}, Tenhou {log.han}")
    if log.fu is not None and not log.yakuman and r["fu"] != log.fu:
        found.append(f"fu {r['fu']}, Tenhou {log.fu}")
    if hand_value(hand, win, r["net"]) != log.points:
        found.append(f"points {hand_value(hand, win, r['net'])}, Tenhou {log.points}")
    ours = sorted((i["id"], i["value"] * i.get("count", 1)) for i in r["items"] if i["value"])
    theirs = sorted((TENHOU_YAKU[n][1], v) for n, v in log.yaku if v)
    if ours != theirs:
        found.append(f"yaku {ours}, Tenhou {theirs}")
    changes = [r["net"].get(hand.seat_wind(p), 0) for p in range(4)]
    if changes != win.changes:
        found.append(f"changes {changes}, Tenhou {win.changes}")
    return [f"{line}: {f}" for f in found]


@pytest.mark.parametrize("case", WINS, ids=_id)
def test_every_win_scores_as_tenhou_recorded(case: tuple[str, int, int]) -> None:
    name, h, w = case
    g = game(name)
    hand = g.hands[h]
    win = hand.wins[w]
    assert disagreements(g, hand, win) == []


SITUATIONS = {"riichi": 1, "double_riichi": 21, "ippatsu": 2, "chankan": 3, "rinshan": 4, "haitei": 5, "houtei": 6,
              "tenhou": 37, "chiihou": 38}


@pytest.mark.parametrize("case", WINS, ids=_id)
def test_the_situation_read_from_the_events_is_the_log_s_own(case: tuple[str, int, int]) -> None:
    """Riichi, ippatsu, rinshan, chankan, the last tile, the first draw: read from the order of events, they are
    the yaku the log lists (a yakuman hand lists none of them)."""
    name, h, w = case
    win = game(name).hands[h].wins[w]
    assert win.log is not None
    if win.log.yakuman:
        return
    listed = {number for number, _ in win.log.yaku}
    assert {fact for fact, number in SITUATIONS.items() if getattr(win, fact)} == \
           {fact for fact, number in SITUATIONS.items() if number in listed}


def test_the_games_cover_what_the_issue_asks_for() -> None:
    """Whole games, and among the hands a double ron, pao, a kan-dora from another player's kong, an abortive
    draw, a West-round extension, an exhaustive draw with ready payments, nagashi and the situational yaku."""
    games = [game(p.name) for p in LOGS]
    hands = [h for g in games for h in g.hands]
    all_wins = [w for h in hands for w in h.wins]
    assert sum(g.whole and g.final_scores is not None for g in games) >= 18 and len(all_wins) >= 150
    assert any(len(h.wins) == 2 for h in hands)
    assert any(w.pao is not None for w in all_wins)
    assert any(len(w.dora) > 1 + sum(m.is_kong for m in w.melds) for w in all_wins)
    assert any(h.draw and h.draw.abortive for h in hands)
    assert any(h.round == 2 for h in hands)
    assert any(h.draw and h.draw.kind == "exhaustive" and 0 < len(h.draw.ready) < 4 for h in hands)
    assert any(h.draw and h.draw.nagashi for h in hands)
    for fact in ("riichi", "ippatsu", "rinshan", "haitei", "tsumo"):
        assert any(getattr(w, fact) for w in all_wins), fact
    assert any(h.draw and h.draw.kind == "nine_terminals" for h in hands)


def _next_state(hand: Hand) -> tuple[int, int]:
    """The dealer and honba the hand leaves (riichi-tenhou: GAME.md)."""
    if hand.wins:
        if any(w.winner == hand.dealer for w in hand.wins):
            return hand.dealer, hand.honba + 1
        return (hand.dealer + 1) % 4, 0
    assert hand.draw is not None
    if hand.draw.abortive or hand.dealer in hand.draw.ready:
        return hand.dealer, hand.honba + 1
    return (hand.dealer + 1) % 4, hand.honba + 1


def _end(hand: Hand) -> list[int]:
    """Each player's score after the hand: its start, less accepted riichi deposits, plus the log's changes."""
    changes = [sum(w.changes[p] for w in hand.wins) for p in range(4)] if hand.wins else \
        list(hand.draw.changes)  # type: ignore[union-attr]
    return [hand.scores[p] - 1000 * (p in hand.riichi) + changes[p] for p in range(4)]


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
def test_each_hand_starts_where_the_last_one_left(path: Path) -> None:
    g = game(path.name)
    for hand, after in zip(g.hands, g.hands[1:], strict=False):
        assert after.scores == _end(hand), f"{after.label}"
        assert after.sticks == (0 if hand.wins else hand.sticks + len(hand.riichi)), f"{after.label}"
        assert (after.dealer, after.honba) == _next_state(hand), f"{after.label}"
        passed = after.dealer != hand.dealer
        assert after.round * 4 + after.number == hand.round * 4 + hand.number + passed, f"{after.label}"
    last = g.hands[-1]
    if g.final_scores is not None:
        end = _end(last)
        left = 0 if last.wins else 1000 * (last.sticks + len(last.riichi))
        first = min(range(4), key=lambda p: (-end[p], p))  # ties: the first dealer ranks first
        end[first] += left
        assert end == g.final_scores


@pytest.mark.parametrize("path", [p for p in LOGS if game(p.name).whole and game(p.name).final_points],
                         ids=lambda p: p.name)
def test_final_points_follow_the_preset(path: Path) -> None:
    """GAME.md's riichi-tenhou points, to one decimal or (older logs) from scores rounded to the thousand."""
    g = game(path.name)
    assert g.final_scores is not None and g.final_points is not None
    how = rounding(g)
    assert how is not None
    assert tenhou_points(g.final_scores, how == "thousand") == pytest.approx(g.final_points)


# --- the same hands in other situations, against the reference library ------------------------------------

def _variants(line: str) -> list[str]:
    """The line at another seat (and so from another discarder), with other honba and deposits."""
    words = [w for w in line.split() if not w.startswith(("+seat=", "+from=", "+honba=", "+sticks=", "+pao="))]
    out = []
    for k, seat in enumerate("ESWN"):
        extra = [f"+seat={seat}", f"+honba={k % 3}", f"+sticks={(k + 1) % 3}"]
        out.append(" ".join(words + extra))
    return out


def test_the_real_hands_in_other_situations_agree_with_the_reference() -> None:
    pytest.importorskip("mahjong")
    from riichi_situations import from_line, reference_score

    checked = 0
    found = []
    for name, h, w in WINS:
        g = game(name)
        hand = g.hands[h]
        opts = {k: ("on" if v is True else "off" if v is False else v) for k, v in {**TENHOU, **options(g)}.items()}
        for line in _variants(win_line(hand, hand.wins[w])):
            ours = mjcalc.score(line, rules="riichi-tenhou", options=options(g))
            try:
                ref = reference_score(from_line(line, opts))
            except IndexError:  # the reference's tile copies run out (four of a kind and its indicator)
                continue
            checked += 1
            if ref.error == "no_yaku" and ours["result"] == "not_a_win":
                continue  # at another seat the hand may lose its only yaku: both say so
            if ours["result"] != "win" or ref.error:
                found.append(f"{line}: mjcalc {ours['result']}, reference {ref.error}")
            elif (ours["fan"], ours["fu"], ours["points"]) != (ref.han, ref.fu, ref.cost["total"]):
                found.append(f"{line}: mjcalc {ours['fan']} han {ours['fu']} fu {ours['points']}, "
                             f"reference {ref.han} {ref.fu} {ref.cost['total']} {ref.yaku}")
    assert checked >= 3 * len(WINS)
    assert not found, "\n".join(found)


# --- the readers ---------------------------------------------------------------------------------------

BOTH = sorted(p.stem for p in LOGS if p.suffix == ".xml" and (DATA / f"{p.stem}.json").exists())


@pytest.mark.parametrize("stem", BOTH)
def test_one_game_in_both_formats_reads_alike(stem: str) -> None:
    """The same game as mjlog XML (every event in order) and as tenhou.net/6 JSON (each seat's draws and
    discards apart, the order replayed): the same record, hands, wins and what the log says of each."""
    xml, js = game(f"{stem}.xml"), game(f"{stem}.json")
    assert game_record(xml, LOGS_RULESET) == game_record(js, LOGS_RULESET)
    assert [(h.label, h.dealer, h.scores, h.riichi) for h in xml.hands] == \
           [(h.label, h.dealer, h.scores, h.riichi) for h in js.hands]
    for hx, hj in zip(xml.hands, js.hands, strict=True):
        assert [win_line(hx, w) for w in hx.wins] == [win_line(hj, w) for w in hj.wins]
        assert [(w.changes, w.log and (w.log.han, w.log.points, sorted(w.log.yaku))) for w in hx.wins] == \
               [(w.changes, w.log and (w.log.han, w.log.points, sorted(w.log.yaku))) for w in hj.wins]
        assert (hx.draw and (hx.draw.kind, hx.draw.ready, hx.draw.changes)) == \
               (hj.draw and (hj.draw.kind, hj.draw.ready, hj.draw.changes))
    assert (xml.final_scores, xml.final_points) == (js.final_scores, js.final_points)

XML_GAME = DATA / "nm-case-2025010410gm-00a9-0000-b84156ef.xml"
JSON_GAME = DATA / "2019081518gm-00a9-0000-cce9d00c.json"


def test_gzip_reads_as_the_plain_log() -> None:
    plain = read_path(XML_GAME)
    packed = read_log(gzip.compress(XML_GAME.read_bytes()), "x.mjlog")
    assert [win_line(h, w) for h in packed.hands for w in h.wins] == \
           [win_line(h, w) for h in plain.hands for w in h.wins]
    with pytest.raises(LogError, match=r"x\.mjlog: the gzip data is damaged"):
        read_log(gzip.compress(XML_GAME.read_bytes())[:500], "x.mjlog")


@pytest.mark.parametrize("cut", [0.1, 0.5, 0.9, 0.999])
def test_a_log_cut_short_is_an_error_naming_the_file_and_place(cut: float) -> None:
    for path in (XML_GAME, JSON_GAME):
        text = path.read_text("utf-8")
        with pytest.raises(LogError, match=rf"^cut\.{path.suffix[1:]}: line 1, column \d+: not well-formed XML|"
                                           rf"^cut\.{path.suffix[1:]}: line 1, column \d+: not valid JSON"):
            read_log(text[:int(len(text) * cut)], f"cut.{path.suffix[1:]}")


def test_an_xml_log_ending_before_the_game_ends_is_an_error() -> None:
    text = XML_GAME.read_text("utf-8")
    short = text[:text.rindex("<INIT")] + "</mjloggm>"
    with pytest.raises(LogError, match=r"short.xml: the end of the log: the log is cut short: no final result"):
        read_log(short, "short.xml")
    shorter = text[:text.rindex("<AGARI")] + "</mjloggm>"
    with pytest.raises(LogError, match=r"南4局 has no result"):
        read_log(shorter, "short.xml")


def test_a_damaged_event_is_an_error_naming_its_element() -> None:
    text = XML_GAME.read_text("utf-8")
    bad = text.replace("<D104/>", "<D56/>", 1)  # a discard of a tile the player does not hold
    with pytest.raises(LogError, match=r"bad.xml: element \d+ <D56>: player 0 gives up 6p"):
        read_log(bad, "bad.xml")
    bad = text.replace('<GO type="169"', '<GO type="185"', 1)  # 0x10: three players
    with pytest.raises(LogError, match="three-player"):
        read_log(bad, "sanma.xml")
    bad = text.replace('machi="15"', 'machi="50"', 1)
    with pytest.raises(LogError, match=r"element \d+ <AGARI>: the winning tile 4p"):
        read_log(bad, "bad.xml")


def test_a_damaged_json_log_is_an_error_naming_the_json_path() -> None:
    data = json.loads(JSON_GAME.read_text("utf-8"))
    data["log"][2][5][0] = 99
    with pytest.raises(LogError, match=r"bad.json: log\[2\]\[5\]\[0\]: 99 is not a tile code"):
        read_log(json.dumps(data), "bad.json")
    data = json.loads(JSON_GAME.read_text("utf-8"))
    data["log"][0][16][2][3] = "30符4飜"
    with pytest.raises(LogError, match=r"log\[0\]\[16\]\[2\]\[3\]: '30符4飜': no points"):
        read_log(json.dumps(data), "bad.json")
    data = json.loads(JSON_GAME.read_text("utf-8"))
    data["name"] = ["A", "B", "C", ""]
    with pytest.raises(LogError, match="three-player"):
        read_log(json.dumps(data), "sanma.json")
    with pytest.raises(LogError, match="neither a Tenhou mjlog"):
        read_log(b"hello", "x.txt")


def test_the_liable_player_is_read_from_pao_who() -> None:
    text = XML_GAME.read_text("utf-8").replace('who="0" fromWho="3"', 'who="0" fromWho="3" paoWho="1"', 1)
    hand = read_log(text, "pao.xml").hands[0]
    assert (hand.wins[0].pao, hand.wins[1].pao) == (1, None)
    assert win_line(hand, hand.wins[0]).endswith("+pao=S")


def test_calls_are_decoded_from_tenhou_s_meld_codes() -> None:
    g = read_path(XML_GAME)
    kinds = {m.kind for h in g.hands for m in h.melds}
    assert kinds == {"chi", "pon", "daiminkan", "kakan", "ankan"} - ({"daiminkan"} - kinds)
    first = g.hands[0].melds[0]  # N who=0 m=50731: a pon of 中 from the player on the left
    assert (first.kind, first.tiles, first.from_who) == ("pon", ("7z", "7z", "7z"), 3)


def test_the_game_record_is_the_one_a_table_would_type() -> None:
    g = read_path(XML_GAME)
    records = game_record(g, LOGS_RULESET)
    assert records[0] == {"game": {"players": g.players, "rules": "riichi-tenhou", "set": {}}}
    assert len(records) == len(g.hands) + 1
    double = records[1]["win"]
    assert [w["winner"] for w in double] == [g.players[0], g.players[2]]
    assert all(w["from"] == g.players[3] for w in double)
    assert records[3] == {"draw": {"ready": g.players[:3], "nagashi": [g.players[3]]}}
    for record in records[1:]:
        for w in record.get("win", []):
            assert "+seat=" not in w["hand"] and "+honba" not in w["hand"]
    older = game_record(game(JSON_GAME.name), LOGS_RULESET)
    assert older[0]["game"]["set"] == {"rounding": "thousand"}
    assert {"abort": "nine_terminals"} in game_record(game("2019080322gm-00a9-0000-81e85e04.json"), LOGS_RULESET)
    with pytest.raises(LogError, match="starts at 南4局"):
        game_record(game("mjai-reviewer_double_ron.json"), LOGS_RULESET)
