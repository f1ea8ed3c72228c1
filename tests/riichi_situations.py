"""Random riichi winning situations, each written twice: as mjcalc's one-line notation with its options, and as
the reference library's own input (136-tile arrays, Meld objects, HandConfig). Shared by the differential
test (tests/test_riichi_oracle.py) and the benchmark (benchmarks/bench_riichi.py).

The generator is seeded and biased towards rare shapes (honors, one suit, terminals, greens, kongs, nine
gates, seven pairs, thirteen orphans) so that every yaku and yakuman shows up in a few thousand hands.
Only situations the reference accepts are made: riichi on closed hands, ippatsu after riichi, first-turn
wins without melds, no last tile with a kong tile.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

SEATS = "ESWN"
HONORS = list(range(27, 34))
TERMINALS = [0, 8, 9, 17, 18, 26]
GREENS = [19, 20, 21, 23, 25, 32]
ORPHANS = TERMINALS + HONORS
FIVES = (4, 13, 22)
# the indicator whose dora is each kind: 1 ← 9 in a suit, E ← N, 白 ← 中
INDICATOR_OF = [k + 8 if k < 27 and k % 9 == 0 else k - 1 if k < 27 else 30 if k == 27 else k - 1 if k < 31
                else 33 if k == 31 else k - 1 for k in range(34)]
OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "kuitan": (True, False), "aka": (True, False), "double_yakuman": (True, False),
    "kazoe": ("yakuman", "sanbaiman", "unlimited"), "kiriage": (False, True), "open_pinfu_fu": (True, False),
    "pinfu_tsumo_fu": (False, True), "renhou": ("off", "mangan", "yakuman"),
}
DEFAULTS = {k: v[0] for k, v in OPTION_CHOICES.items()}


@dataclass
class Situation:
    """One winning hand and its context, in a form both calculators can be given."""

    concealed: list[int]  # kinds, the winning tile included
    win: int
    melds: list[tuple[str, list[int]]]  # (chi | pon | kan | ankan, kinds)
    red: dict[int, str] = field(default_factory=dict)  # red five kind -> where: "concealed", "win" or meld index
    zimo: bool = False
    seat: str = "S"
    round: str = "E"
    flags: dict[str, bool] = field(default_factory=dict)  # riichi wriichi ippatsu last gang qiang tian di ren
    dora: list[int] = field(default_factory=list)
    ura: list[int] = field(default_factory=list)
    honba: int = 0
    sticks: int = 0
    options: dict[str, Any] = field(default_factory=lambda: dict(DEFAULTS))

    # --- mjcalc ---------------------------------------------------------------------------------------

    def line(self) -> str:
        """The one-line notation: concealed tiles, the winning tile last, melds, then the flags."""
        rest = list(self.concealed)
        rest.remove(self.win)
        red_here = [k for k, where in self.red.items() if where == "concealed"]
        win_red = [self.win] if self.red.get(self.win) == "win" else []
        body = _write(sorted(rest), red_here) + _write([self.win], win_red)
        parts = [body]
        for i, (kind, tiles) in enumerate(self.melds):
            reds = [k for k, where in self.red.items() if where == i]
            text = _write(tiles, reds)
            parts.append(f"({text})" if kind == "ankan" else f"[{text}]")
        words = ["+zimo"] if self.zimo else []
        words += [f"+seat={self.seat}", f"+round={self.round}"]
        words += [f"+{name}" for name, on in self.flags.items() if on]
        if self.dora:
            words.append("+dora=" + _write(self.dora, []))
        if self.ura:
            words.append("+ura=" + _write(self.ura, []))
        if self.honba:
            words.append(f"+honba={self.honba}")
        if self.sticks:
            words.append(f"+sticks={self.sticks}")
        return " ".join(parts + words)

    def set_options(self) -> dict[str, str]:
        """The options as ``--set`` would give them."""
        return {k: ("on" if v is True else "off" if v is False else v) for k, v in self.options.items()}

    # --- the reference ----------------------------------------------------------------------------------

    def reference_args(self) -> dict[str, Any]:
        """Keyword arguments of ``HandCalculator.estimate_hand_value``."""
        from mahjong.constants import EAST
        from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
        from mahjong.meld import Meld

        copies = {k: ([1, 2, 3, 0] if k in FIVES else [0, 1, 2, 3]) for k in range(34)}  # copy 0 is the red five

        def take(kind: int, red: bool) -> int:
            copy = 0 if red else copies[kind].pop(0)
            return kind * 4 + copy

        rest = list(self.concealed)
        rest.remove(self.win)
        win136 = take(self.win, self.red.get(self.win) == "win")
        tiles = [win136]
        red_concealed = {k for k, where in self.red.items() if where == "concealed"}
        for k in rest:
            tiles.append(take(k, k in red_concealed))
            red_concealed.discard(k)
        melds = []
        meld_types = {"chi": Meld.CHI, "pon": Meld.PON, "kan": Meld.KAN, "ankan": Meld.KAN}
        for i, (kind, kinds) in enumerate(self.melds):
            reds = {k for k, where in self.red.items() if where == i}
            meld_tiles = []
            for k in kinds:
                meld_tiles.append(take(k, k in reds))
                reds.discard(k)
            tiles.extend(meld_tiles)
            melds.append(Meld(meld_types[kind], meld_tiles, opened=kind != "ankan"))
        o = self.options
        kazoe = {"yakuman": HandConstants.KAZOE_LIMITED, "sanbaiman": HandConstants.KAZOE_SANBAIMAN,
                 "unlimited": HandConstants.KAZOE_NO_LIMIT}[o["kazoe"]]
        rules = OptionalRules(has_open_tanyao=o["kuitan"], has_aka_dora=o["aka"],
                              has_double_yakuman=o["double_yakuman"], kazoe_limit=kazoe, kiriage=o["kiriage"],
                              fu_for_open_pinfu=o["open_pinfu_fu"], fu_for_pinfu_tsumo=o["pinfu_tsumo_fu"],
                              renhou_as_yakuman=o["renhou"] == "yakuman")
        f = self.flags
        config = HandConfig(
            is_tsumo=self.zimo, is_riichi=f.get("riichi", False), is_daburu_riichi=f.get("wriichi", False),
            is_ippatsu=f.get("ippatsu", False), is_rinshan=f.get("gang", False), is_chankan=f.get("qiang", False),
            is_haitei=f.get("last", False) and self.zimo, is_houtei=f.get("last", False) and not self.zimo,
            is_tenhou=f.get("tian", False), is_chiihou=f.get("di", False),
            is_renhou=f.get("ren", False) and o["renhou"] != "off",
            player_wind=EAST + SEATS.index(self.seat), round_wind=EAST + SEATS.index(self.round),
            kyoutaku_number=self.sticks, tsumi_number=self.honba, options=rules,
        )
        # The indicators are copies of the set the hand does not hold (a red five only as the last copy left).
        dora = [take(k, False) for k in self.dora]
        ura = [take(k, False) for k in self.ura]
        return {"tiles": tiles, "win_tile": win136, "melds": melds, "dora_indicators": dora,
                "ura_dora_indicators": ura, "config": config}


def _write(kinds: list[int], reds: list[int]) -> str:
    """mpsz text of kinds in the order given, the red five of each kind in ``reds`` written 0."""
    out, suit_of_run, run = [], None, ""
    reds = list(reds)
    for k in kinds:
        suit = "mpsz"[k // 9]
        digit = str(k % 9 + 1 if k < 27 else k - 26)
        if k in reds:
            digit = "0"
            reds.remove(k)
        if suit != suit_of_run and run:
            out.append(run + suit_of_run)
            run = ""
        suit_of_run = suit
        run += digit
    if run:
        out.append(run + suit_of_run)
    return "".join(out)


# --- generation ------------------------------------------------------------------------------------------

MODES = (("random", 30), ("one_suit", 8), ("honors", 6), ("terminals", 5), ("kongs", 4), ("green", 3),
         ("nine_gates", 3), ("seven_pairs", 9), ("kokushi", 3), ("chows", 8), ("sanshoku", 4), ("ittsu", 4),
         ("doukou", 2), ("outside", 6), ("dragons", 3), ("winds", 2), ("simples", 6))
# Sets some modes start from, as (chi | pon, first kind) given a random number.
TEMPLATES = {
    "sanshoku": lambda r: [("chi", r % 7), ("chi", r % 7 + 9), ("chi", r % 7 + 18)],
    "ittsu": lambda r: [("chi", r % 3 * 9), ("chi", r % 3 * 9 + 3), ("chi", r % 3 * 9 + 6)],
    "doukou": lambda r: [("pon", r % 9), ("pon", r % 9 + 9), ("pon", r % 9 + 18)],
    "dragons": lambda r: [("pon", 31 + (r + d) % 3) for d in range(2 + r % 2)],
    "winds": lambda r: [("pon", 27 + (r + d) % 4) for d in range(3)],
}
OUTSIDE_CHI = (0, 6, 9, 15, 18, 24)


def _pool(mode: str, rng: random.Random) -> list[int]:
    if mode == "one_suit":
        suit = rng.randrange(3) * 9
        return list(range(suit, suit + 9)) + (HONORS if rng.random() < 0.5 else [])
    if mode in ("honors", "winds"):
        return HONORS + (list(range(rng.randrange(3) * 9, 27))[:9] if rng.random() < 0.5 else [])
    if mode in ("terminals", "outside"):
        return TERMINALS + (HONORS if rng.random() < 0.5 else [])
    if mode == "green":
        return GREENS
    if mode == "simples":
        return [k for k in range(27) if k % 9 not in (0, 8)]
    return list(range(34))


def _chi_ok(mode: str, start: int, pool: list[int]) -> bool:
    if start >= 27 or start % 9 > 6:
        return False
    if mode == "outside":
        return start in OUTSIDE_CHI
    return {start + 1, start + 2} <= set(pool)


def _sets(mode: str, rng: random.Random) -> tuple[list[tuple[str, int]], int] | None:
    """Four sets as (chi | pon | kan, first kind) and the pair's kind, within the mode's pool."""
    pool = _pool(mode, rng)
    counts = [0] * 34
    sets: list[tuple[str, int]] = list(TEMPLATES.get(mode, lambda r: [])(rng.randrange(84)))
    for kind, k in sets:
        for t in ([k, k + 1, k + 2] if kind == "chi" else [k, k, k]):
            counts[t] += 1
    chi_bias = {"chows": 0.9, "random": 0.55, "one_suit": 0.5, "green": 0.3, "outside": 0.6,
                "simples": 0.6}.get(mode, 0.3)
    kan_bias = 0.6 if mode == "kongs" else 0.06
    for _ in range(60):
        if len(sets) == 4:
            break
        start = rng.choice(pool if mode != "outside" or rng.random() < 0.5 else list(OUTSIDE_CHI))
        if rng.random() < chi_bias and _chi_ok(mode, start, pool):
            if all(counts[start + d] < 4 for d in range(3)):
                for d in range(3):
                    counts[start + d] += 1
                sets.append(("chi", start))
        elif start not in pool:
            continue
        elif rng.random() < kan_bias and counts[start] == 0:
            counts[start] += 4
            sets.append(("kan", start))
        elif counts[start] <= 1:
            counts[start] += 3
            sets.append(("pon", start))
    pairs = [k for k in pool if counts[k] <= 2]
    family = {"dragons": (31, 32, 33), "winds": (27, 28, 29, 30)}.get(mode, ())
    if family and rng.random() < 0.7:  # the pair that makes little three dragons / little four winds
        pairs = [k for k in family if counts[k] == 0] or pairs
        return None
    return sets, rng.choice(pairs)


def _regular(mode: str, rng: random.Random) -> Situation | None:
    found = _sets(mode, rng)
    if found is None:
        return None
    sets, pair = found
    open_hand = rng.random() < (0.2 if mode == "chows" else 0.45)
    melds: list[tuple[str, list[int]]] = []
    concealed: list[int] = [pair, pair]
    hidden_groups: list[list[int]] = [[pair, pair]]
    for kind, k in sets:
        tiles = [k, k + 1, k + 2] if kind == "chi" else [k] * (4 if kind == "kan" else 3)
        if kind == "kan":
            melds.append(("kan" if open_hand and rng.random() < 0.6 else "ankan", tiles))
        elif open_hand and rng.random() < 0.5:
            melds.append((kind, tiles))
        else:
            concealed.extend(tiles)
            hidden_groups.append(tiles)
    if open_hand and not any(kind in ("chi", "pon", "kan") for kind, _ in melds):
        return None
    win = rng.choice(rng.choice(hidden_groups))
    return Situation(sorted(concealed), win, melds)


def _seven_pairs(rng: random.Random) -> Situation:
    pool = _pool(rng.choice(["random", "one_suit", "honors", "terminals"]), rng)
    kinds = rng.sample(pool, 7) if len(pool) >= 7 else rng.sample(range(34), 7)
    concealed = sorted(kinds * 2)
    return Situation(concealed, rng.choice(kinds), [])


def _kokushi(rng: random.Random) -> Situation:
    extra = rng.choice(ORPHANS)
    concealed = sorted([*ORPHANS, extra])
    win = extra if rng.random() < 0.3 else rng.choice(ORPHANS)
    return Situation(concealed, win, [])


def _nine_gates(rng: random.Random) -> Situation:
    suit = rng.randrange(3) * 9
    base = [suit + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
    extra = suit + rng.randrange(9)
    concealed = sorted([*base, extra])
    win = extra if rng.random() < 0.5 else rng.choice(concealed)
    return Situation(concealed, win, [])


def _add_reds(s: Situation, rng: random.Random) -> None:
    """Make one copy of some fives red, wherever that copy is."""
    for five in FIVES:
        places = []
        rest = list(s.concealed)
        rest.remove(s.win)
        places += ["concealed"] * rest.count(five)
        places += ["win"] * (s.win == five)
        for i, (_, tiles) in enumerate(s.melds):
            places += [i] * tiles.count(five)
        # With all four copies in the hand, one of them is the red five the set holds.
        if places and (len(places) == 4 or rng.random() < 0.5):
            s.red[five] = rng.choice(places)


def _context(s: Situation, rng: random.Random) -> None:
    closed = not any(kind != "ankan" for kind, _ in s.melds)
    no_melds = not s.melds
    kongs = sum(kind in ("kan", "ankan") for kind, _ in s.melds)
    s.zimo = rng.random() < 0.5
    s.seat = rng.choice(SEATS)
    s.round = rng.choice("EESSWN")
    f: dict[str, bool] = {}
    if closed and rng.random() < 0.45:
        f["wriichi" if rng.random() < 0.15 else "riichi"] = True
        if rng.random() < 0.05:
            f["riichi"] = f["wriichi"] = True
        f["ippatsu"] = rng.random() < 0.25
    r = rng.random()
    if r < 0.06:
        f["last"] = True
    elif r < 0.10 and s.zimo:
        if kongs:  # a replacement win needs a kong (mjcalc refuses +gang without one)
            f["gang"] = True
    elif r < 0.13 and not s.zimo:
        f["qiang"] = True
    if no_melds and rng.random() < 0.1:
        if s.zimo:
            f["tian" if s.seat == "E" else "di"] = True
        elif s.seat != "E":
            f["ren"] = True
    s.flags = {k: v for k, v in f.items() if v}
    # One dora indicator, and one more for each kong at the table: the winner's and the other players' (four at
    # most); with riichi as many ura indicators. Each is a tile of the set: a kind's copies in the hand and among
    # the indicators are four at most.
    others = rng.choice((0, 0, 0, 0, 1, 1, 2, 3, 4))  # kongs declared by the other players
    count = 1 + min(4, kongs + others)
    left = [4 - held for held in _counts(s)]
    heavy = rng.random() < (0.5 if kongs >= 2 else 0.15)  # indicators at the hand's own tiles: counted yakuman
    pointed: int | None = None
    if heavy:  # a kong's tile when there is one: each of its indicators then counts four
        kong_tiles = [tiles[0] for kind, tiles in s.melds if kind in ("kan", "ankan")]
        pointed = rng.choice(kong_tiles) if kong_tiles and rng.random() < 0.7 else rng.choice(s.concealed)
    s.dora = _indicators(count, pointed, left, rng)
    if f.get("riichi") or f.get("wriichi"):
        s.ura = _indicators(len(s.dora) if rng.random() < 0.9 else rng.randint(1, len(s.dora)), pointed, left, rng)
    s.honba = rng.choice((0, 0, 0, 1, 2, 5))
    s.sticks = rng.choice((0, 0, 0, 1, 2))
    for name, choices in OPTION_CHOICES.items():
        s.options[name] = choices[0] if rng.random() < 0.5 else rng.choice(choices)


def _indicators(count: int, pointed: int | None, left: list[int], rng: random.Random) -> list[int]:
    """``count`` indicators drawn from the copies ``left`` (taken from it): at ``pointed``'s indicator as far as its
    copies go, when given, else any kind."""
    out: list[int] = []
    for _ in range(count):
        wanted = INDICATOR_OF[pointed] if pointed is not None else None
        if wanted is None or not left[wanted]:
            wanted = rng.choice([k for k in range(34) if left[k]])
        left[wanted] -= 1
        out.append(wanted)
    return out


def _counts(s: Situation) -> list[int]:
    """How many of each kind the hand holds, melds included."""
    counts = [0] * 34
    for k in s.concealed:
        counts[k] += 1
    for _, tiles in s.melds:
        for k in tiles:
            counts[k] += 1
    return counts


def _fits(s: Situation) -> bool:
    """At most four of a kind across the hand."""
    return max(_counts(s)) <= 4


def generate(count: int, seed: int = 2024) -> list[Situation]:
    """``count`` valid winning situations, the same ones for the same seed."""
    rng = random.Random(seed)
    modes, weights = zip(*MODES, strict=True)
    out: list[Situation] = []
    while len(out) < count:
        mode = rng.choices(modes, weights)[0]
        if mode == "seven_pairs":
            s: Situation | None = _seven_pairs(rng)
        elif mode == "kokushi":
            s = _kokushi(rng)
        elif mode == "nine_gates":
            s = _nine_gates(rng)
        else:
            s = _regular(mode, rng)
        if s is None or not _fits(s):
            continue
        _add_reds(s, rng)
        _context(s, rng)
        out.append(s)
    return out


def reference_score(s: Situation) -> Any:
    """The reference's HandResponse, except where rules/riichi.md documents a bug of the reference: there, the
    reference asked so that it gives the right answer."""
    from mahjong.hand_calculating.hand import HandCalculator

    args = s.reference_args()
    if open_tsumo_without_pinfu_fu(s):
        # The reference withholds the tsumo's 2 fu from an open hand without other fu when fu_for_open_pinfu is
        # off (20 fu). Every rule gives them (only pinfu, a closed hand, goes without): 22, so 30 fu, which is
        # what the reference gives with the option on.
        args["config"].options.fu_for_open_pinfu = True
    return HandCalculator.estimate_hand_value(**args)


def open_tsumo_without_pinfu_fu(s: Situation) -> bool:
    """The situations of the documented difference: an open hand won by tsumo, open_pinfu_fu off."""
    return s.zimo and not s.options["open_pinfu_fu"] and any(kind != "ankan" for kind, _ in s.melds)


def from_line(text: str, options: dict[str, Any]) -> Situation:
    """The Situation of a line of notation (the hand-written cases), read with mjcalc's own parser."""
    from mjcalc.core.notation import parse_line
    from mjcalc.engine import Request, read_line
    from mjcalc.ruleset.loader import load_ruleset

    parsed = parse_line(text)
    _, _, _, hand, ctx = read_line(parsed, load_ruleset("riichi"), Request(rules="riichi"))
    kinds = {"chi": "chi", "pon": "pon", "kong": "kan", "concealed_kong": "ankan"}
    red: dict[int, Any] = {}
    for i, t in enumerate(parsed.concealed):
        if t.red:
            red[t.tile] = "win" if i == len(parsed.concealed) - 1 else "concealed"
    for i, m in enumerate(parsed.melds):
        red.update({t.tile: i for t in m.tiles if t.red})
    flags = {name: ctx.get(name) for name in ("riichi", "wriichi", "ippatsu", "last", "gang", "qiang", "tian", "di",
                                              "ren") if ctx.get(name)}
    merged = dict(DEFAULTS)
    merged.update({k: {"on": True, "off": False}.get(v, v) for k, v in options.items()})
    return Situation(list(hand.concealed), hand.win_tile, [(kinds[m.kind], list(m.tiles)) for m in hand.melds],
                     red, ctx.zimo, ctx.seat, ctx.round, flags, list(ctx.get("dora")), list(ctx.get("ura")),
                     ctx.get("honba"), ctx.get("sticks"), merged)
