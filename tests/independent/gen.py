"""Seeded random Changchun situations: one notation line (spec/NOTATION.md) plus an options dict.

Complete hands open and closed (chi, pon, exposed / concealed kongs, special kongs with and without
extra tiles, 大蛋 kongs), hands built to break one win condition (missing suit, no terminal, no triplet,
one tile left without 飘胡, not a shape), every seat, discard or self-draw, treasure flags and option
combinations.  Nothing here decides a score; the reference scorer and mjcalc do.
"""

from __future__ import annotations

import random

SEATS = ("E", "S", "W", "N")
SUITS = "mpsz"

XUANFENG = [27, 28, 29, 30]
XI = [31, 32, 33]
YAODAN = [0, 9, 18]
JIUDAN = [8, 17, 26]
DA_DAN = [18, 9, 31, 32, 33]  # 1s 1p 白 发 中


def tname(k: int) -> str:
    return f"{k % 9 + 1}{SUITS[k // 9]}"


def fmt(tiles: list[int], sort: bool = True) -> str:
    """Tiles in compact notation: 123m45p11z."""
    ts = sorted(tiles) if sort else tiles
    out, cur, digits = [], None, ""
    for k in ts:
        s = SUITS[k // 9]
        if cur is not None and s != cur:
            out.append(digits + cur)
            digits = ""
        cur = s
        digits += str(k % 9 + 1)
    if cur is not None:
        out.append(digits + cur)
    return "".join(out)


def fmt_mixed(tiles: list[int]) -> str:
    """Mixed-suit groups (幺蛋 / 九蛋) one tile at a time: 1m1p1s1m."""
    return "".join(tname(k) for k in tiles)


class Builder:
    def __init__(self, rng: random.Random, allowed: list[int]):
        self.rng = rng
        self.allowed = allowed
        self.counts = [0] * 34

    def take(self, tiles: list[int]) -> bool:
        c = self.counts[:]
        for k in tiles:
            c[k] += 1
            if c[k] > 4:
                return False
        self.counts = c
        return True

    def pick(self, want, tries: int = 60):
        for _ in range(tries):
            tiles = want()
            if tiles is not None and self.take(tiles):
                return tiles
        return None


def build(rng: random.Random, mode: str, rules: str = "changchun"):
    """Return (concealed tiles, melds as (notation, tiles)) or None when the draw got stuck."""
    mil = rules == "changchun-mil"
    jilin = rules == "jilin"
    dadan_pool = [0, 9, 18] if jilin else DA_DAN
    if mode == "two_suits":
        kept = rng.sample([0, 1, 2], 2)
        allowed = [k for k in range(34) if k // 9 in kept or (k >= 27 and rng.random() < 0.5)]
    elif mode == "no_terminal":
        allowed = [k for k in range(27) if k % 9 not in (0, 8)]
    elif mode == "flush":
        kept = rng.randrange(3)
        allowed = [k for k in range(34) if k // 9 == kept or (k >= 27 and rng.random() < 0.5)]
    else:
        allowed = list(range(34))
    # a narrow pool now and then, so that readings multiply (1112345678999-like hands)
    if mode == "any" and rng.random() < 0.35:
        s = rng.randrange(3)
        allowed = [k for k in range(34) if k // 9 == s or rng.random() < 0.25]
    suited = [k for k in allowed if k < 27]
    b = Builder(rng, allowed)
    if mode == "seven_pairs":
        concealed = []
        while len(concealed) < 14:
            n = 4 if rng.random() < 0.05 and len(concealed) <= 10 else 2
            ts = b.pick(lambda n=n: [rng.choice(allowed)] * n)
            if ts is None:
                return None
            concealed += ts
        return concealed, [], b.counts

    def seq():
        starts = [k for k in suited if k % 9 <= 6 and k + 1 in allowed and k + 2 in allowed]
        if not starts:
            return None
        k = rng.choice(starts)
        return [k, k + 1, k + 2]

    def trip(n=3):
        pool = allowed if mode != "no_triplet" else []
        if not pool:
            return None
        return [rng.choice(pool)] * n

    def dadan(n):
        pool = [k for k in dadan_pool if k in allowed]
        return [rng.choice(pool)] * n if pool else None

    nmelds = rng.choices([0, 1, 2, 3, 4], [30, 25, 20, 14, 11])[0]
    if mode == "one_tile_left":
        nmelds = 4
    melds = []
    no_chi = rng.random() < 0.6
    for i in range(nmelds):
        kinds = ["chi", "pon", "kong", "ankong", "special"]
        weights = [30, 24, 12, 12, 22]
        if mode == "no_triplet":
            kinds, weights = ["chi"], [1]
        if mode == "one_tile_left" and i == 0:
            kinds, weights = ["chi"], [1]
        if mode == "any" and nmelds == 4 and no_chi:
            kinds, weights = kinds[1:], weights[1:]
        kind = rng.choices(kinds, weights)[0]
        if kind == "chi":
            ts = b.pick(seq)
            if ts is None:
                return None
            melds.append((f"[{fmt(ts)}]", ts))
        elif kind == "pon":
            ts = b.pick(trip)
            if ts is None:
                return None
            melds.append((f"[{fmt(ts)}]", ts))
        elif kind in ("kong", "ankong"):
            ts = b.pick(lambda: dadan(4) if rng.random() < 0.3 else trip(4))
            if ts is None:
                return None
            melds.append((f"[{fmt(ts)}]" if kind == "kong" else f"({fmt(ts)})", ts))
        else:
            if mode in ("no_terminal", "flush") or jilin:
                if mode == "no_terminal" and jilin:
                    return None  # Jilin's specials are honors: they would satisfy 不能缺幺
                sp = rng.choice(["xuanfeng", "xi"])  # honors only: they waive the terminal condition
            else:
                sp = rng.choice(["xuanfeng", "xi", "yaodan", "jiudan"])
            core = {"xuanfeng": XUANFENG, "xi": XI, "yaodan": YAODAN, "jiudan": JIUDAN}[sp]
            extras = rng.choices([0, 1, 2], [60, 30, 10])[0]
            if mil and sp == "xuanfeng" and rng.random() < 0.5:
                # 旋风杠 needs any three different winds; the fourth, if any, is an extra tile
                core = rng.sample(XUANFENG, 3)
                extras = rng.choices([0, 1], [70, 30])[0]
            wild = mil and rng.random() < 0.3
            if wild:
                # 1s is wild inside a special kong (mil): it stands for one of the core tiles
                core = list(core)
                core[rng.randrange(len(core))] = 18
            real = [k for k in core if k != 18]
            # mil: 1s is wild as a tile added to a special kong too
            added = [*real, 18] if mil and rng.random() < 0.3 else real
            ts = b.pick(lambda core=core, extras=extras, added=added: core + [rng.choice(added) for _ in range(extras)])
            if ts is None:
                return None
            if 18 in ts and (wild or added != real):
                text = "{" + fmt([k for k in ts if k != 18]) + "".join("1s" for k in ts if k == 18) + "}"
            elif sp in ("xuanfeng", "xi"):
                text = "{" + fmt(ts, sort=rng.random() < 0.5) + "}"
            else:
                text = "{" + fmt_mixed(ts) + "}"
            melds.append((text, ts))
    concealed = []
    for _ in range(4 - nmelds):
        ts = b.pick(seq) if mode == "no_triplet" else b.pick(lambda: seq() if rng.random() < 0.55 else trip())
        if ts is None:
            return None
        concealed += ts
    pair_pool = [k for k in allowed if k not in XI] if mode == "no_triplet" else allowed
    ts = b.pick(lambda: [rng.choice(pair_pool)] * 2)
    if ts is None:
        return None
    concealed += ts
    if mode == "not_shape":
        # change one concealed tile
        for _ in range(30):
            i = rng.randrange(len(concealed))
            k = rng.randrange(34)
            if k != concealed[i] and b.counts[k] < 4:
                b.counts[concealed[i]] -= 1
                b.counts[k] += 1
                concealed[i] = k
                break
    return concealed, melds, b.counts


OPTION_BASES = [1, 1, 1, 2, 3, 5, 10]
OPTION_CAPS = [None, None, 1000, 8, 20, 50, 64, 100, 300]
MIL_CAPS = [None, None, None, None, None, 1000, 20, 100, 300]
JILIN_CAPS = [None, None, None, None, 1000, 20, 50, 100, 300]


def situation(rng: random.Random, rules: str = "changchun"):
    """One (line, options) pair for `rules` (changchun, changchun-mil or jilin)."""
    mil = rules == "changchun-mil"
    jilin = rules == "jilin"
    mode = rng.choices(
        ["any", "two_suits", "no_terminal", "no_triplet", "one_tile_left", "not_shape", "seven_pairs",
         "flush"],
        [70, 7, 6, 6, 6, 5, 12 if mil else 2, 8 if jilin else 2],
    )[0]
    want_suits = mode == "any" and rng.random() < 0.85
    while True:
        built = build(rng, mode, rules)
        if built is None:
            continue
        held = [k for k in range(34) if built[2][k]]
        if want_suits and not ({0, 1, 2} <= {k // 9 for k in held}
                               and any(k >= 27 or k % 9 in (0, 8) for k in held)):
            continue
        break
    concealed, melds, counts = built
    win = rng.choice(concealed)
    rest = list(concealed)
    rest.remove(win)
    flags = []
    seat = rng.choice(SEATS)
    if seat == "E" and rng.random() < 0.2:
        flags.append("+dealer")
    elif seat != "S" or rng.random() < 0.5:
        flags.append(f"+seat={seat}")
    zimo = rng.random() < 0.4
    treasure = rng.choices(["none", "mobao", "duibao", "bao_only"], [62, 20, 12, 6])[0]
    written_win = win
    if treasure == "mobao":
        # the written winning tile is the treasure drawn; most often the real tile, else another kind
        if rng.random() < 0.5:
            bao = win
        else:
            held13 = counts[:]
            held13[win] -= 1
            bao = rng.choice([k for k in range(34) if held13[k] < 4])
        written_win = bao
        flags += [f"+bao={tname(bao)}", "+mobao"]
        zimo = zimo or rng.random() < 0.7
    elif treasure == "duibao":
        flags += [f"+bao={tname(win)}", "+duibao"]
        zimo = zimo or rng.random() < 0.7
    elif treasure == "bao_only":
        flags.append(f"+bao={tname(rng.randrange(34))}")
    if zimo:
        flags.append("+zimo")
    elif treasure not in ("mobao", "duibao"):
        frm = rng.choice([s for s in SEATS if s != seat])
        opposite = SEATS[(SEATS.index(seat) + 2) % 4]
        if frm != opposite or rng.random() < 0.6:
            flags.append(f"+from={frm}")
    if rng.random() < 0.15:
        closed = [x for x in SEATS if x != seat and rng.random() < 0.5]
        if closed:
            flags.append("+closed=" + ",".join(closed))
    options = {}
    base = rng.choice(OPTION_BASES)
    cap = rng.choice(JILIN_CAPS if jilin else MIL_CAPS if mil else OPTION_CAPS)
    if base != 1 or rng.random() < 0.1:
        if rng.random() < 0.3:
            flags.append(f"+base={base}")
        else:
            options["base"] = base
    if cap is not None:
        if rng.random() < 0.3:
            flags.append(f"+cap={cap}")
        else:
            options["cap"] = cap
    if jilin:
        if rng.random() < 0.3:
            options["matched_treasure_fan"] = rng.choice([1, 2])
        if rng.random() < 0.3:
            options["all_triplets_fan"] = rng.choice([2, 3])
    else:
        if rng.random() < 0.5:
            options["cap_scope"] = rng.choice(["per_player_net", "per_payer"])
        if not mil and rng.random() < 0.35:
            options["dealer_pays_extra"] = True
        if rng.random() < 0.3:
            options["discarder_pays_all"] = True
    if mil and not zimo and treasure not in ("mobao", "duibao") and rng.random() < 0.3:
        flags.append("+baozhuang")
    # the line: concealed (rest), melds, winning tile last among bare tiles
    parts = [fmt(rest)] if rest else []
    meld_texts = [m for m, _ in melds]
    rng.shuffle(meld_texts)
    parts = meld_texts + parts if rng.random() < 0.5 else parts + meld_texts
    if treasure != "mobao" and rng.random() < 0.1:
        # the winning tile named by +win= instead of written last
        parts = [fmt(concealed), *meld_texts]
        rng.shuffle(parts)
        flags.append(f"+win={tname(win)}")
    else:
        parts.append(tname(written_win))
    line = " ".join(parts) + " " + " ".join(flags)
    return line.strip(), options


def situations(n: int, seed: int = 20240601, rules: str = "changchun"):
    rng = random.Random(seed)
    return [situation(rng, rules) for _ in range(n)]


if __name__ == "__main__":
    for line, opts in situations(20):
        print(line, opts)
