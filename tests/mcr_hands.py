"""Random MCR (国标麻将) winning situations, each written twice: as mjcalc's input (the one-line notation, or for
some hands the GB-Mahjong / 雀渣 string) and as the reference calculator's own input (``MahjongGB``'s pack
tuples, standing tiles, winning tile, flower count and flags). Shared by the differential test
(tests/test_mcr_oracle.py) and the benchmark (benchmarks/bench_mcr.py).

The generator is seeded and driven by templates, so that every fan of rules/mcr.md shows up in a few thousand
hands: the rare shapes (nine gates, seven shifted pairs, thirteen orphans, the knitted hands, pure terminal
chows, four kongs, all green, ...) each have a template of their own, the others come from pools of tiles
(one suit, honors, terminals, ranks 1-3 / 4-6 / 7-9, greens, reversible tiles, ...) filled at random. Many
random hands stay under 8 fan: those must not be wins in mjcalc.

Only consistent situations are made: at most four of a kind; ``+fourth`` (和绝张) only when the winning tile is
the winner's only tile of its kind; ``+gang`` (杠上开花) only self-drawn with a kong; ``+qiang`` (抢杠和) only on
a discard and only when the winner holds no other tile of the robbed kind (the other three are the robbed pung);
no ``+tian`` / ``+di`` / ``+ren``. ``+last`` goes with either now and then (the reference counts both fans).

Tiles are kinds 0-33 as in mjcalc: 0-8 1m-9m, 9-17 1p-9p, 18-26 1s-9s, 27-30 东南西北, 31 白, 32 发, 33 中.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

SEATS = "ESWN"
HONORS = list(range(27, 34))
WINDS = [27, 28, 29, 30]
DRAGONS = [31, 32, 33]
SUITED = list(range(27))
TERMINALS = [0, 8, 9, 17, 18, 26]
ORPHANS = TERMINALS + HONORS
GREENS = [19, 20, 21, 23, 25, 32]  # 2 3 4 6 8 s, 发
REVERSIBLE = [9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 31]  # 1234589p 245689s 白
KNITS = [(a, b, c) for a in range(3) for b in range(3) for c in range(3) if len({a, b, c}) == 3]

# The reference's tile names: W 万, B 饼 (dots), T 条 (bamboo), F1-F4 winds, J1 中 J2 发 J3 白.
REF_TILE = ([f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)]
            + ["F1", "F2", "F3", "F4", "J3", "J2", "J1"])
HONOR_LETTERS = "ESWNPFC"  # mjcalc's letters, in kind order 27-33
HONOR_CHARS = "东南西北白发中"
GB_HONOR_LETTERS = {27: "E", 28: "S", 29: "W", 30: "N", 31: "P", 32: "F", 33: "C"}
GB_HONOR_DIGITS = {27: "1", 28: "2", 29: "3", 30: "4", 33: "5", 32: "6", 31: "7"}  # the GB order: 5z 中 6z 发 7z 白


def rank(k: int) -> int:
    return k % 9 + 1 if k < 27 else 0


def suit(k: int) -> int:
    return k // 9 if k < 27 else 3


@dataclass
class Meld:
    kind: str  # chi | pon | kong (exposed) | ankan (concealed kong)
    tiles: list[int]
    source: int = 1  # the reference's offer: chi = which tile was claimed (1-3); pon / kong = the seat (1-3)
    added: bool = False  # an exposed kong added to a pung (加杠)


@dataclass
class Situation:
    """One winning hand and its context, in a form both calculators can be given."""

    concealed: list[int]  # kinds, the winning tile included
    win: int
    melds: list[Meld]
    template: str = ""
    zimo: bool = False
    fourth: bool = False
    last: bool = False
    gang: bool = False
    qiang: bool = False
    seat: str = "S"
    round: str = "E"
    discarder: str | None = None  # written as +from= when set (a discard win)
    flowers: list[int] = field(default_factory=list)  # 0-7: 春夏秋冬梅兰竹菊
    gb: bool = False  # written as a GB string
    style: int = 0  # honors written as: 0 digits, 1 letters, 2 Chinese characters; GB: 1 GB digits, else letters

    # --- mjcalc -------------------------------------------------------------------------------------------

    def line(self) -> str:
        """What mjcalc is given: the one-line notation, or the GB string for the hands marked ``gb``."""
        return self.gb_string() if self.gb else self.notation()

    def notation(self) -> str:
        """The one-line notation: concealed tiles with the winning tile last, melds, flowers, flags."""
        rest = list(self.concealed)
        rest.remove(self.win)
        letters = ("", HONOR_LETTERS, HONOR_CHARS)[self.style]
        parts = [_write(sorted(rest), letters) + _write([self.win], letters)]
        for m in self.melds:
            text = _write(m.tiles, letters)
            parts.append(f"({text})" if m.kind == "ankan" else f"[{text}]")
        if self.flowers:
            parts.append("".join(f"{f + 1}f" for f in self.flowers))
        words = ["+zimo"] if self.zimo else []
        words += [f"+seat={self.seat}", f"+round={self.round}"]
        words += [f"+{name}" for name in ("fourth", "last", "gang", "qiang") if getattr(self, name)]
        if self.discarder and not self.zimo:
            words.append(f"+from={self.discarder}")
        return " ".join(parts + words)

    def gb_string(self) -> str:
        """The GB-Mahjong string: ``[123m,1][7777z,5]...`` melds with their source digit (none on a concealed
        kong, 5-7 an added kong), the concealed tiles with the winning tile last, ``|`` prevalent and seat winds
        and the flags self-drawn / last of its kind / last tile / about a kong, ``|`` the flowers (a count or
        the letters a-h)."""
        digits = self.style == 1
        out = []
        for m in self.melds:
            text = _write_gb(m.tiles, digits)
            if m.kind == "ankan":
                out.append(f"[{text}]")
            else:
                out.append(f"[{text},{m.source + 4 if m.added else m.source}]")
        rest = list(self.concealed)
        rest.remove(self.win)
        out.append(_write_gb(sorted(rest), digits) + _write_gb([self.win], digits))
        bits = "".join("1" if b else "0" for b in (self.zimo, self.fourth, self.last, self.gang or self.qiang))
        flowers = ("".join("abcdefgh"[f] for f in self.flowers) if self.style == 1 and self.flowers
                   else str(len(self.flowers)))
        return "".join(out) + f"|{self.round}{self.seat}{bits}|{flowers}"

    # --- the reference ------------------------------------------------------------------------------------

    def reference_args(self) -> tuple[Any, ...]:
        """The positional arguments of ``MahjongGB.MahjongFanCalculator`` (verbose)."""
        packs = []
        for m in self.melds:
            if m.kind == "chi":
                packs.append(("CHI", REF_TILE[m.tiles[1]], m.source))
            elif m.kind == "pon":
                packs.append(("PENG", REF_TILE[m.tiles[0]], m.source))
            else:
                packs.append(("GANG", REF_TILE[m.tiles[0]], 0 if m.kind == "ankan" else m.source))
        rest = list(self.concealed)
        rest.remove(self.win)
        return (tuple(packs), tuple(REF_TILE[k] for k in rest), REF_TILE[self.win], len(self.flowers), self.zimo,
                self.fourth, self.gang or self.qiang, self.last, SEATS.index(self.seat), SEATS.index(self.round),
                True)

    def kinds(self) -> list[int]:
        return list(self.concealed) + [k for m in self.melds for k in m.tiles]


def reference_fans(s: Situation) -> tuple[tuple[int, int, str, str], ...]:
    """The reference's fans of a situation, as (value, count, zh, en) tuples."""
    from MahjongGB import MahjongFanCalculator

    return MahjongFanCalculator(*s.reference_args())


def _write(kinds: list[int], letters: str = "") -> str:
    """mpsz text of kinds in the order given (honors as the characters of ``letters`` when given: E S W N P F C
    or 东南西北白发中)."""
    out, run_suit, run = [], "", ""
    for k in kinds:
        if k >= 27 and letters:
            if run:
                out.append(run + run_suit)
                run, run_suit = "", ""
            out.append(letters[k - 27])
            continue
        s = "mpsz"[suit(k)]
        digit = str(rank(k) if k < 27 else k - 26)
        if s != run_suit and run:
            out.append(run + run_suit)
            run = ""
        run_suit = s
        run += digit
    if run:
        out.append(run + run_suit)
    return "".join(out)


def _write_gb(kinds: list[int], digits: bool) -> str:
    """GB text: suited tiles as mps runs, honors as letters E S W N C F P or (``digits``) 1z-7z in GB order."""
    out, run_suit, run = [], "", ""
    for k in kinds:
        if k >= 27 and not digits:
            if run:
                out.append(run + run_suit)
                run, run_suit = "", ""
            out.append(GB_HONOR_LETTERS[k])
            continue
        s = "mpsz"[suit(k)]
        digit = str(rank(k)) if k < 27 else GB_HONOR_DIGITS[k]
        if s != run_suit and run:
            out.append(run + run_suit)
            run = ""
        run_suit = s
        run += digit
    if run:
        out.append(run + run_suit)
    return "".join(out)


def reference_args_from_line(line: str) -> tuple[Any, ...]:
    """The reference's input read from a line of the plain notation as this module writes it (digits, melds in
    [ ] and ( ), flowers, +flags): the Python conversion a user of the reference would write."""
    packs = []
    concealed: list[int] = []
    flowers = 0
    flags: dict[str, str] = {}
    for part in line.split():
        if part[0] == "+":
            for word in part[1:].split("+"):
                name, _, value = word.partition("=")
                flags[name] = value
        elif part[0] in "[(":
            kinds = _read_plain(part[1:-1])
            if len(kinds) == 4:
                packs.append(("GANG", REF_TILE[kinds[0]], 0 if part[0] == "(" else 1))
            elif kinds[0] == kinds[1]:
                packs.append(("PENG", REF_TILE[kinds[0]], 1))
            else:
                packs.append(("CHI", REF_TILE[kinds[1]], 1))
        elif part[-1] == "f":
            flowers += len(part) // 2
        else:
            concealed += _read_plain(part)
    win = concealed.pop()
    zimo = "zimo" in flags
    return (tuple(packs), tuple(REF_TILE[k] for k in concealed), REF_TILE[win], flowers, zimo, "fourth" in flags,
            "gang" in flags or "qiang" in flags, "last" in flags, SEATS.index(flags.get("seat", "S")),
            SEATS.index(flags.get("round", "E")), True)


def _read_plain(text: str) -> list[int]:
    out: list[int] = []
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in "mpsz":
            base = "mpsz".index(ch) * 9
            out += [base + d - 1 for d in digits]
            digits = []
        else:
            out.append(27 + (HONOR_LETTERS.index(ch) if ch in HONOR_LETTERS else HONOR_CHARS.index(ch)))
    return out


# --- generation ----------------------------------------------------------------------------------------------

def _ranks(ranks: set[int]) -> list[int]:
    return [k for k in SUITED if rank(k) in ranks]


def _tiles(kind: str, k: int) -> list[int]:
    return [k, k + 1, k + 2] if kind == "chi" else [k] * (4 if kind == "kong" else 3)


@dataclass
class Plan:
    """What a template decides: some sets, the pool the rest come from, how likely chows and kongs are, the
    pair's kinds, and how open the hand may be (None: the generator's choice)."""

    sets: list[tuple[str, int]] = field(default_factory=list)
    pool: list[int] = field(default_factory=lambda: list(range(34)))
    chi: float = 0.5
    kong: float = 0.07
    pairs: list[int] | None = None
    pair: int | None = None
    open: float | None = None


def _suit_perm(rng: random.Random) -> list[int]:
    p = [0, 9, 18]
    rng.shuffle(p)
    return p


def _plan(name: str, rng: random.Random) -> Plan:  # noqa: C901 - one branch per template
    r = rng.randrange
    if name == "random":
        return Plan(chi=rng.choice((0.3, 0.6, 0.8)))
    if name == "chows":
        return Plan(pool=SUITED, chi=0.95, pairs=SUITED if rng.random() < 0.7 else None)
    if name == "one_suit":
        base = r(3) * 9
        extra = HONORS if rng.random() < 0.5 else []
        return Plan(pool=list(range(base, base + 9)) + extra, chi=rng.choice((0.3, 0.6, 0.8)))
    if name == "two_suits":
        a, b, _ = _suit_perm(rng)
        return Plan(pool=list(range(a, a + 9)) + list(range(b, b + 9)) + (HONORS if rng.random() < 0.3 else []))
    if name == "honors":
        return Plan(pool=HONORS + (TERMINALS if rng.random() < 0.3 else []), chi=0)
    if name == "winds":
        ws = rng.sample(WINDS, 4)
        n = rng.choice((3, 3, 4))
        plan = Plan(sets=[("pon", w) for w in ws[:n]], pair=ws[3] if n == 3 and rng.random() < 0.6 else None)
        return plan
    if name == "dragons":
        ds = rng.sample(DRAGONS, 3)
        n = rng.choice((2, 2, 3))
        return Plan(sets=[("pon", d) for d in ds[:n]], pair=ds[2] if n == 2 and rng.random() < 0.6 else None)
    if name == "terminals":
        return Plan(pool=TERMINALS + (HONORS if rng.random() < 0.6 else []), chi=0)
    if name == "outside":
        chis = [k for k in SUITED if rank(k) in (1, 7)]
        sets = [("chi", rng.choice(chis)) for _ in range(rng.choice((1, 2, 3)))]
        return Plan(sets=sets, pool=ORPHANS, chi=0, pairs=ORPHANS)
    if name == "all_five":
        fives = [4, 13, 22]
        sets = []
        for _ in range(4):
            f = rng.choice(fives)
            sets.append(("pon", f) if rng.random() < 0.25 else ("chi", f - rng.randrange(3)))
        return Plan(sets=sets, pairs=fives)
    if name == "even_pungs":
        evens = _ranks({2, 4, 6, 8})
        return Plan(pool=evens, chi=0, pairs=evens)
    if name == "upper":
        return Plan(pool=_ranks({7, 8, 9}))
    if name == "middle":
        return Plan(pool=_ranks({4, 5, 6}))
    if name == "lower":
        return Plan(pool=_ranks({1, 2, 3}))
    if name == "upper_four":
        return Plan(pool=_ranks({6, 7, 8, 9}))
    if name == "lower_four":
        return Plan(pool=_ranks({1, 2, 3, 4}))
    if name == "green":
        return Plan(pool=GREENS, chi=0.5)
    if name == "reversible":
        return Plan(pool=REVERSIBLE, chi=0.5)
    if name == "simples":
        return Plan(pool=_ranks({2, 3, 4, 5, 6, 7, 8}), chi=0.6)
    if name == "pure_straight":
        b = r(3) * 9
        return Plan(sets=[("chi", b), ("chi", b + 3), ("chi", b + 6)])
    if name == "mixed_straight":
        p = _suit_perm(rng)
        return Plan(sets=[("chi", p[0]), ("chi", p[1] + 3), ("chi", p[2] + 6)])
    if name == "three_suited_terminal_chows":
        a, b, c = _suit_perm(rng)
        return Plan(sets=[("chi", a), ("chi", a + 6), ("chi", b), ("chi", b + 6)], pair=c + 4)
    if name == "pure_terminal_chows":
        b = r(3) * 9
        return Plan(sets=[("chi", b), ("chi", b), ("chi", b + 6), ("chi", b + 6)], pair=b + 4)
    if name == "quadruple_chow":
        k = r(3) * 9 + r(7)
        return Plan(sets=[("chi", k)] * 4)
    if name == "pure_triple_chow":
        k = r(3) * 9 + r(7)
        return Plan(sets=[("chi", k)] * 3)
    if name == "pure_double_chow":
        k = r(3) * 9 + r(7)
        return Plan(sets=[("chi", k)] * 2, chi=0.7)
    if name == "four_shifted_chows":
        step = rng.choice((1, 2))
        b = r(3) * 9 + r(7 - 3 * step)
        return Plan(sets=[("chi", b + i * step) for i in range(4)])
    if name == "shifted_chows":
        step = rng.choice((1, 2))
        b = r(3) * 9 + r(7 - 2 * step)
        return Plan(sets=[("chi", b + i * step) for i in range(3)], chi=0.6)
    if name == "mixed_shifted_chows":
        p = _suit_perm(rng)
        s0 = r(5)
        return Plan(sets=[("chi", p[i] + s0 + i) for i in range(3)])
    if name == "mixed_triple_chow":
        s0 = r(7)
        return Plan(sets=[("chi", s0), ("chi", 9 + s0), ("chi", 18 + s0)])
    if name == "mixed_double_chow":
        s0 = r(7)
        a, b, _ = _suit_perm(rng)
        return Plan(sets=[("chi", a + s0), ("chi", b + s0)], chi=0.7)
    if name == "short_straight":
        b = r(3) * 9 + r(4)
        return Plan(sets=[("chi", b), ("chi", b + 3)], chi=0.6)
    if name == "two_terminal_chows":
        b = r(3) * 9
        return Plan(sets=[("chi", b), ("chi", b + 6)], chi=0.6)
    if name == "shifted_pungs":
        b = r(3) * 9 + r(7)
        n = rng.choice((3, 3, 4)) if b % 9 <= 5 else 3
        return Plan(sets=[("pon", b + i) for i in range(n)])
    if name == "mixed_shifted_pungs":
        p = _suit_perm(rng)
        s0 = r(7)
        return Plan(sets=[("pon", p[i] + s0 + i) for i in range(3)])
    if name == "triple_pung":
        s0 = r(9)
        return Plan(sets=[("pon", s0), ("pon", 9 + s0), ("pon", 18 + s0)])
    if name == "double_pung":
        s0 = r(9)
        a, b, _ = _suit_perm(rng)
        return Plan(sets=[("pon", a + s0), ("pon", b + s0)], chi=0.4)
    if name == "tangle":  # kk k+1k+1 k+2k+2 three times: three chows or three pungs, readings that tie
        b = r(3) * 9 + r(7)
        plan = Plan(sets=[("chi", b)] * 3, open=0.0 if rng.random() < 0.6 else None)
        if rng.random() < 0.4:  # the same rank in the other suits: 三同刻 against 一色三同顺
            plan.sets.append(("pon", rng.choice([k for k in (b % 9, b % 9 + 9, b % 9 + 18) if k != b])))
        return plan
    if name == "pungs":
        return Plan(chi=0.05, open=0.6)
    if name == "concealed_pungs":
        return Plan(chi=rng.choice((0.0, 0.25)), open=0.25)
    if name == "kongs":
        return Plan(kong=rng.choice((0.4, 0.7, 1.0)), chi=0.3)
    if name == "tile_hog":
        k = r(3) * 9 + r(7)
        d = r(3)
        return Plan(sets=[("pon", k + d), ("chi", k)])
    if name == "all_types":
        p = _suit_perm(rng)
        sets = [("chi" if rng.random() < 0.6 else "pon", p[i] + r(7)) for i in range(3)]
        w, d = rng.choice(WINDS), rng.choice(DRAGONS)
        if rng.random() < 0.5:
            return Plan(sets=[*sets, ("pon", w)], pair=d)
        return Plan(sets=[*sets, ("pon", d)], pair=w)
    if name == "melded":
        return Plan(open=1.0, chi=0.6)
    if name == "chicken":
        return Plan(pool=SUITED + [rng.choice(WINDS)], chi=0.9, open=0.9, pairs=WINDS + SUITED)
    if name == "big_three_winds":
        ws = rng.sample(WINDS, 3)
        return Plan(sets=[("pon", w) for w in ws], pool=SUITED + DRAGONS)
    raise ValueError(name)


def _regular(name: str, rng: random.Random) -> Situation | None:
    plan = _plan(name, rng)
    counts = [0] * 34
    sets = list(plan.sets)
    for kind, k in sets:
        for t in _tiles(kind, k):
            counts[t] += 1
    if max(counts) > 4:
        return None
    pool = plan.pool
    for _ in range(80):
        if len(sets) == 4:
            break
        k = rng.choice(pool)
        if rng.random() < plan.chi:
            if k >= 27 or rank(k) > 7 or not {k + 1, k + 2} <= set(pool):
                continue
            if all(counts[k + d] < 4 for d in range(3)):
                for d in range(3):
                    counts[k + d] += 1
                sets.append(("chi", k))
        elif counts[k] <= 1:
            counts[k] += 3
            sets.append(("pon", k))
    if len(sets) < 4:
        return None
    # kongs: some of the pungs
    kong_bias = plan.kong
    for i, (kind, k) in enumerate(sets):
        if kind == "pon" and counts[k] == 3 and rng.random() < kong_bias:
            sets[i] = ("kong", k)
            counts[k] += 1
    if plan.pair is not None:
        pair = plan.pair
    else:
        choices = plan.pairs if plan.pairs is not None else pool
        choices = [k for k in choices if counts[k] <= 2]
        if not choices:
            return None
        pair = rng.choice(choices)
    if counts[pair] > 2:
        return None
    openness = plan.open if plan.open is not None else rng.choice((0.0, 0.3, 0.5, 0.8))
    melds: list[Meld] = []
    concealed = [pair, pair]
    for kind, k in sets:
        tiles = _tiles(kind, k)
        if kind == "kong":
            r = rng.random()
            if r < 0.45:
                melds.append(Meld("ankan", tiles, 0))
            else:
                melds.append(Meld("kong", tiles, rng.randint(1, 3), added=r > 0.75))
        elif rng.random() < openness:
            melds.append(Meld(kind, tiles, rng.randint(1, 3)))
        else:
            concealed.extend(tiles)
    if rng.random() < 0.5:
        rng.shuffle(melds)
    win = rng.choice(concealed)
    fourth_of_pung = [m.tiles[0] for m in melds if m.kind == "pon" and m.tiles[0] in concealed]
    if fourth_of_pung and rng.random() < 0.5:  # the last tile of a melded pung (the reference: 和绝张 by itself)
        win = rng.choice(fourth_of_pung)
    return Situation(sorted(concealed), win, melds, name)


def _seven_pairs(name: str, rng: random.Random) -> Situation | None:
    pools = {"random": list(range(34)), "one_suit": list(range(r := rng.randrange(3) * 9, r + 9)),
             "half": list(range(r, r + 9)) + HONORS, "honors": HONORS + TERMINALS, "orphans": ORPHANS,
             "green": GREENS, "upper": _ranks({7, 8, 9}), "middle": _ranks({4, 5, 6}), "lower": _ranks({1, 2, 3}),
             "upper_four": _ranks({6, 7, 8, 9}), "lower_four": _ranks({1, 2, 3, 4}), "reversible": REVERSIBLE,
             "simples": _ranks({2, 3, 4, 5, 6, 7, 8}), "evens": _ranks({2, 4, 6, 8}) + HONORS,
             "terminals": TERMINALS + [rng.choice(HONORS)], "honors_only": HONORS}
    which = rng.choice([*sorted(pools), "chows", "chows"])
    pool = pools.get(which, [])
    if which == "chows":  # pairs that are also two or three chows: seven pairs against a regular reading
        b = rng.randrange(3) * 9 + rng.randrange(7)
        kinds = [b, b + 1, b + 2]
        if rng.random() < 0.5 and b % 9 <= 3:
            kinds += [b + 3, b + 4, b + 5]
        else:
            c = rng.choice([k for k in range(27) if k % 9 <= 6 and k // 9 != b // 9])
            kinds += [c, c + 1, c + 2]
        kinds.append(rng.choice([k for k in range(34) if k not in kinds]))
    elif which == "honors_only":
        kinds = list(HONORS)
    elif len(pool) >= 7 and rng.random() < 0.85:
        kinds = rng.sample(pool, 7)
    else:  # a kind twice: four of a kind as two pairs
        kinds = rng.sample(pool, min(6, len(pool)))
        while len(kinds) < 7:
            kinds.append(rng.choice(kinds[:6]))
    concealed = sorted(kinds * 2)
    return Situation(concealed, rng.choice(concealed), [], f"seven_pairs:{which}")


def _seven_shifted_pairs(name: str, rng: random.Random) -> Situation:
    b = rng.randrange(3) * 9 + rng.randrange(3)
    concealed = sorted([b + i for i in range(7)] * 2)
    return Situation(concealed, rng.choice(concealed), [], name)


def _thirteen_orphans(name: str, rng: random.Random) -> Situation:
    extra = rng.choice(ORPHANS)
    concealed = sorted([*ORPHANS, extra])
    return Situation(concealed, extra if rng.random() < 0.3 else rng.choice(ORPHANS), [], name)


def _nine_gates(name: str, rng: random.Random) -> Situation:
    b = rng.randrange(3) * 9
    base = [b + x for x in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
    extra = b + rng.randrange(9)
    concealed = sorted([*base, extra])
    return Situation(concealed, extra if rng.random() < 0.6 else rng.choice(concealed), [], name)


def _knitted(rng: random.Random) -> list[int]:
    perm = rng.choice(KNITS)
    return [perm[i] * 9 + i + 3 * j for i in range(3) for j in range(3)]


def _honors_and_knitted(name: str, rng: random.Random) -> Situation:
    knitted = _knitted(rng)
    honors = 7 if name == "greater_honors_knitted" else rng.choice((5, 6))
    concealed = sorted(rng.sample(HONORS, honors) + rng.sample(knitted, 14 - honors))
    return Situation(concealed, rng.choice(concealed), [], name)


def _knitted_straight(name: str, rng: random.Random) -> Situation | None:
    knitted = _knitted(rng)
    counts = [0] * 34
    for k in knitted:
        counts[k] += 1
    r = rng.random()
    if r < 0.5:
        k = rng.choice([k for k in SUITED if rank(k) <= 7])
        kind = "chi"
    else:
        k = rng.choice(range(34))
        kind = "kong" if r > 0.85 else "pon"
    tiles = _tiles(kind, k)
    for t in tiles:
        counts[t] += 1
    pair = rng.choice(range(34))
    counts[pair] += 2
    if max(counts) > 4:
        return None
    concealed = knitted + [pair, pair]
    melds: list[Meld] = []
    if kind == "kong":
        melds.append(Meld("ankan", tiles, 0) if rng.random() < 0.5 else Meld("kong", tiles, rng.randint(1, 3)))
    elif rng.random() < 0.4:
        melds.append(Meld(kind, tiles, rng.randint(1, 3)))
    else:
        concealed += tiles
    return Situation(sorted(concealed), rng.choice(concealed), melds, name)


def _four_kongs(name: str, rng: random.Random) -> Situation | None:
    ks = rng.sample(range(34), 5)
    melds = []
    for k in ks[:4]:
        melds.append(Meld("ankan", [k] * 4, 0) if rng.random() < 0.4 else
                     Meld("kong", [k] * 4, rng.randint(1, 3), added=rng.random() < 0.4))
    return Situation([ks[4], ks[4]], ks[4], melds, name)


def _winds_dragons_full(name: str, rng: random.Random) -> Situation | None:
    """大四喜 and 大三元 with the rest at random."""
    if name == "big_four_winds":
        sets = [("pon", w) for w in WINDS]
        pair = rng.choice([k for k in range(34) if k not in WINDS])
        counts_ok = True
    else:
        sets = [("pon", d) for d in DRAGONS]
        k = rng.choice(range(34))
        sets.append(("chi", k) if k < 27 and rank(k) <= 7 and rng.random() < 0.6 else ("pon", k))
        pair = rng.choice(range(34))
        counts_ok = True
    counts = [0] * 34
    for kind, k in sets:
        for t in _tiles(kind, k):
            counts[t] += 1
    counts[pair] += 2
    if not counts_ok or max(counts) > 4:
        return None
    melds: list[Meld] = []
    concealed = [pair, pair]
    openness = rng.choice((0.0, 0.5, 0.8))
    for kind, k in sets:
        tiles = _tiles(kind, k)
        if kind == "pon" and rng.random() < 0.1:
            melds.append(Meld("ankan", [k] * 4, 0) if rng.random() < 0.5 else Meld("kong", [k] * 4, rng.randint(1, 3)))
        elif rng.random() < openness:
            melds.append(Meld(kind, tiles, rng.randint(1, 3)))
        else:
            concealed += tiles
    return Situation(sorted(concealed), rng.choice(concealed), melds, name)


def _chicken(name: str, rng: random.Random) -> Situation | None:
    """无番和: four chows over the three suits that make no pattern together, a pair of a wind, some chows
    melded, the winning tile at an end of a concealed two-sided chow (the context is left plain)."""
    starts = rng.sample(range(7), 4)
    suits = [0, 9, 18] + [rng.choice((0, 9, 18))]
    rng.shuffle(suits)
    chows = [b + s0 for b, s0 in zip(suits, starts, strict=True)]
    for a in chows:
        for b in chows:
            if a < b and suit(a) == suit(b) and b - a in (3, 6):  # 连六, 老少副
                return None
    wind = rng.choice(WINDS)
    order = list(range(4))
    rng.shuffle(order)
    n_open = rng.choice((1, 2, 3))
    melds = [Meld("chi", _tiles("chi", chows[i]), rng.randint(1, 3)) for i in order[:n_open]]
    hidden = [chows[i] for i in order[n_open:]]
    two_sided = [k for k in hidden if 1 < rank(k) < 7]
    if not two_sided:
        return None
    k = rng.choice(two_sided)
    win = rng.choice((k, k + 2))
    concealed = sorted([wind, wind] + [t for h in hidden for t in _tiles("chi", h)])
    return Situation(concealed, win, melds, name)


def _decomposes(counts: list[int], sets: int) -> bool:
    """Whether tiles (counts by kind) are ``sets`` sets and a pair."""
    for k in range(34):
        if counts[k] >= 2:
            counts[k] -= 2
            ok = _all_sets(counts, sets)
            counts[k] += 2
            if ok:
                return True
    return False


def _all_sets(counts: list[int], sets: int) -> bool:
    """Whether tiles are ``sets`` sets: the lowest tile left starts a pung or a chow."""
    k = next((i for i, n in enumerate(counts) if n), None)
    if k is None:
        return sets == 0
    if counts[k] >= 3:
        counts[k] -= 3
        ok = _all_sets(counts, sets - 1)
        counts[k] += 3
        if ok:
            return True
    if k < 27 and rank(k) <= 7 and counts[k + 1] and counts[k + 2]:
        for d in range(3):
            counts[k + d] -= 1
        ok = _all_sets(counts, sets - 1)
        for d in range(3):
            counts[k + d] += 1
        return ok
    return False


def _random_tiles(name: str, rng: random.Random) -> Situation | None:
    """Tiles drawn at random from one or two suits (and a few honors), some melds, kept when the concealed tiles
    are a winning shape: shapes no template thinks of (many readings, tiles of four, waits that tie)."""
    b = rng.randrange(3) * 9
    pool = list(range(b, b + 9))
    if rng.random() < 0.4:
        pool += list(range((b + 9) % 27, (b + 9) % 27 + 9))
    if rng.random() < 0.3:
        pool += rng.sample(HONORS, 2)
    counts = [0] * 34
    melds: list[Meld] = []
    for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
        k = rng.choice(pool)
        kind = rng.choice(("chi", "pon", "kong", "ankan"))
        if kind == "chi" and (k >= 27 or rank(k) > 7):
            continue
        tiles = _tiles("kong" if kind == "ankan" else kind, k)
        if any(counts[t] + tiles.count(t) > 4 for t in tiles):
            continue
        for t in tiles:
            counts[t] += 1
        melds.append(Meld(kind, tiles, 0 if kind == "ankan" else rng.randint(1, 3),
                          added=kind == "kong" and rng.random() < 0.3))
    for _ in range(60):
        hand = [0] * 34
        concealed: list[int] = []
        while len(concealed) < 14 - 3 * len(melds):
            k = rng.choice(pool)
            if counts[k] + hand[k] < 4:
                hand[k] += 1
                concealed.append(k)
        sevens = not melds and all(n in (0, 2, 4) for n in hand)
        if sevens or _decomposes(list(hand), 4 - len(melds)):
            return Situation(sorted(concealed), rng.choice(concealed), melds, name)
    return None


# (template, weight): the regular templates of _plan, then the special builders.
REGULAR = (("random", 60), ("chows", 25), ("one_suit", 18), ("two_suits", 10), ("honors", 5), ("winds", 5),
           ("dragons", 6), ("terminals", 5), ("outside", 6), ("all_five", 4), ("even_pungs", 4), ("upper", 4),
           ("middle", 4), ("lower", 4), ("upper_four", 4), ("lower_four", 4), ("green", 4), ("reversible", 4),
           ("simples", 6), ("pure_straight", 4), ("mixed_straight", 5), ("three_suited_terminal_chows", 3),
           ("pure_terminal_chows", 2), ("quadruple_chow", 2), ("pure_triple_chow", 3), ("pure_double_chow", 5),
           ("four_shifted_chows", 3), ("shifted_chows", 4), ("mixed_shifted_chows", 4), ("mixed_triple_chow", 4),
           ("mixed_double_chow", 5), ("short_straight", 4), ("two_terminal_chows", 4), ("shifted_pungs", 6),
           ("mixed_shifted_pungs", 3), ("triple_pung", 3), ("double_pung", 4), ("tangle", 6), ("pungs", 8),
           ("concealed_pungs", 8), ("kongs", 16), ("tile_hog", 4), ("all_types", 5), ("melded", 6),
           ("chicken", 14), ("big_three_winds", 3))
SPECIAL = (("seven_pairs", 14, _seven_pairs), ("seven_shifted_pairs", 2, _seven_shifted_pairs),
           ("thirteen_orphans", 3, _thirteen_orphans), ("nine_gates", 3, _nine_gates),
           ("greater_honors_knitted", 3, _honors_and_knitted), ("lesser_honors_knitted", 5, _honors_and_knitted),
           ("knitted_straight", 6, _knitted_straight), ("four_kongs", 2, _four_kongs),
           ("big_four_winds", 2, _winds_dragons_full), ("chicken_hand", 3, _chicken),
           ("random_tiles", 20, _random_tiles), ("big_three_dragons", 2, _winds_dragons_full))


def _context(s: Situation, rng: random.Random) -> None:
    """Flags that hold together with the tiles."""
    kinds = s.kinds()
    alone = kinds.count(s.win) == 1  # the winner holds no other tile of the winning kind
    has_kong = any(m.kind in ("kong", "ankan") for m in s.melds)
    s.zimo = rng.random() < 0.45
    s.seat = rng.choice(SEATS)
    s.round = rng.choice(SEATS)
    if s.template == "chicken_hand":  # no fan from the context: a discard, the pair's wind no one's
        s.zimo = False
        pair = next(k for k in s.concealed if k >= 27)
        s.seat = rng.choice([w for w in SEATS if w != SEATS[pair - 27]])
        s.round = rng.choice([w for w in SEATS if w != SEATS[pair - 27]])
    r = rng.random()
    if s.template == "chicken_hand":
        pass
    elif s.zimo and has_kong and r < 0.3:
        s.gang = True
        s.last = rng.random() < 0.1  # the replacement tile the wall's last: the reference counts both
    elif not s.zimo and alone and r < 0.2:
        s.qiang = True
        s.last = rng.random() < 0.1
    elif r < 0.3:
        s.last = rng.random() < 0.4
    if s.template != "chicken_hand" and alone and rng.random() < (0.5 if s.qiang else 0.3):
        s.fourth = True
    if not s.zimo and rng.random() < 0.5:
        s.discarder = rng.choice([w for w in SEATS if w != s.seat])
    n = rng.choices(range(9), (40, 18, 12, 8, 6, 5, 4, 3, 4))[0]
    s.flowers = sorted(rng.sample(range(8), n))
    s.gb = rng.random() < 0.25
    s.style = rng.choices((0, 1, 2), (70, 18, 12))[0]


def _fits(s: Situation) -> bool:
    counts = [0] * 34
    for k in s.kinds():
        counts[k] += 1
    return max(counts) <= 4 and len(s.concealed) + 3 * len(s.melds) == 14


def generate(count: int, seed: int = 2024) -> list[Situation]:
    """``count`` valid winning situations, the same ones for the same seed."""
    rng = random.Random(seed)
    names = [n for n, _ in REGULAR] + [n for n, _, _ in SPECIAL]
    weights = [w for _, w in REGULAR] + [w for _, w, _ in SPECIAL]
    builders = {n: b for n, _, b in SPECIAL}
    out: list[Situation] = []
    while len(out) < count:
        name = rng.choices(names, weights)[0]
        s = builders[name](name, rng) if name in builders else _regular(name, rng)
        if s is None or not _fits(s):
            continue
        _context(s, rng)
        out.append(s)
    return out
