"""The text form of a game record, for people: one line a result, as said at the table. The grammar, with an
example of every form, is docs/GAME.md ("The text form"); every example there is a test.

>>> h = header_from_text("game riichi A B C D")
>>> r = result_from_text("B ron C 123m456p789s111z 22z +dora=3m riichi B D", h)
>>> r.wins[0].winner, r.wins[0].discarder, r.wins[0].hand, r.riichi
(1, 2, '123m456p789s111z 22z +dora=3m', (1, 3))
>>> result_to_text(r, h)
'B ron C 123m456p789s111z 22z +dora=3m riichi B D'
>>> result_to_text(result_from_text("荒庄 听 A C", h), h)
'draw ready A C'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .hands import normalise
from .model import (
    ABORTS,
    AbortResult,
    DrawResult,
    GameError,
    Header,
    PenaltyResult,
    Result,
    Win,
    WinResult,
)
from .records import make_header

# The words of the grammar, each with its aliases (lower case; Chinese as typed).
RON = ("ron", "和", "胡", "点和")
TSUMO = ("tsumo", "zimo", "自摸")
DRAW = ("draw", "荒庄", "流局", "ryuukyoku")
ABORT = ("abort", "途中流局")
PENALTY = ("penalty", "罚", "罚分")
READY = ("ready", "tenpai", "听", "听牌")
NAGASHI = ("nagashi", "流局满贯")
RIICHI = ("riichi", "reach", "立直")
KONGS = ("kongs", "kong", "杠")
PAO = ("pao", "包")
HUI = ("hui", "会", "会牌")
FALSE_WIN = ("false_win", "chombo", "诈和", "错和")
EACH = ("each", "各", "各家")
TABLE = ("table", "场", "供托")
TO = ("to", "给")
GAME = ("game", "对局")
ABORT_WORDS = {"nine_terminals": ("九种九牌", "kyuushu"), "four_winds": ("四风连打",),
               "four_riichi": ("四家立直",), "four_kongs": ("四杠散了", "四开杠"), "triple_ron": ("三家和",)}
DEALER = ("庄", "庄家", "dealer")
SEAT_WORDS = {"E": "E", "S": "S", "W": "W", "N": "N", "东": "E", "南": "S", "西": "W", "北": "N"}
_PLAYER_WORDS = frozenset((*DEALER, *(w.lower() for w in SEAT_WORDS)))
# Words that end a winning hand (the extras of a win, the next win).
_ENDS_HAND = frozenset((*RIICHI, *KONGS, *PAO, *HUI, ";"))
_KEYWORDS = frozenset((*RON, *TSUMO, *DRAW, *ABORT, *PENALTY, *READY, *NAGASHI, *RIICHI, *KONGS, *PAO, *HUI,
                       *FALSE_WIN, *EACH, *TABLE, *TO, *GAME, *DEALER, *SEAT_WORDS, *ABORTS,
                       *(w for words in ABORT_WORDS.values() for w in words)))


class Token:
    __slots__ = ("text", "column", "quoted", "end")

    def __init__(self, text: str, column: int, quoted: bool, end: int) -> None:
        self.text = text  # as written (a quoted one without its quotes)
        self.column = column  # 1-based, where it starts in the line
        self.quoted = quoted
        self.end = end  # the column after it

    @property
    def word(self) -> str:
        """The token as a keyword is compared: lower case, full-width forms read as ASCII."""
        return normalise(self.text).lower() if not self.text.isascii() else self.text.lower()

    def __repr__(self) -> str:
        return f"Token({self.text!r}, {self.column})"


def tokens(line: str) -> list[Token]:
    """The words of a line: split at spaces, ``;`` a word of its own, ``"…"`` one word, ``#`` to the end a
    comment."""
    out: list[Token] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch.isspace():
            i += 1
        elif ch == "#":
            break
        elif ch == ";":
            out.append(Token(";", i + 1, False, i + 2))
            i += 1
        elif ch == '"':
            end = line.find('"', i + 1)
            if end < 0:
                raise GameError('a name in quotes is never closed with "', i + 1, text=line)
            out.append(Token(line[i + 1:end], i + 1, True, end + 2))
            i = end + 1
        else:
            j = i
            while j < n and not line[j].isspace() and line[j] not in ';"' and not (line[j] == "#" and j == i):
                j += 1
            out.append(Token(line[i:j], i + 1, False, j + 1))
            i = j
    return out


# --- the header ------------------------------------------------------------------------------------------


def is_header(line: str) -> bool:
    words = tokens(line)
    return bool(words) and not words[0].quoted and words[0].word in GAME


def header_from_text(line: str) -> Header:
    """``game RULES P1 P2 P3 P4 [NAME=VALUE …] [dealer=P]``: the ruleset, the players in seat order (the first
    deals first, unless ``dealer=`` names another) and options as ``--set`` gives them."""
    words = tokens(line)
    if not words or words[0].quoted or words[0].word not in GAME:
        raise GameError("a game record starts with: game RULES P1 P2 P3 P4 [OPTION=VALUE …]", 1, text=line)
    if len(words) < 6:
        at = words[-1].end if words else 1
        raise GameError("game RULES P1 P2 P3 P4: the ruleset and four players", at, text=line)
    rules = words[1].text
    players = [w.text for w in words[2:6]]
    options: dict[str, Any] = {}
    dealer = None
    for w in words[6:]:
        key, eq, value = w.text.partition("=")
        if not eq or not key or w.quoted:
            raise GameError(f"'{w.text}': after the players come options, NAME=VALUE", w.column, text=line)
        if key in options or (key == "dealer" and dealer is not None):
            raise GameError(f"'{key}' is given twice", w.column, text=line)
        if key == "dealer":
            dealer = value
        else:
            options[key] = value
    try:
        return make_header(players, rules, options, dealer)
    except GameError as exc:
        raise GameError(exc.message, words[2].column, text=line) from None


def _needs_quotes(name: str) -> bool:
    return (not name or any(ch.isspace() or ch in '#;"=' for ch in name) or name[0] in "+[({"
            or name.lower() in _KEYWORDS or name in _KEYWORDS or name.upper() in SEAT_WORDS or name.isdigit())


def _name(name: str) -> str:
    return f'"{name}"' if _needs_quotes(name) else name


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return "none" if value is None else str(value)


def header_to_text(header: Header) -> str:
    parts = ["game", _name(header.rules) if " " in header.rules else header.rules, *map(_name, header.players)]
    parts += [f"{k}={_value(v)}" for k, v in header.options.items()]
    return " ".join(parts)


# --- results ---------------------------------------------------------------------------------------------


class _Reader:
    """One result line being read: its tokens, a cursor, the players and the seats of this hand."""

    def __init__(self, line: str, header: Header, seats: Sequence[int] | None) -> None:
        self.line = line
        self.header = header
        self.seats = seats
        self.words = tokens(line)
        self.at = 0

    def fail(self, message: str, token: Token | None = None) -> GameError:
        column = token.column if token is not None else (self.words[-1].end if self.words else 1)
        return GameError(message, column, text=self.line)

    def peek(self) -> Token | None:
        return self.words[self.at] if self.at < len(self.words) else None

    def take(self) -> Token | None:
        token = self.peek()
        if token is not None:
            self.at += 1
        return token

    def is_word(self, token: Token | None, words: Sequence[str]) -> bool:
        return token is not None and not token.quoted and token.word in words

    def player(self, what: str) -> int:
        token = self.take()
        if token is None:
            raise self.fail(f"{what}: a player is missing here (a name, or a seat wind E S W N this hand)")
        found = self.player_of(token)
        if found is None:
            raise self.fail(f"{what}: '{token.text}' is not a player: {', '.join(self.header.players)}, or a seat "
                            "wind (E S W N, 东南西北) this hand, or 庄 the dealer", token)
        return found

    def player_of(self, token: Token) -> int | None:
        """A name (exactly, else in any case when one matches), or, unquoted, a seat wind this hand or 庄."""
        names = self.header.players
        if token.text in names:
            return names.index(token.text)
        if not token.quoted:
            folded = [n for n in names if n.lower() == token.text.lower()]
            if len(folded) == 1:
                return names.index(folded[0])
            wind = SEAT_WORDS.get(token.text.upper() if token.text.isascii() else token.text)
            if wind is None and token.word in DEALER:
                wind = "E"
            if wind is not None:
                if self.seats is None:
                    raise self.fail(f"'{token.text}' names a seat: the game's state is needed to know who sits "
                                    "there; name the player", token)
                return self.seats["ESWN".index(wind)]
        return None

    def ends_list(self, token: Token | None) -> bool:
        """Whether a list of players ends here: at the end, at ``;``, at a keyword (a seat wind or 庄 is a player;
        a name that is also a keyword is written in quotes)."""
        if token is None or token.text == ";":
            return True
        if token.quoted or token.text in self.header.players:
            return False
        return token.word in _KEYWORDS and token.word not in _PLAYER_WORDS

    def players(self, what: str) -> list[int]:
        """Players up to the next keyword."""
        out: list[int] = []
        while not self.ends_list(self.peek()):
            out.append(self.player(what))
        return out

    def extras(self, out: dict[str, Any], allowed: Sequence[str]) -> None:
        """riichi P…, kongs P KONG… [P KONG…], hui TILE: what a result adds to its kind."""
        token = self.take()
        assert token is not None
        if self.is_word(token, RIICHI) and "riichi" in allowed:
            if "riichi" in out:
                raise self.fail("riichi is given twice", token)
            out["riichi"] = tuple(self.players("riichi"))
            if not out["riichi"]:
                raise self.fail("riichi: name the players who declared it", token)
        elif self.is_word(token, KONGS) and "kongs" in allowed:
            if "kongs" in out:
                raise self.fail("kongs is given twice", token)
            kongs: list[tuple[int, tuple[str, ...]]] = []
            while True:
                if self.ends_list(self.peek()):
                    break
                player = self.player("kongs")
                melds = []
                while (m := self.peek()) is not None and m.text[:1] in "[({" and not m.quoted:
                    melds.append(m.text)
                    self.at += 1
                if not melds:
                    raise self.fail("kongs: each player is followed by the kongs as written: [7777z] (1111m) "
                                    "{1234z}", self.peek())
                kongs.append((player, tuple(melds)))
            if not kongs:
                raise self.fail("kongs: name the player and the kongs: kongs C [7777z] (1111m)", token)
            out["kongs"] = tuple(kongs)
        elif self.is_word(token, HUI) and "hui" in allowed:
            tile = self.take()
            if tile is None:
                raise self.fail("hui: the wildcard tile is missing (hui 5m)", token)
            out["hui"] = tile.text
        elif token.text.split("=", 1)[0].lower() in HUI and "=" in token.text and "hui" in allowed:
            out["hui"] = token.text.split("=", 1)[1]
        else:
            raise self.fail(f"'{token.text}' is not understood here: {', '.join(allowed)} may follow", token)


def result_from_text(line: str, header: Header, seats: Sequence[int] | None = None) -> Result:
    """One result in the text form. ``seats``: the players at E, S, W, N this hand, for a line that names players
    by seat wind (without it, a seat wind is an error asking for the name)."""
    return _parse(line, header, seats)[0]


def hand_columns(line: str, header: Header, seats: Sequence[int] | None = None) -> tuple[int, ...]:
    """Where each win's hand starts in the line (1-based): the column a hand's error is placed by."""
    return _parse(line, header, seats)[1]


def _parse(line: str, header: Header, seats: Sequence[int] | None) -> tuple[Result, tuple[int, ...]]:
    r = _Reader(line, header, seats)
    first = r.peek()
    if first is None:
        raise GameError("an empty line is no result", 1, text=line)
    if r.is_word(first, DRAW):
        r.take()
        return _draw(r), ()
    if r.is_word(first, ABORT):
        r.take()
        return _abort(r), ()
    if r.is_word(first, PENALTY):
        r.take()
        return _penalty(r), ()
    if r.is_word(first, GAME):
        raise r.fail("a second header: a record has one 'game' line, at the top", first)
    return _wins(r)


def _wins(r: _Reader) -> tuple[Result, tuple[int, ...]]:
    wins: list[Win] = []
    columns: list[int] = []
    extras: dict[str, Any] = {}
    while True:
        winner = r.player("the winner")
        verb = r.take()
        if r.is_word(verb, RON):
            discarder: int | None = r.player("ron: from whom")
        elif r.is_word(verb, TSUMO):
            discarder = None
        else:
            raise r.fail("after the winner comes ron (和) and the discarder, or tsumo (自摸)", verb)
        start = r.peek()
        while (t := r.peek()) is not None and (t.quoted or t.word not in _ENDS_HAND):
            r.at += 1
        if start is None or r.at == r.words.index(start):
            raise r.fail("the winning hand is missing: the line of notation, such as 123m456p789s111z 22z", start)
        last = r.words[r.at - 1]
        hand = r.line[start.column - 1:last.end - 1]
        pao = None
        if r.is_word(r.peek(), PAO):
            r.take()
            pao = r.player("pao")
        wins.append(Win(winner, discarder, hand, pao))
        columns.append(start.column)
        token = r.peek()
        while token is not None and token.text != ";":
            r.extras(extras, ("riichi", "kongs", "hui"))
            token = r.peek()
        if token is None:
            break
        r.take()  # ;
        if r.peek() is None:
            raise r.fail("a second win is missing after ';'", token)
    return WinResult(tuple(wins), extras.get("riichi", ()), extras.get("kongs", ()), extras.get("hui")), tuple(columns)


def _draw(r: _Reader) -> DrawResult:
    ready: list[int] | None = None
    nagashi: list[int] | None = None
    extras: dict[str, Any] = {}
    while (token := r.peek()) is not None:
        if r.is_word(token, READY):
            r.take()
            if ready is not None:
                raise r.fail("ready is given twice", token)
            ready = r.players("ready")
        elif r.is_word(token, NAGASHI):
            r.take()
            if nagashi is not None:
                raise r.fail("nagashi is given twice", token)
            nagashi = r.players("nagashi")
        else:
            r.extras(extras, ("ready", "nagashi", "riichi", "kongs", "hui"))
    return DrawResult(tuple(ready or ()), tuple(nagashi or ()), extras.get("riichi", ()), extras.get("kongs", ()),
                      extras.get("hui"))


def _abort(r: _Reader) -> AbortResult:
    token = r.take()
    kind = None
    if token is not None:
        kind = next((k for k, words in ABORT_WORDS.items() if token.word == k or token.word in words), None)
    if kind is None:
        raise r.fail(f"abort is followed by its kind: {', '.join(ABORTS)}", token)
    extras: dict[str, Any] = {}
    while r.peek() is not None:
        r.extras(extras, ("riichi",))
    return AbortResult(kind, extras.get("riichi", ()))


def _penalty(r: _Reader) -> PenaltyResult:
    player = r.player("penalty: who")
    token = r.take()
    if r.is_word(token, FALSE_WIN):
        extras: dict[str, Any] = {}
        while r.peek() is not None:
            r.extras(extras, ("riichi",))
        return PenaltyResult(player, True, riichi=extras.get("riichi", ()))
    if token is None or not token.text.isascii() or not token.text.isdigit() or len(token.text) > 10:
        raise r.fail("penalty P is followed by false_win (诈和 / 错和), or an amount and where it goes: "
                     "each, table or a player", token)
    amount = int(token.text)
    to: str | int = "each"
    target = r.peek()
    if target is not None:
        if r.is_word(target, EACH):
            r.take()
        elif r.is_word(target, TABLE):
            r.take()
            to = "table"
        else:
            if r.is_word(target, TO):
                r.take()
            to = r.player("penalty: to whom")
    extra = r.peek()
    if extra is not None:
        raise r.fail("nothing follows a penalty's amount and where it goes", extra)
    return PenaltyResult(player, False, amount, to)


def result_to_text(result: Result, header: Header) -> str:
    """A result in the text form (what ``result_from_text`` reads back to the same result)."""
    names = [_name(n) for n in header.players]
    parts: list[str] = []
    if isinstance(result, WinResult):
        wins = []
        for w in result.wins:
            head = f"{names[w.winner]} ron {names[w.discarder]}" if w.discarder is not None else \
                f"{names[w.winner]} tsumo"
            wins.append(f"{head} {w.hand.strip()}" + (f" pao {names[w.pao]}" if w.pao is not None else ""))
        parts.append(" ; ".join(wins))
    elif isinstance(result, DrawResult):
        parts.append("draw")
        if result.ready:
            parts.append("ready " + " ".join(names[p] for p in result.ready))
        if result.nagashi:
            parts.append("nagashi " + " ".join(names[p] for p in result.nagashi))
    elif isinstance(result, AbortResult):
        parts.append(f"abort {result.abort}")
    elif result.false_win:
        parts.append(f"penalty {names[result.player]} false_win")
    else:
        to = result.to if isinstance(result.to, str) else names[result.to]
        parts.append(f"penalty {names[result.player]} {result.amount} {to}")
    if result.riichi:
        parts.append("riichi " + " ".join(names[p] for p in result.riichi))
    if isinstance(result, (WinResult, DrawResult)):
        if result.kongs:
            parts.append("kongs " + " ".join(f"{names[p]} {' '.join(m)}" for p, m in result.kongs))
        if result.hui is not None:
            parts.append(f"hui {result.hui}")
    return " ".join(parts)

