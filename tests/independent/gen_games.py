"""Seeded games in GAME.md's JSON Lines for the ten rulesets and presets (issue 33's hidden-set generator).

Three kinds, each game one file ``OUT/<rules>/<kind>-<name>.jsonl``, listed in ``OUT/manifest.json``:

- ``random``: random but valid games — wins with real winning lines (from the hand generators of tests/ and
  tests/cases, each checked to score as a win in its seat), two winners on one discard (riichi), draws with
  ready players, riichi declarations, other players' kongs (north-eastern families), penalties, false wins,
  aborts, nagashi, pao; each game replayed as it is built (game_ref), so every line applies.
- ``edge``: hand-made games at the edges GAME.md draws (bust at exactly 0 and below, sudden death at exactly
  30000, the West / North extension, tonpuu, the last dealer's stop, ties, leftover deposits, rounding with
  500 cases, nagashi, triple ron pay / abort, MCR's 16 hands, Taiwan's 连N, …).
- ``bad``: records with lines that are errors; the manifest gives each bad line's number (``errors``): those
  lines are errors, every other line is replayed.

    python tests/independent/gen_games.py OUT [--seed 33] [--per-ruleset 300] [--rules riichi,mcr] [--expect]

``--expect`` also writes each game's sheet as game_ref computes it (``<file>.sheet.json``). Features whose
reading is an open question of GAME_QUESTIONS.md would be left out of random games unless ``--open-questions``
(none at present: the preset hands and changchun-mil's special kongs are settled and generated).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections import Counter
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
for path in (HERE, os.path.dirname(HERE)):
    if path not in sys.path:
        sys.path.insert(0, path)

import game_ref as ref  # noqa: E402
from game_ref import Game, GameError  # noqa: E402

PLAYERS = ["A", "B", "C", "D"]
# Flags the game fills in (or that would make hand payments differ from the game's options): stripped from
# the lines the hand generators write.
STRIP = {"seat", "round", "from", "zimo", "tsumo", "自摸", "honba", "sticks", "lian", "riichi", "dealer", "base",
         "cap", "rules"}
FLAG_RE = re.compile(r"\s*\+([^\s+=]+)(?:=[^\s+]*)?")


def strip_flags(line: str) -> str:
    def keep(m: re.Match[str]) -> str:
        return "" if m.group(1).lower() in STRIP else m.group(0)
    return re.sub(r"\s+", " ", FLAG_RE.sub(keep, line)).strip()


def line_tiles(line: str) -> Counter[str]:
    """Tiles of a line's groups (flags, flowers and unreadable groups left out)."""
    out: Counter[str] = Counter()
    for word in re.sub(r"\+\S*", " ", line).split():
        inner = word.strip("[](){}")
        try:
            out.update(t for t in ref.tiles_of(inner))
        except ValueError:
            continue
    return out


# ---------------------------------------------------------------------------------------------------------
# pools of winning lines

_POOLS: dict[str, list[str]] = {}


def _candidates(rules: str, n: int, seed: int) -> list[str]:
    lines: list[str] = []
    if rules in ("changchun", "changchun-mil", "jilin"):
        import gen
        lines += [line for line, _ in gen.situations(n, seed, rules)]
    elif rules == "meihe":
        import gen_meihe
        lines += [line for line, _ in gen_meihe.situations(n, seed)]
    elif rules.startswith("taiwan"):
        import gen_taiwan
        lines += [line for line, _, r in gen_taiwan.situations(3 * n, seed) if r == rules]
    elif rules == "mcr":
        import mcr_hands
        lines += [s.line() for s in mcr_hands.generate(n, seed) if not s.gb]
    else:
        import riichi_situations
        lines += [s.line() for s in riichi_situations.generate(n, seed)]
    cases = os.path.join(os.path.dirname(HERE), "cases", f"{ref.cases_rules(rules)}.yaml")
    if os.path.exists(cases):
        import yaml
        with open(cases, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        for c in doc.get("cases", []):
            if isinstance(c, dict) and isinstance(c.get("hand"), str) and not c.get("set") and "|" not in c["hand"]:
                lines.append(c["hand"])
    return [x for x in (strip_flags(line) for line in lines) if "|" not in x]


def pool(rules: str) -> list[str]:
    """Lines that score as a win under `rules` in at least one plain context (seat S, a discard or self-drawn;
    riichi also with +riichi)."""
    if rules in _POOLS:
        return _POOLS[rules]
    import mjcalc
    srules = ref.scorer_rules(rules)
    opts = ref.hand_defaults_of(rules)
    kept: list[tuple[int, str]] = []
    seen: set[str] = set()
    for line in _candidates(rules, 500, 3300 + len(rules)):
        if line in seen:
            continue
        seen.add(line)
        tries = [" +seat=S +from=N", " +seat=S +zimo", " +seat=E +zimo", " +seat=W +from=E"]
        if srules.startswith("riichi") and "+wriichi" not in line:
            tries += [t + " +riichi" for t in tries]
        for t in tries:
            r = mjcalc.score(line + t, rules=srules, options=opts)
            if r["result"] == "win":
                kept.append((int(r["points"]), line))
                break
    kept.sort()
    _POOLS[rules] = [line for _, line in kept]       # cheapest first: pick() favours them
    limit = 5200 if srules.startswith("riichi") else kept[int(len(kept) * 0.8)][0]
    _CHEAP[rules] = max(1, sum(1 for pts, _ in kept if pts <= limit))
    return _POOLS[rules]


_CHEAP: dict[str, int] = {}


def pick(rng: random.Random, lines: list[str], rules: str | None = None) -> str:
    """A line of a pool: nineteen times in twenty one of the cheap hands (riichi: up to a mangan in a plain
    context), so that games last as real ones do; now and then a limit hand."""
    cheap = _CHEAP.get(rules or "", len(lines))
    if rng.random() < 0.95:
        return lines[rng.randrange(cheap)]
    return lines[rng.randrange(len(lines))]


# ---------------------------------------------------------------------------------------------------------
# building a game result by result

class Builder:
    def __init__(self, rules: str, sets: dict[str, Any] | None = None, dealer: str | None = None,
                 open_questions: bool = False):
        head: dict[str, Any] = {"players": list(PLAYERS), "rules": rules, "set": dict(sets or {})}
        if dealer is not None:
            head["dealer"] = dealer
        self.header = {"game": head}
        self.game = Game(self.header)
        self.records: list[dict[str, Any]] = [self.header]
        self.rules = rules
        self.open = open_questions

    def name(self, i: int) -> str:
        return self.game.players[i]

    def add(self, result: dict[str, Any]) -> bool:
        try:
            self.game.apply(result)
        except GameError:
            return False
        self.records.append(result)
        return True

    def must(self, result: dict[str, Any]) -> None:
        try:
            self.game.apply(result)
        except GameError as exc:
            raise AssertionError(f"{self.rules}: {result}: {exc}") from None
        self.records.append(result)

    def win(self, rng: random.Random, winner: int, frm: int | None, riichi: list[int] | None = None,
            kongs: dict[str, list[str]] | None = None, tries: int = 40, lines: list[str] | None = None,
            pao: int | None = None) -> bool:
        """A win by `winner` (player index) from `frm` (None: self-drawn) with a line of the pool."""
        riichi = list(riichi or [])
        for _ in range(tries):
            line = rng.choice(lines) if lines else pick(rng, pool(self.rules), self.rules)
            decl = list(riichi)
            if self.game.family == "riichi" and any(f in line for f in ("+wriichi", "+ippatsu", "+ura")):
                if winner not in decl:
                    if self.game.scores[winner] < 1000:
                        continue
                    decl.append(winner)
            elif self.game.family == "riichi" and winner not in decl and rng.random() < 0.5 \
                    and self.game.scores[winner] >= 1000 and "[" not in line:
                decl.append(winner)
            k = kongs_for(self.rules, line, kongs) if kongs else None
            if kongs and k is None:
                continue
            w: dict[str, Any] = {"winner": self.name(winner)}
            if frm is not None:
                w["from"] = self.name(frm)
            w["hand"] = line
            if pao is not None:
                w["pao"] = self.name(pao)
            result: dict[str, Any] = {"win": [w]}
            if decl:
                result["riichi"] = [self.name(i) for i in decl]
            if k:
                result["kongs"] = k
            if self.add(result):
                return True
        return False


def kongs_for(rules: str, line: str, kongs: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
    """The kongs, if their tiles fit beside the winning line's (at most four of a kind)."""
    if not kongs:
        return kongs
    count = line_tiles(line)
    for melds in kongs.values():
        for m in melds:
            count.update(ref.tiles_of(m.strip("[](){}")))
    return kongs if all(v <= 4 for v in count.values()) else None


def kong_menu(rules: str, open_questions: bool) -> list[str]:
    """Kongs a non-winner may show under `rules` (special kongs with and without added tiles)."""
    plain = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    menu = [f"[{t[0] * 4}{t[1]}]" for t in plain] + [f"({t[0] * 4}{t[1]})" for t in plain]
    specials = {"changchun": ["{1234z}", "{12341z}", "{567z}", "{5677z}", "{1m1p1s}", "{1m1p1s1s}", "{9m9p9s}",
                              "{9m9p9s9p}"],
                "jilin": ["{1234z}", "{12344z}", "{567z}", "{5567z}"],
                "meihe": ["{567z}", "{5677z}", "{1234z}", "{12342z}", "{1m1p1s}", "{1m1p1s9m}", "{9m9p9s}",
                          "{9m9p9s9s}"],
                "changchun-mil": ["{1234z}", "{567z}", "{5677z}", "{1m1p1s}", "{9m9p9s}", "{123z1s}"]}
    menu += specials[rules]       # (changchun-mil's were an open question: GAME_QUESTIONS 24, settled)
    return menu


def random_kongs(rng: random.Random, rules: str, exclude: list[int], players: list[str],
                 open_questions: bool, hui: str | None = None) -> dict[str, list[str]]:
    menu = kong_menu(rules, open_questions)
    if hui is not None:
        menu = [m for m in menu if not (m.startswith("[") and ref.tiles_of(m[1:-1])[0] == hui)]
        menu += [f"({hui[0] * 4}{hui[1]})"]          # a 黄金杠 now and then
    who = [i for i in range(4) if i not in exclude]
    out: dict[str, list[str]] = {}
    count: Counter[str] = Counter()
    for i in rng.sample(who, rng.choice([1, 1, 1, 2])):
        melds = []
        for _ in range(rng.choice([1, 1, 2])):
            m = rng.choice(menu)
            c = Counter(ref.tiles_of(m.strip("[](){}")))
            if all(count[t] + c[t] <= 4 for t in c):
                count.update(c)
                melds.append(m)
        if melds:
            out[players[i]] = melds
    return out


# ---------------------------------------------------------------------------------------------------------
# random games by family

def random_riichi(rules: str, rng: random.Random, open_questions: bool = False) -> list[dict[str, Any]]:
    sets: dict[str, Any] = {}
    if rng.random() < 0.2:
        sets["length"] = "tonpuu"
    if rules == "riichi" and rng.random() < 0.5:
        sets["extension"] = rng.choice(["rounds", "sudden_death", "none"])
    if rng.random() < 0.2:
        sets["triple_ron"] = "pay"
    if rng.random() < 0.15:
        sets["nagashi"] = "off"
    if rng.random() < 0.25:
        sets["leftover"] = rng.choice(["to_first", "lost"])
    if rules == "riichi-tenhou" and rng.random() < 0.3:
        sets["rounding"] = "thousand"
    if rng.random() < 0.1:
        sets["start"] = rng.choice([20000, 30000])
    first = rng.choice(PLAYERS) if rng.random() < 0.2 else None
    b = Builder(rules, sets, dealer=first, open_questions=open_questions)
    g = b.game
    while not g.ended and len(b.records) < 160:
        decl = [i for i in range(4) if g.scores[i] >= 1000 and rng.random() < 0.12]
        x = rng.random()
        if x < 0.58:
            winner = rng.randrange(4)
            frm = None if rng.random() < 0.35 else rng.choice([j for j in range(4) if j != winner])
            if b.win(rng, winner, frm, decl):
                continue
        elif x < 0.63:                   # two (or, under triple_ron: pay, three) winners on one discard
            frm = rng.randrange(4)
            n = 3 if g.opts["triple_ron"] == "pay" and rng.random() < 0.3 else 2
            winners = rng.sample([j for j in range(4) if j != frm], n)
            if multi_win(b, rng, winners, frm, decl):
                continue
        elif x < 0.635:                  # pao: a 大三元 on three dragon pons, the liable player named
            winner = rng.randrange(4)
            liable = rng.choice([j for j in range(4) if j != winner])
            frm = None if rng.random() < 0.5 else rng.choice([j for j in range(4) if j != winner])
            if b.win(rng, winner, frm, [], lines=pao_lines(rng), pao=liable):
                continue
        elif x < 0.68:
            kind = rng.choice(["nine_terminals", "four_winds", "four_kongs", "four_riichi", "triple_ron"])
            res: dict[str, Any] = {"abort": kind}
            if kind == "four_riichi":
                if min(g.scores) < 1000:
                    continue
                res["riichi"] = list(g.players)
            elif kind == "triple_ron" and g.opts["triple_ron"] == "pay":
                continue
            elif decl and kind == "four_kongs":
                res["riichi"] = [b.name(i) for i in decl]
            if b.add(res):
                continue
        elif x < 0.70:
            if b.add({"penalty": {"player": rng.choice(PLAYERS), "kind": "false_win"}}):
                continue
        elif x < 0.72:
            off = rng.choice(PLAYERS)
            to = rng.choice(["table", "table", "each", rng.choice([p for p in PLAYERS if p != off])])
            if b.add({"penalty": {"player": off, "amount": 1000 if to != "each" else 300, "to": to}}):
                continue
        # an exhaustive draw (also the fallback when a chosen result did not apply)
        ready = sorted(set(decl) | {i for i in range(4) if rng.random() < 0.4})
        draw: dict[str, Any] = {"ready": [b.name(i) for i in ready], "nagashi": []}
        if g.opts["nagashi"] and rng.random() < 0.06:
            draw["nagashi"] = [b.name(rng.randrange(4))]
        res = {"draw": draw}
        if decl:
            res["riichi"] = [b.name(i) for i in decl]
        if not b.add(res):
            b.must({"draw": {"ready": [], "nagashi": []}})
    return b.records


def multi_win(b: Builder, rng: random.Random, winners: list[int], frm: int, decl: list[int]) -> bool:
    choices = pool(b.rules)
    for _ in range(25):
        ws = [{"winner": b.name(w), "from": b.name(frm), "hand": pick(rng, choices, b.rules)} for w in winners]
        res: dict[str, Any] = {"win": ws}
        d = list(decl)
        for w, item in zip(winners, ws):
            if any(f in item["hand"] for f in ("+wriichi", "+ippatsu", "+ura")) and w not in d:
                if b.game.scores[w] < 1000:
                    break
                d.append(w)
        else:
            if d:
                res["riichi"] = [b.name(i) for i in d]
            if b.add(res):
                return True
    return False


def pao_lines(rng: random.Random) -> list[str]:
    out = []
    for _ in range(6):
        s = rng.choice("mps")
        a = rng.randrange(1, 8)
        pair = rng.choice([f"{n}{t}" for t in "mps" for n in range(1, 10) if not (t == s and a <= n <= a + 2)])
        out.append(f"{a}{a + 1}{s}{pair[0] * 2}{pair[1]} [555z] [666z] [777z] {a + 2}{s}")
    return out


def random_north_east(rules: str, rng: random.Random, open_questions: bool = False) -> list[dict[str, Any]]:
    sets: dict[str, Any] = {}
    x = rng.random()
    if x < 0.4:
        sets["hands"] = rng.randrange(4, 25)
    elif x < 0.7:
        sets["rounds"] = rng.choice([1, 1, 2])
    if rng.random() < 0.15:
        sets["base"] = rng.choice([2, 5])
    if rng.random() < 0.1:
        sets["start"] = rng.choice([100, 1000])
    b = Builder(rules, sets, dealer=rng.choice(PLAYERS) if rng.random() < 0.2 else None,
                open_questions=open_questions)
    g = b.game
    stop = rng.randrange(6, 30)
    while not g.ended and len(b.records) - 1 < (stop if g.opts["hands"] is None and g.opts["rounds"] is None
                                                 else 200):
        x = rng.random()
        if x < 0.78:
            winner = rng.randrange(4)
            frm = None if rng.random() < 0.4 else rng.choice([j for j in range(4) if j != winner])
            kongs = None
            if rng.random() < 0.3:
                kongs = random_kongs(rng, rules, [winner], g.players, open_questions)
            if b.win(rng, winner, frm, kongs=kongs):
                continue
        elif x < 0.83:
            off = rng.choice(PLAYERS)
            to = rng.choice(["each", "table", rng.choice([p for p in PLAYERS if p != off])])
            if b.add({"penalty": {"player": off, "amount": rng.choice([1, 2, 5, 10]), "to": to}}):
                continue
        res: dict[str, Any] = {"draw": {"ready": [p for p in PLAYERS if rng.random() < 0.4], "nagashi": []}}
        if rng.random() < 0.5:
            hui = None
            if rules == "meihe":
                hui = rng.choice([f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["1z", "5z"])
                res["hui"] = hui
            k = random_kongs(rng, rules, [], g.players, open_questions, hui)
            if k:
                res["kongs"] = k
            elif "hui" in res:
                del res["hui"]
        if not b.add(res):
            b.must({"draw": {"ready": [], "nagashi": []}})
    return b.records


def random_taiwan(rules: str, rng: random.Random, open_questions: bool = False) -> list[dict[str, Any]]:
    sets: dict[str, Any] = {}
    if rng.random() < 0.5:
        sets["rounds"] = rng.choice([1, 2])
    elif rng.random() < 0.2:
        sets["hands"] = rng.randrange(4, 20)
    b = Builder(rules, sets, dealer=rng.choice(PLAYERS) if rng.random() < 0.2 else None)
    g = b.game
    while not g.ended and len(b.records) < 200:
        x = rng.random()
        if x < 0.82:
            # the dealer wins more often than a quarter, so that streaks (连N) grow
            winner = g.dealer if rng.random() < 0.35 else rng.randrange(4)
            frm = None if rng.random() < 0.35 else rng.choice([j for j in range(4) if j != winner])
            if b.win(rng, winner, frm):
                continue
        elif x < 0.85:
            off = rng.choice(PLAYERS)
            to = rng.choice(["each", rng.choice([p for p in PLAYERS if p != off])])
            if b.add({"penalty": {"player": off, "amount": rng.choice([10, 50, 100]), "to": to}}):
                continue
        b.must({"draw": {"ready": [p for p in PLAYERS if rng.random() < 0.4], "nagashi": []}})
    return b.records


def random_mcr(rules: str, rng: random.Random, open_questions: bool = False) -> list[dict[str, Any]]:
    b = Builder(rules, {}, dealer=rng.choice(PLAYERS) if rng.random() < 0.2 else None)
    g = b.game
    while not g.ended and len(b.records) < 100:
        x = rng.random()
        if x < 0.05:
            b.must({"penalty": {"player": rng.choice(PLAYERS), "kind": "false_win"}})
            continue
        if x < 0.82:
            winner = rng.randrange(4)
            frm = None if rng.random() < 0.35 else rng.choice([j for j in range(4) if j != winner])
            if b.win(rng, winner, frm):
                continue
        b.must({"draw": {"ready": [p for p in PLAYERS if rng.random() < 0.4], "nagashi": []}})
    return b.records


def random_game(rules: str, rng: random.Random, open_questions: bool = False) -> list[dict[str, Any]]:
    fam = ref.family_of(rules)
    make = {"riichi": random_riichi, "north_east": random_north_east, "taiwan": random_taiwan,
            "mcr": random_mcr}[fam]
    return make(rules, rng, open_questions)


# ---------------------------------------------------------------------------------------------------------
# hand-made edge games

RIICHI_LINE = "123m456p789s23s55p 1s"      # 平和 (with 立直: 2 han 30 fu; ron 2000, dealer 2900)
NONE_READY = {"draw": {"ready": [], "nagashi": []}}


def pen(off: str, amount: int, to: str) -> dict[str, Any]:
    return {"penalty": {"player": off, "amount": amount, "to": to}}


def edge_games(rng: random.Random) -> list[tuple[str, str, list[dict[str, Any]], str]]:
    """(rules, name, records, what it shows)."""
    out: list[tuple[str, str, list[dict[str, Any]], str]] = []

    def game(rules: str, sets: dict[str, Any] | None = None, dealer: str | None = None) -> Builder:
        return Builder(rules, sets, dealer)

    def draws(b: Builder, n: int) -> None:
        for _ in range(n):
            if not b.game.ended:
                b.must(NONE_READY)

    # riichi: extension into West and North, and the end after North
    b = game("riichi")
    draws(b, 16)
    out.append(("riichi", "west-north-extension", b.records, "nobody reaches 30000: West, then North, then the end"))
    b = game("riichi")
    b.must(pen("B", 5000, "A"))
    draws(b, 8)
    out.append(("riichi", "no-extension-at-30000", b.records, "A holds exactly 30000 after South 4: the game ends"))
    b = game("riichi")
    b.must(pen("B", 4900, "A"))
    draws(b, 12)
    out.append(("riichi", "extension-at-29900", b.records, "A holds 29900: West is played, then the end"))
    b = game("riichi")
    b.must(pen("B", 25000, "A"))
    b.must(NONE_READY)
    b.must(pen("B", 100, "C"))
    out.append(("riichi", "bust-at-zero-then-below", b.records, "0 is not below zero; -100 ends at once"))
    b = game("riichi")
    b.must(pen("B", 24000, "C"))
    b.must({"win": [{"winner": "A", "from": "B", "hand": RIICHI_LINE}], "riichi": ["A"]})
    out.append(("riichi", "bust-by-a-win", b.records, "B at 1000 deals into the dealer's 2900: bust"))
    b = game("riichi", {"length": "tonpuu"})
    draws(b, 8)
    out.append(("riichi", "tonpuu-extension-south", b.records, "tonpuu: South at most"))
    b = game("riichi", {"length": "tonpuu"})
    b.must(pen("C", 6000, "D"))
    draws(b, 4)
    out.append(("riichi", "tonpuu-ends-after-east", b.records, "tonpuu: D holds 31000 after East 4"))
    b = game("riichi", {"extension": "none"})
    draws(b, 7)
    b.must({"draw": {"ready": ["B", "C"], "nagashi": []}, "riichi": ["B", "C"]})
    out.append(("riichi", "leftover-to-first", b.records, "two deposits left at the end go to the first"))
    b = game("riichi", {"extension": "none", "leftover": "lost"})
    draws(b, 7)
    b.must({"draw": {"ready": ["B", "C"], "nagashi": []}, "riichi": ["B", "C"]})
    out.append(("riichi", "leftover-lost", b.records, "two deposits left at the end are lost"))
    b = game("riichi")
    b.must({"draw": {"ready": ["A"], "nagashi": ["C"]}})
    b.must({"draw": {"ready": ["C"], "nagashi": ["A"]}, "riichi": ["C"]})
    b.must({"draw": {"ready": [], "nagashi": ["B", "D"]}})
    b.must({"draw": {"ready": ["A"], "nagashi": []}})
    b.must({"draw": {"ready": ["A", "B"], "nagashi": []}})
    b.must({"draw": {"ready": ["A", "B", "C"], "nagashi": []}})
    b.must({"draw": {"ready": ["A", "B", "C", "D"], "nagashi": []}})
    out.append(("riichi", "nagashi-and-ready-payments", b.records, "nagashi by a non-dealer, the dealer, two; "
                "ready payments 1, 2, 3, 4 ready"))
    b = game("riichi", {"triple_ron": "pay"})
    b.must({"draw": {"ready": ["B"], "nagashi": []}, "riichi": ["B"]})
    assert b.add({"win": [{"winner": p, "from": "A", "hand": RIICHI_LINE} for p in ("B", "C", "D")],
                  "riichi": ["C", "D"]})
    out.append(("riichi", "triple-ron-pay", b.records, "three winners paid; the nearest takes honba and table"))
    b = game("riichi")
    b.must({"abort": "triple_ron"})
    b.must({"abort": "four_riichi", "riichi": ["A", "B", "C", "D"]})
    assert b.add({"win": [{"winner": "B", "from": "D", "hand": RIICHI_LINE}], "riichi": ["B"]})
    out.append(("riichi", "triple-ron-abort-four-riichi", b.records, "aborts: same dealer, honba +1, deposits stay"))
    b = game("riichi")
    b.must({"draw": {"ready": ["A"], "nagashi": []}})
    assert b.add({"win": [{"winner": "C", "from": "B", "hand": RIICHI_LINE},
                          {"winner": "A", "from": "B", "hand": RIICHI_LINE}], "riichi": ["A", "C"]})
    assert b.add({"win": [{"winner": "D", "from": "B", "hand": RIICHI_LINE},
                          {"winner": "C", "from": "B", "hand": RIICHI_LINE}], "riichi": ["D"]})
    out.append(("riichi", "double-ron-nearest", b.records, "two winners: the nearest to the discarder takes honba "
                "and table; the dealer among them repeats"))
    b = game("riichi")
    b.must({"penalty": {"player": "A", "kind": "false_win"}})
    b.must({"penalty": {"player": "C", "kind": "false_win"}})
    b.must({"draw": {"ready": ["B"], "nagashi": []}})
    b.must({"penalty": {"player": "B", "kind": "false_win"}})
    out.append(("riichi", "false-wins", b.records, "chombo: 4000 each from the dealer; 4000/2000 otherwise; redeal"))
    b = game("riichi", {"start": 50000})
    assert b.add({"win": [{"winner": "B", "hand": "23m11s [555z] [666z] [777z] 4m", "pao": "C"}]})
    assert b.add({"win": [{"winner": "D", "from": "A", "hand": "67p99s [555z] [666z] [777z] 8p", "pao": "B"}]})
    out.append(("riichi", "pao", b.records, "pao on a self-draw and on a discard"))
    # what each riichi ruleset decides for itself: who pays a pao ron's honba, double yakuman, kiriage
    for rules in ("riichi", "riichi-tenhou", "riichi-mleague"):
        b = game(rules, {"start": 150000})
        b.must({"draw": {"ready": ["A"], "nagashi": []}})
        b.must({"draw": {"ready": ["A"], "nagashi": []}})
        assert b.add({"win": [{"winner": "C", "from": "B", "hand": "67p99s [555z] [666z] [777z] 8p", "pao": "D"}]})
        assert b.add({"win": [{"winner": "A", "from": "C", "hand": "19m19p19s1234567z 1m"}]})     # 13-sided kokushi
        assert b.add({"win": [{"winner": "B", "from": "C", "hand": "111m333p555s777z9s 9s"}]})    # suuankou tanki
        assert b.add({"win": [{"winner": "C", "from": "D", "hand": "123m456p789s23s55p 1s +dora=5p2s"}],
                      "riichi": ["C"]})                                                      # 4 han 30 fu
        assert b.add({"win": [{"winner": "D", "from": "A", "hand": "11p [111z] [222z] [333z] 44z 4z", "pao": "B"}]})
        out.append((rules, "preset-hands", b.records, "a pao ron at 2 honba (who pays the honba), double yakuman "
                    "(Tenhou: none), 4 han 30 fu (kiriage), daisuushii with pao"))
    # lines that write the flags the game fills in, agreeing with it
    flagged = {"riichi": (RIICHI_LINE, "+seat=S +round=E +from=W +honba=1 +sticks=2 +riichi"),
               "changchun": ("123m456p789s111z 22z", "+seat=S +from=W +round=E +honba=0 +lian=0"),
               "taiwan": (None, "+seat=S +round=E +from=W +lian=0"), "mcr": (None, "+seat=S +round=E +from=W")}
    for rules, (line, flags) in flagged.items():
        b = game(rules)
        if rules == "riichi":
            b.must({"draw": {"ready": ["A"], "nagashi": []}, "riichi": ["D"]})
            records = b.records + [{"win": [{"winner": "B", "from": "C", "hand": f"{line} {flags}"}], "riichi": ["B"]}]
        else:
            line = line or next(x for x in pool(rules) if "+" not in x and b.add(
                {"win": [{"winner": "B", "from": "C", "hand": f"{x} {flags}"}]}))
            records = b.records if line in str(b.records) else b.records + [
                {"win": [{"winner": "B", "from": "C", "hand": f"{line} {flags}"}]}]
        out.append((rules, "flags-written", records, "a winning line that writes the flags the game knows"))
    # penalties of odd amounts, and a table left at the end outside riichi
    b = game("riichi", {"extension": "none"})
    b.must(pen("B", 150, "each"))
    b.must(pen("C", 1500, "table"))
    b.must(NONE_READY)
    b.must(pen("D", 250, "A"))
    draws(b, 8)
    out.append(("riichi", "odd-penalties", b.records, "150 each, 1500 to the table (1 stick and 500 beside), "
                "250 to A; the table left at the end goes to first"))
    for rules, sets in (("taiwan", {"hands": 3}), ("mcr", {"hands": 3}), ("jilin", {"hands": 3})):
        b = game(rules, sets)
        b.must(pen("B", 7, "table"))
        draws(b, 3)
        out.append((rules, "table-left-at-the-end", b.records, "a penalty on the table nobody takes: first place's "
                    "at the end"))
    # riichi-tenhou: sudden death, the last dealer's stop, rounding
    b = game("riichi-tenhou")
    draws(b, 8)
    b.must(pen("C", 5000, "A"))
    draws(b, 1)
    out.append(("riichi-tenhou", "sudden-death-exactly-30000", b.records, "West 1: A at 30000 after a draw: end "
                "(the penalty alone does not end it)"))
    b = game("riichi-tenhou")
    draws(b, 8)
    b.must(pen("C", 4900, "A"))
    draws(b, 4)
    out.append(("riichi-tenhou", "sudden-death-29900", b.records, "West played out at 29900: the end after West 4"))
    b = game("riichi-tenhou")
    b.must(pen("A", 5000, "D"))
    draws(b, 7)
    b.must({"draw": {"ready": ["D"], "nagashi": []}})
    out.append(("riichi-tenhou", "last-dealer-stops", b.records, "South 4: D deals, ready, first with 33000: stops"))
    b = game("riichi-tenhou")
    b.must(pen("A", 5000, "D"))
    b.must(pen("C", 9000, "B"))
    draws(b, 7)
    b.must({"draw": {"ready": ["D"], "nagashi": []}})
    b.must(NONE_READY)
    out.append(("riichi-tenhou", "last-dealer-not-first", b.records, "South 4: D ready but B is first: D deals "
                "again; the next draw passes the deal and the game ends"))
    b = game("riichi-tenhou", {"rounding": "thousand"})
    b.must(pen("B", 500, "A"))
    b.must(pen("C", 500, "A"))
    b.must(pen("D", 9500, "A"))
    draws(b, 8)
    out.append(("riichi-tenhou", "rounding-thousand-500", b.records, "35500 → 36, 24500 → 25, 15500 → 16; "
                "B and C tie: seat order"))
    b = game("riichi-tenhou")
    b.must(pen("B", 500, "A"))
    b.must(pen("C", 500, "A"))
    b.must(pen("D", 9500, "A"))
    draws(b, 8)
    out.append(("riichi-tenhou", "rounding-none", b.records, "the same scores to one decimal"))
    b = game("riichi-tenhou", {"length": "tonpuu"})
    b.must(pen("A", 5000, "D"))
    draws(b, 3)
    assert b.add({"win": [{"winner": "D", "from": "B", "hand": RIICHI_LINE}], "riichi": ["D"]})
    out.append(("riichi-tenhou", "tonpuu-last-dealer-win", b.records, "East 4 dealer wins, first: stops"))
    # riichi-mleague: ties share uma and oka, no bust
    b = game("riichi-mleague")
    draws(b, 8)
    out.append(("riichi-mleague", "four-way-tie", b.records, "all at 25000: uma and oka shared"))
    b = game("riichi-mleague")
    b.must(pen("C", 3000, "A"))
    b.must(pen("D", 3000, "B"))
    draws(b, 8)
    out.append(("riichi-mleague", "tie-for-first-and-third", b.records, "A = B first, C = D third"))
    b = game("riichi-mleague")
    b.must(pen("D", 30000, "A"))
    draws(b, 8)
    out.append(("riichi-mleague", "no-bust", b.records, "D at -5000 plays on"))
    b = game("riichi-mleague")
    b.must(pen("D", 1300, "A"))
    b.must(pen("C", 700, "B"))
    draws(b, 8)
    out.append(("riichi-mleague", "one-decimal", b.records, "26300 and so on to one decimal"))
    # north-eastern: kongs on draws, dealer repeating on 荒庄, hands / rounds
    for rules in ("changchun", "changchun-mil", "jilin", "meihe"):
        b = game(rules, {"hands": 6})
        kong = {"changchun": ["[7777z]", "(1111p)", "{12341z}"], "changchun-mil": ["[7777z]", "(1111p)", "[2222m]"],
                "jilin": ["[1111m]", "(1111p)", "{5567z}"], "meihe": ["[1111s]", "(5555m)", "{12342z}"]}[rules]
        draw: dict[str, Any] = {"draw": {"ready": ["A"], "nagashi": []}, "kongs": {"B": kong[:2], "C": kong[2:]}}
        if rules == "meihe":
            draw["hui"] = "5m"
        b.must(draw)
        assert b.win(rng, 1, 2, kongs={"A": ["(3333m)"]}) or b.win(rng, 1, None)
        assert b.win(rng, 2, None)
        b.must(pen("D", 5, "table"))
        b.must(NONE_READY)
        assert b.win(rng, 2, 0)
        while not b.game.ended:
            b.must(NONE_READY)
        out.append((rules, "kongs-draws-hands", b.records, "kong money on 荒庄 and beside a win; the dealer repeats "
                    "on 荒庄; a penalty to the table taken by the next winner; hands: 6"))
    b = game("changchun", {"rounds": 1})
    for i in range(4):
        assert b.win(rng, (b.game.dealer + 1) % 4, None)
    out.append(("changchun", "rounds-1", b.records, "each player deals once: the end"))
    b = game("changchun", {}, dealer="C")
    assert b.win(rng, 0, None)
    b.must(NONE_READY)
    out.append(("changchun", "dealer-c-no-end", b.records, "C deals first (player 0 of the sheet); no end"))
    # Taiwan: 连N
    for rules in ("taiwan", "taiwan-common"):
        b = game(rules, {"rounds": 1})
        assert b.win(rng, 0, None)
        assert b.win(rng, 0, 2)
        b.must(NONE_READY)
        assert b.win(rng, 0, 1)
        assert b.win(rng, 3, 0)
        assert b.win(rng, 1, None)
        b.must(NONE_READY)
        b.must(pen("A", 10, "each"))
        while not b.game.ended:
            assert b.win(rng, (b.game.dealer + 1) % 4, None)
        out.append((rules, "lian", b.records, "the dealer's streak 0 1 2 3 4, then 0; a draw grows it"))
    # MCR: 16 hands, 错和
    b = game("mcr")
    b.must({"penalty": {"player": "B", "kind": "false_win"}})
    for i in range(16):
        if i % 3 == 0:
            assert b.win(rng, i % 4, None)
        else:
            b.must(NONE_READY)
    out.append(("mcr", "sixteen-hands", b.records, "the deal passes every hand; 错和 10 to each; ends after 16"))
    return out


# ---------------------------------------------------------------------------------------------------------
# bad records

def bad_games(rng: random.Random) -> list[tuple[str, str, list[str], list[int], str]]:
    """(rules, name, lines, the numbers of the lines that are errors, what is wrong)."""
    out: list[tuple[str, str, list[str], list[int], str]] = []

    def lines_of(records: list[Any]) -> list[str]:
        return [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]

    def bad(rules: str, name: str, records: list[Any], errors: list[int], what: str) -> None:
        out.append((rules, name, lines_of(records), errors, what))

    def base(rules: str, sets: dict[str, Any] | None = None) -> Builder:
        return Builder(rules, sets)

    for rules in ref.GAME_RULESETS:
        b = base(rules)
        if rules.startswith("riichi"):
            b.must({"win": [{"winner": "B", "from": "C", "hand": RIICHI_LINE}], "riichi": ["B"]})
        else:
            assert b.win(rng, 1, None)
        recs = b.records + ['{"draw": {"ready": ["A"], "nagashi": []}'] + [NONE_READY]
        bad(rules, "unparseable", recs, [3], "a line that is not JSON; the next line is still replayed")
        b = base(rules)
        recs = b.records + [{"draw": {"ready": ["Zed"], "nagashi": []}}, NONE_READY]
        bad(rules, "unknown-player", recs, [2], "a player who is not in the game")
    for rules in ("changchun", "changchun-mil", "jilin", "meihe", "taiwan", "taiwan-common", "mcr"):
        b = base(rules)
        p = pool(rules)
        two = {"win": [{"winner": "B", "from": "A", "hand": p[0]}, {"winner": "C", "from": "A", "hand": p[1]}]}
        bad(rules, "two-winners", b.records + [two, NONE_READY], [2], "two winners where only one may win (截胡)")
    for rules in ("riichi", "riichi-tenhou"):
        three = {"win": [{"winner": p, "from": "A", "hand": RIICHI_LINE} for p in ("B", "C", "D")]}
        bad(rules, "three-winners-abort", base(rules).records + [three, NONE_READY], [2],
            "three winners under triple_ron: abort")
        bad(rules, "abort-triple-ron-under-pay", base(rules, {"triple_ron": "pay"}).records
            + [{"abort": "triple_ron"}, NONE_READY], [2], "an abort for three winners under triple_ron: pay")
    for rules in ("changchun", "jilin", "meihe", "changchun-mil"):
        b = base(rules)
        recs = list(b.records)
        win = None
        for line in pool(rules):
            w = {"win": [{"winner": "B", "from": "C", "hand": line}]}
            if b.add(w):
                win = w
                break
        assert win is not None
        win = dict(win)
        win["kongs"] = {"B": ["[7777z]"]}
        bad(rules, "winner-under-kongs", recs + [win, NONE_READY], [2], "the winner listed under kongs")
        draw = {"draw": {"ready": [], "nagashi": []}, "kongs": {"C": ["[777z]"]}}
        if rules == "meihe":
            draw["hui"] = "5m"
        bad(rules, "not-a-kong", recs + [draw, NONE_READY], [2], "a pon listed as a kong")
    bad("jilin", "no-such-special-kong", base("jilin").records
        + [{"draw": {"ready": [], "nagashi": []}, "kongs": {"C": ["{1m1p1s}"]}}], [2], "jilin has no 幺蛋")
    bad("meihe", "draw-kongs-without-hui", base("meihe").records
        + [{"draw": {"ready": [], "nagashi": []}, "kongs": {"C": ["(5555m)"]}}], [2],
        "a Meihe draw listing kongs names the wildcard")
    for rules in ("taiwan", "taiwan-common", "mcr", "riichi", "riichi-tenhou", "riichi-mleague"):
        bad(rules, "kongs-without-kong-money", base(rules).records
            + [{"draw": {"ready": [], "nagashi": []}, "kongs": {"C": ["[7777z]"]}}, NONE_READY], [2],
            "kongs in a family that pays no kong money apart")
    # results after the end
    b = base("mcr")
    for _ in range(16):
        b.must(NONE_READY)
    bad("mcr", "after-the-end", b.records + [NONE_READY], [18], "a 17th hand")
    b = base("riichi")
    b.must(pen("B", 25100, "A"))
    bad("riichi", "after-bust", b.records + [NONE_READY], [3], "a result after a bust")
    b = base("changchun", {"hands": 2})
    b.must(NONE_READY)
    b.must(NONE_READY)
    bad("changchun", "after-hands", b.records + [pen("A", 1, "each")], [4], "a penalty after the last hand")
    b = base("riichi-mleague")
    for _ in range(8):
        b.must(NONE_READY)
    bad("riichi-mleague", "after-south-4", b.records + [NONE_READY], [10], "a hand after South 4")
    # riichi declarations
    for rules in ("riichi", "riichi-tenhou", "riichi-mleague"):
        b = base(rules)
        b.must(pen("C", 24500, "A"))
        recs = b.records + [{"draw": {"ready": ["C"], "nagashi": []}, "riichi": ["C"]}, NONE_READY]
        bad(rules, "riichi-under-1000", recs, [3], "C declares with 500")
        recs = base(rules).records + [{"win": [{"winner": "B", "from": "C", "hand": RIICHI_LINE + " +wriichi"}]},
                                       NONE_READY]
        bad(rules, "wriichi-not-declared", recs, [2], "+wriichi by a winner not listed in riichi")
        recs = base(rules).records + [{"win": [{"winner": "B", "from": "C", "hand": RIICHI_LINE + " +seat=E"}]},
                                       NONE_READY]
        bad(rules, "flag-contradicts", recs, [2], "+seat=E for a player sitting South")
        recs = base(rules).records + [{"win": [{"winner": "B", "from": "C", "hand": RIICHI_LINE + " +zimo"}]}]
        bad(rules, "zimo-with-from", recs, [2], "+zimo in the line, from in the result")
        recs = base(rules, {"nagashi": "off"}).records + [{"draw": {"ready": [], "nagashi": ["B"]}}]
        bad(rules, "nagashi-off", recs, [2], "nagashi while the option is off")
    for rules in ("changchun", "taiwan", "mcr"):
        recs = base(rules).records + [{"draw": {"ready": ["B"], "nagashi": []}, "riichi": ["B"]}]
        bad(rules, "riichi-outside-riichi", recs, [2], "riichi declarations outside riichi")
        recs = base(rules).records + [{"abort": "four_winds"}]
        bad(rules, "abort-outside-riichi", recs, [2], "an abortive draw outside riichi")
    bad("mcr", "not-a-win", base("mcr").records + [{"win": [{"winner": "B", "hand": "123m456p789s11z22z 3z"}]}],
        [2], "a line that is no win")
    bad("changchun", "bad-header", [{"game": {"players": ["A", "B", "C"], "rules": "changchun", "set": {}}},
                                    NONE_READY], [1, 2], "three players: the game line fails, its results too")
    return out


# ---------------------------------------------------------------------------------------------------------

def write(out: str, per: int, seed: int, rulesets: list[str], expect: bool, open_questions: bool) -> dict[str, Any]:
    manifest: dict[str, Any] = {"seed": seed, "per_ruleset": per, "games": []}

    def save(rules: str, name: str, lines: list[str], kind: str, errors: list[int], what: str) -> None:
        folder = os.path.join(out, rules)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{kind}-{name}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        item = {"file": os.path.relpath(path, out), "rules": rules, "kind": kind, "errors": errors, "what": what}
        if expect:
            sheets, errs = ref.replay(lines, item["file"])
            got = sorted(int(m.split(":")[1]) for m in errs)
            if got != errors:
                raise AssertionError(f"{item['file']}: error lines {got}, expected {errors}: {errs}")
            with open(path[:-len(".jsonl")] + ".sheet.json", "w", encoding="utf-8") as f:
                json.dump(sheets[0] if len(sheets) == 1 else sheets, f, ensure_ascii=False)
                f.write("\n")
        manifest["games"].append(item)

    for rules in rulesets:
        for i in range(per):
            rng = random.Random(f"{seed}/{rules}/{i}")
            records = random_game(rules, rng, open_questions)
            save(rules, f"{i:04d}", [json.dumps(r, ensure_ascii=False) for r in records], "random", [], "random game")
    rng = random.Random(f"{seed}/edge")
    for rules, name, records, what in edge_games(rng):
        if rules in rulesets:
            save(rules, name, [json.dumps(r, ensure_ascii=False) for r in records], "edge", [], what)
    rng = random.Random(f"{seed}/bad")
    for rules, name, lines, errors, what in bad_games(rng):
        if rules in rulesets:
            save(rules, name, lines, "bad", errors, what)
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, ensure_ascii=False, indent=1)
        f.write("\n")
    return manifest


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--per-ruleset", type=int, default=300)
    ap.add_argument("--rules", default=",".join(ref.GAME_RULESETS))
    ap.add_argument("--expect", action="store_true", help="also write each game's sheet from game_ref")
    ap.add_argument("--open-questions", action="store_true",
                    help="also generate what GAME_QUESTIONS.md leaves open (e.g. changchun-mil special kongs)")
    a = ap.parse_args(argv)
    rulesets = [r for r in a.rules.split(",") if r]
    for r in rulesets:
        if r not in ref.GAME_RULESETS:
            ap.error(f"unknown ruleset {r}")
    m = write(a.out, a.per_ruleset, a.seed, rulesets, a.expect, a.open_questions)
    kinds = Counter(g["kind"] for g in m["games"])
    print(f"{len(m['games'])} games in {a.out}: " + ", ".join(f"{v} {k}" for k, v in sorted(kinds.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
