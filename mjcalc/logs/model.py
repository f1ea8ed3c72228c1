"""The neutral record of a game read from an online log: what the table saw, hand by hand, and what the log
itself recorded for each result (its han, fu, points, yaku and score changes), so a scorer can be set beside it.

Tiles are written as in mjcalc's notation, one tile a string: ``"3m"``, ``"0p"`` (a red five), ``"7z"``.
Players are seat indices 0–3 in the log's seat order; seat 0 is the first dealer when the log starts at East 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WINDS = ("E", "S", "W", "N")
ROUND_NAMES = ("东", "南", "西", "北")


class LogError(ValueError):
    """A log that cannot be read: the message names the file and the place (tag number, element or JSON path)."""


def plain(tile: str) -> str:
    """The tile's kind, a red five read as a five: ``0m`` → ``5m``."""
    return "5" + tile[1] if tile[0] == "0" else tile


def kind_index(tile: str) -> int:
    """0–33: 1m–9m, 1p–9p, 1s–9s, 1z–7z."""
    found = _KIND_OF.get(tile)
    if found is not None:
        return found
    t = plain(tile)
    return "mpsz".index(t[1]) * 9 + int(t[0]) - 1


# Each tile as the logs write it (a red five ``0``) and its kind: a table, as a log reads tens of thousands of tiles.
_KIND_OF: dict[str, int] = {f"{n}{suit}": s * 9 + n - 1 for s, suit in enumerate("mpsz") for n in range(1, 10)
                            if suit != "z" or n <= 7}
_KIND_OF.update({f"0{suit}": s * 9 + 4 for s, suit in enumerate("mps")})


def tile_of_index(index: int, red: bool = False) -> str:
    """The notation tile of a kind index (0–33); ``red`` writes a five as ``0``."""
    suit = "mpsz"[index // 9]
    number = index % 9 + 1
    return f"{0 if red and number == 5 else number}{suit}"


def _tile_order(tile: str) -> int:
    """The order tiles are written in: by kind, a red five before the plain one."""
    return kind_index(tile) * 2 + (0 if tile[0] == "0" else 1)


def write_tiles(tiles: list[str] | tuple[str, ...]) -> str:
    """Tiles grouped by suit in mjcalc's notation: ``["1m", "2m", "0p", "7z"]`` → ``12m0p7z``."""
    out: list[str] = []
    digits = ""
    suit = ""
    for tile in sorted(tiles, key=_tile_order):
        if tile[1] != suit and digits:
            out.append(digits + suit)
            digits = ""
        suit = tile[1]
        digits += tile[0]
    if digits:
        out.append(digits + suit)
    return "".join(out)


@dataclass
class Rules:
    """The lobby's rules as the log states them."""

    red_fives: bool = True
    open_tanyao: bool = True
    length: str = "hanchan"  # or "tonpuu" (East round only)
    players: int = 4
    described: str = ""  # the log's own words for them: GO type bits, or the JSON rule's "disp"


@dataclass
class Meld:
    """A call: ``chi``, ``pon``, ``daiminkan`` (open kong from a discard), ``kakan`` (a tile added to a pon)
    or ``ankan`` (concealed kong). ``called`` is the tile taken from ``from_who`` (for ``kakan`` the pon's)."""

    kind: str
    tiles: tuple[str, ...]
    who: int
    from_who: int | None = None
    called: str | None = None
    added: str | None = None  # kakan: the tile added to the pon

    def notation(self) -> str:
        body = write_tiles(self.tiles)
        return f"({body})" if self.kind == "ankan" else f"[{body}]"

    @property
    def is_kong(self) -> bool:
        return self.kind in ("daiminkan", "kakan", "ankan")


@dataclass
class LogScore:
    """What the log recorded for a win. ``han`` counts every yaku and dora (13 a yakuman); ``fu`` is None where
    the log does not give it (tenhou.net/6 JSON at mangan and above); ``points`` is the hand's value without
    honba and deposits; ``yaku`` pairs Tenhou's yaku numbers with their han (13 a yakuman)."""

    han: int
    fu: int | None
    points: int
    limit: str | None = None  # the log's words: "満貫", "跳満", …; None under mangan
    yaku: list[tuple[int, int]] = field(default_factory=list)

    @property
    def yakuman(self) -> bool:
        return any(number in YAKUMAN for number, _ in self.yaku)


@dataclass
class Win:
    winner: int
    from_who: int | None  # None: self-drawn
    concealed: list[str]  # the winner's concealed tiles, the winning tile among them
    melds: list[Meld]
    winning_tile: str
    dora: list[str]  # indicators, kan-dora included, as shown when the hand was won
    ura: list[str]
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    honba: int = 0  # as this win is paid: 0 for the second winner on one discard
    sticks: int = 0  # deposits this win takes (this hand's accepted riichi included)
    pao: int | None = None
    log: LogScore | None = None
    changes: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # each player's change, as the log says

    @property
    def tsumo(self) -> bool:
        return self.from_who is None


@dataclass
class Draw:
    """A hand that ended without a win. ``kind``: ``exhaustive``, ``nagashi`` (an exhaustive draw paying
    nagashi mangan), or an abortive draw: ``nine_terminals``, ``four_riichi``, ``triple_ron``, ``four_kongs``,
    ``four_winds``."""

    kind: str
    ready: list[int] = field(default_factory=list)
    nagashi: list[int] = field(default_factory=list)
    changes: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def abortive(self) -> bool:
        return self.kind not in ("exhaustive", "nagashi")


@dataclass
class Hand:
    round: int  # 0 East, 1 South, 2 West, 3 North
    number: int  # 1–4 within the round
    honba: int
    sticks: int  # deposits on the table at the start
    dealer: int
    scores: list[int]  # at the start
    dora: list[str]  # the first indicator (kan-dora follow in the wins' own lists)
    riichi: list[int] = field(default_factory=list)  # accepted declarations, in order
    melds: list[Meld] = field(default_factory=list)  # every call, in order
    wins: list[Win] = field(default_factory=list)
    draw: Draw | None = None

    @property
    def label(self) -> str:
        text = f"{ROUND_NAMES[self.round]}{self.number}局"
        return f"{text} {self.honba}本场" if self.honba else text

    def seat_wind(self, player: int) -> str:
        return WINDS[(player - self.dealer) % 4]

    def kongs(self, player: int) -> list[Meld]:
        return [m for m in self.melds if m.who == player and m.is_kong]


@dataclass
class Game:
    source: str  # the file's name, for messages
    format: str  # "tenhou-xml" or "tenhou-json"
    rules: Rules
    players: list[str]
    hands: list[Hand]
    final_scores: list[int] | None = None  # as the log's end record says
    final_points: list[float] | None = None
    final_points_text: list[str] | None = None  # the points as written (whole numbers in older logs)
    reference: str = ""  # the log's id, where it names one
    extra: list[tuple[int, dict[str, Any]]] = field(default_factory=list)  # results no Tenhou hand has (a game
    # mjcalc wrote: penalties), each before the hand of that index, as GAME.md's result objects

    @property
    def whole(self) -> bool:
        """The log starts at East 1 with no honba, no deposits and 25000 each (not an excerpt)."""
        if not self.hands:
            return False
        first = self.hands[0]
        penalties_first = any(before == 0 for before, _ in self.extra)  # a game mjcalc wrote may open with one
        return (first.round, first.number, first.honba) == (0, 1, 0) and (
            penalties_first or (first.sticks == 0 and first.scores == [25000] * 4))


# Tenhou's yaku numbers (mjlog AGARI yaku / yakuman), their names in tenhou.net/6 JSON, and mjcalc's item ids.
TENHOU_YAKU: dict[int, tuple[str, str]] = {
    0: ("門前清自摸和", "menzen_tsumo"), 1: ("立直", "riichi"), 2: ("一発", "ippatsu"), 3: ("槍槓", "chankan"),
    4: ("嶺上開花", "rinshan"), 5: ("海底摸月", "haitei"), 6: ("河底撈魚", "houtei"), 7: ("平和", "pinfu"),
    8: ("断幺九", "tanyao"), 9: ("一盃口", "iipeikou"),
    10: ("自風 東", "yakuhai_seat_wind"), 11: ("自風 南", "yakuhai_seat_wind"), 12: ("自風 西", "yakuhai_seat_wind"),
    13: ("自風 北", "yakuhai_seat_wind"), 14: ("場風 東", "yakuhai_round_wind"), 15: ("場風 南", "yakuhai_round_wind"),
    16: ("場風 西", "yakuhai_round_wind"), 17: ("場風 北", "yakuhai_round_wind"),
    18: ("役牌 白", "yakuhai_haku"), 19: ("役牌 發", "yakuhai_hatsu"), 20: ("役牌 中", "yakuhai_chun"),
    21: ("両立直", "double_riichi"), 22: ("七対子", "chiitoitsu"), 23: ("混全帯幺九", "chanta"),
    24: ("一気通貫", "ittsu"), 25: ("三色同順", "sanshoku_doujun"), 26: ("三色同刻", "sanshoku_doukou"),
    27: ("三槓子", "sankantsu"), 28: ("対々和", "toitoi"), 29: ("三暗刻", "sanankou"), 30: ("小三元", "shousangen"),
    31: ("混老頭", "honroutou"), 32: ("二盃口", "ryanpeikou"), 33: ("純全帯幺九", "junchan"), 34: ("混一色", "honitsu"),
    35: ("清一色", "chinitsu"), 36: ("人和", "renhou"), 37: ("天和", "tenhou"), 38: ("地和", "chiihou"),
    39: ("大三元", "daisangen"), 40: ("四暗刻", "suuankou"), 41: ("四暗刻単騎", "suuankou_tanki"),
    42: ("字一色", "tsuuiisou"), 43: ("緑一色", "ryuuiisou"), 44: ("清老頭", "chinroutou"), 45: ("九蓮宝燈", "chuuren"),
    46: ("純正九蓮宝燈", "junsei_chuuren"), 47: ("国士無双", "kokushi"), 48: ("国士無双１３面", "kokushi_13_sided"),
    49: ("大四喜", "daisuushii"), 50: ("小四喜", "shousuushii"), 51: ("四槓子", "suukantsu"),
    52: ("ドラ", "dora"), 53: ("裏ドラ", "ura_dora"), 54: ("赤ドラ", "aka_dora"),
}
YAKUMAN = frozenset(range(37, 52))  # tenhou … suukantsu; renhou (36) is not played at Tenhou
YAKU_BY_NAME: dict[str, int] = {name: number for number, (name, _) in TENHOU_YAKU.items()}
# Names the JSON also uses for the same yaku (older converters, half-width digits, 発 for 發).
YAKU_BY_NAME.update({"国士無双13面": 48, "役牌 発": 19, "役牌 中 ": 20, "ダブル立直": 21, "ダブルリーチ": 21})
