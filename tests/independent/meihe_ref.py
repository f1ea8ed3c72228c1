"""Independent reference scorer for 梅河麻将 Meihe, written from spec/rules/meihe.md alone.

No code shared with mjcalc.  Brute force on purpose: every decomposition of the concealed tiles, with
the 会牌 wildcards standing for every kind they can (never a fifth copy), is checked against the win
conditions and scored; the reading with the highest total to the winner (hand + kong points) is kept,
ties going to fewer items.

Tiles are ints 0..33: m 0-8, p 9-17, s 18-26, 东南西北 27-30, 白发中 31-33 (= 5z 6z 7z).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from changchun_ref import Meld, is_terminal, read_line, t  # the audit's shared notation reader

SEATS = ("E", "S", "W", "N")
SUITS = "mpsz"
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
DA_GANG = {18, 0, 9, 31, 32, 33}  # 1s 1m 1p 白 发 中

# interpretation switches (LITERAL = the reading of the spec text this reference takes by default)
LITERAL = {
    # 中发白 叫胡: "two of them in hand (real tiles, no wildcard), the winning tile the third"; settled in
    # spec/rules/meihe.md: "a drawn wildcard cannot be the winning tile of a 中发白 叫胡"
    "zfb_wild_winning_tile": False,
}


def next_kind(k: int) -> int:
    """The wildcard from the flipped tile: 1->2 ... 9->1, 东->南->西->北->东, 中->发->白->中."""
    if k < 27:
        return k // 9 * 9 + (k % 9 + 1) % 9
    if k in WINDS:
        return 27 + (k - 27 + 1) % 4
    return {33: 32, 32: 31, 31: 33}[k]


def prev_kind(k: int) -> int:
    return next(x for x in range(34) if next_kind(x) == k)


@dataclass
class Situation:
    concealed: list[int]
    win: int
    melds: list[Meld]
    seat: str = "S"
    zimo: bool = False
    frm: str | None = None
    hui: int | None = None
    flip: int | None = None
    closed: tuple = ()
    gang: bool = False
    gangpao: bool = False
    tian: bool = False
    di: bool = False
    base: int = 1
    cap: int | None = None


def special_of(ts: list[int]) -> tuple[str, int]:
    kinds = set(ts)
    if kinds <= set(DRAGONS) and len(kinds) == 3:
        return "zfb", len(ts) - 3
    if kinds <= set(WINDS) and len(kinds) == 4:
        return "winds", len(ts) - 4
    if all(is_terminal(k) for k in ts) and ({0, 9, 18} <= kinds or {8, 17, 26} <= kinds):
        return "yaojiu", len(ts) - 3
    raise ValueError(f"not a special kong: {ts}")


def parse(line: str) -> Situation:
    concealed, melds, flags = read_line(line, special_of)
    s = Situation(concealed, concealed[-1], melds)
    for key, val in flags:
        if key == "zimo":
            s.zimo = True
        elif key == "seat":
            s.seat = val
        elif key == "from":
            s.frm = val
        elif key == "hui":
            s.hui = t(val)
        elif key == "flip":
            s.flip = t(val)
        elif key == "closed":
            s.closed = tuple(val.split(","))
        elif key in ("gang", "gangpao", "tian", "di"):
            setattr(s, key, True)
        elif key == "base":
            s.base = int(val)
        elif key == "cap":
            s.cap = int(val)
        else:
            raise ValueError(f"flag not used by the reference: +{key}")
    return s


# --------------------------------------------------------------------------- decomposition with jokers

def _all_joker(j: int, nsets: int, npair: int):
    """Sets made of jokers only: at most one set or one pair (four jokers cannot be set + pair)."""
    if j == 0 and nsets == 0 and npair == 0:
        yield [], []
    elif j == 3 and nsets == 1 and npair == 0:
        for k in range(34):
            yield [("trip", k)], [k] * 3
        for k in range(27):
            if k % 9 <= 6:
                yield [("seq", k)], [k, k + 1, k + 2]
    elif j == 2 and nsets == 0 and npair == 1:
        for k in range(34):
            yield [("pair", k)], [k, k]


def decompose(c: list[int], j: int, nsets: int, npair: int):
    """Yield (sets, joker substitutions) covering counts c and j jokers with nsets sets + npair pairs."""
    i = next((x for x in range(34) if c[x]), None)
    if i is None:
        yield from _all_joker(j, nsets, npair)
        return
    # 中发白 set of real tiles (叫胡 candidate)
    if i == 31 and nsets and c[32] and c[33]:
        c[31] -= 1
        c[32] -= 1
        c[33] -= 1
        for sets, subs in decompose(c, j, nsets - 1, npair):
            yield [("zfb", 31), *sets], subs
        c[31] += 1
        c[32] += 1
        c[33] += 1
    # 中发白 叫胡 whose third (winning) tile is a wildcard: two real dragons + a joker
    if i in (31, 32) and nsets and j:
        for other in range(i + 1, 34):
            if c[other]:
                miss = ({31, 32, 33} - {i, other}).pop()
                c[i] -= 1
                c[other] -= 1
                for sets, subs in decompose(c, j - 1, nsets - 1, npair):
                    yield [("zfbw", miss), *sets], [miss, *subs]
                c[i] += 1
                c[other] += 1
    if npair:
        for r in (1, 2):
            if r <= c[i] and 2 - r <= j:
                c[i] -= r
                for sets, subs in decompose(c, j - (2 - r), nsets, npair - 1):
                    yield [("pair", i), *sets], [i] * (2 - r) + subs
                c[i] += r
    if nsets:
        for r in (1, 2, 3):
            if r <= c[i] and 3 - r <= j:
                c[i] -= r
                for sets, subs in decompose(c, j - (3 - r), nsets - 1, npair):
                    yield [("trip", i), *sets], [i] * (3 - r) + subs
                c[i] += r
        if i < 27:
            for start in (i - 2, i - 1, i):
                if start // 9 != i // 9 or start < 0 or start % 9 > 6:
                    continue
                others = [x for x in (start, start + 1, start + 2) if x != i]
                # each other member: a real tile (only if above i) or a joker
                for mask in range(4):
                    real = [x for b, x in enumerate(others) if mask >> b & 1]
                    jok = [x for b, x in enumerate(others) if not mask >> b & 1]
                    if any(x < i or c[x] == 0 for x in real) or len(jok) > j:
                        continue
                    c[i] -= 1
                    for x in real:
                        c[x] -= 1
                    for sets, subs in decompose(c, j - len(jok), nsets - 1, npair):
                        yield [("seq", start), *sets], jok + subs
                    c[i] += 1
                    for x in real:
                        c[x] += 1


def set_tiles(st) -> list[int]:
    kind, k = st
    return {"pair": [k, k], "trip": [k] * 3, "seq": [k, k + 1, k + 2], "zfb": [31, 32, 33],
            "zfbw": [31, 32, 33]}[kind]


# --------------------------------------------------------------------------- scoring

@dataclass
class Result:
    result: str
    fan: int | None = None
    items: list = field(default_factory=list)
    payments: dict = field(default_factory=dict)
    kong: dict = field(default_factory=dict)
    net: dict = field(default_factory=dict)
    points: int | None = None
    failed: set = field(default_factory=set)
    reading: tuple = ()
    features: set = field(default_factory=set)


def others_of(seat: str) -> list[str]:
    i = SEATS.index(seat)
    return [SEATS[(i + d) % 4] for d in (1, 2, 3)]


def score(line: str, options: dict | None = None, interp: dict | None = None) -> Result:
    s = parse(line)
    if s.gang or s.tian or s.di:
        s.zimo = True   # NOTATION.md: +gang, +tian, +di are self-draws
    if options and "base" in options:
        s.base = int(options["base"])
    if options and "cap" in options:
        s.cap = int(options["cap"])
    return score_situation(s, {**LITERAL, **(interp or {})})


def wildcard_of(s: Situation):
    if s.hui is not None and s.flip is not None and next_kind(s.flip) != s.hui:
        return None, None
    hui = s.hui if s.hui is not None else next_kind(s.flip)
    flipped = s.flip if s.flip is not None else prev_kind(hui)
    return hui, flipped


def fixed_kong_points(s: Situation, hui: int, flipped: int) -> tuple[int, set]:
    pts, feats = 0, set()
    for m in s.melds:
        if m.kind == "kong":
            pts += 2 if m.tiles[0] in DA_GANG else 1
            feats.add("dagang:exposed" if m.tiles[0] in DA_GANG else "minggang")
        elif m.kind == "ankong":
            if m.tiles[0] == hui:
                pts += 8
                feats.add("huangjin")
            else:
                pts += 2
                feats.add("dagang:concealed" if m.tiles[0] in DA_GANG else "angang")
        elif m.kind == "special":
            pts += {"zfb": 2, "winds": 4, "yaojiu": 2}[m.special] + m.extras
            feats.add(f"special:{m.special}:mao={m.extras}")
    # 瘸腿杠: the three real tiles left of the flipped kind, as a pon or all concealed (winning tile incl.)
    if any(m.kind == "pon" and m.tiles[0] == flipped for m in s.melds) or s.concealed.count(flipped) == 3:
        pts += 1
        feats.add("quetui")
    return pts, feats


def undeclared_fours(s: Situation, hui: int, sets) -> list[int]:
    """Kinds held four times but not declared as a kong: hand + chi / pon melds; declared kongs and
    special-kong tiles apart -- and a 中发白 叫胡 set counts as a 中发白杠, so its tiles are apart too."""
    cnt = [0] * 34
    for k in s.concealed:
        cnt[k] += 1
    for m in s.melds:
        if m.kind in ("chi", "pon"):
            for k in m.tiles:
                cnt[k] += 1
    for kind, miss in sets:
        if kind == "zfb":
            for k in DRAGONS:
                cnt[k] -= 1
        elif kind == "zfbw":
            for k in DRAGONS:
                cnt[k if k != miss else hui] -= 1
    return [k for k in range(34) if cnt[k] == 4]


def cap_net(pay: dict, cap: int, order: list[str]) -> dict:
    """changchun.md per_player_net: scale every payment in proportion so that they add up to exactly
    the cap, rounding by largest remainder; equal remainders: the payer next after the winner first."""
    total = sum(pay.values())
    out = {p: int(pay[p] * cap // total) for p in order}
    left = cap - sum(out.values())
    rema = sorted(order, key=lambda p: (-(pay[p] * cap % total), order.index(p)))
    for p in rema[:left]:
        out[p] += 1
    return out


def score_situation(s: Situation, interp: dict) -> Result:
    hui, flipped = wildcard_of(s)
    if hui is None:
        return Result("error")
    if not s.zimo and s.win == hui:
        return Result("error")   # a wildcard is never discarded
    if any(m.kind in ("chi", "pon", "kong") and hui in m.tiles for m in s.melds):
        return Result("error")   # nor used in a chi, pon or exposed kong
    base = s.base
    seat = s.seat
    payers = others_of(seat)
    discarder = None if s.zimo else (s.frm or payers[1])
    jokers = s.concealed.count(hui)
    real = [k for k in s.concealed if k != hui]
    c = [0] * 34
    for k in real:
        c[k] += 1
    golden = [m for m in s.melds if m.kind == "ankong" and m.tiles[0] == hui]
    nsets = 4 - len(s.melds)
    # real tiles of each kind in the whole hand (for the fifth-copy rule)
    phys = [0] * 34
    for k in s.concealed:
        phys[k] += 1
    for m in s.melds:
        for k in m.tiles:
            phys[k] += 1
    limit = [4] * 34   # "never a fifth copy" (the flipped tile on the table is not counted)
    kong_fixed, kfeats = fixed_kong_points(s, hui, flipped)

    open_melds = [m for m in s.melds if m.kind in ("chi", "pon", "kong")]
    declared_kong = any(m.kind in ("kong", "ankong", "special") for m in s.melds)
    winner_closed = not open_melds
    closed_losers = [p for p in payers if p in s.closed]
    holds_wild = jokers > 0 or bool(golden)

    best = None
    failed_all: set = set()
    seen = set()
    for sets, subs in decompose(c[:], jokers, nsets, 1):
        key = (tuple(sorted(sets)), tuple(sorted(subs)))
        if key in seen:
            continue
        seen.add(key)
        # never a fifth copy (counting the wildcard tiles themselves as what they stand for)
        tot = phys[:]
        tot[hui] -= jokers
        for k in subs:
            tot[k] += 1
        if any(tot[k] > limit[k] for k in range(34)):
            continue
        zfb = any(st[0] in ("zfb", "zfbw") for st in sets)
        if sum(st[0] in ("zfb", "zfbw") for st in sets) > 1:
            continue   # 中发白 叫胡 is the last set of the hand: one at most
        if any(st[0] == "zfb" for st in sets) and s.win not in DRAGONS:
            continue   # 中发白 叫胡: the winning tile is the third
        if any(st[0] == "zfbw" for st in sets) and not (interp["zfb_wild_winning_tile"] and s.win == hui):
            continue   # the wildcard third tile must be the winning tile
        # all tiles as what they stand for (黄金杠 supplies nothing)
        tiles = []
        for st in sets:
            tiles += set_tiles(st)
        for m in s.melds:
            if m in golden:
                continue
            tiles += m.tiles
        failed = set()
        if not {k // 9 for k in tiles if k < 27} >= {0, 1, 2}:
            failed.add("three_suits")
        has_special = zfb or any(m.kind == "special" for m in s.melds)
        waived = has_special or any(k in DRAGONS for k in tiles)
        if not waived and not any(is_terminal(k) for k in tiles):
            failed.add("terminal")
        has_trip = (any(st[0] in ("trip", "zfb", "zfbw") for st in sets)
                    or any(m.kind in ("pon", "kong", "ankong", "special") for m in s.melds))
        if not waived and not has_trip:
            failed.add("triplet")
        piao = (not any(st[0] == "seq" for st in sets)) and not any(m.kind == "chi" for m in s.melds)
        if len(open_melds) > 3 and not piao and not declared_kong:
            failed.add("five_in_hand")
        if zfb and not s.zimo:
            failed.add("zfb_selfdraw_only")
        if failed:
            failed_all |= failed
            continue
        # items
        items = []       # (id, fan, scope) scope: all | discarder | dealer | closed
        if s.tian:
            items = [("heavenly_win", 4, "all")]
        elif s.di:
            items = [("earthly_win", 3, "all")]
        else:
            items.append(("basic_win", 1, "all"))
            if s.zimo:
                items.append(("self_drawn", 1, "all"))
            else:
                items.append(("dealt_in", 1, "discarder"))
            items.append(("dealer", 1, "dealer"))
            if winner_closed and len(closed_losers) == 3:
                items.append(("four_closed", 3, "all"))
            elif len(closed_losers) == 3:
                items.append(("three_closed", 2, "all"))
            elif closed_losers:
                items.append(("closed_payer", 1, "closed"))
            if s.gang:
                items.append(("kong_bloom", 1, "all"))
            if s.gangpao and not s.zimo:
                items.append(("kong_dealt_in", 1, "discarder"))
            if not holds_wild:
                items.append(("no_wildcard", 1, "all"))
            if piao:
                items.append(("all_triplets", 2, "all"))
        pay = {}
        for p in payers:
            f = 0
            for _, v, scope in items:
                if (scope == "all" or (scope == "discarder" and p == discarder)
                        or (scope == "dealer" and (seat == "E" or p == "E"))
                        or (scope == "closed" and p in closed_losers)):
                    f += v
            pay[p] = base * 2 ** (f - 1)
        fours = undeclared_fours(s, hui, sets)
        kpts = kong_fixed + (2 if zfb else 0) + len(fours)
        total = sum(pay.values()) + 3 * kpts * base
        rank = (total, -len(items))   # highest total to the winner; on a tie, fewer items
        if best is None or rank > best[0]:
            # OUTPUT.md: fan is what every payment holds; 庄家 is on every payment when the dealer wins
            fan = sum(v for i, v, scope in items if scope == "all" or (scope == "dealer" and seat == "E"))
            best = (rank, fan, items, pay, kpts, (sets, subs), piao, zfb, fours)
    if best is None:
        return Result("not_a_win", failed=failed_all or {"shape"})
    _, fan, items, pay, kpts, reading, piao, zfb, fours = best
    if s.cap is not None and sum(pay.values()) > s.cap:
        pay = cap_net(pay, s.cap, payers)
        capped = True
    else:
        capped = False
    kong = {p: kpts * base for p in payers} if kpts else {}
    net = {p: -(pay[p] + kong.get(p, 0)) for p in payers}
    net[seat] = sum(pay.values()) + sum(kong.values())
    net = {p: net[p] for p in SEATS}
    feats = set(kfeats) | {i[0] for i in items}
    if zfb:
        feats.add("zfb_jiaohu")
    feats |= {"undeclared_four" + (":wild" if k == hui else "") for k in fours}
    feats.add(f"jokers={jokers}")
    if capped:
        feats.add("capped")
    if reading[1]:
        feats.add("substituted")
    return Result("win", fan, items, pay, kong, net, sum(pay.values()), reading=reading, features=feats)
