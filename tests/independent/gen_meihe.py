"""Seeded random Meihe situations: one notation line (spec/NOTATION.md) plus an options dict.

Hands with 0-4 会牌 wildcards (+hui, +flip or both), chi / pon / exposed and concealed kongs (大杠
included), 黄金杠, special kongs with 毛, 中发白 叫胡, 瘸腿杠 and undeclared fours, closed-payer
combinations, every seat, discard or self-draw, +gang / +gangpao / +tian / +di, and hands broken on
purpose (missing suit, no terminal, no triplet, four open melds, not a shape).  Nothing here scores.
"""

from __future__ import annotations

import random

from changchun_ref import name
from gen import fmt  # the one compact tile writer of these tests
from meihe_ref import DRAGONS, WINDS, prev_kind

SEATS = ("E", "S", "W", "N")


def one(rng: random.Random):
    hui = rng.randrange(34)
    if rng.random() < 0.5:
        hui = rng.choice([0, 8, 9, 17, 18, 26, 27, 30, 31, 32, 33, 4, 13, 22])
    flipped = prev_kind(hui)
    mode = rng.choices(["any", "two_suits", "no_terminal", "pons", "narrow", "four_open", "dragons"],
                      [46, 8, 8, 13, 9, 8, 8])[0]
    allowed = list(range(34))
    if mode == "two_suits":
        drop = rng.randrange(3)
        allowed = [k for k in range(34) if k // 9 != drop]
    elif mode == "no_terminal":
        allowed = [k for k in range(27) if k % 9 not in (0, 8)]
    elif mode == "narrow":
        su = rng.randrange(3)
        allowed = [k for k in range(34) if k // 9 == su or rng.random() < 0.2]
    allowed_nohui = [k for k in allowed if k != hui]
    cnt = [0] * 34

    def take(ts):
        c = cnt[:]
        for k in ts:
            c[k] += 1
        if any(x > 4 for x in c) or c[flipped] > 3:
            return False
        cnt[:] = c
        return True

    def pick(fn, tries=40):
        for _ in range(tries):
            ts = fn()
            if ts and take(ts):
                return ts
        return None

    def seq():
        st = [k for k in allowed_nohui if k < 27 and k % 9 <= 6 and k + 1 in allowed_nohui and k + 2 in allowed_nohui]
        if not st:
            return None
        k = rng.choice(st)
        return [k, k + 1, k + 2]

    def trip(n=3, pool=None):
        pool = pool or allowed_nohui
        if mode == "dragons" and rng.random() < 0.5:
            pool = [k for k in DRAGONS if k != hui] or pool
        if not pool:
            return None
        return [rng.choice(pool)] * n

    melds = []   # (notation, tiles, is_set_counted)
    nmelds = rng.choices([0, 1, 2, 3, 4], [28, 26, 20, 14, 12])[0] if mode != "four_open" else 4
    golden_done = False
    for _ in range(nmelds):
        kind = rng.choices(["chi", "pon", "kong", "ankong", "dagang", "golden", "special"],
                           [24, 22, 10, 10, 8, 5, 21])[0]
        if mode == "pons" and kind == "chi":
            kind = "pon"
        if mode == "four_open":
            kind = rng.choice(["chi", "chi", "pon"])
        if kind == "chi":
            ts = pick(seq)
            if ts:
                melds.append((f"[{fmt(ts)}]", ts))
        elif kind == "pon":
            ts = pick(trip)
            if ts:
                melds.append((f"[{fmt(ts)}]", ts))
        elif kind in ("kong", "ankong", "dagang"):
            pool = [k for k in (0, 9, 18, 31, 32, 33) if k != hui] if kind == "dagang" else None
            ts = pick(lambda pool=pool: trip(4, pool))
            if ts:
                br = rng.choice("[(") if kind == "dagang" else ("[" if kind == "kong" else "(")
                melds.append((f"{br}{fmt(ts)}{')' if br == '(' else ']'}", ts))
        elif kind == "golden":
            if not golden_done and take([hui] * 4):
                golden_done = True
                melds.append((f"({fmt([hui] * 4)})", [hui] * 4))
        else:
            sp = rng.choice(["zfb", "winds", "yao1", "yao9"])
            core = {"zfb": [31, 32, 33], "winds": [27, 28, 29, 30], "yao1": [0, 9, 18], "yao9": [8, 17, 26]}[sp]
            extra_pool = {"zfb": list(DRAGONS), "winds": list(WINDS)}.get(sp, [0, 8, 9, 17, 18, 26])
            if hui in core:
                continue
            extra_pool = [k for k in extra_pool if k != hui]
            n_ex = rng.choices([0, 1, 2], [60, 30, 10])[0]
            ts = core + [rng.choice(extra_pool) for _ in range(n_ex)]
            if take(ts):
                txt = "".join(name(k) for k in ts) if sp.startswith("yao") else fmt(ts)
                melds.append((f"{{{txt}}}", ts))
    nsets = 4 - len(melds)
    concealed = []
    p_zfb = 0.4 if mode == "dragons" else 0.08
    if nsets and rng.random() < p_zfb and hui not in DRAGONS and take([31, 32, 33]):
        concealed += [31, 32, 33]   # 中发白 叫胡 candidate
        nsets -= 1
    for _ in range(nsets):
        fn = trip if (mode == "pons" or rng.random() < 0.35) else seq
        ts = pick(fn) or pick(trip)
        if ts is None:
            return None
        concealed += ts
    pair = pick(lambda: trip(2))
    if pair is None:
        return None
    concealed += pair
    # make it not a shape now and then
    if rng.random() < 0.08:
        i = rng.randrange(len(concealed))
        nk = rng.choice(allowed_nohui)
        c2 = cnt[:]
        c2[concealed[i]] -= 1
        c2[nk] += 1
        if c2[nk] <= 4 and c2[flipped] <= 3:
            cnt[:] = c2
            concealed[i] = nk
    # most hands should be able to win: all three suits (wildcards may still supply one)
    if mode in ("any", "pons", "narrow", "four_open", "dragons") and rng.random() < 0.85:
        every = concealed + [k for m in melds for k in m[1]]
        if {k // 9 for k in every if k < 27} != {0, 1, 2}:
            return None
    # 瘸腿杠 now and then: the pair or a triplet of the concealed part turned into the flipped kind
    if rng.random() < 0.1 and cnt[flipped] == 0 and flipped != hui:
        trips = [i for i in range(0, len(concealed) - 2) if concealed[i] == concealed[i + 1] == concealed[i + 2]]
        if trips:
            i = rng.choice(trips)
            for d in range(3):
                cnt[concealed[i + d]] -= 1
                concealed[i + d] = flipped
            cnt[flipped] += 3
    # wildcards: replace some concealed tiles by the 会牌 (0-4 in all)
    room = 4 - cnt[hui]
    w = min(room, rng.choices([0, 1, 2, 3, 4], [35, 28, 18, 11, 8])[0], len(concealed))
    for i in rng.sample(range(len(concealed)), w):
        cnt[concealed[i]] -= 1
        cnt[hui] += 1
        concealed[i] = hui
    # a 瘸腿杠 now and then: swap a pon / pair for the flipped kind
    if cnt[flipped] > 3:
        return None
    zimo = rng.random() < 0.5
    seat = rng.choice(SEATS)
    others = [x for x in SEATS if x != seat]
    flags = []
    tian = di = False
    r = rng.random()
    if r < 0.03 and seat == "E":
        tian = zimo = True
    elif r < 0.06 and seat != "E":
        di = zimo = True
    gang = gangpao = False
    has_kong = any(text[0] in "({" or len(ts) == 4 for text, ts in melds)
    if zimo and not (tian or di) and rng.random() < 0.12 and has_kong:  # +gang needs a kong (mjcalc refuses it)
        gang = True
    if not zimo and rng.random() < 0.12:
        gangpao = True
    win_i = rng.randrange(len(concealed))
    dragon_at = [i for i, k in enumerate(concealed) if k in DRAGONS]
    if mode == "dragons" and dragon_at and rng.random() < 0.7:
        win_i = rng.choice(dragon_at)
    if not zimo and concealed[win_i] == hui:
        cand = [i for i, k in enumerate(concealed) if k != hui]
        if not cand:
            return None
        win_i = rng.choice(cand)
    win = concealed[win_i]
    rest = concealed[:win_i] + concealed[win_i + 1:]
    parts = [fmt(rest)] if rest else []
    parts += [m[0] for m in melds]
    parts.append(name(win))
    how = rng.random()
    if how < 0.45:
        flags.append(f"+hui={name(hui)}")
    elif how < 0.9:
        flags.append(f"+flip={name(flipped)}")
    else:
        flags += [f"+hui={name(hui)}", f"+flip={name(flipped)}"]
    flags.append(f"+seat={seat}")
    if zimo and not ((gang or tian or di) and rng.random() < 0.5):   # those flags are self-draws anyway
        flags.append("+zimo")
    elif zimo:
        pass
    elif rng.random() < 0.7:
        flags.append(f"+from={rng.choice(others)}")
    closed = [x for x in others if rng.random() < 0.4]
    if rng.random() < 0.1:
        closed = others
    if closed:
        flags.append("+closed=" + ",".join(closed))
    if gang:
        flags.append("+gang")
    if gangpao:
        flags.append("+gangpao")
    if tian:
        flags.append("+tian")
    if di:
        flags.append("+di")
    options = {}
    r = rng.random()
    if r < 0.08:
        flags.append("+base=2")
    elif r < 0.13:
        options["base"] = 3
    r = rng.random()
    if r < 0.07:
        flags.append(f"+cap={rng.randrange(3, 60)}")
    elif r < 0.1:
        options["cap"] = rng.randrange(3, 60)
    return " ".join(parts) + " " + " ".join(flags), options


def situations(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        x = one(rng)
        if x is not None:
            out.append(x)
    return out
