"""Tenhou's mjlog XML (``<mjloggm>``: GO, UN, TAIKYOKU, INIT, T/U/V/W draws, D/E/F/G discards, N calls, REACH,
DORA, AGARI, RYUUKYOKU), plain or gzip-compressed, read into the neutral game record of model.py."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import unquote

from .model import TENHOU_YAKU, Draw, Game, Hand, LogError, LogScore, Meld, Rules, Win
from .replay import Tracker, is_ready

_DRAW = "TUVW"
_DISCARD = "DEFG"
RED_IDS = (16, 52, 88)  # the red 5m, 5p and 5s among Tenhou's 136 tile numbers
ABORTS = {"yao9": "nine_terminals", "reach4": "four_riichi", "ron3": "triple_ron", "kan4": "four_kongs",
          "kaze4": "four_winds"}
LIMITS = ("", "満貫", "跳満", "倍満", "三倍満", "役満")
# GO type bits
_HUMAN, _NO_RED, _NO_KUITAN, _HANCHAN, _SANMA = 0x01, 0x02, 0x04, 0x08, 0x10


def _tile_names(red: bool) -> list[str]:
    """Each of Tenhou's 136 tile numbers in notation (a red five as 0 when the lobby plays red fives)."""
    out = []
    for number in range(136):
        kind = number // 4
        digit = 0 if red and number in RED_IDS else kind % 9 + 1
        out.append(f"{digit}{'mpsz'[kind // 9]}")
    return out


NAMES = {True: _tile_names(True), False: _tile_names(False)}
# Every draw and discard element's tag (T0 … G135) → (a draw, the player, the tile), red fives or not.
MOVES = {red: {f"{letter}{n}": (letter in _DRAW, (_DRAW + _DISCARD).index(letter) % 4, NAMES[red][n])
               for letter in _DRAW + _DISCARD for n in range(136)} for red in (True, False)}


class _XmlReader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.number = 0  # the element being read (0: the log as a whole)
        self.tag = ""
        self.root: ET.Element | None = None
        self.red = True
        self.names = NAMES[True]

    @property
    def place(self) -> str:
        if self.number and self.root is not None:
            return f"element {self.number} <{self.root[self.number - 1].tag}>"
        return "the end of the log" if self.tag == "end" else "the log"

    def where(self) -> str:
        return f"{self.source}: {self.place}"

    def fail(self, message: str) -> LogError:
        return LogError(f"{self.source}: {self.place}: {message}")

    def tile(self, number: int) -> str:
        if not 0 <= number < 136:
            raise self.fail(f"tile number {number} is not 0–135")
        return self.names[number]

    def ints(self, el: ET.Element, name: str, required: bool = True) -> list[int]:
        text = el.get(name)
        if text is None:
            if required:
                raise self.fail(f"<{el.tag}> has no {name}")
            return []
        if text.strip() == "":
            if required:
                raise self.fail(f"<{el.tag}> has an empty {name}")
            return []
        try:
            return [int(x) for x in text.split(",")]
        except ValueError:
            raise self.fail(f"<{el.tag} {name}=\"{text}\">: not a list of whole numbers") from None

    def meld(self, who: int, m: int) -> Meld:
        """A call from Tenhou's 16-bit meld code."""
        from_who = (who + (m & 3)) % 4
        if m & 0x4:  # chi: the base kind and which of the three was called, then each tile's copy number
            t = m >> 10
            called_at = t % 3
            t //= 3
            base = (t // 7) * 9 + t % 7
            numbers = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
            tiles = tuple(self.tile(n) for n in numbers)
            return Meld("chi", tiles, who, from_who, tiles[called_at])
        if m & 0x18:  # pon (0x8) or a tile added to a pon (0x10): the copy not in the pon is (m >> 5) & 3
            t = m >> 9
            called_at = t % 3
            kind = t // 3
            unused = (m >> 5) & 3
            numbers = [kind * 4 + i for i in range(4) if i != unused]
            pon = tuple(self.tile(n) for n in numbers)
            if m & 0x8:
                return Meld("pon", pon, who, from_who, pon[called_at])
            added = self.tile(kind * 4 + unused)
            return Meld("kakan", (*pon, added), who, from_who, pon[called_at], added)
        if m & 0x20:
            raise self.fail("a north tile set aside (three-player mahjong): three-player logs are not supported")
        number = m >> 8
        kind = number // 4
        tiles = tuple(self.tile(kind * 4 + i) for i in range(4))
        if m & 3 == 0:
            return Meld("ankan", tiles, who)
        return Meld("daiminkan", tiles, who, from_who, self.tile(number))


def _xml_rules(reader: _XmlReader, el: ET.Element) -> Rules:
    bits = reader.ints(el, "type")
    if not bits:
        raise reader.fail("<GO> has no type")
    kind = bits[0]
    if kind & _SANMA:
        raise reader.fail(f"GO type {kind} is a three-player game: three-player rules are not supported yet")
    return Rules(red_fives=not kind & _NO_RED, open_tanyao=not kind & _NO_KUITAN,
                 length="hanchan" if kind & _HANCHAN else "tonpuu", players=4,
                 described=f"GO type={kind}" + (f" lobby={el.get('lobby')}" if el.get("lobby") else ""))


def read_xml(text: str, source: str = "<log>") -> Game:
    """A whole mjlog as text (gunzip it first: ``read_log`` does)."""
    reader = _XmlReader(source)
    try:
        return _read_xml(reader, text, source)
    except LogError:
        raise
    except (IndexError, KeyError, ValueError, TypeError, AttributeError, RecursionError) as exc:
        raise reader.fail(f"an element that cannot be read ({type(exc).__name__}: {exc})") from None


def _read_xml(reader: _XmlReader, text: str, source: str) -> Game:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        line, column = e.position
        raise LogError(f"{source}: line {line}, column {column + 1}: not well-formed XML "
                       f"({str(e).split(':')[0]}) — the log is damaged or cut short") from None
    if root.tag != "mjloggm":
        raise LogError(f"{source}: the root element is <{root.tag}>, not <mjloggm>: not a Tenhou mjlog")
    reader.root = root
    rules = Rules()
    names = ["", "", "", ""]
    hands: list[Hand] = []
    hand: Hand | None = None
    tracker: Tracker | None = None
    game = Game(source, "tenhou-xml", rules, names, hands)
    seen_go = False
    ended = False
    moves = MOVES[True]
    for number, el in enumerate(root, 1):
        tag = el.tag
        move = moves.get(tag)
        if move is not None and tracker is not None and not ended:
            # a draw or a discard: the most of a log's elements, followed with the least work
            reader.number = number
            player, tile = move[1], move[2]
            if move[0]:
                tracker.draw(player, tile)
            else:
                riichi = tracker.pending_declared == player
                if riichi:
                    tracker.pending_declared = None
                tracker.discard(player, tile, riichi)
            continue
        reader.number = number
        reader.tag = tag
        if ended and tag not in ("BYE", "UN"):
            raise reader.fail("an event after the game's end (owari)")
        if move is None and tag[:1] in _DRAW + _DISCARD and tag[1:].isdigit():
            raise reader.fail(f"tile number {tag[1:]} is not 0–135")
        if move is not None:
            raise reader.fail("a draw or discard before the first INIT")
        if tag == "GO":
            rules = _xml_rules(reader, el)
            reader.red = rules.red_fives
            reader.names = NAMES[rules.red_fives]
            moves = MOVES[rules.red_fives]
            game.rules = rules
            seen_go = True
        elif tag == "UN":
            for seat in range(4):
                value = el.get(f"n{seat}")
                if value and not names[seat]:
                    names[seat] = unquote(value)
        elif tag == "INIT":
            if not seen_go:
                raise reader.fail("INIT before GO: the lobby's rules are unknown")
            if hand is not None and not hand.wins and hand.draw is None:
                raise reader.fail(f"{hand.label} has no result before the next INIT")
            seed = reader.ints(el, "seed")
            ten = reader.ints(el, "ten")
            dealer = reader.ints(el, "oya")
            if len(seed) != 6 or len(ten) != 4 or len(dealer) != 1:
                raise reader.fail("seed needs 6 numbers, ten 4 and oya 1")
            start = [reader.ints(el, f"hai{p}", required=False) for p in range(4)]
            if any(len(h) != 13 for h in start):
                if not start[3]:
                    raise reader.fail("a hand with no tiles dealt to the fourth seat: three-player logs are not "
                                      "supported yet")
                raise reader.fail("each hai0–hai3 needs 13 tiles")
            hand = Hand(round=seed[0] // 4, number=seed[0] % 4 + 1, honba=seed[1], sticks=seed[2],
                        dealer=dealer[0], scores=[x * 100 for x in ten], dora=[reader.tile(seed[5])])
            if hand.dealer != seed[0] % 4:
                raise reader.fail(f"oya {hand.dealer} is not the dealer of hand {seed[0]}")
            hands.append(hand)
            tracker = Tracker(hand.dealer, [[reader.tile(n) for n in h] for h in start], source)
            tracker.place = reader.where
            tracker.pending_declared = None
        elif tag == "N":
            if tracker is None or hand is None:
                raise reader.fail("a call before the first INIT")
            who = reader.ints(el, "who")[0]
            meld = reader.meld(who, reader.ints(el, "m")[0])
            tracker.call(meld)
            hand.melds.append(meld)
        elif tag == "REACH":
            if tracker is None:
                raise reader.fail("a riichi before the first INIT")
            who = reader.ints(el, "who")[0]
            step = reader.ints(el, "step")[0]
            if step == 1:
                tracker.pending_declared = who
            elif step == 2:
                tracker.accept_riichi(who)
            else:
                raise reader.fail(f"riichi step {step} is not 1 or 2")
        elif tag == "DORA":
            if hand is None:
                raise reader.fail("a new dora indicator before the first INIT")
            reader.ints(el, "hai")
        elif tag == "AGARI":
            if hand is None or tracker is None:
                raise reader.fail("a win before the first INIT")
            hand.wins.append(_xml_win(reader, el, hand, tracker))
            hand.riichi = list(tracker.riichi)
            ended = _owari(reader, el, game)
        elif tag == "RYUUKYOKU":
            if hand is None or tracker is None:
                raise reader.fail("a draw before the first INIT")
            hand.draw = _draw(reader, el, tracker)
            hand.riichi = list(tracker.riichi)
            ended = _owari(reader, el, game)
        elif tag in ("SHUFFLE", "TAIKYOKU", "BYE"):
            pass
        else:
            raise reader.fail(f"unknown element <{tag}>")
    reader.number, reader.tag = 0, "end"
    if not seen_go:
        raise reader.fail("no <GO>: not a game log")
    if not hands:
        raise reader.fail("no hand (INIT) at all")
    if hand is not None and not hand.wins and hand.draw is None:
        raise reader.fail(f"the log is cut short: {hand.label} has no result")
    if not ended:
        raise reader.fail("the log is cut short: no final result (owari)")
    return game


def _xml_win(reader: _XmlReader, el: ET.Element, hand: Hand, tracker: Tracker) -> Win:
    who = reader.ints(el, "who")[0]
    from_who = reader.ints(el, "fromWho")[0]
    tsumo = who == from_who
    closed = [reader.tile(n) for n in reader.ints(el, "hai")]
    melds = [reader.meld(who, m) for m in reader.ints(el, "m", required=False)]
    machi = reader.tile(reader.ints(el, "machi")[0])
    ten = reader.ints(el, "ten")
    ba = reader.ints(el, "ba")
    sc = reader.ints(el, "sc")
    if len(ten) < 2 or len(ba) != 2 or len(sc) != 8:
        raise reader.fail("ten needs fu and points, ba honba and deposits, sc 8 numbers")
    yaku_numbers = reader.ints(el, "yaku", required=False)
    yakuman = reader.ints(el, "yakuman", required=False)
    pairs = [(yaku_numbers[i], yaku_numbers[i + 1]) for i in range(0, len(yaku_numbers) - 1, 2)]
    pairs = [(n, h) for n, h in pairs if h]  # riichi wins list ura-dora at 0 han; the JSON leaves them out
    pairs += [(n, 13) for n in yakuman]
    for n, _ in pairs:
        if n not in TENHOU_YAKU:
            raise reader.fail(f"unknown yaku number {n}")
    limit = ten[2] if len(ten) > 2 else 0
    score = LogScore(han=sum(h for _, h in pairs), fu=ten[0], points=ten[1],
                     limit=LIMITS[limit] if 0 < limit < len(LIMITS) else None, yaku=pairs)
    facts = tracker.win_situation(who, None if tsumo else from_who)
    concealed = tracker.concealed(who, None if tsumo else from_who)
    if sorted(concealed) != sorted(closed):
        raise reader.fail(f"the winner's tiles {''.join(sorted(closed))} are not the tiles the events leave them "
                          f"({''.join(sorted(concealed))})")
    if sorted(m.notation() for m in melds) != sorted(m.notation() for m in tracker.melds[who]):
        raise reader.fail("the winner's melds (m) are not the calls the events show")
    melds = list(tracker.melds[who])  # in the order they were called (the log lists them last first)
    if machi != tracker.last_tile:
        raise reader.fail(f"the winning tile {machi} is not the last tile drawn or discarded ({tracker.last_tile})")
    first = not hand.wins
    pao = reader.ints(el, "paoWho", required=False)
    return Win(winner=who, from_who=None if tsumo else from_who, concealed=closed, melds=melds, winning_tile=machi,
               dora=[reader.tile(n) for n in reader.ints(el, "doraHai")],
               ura=[reader.tile(n) for n in reader.ints(el, "doraHaiUra", required=False)],
               honba=ba[0] if first else 0, sticks=ba[1] if first else 0, pao=pao[0] if pao else None,
               log=score, changes=[sc[2 * p + 1] * 100 for p in range(4)], **facts)


def _draw(reader: _XmlReader, el: ET.Element, tracker: Tracker) -> Draw:
    kind = el.get("type", "")
    sc = reader.ints(el, "sc")
    if len(sc) != 8:
        raise reader.fail("sc needs 8 numbers")
    changes = [sc[2 * p + 1] * 100 for p in range(4)]
    if kind in ABORTS:
        return Draw(ABORTS[kind], changes=changes)
    if kind not in ("", "nm"):
        raise reader.fail(f"unknown draw type {kind!r}")
    shown = [p for p in range(4) if el.get(f"hai{p}") is not None]
    for p in shown:
        tiles = [reader.tile(n) for n in reader.ints(el, f"hai{p}")]
        if sorted(tiles) != sorted(tracker.hands[p]):
            raise reader.fail(f"player {p}'s tiles shown at the draw are not those the events leave them")
        if not is_ready(tiles, len(tracker.melds[p])):
            raise reader.fail(f"player {p} is shown as ready, but their tiles are not one from a win")
    if kind == "nm":
        return Draw("nagashi", ready=shown, nagashi=[p for p in range(4) if changes[p] > 0], changes=changes)
    return Draw("exhaustive", ready=shown, changes=changes)


def _owari(reader: _XmlReader, el: ET.Element, game: Game) -> bool:
    text = el.get("owari")
    if text is None:
        return False
    parts = text.split(",")
    if len(parts) != 8:
        raise reader.fail("owari needs 8 numbers")
    try:
        game.final_scores = [int(parts[2 * p]) * 100 for p in range(4)]
        game.final_points = [float(parts[2 * p + 1]) for p in range(4)]
    except ValueError:
        raise reader.fail(f"owari=\"{text}\": not numbers") from None
    game.final_points_text = [parts[2 * p + 1] for p in range(4)]
    return True
