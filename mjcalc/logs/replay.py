"""Follow one hand's events as a log gives them — draws, discards, calls, riichi — keeping each player's
concealed tiles and the situation a win depends on: riichi and double riichi, ippatsu, the kong replacement
tile, a robbed kong, the last tile, the first draw. Both log readers feed it; it raises LogError on an event
the hand cannot have had (a discard of a tile not held), naming the place the reader gives it."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from .model import LogError, Meld, kind_index, plain

LIVE_DRAWS = 70  # 136 tiles less the 14 of the dead wall and the 52 dealt; kong replacements come out of it too


class Tracker:
    """``where`` names the place of the event being followed, for a message (``place``: a callable that names it,
    asked only when there is something to say: a log has thousands of events and most logs no error)."""

    def __init__(self, dealer: int, hands: list[list[str]], where: str) -> None:
        self.dealer = dealer
        self.hands: list[list[str]] = [list(h) for h in hands]
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.calls: list[Meld] = []
        self.where = where
        self.place: Callable[[], str] | None = None
        self.draws = 0
        self.discarded = [0, 0, 0, 0]
        self.any_call = False
        self.pending: int | None = None  # a riichi whose declaration tile has not yet passed
        self.pending_declared: int | None = None  # mjlog: REACH step 1 seen, its discard not yet
        self.pending_first = False
        self.riichi: list[int] = []
        self.double: set[int] = set()
        self.ippatsu: set[int] = set()
        self.replacement: int | None = None  # the player whose next draw is a kong replacement tile
        # the last event: what (start, draw, discard, call, kakan, ankan), who, and its tile
        self.last_what = "start"
        self.last_who = dealer
        self.last_tile = ""
        self.last_draw_rinshan = False
        self.last_draw_first = False  # the draw was its player's first, with no call before it in the hand

    def fail(self, message: str) -> LogError:
        where = self.place() if self.place is not None else self.where
        return LogError(f"{where}: {message}")

    def _take(self, player: int, tile: str) -> None:
        try:
            self.hands[player].remove(tile)
        except ValueError:
            raise self.fail(f"player {player} gives up {tile}, which is not in their concealed tiles") from None

    def _settle(self) -> None:
        # A riichi is accepted once its declaration tile has passed without a win on it.
        if self.pending is not None:
            p = self.pending
            self.pending = None
            if p not in self.riichi:
                self.riichi.append(p)
                if self.pending_first:
                    self.double.add(p)
                self.ippatsu.add(p)

    def accept_riichi(self, player: int) -> None:
        if self.pending == player:
            self._settle()
        elif player not in self.riichi:
            raise self.fail(f"player {player}'s riichi is accepted, but no riichi was declared")

    def draw(self, player: int, tile: str) -> None:
        if self.pending is not None:
            self._settle()
        self.draws += 1
        if self.draws > LIVE_DRAWS:
            raise self.fail(f"draw number {self.draws}: the wall has only {LIVE_DRAWS}")
        self.hands[player].append(tile)
        self.last_draw_rinshan = self.replacement == player
        self.replacement = None
        self.last_draw_first = self.discarded[player] == 0 and not self.any_call
        self.last_what, self.last_who, self.last_tile = "draw", player, tile

    def discard(self, player: int, tile: str, riichi: bool = False) -> None:
        if self.pending is not None:
            self._settle()
        held = self.hands[player]
        if held and held[-1] == tile:  # the tile just drawn, the last held (the order of a hand's tiles is not kept)
            held.pop()
        else:
            try:
                held.remove(tile)
            except ValueError:
                raise self.fail(f"player {player} gives up {tile}, which is not in their concealed tiles") from None
        if riichi:
            if player in self.riichi:
                raise self.fail(f"player {player} declares riichi twice")
            self.pending = player
            self.pending_first = self.discarded[player] == 0 and not self.any_call
        elif self.ippatsu:
            self.ippatsu.discard(player)
        self.discarded[player] += 1
        self.replacement = None
        self.last_what, self.last_who, self.last_tile = "discard", player, tile

    def call(self, meld: Meld) -> None:
        self._settle()
        self.any_call = True
        self.ippatsu.clear()
        who = meld.who
        if meld.kind in ("chi", "pon", "daiminkan"):
            if self.last_what != "discard" or self.last_who != meld.from_who or self.last_tile != meld.called:
                raise self.fail(f"player {who} calls {meld.called} from player {meld.from_who}, "
                                f"which is not the tile just discarded ({self.last_tile or 'none'})")
            own = list(meld.tiles)
            own.remove(meld.called or "")
            for t in own:
                self._take(who, t)
            self.melds[who].append(meld)
            if meld.kind == "daiminkan":
                self.replacement = who
            self.last_what, self.last_who, self.last_tile = "call", who, meld.called or ""
        elif meld.kind == "ankan":
            for t in meld.tiles:
                self._take(who, t)
            self.melds[who].append(meld)
            self.replacement = who
            self.last_what, self.last_who, self.last_tile = "ankan", who, meld.tiles[0]
        elif meld.kind == "kakan":
            added = meld.added or ""
            for i, old in enumerate(self.melds[who]):
                if old.kind == "pon" and plain(old.tiles[0]) == plain(added):
                    self._take(who, added)
                    self.melds[who][i] = meld
                    break
            else:
                raise self.fail(f"player {who} adds {added} to a pon they do not have")
            self.replacement = who
            self.last_what, self.last_who, self.last_tile = "kakan", who, added
        else:
            raise self.fail(f"unknown call {meld.kind}")
        self.calls.append(meld)

    def win_situation(self, winner: int, from_who: int | None) -> dict[str, bool]:
        """The situational facts of a win now: riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou…"""
        facts = {"riichi": winner in self.riichi and winner not in self.double, "double_riichi": winner in self.double,
                 "ippatsu": winner in self.ippatsu, "rinshan": False, "chankan": False, "haitei": False,
                 "houtei": False, "tenhou": False, "chiihou": False}
        if from_who is None:
            if self.last_what != "draw" or self.last_who != winner:
                raise self.fail(f"player {winner} wins by self-draw, but the last event is not their draw")
            facts["rinshan"] = self.last_draw_rinshan
            facts["haitei"] = self.draws == LIVE_DRAWS and not self.last_draw_rinshan
            if self.last_draw_first:
                facts["tenhou" if winner == self.dealer else "chiihou"] = True
        else:
            what, who = self.last_what, self.last_who
            if who != from_who or what not in ("discard", "kakan", "ankan"):
                raise self.fail(f"player {winner} wins on player {from_who}'s tile, but the last event is not "
                                f"their discard or added kong")
            facts["chankan"] = what == "kakan"
            facts["houtei"] = what == "discard" and self.draws == LIVE_DRAWS
        return facts

    def concealed(self, winner: int, from_who: int | None) -> list[str]:
        tiles = list(self.hands[winner])
        if from_who is not None:
            tiles.append(self.last_tile)
        return tiles


def _complete(counts: list[int], sets: int) -> bool:
    """Counts (34 kinds) make ``sets`` sets and a pair."""
    for pair in range(34):
        if counts[pair] >= 2:
            counts[pair] -= 2
            ok = _sets(counts, sets)
            counts[pair] += 2
            if ok:
                return True
    return False


def _sets(counts: list[int], sets: int) -> bool:
    if sets == 0:
        return not any(counts)
    i = next((k for k in range(34) if counts[k]), -1)
    if i < 0:
        return False
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _sets(counts, sets - 1)
        counts[i] += 3
        if ok:
            return True
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        ok = _sets(counts, sets - 1)
        for k in (i, i + 1, i + 2):
            counts[k] += 1
        return ok
    return False


TERMINALS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def is_ready(tiles: list[str], melds: int) -> bool:
    """A concealed hand of 13 − 3 × melds tiles is one tile from a win (any shape), counting a wait on a kind
    whose four copies it already holds as no wait."""
    counts = [0] * 34
    for t in tiles:
        counts[kind_index(t)] += 1
    return _ready(tuple(counts), melds)


@lru_cache(maxsize=4096)
def _ready(counts: tuple[int, ...], melds: int) -> bool:
    base = list(counts)
    for k in range(34):
        if base[k] >= 4:
            continue
        base[k] += 1
        won = _complete(base, 4 - melds)
        if not won and melds == 0:
            pairs = sum(1 for c in base if c == 2) == 7
            orphans = sum(base) == 14 and all(base[i] for i in TERMINALS) and \
                all(base[i] == 0 for i in range(34) if i not in TERMINALS)
            won = pairs or orphans
        base[k] -= 1
        if won:
            return True
    return False

