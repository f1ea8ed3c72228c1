"""Independent reference scorer for 长春麻将 Changchun, written from spec/rules/changchun.md alone.

It shares no code with mjcalc: its own notation reader (the subset the generator writes), its own
brute-force decomposition, its own settlement.  Simple and slow on purpose: every reading of the
hand (decomposition x placement of the winning tile x substitution of the 摸宝 wildcard) is scored and
the best one kept, exactly as the spec's "Reading the hand" section says.

Tiles are ints 0..33: m 0-8, p 9-17, s 18-26, honors 27-33 (东南西北白发中 = 1z..7z).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

SEATS = ("E", "S", "W", "N")
SUITS = "mpsz"
WINDS = frozenset(range(27, 31))
DRAGONS = frozenset(range(31, 34))
HONORS = WINDS | DRAGONS


def t(s: str) -> int:
    """'5m' -> 4."""
    return SUITS.index(s[1]) * 9 + int(s[0]) - 1


def name(k: int) -> str:
    return f"{k % 9 + 1}{SUITS[k // 9]}"


def suit(k: int) -> int:
    return k // 9


def is_terminal(k: int) -> bool:
    return k < 27 and k % 9 in (0, 8)


YAO_DAN = frozenset({t("1m"), t("1p"), t("1s")})
JIU_DAN = frozenset({t("9m"), t("9p"), t("9s")})
# 大蛋: an ordinary kong of 1s, 1p, 中, 发 or 白
DA_DAN = frozenset({t("1s"), t("1p"), t("5z"), t("6z"), t("7z")})


# --------------------------------------------------------------------------- notation (subset)

@dataclass
class Meld:
    kind: str          # chi | pon | kong | ankong | special
    tiles: list[int]
    special: str = ""  # xuanfeng | xi | yaodan | jiudan
    extras: int = 0


@dataclass
class Situation:
    concealed: list[int]          # includes the winning tile
    win: int                      # the winning tile as written
    melds: list[Meld]
    seat: str = "S"
    zimo: bool = False
    frm: str | None = None
    bao: int | None = None
    mobao: bool = False
    duibao: bool = False
    base: int | None = None
    cap: int | None = None
    baozhuang: bool = False
    closed: tuple[str, ...] = ()   # other seats whose hands are closed (+closed=W,N)


def expand(group: str) -> list[int]:
    out, digits = [], ""
    for ch in group:
        if ch.isdigit():
            digits += ch
        else:
            out += [t(d + ch) for d in digits]
            digits = ""
    assert not digits, group
    return out


def special_kind(ts: list[int], mil: bool) -> tuple[str, int]:
    """(kind, extras) of a special kong.  changchun-mil: 旋风杠 needs any three different winds, and 1s is
    wild inside any special kong and as a tile added to one ({1m1s1s}, {123z1s}, {1m1p1s1s}); every tile beyond
    the three it needs is an added tile (加杠)."""
    kinds = set(ts)
    if not mil:
        for sp, core in (("xuanfeng", WINDS), ("xi", DRAGONS), ("yaodan", YAO_DAN), ("jiudan", JIU_DAN)):
            if kinds == set(core):
                return sp, len(ts) - len(core)
        raise ValueError(f"not a Changchun special kong: {ts}")
    one_s = t("1s")
    wild = ts.count(one_s)
    rest = kinds - {one_s}
    # 幺蛋 first: there a 1s is also itself, so three 1s are a 幺蛋 rather than three wild tiles of another kong
    for sp, core in (("yaodan", YAO_DAN), ("xuanfeng", WINDS), ("xi", DRAGONS), ("jiudan", JIU_DAN)):
        if rest <= core and len(rest) + wild >= 3:
            return sp, len(ts) - 3
    raise ValueError(f"not a changchun-mil special kong: {ts}")


GROUP = re.compile(r"\[[^\]]*\]|\([^)]*\)|\{[^}]*\}|[^\s\[\(\{]+")


def read_line(line: str, special) -> tuple[list[int], list[Meld], list[tuple[str, str]]]:
    """The notation subset these reference scorers read (shared by the Changchun, Jilin and Meihe ones): the
    concealed tiles, the melds (a special kong's kind and extras by ``special(tiles)``), the flags as
    (lower-case key, value)."""
    body, *flags = line.split("+")
    concealed: list[int] = []
    melds: list[Meld] = []
    for tok in GROUP.findall(body):
        ts = expand(tok[1:-1] if tok[0] in "[({" else tok)
        if tok[0] == "[":
            kind = "kong" if len(ts) == 4 else ("pon" if len(set(ts)) == 1 else "chi")
            melds.append(Meld(kind, sorted(ts) if kind == "chi" else ts))
        elif tok[0] == "(":
            melds.append(Meld("ankong", ts))
        elif tok[0] == "{":
            sp, extras = special(ts)
            melds.append(Meld("special", ts, sp, extras))
        else:
            concealed += ts
    words = [f.strip().partition("=") for f in flags if f.strip()]
    return concealed, melds, [(key.lower(), val) for key, _, val in words]


def parse(line: str, mil: bool = False) -> Situation:
    concealed, melds, flags = read_line(line, lambda ts: special_kind(ts, mil))
    s = Situation(concealed=concealed, win=concealed[-1], melds=melds)
    for key, val in flags:
        if key == "zimo":
            s.zimo = True
        elif key == "seat":
            s.seat = val
        elif key == "dealer":
            s.seat = "E"
        elif key == "from":
            s.frm = val
        elif key == "bao":
            s.bao = t(val)
        elif key == "mobao":
            s.mobao = True
        elif key == "duibao":
            s.duibao = True
        elif key == "base":
            s.base = int(val)
        elif key == "cap":
            s.cap = int(val)
        elif key == "baozhuang":
            s.baozhuang = True
        elif key == "win":
            s.win = t(val)
        elif key == "closed":
            s.closed = tuple(val.split(","))
        else:
            raise ValueError(f"flag not used by the reference: +{key}")
    return s


# --------------------------------------------------------------------------- decomposition

def decompositions(counts: list[int], nsets: int, seven_pairs: bool = False):
    """Every way to read `counts` as nsets sets (sequences / triplets) + one pair, and, when
    `seven_pairs` (changchun-mil) and the hand has no melds, as seven pairs (four of a kind = two pairs).

    Yields lists of (kind, first_tile) with kind in 'seq', 'trip', 'pair'; a seven-pairs reading is
    seven ('pair', k) entries.  Brute force: pick the pair, then peel sets off the lowest tile."""
    if sum(counts) != 3 * nsets + 2:
        return
    for p in range(34):
        if counts[p] >= 2:
            c = counts[:]
            c[p] -= 2
            for sets in _sets(c):
                yield [("pair", p), *sets]
    if seven_pairs and nsets == 4 and all(n % 2 == 0 for n in counts):
        yield [("pair", k) for k in range(34) for _ in range(counts[k] // 2)]


def _sets(c: list[int]):
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        yield []
        return
    if c[i] >= 3:
        c[i] -= 3
        for rest in _sets(c):
            yield [("trip", i), *rest]
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        for rest in _sets(c):
            yield [("seq", i), *rest]
        for k in (i, i + 1, i + 2):
            c[k] += 1


def counts_of(tiles) -> list[int]:
    c = [0] * 34
    for x in tiles:
        c[x] += 1
    return c


def shape_waits(concealed13: list[int], nsets: int, seven_pairs: bool = False) -> set[int]:
    c = counts_of(concealed13)
    out = set()
    for k in range(34):
        c[k] += 1
        if any(True for _ in decompositions(c, nsets, seven_pairs)):
            out.add(k)
        c[k] -= 1
    return out


# --------------------------------------------------------------------------- rulesets & result

DEFAULTS = {
    "changchun": {"base": 1, "cap": 1000, "cap_scope": "per_player_net", "dealer_pays_extra": False,
                  "discarder_pays_all": False},
    # the preset's own cap is 6 fan per payer; the 1000 cap of changchun is not part of it
    "changchun-mil": {"base": 1, "cap": None, "cap_scope": "per_player_net", "dealer_pays_extra": False,
                      "discarder_pays_all": False},
}

# Interpretation switches, for the places where the spec text can be read two ways.  The defaults are
# the literal reading; the test reports a disagreement that a switch explains as that class.
LITERAL = {
    # changchun-mil: a 1s standing wild inside a special kong is still a physical 1s: with three more 1s
    # the player "holds all four" (夹胡's waits) and no wildcard may stand for a fifth 1s.  (For the win
    # conditions it counts as the tile it stands for, as the spec says of wildcards.)
    "mil_wild_1s_is_held_1s": True,
}


@dataclass
class Result:
    result: str
    fan: int | None = None
    items: list[tuple[str, int]] = field(default_factory=list)
    payments: dict[str, int] = field(default_factory=dict)       # payer -> summed amount (after cap)
    kong: dict[str, int] = field(default_factory=dict)           # payer -> summed kong points
    net: dict[str, int] = field(default_factory=dict)
    points: int | None = None
    failed: list[str] = field(default_factory=list)
    reading: tuple | None = None
    features: set = field(default_factory=set)   # coverage bookkeeping for the test report


def next_seats(seat: str) -> list[str]:
    i = SEATS.index(seat)
    return [SEATS[(i + k) % 4] for k in (1, 2, 3)]


def kong_points(melds: list[Meld], base: int, special, big: frozenset[int] = DA_DAN) -> int:
    """Points each of the other three pays the winner for his kongs: 明杠 1, 暗杠 2, doubled for a ``big`` kind
    (大蛋), a special kong ``special(meld)``."""
    total = 0
    for m in melds:
        if m.kind == "kong":
            total += 2 if m.tiles[0] in big else 1
        elif m.kind == "ankong":
            total += 4 if m.tiles[0] in big else 2
        elif m.kind == "special":
            total += special(m)
    return total * base


def largest_remainder(amounts: list[tuple[str, int]], cap: int, order: list[str]) -> list[int]:
    """Scale amounts so they add up to exactly cap; equal remainders go to the payer earliest in `order`."""
    total = sum(a for _, a in amounts)
    exact = [Fraction(a * cap, total) for _, a in amounts]
    floors = [int(x) for x in exact]
    left = cap - sum(floors)
    rank = sorted(range(len(amounts)), key=lambda i: (-(exact[i] - floors[i]), order.index(amounts[i][0])))
    for i in rank[:left]:
        floors[i] += 1
    return floors


# --------------------------------------------------------------------------- the scorer

def score(line: str, options: dict | None = None, rules: str = "changchun", interp: dict | None = None) -> Result:
    mil = rules == "changchun-mil"
    s = parse(line, mil)
    opts = {**DEFAULTS[rules], **(options or {})}
    if s.base is not None:
        opts["base"] = s.base
    if s.cap is not None:
        opts["cap"] = s.cap
    return score_situation(s, opts, mil, {**LITERAL, **(interp or {})})


def score_situation(s: Situation, opts: dict, mil: bool = False, interp: dict = LITERAL) -> Result:
    base = opts["base"]
    melds = s.melds
    nsets = 4 - len(melds)
    self_drawn = s.zimo or s.mobao or s.duibao  # 宝牌 and 对宝 imply 自摸
    discarder = None if self_drawn else (s.frm or SEATS[(SEATS.index(s.seat) + 2) % 4])
    payers = next_seats(s.seat)
    open_hand = any(m.kind in ("chi", "pon", "kong") for m in melds)
    # mil 门清 is 未吃、碰、明杠: a tile added to a special kong is a 加杠 (小明杠) and opens the hand too
    special_added = any(m.kind == "special" and m.extras > 0 for m in melds)
    meld_tiles = [x for m in melds for x in m.tiles]
    # for the win conditions a wild 1s inside a special kong counts as the tile it stands for
    cond_meld_tiles = [x for m in melds for x in (logical_tiles(m) if mil else m.tiles)]
    has_special = any(m.kind == "special" for m in melds)
    meld_has_triplet = any(m.kind in ("pon", "kong", "ankong") for m in melds)
    meld_all_triplets = all(m.kind != "chi" for m in melds)
    # mil 手把一: "暗杠计为手牌", a concealed kong is tiles in hand; changchun: every kong is declared
    shown = sum(m.kind != "ankong" for m in melds) if mil else len(melds)
    # 1 a special kong, each 补 / added tile one more (mil: "1 from each when shown", each added tile a 加杠)
    kp = kong_points(melds, base, lambda m: 1 + m.extras)

    others = list(s.concealed)
    others.remove(s.win)  # the 13-tile hand's concealed part
    held13 = counts_of(others + meld_tiles)
    if mil and not interp["mil_wild_1s_is_held_1s"]:
        held13[t("1s")] -= sum(m.tiles.count(t("1s")) - logical_tiles(m).count(t("1s")) for m in melds
                               if m.kind == "special")
    all_waits = shape_waits(others, nsets, mil)
    waits = {k for k in all_waits if held13[k] < 4}

    def failed_conditions(conc: list[int], dec) -> list[str]:
        whole = conc + cond_meld_tiles
        seven = len(dec) == 7
        pair, sets = dec[0][1], dec[1:]
        piao = not seven and meld_all_triplets and all(kind == "trip" for kind, _ in sets)
        checks = (
            ("three_suits", {0, 1, 2} <= {suit(k) for k in whole}),
            ("terminal", any(is_terminal(k) or k in HONORS for k in whole)),
            ("triplet", seven or meld_has_triplet or any(kind == "trip" for kind, _ in sets) or has_special
             or pair in DRAGONS),
            ("one_tile_left", shown < 4 or piao),
        )
        return [n for n, ok in checks if not ok]

    # mil 单和: "只能和这一张牌" — the waits on which the hand could make a legal win (every condition held)
    legal = {k for k in waits if any(not failed_conditions([*others, k], dec)
                                     for dec in decompositions(counts_of([*others, k]), nsets, mil))}

    # with mobao the winning tile is a wildcard; it never stands for a fifth copy of a tile
    candidates = [x for x in range(34) if held13[x] < 4] if s.mobao else [s.win]

    best = None
    fans_seen: set[int] = set()
    failed_all: set[str] = set()
    for x in candidates:
        conc = [*others, x]
        any_dec = False
        for dec in decompositions(counts_of(conc), nsets, mil):
            any_dec = True
            seven = len(dec) == 7
            sets = dec[1:]
            piao = not seven and meld_all_triplets and all(kind == "trip" for kind, _ in sets)
            failed = failed_conditions(conc, dec)
            if failed:
                failed_all.update(failed)
                continue
            # placements of the winning tile among the concealed groups holding its kind
            placements = set()
            for kind, first in dec:
                if kind == "pair" and first == x:
                    placements.add("pair")
                elif kind == "trip" and first == x:
                    placements.add("trip")
                elif kind == "seq" and first <= x <= first + 2:
                    pos, n = x - first, first % 9
                    if pos == 1:
                        placements.add("closed")
                    elif (pos == 2 and n == 0) or (pos == 0 and n == 6):
                        placements.add("edge")
                    else:
                        placements.add("open")
            for pl in placements:
                # mil: 夹 / 单吊 / 单和 are for the basic shape only ("基本和牌型中…"): never with seven pairs
                only = legal == {x} if mil else waits == {x}
                single = not piao and not (mil and seven) and (pl in ("pair", "closed", "edge") or only)
                # mil: seven pairs are "必然门清，与门清不复合": no 门清 with them
                closed = not open_hand and not (mil and (seven or special_added))
                items = items_for(s, mil, self_drawn, single, piao, seven, closed, conc, x)
                fan = sum(v for _, v in items)
                fans_seen.add(fan)
                raw = raw_payments(fan, s, payers, discarder, opts, mil)
                total = sum(raw.values()) + 3 * kp
                key = (total, -len(items))
                if best is None or key > best[0]:
                    best = (key, fan, items, raw, (x, tuple(dec), pl))
        if not any_dec:
            failed_all.add("shape")
    wild_decides = mil and cond_meld_tiles != meld_tiles and any(
        ({0, 1, 2} <= {suit(k) for k in [*others, x, *meld_tiles]})
        != ({0, 1, 2} <= {suit(k) for k in [*others, x, *cond_meld_tiles]}) for x in candidates)
    if best is None:
        res = Result("not_a_win", failed=sorted(failed_all))
        if wild_decides:
            res.features.add("mil:wild_1s_decides_three_suits")
        if mil and shown == 4 and nsets == 0 and "one_tile_left" in failed_all:
            res.features.add("mil:one_tile_left_refused")
        return res
    _, fan, items, raw, reading = best
    # changchun-mil: 6 fan per payer, all adjustments included (at most 64 x base per payment)
    capped = {p: min(a, 64 * base) for p, a in raw.items()} if mil else raw
    pay = settle(capped, s, discarder, payers, opts, mil)
    kong = {p: kp for p in payers} if kp else {}
    net = {p: 0 for p in SEATS}
    for p, a in [*pay.items(), *kong.items()]:
        net[p] -= a
        net[s.seat] += a
    feats = features(s, opts, mil, items, reading, raw, others, nsets, all_waits, waits, fans_seen, discarder)
    if wild_decides:
        feats.add("mil:wild_1s_decides_three_suits")
    if mil:
        if legal != waits and reading[2] not in ("pair", "closed", "edge") and legal == {reading[0]}:
            feats.add("mil:single_wait_by_legal_waits")
        if nsets == 0 and shown < 4:
            feats.add("mil:concealed_kong_is_tiles_in_hand")
        if special_added and not open_hand:
            feats.add("mil:special_added_opens")
        if len(reading[1]) == 7 and 4 in counts_of(others) and "seven_pairs" in {i for i, _ in items}:
            feats.add("mil:four_held_is_seven_pairs")
    # OUTPUT.md: fan is what every payment holds; 庄 (mil) is on every payment when the dealer wins
    return Result("win", fan + (mil and s.seat == "E"), items, pay, kong, net, sum(pay.values()), reading=reading,
                  features=feats)


def logical_tiles(m: Meld) -> list[int]:
    """changchun-mil: a meld's tiles as they count for the win conditions. In a special kong each wild 1s
    stands for a kind of the kong it lacks, else (an added tile) for one of its kinds — a 1s on a 幺蛋 is itself
    (only suit and terminal / honor matter for the conditions)."""
    if m.kind != "special":
        return m.tiles
    core = {"xuanfeng": WINDS, "xi": DRAGONS, "yaodan": YAO_DAN, "jiudan": JIU_DAN}[m.special]
    one_s = t("1s")
    real = [x for x in m.tiles if x != one_s]
    missing = sorted(core - set(real))
    out = list(real)
    for _ in range(m.tiles.count(one_s)):
        out.append(missing.pop(0) if missing else one_s if one_s in core else min(core))
    return out


def items_for(s, mil, self_drawn, single, piao, seven, closed, conc, x) -> list[tuple[str, int]]:
    """The winner-side items (those every payer pays); per-payer adjustments are in raw_payments."""
    items = [("basic_win", 0 if mil else 1)]
    if self_drawn:
        items.append(("self_drawn", 1))
    if single:
        items.append(("single_wait", 1))
    if s.mobao:
        items.append(("treasure", 1 if mil else 2))
    elif s.duibao:
        items.append(("matched_treasure", 2))
    if piao:
        items.append(("all_triplets", 2))
    if seven:
        # 豪华七对: "听牌为手中已经有的一对" — the winning tile makes the four; a four held before is 七对
        items.append(("luxury_seven_pairs", 4) if counts_of(conc)[x] == 4 else ("seven_pairs", 3))
    if s.seat == "E" and not mil:
        items.append(("dealer_win", 1))
    if closed:
        items.append(("closed_win", 1))
    return items


def raw_payments(fan: int, s: Situation, payers, discarder, opts, mil) -> dict[str, int]:
    """Each payer's amount before any cap (the reading choice compares these: "before any cap")."""
    base = opts["base"]
    out = {}
    for p in payers:
        f = fan + (p == discarder)
        if mil:
            f += (p == "E" or s.seat == "E")            # 庄 +1 on every payment between dealer and other
            out[p] = 2 ** f * base
        else:
            f += bool(opts["dealer_pays_extra"] and p == "E")
            out[p] = 2 ** (f - 1) * base
    return out


def settle(raw: dict[str, int], s: Situation, discarder, payers: list[str], opts: dict, mil: bool) -> dict[str, int]:
    """Hand payments after 点炮全包 / 包庄 and the cap, summed per payer."""
    cap = opts["cap"]
    covers = discarder and (opts["discarder_pays_all"] or (mil and s.baozhuang))
    shares = [(p, discarder if covers else p, raw[p]) for p in payers]
    if cap is not None:
        if opts["cap_scope"] == "per_payer":
            shares = [(p, who, min(a, cap)) for p, who, a in shares]
        elif sum(a for _, _, a in shares) > cap:
            scaled = largest_remainder([(p, a) for p, _, a in shares], cap, payers)
            shares = [(p, who, a) for (p, who, _), a in zip(shares, scaled, strict=True)]
    out: dict[str, int] = {}
    for _, who, a in shares:
        out[who] = out.get(who, 0) + a
    return out


def features(s, opts, mil, items, reading, raw, others, nsets, all_waits, waits, fans_seen, discarder) -> set:
    """Coverage bookkeeping: which rules this situation exercised (the test prints the counts)."""
    feats = set()
    x, _dec, pl = reading
    ids = {i for i, _ in items}
    if "single_wait" in ids:
        feats.add(f"single_wait:{pl}")
        if pl not in ("pair", "closed", "edge"):
            feats.add("single_wait:by_waits_only")
    if all_waits != waits:
        feats.add("wait_held_four_left_out")
    if "all_triplets" in ids:
        feats.add("all_triplets" + (":one_tile_left" if nsets == 0 else ""))
    for i in ("seven_pairs", "luxury_seven_pairs"):
        if i in ids:
            feats.add(i)
    if s.mobao:
        feats.add("mobao" + (":sub_differs" if x != s.win else "") + (":no_zimo_flag" if not s.zimo else ""))
    if s.duibao:
        feats.add("duibao" + (":no_zimo_flag" if not s.zimo else ""))
    if len(fans_seen) > 1:
        feats.add("reading_choice_mattered")
    for m in s.melds:
        if m.kind in ("kong", "ankong") and m.tiles[0] in DA_DAN:
            feats.add(f"dadan:{m.kind}")
        if m.kind == "special":
            feats.add(f"special:{m.special}:extras={m.extras}")
            if mil and m.tiles.count(t("1s")) > logical_tiles(m).count(t("1s")):
                feats.add("mil:special_1s_wild" + (":added" if m.extras and t("1s") in m.tiles[3:] else ""))
    if opts["dealer_pays_extra"] and s.seat != "E":
        feats.add("dealer_pays_extra")
    if discarder and opts["discarder_pays_all"]:
        feats.add("discarder_pays_all")
    if discarder and mil and s.baozhuang:
        feats.add("mil:baozhuang")
    if mil and max(raw.values()) > 64 * opts["base"]:
        feats.add("mil:six_fan_cap")
    if opts["cap"] is not None:
        amounts = [min(a, 64 * opts["base"]) if mil else a for a in raw.values()]
        tot = sum(amounts)
        if opts["cap_scope"] == "per_payer" and max(amounts) > opts["cap"]:
            feats.add("cap:per_payer_cut")
        if opts["cap_scope"] == "per_player_net" and tot > opts["cap"]:
            feats.add("cap:net_scaled")
            fr = sorted(Fraction(a * opts["cap"], tot) % 1 for a in amounts)
            if fr[0] != 0 and len(set(fr)) < 3:
                feats.add("cap:net_equal_remainders")
    return feats
