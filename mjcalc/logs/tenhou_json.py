"""tenhou.net/6 JSON (``{"title", "name", "rule", "log": [...]}``), the form Tenhou's viewer, Mahjong Soul
converters and review tools exchange, read into the neutral game record of model.py.

Each hand is ``[[kyoku, honba, deposits], scores, dora, ura, then for each seat its 13 dealt tiles, the tiles it
took (draws, and calls as strings) and what it gave (discards, 60 for the tile just drawn, "r" riichi, added
and concealed kongs as strings), then the result]``. The order of events across seats is not written: it is
replayed here, turn by turn, as the calls and discards allow only one order."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .model import YAKU_BY_NAME, Draw, Game, Hand, LogError, LogScore, Meld, Rules, Win
from .replay import Tracker, is_ready

TSUMOGIRI = 60
ABORTS = {"九種九牌": "nine_terminals", "四家立直": "four_riichi", "三家和了": "triple_ron", "四槓散了": "four_kongs",
          "四風連打": "four_winds"}
CODE_NAMES = [""] * 54  # each tile code's notation ("" for a number that is no tile)
for _c in range(11, 48):
    if _c % 10 and (_c < 40 or _c <= 47):
        CODE_NAMES[_c] = f"{_c % 10}{'mpsz'[_c // 10 - 1]}"
for _c in (51, 52, 53):
    CODE_NAMES[_c] = f"0{'mps'[_c - 51]}"
_POINTS = re.compile(r"(?:(\d+)符)?(?:(\d+)飜)?(満貫|跳満|倍満|三倍満|数え役満|役満|\d*倍役満)?(\d+)(?:-(\d+))?点(∀)?")
_YAKU = re.compile(r"(.+)\((\d+)飜\)|(.+)\(役満\)|(.+)\((\d+)倍役満\)")


class _JsonReader:
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


def _json_rules(reader: _JsonReader, rule: Any, names: list[Any]) -> Rules:
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
    reader = _JsonReader(source)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise LogError(f"{source}: line {e.lineno}, column {e.colno}: not valid JSON ({e.msg}) — the log is "
                       f"damaged or cut short") from None
    except RecursionError:
        raise LogError(f"{source}: not a tenhou.net/6 log: its JSON is nested too deep") from None
    if not isinstance(data, dict) or "log" not in data:
        raise LogError(f"{source}: not a tenhou.net/6 log: no \"log\" in the top-level object")
    names = reader.list(data.get("name", ["", "", "", ""]), "name")
    rules = _json_rules(reader, data.get("rule"), names)
    players = [str(n) for n in names] + [""] * (4 - len(names))
    ours = _extension(reader, data.get("mjcalc"))
    infos = ours.get("hands", [])
    hands: list[Hand] = []
    for i, entry in enumerate(reader.list(data["log"], "log")):
        info = infos[i] if i < len(infos) and isinstance(infos[i], dict) else None
        try:
            hands.append(_hand(reader, entry, f"log[{i}]", info))
        except LogError:
            raise
        except (IndexError, KeyError, ValueError, TypeError, AttributeError, RecursionError) as exc:
            raise reader.fail(f"log[{i}]", f"a hand that cannot be read ({type(exc).__name__}: {exc})") from None
    if not hands:
        raise reader.fail("log", "no hand at all")
    game = Game(source, "tenhou-json", rules, players[:4], hands, reference=str(data.get("ref", "")))
    for j, item in enumerate(ours.get("extra", [])):
        if not isinstance(item, dict) or not isinstance(item.get("before"), int) or \
                not isinstance(item.get("result"), dict):
            raise reader.fail(f"mjcalc.extra[{j}]", "expected {\"before\": N, \"result\": {...}}")
        game.extra.append((item["before"], item["result"]))
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


def _extension(reader: _JsonReader, value: Any) -> dict[str, Any]:
    """mjcalc's own key of a log it wrote (mjcalc.logs.export): what Tenhou's format has no place for."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise reader.fail("mjcalc", "expected an object")
    for key in ("hands", "extra"):
        if key in value and not isinstance(value[key], list):
            raise reader.fail(f"mjcalc.{key}", "expected a list")
    return value


def _players_of(reader: _JsonReader, info: dict[str, Any] | None, key: str, path: str) -> list[int] | None:
    if info is None or key not in info:
        return None
    found = reader.list(info[key], f"{path}.{key}")
    out = [reader.number(p, f"{path}.{key}") for p in found]
    if any(not 0 <= p < 4 for p in out):
        raise reader.fail(f"{path}.{key}", f"{found!r}: players are 0–3")
    return out


def _hand(reader: _JsonReader, entry: Any, path: str, info: dict[str, Any] | None = None) -> Hand:
    entry = reader.list(entry, path, 17)
    head = reader.list(entry[0], f"{path}[0]", 3)
    kyoku, honba, sticks = (reader.number(x, f"{path}[0][{j}]") for j, x in enumerate(head))
    scores = [reader.number(x, f"{path}[1][{j}]") for j, x in enumerate(reader.list(entry[1], f"{path}[1]", 4))]
    dora = _tiles(reader, reader.list(entry[2], f"{path}[2]"), f"{path}[2]")
    ura = _tiles(reader, reader.list(entry[3], f"{path}[3]"), f"{path}[3]")
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
        dealt = reader.list(entry[base], f"{path}[{base}]")
        start.append(_tiles(reader, dealt, f"{path}[{base}]"))
        takes.append(reader.list(entry[base + 1], f"{path}[{base + 1}]"))
        gives.append(reader.list(entry[base + 2], f"{path}[{base + 2}]"))
    if any(len(d) != 13 for d in start):
        plays = sum(isinstance(x, int) for seat in takes + gives for x in seat)
        if info is not None or plays <= 4:  # no play, only the winning tiles: a hand written results-only
            return _results_only(reader, hand, start, takes, gives, entry[16], dora, ura, path, info)
        bad = next(p for p in range(4) if len(start[p]) != 13)
        raise reader.fail(f"{path}[{4 + 3 * bad}]", f"expected 13 tiles dealt, found {len(start[bad])}")
    if not dora:
        raise reader.fail(f"{path}[2]", "no dora indicator")
    tracker = Tracker(dealer, start, f"{reader.source}: {path}")
    _replay(reader, tracker, hand, takes, gives, path)
    result = reader.list(entry[16], f"{path}[16]")
    if not result or not isinstance(result[0], str):
        raise reader.fail(f"{path}[16]", "the result has no name")
    _result(reader, tracker, hand, result, dora, ura, f"{path}[16]")
    hand.riichi = list(tracker.riichi)
    hand.melds = list(tracker.calls)
    return hand


# A step of play: (index in its seat's list) × 8 + seat × 2 + (1: a tile given, 0: taken) — an int, not a tuple:
# a hand has a few hundred steps, a log a few thousand.
Step = int


def _step(give: bool, player: int, index: int) -> int:
    return index * 8 + player * 2 + (1 if give else 0)


def _code(item: Any) -> Any:
    """The tile code a discard entry gives up: ``r`` (riichi) stripped; 60 stays 60 (the tile just drawn)."""
    if isinstance(item, str) and item.startswith("r") and item[1:].isdigit():
        return int(item[1:])
    return item


def _steps_in_order(reader: _JsonReader, takes: list[list[Any]], gives: list[list[Any]], dealer: int, path: str,
           calls: list[dict[int, Meld]], apply: Callable[[int], None] | None = None) -> tuple[list[Step], int]:
    """The one order of the seats' takes and gives the hand can have had. A call names the discarder and the tile,
    but not which of two such discards it took (a player may pass a tile and call the next copy): each discard a
    call could take is a choice, tried with the call first, undone when the rest of the hand cannot follow.
    ``apply`` is given each step as soon as no choice can undo it (the steps before the first choice: most hands
    have none); the steps, and how many of them were given."""
    any_call = any(calls)
    applied = 0
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
                steps.append(_step(False, current, took[current]))
                drawn = takes[current][took[current]]
                took[current] += 1
                if apply is not None and not choices:
                    apply(steps[-1])
                    applied += 1
        if not ended and not failed and gave[current] == len(gives[current]):
            ended = True
        if ended:
            if took == [len(t) for t in takes] and gave == [len(g) for g in gives]:
                return steps, applied
            failed = True
        if not failed:
            item = gives[current][gave[current]]
            steps.append(_step(True, current, gave[current]))
            gave[current] += 1
            if apply is not None and not choices:
                apply(steps[-1])
                applied += 1
            if isinstance(item, str) and ("a" in item or "k" in item):
                must_draw = True
                continue
            caller: int | None = None
            if any_call:
                code = item if item.__class__ is int else _code(item)
                if code == TSUMOGIRI:
                    code = drawn if must_draw else None
                callers: list[int | None] = []
                for k in (1, 2, 3):
                    q = (current + k) % 4
                    meld = calls[q].get(took[q])
                    if meld is not None and meld.from_who == current and code is not None and \
                            meld.called == _name(reader, code, f"{path}[{6 + 3 * current}][{gave[current] - 1}]"):
                        callers.append(q)
                if callers:  # a choice: the call first, no call if the rest cannot follow
                    callers.append(None)
                    choices.append((list(took), list(gave), current, must_draw, drawn, len(steps), callers))
                    caller = callers[0]
        else:
            while choices and len(choices[-1][6]) == 1:
                choices.pop()
            if not choices:
                raise reader.fail(path, "the seats' draws, calls and discards fit no order of play")
            took, gave, current, must_draw, drawn, size, options = choices[-1]
            took, gave = list(took), list(gave)
            del steps[size:]
            options.pop(0)
            caller = options[0]
        if caller is None:
            current, must_draw = (current + 1) % 4, True
            continue
        steps.append(_step(False, caller, took[caller]))
        took[caller] += 1
        current, must_draw, drawn = caller, False, None
        if apply is not None and not choices:
            apply(steps[-1])
            applied += 1
        if calls[caller][took[caller] - 1].kind == "daiminkan":
            if gave[caller] < len(gives[caller]) and gives[caller][gave[caller]] == 0:
                steps.append(_step(True, caller, gave[caller]))
                gave[caller] += 1
                if apply is not None and not choices:
                    apply(steps[-1])
                    applied += 1
            must_draw = True
    raise reader.fail(path, "the seats' draws, calls and discards fit no order of play")


def _tiles(reader: _JsonReader, codes: list[Any], path: str) -> list[str]:
    """Tile codes in notation; a LogError naming the entry (``path[j]``) of one that is no tile."""
    names = CODE_NAMES
    out = []
    for j, code in enumerate(codes):
        if code.__class__ is int and 0 <= code < len(names) and names[code]:
            out.append(names[code])
        else:
            out.append(reader.tile(code, f"{path}[{j}]"))
    return out


def _name(reader: _JsonReader, code: Any, path: str) -> str:
    """A tile code's notation (a LogError naming ``path`` for a number that is no tile)."""
    if code.__class__ is int and 0 <= code < len(CODE_NAMES) and CODE_NAMES[code]:
        return CODE_NAMES[code]
    return reader.tile(code, path)


def _replay(reader: _JsonReader, tracker: Tracker, hand: Hand, takes: list[list[Any]], gives: list[list[Any]],
            path: str) -> None:
    calls: list[dict[int, Meld]] = [{}, {}, {}, {}]  # each seat's calls by their place among its tiles taken
    for q in range(4):
        for i, item in enumerate(takes[q]):
            if isinstance(item, str):
                calls[q][i] = reader.call(item, q, f"{path}[{5 + 3 * q}][{i}]")
    drawn = [""]  # the tile just drawn (a discard of 60 gives it up)
    at = [0]  # the step being followed: its JSON path is made only for a message

    def where() -> str:
        step = at[0]
        return f"{path}[{(6 if step & 1 else 5) + 3 * ((step >> 1) & 3)}][{step >> 3}]"

    tracker.place = lambda: f"{reader.source}: {where()}"
    names = CODE_NAMES

    def apply(step: int) -> None:
        at[0] = step
        take = not step & 1
        p = (step >> 1) & 3
        i = step >> 3
        item = takes[p][i] if take else gives[p][i]
        if item.__class__ is int:
            if take:
                drawn[0] = names[item] if 0 <= item < len(names) and names[item] else reader.tile(item, where())
                tracker.draw(p, drawn[0])
            elif item != 0:
                tile = drawn[0] if item == TSUMOGIRI else \
                    names[item] if 0 <= item < len(names) and names[item] else reader.tile(item, where())
                tracker.discard(p, tile, False)
                drawn[0] = ""
        elif take:
            tracker.call(calls[p][i])
        elif isinstance(item, str) and ("a" in item or "k" in item):
            tracker.call(reader.call(item, p, where()))
        else:
            code = _code(item)
            tracker.discard(p, drawn[0] if code == TSUMOGIRI else reader.tile(code, where()), code != item)
            drawn[0] = ""

    steps, applied = _steps_in_order(reader, takes, gives, hand.dealer, path, calls, apply)
    for step in steps[applied:]:
        apply(step)


def _points(reader: _JsonReader, text: str, tsumo: bool, path: str) -> tuple[int | None, int, str | None]:
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


def _result(reader: _JsonReader, tracker: Tracker, hand: Hand, result: list[Any], dora: list[str], ura: list[str],
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
            hand.wins.append(_json_win(reader, tracker, hand, who, None if tsumo else from_who,
                                       None if pao == who else pao, score, changes, dora, ura, f"{path}[{k + 1}]"))
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


def _json_win(reader: _JsonReader, tracker: Tracker, hand: Hand, who: int, from_who: int | None, pao: int | None,
         score: LogScore, changes: list[int], dora: list[str], ura: list[str], path: str) -> Win:
    tracker.where = f"{reader.source}: {path}"
    facts = tracker.win_situation(who, from_who)
    concealed = tracker.concealed(who, from_who)
    first = not hand.wins
    sticks = hand.sticks + len(tracker.riichi) if first else 0
    riichi = facts["riichi"] or facts["double_riichi"]
    return Win(winner=who, from_who=from_who, concealed=concealed, melds=list(tracker.melds[who]),
               winning_tile=tracker.last_tile, dora=list(dora), ura=list(ura) if riichi else [],
               honba=hand.honba if first else 0, sticks=sticks, pao=pao, log=score, changes=changes, **facts)


# The situation a win's yaku name, for a results-only hand (no events to read it from).
SITUATIONS = {1: "riichi", 21: "double_riichi", 2: "ippatsu", 4: "rinshan", 3: "chankan", 5: "haitei", 6: "houtei",
              37: "tenhou", 38: "chiihou"}
FLAG_FACTS = {"wriichi": "double_riichi", "ippatsu": "ippatsu", "gang": "rinshan", "qiang": "chankan",
              "tian": "tenhou", "di": "chiihou"}


def _results_only(reader: _JsonReader, hand: Hand, start: list[list[str]], takes: list[list[Any]],
                  gives: list[list[Any]], result: Any, dora: list[str], ura: list[str], path: str,
                  info: dict[str, Any] | None) -> Hand:
    """A hand written with its start and result only (mjcalc.logs.export, or another tool): each winner's tiles
    dealt are its concealed tiles, its calls among its tiles taken and given, the winning tile the one it takes
    (self-drawn) or its discarder gives; the situation from mjcalc's key, else from the yaku listed."""
    result = reader.list(result, f"{path}[16]")
    if not result or not isinstance(result[0], str):
        raise reader.fail(f"{path}[16]", "the result has no name")
    riichi = _players_of(reader, info, "riichi", f"mjcalc.hands[{path}]")
    if riichi is None:
        riichi = [p for p in range(4) if any(isinstance(x, str) and x.startswith("r") for x in gives[p])]
    name = result[0]
    if name != "和了":
        changes = [0, 0, 0, 0]
        if len(result) > 1:
            changes = [reader.number(x, f"{path}[16][1][{j}]")
                       for j, x in enumerate(reader.list(result[1], f"{path}[16][1]", 4))]
        ready = _players_of(reader, info, "ready", f"mjcalc.hands[{path}]")
        nagashi = _players_of(reader, info, "nagashi", f"mjcalc.hands[{path}]")
        if name in ABORTS:
            hand.draw = Draw(ABORTS[name], changes=changes)
        elif name == "流し満貫":
            hand.draw = Draw("nagashi", ready=ready or [], changes=changes,
                             nagashi=nagashi if nagashi is not None else [p for p in range(4) if changes[p] > 0])
        elif name in ("流局", "全員聴牌", "全員不聴"):
            if ready is None:
                ready = [0, 1, 2, 3] if name == "全員聴牌" else [p for p in range(4) if changes[p] > 0]
            hand.draw = Draw("exhaustive", ready=ready, changes=changes)
        else:
            raise reader.fail(f"{path}[16][0]", f"unknown result {name!r}")
        hand.riichi = riichi or []
        return hand
    if len(result) < 3 or len(result) % 2 != 1:
        raise reader.fail(f"{path}[16]", "a win needs its changes and its detail, per winner")
    flags = info.get("flags") if info is not None else None
    wins: list[Win] = []
    declared: list[int] = []
    for n, k in enumerate(range(1, len(result), 2)):
        where = f"{path}[16][{k + 1}]"
        changes = [reader.number(x, f"{path}[16][{k}][{j}]")
                   for j, x in enumerate(reader.list(result[k], f"{path}[16][{k}]", 4))]
        detail = reader.list(result[k + 1], where)
        if len(detail) < 4:
            raise reader.fail(where, "expected winner, from, liable player and points")
        who, from_who, pao = (reader.number(detail[j], f"{where}[{j}]") for j in range(3))
        if not all(0 <= p < 4 for p in (who, from_who, pao)):
            raise reader.fail(where, "players are 0–3")
        tsumo = who == from_who
        score = _score(reader, detail, tsumo, where)
        fus = info.get("fu") if info is not None else None
        if score.fu is None and not score.yakuman and isinstance(fus, list) and n < len(fus) and \
                isinstance(fus[n], int):
            score.fu = fus[n]  # a limit's points string gives no fu: mjcalc's key keeps the log's
        melds = [reader.call(t, who, f"{path}[{5 + 3 * who}]") for t in takes[who] if isinstance(t, str)]
        melds += [reader.call(t, who, f"{path}[{6 + 3 * who}]") for t in gives[who]
                  if isinstance(t, str) and not t.startswith("r")]
        source = takes[who] if tsumo else gives[from_who]
        tiles = [t for t in source if isinstance(t, int) and not isinstance(t, bool)]
        if not tiles:
            raise reader.fail(f"{path}[{(5 if tsumo else 6) + 3 * (who if tsumo else from_who)}]",
                              "a results-only hand names its winning tile: the tile taken (self-drawn) or given "
                              "(on a discard)")
        winning = reader.tile(tiles[-1] if tsumo else tiles[min(sum(w.from_who is not None for w in wins),
                                                                 len(tiles) - 1)], path)
        facts = {fact: False for fact in ("riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei",
                                          "houtei", "tenhou", "chiihou")}
        named = flags[n] if isinstance(flags, list) and n < len(flags) and isinstance(flags[n], list) else None
        if named is not None:
            for flag in named:
                if flag in FLAG_FACTS:
                    facts[FLAG_FACTS[flag]] = True
                elif flag == "last":
                    facts["haitei" if tsumo else "houtei"] = True
        else:
            for number, _ in score.yaku:
                if number in SITUATIONS:
                    facts[SITUATIONS[number]] = True
        in_riichi = who in riichi or facts["riichi"] or facts["double_riichi"]
        facts["riichi"] = in_riichi and not facts["double_riichi"]
        if in_riichi and who not in declared:
            declared.append(who)
        first = not wins
        wins.append(Win(winner=who, from_who=None if tsumo else from_who, concealed=start[who] + [winning],
                        melds=melds, winning_tile=winning, dora=list(dora),
                        ura=list(ura) if in_riichi else [], honba=hand.honba if first else 0,
                        sticks=hand.sticks + len(set(riichi) | {who} if in_riichi else riichi) if first else 0,
                        pao=None if pao == who else pao, log=score, changes=changes, **facts))
    riichi = riichi + [p for p in declared if p not in riichi]
    wins[0].sticks = hand.sticks + len(riichi)
    order = info.get("order") if info is not None else None
    if isinstance(order, list) and sorted(order) == sorted(w.winner for w in wins):
        wins.sort(key=lambda w: order.index(w.winner))
    hand.wins = wins
    hand.riichi = riichi
    return hand


def _score(reader: _JsonReader, detail: list[Any], tsumo: bool, where: str) -> LogScore:
    """A win's points string and yaku, as the log writes them."""
    fu, points, limit = _points(reader, str(detail[3]), tsumo, f"{where}[3]")
    yaku: list[tuple[int, int]] = []
    for j, text in enumerate(detail[4:], 4):
        m = _YAKU.fullmatch(str(text))
        if not m:
            raise reader.fail(f"{where}[{j}]", f"{text!r} is not a yaku with its han")
        label = m.group(1) or m.group(3) or m.group(4)
        han = int(m.group(2)) if m.group(2) else 13 * int(m.group(5) or 1)
        if label not in YAKU_BY_NAME:
            raise reader.fail(f"{where}[{j}]", f"unknown yaku {label!r}")
        yaku.append((YAKU_BY_NAME[label], han))
    score = LogScore(han=sum(h for _, h in yaku), fu=fu, points=points, limit=limit, yaku=yaku)
    if score.yakuman:
        score.fu = None
    return score
