"""An independent replayer of whole games, written from spec/GAME.md alone (issue 33's reference).

It reads a game record in GAME.md's JSON Lines (a ``{"game": …}`` line, then one result a line; a further
``{"game": …}`` line starts another game) and produces GAME.md's sheet JSON for each game. A hand's own
payments (a win's per-seat net) come from ``mjcalc.score`` as a black box; everything about the game —
rotation, rounds, honba, the table, draw payments, other players' kong money, pao where the hand scorer does
not do it, penalties, false wins, the end, extension, bust, ranking, points — is computed here from GAME.md.
The readings chosen where GAME.md is open are in GAME_QUESTIONS.md (each marked ``Q<n>`` below).

    python tests/independent/game_ref.py FILE.jsonl …   # one sheet per game, JSON Lines, on stdout
                                                        # errors as FILE:LINE: message on stderr, exit 2
"""

from __future__ import annotations

import copy
import json
import re
import sys
from fractions import Fraction
from typing import Any

import mjcalc

SEATS = "ESWN"
WIND_ZH = "东南西北"
GAME_RULESETS = ("changchun", "changchun-mil", "jilin", "meihe", "taiwan", "taiwan-common", "mcr", "riichi",
                 "riichi-tenhou", "riichi-mleague")
NORTH_EAST = ("changchun", "changchun-mil", "jilin", "meihe")

# Game options of GAME.md; every other key of "set" is a hand option, passed to the hand scorer.
GAME_OPTIONS = {"start", "length", "extension", "triple_ron", "nagashi", "leftover", "rounding", "rounds", "hands"}
CHOICES = {"length": ("hanchan", "tonpuu"), "extension": ("rounds", "sudden_death", "none"),
           "triple_ron": ("abort", "pay"), "leftover": ("to_first", "lost"), "rounding": ("none", "thousand")}
ABORTS = ("nine_terminals", "four_winds", "four_riichi", "four_kongs", "triple_ron")

# Flags the game fills in, by family (the ones each ruleset reads: rules/*.yaml `flags`).
FILLS = {"riichi": ("seat", "round", "from", "zimo", "honba", "sticks", "riichi"),
         "north_east": ("seat", "from", "zimo"),
         "taiwan": ("seat", "round", "from", "zimo", "lian"),
         "mcr": ("seat", "round", "from", "zimo")}

RETURN = 30000          # riichi presets: the return, and the 30000 of extension / sudden death / last dealer
MANGAN_DEALER, MANGAN_CHILD = 4000, 2000


class GameError(Exception):
    """A line that cannot be read or applied: the game's state is left as it was."""


# ---------------------------------------------------------------------------------------------------------
# rulesets as the game sees them

def family_of(rules: str) -> str:
    if rules.startswith("riichi"):
        return "riichi"
    if rules in NORTH_EAST:
        return "north_east"
    if rules.startswith("taiwan"):
        return "taiwan"
    return "mcr"


def defaults_of(rules: str) -> dict[str, Any]:
    """Game option defaults (GAME.md, by family and preset)."""
    fam = family_of(rules)
    d: dict[str, Any] = {"start": 25000 if fam == "riichi" else 0, "rounds": None, "hands": None}
    if fam == "riichi":
        d.update(length="hanchan", extension="rounds", triple_ron="abort", nagashi=True, leftover="to_first",
                 rounding="none")
        if rules == "riichi-tenhou":
            d["extension"] = "sudden_death"
        if rules == "riichi-mleague":
            d["extension"] = "none"
    elif fam == "taiwan":
        d["rounds"] = 4     # a game is one 将: four 圈
    elif fam == "mcr":
        d["rounds"] = 4     # sixteen hands: four rounds of four, the deal passing every hand
    if fam != "riichi":
        d["leftover"] = "to_first"   # Q: counters left at the end outside riichi
    return d


def hand_defaults_of(rules: str) -> dict[str, Any]:
    """Hand options the replayer sets beside the ruleset's own: none (Q9: a preset's hands are scored under the
    preset itself, which holds its hand options)."""
    return {}


def scorer_rules(rules: str) -> str:
    """The ruleset a win is scored under: the game's own, presets included (GAME.md "Logs of online games": wins
    are "re-scored by mjcalc under the game's rules (riichi-tenhou for Tenhou's own)")."""
    return rules


def cases_rules(rules: str) -> str:
    """The hand case file a ruleset's winning lines may come from (a preset's are its family's)."""
    return "riichi" if rules.startswith("riichi") else rules


# Kong money of the north-eastern families (GAME.md "Kongs"; the tables of spec/rules/*.md and rules/*.yaml),
# in points × base, paid to the owner by each of the other three.
KONGS: dict[str, dict[str, Any]] = {
    "changchun": {
        "exposed": 1, "concealed": 2, "big": {"1s", "1p", "5z", "6z", "7z"}, "big_exposed": 2, "big_concealed": 4,
        "special": [
            {"core": ["1z", "2z", "3z", "4z"], "points": 1, "extra": 1},
            {"core": ["5z", "6z", "7z"], "points": 1, "extra": 1},
            {"core": ["1m", "1p", "1s"], "points": 1, "extra": 1},
            {"core": ["9m", "9p", "9s"], "points": 1, "extra": 1}]},
    # The MIL book (spec/rules/changchun.md): any three different winds, 1s wild inside a special kong; a
    # special kong is 1 when shown, each added tile 1 more (Q: rules/changchun-mil.yaml says 1 a tile).
    "changchun-mil": {
        "exposed": 1, "concealed": 2, "big": {"1s", "1p", "5z", "6z", "7z"}, "big_exposed": 2, "big_concealed": 4,
        "special": [
            {"core": ["1z", "2z", "3z", "4z"], "min": 3, "wild": ["1s"], "points": 1, "extra": 1},
            {"core": ["5z", "6z", "7z"], "wild": ["1s"], "points": 1, "extra": 1},
            {"core": ["1m", "1p", "1s"], "points": 1, "extra": 1},
            {"core": ["9m", "9p", "9s"], "wild": ["1s"], "points": 1, "extra": 1}]},
    "jilin": {
        "exposed": 1, "concealed": 2, "big": {"1m", "1p", "1s"}, "big_exposed": 2, "big_concealed": 4,
        "special": [
            {"core": ["1z", "2z", "3z", "4z"], "points": 2, "extra": 1},
            {"core": ["5z", "6z", "7z"], "points": 2, "extra": 1}]},
    "meihe": {
        "exposed": 1, "concealed": 2, "big": {"1s", "1m", "1p", "5z", "6z", "7z"}, "big_exposed": 2,
        "big_concealed": 2, "golden": 8,
        "special": [
            {"core": ["5z", "6z", "7z"], "points": 2, "extra": 1},
            {"core": ["1z", "2z", "3z", "4z"], "points": 4, "extra": 1},
            {"core": ["1m", "1p", "1s"], "extra_from": ["1m", "1p", "1s", "9m", "9p", "9s"], "points": 2, "extra": 1},
            {"core": ["9m", "9p", "9s"], "extra_from": ["1m", "1p", "1s", "9m", "9p", "9s"], "points": 2,
             "extra": 1}]},
}

LETTERS = {"E": "1z", "S": "2z", "W": "3z", "N": "4z", "P": "5z", "F": "6z", "C": "7z",
           "东": "1z", "南": "2z", "西": "3z", "北": "4z", "白": "5z", "发": "6z", "中": "7z"}


# docs/NOTATION.md: the suit may be written in Chinese after the digits (123万 is 123m)
SUITS_ZH = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s"}


def tiles_of(text: str) -> list[str]:
    """Tiles of a group in the notation: digits then a suit letter, or an honor letter / character."""
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        elif ch in "mpsz" or ch in SUITS_ZH:
            ch = SUITS_ZH.get(ch, ch)
            if not digits:
                raise ValueError(f"suit letter {ch!r} without digits")
            out += [("5" if d == "0" else d) + ch for d in digits]
            digits = ""
        elif ch in LETTERS:
            if digits:
                raise ValueError(f"digits {digits!r} without a suit letter")
            out.append(LETTERS[ch])
        else:
            raise ValueError(f"{ch!r} is not a tile")
    if digits:
        raise ValueError(f"digits {digits!r} without a suit letter")
    for t in out:
        if t.endswith("z") and not "1" <= t[0] <= "7" or t[0] == "0":
            raise ValueError(f"{t} is not a tile")
    return out


def next_kind(tile: str) -> str:
    """The wildcard after a flipped tile (spec/rules/meihe.md): 1→2 … 9→1, 东→南→西→北→东, 中→发→白→中."""
    n, s = int(tile[0]), tile[1]
    if s != "z":
        return f"{n % 9 + 1}{s}"
    if n <= 4:
        return f"{n % 4 + 1}z"
    return {7: "6z", 6: "5z", 5: "7z"}[n]


def kong_points(rules: str, meld: str, hui: str | None) -> int:
    """Kong points of one kong written as in a hand, before × base; ValueError when it is no kong here."""
    table = KONGS[rules]
    if len(meld) < 3 or (meld[0], meld[-1]) not in (("[", "]"), ("(", ")"), ("{", "}")):
        raise ValueError(f"{meld!r} is not a kong: write [7777z], (1111m) or a special kong {{1234z}}")
    tiles = tiles_of(meld[1:-1])
    if meld[0] in "[(":
        if len(tiles) != 4 or len(set(tiles)) != 1:
            raise ValueError(f"{meld!r} is not a kong: a kong is four tiles of one kind")
        kind = tiles[0]
        if hui is not None and kind == hui:
            if meld[0] == "[":
                raise ValueError(f"{meld!r}: the wildcard {hui} cannot be in an exposed kong")
            return table["golden"]
        if kind in table["big"]:
            return table["big_exposed"] if meld[0] == "[" else table["big_concealed"]
        return table["exposed"] if meld[0] == "[" else table["concealed"]
    for sp in table["special"]:
        core, wild = sp["core"], sp.get("wild", [])
        extra_from = sp.get("extra_from", core)
        if any(t not in core and t not in extra_from and t not in wild for t in tiles):
            continue
        present = {t for t in tiles if t in core}
        wilds = sum(1 for t in tiles if t in wild and t not in core)
        need = sp.get("min", len(core))
        if len(present) + min(wilds, len(core) - len(present)) < need or len(tiles) < need:
            continue
        # tiles beyond the kind's own count (MIL 旋风杠: any three winds, so a fourth wind is an added tile)
        return sp["points"] + sp["extra"] * max(0, len(tiles) - need)
    raise ValueError(f"{meld!r} is not a special kong of {rules}")


# ---------------------------------------------------------------------------------------------------------
# flags in a winning line

FLAG_RE = re.compile(r"\+([^\s+=]+)(?:=([^\s+]*))?")
ALIASES = {"tsumo": "zimo", "自摸": "zimo"}
PAO_RE = re.compile(r"\+pao=[^\s+]*", re.IGNORECASE)
SEAT_WORDS = {"E": "E", "S": "S", "W": "W", "N": "N", "东": "E", "南": "S", "西": "W", "北": "N"}


def line_flags(line: str) -> dict[str, str | bool]:
    flags: dict[str, str | bool] = {}
    for m in FLAG_RE.finditer(line):
        name = m.group(1).lower()
        name = ALIASES.get(name, name)
        value: str | bool = m.group(2) if m.group(2) is not None else True
        if name == "dealer":
            name, value = "seat", "E"
        if name in ("seat", "round", "from") and isinstance(value, str):
            value = SEAT_WORDS.get(value.upper(), SEAT_WORDS.get(value, value))
        flags[name] = value
    return flags


def hui_of(line: str) -> str | None:
    f = line_flags(line)
    try:
        if isinstance(f.get("hui"), str):
            return tiles_of(str(f["hui"]))[0]
        if isinstance(f.get("flip"), str):
            return next_kind(tiles_of(str(f["flip"]))[0])
    except (ValueError, IndexError):
        return None
    return None


def round_half_away(x: Fraction) -> int:
    """Round to the nearest integer, .5 away from zero (35.5 → 36, -7.5 → -8)."""
    n = int(abs(x) + Fraction(1, 2))
    return n if x >= 0 else -n


# ---------------------------------------------------------------------------------------------------------
# the game

class Game:
    def __init__(self, head: Any):
        if not isinstance(head, dict) or set(head) != {"game"} or not isinstance(head["game"], dict):
            raise GameError('the first line of a game is {"game": {"players": [...], "rules": ..., "set": {...}}}')
        g = head["game"]
        unknown = set(g) - {"players", "rules", "set", "dealer"}
        if unknown:
            raise GameError(f"unknown key(s) in the game line: {', '.join(sorted(unknown))}")
        players = g.get("players")
        if (not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) and p for p in players)
                or len(set(players)) != 4):
            raise GameError("players: four different names")
        rules = g.get("rules")
        if rules not in GAME_RULESETS:
            raise GameError(f"rules: {rules!r} is not one of {', '.join(GAME_RULESETS)}")
        sets = g.get("set", {}) or {}
        if not isinstance(sets, dict):
            raise GameError("set: a mapping of option to value")
        dealer = g.get("dealer", players[0])
        if dealer not in players:
            raise GameError(f"dealer: {dealer!r} is not a player (a replayed record names the first dealer)")
        k = players.index(dealer)
        self.players: list[str] = players[k:] + players[:k]    # Q: the first dealer is player 0
        self.rules: str = rules
        self.family = family_of(rules)
        self.opts = self._options(sets)
        self.hand_opts = dict(hand_defaults_of(rules))
        self.hand_opts.update({key: v for key, v in sets.items() if key not in GAME_OPTIONS})
        try:
            mjcalc.score("123m456p789s11z22z", rules=scorer_rules(rules), options=self.hand_opts)
        except mjcalc.RulesetError as exc:
            raise GameError(f"set: {exc.message}") from None
        self.base = int(self.hand_opts.get("base", 1)) if self.family == "north_east" else 1
        self.bust = self.family == "riichi" and rules != "riichi-mleague"
        self.last_dealer_stop = rules == "riichi-tenhou"
        # state
        self.scores = [int(self.opts["start"])] * 4
        self.passes = 0          # deal passes so far: dealer = passes % 4, round = passes // 4
        self.honba = 0
        self.table = 0
        self.lian = 0
        self.number = 0          # hands ended so far
        self.in_round = 0        # hands ended in the current round
        self.ended = False
        self.reason: str | None = None
        self.hands: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []
        self.final_scores: list[int] | None = None

    # -- options ------------------------------------------------------------------------------------------
    def _options(self, sets: dict[str, Any]) -> dict[str, Any]:
        opts = defaults_of(self.rules)
        for key, v in sets.items():
            if key not in GAME_OPTIONS:
                continue
            if self.family != "riichi" and key in ("length", "extension", "triple_ron", "nagashi", "rounding"):
                raise GameError(f"set: {key} is a riichi option")
            if key == "rounding" and self.rules != "riichi-tenhou":
                raise GameError("set: rounding is an option of riichi-tenhou's points (GAME.md)")
            if self.family == "riichi" and key in ("rounds", "hands"):
                raise GameError(f"set: {key} is no option of riichi (length: hanchan | tonpuu)")
            if key in CHOICES:
                if v not in CHOICES[key]:
                    raise GameError(f"set: {key} is one of {', '.join(CHOICES[key])}, not {v!r}")
            elif key == "nagashi":
                if v in (True, "on", "true"):
                    v = True
                elif v in (False, "off", "false"):
                    v = False
                else:
                    raise GameError(f"set: nagashi is on or off, not {v!r}")
            elif key in ("rounds", "hands"):
                if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                    raise GameError(f"set: {key} is a whole number from 1, not {v!r}")
            elif key == "start":
                if isinstance(v, bool) or not isinstance(v, int):
                    raise GameError(f"set: start is a whole number, not {v!r}")
            opts[key] = v
        return opts

    # -- state helpers ------------------------------------------------------------------------------------
    @property
    def dealer(self) -> int:
        return self.passes % 4

    @property
    def round_index(self) -> int:
        return self.passes // 4

    def seat(self, i: int) -> str:
        return SEATS[(i - self.dealer) % 4]

    def label(self) -> str:
        wind = WIND_ZH[self.round_index % 4]
        if self.family == "riichi":
            text = f"{wind}{self.passes % 4 + 1}局"
            return text + (f" {self.honba}本场" if self.honba else "")
        return f"{wind}风圈 第{self.in_round + 1}盘"

    def who(self, name: Any, what: str) -> int:
        if name not in self.players:
            raise GameError(f"{what}: {name!r} is not a player of this game ({', '.join(self.players)})")
        return self.players.index(name)

    def names(self, value: Any, what: str) -> list[int]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise GameError(f"{what}: a list of players")
        out = [self.who(n, what) for n in value]
        if len(set(out)) != len(out):
            raise GameError(f"{what}: a player is listed twice")
        return out

    def entry(self, result: str) -> dict[str, Any]:
        return {"number": self.number + 1, "label": self.label(), "round": SEATS[self.round_index % 4],
                "dealer": self.dealer, "honba": self.honba, "table": self.table, "lian": self.lian,
                "start": list(self.scores), "result": result, "wins": [], "riichi": [], "ready": [],
                "nagashi": [], "changes": [0, 0, 0, 0], "end": None}

    # -- applying a result --------------------------------------------------------------------------------
    STATE = ("scores", "passes", "honba", "table", "lian", "number", "in_round", "ended", "reason")

    def snapshot(self) -> dict[str, Any]:
        """The state a result may change (the sheet's hands only grow)."""
        snap = {k: copy.copy(getattr(self, k)) for k in self.STATE}
        snap["_hands"] = len(self.hands)
        return snap

    def restore(self, snap: dict[str, Any]) -> None:
        for k in self.STATE:
            setattr(self, k, copy.copy(snap[k]))
        del self.hands[snap["_hands"]:]

    def apply(self, result: Any) -> dict[str, Any]:
        """Apply one result; on GameError nothing has changed."""
        snap = self.snapshot()
        try:
            return self._apply(result)
        except GameError:
            self.restore(snap)
            raise

    def _apply(self, result: Any) -> dict[str, Any]:
        if self.ended:
            raise GameError(f"the game has ended ({self.reason}): no result after the end")
        if not isinstance(result, dict):
            raise GameError("a result is a JSON object: win, draw, abort or penalty")
        kinds = [k for k in ("win", "draw", "abort", "penalty") if k in result]
        if len(kinds) != 1:
            raise GameError("a result has exactly one of win, draw, abort, penalty")
        kind = kinds[0]
        allowed = {"win": {"win", "riichi", "kongs", "hui"}, "draw": {"draw", "riichi", "kongs", "hui"},
                   "abort": {"abort", "riichi"}, "penalty": {"penalty"}}[kind]
        extra = set(result) - allowed
        if extra:
            raise GameError(f"a {kind} result has no key {', '.join(sorted(extra))}")
        if "riichi" in result and self.family != "riichi" and result["riichi"]:
            raise GameError("riichi declarations exist only in riichi")
        if "hui" in result and self.rules != "meihe":
            raise GameError("hui (the wildcard of a drawn hand) exists only in meihe")
        if kind == "win":
            e = self._win(result)
        elif kind == "draw":
            e = self._draw(result)
        elif kind == "abort":
            e = self._abort(result)
        else:
            e = self._penalty(result["penalty"])
        self.hands.append(e)
        return e

    def _riichi(self, result: dict[str, Any], e: dict[str, Any]) -> list[int]:
        decl = self.names(result.get("riichi"), "riichi")
        for i in decl:
            if self.scores[i] < 1000:
                raise GameError(f"riichi: {self.players[i]} has {self.scores[i]}, under the 1000 a declaration needs")
        for i in decl:
            e["changes"][i] -= 1000
        e["riichi"] = decl
        return decl

    def _kongs(self, result: dict[str, Any], winners: list[int], hui: str | None) -> list[int]:
        money = [0, 0, 0, 0]
        kongs = result.get("kongs")
        if not kongs:
            return money
        if self.family != "north_east":
            raise GameError(f"kongs: {self.rules} pays no kong money apart from the hand")
        if not isinstance(kongs, dict):
            raise GameError('kongs: {"PLAYER": ["[7777z]", …]}')
        for name, melds in kongs.items():
            i = self.who(name, "kongs")
            if i in winners:
                raise GameError(f"kongs: {name} is the winner, whose kongs are in the winning line")
            if not isinstance(melds, list) or not all(isinstance(m, str) for m in melds):
                raise GameError(f"kongs: {name}: a list of kongs as written in a hand")
            for m in melds:
                try:
                    pts = kong_points(self.rules, m.strip(), hui) * self.base
                except ValueError as exc:
                    raise GameError(f"kongs: {name}: {exc}") from None
                for j in range(4):
                    money[j] += 3 * pts if j == i else -pts
        return money

    # -- a win ----------------------------------------------------------------------------------------------
    def _win(self, result: dict[str, Any]) -> dict[str, Any]:
        wins = result["win"]
        if not isinstance(wins, list) or not wins:
            raise GameError("win: a list of one winner (two or three on one discard in riichi)")
        read = []
        for w in wins:
            if not isinstance(w, dict) or "winner" not in w or not isinstance(w.get("hand"), str):
                raise GameError('win: each winner is {"winner": NAME, "from": NAME (none: self-drawn), "hand": LINE}')
            extra = set(w) - {"winner", "from", "hand", "pao"}
            if extra:
                raise GameError(f"win: unknown key(s) {', '.join(sorted(extra))}")
            wi = self.who(w["winner"], "winner")
            fr = None if w.get("from") is None else self.who(w["from"], "from")
            pao = None if w.get("pao") is None else self.who(w["pao"], "pao")
            if fr == wi:
                raise GameError(f"win: {w['winner']} cannot win on his own discard (self-drawn: leave out from)")
            if pao is not None and pao == wi:
                raise GameError("pao: the liable player is not the winner")
            if pao is not None and self.family != "riichi":
                raise GameError("pao: liability (責任払い) is a riichi rule")
            read.append((wi, fr, w["hand"], pao))
        if len(read) > 1:
            if self.family != "riichi":
                raise GameError(f"{len(read)} winners: under {self.rules} only one player wins on a discard "
                                "(截胡: the nearest to the discarder in turn order)")
            if any(fr is None for _, fr, _, _ in read):
                raise GameError("several winners: only on one discard (a self-draw has one winner)")
            if len({fr for _, fr, _, _ in read}) != 1:
                raise GameError("several winners: all on the same discard (the same from)")
            if len({wi for wi, _, _, _ in read}) != len(read):
                raise GameError("several winners: a player is listed twice")
            if len(read) == 3 and self.opts["triple_ron"] != "pay":
                raise GameError("three winners on one discard: under triple_ron: abort the hand is an abortive "
                                'draw ({"abort": "triple_ron"})')
        discarder = read[0][1]
        if discarder is not None:
            read.sort(key=lambda r: (r[0] - discarder) % 4)   # the nearest to the discarder first
        winners = [r[0] for r in read]
        e = self.entry("win")
        decl = self._riichi(result, e)
        table = self.table + 1000 * len(decl)
        hui = None
        if self.rules == "meihe":
            hui = hui_of(read[0][2])
            if result.get("hui") is not None:
                try:
                    given = tiles_of(str(result["hui"]))
                except ValueError as exc:
                    raise GameError(f"hui: {exc}") from None
                if len(given) != 1 or (hui is not None and given[0] != hui):
                    raise GameError(f"hui: {result['hui']!r} disagrees with the winning line's wildcard {hui}")
                hui = given[0]
        money = self._kongs(result, winners, hui)
        for j in range(4):
            e["changes"][j] += money[j]
        for k, (wi, fr, hand, pao) in enumerate(read):
            honba = self.honba if k == 0 else 0
            sticks = min(table // 1000, 99) if k == 0 and self.family == "riichi" else 0
            line, net = self._score(wi, fr, hand, pao, honba, sticks, wi in decl)
            for j in range(4):
                e["changes"][j] += net[j]
            e["wins"].append({"winner": wi, "from": fr, "pao": pao, "hand": line["line"], "score": line["score"],
                              "log": None, "agrees": None})
        e["changes"][winners[0]] += table
        self.table = 0
        self._settle(e)
        dealer_won = self.dealer in winners
        self.number += 1
        self.in_round += 1
        if self.family == "riichi":
            if self._busted():
                return self._finish(e, "bust")
            if dealer_won:
                self.honba += 1
                self._after_repeat(e, dealer_ready=True)
            else:
                self.honba = 0
                self._pass(e)
            return self._close(e)
        if self.family == "taiwan":
            if dealer_won:
                self.lian += 1
            else:
                self.lian = 0
                self._pass(e)
        elif self.family == "north_east":
            if not dealer_won:
                self._pass(e)
        else:
            self._pass(e)
        self._hands_end(e)
        return self._close(e)

    def _score(self, wi: int, fr: int | None, hand: str, pao: int | None, honba: int, sticks: int,
               declared: bool) -> tuple[dict[str, Any], list[int]]:
        """Score one winner's line with the context the game knows; the per-player net without sticks."""
        given = line_flags(hand)
        want: dict[str, str | bool] = {"seat": self.seat(wi), "round": SEATS[self.round_index % 4]}
        if fr is None:
            want["zimo"] = True
        else:
            want["from"] = self.seat(fr)
        fam = self.family
        if fam == "riichi":
            want["honba"] = str(honba)
            want["sticks"] = str(sticks)
        if fam == "taiwan":
            want["lian"] = str(self.lian)
        # Q16: where the family keeps no honba, sticks or streak, the game's count is 0, which a line may repeat
        state = {"honba": "0", "sticks": "0", "lian": "0", **want}
        for name in ("seat", "round", "from", "honba", "sticks", "lian"):
            if name in given and (name not in state or str(given[name]).upper() != str(state[name]).upper()):
                raise GameError(f"the line says +{name}={given[name]}, the game says "
                                + (f"+{name}={want[name]}" if name in want else
                                   "self-drawn" if name == "from" else f"no +{name}"))
        if "zimo" in given and fr is not None:
            raise GameError(f"the line says +zimo, the game says won on {self.players[fr]}'s discard "
                            f"(+from={self.seat(fr)})")
        if fam == "riichi":
            for flag in ("riichi", "wriichi"):
                if flag in given and not declared:
                    raise GameError(f"the line says +{flag}, but {self.players[wi]} is not listed in riichi")
            if "pao" in given:
                named = str(given["pao"]).upper()
                if pao is None or named != self.seat(pao):
                    raise GameError(f"the line says +pao={given['pao']}, the game says "
                                    + (f"+pao={self.seat(pao)}" if pao is not None else "no pao"))
        elif "riichi" in given or "wriichi" in given:
            raise GameError("+riichi / +wriichi: riichi declarations exist only in riichi")
        add = []
        for name in FILLS[fam]:
            if name == "riichi":
                if declared and "riichi" not in given and "wriichi" not in given:
                    add.append("+riichi")
            elif name == "zimo":
                if "zimo" in want and "zimo" not in given:
                    add.append("+zimo")
            elif name in want and name not in given:
                add.append(f"+{name}={want[name]}")
        line = " ".join([PAO_RE.sub("", hand).strip()] + add)
        pao_by_game = False
        if pao is not None:
            line_pao = f"{line} +pao={self.seat(pao)}"
            res = mjcalc.score(line_pao, rules=scorer_rules(self.rules), options=self.hand_opts)
            if res["result"] == "error" and "unknown flag '+pao'" in (res.get("error") or {}).get("message", ""):
                # the hand scorer has no +pao: liability is settled here (GAME.md "Pao")
                res = mjcalc.score(line, rules=scorer_rules(self.rules), options=self.hand_opts)
                pao_by_game = True
            else:
                line = line_pao
        else:
            res = mjcalc.score(line, rules=scorer_rules(self.rules), options=self.hand_opts)
        if res["result"] != "win":
            why = (res.get("error") or {}).get("message") or ", ".join(
                c.get("id", "") for c in res.get("failed_conditions") or []) or res["result"]
            raise GameError(f"{self.players[wi]}'s hand {line!r} is not a win: {res['result']}: {why}")
        net = [int(res["net"][self.seat(j)]) for j in range(4)]
        net[wi] -= 1000 * sticks          # the table is paid by the game, in full
        if pao_by_game:
            assert pao is not None
            net = self._pao(wi, fr, pao, net, honba)
        return {"line": line, "score": res}, net

    def _pao(self, wi: int, fr: int | None, pao: int, net: list[int], honba: int) -> list[int]:
        """GAME.md: self-draw: the liable player alone pays the whole hand and the honba; on a discard the
        discarder and the liable player pay half each and the discarder pays the honba."""
        total = net[wi]
        out = [0, 0, 0, 0]
        out[wi] = total
        if fr is None:
            out[pao] -= total
        else:
            hand = total - 300 * honba
            half = hand // 2
            out[pao] -= half
            out[fr] -= hand - half + 300 * honba
        return out

    # -- an exhaustive draw -------------------------------------------------------------------------------------
    def _draw(self, result: dict[str, Any]) -> dict[str, Any]:
        d = result["draw"]
        if d is None:
            d = {}
        if not isinstance(d, dict) or set(d) - {"ready", "nagashi"}:
            raise GameError('draw: {"ready": [players], "nagashi": [players]}')
        e = self.entry("draw")
        ready = self.names(d.get("ready"), "ready")
        nagashi = self.names(d.get("nagashi"), "nagashi")
        e["ready"], e["nagashi"] = ready, nagashi
        if nagashi and not (self.family == "riichi" and self.opts["nagashi"]):
            raise GameError("nagashi: nagashi mangan is a riichi rule, and the option nagashi is off"
                            if self.family == "riichi" else "nagashi: nagashi mangan is a riichi rule")
        decl = self._riichi(result, e)
        self.table += 1000 * len(decl)
        hui = None
        if self.rules == "meihe" and result.get("hui") is not None:
            try:
                given = tiles_of(str(result["hui"]))
            except ValueError as exc:
                raise GameError(f"hui: {exc}") from None
            if len(given) != 1:
                raise GameError("hui: one tile kind, e.g. \"5m\"")
            hui = given[0]
        if self.rules == "meihe" and result.get("kongs") and hui is None:
            raise GameError('kongs at a Meihe draw: name the hand\'s wildcard kind, "hui": "5m"')
        money = self._kongs(result, [], hui)
        for j in range(4):
            e["changes"][j] += money[j]
        if self.family == "riichi":
            if nagashi:
                for n in nagashi:
                    for j in range(4):
                        if j == n:
                            continue
                        pay = MANGAN_DEALER if (n == self.dealer or j == self.dealer) else MANGAN_CHILD
                        e["changes"][j] -= pay
                        e["changes"][n] += pay
            elif 0 < len(ready) < 4:
                per_ready = 3000 // len(ready)
                per_unready = 3000 // (4 - len(ready))
                for j in range(4):
                    e["changes"][j] += per_ready if j in ready else -per_unready
        self._settle(e)
        self.number += 1
        self.in_round += 1
        if self.family == "riichi":
            if self._busted():
                return self._finish(e, "bust")
            self.honba += 1
            if self.dealer in ready:
                self._after_repeat(e, dealer_ready=True)
            else:
                self._pass(e)
            return self._close(e)
        if self.family == "taiwan":
            self.lian += 1
        elif self.family == "mcr":
            self._pass(e)
        self._hands_end(e)
        return self._close(e)

    # -- an abortive draw ---------------------------------------------------------------------------------------
    def _abort(self, result: dict[str, Any]) -> dict[str, Any]:
        if self.family != "riichi":
            raise GameError("abort: abortive draws are a riichi rule")
        kind = result["abort"]
        if kind not in ABORTS:
            raise GameError(f"abort: one of {', '.join(ABORTS)}, not {kind!r}")
        if kind == "triple_ron" and self.opts["triple_ron"] == "pay":
            raise GameError("abort triple_ron: under triple_ron: pay the three winners are paid (a win)")
        e = self.entry("abort")
        e["abort"] = kind
        decl = self._riichi(result, e)
        self.table += 1000 * len(decl)
        self._settle(e)
        self.number += 1
        self.in_round += 1
        self.honba += 1
        if self._busted():           # a declaration needs 1000, so this never fires; kept for the rule
            return self._finish(e, "bust")
        return self._close(e)

    # -- penalties ---------------------------------------------------------------------------------------------
    def _penalty(self, p: Any) -> dict[str, Any]:
        if not isinstance(p, dict) or "player" not in p:
            raise GameError('penalty: {"player": NAME, "kind": "false_win"} or {"player", "amount", "to"}')
        off = self.who(p["player"], "penalty")
        if "kind" in p:
            if set(p) - {"player", "kind"}:
                raise GameError("penalty: a named kind takes no amount or to")
            if p["kind"] != "false_win":
                raise GameError(f"penalty: kind is false_win, not {p['kind']!r}")
            if self.family == "riichi":
                e = self.entry("redeal")
                for j in range(4):
                    if j != off:
                        pay = MANGAN_DEALER if (off == self.dealer or j == self.dealer) else MANGAN_CHILD
                        e["changes"][j] += pay
                        e["changes"][off] -= pay
                e["penalty"] = {"player": off, "kind": "false_win"}
                self._settle(e)
                self.number += 1             # the hand is redealt: same dealer, same honba
                self.in_round += 1
                if self.bust and self._busted():
                    return self._finish(e, "bust")
                return self._close(e)
            if self.family == "mcr":
                e = self.entry("penalty")
                for j in range(4):
                    if j != off:
                        e["changes"][j] += 10
                        e["changes"][off] -= 10
                e["penalty"] = {"player": off, "kind": "false_win"}
                self._settle(e)
                return self._close(e)
            raise GameError(f"penalty: {self.rules} has no named false-win penalty (give amount and to)")
        if set(p) - {"player", "amount", "to"} or "amount" not in p or "to" not in p:
            raise GameError('penalty: {"player": NAME, "amount": N, "to": "table" | "each" | NAME}')
        amount = p["amount"]
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise GameError(f"penalty: amount is a whole number above 0, not {amount!r}")
        e = self.entry("penalty")
        to = p["to"]
        if to == "each":
            for j in range(4):
                if j != off:
                    e["changes"][j] += amount
                    e["changes"][off] -= amount
            target: Any = "each"
        elif to == "table":
            e["changes"][off] -= amount
            self.table += amount
            target = "table"
        else:
            j = self.who(to, "penalty to")
            if j == off:
                raise GameError("penalty: the offender does not pay himself")
            e["changes"][off] -= amount
            e["changes"][j] += amount
            target = j
        e["penalty"] = {"player": off, "amount": amount, "to": target}
        self._settle(e)
        if self.bust and self._busted():
            return self._finish(e, "bust")
        return self._close(e)

    # -- rotation and the end ---------------------------------------------------------------------------------
    def _settle(self, e: dict[str, Any]) -> None:
        for j in range(4):
            self.scores[j] += e["changes"][j]
        e["end"] = list(self.scores)

    def _busted(self) -> bool:
        return self.bust and min(self.scores) < 0

    def _someone_30000(self) -> bool:
        return max(self.scores) >= RETURN

    def _last_round(self) -> int:
        return 0 if self.opts["length"] == "tonpuu" else 1

    def _pass(self, e: dict[str, Any]) -> None:
        """The deal passes to the next seat; at the end of a round, the end conditions of the family."""
        before = self.round_index
        self.passes += 1
        if self.round_index != before:
            self.in_round = 0
        if self.family == "riichi":
            self._riichi_round_end()
        elif self.opts["rounds"] is not None and self.passes >= 4 * self.opts["rounds"]:
            self._end(f"rounds: {self.opts['rounds']}")

    def _riichi_round_end(self) -> None:
        if self.ended:
            return
        last = self._last_round()
        if self.passes % 4 != 0:                 # within a round: only sudden death can end the game here
            if self.opts["extension"] == "sudden_death" and self.round_index > last and self._someone_30000():
                self._end("sudden death: 30000 reached")
            return
        finished = self.round_index - 1          # the round the deal just left
        if finished < last:
            return
        ext = self.opts["extension"]
        if ext == "none":
            self._end("last hand played")
        elif ext == "rounds":
            top = 3 if last == 1 else 1        # hanchan: North at most; tonpuu: South at most
            if self._someone_30000():
                self._end("30000 reached after the last round")
            elif finished >= top:
                self._end("the last extension round played")
        else:                                   # sudden_death: one round more at most
            if finished == last and self._someone_30000():
                self._end("30000 reached after the last round")
            elif finished > last:
                self._end("the sudden-death round played")

    def _after_repeat(self, e: dict[str, Any], dealer_ready: bool) -> None:
        """The dealer repeats (riichi): the last dealer's stop (riichi-tenhou), and sudden death."""
        last = self._last_round()
        if self.opts["extension"] == "sudden_death" and self.round_index > last and self._someone_30000():
            self._end("sudden death: 30000 reached")
            return
        if self.last_dealer_stop and dealer_ready and self.passes % 4 == 3 and self.round_index >= last:
            first = min(range(4), key=lambda j: (-self.scores[j], j))
            if first == self.dealer and self.scores[first] >= RETURN:
                self._end("the last dealer stops: first with 30000 or more")

    def _hands_end(self, e: dict[str, Any]) -> None:
        if not self.ended and self.opts["hands"] is not None and self.number >= self.opts["hands"]:
            self._end(f"hands: {self.opts['hands']}")

    def _end(self, reason: str) -> None:
        if not self.ended:
            self.ended, self.reason = True, reason

    def _finish(self, e: dict[str, Any], reason: str) -> dict[str, Any]:
        self._end(reason)
        return self._close(e)

    def _close(self, e: dict[str, Any]) -> dict[str, Any]:
        return e

    # -- the sheet --------------------------------------------------------------------------------------------
    def ranking(self, scores: list[int]) -> list[int]:
        return sorted(range(4), key=lambda j: (-scores[j], j))

    def final(self) -> dict[str, Any]:
        scores = list(self.scores)
        left = self.table
        if self.ended and left:
            if self.opts["leftover"] == "to_first":
                scores[self.ranking(scores)[0]] += left
        ranking = self.ranking(scores)
        points = self.points(scores, ranking) if self.ended else None
        return {"scores": scores, "ranking": ranking, "points": points, "ended": self.ended,
                "reason": self.reason, "table_left": left}

    def points(self, scores: list[int], ranking: list[int]) -> list[float] | None:
        if self.rules not in ("riichi-tenhou", "riichi-mleague"):
            return None
        thousand = self.opts["rounding"] == "thousand"

        def base(s: int) -> Fraction:      # (score − return) / 1000
            if thousand:
                return Fraction(round_half_away(Fraction(s, 1000)) - RETURN // 1000)
            return Fraction(s - RETURN, 1000)

        out: list[Fraction] = [Fraction(0)] * 4
        if self.rules == "riichi-tenhou":
            uma = [20, 10, -10, -20]
            for place, j in enumerate(ranking):
                if place:
                    out[j] = Fraction(round_half_away(10 * (base(scores[j]) + uma[place])), 10)
            out[ranking[0]] = -sum(out, Fraction(0))
        else:
            uma = [30, 10, -10, -30]
            oka = [Fraction(4 * (RETURN - int(self.opts["start"])), 1000)] + [Fraction(0)] * 3
            place = 0
            while place < 4:
                tied = [j for j in ranking if scores[j] == scores[ranking[place]]]
                share = sum((oka[p] + uma[p] for p in range(place, place + len(tied))), Fraction(0)) / len(tied)
                for j in tied:
                    out[j] = Fraction(round_half_away(10 * (base(scores[j]) + share)), 10)
                place += len(tied)
        return [float(x) for x in out]

    def next_hand(self) -> dict[str, Any] | None:
        if self.ended:
            return None
        return {"number": self.number + 1, "label": self.label(), "round": SEATS[self.round_index % 4],
                "dealer": self.dealer, "honba": self.honba, "table": self.table, "lian": self.lian}

    def sheet(self) -> dict[str, Any]:
        return {"ruleset": self.rules, "players": list(self.players), "hands": self.hands, "final": self.final(),
                "next": self.next_hand(), "errors": self.errors}


# ---------------------------------------------------------------------------------------------------------
# records

def replay(lines: list[str], name: str = "-") -> tuple[list[dict[str, Any]], list[str]]:
    """As replay_lines, with each game's finished sheet."""
    out: list[dict[str, Any]] = []
    errors: list[str] = []
    game: Game | None = None
    games: list[Game | dict[str, Any]] = []
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            msg = f"not JSON: {exc.msg} at column {exc.colno}"
            errors.append(f"{name}:{n}: {msg}")
            if game is not None:
                game.errors.append({"line": n, "message": msg})
            continue
        if isinstance(obj, dict) and "game" in obj:
            try:
                game = Game(obj)
                games.append(game)
            except GameError as exc:
                errors.append(f"{name}:{n}: {exc}")
                game = None
                games.append({"error": {"line": n, "message": str(exc)}})
            continue
        if game is None:
            errors.append(f"{name}:{n}: a result before any game line (or after a game line that failed)")
            continue
        try:
            game.apply(obj)
        except GameError as exc:
            errors.append(f"{name}:{n}: {exc}")
            game.errors.append({"line": n, "message": str(exc)})
    for g in games:
        out.append(g.sheet() if isinstance(g, Game) else g)
    return out, errors


def replay_file(path: str) -> tuple[list[dict[str, Any]], list[str]]:
    with open(path, encoding="utf-8") as f:
        return replay(f.read().splitlines(), path)


def grade(total: int) -> str:
    """The Changchun grade of a player's total over every game kept (GAME.md, seed 003)."""
    ladder = [(2000000, "雀神"), (1200000, "发"), (800000, "中"), (500000, "北风"), (200000, "南风"),
              (100000, "西风"), (80000, "东风"), (50000, "九万"), (20000, "八万"), (10000, "七万"), (5000, "六万"),
              (2000, "五万"), (1000, "四万"), (500, "三万"), (200, "二万"), (100, "一万")]
    for at, name in ladder:
        if total >= at:
            return name
    return "白板"


def main(argv: list[str]) -> int:
    pretty = "--pretty" in argv
    paths = [a for a in argv if a != "--pretty"]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    bad = False
    for path in paths:
        sheets, errors = replay_file(path)
        for s in sheets:
            print(json.dumps(s, ensure_ascii=False, indent=2 if pretty else None))
        for m in errors:
            print(m, file=sys.stderr)
        bad = bad or bool(errors)
    return 2 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
