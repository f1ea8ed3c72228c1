"""Replaying a game: the state before every hand (dealer, round, seat winds, number and label, honba, table, the
dealer's streak, scores) derived from the results alone, each win scored by the hand scorer with the context the
game knows, and the end, the ranking and the points. The rules come from the ruleset's ``game:`` section
(rules.py); nothing here names a ruleset.

``Replay`` applies one result at a time (``apply``: all or nothing, a GameError leaves the state as it was);
``replay`` a whole record.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from . import hands
from .model import AbortResult, DrawResult, GameError, Header, PenaltyResult, Result, Win, WinResult
from .rules import GameRules, game_rules
from .sheet import WINDS, Final, HandEntry, Sheet, WinEntry
from .standing import points_of, ranking_of

WIND_ZH = ("东", "南", "西", "北")
# The flags the game fills in (seat, round, from, zimo, honba, sticks, lian, riichi, pao), written once.
_SEAT_FLAGS = {w: f"+seat={w}" for w in WINDS}
_ROUND_FLAGS = {w: f"+round={w}" for w in WINDS}
_FROM_FLAGS = {w: f"+from={w}" for w in WINDS}


class Replay:
    """A game being replayed: its rules, its state, the sheet's entries so far."""

    def __init__(self, header: Header, rules: GameRules | None = None) -> None:
        if len(header.players) != 4:
            raise GameError(f"a game has four players, not {len(header.players)}")
        self.header = header
        self.rules = rules if rules is not None else game_rules(header.rules, header.options)
        self.players = list(header.players)
        self.scores = [self.rules.start] * 4
        self.deal = 0  # how often the deal has passed: the dealer is deal % 4, the round deal // 4
        self.honba = 0
        self.table = 0  # points on the table (deposits, penalties) for the next winner
        self.lian = 0  # the dealer's streak (连N)
        self.hands_done = 0  # hands ended
        self.in_round = 0  # hands ended in the current round
        self.ended = False
        self.reason: str | None = None
        self.entries: list[HandEntry] = []
        self.errors: list[GameError] = []

    # --- the state ------------------------------------------------------------------------------------------

    @property
    def dealer(self) -> int:
        return self.deal % 4

    @property
    def round_index(self) -> int:
        return self.deal // 4

    def seat(self, player: int) -> str:
        """A player's seat wind this hand (East deals)."""
        return WINDS[(player - self.dealer) % 4]

    def at_seat(self, wind: str) -> int:
        """The player in a seat this hand."""
        return (self.dealer + WINDS.index(wind)) % 4

    def seats(self) -> list[int]:
        """The players at E, S, W, N this hand."""
        return [self.at_seat(w) for w in WINDS]

    def label(self) -> str:
        """The hand's label, for people: 东1局 2本场 (riichi), 东风圈 第2盘 (the others)."""
        wind = WIND_ZH[self.round_index % 4]
        if self.rules.label == "dealer_in_round":
            return f"{wind}{self.deal % 4 + 1}局" + (f" {self.honba}本场" if self.honba else "")
        return f"{wind}风圈 第{self.in_round + 1}盘"

    def next_hand(self) -> dict[str, Any] | None:
        """What the next hand will be (None once the game has ended)."""
        if self.ended:
            return None
        return {"number": self.hands_done + 1, "label": self.label(), "round": WINDS[self.round_index % 4],
                "round_number": self.round_index + 1, "dealer": self.dealer, "honba": self.honba,
                "table": self.table, "lian": self.lian}

    # --- applying a result --------------------------------------------------------------------------------

    def apply(self, result: Result, index: int | None = None) -> HandEntry:
        """Apply one result: the entry it makes. A result that cannot be applied raises GameError (with
        ``index``) and changes nothing."""
        at = len(self.entries) if index is None else index
        try:
            if self.ended:
                raise GameError(f"the game has ended ({self.reason}): no result can follow")
            entry = self._entry(result, at)
        except GameError as exc:
            raise exc.located(index=at) from None
        self.entries.append(entry)
        return entry

    def _entry(self, result: Result, index: int) -> HandEntry:
        if isinstance(result, WinResult):
            return self._win(result, index)
        if isinstance(result, DrawResult):
            return self._draw(result, index)
        if isinstance(result, AbortResult):
            return self._abort(result, index)
        if isinstance(result, PenaltyResult):
            return self._penalty(result, index)
        raise GameError(f"not a result: {result!r}")

    def _new_entry(self, index: int, result: str) -> HandEntry:
        return HandEntry(index, self.hands_done + 1, self.label(), self.round_index, self.dealer, self.honba,
                         self.table, self.lian, list(self.scores), result)

    def _name(self, player: int) -> str:
        return self.players[player]

    def _check_player(self, player: int, what: str) -> None:
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < 4:
            raise GameError(f"{what}: {player!r} is not one of the four players")

    def _riichi(self, riichi: Sequence[int]) -> list[int]:
        """The declarations accepted this hand, checked: each pays the deposit onto the table."""
        if not riichi:
            return []
        rules = self.rules
        if not rules.deposit:
            raise GameError(f"{rules.id} has no riichi declarations")
        seen: list[int] = []
        for p in riichi:
            self._check_player(p, "riichi")
            if p in seen:
                raise GameError(f"riichi: {self._name(p)} is listed twice")
            if self.scores[p] < rules.deposit:
                raise GameError(f"riichi: {self._name(p)} holds {self.scores[p]}; a declaration needs "
                                f"{rules.deposit} in hand")
            seen.append(p)
        return seen

    def _kongs(self, kongs: Sequence[tuple[int, Sequence[str]]], winners: Sequence[int], wild_kind: int | None,
               changes: list[int]) -> list[dict[str, Any]]:
        """Other players' kongs, paid apart by the other three (rules where every kong is paid)."""
        if not kongs:
            return []
        rules = self.rules
        if not rules.kongs:
            raise GameError(f"{rules.id} pays no kong money apart: a winner's kongs are in the winning line, and "
                            "no other player's kongs are paid")
        out = []
        seen: set[int] = set()
        for player, melds in kongs:
            self._check_player(player, "kongs")
            if player in winners:
                raise GameError(f"kongs: {self._name(player)} won this hand; a winner's kongs are in the winning line")
            if player in seen:
                raise GameError(f"kongs: {self._name(player)} is listed twice")
            seen.add(player)
            if not melds:
                raise GameError(f"kongs: no kong listed for {self._name(player)}")
            try:
                amounts = hands.kong_money(rules.hand, melds, wild_kind)
            except hands.MjcalcError as exc:
                raise GameError(f"kongs of {self._name(player)}: {exc.message}") from None
            each = sum(amounts)
            for p in range(4):
                changes[p] += 3 * each if p == player else -each
            out.append({"player": player, "kongs": list(melds), "each": each})
        return out

    def _wild_kind(self, hui: str | None, fallback: int | None) -> int | None:
        if hui is None:
            return fallback
        if not self.rules.hand.wildcard_kongs:
            raise GameError(f"hui: {self.rules.id} has no kong of wildcards to price")
        try:
            return hands.tile_kind(hui)
        except hands.MjcalcError as exc:
            raise GameError(f"hui: {exc.message}") from None

    # --- wins -----------------------------------------------------------------------------------------------

    def _win(self, result: WinResult, index: int) -> HandEntry:
        rules = self.rules
        wins = result.wins
        if not wins:
            raise GameError("a win names its winner")
        for w in wins:
            self._check_win(w)
        discarder = wins[0].discarder
        order: Sequence[int] = (0,)  # the wins as given, nearest to the discarder first
        if len(wins) > 1:
            order = self._several(wins, discarder)
        winners = [w.winner for w in wins]
        riichi = self._riichi(result.riichi) if result.riichi else []
        entry = self._new_entry(index, "win")
        changes = [0, 0, 0, 0]
        deposit = rules.deposit
        for p in riichi:
            changes[p] -= deposit
        on_table = self.table + deposit * len(riichi)
        dealer = self.dealer
        for n, k in enumerate(order):
            w = wins[k]
            taker = n == 0  # the nearest to the discarder takes the honba and the table
            try:
                scored, line, given = self._score(w, riichi, on_table if taker else 0, self.honba if taker else 0)
            except GameError as exc:
                raise exc.located(part=k) from None
            own = [0, 0, 0, 0]  # this win's change for each player
            at = dealer
            for amount in scored.net.values():  # E S W N: the dealer first, then in turn order
                own[at] += amount
                at = (at + 1) % 4
            if taker and on_table:
                own[w.winner] += on_table - self._sticks(on_table) * self._stick
            for p in range(4):
                changes[p] += own[p]
            pao = w.pao
            if pao is None and "pao" in given:
                pao = self.at_seat(str(given["pao"][0]))
            won = WinEntry(w.winner, w.discarder, pao, line, scored)
            if w.log is not None:
                won.log = dict(w.log)
                beside = hands.paid_beside(scored) + (on_table - self._sticks(on_table) * self._stick if taker else 0)
                won.agrees = agrees(w.log, scored.summary, beside, own,
                                    hands.items_of(scored) if "yaku" in w.log else None)
            entry.wins.append(won)
        scored_wild = entry.wins[0].scored.wild_kind
        named_wild = self._wild_kind(result.hui, None)
        if named_wild is not None and scored_wild is not None and named_wild != scored_wild:
            raise GameError(f"hui: the result names the wildcard {result.hui}, but the winning line's is "
                            f"{hands.tile_name(scored_wild)}")
        if result.kongs:
            entry.kongs = self._kongs(result.kongs, winners, named_wild if named_wild is not None else scored_wild,
                                      changes)
        entry.riichi = riichi
        self._commit(entry, changes, table=0)
        repeat = dealer in winners and "dealer_wins" in rules.repeat
        self._hand_over(repeat, rules.honba_repeat if repeat else None)
        self._check_end(entry, after_play=True, repeat=repeat)
        return entry

    def _check_win(self, w: Win) -> None:
        winner, discarder = w.winner, w.discarder
        if winner.__class__ is not int or not 0 <= winner < 4:
            self._check_player(winner, "winner")
        if discarder is not None:
            if discarder.__class__ is not int or not 0 <= discarder < 4:
                self._check_player(discarder, "from")
            if discarder == winner:
                raise GameError(f"{self._name(winner)} cannot win on their own discard")
        if w.pao is not None:
            self._check_player(w.pao, "pao")
            if w.pao == winner:
                raise GameError(f"pao: {self._name(winner)} cannot be liable for their own win")
        if not isinstance(w.hand, str) or not w.hand or w.hand.isspace():
            raise GameError(f"the win of {self._name(winner)} has no winning hand")

    def _several(self, wins: Sequence[Win], discarder: int | None) -> list[int]:
        """Several winners on one discard, checked: their order, nearest to the discarder first."""
        rules = self.rules
        winners = [w.winner for w in wins]
        if len(set(winners)) != len(winners):
            raise GameError("a player wins once a hand: a winner is listed twice")
        if any(w.discarder is None for w in wins):
            raise GameError("a self-drawn win has one winner: several winners are on one discard")
        if any(w.discarder != discarder for w in wins):
            raise GameError("several winners in one result are on one discard: give each the same 'from'")
        assert discarder is not None
        if len(wins) > rules.most_winners:
            nearest = min(winners, key=lambda p: (p - discarder) % 4)
            if rules.most_winners == 1:
                raise GameError(
                    f"one winner per discard under {rules.id} (截胡): the nearest to {self._name(discarder)} "
                    f"in turn order, {self._name(nearest)}, wins; record that win alone")
            if len(wins) == 3 and "triple_ron" in rules.aborts:
                raise GameError("three winners on one discard is an abortive draw here (triple_ron=abort): "
                                "record abort triple_ron")
            raise GameError(f"at most {rules.most_winners} winners on one discard under {rules.id}")
        return sorted(range(len(wins)), key=lambda k: (wins[k].winner - discarder) % 4)

    @property
    def _stick(self) -> int:
        return self.rules.deposit or 1000

    def _sticks(self, on_table: int) -> int:
        """The sticks the hand scorer is told of (+sticks): the table in deposits, when it reads them."""
        return on_table // self._stick if on_table and "sticks" in self.rules.hand.reads else 0

    def _score(self, w: Win, riichi: Sequence[int], on_table: int,
               honba: int) -> tuple[hands.ScoredWin, str, dict[str, tuple[object, int]]]:
        """Score one win with the context the game knows filled in; a flag in the line that says otherwise is an
        error naming both. The score, the line as scored, the flags the line gave."""
        rules = self.rules
        reads = rules.hand.reads
        line = w.hand.strip()
        given = hands.given_flags(line)
        dealer = self.dealer
        seat = WINDS[(w.winner - dealer) % 4]
        round_wind = WINDS[(self.deal // 4) % 4]
        discarder = w.discarder
        sticks = self._sticks(on_table)
        riichi_known = bool(rules.deposit) and w.winner in riichi
        if given:
            known: dict[str, object] = {"seat": seat, "round": round_wind, "zimo": discarder is None,
                                        "honba": honba, "sticks": sticks}
            if discarder is not None:
                known["from"] = WINDS[(discarder - dealer) % 4]
            # in every family: a line's +lian=2 or +riichi where the game has no streak or riichi contradicts it
            known["lian"] = self.lian
            known["riichi"] = riichi_known
            if w.pao is not None:
                known["pao"] = self.seat(w.pao)
            self._contradictions(w, riichi, known, given)
        if w.pao is not None and "pao" not in reads:
            raise GameError(f"pao: {rules.id}'s hand scorer reads no +pao (the liable player)")
        # the flags the game knows, in a fixed order, where the ruleset reads them and the line does not say them
        added = []
        if "seat" not in given and "seat" in reads:
            added.append(_SEAT_FLAGS[seat])
        if "round" not in given and "round" in reads:
            added.append(_ROUND_FLAGS[round_wind])
        if discarder is None:
            if "zimo" not in given and "zimo" in reads:
                added.append("+zimo")
        elif "from" not in given and "from" in reads:
            added.append(_FROM_FLAGS[WINDS[(discarder - dealer) % 4]])
        if honba and "honba" not in given and "honba" in reads:
            added.append(f"+honba={honba}")
        if sticks and "sticks" not in given:
            added.append(f"+sticks={sticks}")
        if rules.streak and self.lian and "lian" not in given and "lian" in reads:
            added.append(f"+lian={self.lian}")
        if riichi_known and "riichi" not in given and "riichi" in reads and not ("wriichi" in given
                                                                               and given["wriichi"][0]):
            added.append("+riichi")  # (a double riichi is one)
        if w.pao is not None and "pao" not in given:
            added.append(f"+pao={self.seat(w.pao)}")
        filled = f"{line} {' '.join(added)}" if added else line
        try:
            return hands.score_win(rules.hand, filled), filled, given
        except hands.MjcalcError as exc:
            if exc.column is not None and exc.column > len(line):  # a flag the game added: the hand as a whole
                raise GameError(f"{exc.message} (the game filled in: {' '.join(added)})", 1, kind=exc.kind) from None
            raise GameError(exc.msg, exc.column, kind=exc.kind) from None

    def _contradictions(self, w: Win, riichi: Sequence[int], known: dict[str, object],
                        given: dict[str, tuple[object, int]]) -> None:
        """A flag in the line that says otherwise than the game: an error naming both."""
        for flag, (value, column) in given.items():
            if flag == "from" and w.discarder is None:
                raise GameError(f"+from={value} in the line, but {self._why(flag, w, riichi, known)}", column)
            if flag == "wriichi" and value and w.winner not in riichi:
                why = f"{self.rules.id} has no riichi" if not self.rules.deposit else \
                    f"{self._name(w.winner)} is not in this result's riichi list"
                raise GameError(f"+wriichi in the line, but {why}", column)
            if flag in known and value != known[flag]:
                shown = f"+{flag}" if isinstance(value, bool) and value else f"+{flag}={value}"
                if flag == "riichi" and not value:
                    shown = "+riichi=off"
                raise GameError(f"{shown} in the line, but {self._why(flag, w, riichi, known)}", column)

    def _why(self, flag: str, w: Win, riichi: Sequence[int], known: dict[str, object]) -> str:
        """What the game knows of a flag a winning line contradicts, in words."""
        name = self._name(w.winner)
        drew = f"the result says {name} drew the winning tile (no 'from')"
        if flag == "seat":
            return f"{name} sits {self.seat(w.winner)} this hand"
        if flag == "round":
            return f"the round wind is {WINDS[self.round_index % 4]}"
        if flag == "zimo":
            return f"{name} won on {self._name(w.discarder)}'s discard" if w.discarder is not None else drew
        if flag == "from":
            return drew if w.discarder is None else \
                f"{self._name(w.discarder)} discarded, who sits {self.seat(w.discarder)}"
        if flag in ("honba", "sticks"):
            return f"the game has {known[flag]} {'honba' if flag == 'honba' else 'riichi stick(s)'} for this win"
        if flag == "lian":
            return f"the dealer's streak is {self.lian}"
        if flag == "riichi":
            if not self.rules.deposit:
                return f"{self.rules.id} has no riichi"
            return f"{name}'s riichi is {'' if w.winner in riichi else 'not '}in this result's riichi list"
        assert w.pao is not None
        return f"the result names {self._name(w.pao)} liable, who sits {self.seat(w.pao)}"

    # --- draws, aborts, penalties -----------------------------------------------------------------------------

    def _draw(self, result: DrawResult, index: int) -> HandEntry:
        rules = self.rules
        ready = self._players(result.ready, "ready")
        nagashi = self._players(result.nagashi, "nagashi")
        if nagashi and not rules.nagashi:
            raise GameError(f"nagashi: {rules.id} pays no nagashi mangan" +
                            (" (option nagashi is off)" if "nagashi" in rules.options else ""))
        riichi = self._riichi(result.riichi)
        entry = self._new_entry(index, "draw")
        changes = [0, 0, 0, 0]
        for p in riichi:
            changes[p] -= rules.deposit
        dealer = self.dealer
        if nagashi:
            for p in nagashi:  # paid as a mangan self-draw, without honba
                for q in range(4):
                    if q != p:
                        pay = rules.mangan_dealer if p == dealer or q == dealer else rules.mangan_other
                        changes[q] -= pay
                        changes[p] += pay
        elif rules.ready_pool and 0 < len(ready) < 4:
            gain, loss = rules.ready_pool // len(ready), rules.ready_pool // (4 - len(ready))
            for p in range(4):
                changes[p] += gain if p in ready else -loss
        if result.kongs and result.hui is None and rules.hand.wildcard_kongs:
            # GAME.md: such a 荒庄 names the hand's wildcard kind (a concealed kong of it is priced apart)
            raise GameError(f"hui: a drawn hand listing kongs names its wildcard kind under {rules.id} "
                            '(hui 5m; JSON "hui": "5m")')
        wild = self._wild_kind(result.hui, None)
        entry.kongs = self._kongs(result.kongs, (), wild, changes)
        entry.riichi, entry.ready, entry.nagashi = riichi, ready, nagashi
        table = self.table + rules.deposit * len(riichi)
        self._commit(entry, changes, table)
        repeat = "draw" in rules.repeat or ("dealer_ready" in rules.repeat and dealer in ready)
        self._hand_over(repeat, rules.honba_draw)
        self._check_end(entry, after_play=True, repeat=repeat, ready_dealer=dealer in ready)
        return entry

    def _players(self, players: Sequence[int], what: str) -> list[int]:
        out: list[int] = []
        for p in players:
            self._check_player(p, what)
            if p in out:
                raise GameError(f"{what}: {self._name(p)} is listed twice")
            out.append(p)
        return out

    def _abort(self, result: AbortResult, index: int) -> HandEntry:
        rules = self.rules
        if result.abort not in rules.aborts:
            if not rules.aborts:
                raise GameError(f"{rules.id} has no abortive draws")
            raise GameError(f"'{result.abort}' is no abortive draw of {rules.id}; they are: {', '.join(rules.aborts)}")
        if result.abort == "triple_ron" and rules.most_winners >= 3:
            raise GameError("three winners on one discard are paid here (triple_ron=pay): record the three wins")
        riichi = self._riichi(result.riichi)
        entry = self._new_entry(index, "abort")
        entry.abort = result.abort
        changes = [0, 0, 0, 0]
        for p in riichi:
            changes[p] -= rules.deposit
        entry.riichi = riichi
        self._commit(entry, changes, self.table + rules.deposit * len(riichi))
        self.hands_done += 1
        self.in_round += 1
        self.honba += rules.honba_abort
        return entry  # an abortive draw never ends the game

    def _penalty(self, result: PenaltyResult, index: int) -> HandEntry:
        rules = self.rules
        offender = result.player
        self._check_player(offender, "penalty")
        changes = [0, 0, 0, 0]
        table = self.table
        redeal = False
        if result.false_win:
            if not rules.false_win:
                raise GameError(f"{rules.id} has no false-win penalty of its own: give an amount "
                                f"(penalty {self._name(offender)} AMOUNT each)")
            for q in range(4):
                if q == offender:
                    continue
                if rules.false_win_mangan:
                    pay = rules.mangan_dealer if offender == self.dealer or q == self.dealer else rules.mangan_other
                else:
                    pay = rules.false_win_each
                changes[q] += pay
                changes[offender] -= pay
            redeal = rules.false_win_redeal
        else:
            amount = result.amount
            if not isinstance(amount, int) or isinstance(amount, bool) or not 0 < amount <= 1_000_000_000:
                raise GameError(f"a penalty's amount is a whole number from 1 to 1,000,000,000, not {amount!r}")
            to = result.to
            if to == "each":
                for q in range(4):
                    if q != offender:
                        changes[q] += amount
                        changes[offender] -= amount
            elif to == "table":
                changes[offender] -= amount
                table += amount
            else:
                if not isinstance(to, int):
                    raise GameError(f"a penalty goes to each, table or a player, not {to!r}")
                self._check_player(to, "penalty to")
                if to == offender:
                    raise GameError("a penalty is paid to someone else")
                changes[offender] -= amount
                changes[to] += amount
        if result.riichi and redeal:  # the hand is void: its declarations with it (their sticks go back)
            raise GameError("riichi: a false win voids its hand, which is dealt again: its declarations are void "
                            "and none is listed")
        if result.riichi:
            raise GameError("riichi is declared in a hand that ends; this penalty does not end its hand")
        riichi = self._riichi(result.riichi)
        entry = self._new_entry(index, "redeal" if redeal else "penalty")
        entry.penalty = {"player": offender, "kind": "false_win" if result.false_win else None,
                         "amount": None if result.false_win else result.amount,
                         "to": None if result.false_win else result.to}
        for p in riichi:
            changes[p] -= rules.deposit
            table += rules.deposit
        entry.riichi = riichi
        self._commit(entry, changes, table)
        if redeal:  # the same dealer and honba
            self.hands_done += 1
            self.in_round += 1
        self._check_end(entry, after_play=False)
        return entry

    # --- after a result -------------------------------------------------------------------------------------

    def _commit(self, entry: HandEntry, changes: list[int], table: int) -> None:
        entry.changes = changes
        self.scores = [s + c for s, c in zip(self.scores, changes)]
        entry.end = list(self.scores)
        self.table = table

    def _hand_over(self, repeat: bool, honba_step: int | None) -> None:
        """A hand won or drawn: the dealer stays or the deal passes; honba and streak follow."""
        self.hands_done += 1
        self.in_round += 1
        if repeat:
            self.lian += 1 if self.rules.streak else 0
            self.honba += honba_step or 0
        else:
            self.honba = self.honba + honba_step if honba_step is not None else 0
            self.lian = 0
            self.deal += 1
            if self.deal % 4 == 0:
                self.in_round = 0

    def _check_end(self, entry: HandEntry, *, after_play: bool, repeat: bool = False,
                   ready_dealer: bool = False) -> None:
        rules = self.rules
        if rules.bust and any(s < 0 for s in self.scores):
            return self._end("a score below zero")
        if not after_play:
            return None
        played_round = entry.round_number - 1
        regular = rules.rounds
        if regular is not None and rules.target and played_round >= regular and rules.extension == "sudden_death" \
                and any(s >= rules.target for s in self.scores):
            return self._end(f"a player at {rules.target} or more in the extra round")
        if rules.last_dealer_stop and repeat and regular is not None and entry.dealer == self.dealer \
                and (self.deal % 4) == 3 and played_round >= regular - 1 \
                and (entry.result == "win" or ready_dealer):
            first = ranking_of(self.scores)[0]
            if first == self.dealer and self.scores[first] >= rules.target:
                return self._end("the last dealer stops in first place")
        if not repeat and self.deal % 4 == 0 and regular is not None:
            completed = self.deal // 4
            if completed >= regular:
                most = regular
                if rules.extension == "rounds":
                    most = regular + rules.extra_rounds
                elif rules.extension == "sudden_death":
                    most = regular + min(1, rules.extra_rounds)
                if completed >= most:
                    return self._end("the last round is played")
                if rules.target and any(s >= rules.target for s in self.scores):
                    return self._end(f"a player at {rules.target} or more after the last round")
        if rules.hands is not None and self.hands_done >= rules.hands:
            return self._end(f"{rules.hands} hands are played")
        return None

    def _end(self, reason: str) -> None:
        self.ended = True
        self.reason = reason

    # --- the sheet ------------------------------------------------------------------------------------------

    def final(self) -> Final:
        rules = self.rules
        scores = list(self.scores)
        leftover = 0
        if self.ended and self.table and rules.leftover == "to_first":
            leftover = self.table
            scores[ranking_of(scores)[0]] += leftover
        ranking = ranking_of(scores)
        # points are the game's result (GAME.md: "at the end the ranking with points"): none while it goes on
        points = points_of(rules.points, scores, ranking, rules.start) \
            if rules.points is not None and self.ended else None
        grades: list[dict[str, Any] | None] | None = None
        if rules.grades:
            grades = []
            for s in scores:
                g = rules.grade(s)
                grades.append(None if g is None else dict(g.names))
        return Final(scores, ranking, points, self.ended, self.reason, leftover, self.next_hand(), grades)

    def sheet(self) -> Sheet:
        options = {key: self.rules.options.get(key, value) for key, value in self.header.options.items()}  # typed
        return Sheet(self.rules.id, list(self.players), options, list(self.entries), self.final(), list(self.errors))


def agrees(log: dict[str, Any], summary: dict[str, Any], beside: int = 0, changes: list[int] | None = None,
           items: list[tuple[str, int]] | None = None) -> bool:
    """Whether what a log recorded of a win agrees with what mjcalc scores: ``han`` (or ``fan``) and ``fu`` (a fu
    of None is not compared), ``points`` the hand's own value (mjcalc's points less ``beside``, what the winner
    was paid apart from the hand: honba and the table), ``changes`` each player's change over the win, ``yaku``
    the items counted with their totals (``[["riichi", 1], ["dora", 2]]``)."""
    mine = {"han": summary["fan"], "fan": summary["fan"], "fu": summary["fu"], "points": summary["points"] - beside}
    for key, value in log.items():
        if key in mine and value is not None and mine[key] != value:
            return False
    recorded = log.get("changes")
    if recorded is not None and changes is not None and list(recorded) != changes:
        return False
    yaku = log.get("yaku")
    return yaku is None or items is None or sorted((str(i), int(v)) for i, v in yaku) == items


def replay(header: Header, results: Iterable[Result], *, errors: str = "raise") -> Sheet:
    """Replay a game's results into its sheet. ``errors``: ``raise`` — the first result that cannot be applied
    raises its GameError (``index``: which); ``skip`` — it is left out (``Sheet.errors``) and the rest replayed;
    ``stop`` — the sheet as far as the results go."""
    game = Replay(header)
    for n, result in enumerate(results):
        try:
            game.apply(result, n)
        except GameError as exc:
            if errors == "raise":
                raise
            game.errors.append(exc)
            if errors == "stop":
                break
    return game.sheet()
