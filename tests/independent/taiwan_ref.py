"""Independent reference scorer for 台湾十六张 Taiwan 16-tile, written from spec/rules/taiwan.md alone.

It shares no code with mjcalc (nor with the other references): its own reader of the notation subset the
generator writes, its own brute-force decomposition into five sets + a pair, its own 台 table and its own
settlement.  Every decomposition of the concealed tiles times every place the winning tile can sit in is
scored; the reading that pays the winner most is kept ("as a player would"), ties going to the higher
台 total.

Tiles are ints 0..33: m 0-8, p 9-17, s 18-26, 东南西北 27-30, 白发中 31-33 (= 5z 6z 7z).  Flowers 1..8.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

SEATS = ("E", "S", "W", "N")
SUITS = "mpsz"
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
OPPOSITE = {"E": "W", "S": "N", "W": "E", "N": "S"}

# the two presets: taiwan-common "extends taiwan, changing only 清一色 8, 五暗坎 8"
VALUES = {
    "taiwan": {
        "seat_wind_pung": 1, "round_wind_pung": 1, "dragon_pung": 1, "concealed_hand": 1,
        "self_drawn_concealed": 2, "all_melded": 2, "half_melded": 1, "ping_hu": 2, "all_pungs": 4,
        "single_wait": 1, "robbing_kong": 1, "all_honors": 16, "full_flush": 12, "half_flush": 4,
        "three_concealed_pungs": 2, "four_concealed_pungs": 5, "five_concealed_pungs": 13,
        "big_four_winds": 16, "small_four_winds": 8, "big_three_dragons": 8, "small_three_dragons": 4,
        "self_drawn": 1, "kong_bloom": 1, "last_tile_draw": 1, "last_tile_discard": 1, "seat_flower": 1,
        "flower_kong": 2, "eight_flowers": 8, "seven_rob_one": 8, "heavenly_win": 24, "earthly_win": 16,
        "human_win": 16,
    },
}
VALUES["taiwan-common"] = {**VALUES["taiwan"], "full_flush": 8, "five_concealed_pungs": 8}
DEFAULT_OPTIONS = {"base": 3, "per_tai": 1, "max_tai": None, "min_tai": 0}

# interpretation switches (LITERAL = the reading this reference takes by default; the comparison may
# try the other value of a switch to name a known disagreement, see notes/taiwan-disagreements.md)
LITERAL = {
    # OUTPUT.md: `fan` is "the sum of the items that apply to every payment of this hand": the dealer 台
    # are in it when the dealer wins ...
    "dealer_tai_in_fan": True,
    # ... and when the dealer is the only payer (his discard, his robbed kong, his robbed eighth flower)
    "sole_payer_dealer_in_fan": True,
    # a cap can make readings pay the same: keep the one with the most 台 before the cap (Q2)
    "tie_more_tai": True,
}


def t(s: str) -> int:
    """'5m' -> 4."""
    return SUITS.index(s[1]) * 9 + int(s[0]) - 1


def name(k: int) -> str:
    return f"{k % 9 + 1}{SUITS[k // 9]}"


# --------------------------------------------------------------------------- the line

@dataclass
class Situation:
    concealed: list[int]            # the bare tiles, the winning tile included
    win: int | None                 # the last bare tile
    melds: list[tuple[str, list[int]]]   # (chi | pon | kong | ankong, tiles)
    flowers: set[int] = field(default_factory=set)
    seat: str = "S"
    round: str = "E"
    zimo: bool = False
    frm: str | None = None
    gang: bool = False
    qiang: bool = False
    last: bool = False
    tian: bool = False
    di: bool = False
    ren: bool = False
    lian: int = 0
    base: int | None = None


FLAG = re.compile(r"\+([A-Za-z]+)(?:=([^\s+]*))?")


def parse(line: str) -> Situation:
    flags = FLAG.findall(line)
    body = FLAG.sub(" ", line)
    s = Situation([], None, [])
    for group in body.split():
        kind = None
        if group[0] == "[":
            kind, group = "open", group[1:-1]
        elif group[0] == "(":
            kind, group = "ankong", group[1:-1]
        tiles, flowers, digits = [], [], ""
        for ch in group:
            if ch.isdigit():
                digits += ch
            elif ch == "f":
                flowers += [int(d) for d in digits]
                digits = ""
            else:
                tiles += [t(d + ch) for d in digits]
                digits = ""
        if digits:
            raise ValueError(f"dangling digits in {group!r}")
        if kind is None:
            s.concealed += tiles
            s.flowers |= set(flowers)
            continue
        if flowers:
            raise ValueError("a flower in a meld")
        if kind == "ankong":
            assert len(tiles) == 4 and len(set(tiles)) == 1, group
            s.melds.append(("ankong", tiles))
        elif len(tiles) == 4:
            assert len(set(tiles)) == 1, group
            s.melds.append(("kong", tiles))
        elif len(set(tiles)) == 1:
            s.melds.append(("pon", tiles))
        else:
            ts = sorted(tiles)
            assert ts[0] < 27 and ts[1] == ts[0] + 1 and ts[2] == ts[0] + 2 and ts[0] // 9 == ts[2] // 9, group
            s.melds.append(("chi", ts))
    s.win = s.concealed[-1] if s.concealed else None
    for key, val in flags:
        key = key.lower()
        if key in ("zimo", "gang", "qiang", "last", "tian", "di", "ren"):
            setattr(s, key, True)
        elif key == "seat":
            s.seat = val.upper()
        elif key == "dealer":
            s.seat = "E"
        elif key == "round":
            s.round = val.upper()
        elif key == "from":
            s.frm = val.upper()
        elif key == "lian":
            s.lian = int(val)
        elif key == "base":
            s.base = int(val)
        else:
            raise ValueError(f"flag not used by the reference: +{key}")
    # NOTATION.md: +gang "(a self-draw)", +tian / +di "(both self-draws)"
    s.zimo = s.zimo or s.gang or s.tian or s.di
    return s


# --------------------------------------------------------------------------- shapes

def decompositions(c: list[int], nsets: int, npair: int):
    """Every way to cover the counts c with nsets sets and npair pairs: lists of (seq|trip|pair, kind)."""
    i = next((x for x in range(34) if c[x]), None)
    if i is None:
        if nsets == 0 and npair == 0:
            yield []
        return
    if npair and c[i] >= 2:
        c[i] -= 2
        for rest in decompositions(c, nsets, npair - 1):
            yield [("pair", i), *rest]
        c[i] += 2
    if nsets and c[i] >= 3:
        c[i] -= 3
        for rest in decompositions(c, nsets - 1, npair):
            yield [("trip", i), *rest]
        c[i] += 3
    if nsets and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for rest in decompositions(c, nsets - 1, npair):
            yield [("seq", i), *rest]
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def counts(tiles) -> list[int]:
    c = [0] * 34
    for k in tiles:
        c[k] += 1
    return c


def is_complete(concealed: list[int], nsets: int) -> bool:
    return next(decompositions(counts(concealed), nsets, 1), None) is not None


def waits(concealed16: list[int], melds) -> list[int]:
    """The kinds the 16-tile hand waits on by its shape, leaving out kinds it holds all four of."""
    held = counts(concealed16 + [k for _, ts in melds for k in ts])
    nsets = 5 - len(melds)
    return [k for k in range(34) if held[k] < 4 and is_complete([*concealed16, k], nsets)]


def set_tiles(kind: str, k: int) -> list[int]:
    return {"seq": [k, k + 1, k + 2], "trip": [k] * 3, "pair": [k, k]}[kind]


# --------------------------------------------------------------------------- scoring

@dataclass
class Result:
    result: str
    fan: int | None = None
    tai: int | None = None            # the hand's 台 (without the dealer 台)
    items: dict = field(default_factory=dict)
    payments: dict = field(default_factory=dict)
    kong: dict = field(default_factory=dict)
    net: dict = field(default_factory=dict)
    points: int | None = None
    waits: list = field(default_factory=list)
    failed: set = field(default_factory=set)
    features: set = field(default_factory=set)
    reading: tuple = ()


def hand_items(s: Situation, reading, v: dict, single_wait_shape: bool) -> dict:
    """The 台 items of one reading: list of (kind, tile, concealed, source) for the five sets and the pair."""
    sets = [r for r in reading if r[0] != "pair"]
    pair = next(r[1] for r in reading if r[0] == "pair")
    all_tiles = [k for r in reading for k in set_tiles(r[0], r[1])]
    trips = [r[1] for r in sets if r[0] == "trip"]
    open_sets = [r for r in sets if r[3] in ("chi", "pon", "kong")]
    items: dict[str, int] = {}

    def add(item: str, n: int = 1, value: int | None = None):
        if n:
            items[item] = items.get(item, 0) + (v[item] if value is None else value) * n

    special = s.tian or s.di or s.ren
    honors_only = all(k >= 27 for k in all_tiles)
    suits = {k // 9 for k in all_tiles if k < 27}
    has_honor = any(k >= 27 for k in all_tiles)
    wind_trips = [k for k in trips if k in WINDS]
    dragon_trips = [k for k in trips if k in DRAGONS]
    big4 = len(wind_trips) == 4
    small4 = len(wind_trips) == 3 and pair in WINDS
    big3 = len(dragon_trips) == 3
    small3 = len(dragon_trips) == 2 and pair in DRAGONS
    seat_wind = WINDS[SEATS.index(s.seat)]
    round_wind = WINDS[SEATS.index(s.round)]
    n_concealed = sum(1 for r in sets if r[0] == "trip" and r[2])
    five = n_concealed == 5
    menqing = not open_sets

    # winds and dragons
    if not big4:
        add("seat_wind_pung", seat_wind in wind_trips)
        add("round_wind_pung", round_wind in wind_trips)
    if not (big3 or small3):
        add("dragon_pung", len(dragon_trips))
    add("big_four_winds", big4)
    add("small_four_winds", small4)
    add("big_three_dragons", big3)
    add("small_three_dragons", small3)
    # concealed / self-drawn
    buqiu = menqing and s.zimo and not special
    add("concealed_hand", menqing and not special and not five)
    add("self_drawn_concealed", buqiu)
    add("self_drawn", s.zimo and not buqiu and not special)
    add("all_melded", len(open_sets) == 5 and not s.zimo)
    add("half_melded", len(open_sets) == 5 and s.zimo)
    add("single_wait", single_wait_shape and not special)
    # shapes
    add("ping_hu", all(r[0] == "seq" for r in sets) and not s.flowers and not has_honor
        and not single_wait_shape and not s.zimo)
    add("all_pungs", len(trips) == 5 and not honors_only and not five)
    add("all_honors", honors_only)
    if honors_only and (big4 or small4 or big3 or small3):
        items["all_honors"] -= 4
    add("full_flush", not has_honor and len(suits) == 1)
    add("half_flush", has_honor and len(suits) == 1)
    if n_concealed >= 3:
        add({3: "three_concealed_pungs", 4: "four_concealed_pungs", 5: "five_concealed_pungs"}[n_concealed])
    # the way it was won
    add("robbing_kong", s.qiang)
    add("kong_bloom", s.gang)
    add("last_tile_draw", s.last and s.zimo)
    add("last_tile_discard", s.last and not s.zimo)
    add("heavenly_win", s.tian)
    add("earthly_win", s.di)
    add("human_win", s.ren)
    # flowers
    i = SEATS.index(s.seat)
    for group in ({1, 2, 3, 4}, {5, 6, 7, 8}):
        if group <= s.flowers:
            add("flower_kong")
        else:
            add("seat_flower", len({i + 1, i + 5} & group & s.flowers))
    return items


def settle(s: Situation, tai: int, opts: dict, res: Result) -> None:
    base = s.base if s.base is not None else opts["base"]
    dealer_tai = 1 + 2 * s.lian
    frm = s.frm or OPPOSITE[s.seat]
    payers = [p for p in SEATS if p != s.seat] if s.zimo else [frm]
    pay = {}
    for p in payers:
        each = tai + (dealer_tai if "E" in (s.seat, p) else 0)
        if opts["max_tai"] is not None and each > opts["max_tai"]:
            each = opts["max_tai"]
            res.features.add("capped")
        pay[p] = base + each * opts["per_tai"]
    res.payments = pay
    res.points = sum(pay.values())
    res.net = {p: -pay.get(p, 0) for p in SEATS}
    res.net[s.seat] = res.points


def score(line: str, options: dict | None = None, rules: str = "taiwan", switches: dict | None = None) -> Result:
    opts = {**DEFAULT_OPTIONS, **(options or {})}
    sw = {**LITERAL, **(switches or {})}
    v = VALUES[rules]
    s = parse(line)
    res = Result("win")
    dealer_tai = 1 + 2 * s.lian
    n_tiles = len(s.concealed) + 3 * len(s.melds)
    # the flower wins: "an immediate win whatever the hand" (16 or 17 other tiles)
    if len(s.flowers) == 8:
        item = "eight_flowers" if s.zimo else "seven_rob_one"
        res.items = {item: v[item]}
        res.features.add(item)
        res.features.add(f"flower_win:{n_tiles}")
        return finish(s, v[item], opts, res, dealer_tai, sw)
    if n_tiles == 16:
        res.result = "waiting"
        res.waits = waits(s.concealed, s.melds)
        res.features.add("waiting" if res.waits else "noten")
        return res
    assert n_tiles == 17, f"{n_tiles} tiles: {line}"
    concealed16 = list(s.concealed)
    concealed16.remove(s.win)
    ws = waits(concealed16, s.melds)
    single = len(ws) == 1
    if single and sum(is_complete([*concealed16, k], 5 - len(s.melds)) for k in range(34)) > 1:
        res.features.add("single_by_held_four")
    melded = [(("seq" if kind == "chi" else "trip"), ts[0], kind == "ankong", kind) for kind, ts in s.melds]
    best = None
    for dec in decompositions(counts(s.concealed), 5 - len(s.melds), 1):
        # where the winning tile sits: on a discard a triplet it completes is not concealed
        spots = [j for j, (kind, k) in enumerate(dec) if s.win in set_tiles(kind, k)]
        for j in spots if not s.zimo else [None]:
            reading = [(kind, k, kind == "trip" and j != idx, "hand") for idx, (kind, k) in enumerate(dec)]
            reading += melded
            items = hand_items(s, reading, v, single)
            tai = sum(items.values())
            trial = Result("win", items=items)
            settle(s, tai, opts, trial)
            key = (trial.points, tai if sw["tie_more_tai"] else -tai)
            if best is None or key > best[0]:
                best = (key, items, reading)
    if best is None:
        res.result = "not_a_win"
        res.failed.add("shape")
        return res
    _, res.items, res.reading = best
    res.features.update(res.items)
    if single:
        res.features.add("single_wait_shape")
    res.features.add(f"melds={len(s.melds)}")
    return finish(s, sum(res.items.values()), opts, res, dealer_tai, sw)


def finish(s: Situation, tai: int, opts: dict, res: Result, dealer_tai: int, sw: dict) -> Result:
    res.tai = tai
    frm = s.frm or OPPOSITE[s.seat]
    payers = [p for p in SEATS if p != s.seat] if s.zimo else [frm]
    every = all("E" in (s.seat, p) for p in payers)
    if s.seat != "E" and not sw["sole_payer_dealer_in_fan"]:
        every = False
    res.fan = tai + (dealer_tai if every and sw["dealer_tai_in_fan"] else 0)
    # min_tai: the spec is silent on the dealer 台; both sides follow the decision documented for mjcalc
    # (notes/taiwan-disagreements.md Q1): the winner's own 台, the dealer 台 left out
    if tai < (opts["min_tai"] or 0):
        res.result = "not_a_win"
        res.failed.add("min_tai")
        return res
    settle(s, tai, opts, res)
    res.features.add("zimo" if s.zimo else "discard")
    if s.seat == "E":
        res.features.add("dealer_wins")
    elif s.zimo or (s.frm or OPPOSITE[s.seat]) == "E":
        res.features.add("dealer_pays")
    if s.lian:
        res.features.add("lian")
    if tai == 0:
        res.features.add("zero_tai")
    return res
