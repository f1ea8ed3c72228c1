"""Settling one reading: who pays, each payer's total from the items that apply to him, the formula by name,
cover and caps that record what they cut, kong points, and the net per seat (``Settlement``). A family whose
payments follow rules of their own (riichi) registers a settler of its own instead (mjcalc.registry.SETTLERS)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, Final, NamedTuple

from ...i18n import Msg
from ...registry import SETTLERS, WHAT_IF
from ...support.memo import remember
from .. import tiles as T
from ..candidate import Candidate
from ..context import LOSERS, Context
from ..model import ItemDef, Ruleset
from .formulas import _formula
from .kongs import KongPayment, kong_payments


class Award(NamedTuple):  # a tuple: made for every item that fires on every reading
    item: ItemDef
    value: int
    count: int = 1  # type: ignore[assignment]  # a field named as tuple.count, which it hides

    @property
    def total(self) -> int:
        return self.value * self.count


# Made for every payer of every reading scored: plain slotted classes with an __init__ of their own, which mypyc
# compiles (native classes); not dataclasses, whose methods are Python source compiled at import (every command's
# start-up, benchmarks/bench_startup.py).
class Payment:
    __slots__ = ("payer", "payee", "fan", "amount", "formula", "capped_from", "on_behalf_of", "extras", "liable_for")

    def __init__(self, payer: str, payee: str, fan: int, amount: int, formula: str, capped_from: int | None = None,
                 on_behalf_of: str | None = None, extras: tuple[Award, ...] = (),
                 liable_for: tuple[str, ...] = ()) -> None:
        self.payer = payer
        self.payee = payee
        self.fan = fan  # the payer's total in the ruleset's unit
        self.amount = amount
        self.formula = formula
        self.capped_from = capped_from
        self.on_behalf_of = on_behalf_of  # a share the payer covers for another seat (点炮全包, 包庄, 責任払い)
        self.extras = extras  # items on this payment, not on every payment (放炮, 闭门 …): beside the hand's fan
        self.liable_for = liable_for  # the items whose liable player (+pao) the payer is: why it pays (責任払い)

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "fan": self.fan, "amount": self.amount,
                "capped_from": self.capped_from, "formula": self.formula, "on_behalf_of": self.on_behalf_of,
                "payer_items": [a.item.id for a in self.extras], "liable_for": list(self.liable_for)}


class Settlement:  # as Payment: made for every reading scored
    __slots__ = ("fan", "payments", "kong_payments", "uncapped_total", "notes", "rank", "fu", "fu_lines", "limit")

    def __init__(self, fan: int, payments: list[Payment], kong_payments: list[KongPayment], uncapped_total: int,
                 notes: list[str] | None = None, rank: tuple[int, ...] = (), fu: int | None = None,
                 fu_lines: list[tuple[str, int]] | None = None, limit: str | None = None) -> None:
        self.fan = fan  # the winner-side total in the ruleset's unit (fan, tai, han)
        self.payments = payments
        self.kong_payments = kong_payments
        self.uncapped_total = uncapped_total  # hand payments before any cap plus kong points: what the reading
        # choice maximises
        self.notes: list[str] = [] if notes is None else notes
        self.rank = rank  # tie-breaks after uncapped_total, before "fewer items" (riichi: han, fu)
        self.fu = fu  # formulas with fu (riichi)
        self.fu_lines: list[tuple[str, int]] = [] if fu_lines is None else fu_lines  # the reason for each part of the fu
        self.limit = limit  # a named limit that applied (mangan …)

    @property
    def points(self) -> int:
        return sum(p.amount for p in self.payments)

    @property
    def net(self) -> dict[str, int]:
        # Each seat's total summed on its own (compiled: an unboxed integer, each class's fields read directly),
        # in T.SEATS' order: a batch writes it for every win, and a dict of boxed totals updated payment by payment
        # costs more. A payer that is no seat (riichi sticks: "table") was paid in before the hand.
        payments, kongs = self.payments, self.kong_payments
        return {"E": _net_of("E", payments, kongs), "S": _net_of("S", payments, kongs),
                "W": _net_of("W", payments, kongs), "N": _net_of("N", payments, kongs)}


def _net_of(seat: str, payments: list[Payment], kongs: list[KongPayment]) -> int:
    total = 0
    for p in payments:
        if p.payee == seat:
            total += p.amount
        if p.payer == seat:
            total -= p.amount
    for k in kongs:
        if k.payee == seat:
            total += k.amount
        if k.payer == seat:
            total -= k.amount
    return total


# --- who pays and which items count for whom ----------------------------------------------------------


def applies(scope: str, payer: str, ctx: Context) -> bool:
    if scope == "all":
        return True
    if scope == "discarder":
        return not ctx.zimo and payer == ctx.discarder
    if scope == "dealer_paying":
        return payer == ctx.dealer and not ctx.winner_is_dealer
    if scope == "dealer_involved":
        return payer == ctx.dealer or ctx.winner_is_dealer
    if scope == "closed_payers":
        return payer in ctx.closed
    raise AssertionError(scope)  # the loader admits only the scopes above


def split_awards(awards: list[Award], owed: list[list[Award]]) -> tuple[list[Award], list[tuple[Award, ...]]]:
    """Of a reading's ``awards``, given the ones ``owed`` on each payment: the items of every payment (the hand's
    ``fan``, docs/OUTPUT.md) and, for each payment, the items of that payment alone. Decided by the payments, not
    by an item's declared scope: 庄家 on "a payment the dealer is part of" is on every payment when the dealer
    wins, and 放炮 is when the discarder is the only payer. No payment at all: the items of every payer."""
    if not owed:
        return [a for a in awards if a.item.applies_to == "all"], []
    on_every = {id(a) for a in owed[0]}
    for mine in owed[1:]:
        on_every &= {id(a) for a in mine}
    common = [a for a in awards if id(a) in on_every]
    return common, [tuple(a for a in mine if id(a) not in on_every) for mine in owed]


def payers(seat: str, zimo: bool, discarder: str | None, payments: Mapping[str, Any]) -> tuple[str, ...]:
    """Who pays the winner (``seat``), from the context's fields, which the caller reads once."""
    if zimo or payments.get("discard", "all_losers") == "all_losers":
        return LOSERS[seat]  # ``Context.losers``, without a property's Python-level call
    return (discarder,)  # type: ignore[return-value]


def liable_items(awards: list[Award], options: Mapping[str, Any]) -> tuple[str, ...]:
    """The items of a reading that a liable player (+pao) pays for (``liable:`` in the ruleset), in order."""
    return tuple([a.item.id for a in awards if a.item.liable and a.item.is_liable(options)])


# --- formulas ------------------------------------------------------------------------------------------

# A settlement asked "what if one step were done another way" (mjcalc/homework traces a wrong total to its step):
# ``params["what_if"]``, a mapping of the keys of mjcalc.registry.WHAT_IF, read by the settlers, never set by a
# ruleset file. Any other parameter (base, per_fan, cap, fan_cap, cap_scope, start) is changed in ``params`` itself.
WHAT_IF["payments"] = "settle_per_payer: entries of the ruleset's payments (discard, fan_on_discard) replaced"




def _largest_remainder(amounts: list[int], limit: int, order: list[int]) -> list[int]:
    """Scale amounts down to add up to exactly ``limit``; leftover points go to the largest remainders,
    ties to the earlier index in ``order``."""
    total = sum(amounts)
    shares = [a * limit // total for a in amounts]
    remainders = [a * limit % total for a in amounts]
    leftover = limit - sum(shares)
    ranked = sorted(range(len(amounts)), key=lambda i: (-remainders[i], order.index(i)))
    for i in ranked[:leftover]:
        shares[i] += 1
    return shares


Settler = Callable[[Ruleset, Mapping[str, Any], Mapping[str, Any], "Candidate", list[Award]], Settlement]


def settle(rules: Ruleset, options: Mapping[str, Any], c: Candidate, awards: list[Award]) -> Settlement:
    """Settle one reading by the ruleset's formula kind: a per-payer formula (``FORMULAS``), or a settler of
    its own (``SETTLERS``) for families whose payments follow other rules (riichi's ron / tsumo split)."""
    return settler(rules, options)(c, awards)


def settler(rules: Ruleset, options: Mapping[str, Any]) -> Callable[[Candidate, list[Award]], Settlement]:
    """``settle`` for these options, the formula's parameters resolved once (the engine keeps it per options)."""
    params = {k: rules.resolve(v, options) for k, v in rules.formula.items()}
    own = SETTLERS.get(params["kind"])
    if own is not None:
        return partial(own, rules, options, params)
    return partial(_settle_per_payer, rules, options, params, _terms(rules, options))


class PaymentTerms:
    """What ``settle_per_payer`` reads of the ruleset, the same for every reading under one set of options: read
    once (``settler``), where each attribute of the Python-level Ruleset and ItemDef costs a compiled module a
    look-up."""

    __slots__ = ("payments", "shared", "kong_free")

    def __init__(self, rules: Ruleset, options: Mapping[str, Any]) -> None:
        self.payments: Final = _payments(rules, options)
        # every item of the ruleset on every payment: no award to sort by payer (``_on_every_payment``)
        self.shared: Final = all(item.applies_to == "all" for item in rules.items)
        # no kong points and no special kong: ``kong_payments`` finds none, whatever the hand
        self.kong_free: Final = not rules.kongs and not rules.tile_rules.special_kongs


def settle_per_payer(rules: Ruleset, options: Mapping[str, Any], params: Mapping[str, Any], c: Candidate,
                     awards: list[Award]) -> Settlement:
    """Each payer's total from the items that apply to him, through the formula, then cover and caps."""
    return _settle_per_payer(rules, options, params, _terms(rules, options), c, awards)


# The PaymentTerms of each ruleset and options mapping, kept with both so that their ids stay theirs.
_TERMS: Final[dict[tuple[int, int], tuple[Ruleset, Mapping[str, Any], PaymentTerms]]] = {}


def _terms(rules: Ruleset, options: Mapping[str, Any]) -> PaymentTerms:
    found = _TERMS.get((id(rules), id(options)))
    if found is None or found[0] is not rules or found[1] is not options:
        found = remember(_TERMS, (id(rules), id(options)), (rules, options, PaymentTerms(rules, options)), 1024)
    return found[2]


def _settle_per_payer(rules: Ruleset, options: Mapping[str, Any], params: Mapping[str, Any], terms: PaymentTerms,
                      c: Candidate, awards: list[Award]) -> Settlement:
    ctx, hand = c.ctx, c.hand
    kind: str = params["kind"]
    pay_cfg = terms.payments
    what_if = params.get("what_if")
    if what_if:  # homework: the same settlement with one step done another way (mjcalc.registry.WHAT_IF)
        pay_cfg = {**pay_cfg, **what_if.get("payments", {})}
    # The context's fields read once each.
    winner, zimo, discarder = ctx.seat, ctx.zimo, ctx.discarder
    seats = payers(winner, zimo, discarder, pay_cfg)
    if terms.shared or _on_every_payment(awards):  # the usual hand: every item is on every payment
        owed: list[list[Award]] = [awards] * len(seats)
        common = awards
        own: list[tuple[Award, ...]] = [()] * len(seats)
    else:
        owed = [[a for a in awards if applies(a.item.applies_to, payer, ctx)] for payer in seats]
        common, own = split_awards(awards, owed)
    fan = _total(common)
    notes: list[str] = []
    payments: list[Payment] = []
    fan_cap = params.get("fan_cap")
    uncapped = 0  # what the payments would be with no cap at all: readings are ranked by it
    # fan_on_discard: discarder — on a discard win the other payers owe the fan too, but pay the formula on none of
    # it (MCR: the discarder 8 + fan, the others 8 each)
    fan_payer = discarder if not zimo and pay_cfg.get("fan_on_discard") == "discarder" else None
    # The formula of the fan last paid on, and that fan: payers of the same fan (every payer of a self-drawn win, the
    # others than the discarder) pay it alike.
    paid_on = 0
    paid: tuple[int, str] | None = None
    for k in range(len(seats)):  # by index: zip(..., strict=True) is a Python-level call in a compiled module
        payer, payer_awards, extras = seats[k], owed[k], own[k]
        payer_fan = fan if payer_awards is common else _total(payer_awards)
        if fan_payer is not None and payer != fan_payer:
            if paid is None or paid_on != 0:
                paid_on, paid = 0, _formula(kind, 0, params)
            amount, text = paid
            uncapped += amount
            payments.append(Payment(payer, winner, payer_fan, amount, _only_discarder(text), extras=extras))
            continue
        if paid is None or paid_on != payer_fan:
            paid_on, paid = payer_fan, _formula(kind, payer_fan, params)
        amount, text = paid
        uncapped += amount
        capped_from = None
        if fan_cap is not None and payer_fan > fan_cap:
            notes.append(Msg("{payer}: {fan} {unit} capped at {cap}", payer=payer, fan=payer_fan, unit=Msg(rules.unit),
                             cap=fan_cap))
            capped_from = amount
            amount, text = _formula(kind, fan_cap, params)
            text = Msg("{formula} (capped from {fan} {unit})", formula=text, fan=payer_fan, unit=Msg(rules.unit))
        payments.append(Payment(payer, winner, payer_fan, amount, text, capped_from, extras=extras))
    cover = bool(pay_cfg.get("cover")) or bool(pay_cfg.get("cover_flag") and ctx.get(pay_cfg["cover_flag"]))
    if cover and not zimo:
        for p in payments:
            if p.payer != discarder:
                p.on_behalf_of, p.payer = p.payer, discarder  # type: ignore[assignment]
        notes.append(Msg("the discarder {seat} pays every share", seat=discarder))
    _apply_cap(params, payments, winner, notes)
    kongs = [] if terms.kong_free else kong_payments(rules, options, hand, winner, c)
    return Settlement(fan, payments, kongs, uncapped + sum(k.amount for k in kongs), notes)


def _on_every_payment(awards: list[Award]) -> bool:
    """Whether every award applies to every payer (a loop: ``all`` of a generator costs a compiled module more)."""
    for a in awards:  # noqa: SIM110
        if a.item.applies_to != "all":
            return False
    return True


def _total(awards: list[Award]) -> int:
    """The awards' total (a loop: ``sum`` of a generator over ``Award.total`` costs a compiled module more)."""
    total = 0
    for a in awards:
        total += a.value * a.count
    return total


# The formula of a payer who pays no fan (fan_on_discard: discarder), by the formula's text: a batch writes the same
# few texts again and again, and a Msg is dear to make. A Msg is never changed.
_ONLY_DISCARDER: Final[dict[str, Msg]] = {}


def _only_discarder(text: str) -> Msg:
    found = _ONLY_DISCARDER.get(text)
    if found is None:
        found = remember(_ONLY_DISCARDER, text, Msg("{formula} (only the discarder pays the fan)", formula=text), 256)
    return found


# The ruleset's ``payments`` resolved under each options mapping (the engine's, one per set of option values),
# kept with both so that their ids stay theirs: ruleset.py is not compiled, and a batch repeats its options.
_PAYMENTS: Final[dict[tuple[int, int], tuple[Ruleset, Mapping[str, Any], dict[str, Any]]]] = {}


def _payments(rules: Ruleset, options: Mapping[str, Any]) -> dict[str, Any]:
    """The ruleset's payment settings under these options (not to be changed: it is shared)."""
    found = _PAYMENTS.get((id(rules), id(options)))
    if found is None or found[0] is not rules or found[1] is not options:
        found = remember(_PAYMENTS, (id(rules), id(options)),
                         (rules, options, {k: rules.resolve(v, options) for k, v in rules.payments.items()}), 1024)
    return found[2]


def _apply_cap(params: Mapping[str, Any], payments: list[Payment], winner: str, notes: list[str]) -> None:
    cap = params.get("cap")
    if cap is None or not payments:
        return
    if params.get("cap_scope", "per_player_net") == "per_payer":
        for p in payments:
            if p.amount > cap:
                notes.append(Msg("cap {cap}: {payer}'s payment cut from {amount} to {cap}", cap=cap,
                                 payer=p.on_behalf_of or p.payer, amount=p.amount))
                p.capped_from, p.amount = p.amount if p.capped_from is None else p.capped_from, cap
        return
    total = sum(p.amount for p in payments)
    if total <= cap:
        return
    turn = [T.next_seat(winner, k) for k in (1, 2, 3)]
    order = sorted(range(len(payments)), key=lambda i: turn.index(payments[i].on_behalf_of or payments[i].payer))
    scaled = _largest_remainder([p.amount for p in payments], cap, order)
    notes.append(Msg("cap {cap} per player: the winner's {total} scaled down to {cap} (largest remainder)", cap=cap,
                     total=total))
    for p, new in zip(payments, scaled, strict=True):
        if new != p.amount:
            p.capped_from, p.amount = p.amount if p.capped_from is None else p.capped_from, new

