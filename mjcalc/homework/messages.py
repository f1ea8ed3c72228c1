"""The homework checker's texts, in English (the message ids of the catalog: mjcalc/locale/*.po holds every other
language), the causes a difference can carry, and the score line of ``mjcalc check``."""

from __future__ import annotations

from typing import Any, Final

from ..i18n import N_, tr
from ..output.table import UNITS

# The causes a difference can carry (docs/OUTPUT.md, "check --json"): what step of the answer went wrong.
CAUSES: Final = (
    "missed_item", "not_applicable", "excluded", "wrong_value", "unknown_item", "wrong_fan", "wrong_fu",
    "payer_item_to_all", "payer_item_missed", "one_share", "wrong_base", "cap_missed", "cap_wrong", "rounding",
    "is_a_win", "not_a_win", "below_minimum", "arithmetic",
)


MESSAGES: Final[dict[str, str]] = {
    "no_key": N_("'{word}' is not an answer key{hint}; use fan, han, tai, fu, points, items, result"),
    "no_value": N_("'{word}' needs a value"),
    "not_number": N_("{key}: '{text}' is not a whole number"),
    "no_answer": N_("no answer: write it after the hand, e.g. => fan 3 points 16"),
    "did_you_mean": N_(" (did you mean {words}?)"),
    "or": N_(" or "),
    "unknown_item": N_("'{name}' is not an item of {rules}{hint}"),
    "not_a_win": N_("the hand is not a win — {why}"),
    "waiting": N_("the hand is not a win: it is one tile short (waiting on {waits})"),
    "below_minimum": N_("below the minimum: its items count {reached} {unit}, {minimum} are needed to win ({why})"),
    "is_a_win": N_("the hand is a win: {reading}; it meets every condition of {rules} ({conditions})"),
    "missed": N_("missed {item} +{value}{scope}: {why}"),
    "missed_maybe": N_("{unit}: {given} is this hand's {actual} without {items} — missed it?"),
    "maybe_item": N_("{item} +{value} ({why})"),
    "not_applicable": N_("counted {item}, which does not apply: {why}"),
    "excluded": N_("counted {item}, which this hand has but may not count: {why}"),
    "too_many": N_("{unit}: {given} is {excess} more than this hand's {actual} — an item counted that it does "
                   "not have? It counts {items} ({facts})"),
    "excluded_maybe": N_("{unit}: {given} is {item}'s {value} too many — {why}"),
    "excluded_by": N_("{by} excludes it (不计 {item})"),
    "taken_by": N_("{by}, which this hand counts, rules it out"),
    "dropped_by_tier": N_("{by} ({tier}) drops every item of a lower tier"),
    "reduced_by": N_("{by} takes {n} of its count (不计)"),
    "house_rule": N_("it counts only under the house rule {option} (see mjcalc rules show {rules})"),
    "wrong_value": N_("{item} is worth {value} {unit} here, not {given}{why}"),
    "value_side": N_(" (the hand is {side})"),
    "value_count": N_(" ({value} × {count})"),
    "value_option": N_(" (option {option} = {chosen})"),
    "closed": N_("closed"),
    "open": N_("open"),
    "fan": N_("{unit}: you wrote {given}, it is {actual} ({items}{besides})"),
    "no_item": N_("no item"),
    "besides": N_("; besides, {what}"),
    "payment_only": N_("{item} {value} on the payment of {payers} only"),
    "fan_payer_item": N_("{unit}: your {given} counts {items}, which {payer} alone pays: the hand's {unit} is "
                         "what every payer pays on ({actual}), {payer} pays {theirs}"),
    "fan_items": N_("{unit}: your {given} is the sum of the items you counted; it is {actual} ({items}{besides})"),
    "or_line": N_("or: {text}"),
    "fan_capped": N_("{unit}: {given} is the cap — the cap ({cap} {unit}) cuts each payment, the hand's {unit} "
                     "stays {actual}"),
    "fu": N_("fu: you wrote {given}, it is {actual} ({lines}{rounded})"),
    "fu_rounded": N_(" = {raw}, rounded up to {fu}"),
    "fu_unrounded": N_("fu: {given} is the fu before rounding — fu are rounded up to the next 10: {raw} → {fu}"),
    "points": N_("points: you wrote {given}, it is {actual} — {why}; right: {worked}"),
    "points_plain": N_("points: you wrote {given}, it is {actual} — {worked}"),
    "yours": N_("{what}: {worked}"),
    "total": N_("total {total}"),
    "cut": N_(" (cut to {amount})"),
    "h_fan": N_("your points follow from your {unit} of {given} (it is {actual})"),
    "h_items": N_("your points follow from the items you counted ({unit} {given}; it is {actual})"),
    "h_fan_other": N_("those are the points of {given} {unit} (it is {actual} {unit})"),
    "h_to_all": N_("every payer was charged {item}, but it applies to {scope} (here: {payers})"),
    "h_payer_missed": N_("{item} was left out of the payment of {payers}: it applies to {scope}"),
    "h_fan_on_discard": N_("every payer was charged the {unit}: on a discard only the discarder {payer} pays it, "
                           "the others pay the base alone"),
    "h_discarder_only": N_("every loser was charged: on a discard only the discarder {payer} pays"),
    "h_one_share": N_("that is {payer}'s payment alone: the winner collects from {n} payers ({amounts})"),
    "h_base": N_("those are the points at {name} {value}; it is {actual} here"),
    "h_base_as_price": N_("the base {base} was taken as the price of each {unit} and not paid itself: it is base "
                          "{base} + each {unit} × {price}"),
    "h_cap_missed": N_("the cap was not applied ({caps}): {notes}"),
    "h_cap_scope": N_("the cap was applied {wrong} — here it is {right}: {notes}"),
    "h_cap_value": N_("those are the points with the cap at {value}{unit}; it is {actual}"),
    "h_round_fu_down": N_("the fu were rounded down: {raw} → {down}, it is up: {raw} → {fu}"),
    "scope_per_payer": N_("to each payment on its own"),
    "scope_net": N_("to the winner's total"),
    "no_cap_here": N_("no cap cuts this hand"),
    # facts of this hand
    "f_win": N_("the winning tile {tile} completes {group}: {wait}"),
    "f_win_plain": N_("the winning tile {tile} completes {group}"),
    "f_waits": N_("before it the hand waited on {waits}"),
    "f_winning_waits": N_("of them only {waits} makes a legal win"),
    "f_reading": N_("read as {reading}"),
    "f_form": N_("the hand is read as {form}"),
    "f_zimo": N_("self-drawn"),
    "f_discard": N_("won on {seat}'s discard"),
    "f_dealer_wins": N_("the winner {seat} is the dealer"),
    "f_dealer_other": N_("the winner is {seat}; the dealer is E"),
    "f_closed": N_("the winner's hand is closed"),
    "f_open": N_("the winner's hand is open ({melds})"),
    "f_special_added": N_("a tile was added to the special kong {melds} (a 加杠)"),
    "f_closed_payers": N_("closed losers (+closed): {seats}"),
    "f_no_closed_payers": N_("no loser is closed (+closed names none)"),
    "f_wild": N_("the wildcard is {tile}; the hand holds {count}{stood}"),
    "f_wild_stood": N_(", here {subs}"),
    "f_no_wild_held": N_("the wildcard is {tile}; the hand holds none"),
    "f_no_wildcard": N_("no wildcard is named on the line"),
    "f_flag_on": N_("the line says +{flag}"),
    "f_flag_off": N_("the line has no +{flag}"),
    "f_flowers": N_("flowers: {flowers}"),
    "f_no_flowers": N_("no flowers"),
    "f_seat": N_("seat {seat}, round {round}"),
    "here": N_("here: {facts}"),
    "score_line": N_("{right} of {total} right"),
    "score_pct": N_(" ({pct}%)"),
    "score_errors": N_("; {n} could not be checked"),
}


def _unit(unit: str, lang: str) -> str:
    """A ruleset's unit in ``lang``: fan 番, han 翻, tai 台 (the catalog's words of output.table.UNITS)."""
    return tr(UNITS[unit], lang) if unit in UNITS else unit


def msg(name: str, lang: str = "en", /, **values: Any) -> str:
    """A text of ``MESSAGES`` in ``lang``, from the catalog (English when it has no translation), filled in."""
    english = MESSAGES[name]
    text = tr(english, lang)
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):  # a translation that names a blank wrongly: the English
        return english.format(**values)


def score_text(right: int, total: int, errors: int, lang: str = "en") -> str:
    """The score line of ``mjcalc check``: ``2 of 12 right (17%)``, rounded to the nearest per cent."""
    text = msg("score_line", lang, right=right, total=total)
    if total:
        text += msg("score_pct", lang, pct=round(100 * right / total))
    if errors:
        text += msg("score_errors", lang, n=errors)
    return text
