"""Riichi: what its YAML cannot say — dora counting, pinfu, fu with a reason per line, the han / fu limits and
the ron / tsumo payments, as the settler of ``formula: {kind: riichi}``.

Numbers follow standard riichi as the reference library ``mahjong`` 2.1.0 scores it (spec/rules/riichi.md):

- fu: 20 base, +10 for a closed ron, +2 for an edge, closed or pair wait, +2 for each dragon / seat wind /
  round wind in the pair (a double-wind pair is 4), triplets 2 / 4 / 8 / 16 / 32 as below, +2 for tsumo
  unless the hand is a closed one with no other fu (option ``pinfu_tsumo_fu`` gives it anyway), and an open
  hand with no fu at all gets 2 (option ``open_pinfu_fu``); then up to the next 10. Seven pairs are 25 flat, thirteen
  orphans 0 (a yakuman: fu cannot matter).
- base points: fu × 2^(2 + han), mangan (2000) above 2000 or from 5 han (``kiriage``: also 4 han 30 fu and
  3 han 60 fu); haneman 6-7 han 3000, baiman 8-10 4000, sanbaiman 11-12 6000, yakuman 8000 per 13 han,
  at most six times; 13+ han without a yakuman is counted (kazoe) yakuman, sanbaiman or unlimited by the
  option ``kazoe``.
- payments: a discard win costs the discarder six times (dealer) or four times the base, rounded up to 100; on a tsumo
  the dealer pays twice the base and the others once each (a dealer's tsumo: twice from each), rounded up to 100;
  +300 per honba on a ron, +100 per honba from each payer on a tsumo; +1000 per riichi stick to the
  winner, from the table.

>>> fu_round(32), base_points(3, 30, False, {"kazoe": "yakuman", "kiriage": False})
(40, (960, None))
>>> base_points(4, 30, False, {"kazoe": "yakuman", "kiriage": True})
(2000, 'mangan')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..core import tiles as T
from ..core.candidate import Candidate
from ..core.context import LOSERS, Context, FlagDef, declare_context_check, declare_flags, declare_hand_check
from ..core.facts import CLOSED, RED
from ..core.hand import Hand, TileRules
from ..core.model import Ruleset
from ..core.readings.decompose import WAIT_FACTS
from ..core.readings.forms import REGULAR, Group
from ..core.result import Result
from ..core.settlement.payments import Award, Payment, Settlement, liable_items
from ..errors import MjcalcError
from ..i18n import N_, Msg, formatted, tr
from ..predicates.binding import explained_by, namespaced, needs, params
from ..registry import FORMULA_NEEDS, HOMEWORK_FACTS, HOMEWORK_HYPOTHESES, RESULT_CHECKS, SETTLERS, TOTAL_SHOWN, WHAT_IF
from ..support.memo import remember

riichi = namespaced("riichi")

# --- the flags of a riichi hand --------------------------------------------------------------------------------
_FACTS: Final = declare_flags(
    FlagDef("riichi", "bool", "riichi declared", ("reach", "立直"), position=17),
    FlagDef("wriichi", "bool", "double riichi declared", ("double_riichi", "两立直"), position=18),
    FlagDef("ippatsu", "bool", "won within one go-round of riichi", ("一发",), position=19),
    FlagDef("dora", "tiles", "dora indicators", ("宝牌指示牌",), "none", position=20),
    FlagDef("ura", "tiles", "ura-dora indicators", ("uradora", "里宝牌"), "none", position=21),
    FlagDef("honba", "int", "riichi repeat counters", ("本场",), "0", most=99, position=22),
    FlagDef("sticks", "int", "riichi sticks on the table", ("供托",), "0", most=99, position=23),
    FlagDef("pao", "seat", "the player liable for the hand (責任払い): fed the set that made its yakuman",
            ("包", "责任支付", "責任払い"), "none", position=27, plain=False),
)
DORA: Final = _FACTS[3]  # the facts of +dora and +ura (facts.py): the dora items' gates
URA: Final = _FACTS[4]


def _honba(ctx: Context) -> int:
    return ctx.flag("honba")  # type: ignore[return-value]


def _pao(ctx: Context) -> str | None:
    return ctx.flag("pao")  # type: ignore[return-value]


def _pao_is_another(seat: str, liable: object) -> str | None:
    """+pao names another player than the winner."""
    if liable == seat:
        return Msg("+pao names the player liable for the winner's hand, who cannot be the winner (+seat={seat})",
                   seat=seat)
    return None


declare_context_check("pao", _pao_is_another)

# The dora is the tile after the indicator: 9 → 1 within a suit, E → S → W → N → E, 白 → 发 → 中 → 白.
DORA_AFTER: Final = tuple(
    t - 8 if t < T.HONOR_START and t % 9 == 8
    else t + 1 if t < T.HONOR_START
    else T.WINDS[(T.WINDS.index(t) + 1) % 4] if T.is_wind(t)
    else T.DRAGONS[(T.DRAGONS.index(t) + 1) % 3]
    for t in range(T.NUM_KINDS)
)
YAKUMAN_BASE: Final = 8000
MAX_YAKUMAN: Final = 6  # the reference counts at most six yakuman (78 han)
# (lowest han, base points, name) from 5 to 12 han
MANGAN: Final = N_("mangan")
LIMITS: Final = ((11, 6000, N_("sanbaiman")), (8, 4000, N_("baiman")), (6, 3000, N_("haneman")),
          (5, 2000, MANGAN))
# LIMITS by han (from the lowest limit to 12): an item of a tuple, where a loop over LIMITS would compare each
# boxed bound.
_LIMIT_FROM: Final = LIMITS[-1][0]
_LIMIT_AT: Final = tuple(next(((base, name) for lowest, base, name in LIMITS if han >= lowest), (0, ""))
                         for han in range(13))
MULTIPLE_NAMES: Final = {2: N_("double yakuman"), 3: N_("triple yakuman"), 4: N_("quadruple yakuman"),
                  5: N_("quintuple yakuman"), 6: N_("sextuple yakuman")}
YAKUMAN: Final = N_("yakuman")
KAZOE_YAKUMAN: Final = N_("kazoe yakuman")
KAZOE_SANBAIMAN: Final = N_("kazoe sanbaiman")


def yakuman_shown(awards: list[Award] | tuple[Award, ...], han: int) -> str | None:
    """What a table shows of yakuman items (a hand's, or one item's) instead of their ``han``: the limit they
    make (``double yakuman`` for 26), as their han count yakuman, 13 each, and are no han a hand has. None when
    no item is a yakuman."""
    for award in awards:
        if award.item.tier == "yakuman":
            return MULTIPLE_NAMES.get(min(han // 13, MAX_YAKUMAN), YAKUMAN)
    return None


# --- what the flags say against the hand (core/context.py HAND_CHECKS: a context error under the flag) ----------
# The dead wall shows one dora indicator, and one more for each kong declared at the table (anyone's, up to four).
MOST_INDICATORS: Final = 5


def _indicators(ctx: Context, flag: str) -> tuple[int, ...]:
    return ctx.flag(flag)  # type: ignore[return-value]


def _dora_indicators(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+dora: one indicator, and one more for each kong at the table (anyone's): five at most."""
    dora = _indicators(ctx, "dora")
    given = len(dora)
    if given <= MOST_INDICATORS:
        return _too_many_copies("dora", hand, dora)
    return Msg("+dora: {given} indicators, but a table turns at most {most}: one, and one more for each of up to four "
               "kongs", given=given, most=MOST_INDICATORS)


def _ura_indicators(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+ura: one under each dora indicator, so no more of them than of the dora indicators (a line without +dora
    has one, which the hand was not hit by)."""
    ura, dora_indicators = _indicators(ctx, "ura"), _indicators(ctx, "dora")
    given, dora = len(ura), max(1, len(dora_indicators))
    if given <= dora:
        return _too_many_copies("ura", hand, dora_indicators + ura)
    if dora == 1:
        return Msg("+ura: {given} indicators, but there is one under each dora indicator, and the line gives one "
                   "(write every dora indicator: +dora=…)", given=given)
    return Msg("+ura: {given} indicators, but there is one under each dora indicator, and the line gives {dora}",
               given=given, dora=dora)


def _too_many_copies(flag: str, hand: Hand, indicators: tuple[int, ...]) -> str | None:
    """An indicator is a tile of the set: a kind's copies in the hand and among the indicators are four at most."""
    counts = hand.counts
    for kind in indicators:
        held = counts[kind] + indicators.count(kind)
        if held > 4:
            return Msg("+{flag}: {tile}: the hand holds {held} and the indicators show {shown}, but there are four "
                       "of each tile", flag=flag, tile=T.name(kind), held=counts[kind], shown=indicators.count(kind))
    return None


def _ura_needs_riichi(hand: Hand, ctx: Context, tiles: TileRules) -> str | None:
    """+ura: ura-dora are turned over for a riichi hand only."""
    if ctx.flag("riichi") or ctx.flag("wriichi"):
        return None
    return Msg("+ura: the ura-dora are turned over only for a hand that declared riichi: add +riichi (or +wriichi)")


declare_hand_check("dora", _dora_indicators)
declare_hand_check("ura", _ura_needs_riichi)
declare_hand_check("ura", _ura_indicators)


def _liable_item_held(rules: Ruleset, options: Mapping[str, Any], awards: list[Award],
                      values: Mapping[str, tuple[object, int | None]]) -> None:
    """+pao names a player liable for the hand (責任払い): the hand must hold an item one can be liable for (the
    ruleset's ``liable:`` items under these options); else a context error under +pao."""
    if liable_items(awards, options):
        return
    column = values["pao"][1] if "pao" in values else None
    for a in awards:
        if a.item.liable:  # liable only under an option that is not set so
            raise MjcalcError("context", Msg("+pao: a player is liable for {item} only under the option {option}",
                                             item=a.item.id, option=a.item.liable_option), column)
    known = ", ".join([i.id for i in rules.items if i.is_liable(options)])
    raise MjcalcError("context", Msg("+pao names the player liable for the hand, but it holds none of the items a "
                                     "player can be liable for ({items})", items=known or Msg("none")), column)


RESULT_CHECKS.append(("pao", _liable_item_held))


# --- predicates ----------------------------------------------------------------------------------------


def _count_dora(c: Candidate, indicators: tuple[int, ...]) -> int:
    # Counted per indicator, in the concealed tiles and in each meld: there are few, and neither the hand's
    # counts nor a list of all its tiles is needed else. By plain loops, not tuple.count, which a compiled module
    # calls as a Python method.
    hand = c.hand
    found = 0
    for i in indicators:
        dora = DORA_AFTER[i]
        for t in hand.concealed:
            if t == dora:
                found += 1
        for m in hand.melds:
            for t in m.tiles:
                if t == dora:
                    found += 1
    return found


@riichi
@needs(DORA)
@explained_by("dora")
def dora(c: Candidate) -> int:
    """How many dora the hand holds, melds included: each tile counts once per indicator pointing at it."""
    return _count_dora(c, c.ctx.flag("dora"))  # type: ignore[arg-type]


@riichi
@needs(URA)
@explained_by("dora")
def ura_dora(c: Candidate) -> int:
    """How many ura-dora the hand holds; they count only for a riichi (or double riichi) hand."""
    ctx = c.ctx
    if not (ctx.flag("riichi") or ctx.flag("wriichi")):
        return 0
    return _count_dora(c, ctx.flag("ura"))  # type: ignore[arg-type]


@riichi
@needs(RED)
def red_fives(c: Candidate) -> int:
    """How many red fives (0m 0p 0s) the hand holds, melds included."""
    return c.hand.reds


def _valued_pairs(seat: str, round_: str) -> dict[int, tuple[tuple[str, int], ...]]:
    """The fu lines of each valued pair kind for a seat and round wind (a double wind's pair has two)."""
    out = {}
    for t in (*T.WINDS, *T.DRAGONS):
        lines = (((N_("pair of dragons"), 2),) if T.is_dragon(t) else ()) \
            + (((N_("pair of the seat wind"), 2),) if t == T.seat_wind_tile(seat) else ()) \
            + (((N_("pair of the round wind"), 2),) if t == T.seat_wind_tile(round_) else ())
        if lines:
            out[t] = lines
    return out


VALUED_PAIRS: Final = {seat: {round_: _valued_pairs(seat, round_) for round_ in T.SEATS} for seat in T.SEATS}


def _pair_value_lines(c: Candidate, pair: Group) -> tuple[tuple[str, int], ...]:
    ctx = c.ctx
    return VALUED_PAIRS[ctx.seat][ctx.round].get(pair[1][0], ())  # the pair's tiles by index (a named tuple)


@riichi
@needs(REGULAR | CLOSED | WAIT_FACTS["two_sided"])
@params(tsumo_fu=bool)
@explained_by("win")
def pinfu(c: Candidate, tsumo_fu: bool) -> bool:
    """A closed hand of four chows and a pair that earns no fu, won on a two-sided wait: no valued pair (dragon,
    seat or round wind). With ``tsumo_fu`` (the option pinfu_tsumo_fu) a tsumo earns 2 fu, so no pinfu then."""
    if c.reading.form != "regular" or not c.hand.closed or c.reading.wait != "two_sided":
        return False
    if tsumo_fu and c.ctx.zimo:
        return False
    pair = c.pair
    return pair is not None and len(c.chi_starts) == len(c.sets) and not _pair_value_lines(c, pair)  # all chows


# --- fu ------------------------------------------------------------------------------------------------


def fu_round(raw: int) -> int:
    """Fu are rounded up to the next 10 (seven pairs' 25 excepted)."""
    return -(-raw // 10) * 10


def _set_line(big: bool, kong: bool, open_: bool) -> tuple[str, int]:
    """2 for an open triplet of simples, doubled for terminals or honors, doubled again when concealed, × 4 for a
    kong: 2 4 8 16 32."""
    fu = 2 * (2 if big else 1) * (1 if open_ else 2) * (4 if kong else 1)
    return SET_NAMES[big, kong, open_], fu


SET_NAMES: Final = {
    (False, False, True): N_("open triplet"), (False, False, False): N_("closed triplet"),
    (False, True, True): N_("open kong"), (False, True, False): N_("closed kong"),
    (True, False, True): N_("open triplet of terminals/honors"),
    (True, False, False): N_("closed triplet of terminals/honors"),
    (True, True, True): N_("open kong of terminals/honors"), (True, True, False): N_("closed kong of terminals/honors"),
}


SET_LINES: Final = {(big, kong, open_): _set_line(big, kong, open_)
             for big in (False, True) for kong in (False, True) for open_ in (False, True)}
# SET_LINES by index, big × 4 + kong × 2 + open: a tuple's item rather than a dictionary's, keyed by a tuple made per
# set.
_SET_LINE_AT: Final = tuple(SET_LINES[big, kong, open_] for big in (False, True) for kong in (False, True)
                            for open_ in (False, True))
BIG: Final = tuple(T.is_terminal(t) or T.is_honor(t) for t in range(T.NUM_KINDS))
WAIT_LINES: Final = {"edge": (N_("edge wait"), 2), "closed": (N_("closed wait"), 2), "pair": (N_("pair wait"), 2)}
SEVEN_PAIRS_LINES: Final = [(N_("seven pairs"), 25)]
BASE_LINE: Final = (N_("base"), 20)
CLOSED_RON_LINE: Final = (N_("closed ron"), 10)
TSUMO_LINE: Final = (N_("tsumo"), 2)
OPEN_WITHOUT_FU_LINE: Final = (N_("open hand without fu"), 2)


def fu_lines(c: Candidate, options: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Each part of the fu of this reading with its reason, before rounding."""
    reading = c.reading  # its fields by index, here and below: a named tuple's attributes cost a compiled module more
    form = reading[0]
    if form == "thirteen_orphans":
        return []
    if form == "seven_pairs":
        return list(SEVEN_PAIRS_LINES)
    zimo, closed = c.ctx.zimo, c.hand.closed
    lines: list[tuple[str, int]] = [BASE_LINE, CLOSED_RON_LINE] if closed and not zimo else [BASE_LINE]
    base_lines = len(lines)
    wait = WAIT_LINES.get(reading[3])  # type: ignore[arg-type]
    if wait is not None:
        lines.append(wait)
    pair = c.pair
    if pair is not None:
        lines += _pair_value_lines(c, pair)
    win_index = None if zimo else reading[2]  # a triplet completed by a discard counts as open
    for i, g in enumerate(reading[1]):
        kind = g[0]
        if kind == "pon" or kind == "kong":  # by index: a named tuple's attributes cost more
            lines.append(_SET_LINE_AT[4 * BIG[g[1][0]] + 2 * (kind == "kong") + (not g[2] or i == win_index)])
    has_fu = len(lines) > base_lines
    # Only a pinfu tsumo goes without the tsumo's 2 fu, and pinfu is closed. (The reference also withholds them
    # from an open hand without other fu when open_pinfu_fu is off: rules/riichi.md, "Differences".)
    if zimo and (has_fu or options["pinfu_tsumo_fu"] or not closed):
        lines.append(TSUMO_LINE)
    elif not closed and not has_fu and options["open_pinfu_fu"]:
        lines.append(OPEN_WITHOUT_FU_LINE)
    return lines


# --- limits and payments -------------------------------------------------------------------------------


def base_points(han: int, fu: int, yakuman: bool, options: Mapping[str, Any]) -> tuple[int, str | None]:
    """Base points and the limit's name (None below mangan)."""
    kazoe = None
    if han >= 13 and not yakuman and options["kazoe"] != "unlimited":
        han, kazoe = (13, KAZOE_YAKUMAN) if options["kazoe"] == "yakuman" else (12, KAZOE_SANBAIMAN)
    if han >= 13:
        times = min(han // 13, MAX_YAKUMAN)
        name = kazoe or (MULTIPLE_NAMES.get(times, YAKUMAN) if yakuman or times > 1 else KAZOE_YAKUMAN)
        return YAKUMAN_BASE * times, name
    if han >= _LIMIT_FROM:
        base, name = _LIMIT_AT[han]
        return base, kazoe or name
    if (han == 4 and fu == 30 or han == 3 and fu == 60) and options["kiriage"]:
        return 2000, MANGAN
    base = fu << (2 + han) if han >= 0 else fu * 2 ** (2 + han)  # fu × 2^(2 + han); a homework's han may be any
    return (2000, MANGAN) if base > 2000 else (base, None)


def _payment(payer: str, winner: str, han: int, base: int, times: int, honba: int, step: int = 100) -> Payment:
    amount, formula = _paid(base, times, honba, step)
    return Payment(payer, winner, han, amount, formula)


# The texts of payments and limits: the same few base points, multiples, honba and sticks come back hand after
# hand. Dictionaries rather than lru_cache: a call through the cache's wrapper from compiled code costs ~3 times
# the look-up; the messages are values, shared by the results.
_PAID: Final[dict[tuple[int, int, int, int], tuple[int, str]]] = {}
_LIMIT_NOTES: Final[dict[tuple[int, int, int, str | None], str]] = {}
_STICKS: Final[dict[int, str]] = {}


# _PAID of a usual payment (rounded to 100, the base and the honba below 2^24, at most 7 times), by the three packed
# in one int: a look-up by a small int rather than a tuple made and hashed.
_PAID_USUAL: Final[dict[int, tuple[int, str]]] = {}


def _paid(base: int, times: int, honba: int, step: int = 100) -> tuple[int, str]:
    """A payment of ``times`` the base points, rounded up to ``step`` (100), plus honba; with its arithmetic."""
    if step == 100 and 0 <= base < 1 << 24 and 0 <= times < 8 and 0 <= honba < 1 << 24:
        packed = base | times << 24 | honba << 27
        usual = _PAID_USUAL.get(packed)
        if usual is None:
            usual = remember(_PAID_USUAL, packed, _payment_of(base, times, honba, step))
        return usual
    key = (base, times, honba, step)
    found = _PAID.get(key)
    if found is None:
        found = remember(_PAID, key, _payment_of(base, times, honba, step))
    return found


def _payment_of(base: int, times: int, honba: int, step: int) -> tuple[int, str]:
    hand = -(-base * times // step) * step
    formula = (Msg("{base} × {times} → {hand} + {honba} honba", base=base, times=times, hand=hand, honba=honba)
               if honba else f"{base} × {times} → {hand}")
    return hand + honba, formula


# _LIMIT_NOTES of the usual han, fu and base points (below 2^7, 2^9 and 2^24) and a limit named here, by the four
# packed in one int (the limit by its place in _LIMIT_NAMES), as _PAID_USUAL.
_LIMIT_NOTES_USUAL: Final[dict[int, str]] = {}
_LIMIT_NAMES: Final = {name: i for i, name in enumerate((None, *(name for _, _, name in LIMITS), YAKUMAN, KAZOE_YAKUMAN,
                                                         KAZOE_SANBAIMAN, *MULTIPLE_NAMES.values()))}


def _limit_note(han: int, fu: int, base: int, limit: str | None) -> str:
    at = _LIMIT_NAMES.get(limit, -1)
    if at >= 0 and 0 <= han < 1 << 7 and 0 <= fu < 1 << 9 and 0 <= base < 1 << 24:
        packed = han | fu << 7 | base << 16 | at << 40
        usual = _LIMIT_NOTES_USUAL.get(packed)
        if usual is None:
            usual = remember(_LIMIT_NOTES_USUAL, packed, _note_of(han, fu, base, limit))
        return usual
    key = (han, fu, base, limit)
    found = _LIMIT_NOTES.get(key)
    if found is None:
        found = remember(_LIMIT_NOTES, key, _note_of(han, fu, base, limit))
    return found


def _note_of(han: int, fu: int, base: int, limit: str | None) -> str:
    return (Msg("{han} han {fu} fu: {limit}", han=han, fu=fu, limit=Msg(limit)) if limit
            else Msg("{han} han {fu} fu: {fu} × 2^(2+{han}) = {base} base points", han=han, fu=fu, base=base))


def _sticks_formula(sticks: int) -> str:
    found = _STICKS.get(sticks)
    if found is None:
        found = remember(_STICKS, sticks, Msg("{sticks} riichi stick × 1000" if sticks == 1 else
                                              "{sticks} riichi sticks × 1000", sticks=sticks))
    return found


# Who pays how many times the base on a tsumo, by the winner's seat: the dealer twice, or each twice from him.
TSUMO_SHARES: Final = {winner: tuple((payer, 2 if winner == "E" or payer == "E" else 1) for payer in LOSERS[winner])
                for winner in T.SEATS}


def payments(c: Candidate, han: int, base: int, step: int = 100, dealer: bool | None = None,
             liable_for: tuple[str, ...] = (), honba_by_liable: bool = True) -> list[Payment]:
    """Who pays the winner what: the discarder alone on a ron, everyone on a tsumo; honba and riichi sticks.
    ``step`` and ``dealer`` are the homework's what-ifs (mjcalc.registry.WHAT_IF): rounding, the dealer's share.
    ``liable_for``: the items of the hand that make the +pao player liable (責任払い, ``_liable_payments``), who
    pays the honba of a discard win when ``honba_by_liable`` (option pao_honba)."""
    ctx = c.ctx
    winner = ctx.seat
    as_dealer = winner == "E" if dealer is None else dealer
    liable = _pao(ctx)
    if liable is not None and liable_for and liable != ctx.discarder:
        out = _liable_payments(ctx.zimo, winner, liable, ctx.discarder, han, base, 6 if as_dealer else 4,
                               _honba(ctx), step, liable_for, honba_by_liable)
    elif not ctx.zimo:
        discarder: str = ctx.discarder  # type: ignore[assignment]
        out = [_payment(discarder, winner, han, base, 6 if as_dealer else 4, 300 * _honba(ctx), step)]
    else:
        honba = 100 * _honba(ctx)
        out = []
        shares = TSUMO_SHARES[winner]
        if as_dealer != (winner == "E"):  # as if the dealership were the other way round
            shares = tuple((payer, 2 if as_dealer or i == 0 else 1) for i, (payer, _) in enumerate(shares))
        for payer, times in shares:
            out.append(_payment(payer, winner, han, base, times, honba, step))
    sticks: int = ctx.flag("sticks")  # type: ignore[assignment]
    if sticks:
        out.append(Payment("table", winner, han, 1000 * sticks, _sticks_formula(sticks)))
    return out


def _liable_payments(zimo: bool, winner: str, liable: str, discarder: str | None, han: int, base: int, times: int,
                     honba: int, step: int, liable_for: tuple[str, ...], honba_by_liable: bool) -> list[Payment]:
    """責任払い as Tenhou pays it. Self-drawn: the liable player alone pays the whole hand, as a ron's value (every
    yakuman in it), and the honba. On another's discard: the discarder and the liable player pay half the hand
    each, and the liable player the honba (``honba_by_liable``; else the discarder: option pao_honba). Half of a
    yakuman's value is a whole hundred; were it not, the discarder's half is rounded up to ``step``."""
    hand = -(-base * times // step) * step
    if zimo:
        return [Payment(liable, winner, han, hand + 300 * honba,
                        Msg("pao: the whole hand, {formula}", formula=_paid(base, times, 300 * honba, step)[1]),
                        liable_for=liable_for)]
    assert discarder is not None  # a win on a discard has a discarder
    theirs = -(-hand // (2 * step)) * step
    mine = hand - theirs
    whole = f"{base} × {times} → {hand}"
    honba_points = 300 * honba
    return [Payment(discarder, winner, han, theirs + (0 if honba_by_liable else honba_points),
                    _half(whole, theirs, 0 if honba_by_liable else honba_points, False)),
            Payment(liable, winner, han, mine + (honba_points if honba_by_liable else 0),
                    _half(whole, mine, honba_points if honba_by_liable else 0, True),
                    on_behalf_of=discarder, liable_for=liable_for)]


def _half(whole: str, half: int, honba: int, liable: bool) -> str:
    """The arithmetic of one half of a hand split under 責任払い, with the honba when this half carries them."""
    if honba:
        return (Msg("pao: half of {whole}: {half} + {honba} honba", whole=whole, half=half, honba=honba) if liable
                else Msg("half of {whole}: {half} + {honba} honba", whole=whole, half=half, honba=honba))
    return (Msg("pao: half of {whole}: {half}", whole=whole, half=half) if liable
            else Msg("half of {whole}: {half}", whole=whole, half=half))


def _liable_note(zimo: bool, liable: str, discarder: str | None, liable_for: tuple[str, ...], honba: int,
                 honba_by_liable: bool) -> str:
    """Why the liable player pays what it pays (a note of the settlement)."""
    items = ", ".join(liable_for)
    if zimo:
        return (Msg("pao (責任払い): {seat} is liable for {items} and pays the whole self-drawn hand and the honba",
                    seat=liable, items=items) if honba else
                Msg("pao (責任払い): {seat} is liable for {items} and pays the whole self-drawn hand", seat=liable,
                    items=items))
    if liable == discarder:
        return Msg("pao (責任払い): {seat} is liable for {items} and dealt in: the whole hand, as any discarder",
                   seat=liable, items=items)
    if honba:
        return Msg("pao (責任払い): {seat} is liable for {items}: {seat} and the discarder {discarder} pay half the "
                   "hand each, {payer} the honba", seat=liable, items=items, discarder=discarder,
                   payer=liable if honba_by_liable else discarder)
    return Msg("pao (責任払い): {seat} is liable for {items}: {seat} and the discarder {discarder} pay half the hand "
               "each", seat=liable, items=items, discarder=discarder)


def settle_riichi(rules: Ruleset, options: Mapping[str, Any], params: Mapping[str, Any], c: Candidate,
                  awards: list[Award]) -> Settlement:
    """Han from the items, fu from the reading, the limit, then the payments. The reading kept is the one that
    costs most, then a real yakuman over a counted one, then more han, then more fu (as the reference picks)."""
    yakuman, han = False, 0
    for item, value, count in awards:
        han += value * count
        yakuman = yakuman or item.tier == "yakuman"
    han = min(han, 13 * MAX_YAKUMAN)
    lines = fu_lines(c, options)
    raw = 0
    for _, part in lines:
        raw += part
    fu = raw if c.reading[0] == "seven_pairs" else fu_round(raw)
    liable_for = liable_items(awards, options) if _pao(c.ctx) is not None else ()
    what_if = params.get("what_if")
    if what_if:  # homework: one step done another way (mjcalc.registry.WHAT_IF)
        return _what_if(what_if, options, c, han, fu, raw, yakuman, lines, liable_for)
    base, limit = base_points(han, fu, yakuman, options)
    honba_by_liable = options.get("pao_honba") != "discarder"
    pays = payments(c, han, base, liable_for=liable_for, honba_by_liable=honba_by_liable)
    notes = [_limit_note(han, fu, base, limit)]
    if liable_for:
        notes.append(_liable_note(c.ctx.zimo, _pao(c.ctx), c.ctx.discarder, liable_for,  # type: ignore[arg-type]
                                  _honba(c.ctx), honba_by_liable))
    total = 0
    for p in pays:
        total += p.amount
    return Settlement(han, pays, [], total, notes, (int(yakuman), han, fu, raw), fu, lines, limit)


def _what_if(what_if: Mapping[str, Any], options: Mapping[str, Any], c: Candidate, han: int, fu: int, raw: int,
             yakuman: bool, lines: list[tuple[str, int]], liable_for: tuple[str, ...]) -> Settlement:
    han = int(what_if.get("han", han))
    fu = int(what_if["fu"]) if "fu" in what_if else raw if what_if.get("fu_unrounded") else fu
    limit: str | None = None
    if "base_points" in what_if:
        base = int(what_if["base_points"])
    elif what_if.get("no_limit"):
        base = fu * 2 ** (2 + han)
    else:
        base, limit = base_points(han, fu, yakuman, options)
    pays = payments(c, han, base, int(what_if.get("round_to", 100)), what_if.get("dealer"), liable_for,
                    options.get("pao_honba") != "discarder")
    total = sum(p.amount for p in pays)
    return Settlement(han, pays, [], total, [_limit_note(han, fu, base, limit)], (int(yakuman), han, fu, raw), fu,
                      lines, limit)


SETTLERS["riichi"] = settle_riichi
# The steps of the settlement the homework checker may ask done another way (``params["what_if"]``).
WHAT_IF.update({
    "han": "riichi: the han, whatever the items",
    "fu": "riichi: the fu, whatever the reading",
    "fu_unrounded": "riichi: the fu before rounding up to 10",
    "no_limit": "riichi: base points fu × 2^(2 + han), no mangan or higher limit",
    "base_points": "riichi: the base points, whatever the han and fu",
    "round_to": "riichi: payments rounded up to this (1: not rounded)",
    "dealer": "riichi: paid as if the winner were (True) or were not (False) the dealer",
})


def _total_shown(awards: Any, han: int) -> str | None:
    return yakuman_shown(awards, han)


TOTAL_SHOWN["riichi"] = _total_shown
# the options its settler reads directly
FORMULA_NEEDS["riichi"] = {"options": ("kazoe", "kiriage", "open_pinfu_fu", "pinfu_tsumo_fu")}


# --- the homework checker: a student's wrong points traced to their step ------------------------------------------
_HAN: Final = N_("han")
FU_STEPS: Final = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
LIMIT_BASES: Final = {2000: N_("mangan"), 3000: N_("haneman"), 4000: N_("baiman"), 6000: N_("sanbaiman"),
                      8000: N_("yakuman"), 16000: N_("double yakuman")}
_TEXTS: Final = {
    "h_fu": N_("your points follow from {given} fu (it is {actual}: {lines})"),
    "h_limit_missed": N_("the limit was not applied: {note}"),
    "h_limit_wrong": N_("those are the points of base {base} ({name}); it is {note}"),
    "on_word": N_("on"),
    "off_word": N_("off"),
    "h_kiriage": N_("those are the points with kiriage mangan {on}; the option kiriage is {now}"),
    "h_round_fu": N_("the fu were not rounded up: {raw} → {fu}"),
    "h_round_pay": N_("the payments were not rounded up to 100"),
    "h_round_pay_to": N_("the payments were rounded to {step}, not up to 100"),
    "h_dealer": N_("those are the points of a {wrong} win; {seat} is {right}"),
    "dealer_word": N_("dealer's"),
    "non_dealer_word": N_("non-dealer's"),
    "is_dealer": N_("the dealer"),
    "is_not_dealer": N_("not the dealer"),
}


def _say(key: str, lang: str, /, **values: Any) -> str:
    return formatted(_TEXTS[key], lang, **values)


def homework_hypotheses(res: Result, again: Callable[..., Any], given: dict[str, Any],
                        student_awards: list[Award] | None, lang: str, say: Callable[..., str]) -> list[Any]:
    """The ways a student may have reached wrong points of a riichi hand (mjcalc.registry.HOMEWORK_HYPOTHESES): the
    han, fu or items they wrote carried through, a han or fu they did not write, the fu or the payments not rounded,
    a limit missed or another's, kiriage, the dealer's share. ``again``: the kept reading settled again with one
    step changed (homework.trace.Resettle); ``say``: the homework checker's own texts, by name."""
    from ..core.settlement.whatif import Hypothesis  # the homework checker's only: its dataclasses stay out of start-up

    assert res.best is not None and res.ruleset is not None
    s, ctx = res.best.settlement, res.best.candidate.ctx
    han, fu = s.fan, s.fu if s.fu is not None else 0
    raw = sum(part for _, part in s.fu_lines)
    lines = " + ".join(f"{tr(reason, lang)} {part}" for reason, part in s.fu_lines) or "—"
    out: list[Hypothesis] = []
    g_han = given.get("fan") if given.get("fan") not in (None, han) else None
    g_fu = given.get("fu") if given.get("fu") not in (None, fu) else None
    h_han = say("h_fan", lang, unit=tr(_HAN, lang), given=g_han, actual=han)
    h_fu = _say("h_fu", lang, given=g_fu, actual=fu, lines=lines)
    if g_han is not None and g_fu is not None:
        out.append(Hypothesis(("wrong_fan", "wrong_fu"), f"{h_han}; {h_fu}", again(what_if={"han": g_han, "fu": g_fu}),
                              "given", ("fan", "fu"), 7, 0))
    if g_han is not None:
        out.append(Hypothesis(("wrong_fan",), h_han, again(what_if={"han": g_han}), "given", ("fan",), 7, 0))
    if g_fu is not None:
        out.append(Hypothesis(("wrong_fu",), h_fu, again(what_if={"fu": g_fu}), "given", ("fu",), 7, 0))
    if student_awards is not None:
        counted = sum(a.total for a in student_awards)
        if counted != han:
            out.append(Hypothesis(("wrong_fan",), say("h_items", lang, unit=tr(_HAN, lang), given=counted,
                                                      actual=han),
                                  again(what_if={"han": counted, **({"fu": g_fu} if g_fu is not None else {})}),
                                  "given", ("items", "fu") if g_fu is not None else ("items",), 7, 0))
    if "fan" not in given:
        for other in range(1, 14):
            if other != han:
                out.append(Hypothesis(("wrong_fan",), say("h_fan_other", lang, unit=tr(_HAN, lang), given=other,
                                                         actual=han), again(what_if={"han": other}), "search",
                                      prio=5 if abs(other - han) == 1 else 9))
    if "fu" not in given and s.fu_lines:
        for other in FU_STEPS:
            if other != fu:
                out.append(Hypothesis(("wrong_fu",), _say("h_fu", lang, given=other, actual=fu, lines=lines),
                                      again(what_if={"fu": other}), "search", prio=5 if abs(other - fu) <= 10 else 9))
    # fu → base points → rounding
    if raw != fu and s.fu_lines and res.best.candidate.reading.form != "seven_pairs":
        why = _say("h_round_fu", lang, raw=raw, fu=fu)
        out.append(Hypothesis(("rounding",), why, again(what_if={"fu_unrounded": True}), "step", prio=3))
        out.append(Hypothesis(("rounding",), why + "; " + _say("h_round_pay", lang),
                              again(what_if={"fu_unrounded": True, "round_to": 1}), "step", prio=4))
    if s.fu_lines and raw % 10 and res.best.candidate.reading.form != "seven_pairs":
        down = raw // 10 * 10
        out.append(Hypothesis(("rounding",), say("h_round_fu_down", lang, raw=raw, down=down, fu=fu),
                              again(what_if={"fu": down}), "step", prio=8))
    out.append(Hypothesis(("rounding",), _say("h_round_pay", lang), again(what_if={"round_to": 1}), "step", prio=3))
    out.append(Hypothesis(("rounding",), _say("h_round_pay_to", lang, step=10), again(what_if={"round_to": 10}),
                          "step", prio=6))
    if g_fu is not None:
        out.append(Hypothesis(("rounding",), f"{h_fu}; " + _say("h_round_pay", lang),
                              again(what_if={"fu": g_fu, "round_to": 1}), "given", ("fu",), 3))
    # limits
    note = "; ".join(s.notes)
    if s.limit is not None:
        out.append(Hypothesis(("cap_missed",), _say("h_limit_missed", lang, note=note),
                              again(what_if={"no_limit": True}), "step", prio=3))
    if "kiriage" in res.options:
        flipped = {**res.options, "kiriage": not res.options["kiriage"]}
        on, off = _say("on_word", lang), _say("off_word", lang)
        out.append(Hypothesis(("cap_wrong",), _say("h_kiriage", lang, on=on if flipped["kiriage"] else off,
                                                  now=off if flipped["kiriage"] else on),
                              again(options=flipped), "step", prio=4))
    for base, name in LIMIT_BASES.items():
        out.append(Hypothesis(("cap_wrong",), _say("h_limit_wrong", lang, base=base, name=tr(name, lang), note=note),
                              again(what_if={"base_points": base}), "step", prio=6))
    # the dealer's share of the base points
    dealer = ctx.seat == "E"
    out.append(Hypothesis(("wrong_base",), _say("h_dealer", lang, wrong=_say("non_dealer_word" if dealer else
                                                                          "dealer_word", lang),
                                               seat=ctx.seat, right=_say("is_dealer" if dealer else "is_not_dealer",
                                                                        lang)),
                          again(what_if={"dealer": not dealer}), "step", prio=4))
    return out


def _dora_fact(ctx: Context, lang: str) -> str:
    """The dora indicators of the line, a fact the homework checker quotes for an item of dora."""
    dora: tuple[int, ...] = ctx.flag("dora")  # type: ignore[assignment]
    return formatted(N_("dora indicators: {tiles}"), lang, tiles=T.format_tiles(dora) if dora else "—")


HOMEWORK_HYPOTHESES["riichi"] = homework_hypotheses
HOMEWORK_FACTS["dora"] = _dora_fact
