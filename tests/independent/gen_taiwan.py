"""Seeded random Taiwan 16-tile situations: (line, options, rules) for the presets taiwan / taiwan-common.

Random wins (chi, pon, exposed and concealed kongs, flowers, every seat and round, self-draw and discard
with +from), and templates aimed at every item of spec/rules/taiwan.md: each wind / dragon hand, 字一色,
one-suit hands, all-triplet hands with 0-5 concealed triplets, 全求 / 半求, 平胡, single-wait shapes
(closed, edge, pair, and waits narrowed to one kind by a kind held four times), 海底 / 河底, 杠上开花, 抢杠,
天 / 地 / 人胡, 八仙过海 and 七抢一 (with 16 or 17 other tiles), dealer streaks (+lian=N), the options base /
per_tai / max_tai / min_tai, 16-tile waiting hands and 17-tile hands that are not a shape.  Nothing here
scores: the reference and mjcalc decide what each line is.
"""

from __future__ import annotations

import random

from gen import fmt  # the one compact tile writer of these tests

SEATS = ("E", "S", "W", "N")
WINDS = [27, 28, 29, 30]
DRAGONS = [31, 32, 33]
HONORS = WINDS + DRAGONS


class Hand:
    """Five sets + a pair built under the four-of-a-kind limit: concealed sets and melds."""

    def __init__(self, rng: random.Random, allowed: list[int]):
        self.rng = rng
        self.allowed = allowed
        self.cnt = [0] * 34
        self.hand: list[tuple[str, int]] = []      # concealed (seq | trip | pair, kind)
        self.melds: list[tuple[str, int]] = []     # (chi | pon | kong | ankong, kind)

    def take(self, tiles: list[int]) -> bool:
        c = self.cnt[:]
        for k in tiles:
            c[k] += 1
            if c[k] > 4:
                return False
        self.cnt = c
        return True

    def seq_starts(self, allowed=None):
        al = set(allowed or self.allowed)
        return [k for k in al if k < 27 and k % 9 <= 6 and k + 1 in al and k + 2 in al]

    def add(self, kind: str, k: int) -> bool:
        size = {"seq": 3, "chi": 3, "trip": 3, "pon": 3, "kong": 4, "ankong": 4, "pair": 2}[kind]
        tiles = [k, k + 1, k + 2] if kind in ("seq", "chi") else [k] * size
        if not self.take(tiles):
            return False
        (self.melds if kind in ("chi", "pon", "kong", "ankong") else self.hand).append((kind, k))
        return True

    def add_random(self, kind: str, pool=None, tries: int = 40) -> bool:
        for _ in range(tries):
            if kind in ("seq", "chi"):
                starts = self.seq_starts(pool)
                if not starts:
                    return False
                k = self.rng.choice(starts)
            else:
                k = self.rng.choice(pool or self.allowed)
            if self.add(kind, k):
                return True
        return False

    def concealed(self) -> list[int]:
        out = []
        for kind, k in self.hand:
            out += [k, k + 1, k + 2] if kind == "seq" else [k] * (2 if kind == "pair" else 3)
        return out

    def meld_text(self) -> list[str]:
        out = []
        for kind, k in self.melds:
            if kind == "chi":
                out.append(f"[{fmt([k, k + 1, k + 2])}]")
            elif kind == "pon":
                out.append(f"[{fmt([k] * 3)}]")
            elif kind == "kong":
                out.append(f"[{fmt([k] * 4)}]")
            else:
                out.append(f"({fmt([k] * 4)})")
        return out


def fill(h: Hand, n_sets: int, n_melds: int, seq_share: float, meld_weights=(40, 30, 15, 15)) -> bool:
    """Complete h with n_sets sets of which n_melds are melds, and a pair."""
    rng = h.rng
    for i in range(n_sets):
        if i < n_melds:
            kind = rng.choices(["chi", "pon", "kong", "ankong"], meld_weights)[0]
        else:
            kind = "seq" if rng.random() < seq_share else "trip"
        if not h.add_random(kind) and not h.add_random("trip" if kind in ("seq",) else "pon" if kind == "chi"
                                                       else kind) and not h.add_random("trip"):
            return False
    return h.add_random("pair")


def build(rng: random.Random, mode: str):
    """A complete hand for the mode, or None when the draw failed (the caller tries again)."""
    allowed = list(range(34))
    n_melds = rng.choices(range(6), [30, 16, 15, 13, 11, 8])[0]
    seq_share = 0.6
    h = Hand(rng, allowed)
    if mode == "random":
        ok = fill(h, 5, n_melds, seq_share)
    elif mode == "one_suit":
        su = rng.randrange(3)
        h.allowed = [k for k in range(su * 9, su * 9 + 9)]
        if rng.random() < 0.55:
            h.allowed += rng.sample(HONORS, rng.randint(1, 4))
        ok = fill(h, 5, n_melds, 0.55)
    elif mode == "pungs":
        h.allowed = rng.sample(range(34), 12)
        n_melds = rng.choices(range(6), [30, 20, 15, 12, 12, 11])[0]
        ok = fill(h, 5, n_melds, 0.0, (0, 50, 25, 25)) and all(kind != "seq" for kind, _ in h.hand)
    elif mode == "ping":
        h.allowed = list(range(27))
        n_melds = rng.choices(range(6), [45, 20, 15, 10, 6, 4])[0]
        ok = fill(h, 5, n_melds, 1.0, (100, 0, 0, 0))
    elif mode == "melded":
        n_melds = 5 if rng.random() < 0.85 else 4
        ok = fill(h, 5, n_melds, seq_share, (40, 35, 15, 10))
    elif mode in ("big4", "small4", "big3", "small3", "all_honors"):
        ok = honor_hand(h, mode, n_melds)
    else:
        raise ValueError(mode)
    return h if ok else None


def honor_hand(h: Hand, mode: str, n_melds: int) -> bool:
    rng = h.rng
    trips: list[int] = []
    pair = None
    winds, dragons = WINDS[:], DRAGONS[:]
    rng.shuffle(winds)
    rng.shuffle(dragons)
    if mode == "big4":
        trips = winds[:]
    elif mode == "small4":
        trips, pair = winds[:3], winds[3]
    elif mode == "big3":
        trips = dragons[:]
    elif mode == "small3":
        trips, pair = dragons[:2], dragons[2]
    else:  # 字一色: six honor kinds of the seven, one a pair
        kinds = rng.sample(HONORS, 6)
        pair, trips = kinds[0], kinds[1:]
    others = 5 - len(trips)
    pool = list(range(34)) if mode != "all_honors" else HONORS
    # which sets are melds: any of them
    order = [("t", k) for k in trips] + [("x", None)] * others
    rng.shuffle(order)
    for i, (what, k) in enumerate(order):
        as_meld = i < n_melds
        if what == "t":
            kind = rng.choice(["pon", "pon", "kong", "ankong"]) if as_meld else "trip"
            if not h.add(kind, k):
                return False
        else:
            kind = rng.choice(["chi", "pon", "kong", "ankong"]) if as_meld else rng.choice(["seq", "trip"])
            if not h.add_random(kind, pool) and not h.add_random("pon" if as_meld else "trip", pool):
                return False
    if pair is None:
        return h.add_random("pair", pool)
    return h.add("pair", pair)


def pick_win(rng: random.Random, h: Hand, shape: str | None) -> int | None:
    """The winning tile out of the concealed sets, aimed at a wait shape when asked."""
    choices = []
    for kind, k in h.hand:
        if kind == "pair":
            choices.append(("pair", k))
        elif kind == "trip":
            choices.append(("trip", k))
        else:
            choices.append(("closed", k + 1))
            choices.append(("edge" if k % 9 == 6 else "open", k))
            choices.append(("edge" if k % 9 == 0 else "open", k + 2))
    if not choices:
        return None
    if shape:
        aimed = [c for c in choices if c[0] == shape]
        if aimed:
            return rng.choice(aimed)[1]
    return rng.choice(choices)[1]


def one(rng: random.Random):
    rules = rng.choice(["taiwan", "taiwan-common"])
    mode = rng.choices(
        ["random", "one_suit", "pungs", "ping", "melded", "big4", "small4", "big3", "small3", "all_honors",
         "flowers8", "held_four"],
        [34, 10, 12, 8, 7, 2, 3, 2, 3, 3, 4, 3])[0]
    build_mode = {"flowers8": "random", "held_four": "random"}.get(mode, mode)
    h = None
    while h is None:
        h = build(rng, build_mode)
    shape = rng.choice([None, None, "closed", "edge", "pair", "open"])
    if mode == "ping" and rng.random() < 0.7:
        shape = "open"
    win = pick_win(rng, h, shape)
    concealed = h.concealed()
    if mode == "held_four":
        held_four(rng, h, concealed)
        concealed = h.concealed()
        win = h.win_hint if getattr(h, "win_hint", None) is not None else win
    if win is None:  # five melds: the pair is in hand
        win = concealed[0]
    n_melds = len(h.melds)
    # -------- situation flags
    seat = rng.choices(SEATS, [35, 22, 22, 21])[0]
    rnd = rng.choice(SEATS)
    flags: list[str] = []
    zimo = rng.random() < (0.15 if mode == "ping" else 0.45)
    special = None
    r = rng.random()
    if r < 0.04 and n_melds == 0:
        special = "tian"
        seat, zimo = "E", True
    elif r < 0.08 and n_melds == 0:
        special = "di"
        zimo = True
        if seat == "E":
            seat = rng.choice(SEATS[1:])
    elif r < 0.12 and n_melds == 0:
        special = "ren"
        zimo = False
        if seat == "E" and rng.random() < 0.7:
            seat = rng.choice(SEATS[1:])
    held = [0] * 34
    for k in concealed:
        held[k] += 1
    for kind, k in h.melds:
        for x in ([k, k + 1, k + 2] if kind == "chi" else [k] * (4 if "kong" in kind else 3)):
            held[x] += 1
    has_kong = any("kong" in kind for kind, _ in h.melds)
    if special is None:
        r = rng.random()
        if zimo and r < 0.14:
            flags.append("+gang")
        elif r < 0.24:
            flags.append("+last")
        elif not zimo and r < 0.32 and held[win] == 1:
            flags.append("+qiang")
    if special:
        flags.append(f"+{special}")
    # flowers
    flowers: list[int] = []
    if mode == "flowers8":
        flowers = list(range(1, 9))
        if rng.random() < 0.5:  # 16 other tiles: one concealed tile less
            concealed.remove(win)
            win = None
    else:
        r = rng.random()
        if r < 0.45 or (mode == "ping" and r < 0.85):
            flowers = []
        elif r < 0.8:
            flowers = rng.sample(range(1, 9), rng.randint(1, 3))
        elif r < 0.95:
            grp = rng.choice([[1, 2, 3, 4], [5, 6, 7, 8]])
            flowers = grp + rng.sample([f for f in range(1, 9) if f not in grp], rng.randint(0, 3))
        else:
            flowers = rng.sample(range(1, 9), rng.randint(4, 7))
        if "+gang" in flags and not has_kong and not flowers:
            flowers = [rng.randint(1, 8)]
    implied = "+gang" in flags or special in ("tian", "di")   # self-draws by themselves (NOTATION.md)
    if zimo and not (implied and rng.random() < 0.4):
        flags.append("+zimo")
    elif zimo:
        pass
    elif rng.random() < 0.6 or mode == "flowers8":
        flags.append(f"+from={rng.choice([p for p in SEATS if p != seat])}")
    if seat != "S" or rng.random() < 0.3:
        flags.append(f"+seat={seat}")
    if rnd != "E" or rng.random() < 0.3:
        flags.append(f"+round={rnd}")
    if rng.random() < 0.3:
        flags.append(f"+lian={rng.randint(1, 4)}")
    # -------- options
    options: dict = {}
    if rng.random() < 0.25:
        base = rng.choice([1, 2, 5, 10, 30])
        if rng.random() < 0.5:
            flags.append(f"+base={base}")
        else:
            options["base"] = base
    if rng.random() < 0.25:
        options["per_tai"] = rng.choice([2, 5, 10])
    if rng.random() < 0.15:
        options["max_tai"] = rng.choice([4, 8, 10, 16])
    if rng.random() < 0.12:
        options["min_tai"] = rng.choice([1, 2, 3, 5])
    # -------- broken / waiting variants
    variant = rng.choices(["win", "waiting", "broken", "noten"], [82, 8, 7, 3])[0] if mode != "flowers8" else "win"
    if variant == "waiting":
        concealed.remove(win)
        win = None
    elif variant in ("broken", "noten"):
        for _ in range(20):
            j = rng.randrange(len(concealed))
            new = rng.randrange(34)
            if new != concealed[j] and held[new] < 4:
                held[concealed[j]] -= 1
                held[new] += 1
                if concealed[j] == win:
                    win = new
                concealed[j] = new
                break
        if "+qiang" in flags and held[win] != 1:
            flags.remove("+qiang")
        if variant == "noten":  # 16 tiles, most often waiting on nothing
            concealed.remove(win)
            win = None
    rest = list(concealed)
    parts = []
    if win is not None:
        rest.remove(win)
    parts.append(fmt(rest))
    parts += h.meld_text()
    if flowers:
        parts.append("".join(f"{f}f" for f in sorted(flowers)) if rng.random() < 0.5 else
                     fmt_flowers(sorted(flowers)))
    if win is not None:
        parts.append(fmt([win]))
    line = " ".join(p for p in parts if p) + " " + " ".join(flags)
    return line.strip(), options, rules


def fmt_flowers(fs: list[int]) -> str:
    return "".join(str(f) for f in fs) + "f"


def held_four(rng: random.Random, h: Hand, concealed: list[int]) -> None:
    """Turn h into a hand whose two-sided wait is narrowed to one kind by a kind held all four times:
    a concealed sequence a..a+2 won on one end while the other end's kind is a kong (or held four)."""
    h.win_hint = None
    for j, (kind, k) in enumerate(h.hand):
        if kind != "seq":
            continue
        # won on k+2 (wait k-1 / k+2) or on k (wait k / k+3)
        for win, other in ((k + 2, k - 1), (k, k + 3)):
            if other < 0 or other // 9 != k // 9 or other >= 27:
                continue
            if h.cnt[other] == 0 and len(h.melds) < 5 and h.take([other] * 4):
                # replace some other set by a kong of `other`
                victims = [i for i, (kd, _) in enumerate(h.hand) if i != j and kd != "pair"]
                if not victims:
                    for _ in range(4):
                        h.cnt[other] -= 1
                    continue
                v = rng.choice(victims)
                vk, vv = h.hand.pop(v)
                for x in ([vv, vv + 1, vv + 2] if vk == "seq" else [vv] * 3):
                    h.cnt[x] -= 1
                h.melds.append((rng.choice(["kong", "ankong"]), other))
                h.win_hint = win
                return


def situations(n: int, seed: int = 20261201):
    rng = random.Random(seed)
    return [one(rng) for _ in range(n)]
