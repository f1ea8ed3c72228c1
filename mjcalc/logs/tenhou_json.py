"""tenhou.net/6 JSON (``{"title", "name", "rule", "log": [...]}``), the form Tenhou's viewer, Mahjong Soul
converters and review tools exchange, read into the neutral game record of model.py.

Each hand is ``[[kyoku, honba, deposits], scores, dora, ura, then for each seat its 13 dealt tiles, the tiles it
took (draws, and calls as strings) and what it gave (discards, 60 for the tile just drawn, "r" riichi, added
and concealed kongs as strings), then the result]``. The order of events across seats is not written: it is
replayed here, turn by turn, as the calls and discards allow only one order."""

from __future__ import annotations

import json
import re
from typing import Any

from .model import YAKU_BY_NAME, Draw, Game, Hand, LogError, LogScore, Meld, Rules, Win
from .replay import Tracker, is_ready

TSUMOGIRI = 60
ABORTS = {"九種九牌": "nine_terminals", "四家立直": "four_riichi", "三家和了": "triple_ron", "四槓散了": "four_kongs",
          "四風連打": "four_winds"}
_POINTS = re.compile(r"(?:(\d+)符)?(?:(\d+)飜)?(満貫|跳満|倍満|三倍満|数え役満|役満|\d*倍役満)?(\d+)(?:-(\d+))?点(∀)?")
_YAKU = re.compile(r"(.+)\((\d+)飜\)|(.+)\(役満\)|(.+)\((\d+)倍役満\)")


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, path: str, message: str) -> LogError:
        return LogError(f"{self.source}: {path}: {message}")

    def tile(self, code: Any, path: str) -> str:
        if isinstance(code, int) and not isinstance(code, bool):
            if 11 <= code <= 47 and code % 10 and (code < 40 or code <= 47):
                return f"{code % 10}{'mpsz'[code // 10 - 1]}"
            if code in (51, 52, 53):
                return f"0{'mps'[code - 51]}"
        raise self.fail(path, f"{code!r} is not a tile code (11–19, 21–29, 31–39, 41–47, 51–53)")

    def number(self, value: Any, path: str) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise self.fail(path, f"{value!r} is not a whole number")

    def list(self, value: Any, path: str, length: int | None = None) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected a list, found {type(value).__name__}")
        if length is not None and len(value) != length:
            raise self.fail(path, f"expected {length} entries, found {len(value)}")
        return value

    def call(self, text: str, who: int, path: str) -> Meld:
        """A call written as a string: the letter (c chi, p pon, m open kong, k added kong, a concealed kong) stands
        before the tile taken; where it stands says from whom (first: the left player, then across, then right)."""
        m = re.fullmatch(r"((?:\d\d)*)([cpmka])(\d\d)((?:\d\d)*)", text)
        if not m:
            raise self.fail(path, f"{text!r} is not a call")
        before, letter, taken, after = m.groups()
        codes = [int(before[i:i + 2]) for i in range(0, len(before), 2)] + [int(taken)] + \
                [int(after[i:i + 2]) for i in range(0, len(after), 2)]
        tiles = tuple(self.tile(c, path) for c in codes)
        called = self.tile(int(taken), path)
        at = len(before) // 2
        if letter == "c":
            if at != 0 or len(tiles) != 3:
                raise self.fail(path, f"{text!r}: a chi is three tiles, the called one first")
            return Meld("chi", tiles, who, (who + 3) % 4, called)
        if letter == "p":
            if len(tiles) != 3 or at not in (0, 1, 2):
                raise self.fail(path, f"{text!r}: a pon is three tiles")
            return Meld("pon", tiles, who, (who + 3 - at) % 4, called)
        if letter == "m":
            if len(tiles) != 4 or at not in (0, 1, 3):
                raise self.fail(path, f"{text!r}: an open kong is four tiles")
            return Meld("daiminkan", tiles, who, (who + {0: 3, 1: 2, 3: 1}[at]) % 4, called)
        if letter == "k":
            if len(tiles) != 4 or at not in (0, 1, 2):
                raise self.fail(path, f"{text!r}: an added kong is four tiles")
            return Meld("kakan", tiles, who, (who + 3 - at) % 4, None, called)
        if len(tiles) != 4:
            raise self.fail(path, f"{text!r}: a concealed kong is four tiles")
        return Meld("ankan", tiles, who)


def _rules(reader: _Reader, rule: Any, names: list[Any]) -> Rules:
    if rule is None:
        rule = {}
    if not isinstance(rule, dict):
        raise reader.fail("rule", "expected an object")
    disp = str(rule.get("disp", ""))
    if "三" in disp or (len(names) == 4 and names[3] == "" and names[0] != "") or len(names) == 3:
        raise reader.fail("rule", f"{disp or 'the log'} is a three-player game: three-player rules are not "
                                  f"supported yet")
    red = bool(rule.get("aka") or rule.get("aka51") or rule.get("aka52") or rule.get("aka53"))
    # The lobby's words: 喰 open tanyao, 赤 red fives, 東 / 南 the length (般南喰赤 = hanchan, both on).
    kuitan = "喰" in disp or not disp
    if "赤" in disp:
        red = True
    length = "tonpuu" if "東" in disp and "南" not in disp else "hanchan"
    return Rules(red_fives=red, open_tanyao=kuitan, length=length, players=4, described=disp)


def read_json(text: str, source: str = "<log>") -> Game:
    """A whole tenhou.net/6 log as text."""
    reader = _Reader(source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise LogError(f"{source}: line {e.lineno}, column {e.colno}: not valid JSON ({e.msg}) — the log is "
                       f"damaged or cut short") from None
    if not isinstance(data, dict) or "log" not in data:
        raise LogError(f"{source}: not a tenhou.net/6 log: no \"log\" in the top-level object")
    names = reader.list(data.get("name", ["", "", "", ""]), "name")
    rules = _rules(reader, data.get("rule"), names)
    players = [str(n) for n in names] + [""] * (4 - len(names))
    hands: list[Hand] = []
    for i, entry in enumerate(reader.list(data["log"], "log")):
        hands.append(_hand(reader, entry, f"log[{i}]"))
    if not hands:
        raise reader.fail("log", "no hand at all")
    game = Game(source, "tenhou-json", rules, players[:4], hands, reference=str(data.get("ref", "")))
    sc = data.get("sc")
    if sc is not None:
        values = reader.list(sc, "sc", 8)
        for j, v in enumerate(values):
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise reader.fail(f"sc[{j}]", f"{v!r} is not a number")
        game.final_scores = [int(values[2 * p]) for p in range(4)]
        game.final_points = [float(values[2 * p + 1]) for p in range(4)]
        game.final_points_text = [json.dumps(values[2 * p + 1]) for p in range(4)]
    return game


def _hand(reader: _Reader, entry: Any, path: str) -> Hand:
    entry = reader.list(entry, path, 17)
    head = reader.list(entry[0], f"{path}[0]", 3)
    kyoku, honba, sticks = (reader.number(x, f"{path}[0][{j}]") for j, x in enumerate(head))
    scores = [reader.number(x, f"{path}[1][{j}]") for j, x in enumerate(reader.list(entry[1], f"{path}[1]", 4))]
    dora = [reader.tile(x, f"{path}[2][{j}]") for j, x in enumerate(reader.list(entry[2], f"{path}[2]"))]
    ura = [reader.tile(x, f"{path}[3][{j}]") for j, x in enumerate(reader.list(entry[3], f"{path}[3]"))]
    if not dora:
        raise reader.fail(f"{path}[2]", "no dora indicator")
    if not 0 <= kyoku < 16:
        raise reader.fail(f"{path}[0][0]", f"hand {kyoku} is not 0–15 (East 1 … North 4)")
    dealer = kyoku % 4
    hand = Hand(round=kyoku // 4, number=kyoku % 4 + 1, honba=honba, sticks=sticks, dealer=dealer, scores=scores,
                dora=dora[:1])
    start: list[list[str]] = []
    takes: list[list[Any]] = []
    gives: list[list[Any]] = []
    for p in range(4):
        base = 4 + 3 * p
        dealt = reader.list(entry[base], f"{path}[{base}]", 13)
        start.append([reader.tile(x, f"{path}[{base}][{j}]") for j, x in enumerate(dealt)])
        takes.append(reader.list(entry[base + 1], f"{path}[{base + 1}]"))
        gives.append(reader.list(entry[base + 2], f"{path}[{base + 2}]"))
    tracker = Tracker(dealer, start, f"{reader.source}: {path}")
    _replay(reader, tracker, hand, takes, gives, path)
    result = reader.list(entry[16], f"{path}[16]")
    if not result or not isinstance(result[0], str):
        raise reader.fail(f"{path}[16]", "the result has no name")
    _result(reader, tracker, hand, result, dora, ura, f"{path}[16]")
    hand.riichi = list(tracker.riichi)
    hand.melds = list(tracker.calls)
    return hand


Step = tuple[str, int, int]  # ("take" | "give", player, index in that player's list)


def _code(item: Any) -> Any:
    """The tile code a discard entry gives up: ``r`` (riichi) stripped; 60 stays 60 (the tile just drawn)."""
    if isinstance(item, str) and item.startswith("r") and item[1:].isdigit():
        return int(item[1:])
    return item


def _order(reader: _Reader, takes: list[list[Any]], gives: list[list[Any]], dealer: int, path: str) -> list[Step]:
    """The one order of the seats' takes and gives the hand can have had. A call names the discarder and the tile,
    but not which of two such discards it took (a player may pass a tile and call the next copy): each discard a
    call could take is a choice, tried with the call first, undone when the rest of the hand cannot follow."""
    calls: dict[tuple[int, int], Meld] = {}
    for q in range(4):
        for i, item in enumerate(takes[q]):
            if isinstance(item, str):
                calls[(q, i)] = reader.call(item, q, f"{path}[{5 + 3 * q}][{i}]")
    took, gave = [0, 0, 0, 0], [0, 0, 0, 0]
    current, must_draw, drawn = dealer, True, None
    steps: list[Step] = []
    choices: list[tuple[list[int], list[int], int, bool, Any, int, list[int | None]]] = []
    for _ in range(100_000):  # a hand has a few hundred steps; the bound only stops a search that cannot end
        ended = failed = False
        if must_draw:
            if took[current] == len(takes[current]):
                ended = True
            elif isinstance(takes[current][took[current]], str):
                failed = True
            else:
                steps.append(("take", current, took[current]))
                drawn = takes[current][took[current]]
                took[current] += 1
        if not ended and not failed and gave[current] == len(gives[current]):
            ended = True
        if ended:
            if took == [len(t) for t in takes] and gave == [len(g) for g in gives]:
                return steps
            failed = True
        if not failed:
            item = gives[current][gave[current]]
            steps.append(("give", current, gave[current]))
            gave[current] += 1
            if isinstance(item, str) and ("a" in item or "k" in item):
                must_draw = True
                continue
            code = _code(item)
            if code == TSUMOGIRI:
                code = drawn if must_draw else None
            options: list[int | None] = []
            for q in ((current + k) % 4 for k in (1, 2, 3)):
                meld = calls.get((q, took[q]))
                if meld is not None and meld.from_who == current and code is not None and \
                        meld.called == reader.tile(code, f"{path}[{6 + 3 * current}][{gave[current] - 1}]"):
                    options.append(q)
            options.append(None)
            choices.append((list(took), list(gave), current, must_draw, drawn, len(steps), options))
        else:
            while choices and len(choices[-1][6]) == 1:
                choices.pop()
            if not choices:
                raise reader.fail(path, "the seats' draws, calls and discards fit no order of play")
            took, gave, current, must_draw, drawn, size, options = choices[-1]
            took, gave = list(took), list(gave)
            del steps[size:]
            options.pop(0)
        caller = choices[-1][6][0]
        if caller is None:
            current, must_draw = (current + 1) % 4, True
            continue
        steps.append(("take", caller, took[caller]))
        took[caller] += 1
        current, must_draw, drawn = caller, False, None
        if calls[(caller, took[caller] - 1)].kind == "daiminkan":
            if gave[caller] < len(gives[caller]) and gives[caller][gave[caller]] == 0:
                steps.append(("give", caller, gave[caller]))
                gave[caller] += 1
            must_draw = True
    raise reader.fail(path, "the seats' draws, calls and discards fit no order of play")


def _replay(reader: _Reader, tracker: Tracker, hand: Hand, takes: list[list[Any]], gives: list[list[Any]],
            path: str) -> None:
    drawn = ""
    for kind, p, i in _order(reader, takes, gives, hand.dealer, path):
        item = takes[p][i] if kind == "take" else gives[p][i]
        where = f"{path}[{(5 if kind == 'take' else 6) + 3 * p}][{i}]"
        tracker.where = f"{reader.source}: {where}"
        if isinstance(item, str) and (kind == "take" or "a" in item or "k" in item):
            tracker.call(reader.call(item, p, where))
        elif kind == "take":
            drawn = reader.tile(item, where)
            tracker.draw(p, drawn)
        elif item != 0:
            code = _code(item)
            tracker.discard(p, drawn if code == TSUMOGIRI else reader.tile(code, where), _code(item) != item)
            drawn = ""


def _points(reader: _Reader, text: str, tsumo: bool, path: str) -> tuple[int | None, int, str | None]:
    m = _POINTS.search(text)
    if not m:
        raise reader.fail(path, f"{text!r}: no points")
    fu, _, limit, first, second, every = m.groups()
    points = int(first)
    if second:
        points = 2 * int(first) + int(second)
    elif every:
        points = 3 * int(first)
    return (int(fu) if fu else None), points, limit


def _result(reader: _Reader, tracker: Tracker, hand: Hand, result: list[Any], dora: list[str], ura: list[str],
            path: str) -> None:
    name = result[0]
    if name == "和了":
        if len(result) < 3 or len(result) % 2 != 1:
            raise reader.fail(path, "a win needs its changes and its detail, per winner")
        for k in range(1, len(result), 2):
            paid = reader.list(result[k], f"{path}[{k}]", 4)
            changes = [reader.number(x, f"{path}[{k}][{j}]") for j, x in enumerate(paid)]
            detail = reader.list(result[k + 1], f"{path}[{k + 1}]")
            if len(detail) < 4:
                raise reader.fail(f"{path}[{k + 1}]", "expected winner, from, liable player and points")
            who, from_who, pao = (reader.number(detail[j], f"{path}[{k + 1}][{j}]") for j in range(3))
            tsumo = who == from_who
            fu, points, limit = _points(reader, str(detail[3]), tsumo, f"{path}[{k + 1}][3]")
            yaku: list[tuple[int, int]] = []
            for j, text in enumerate(detail[4:], 4):
                m = _YAKU.fullmatch(str(text))
                ypath = f"{path}[{k + 1}][{j}]"
                if not m:
                    raise reader.fail(ypath, f"{text!r} is not a yaku with its han")
                label = m.group(1) or m.group(3) or m.group(4)
                han = int(m.group(2)) if m.group(2) else 13 * int(m.group(5) or 1)
                if label not in YAKU_BY_NAME:
                    raise reader.fail(ypath, f"unknown yaku {label!r}")
                yaku.append((YAKU_BY_NAME[label], han))
            score = LogScore(han=sum(h for _, h in yaku), fu=fu, points=points, limit=limit, yaku=yaku)
            if score.yakuman:
                score.fu = None
            hand.wins.append(_win(reader, tracker, hand, who, None if tsumo else from_who, None if pao == who else pao,
                                  score, changes, dora, ura, f"{path}[{k + 1}]"))
        return
    changes = [0, 0, 0, 0]
    if len(result) > 1:
        changes = [reader.number(x, f"{path}[1][{j}]") for j, x in enumerate(reader.list(result[1], f"{path}[1]", 4))]
    tracker._settle()
    if name in ABORTS:
        hand.draw = Draw(ABORTS[name], changes=changes)
        return
    ready = [p for p in range(4) if is_ready(tracker.hands[p], len(tracker.melds[p]))]
    if name == "全員聴牌":
        hand.draw = Draw("exhaustive", ready=[0, 1, 2, 3], changes=changes)
    elif name == "全員不聴":
        hand.draw = Draw("exhaustive", ready=[], changes=changes)
    elif name == "流局":
        hand.draw = Draw("exhaustive", ready=ready, changes=changes)
        paid = [p for p in range(4) if changes[p] > 0]
        if paid and paid != ready:
            raise reader.fail(path, f"the players paid as ready {paid} are not those whose tiles are ready {ready}")
    elif name == "流し満貫":
        hand.draw = Draw("nagashi", ready=ready, nagashi=[p for p in range(4) if changes[p] > 0], changes=changes)
    else:
        raise reader.fail(f"{path}[0]", f"unknown result {name!r}")


def _win(reader: _Reader, tracker: Tracker, hand: Hand, who: int, from_who: int | None, pao: int | None,
         score: LogScore, changes: list[int], dora: list[str], ura: list[str], path: str) -> Win:
    tracker.where = f"{reader.source}: {path}"
    facts = tracker.win_situation(who, from_who)
    concealed = tracker.concealed(who, from_who)
    first = not hand.wins
    sticks = hand.sticks + len(tracker.riichi) if first else 0
    riichi = facts["riichi"] or facts["double_riichi"]
    return Win(winner=who, from_who=from_who, concealed=concealed, melds=list(tracker.melds[who]),
               winning_tile=tracker.last[2], dora=list(dora), ura=list(ura) if riichi else [],
               honba=hand.honba if first else 0, sticks=sticks, pao=pao, log=score, changes=changes, **facts)

