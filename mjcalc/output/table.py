"""The human table of a scored line (``mjcalc score``) and of a waits report (``mjcalc waits``): the hand, the
context, the reading, every item, the formula per payer, payments, kong points and each seat's net. No scoring
logic here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import tiles as T
from ..core.model import Ruleset
from ..core.notation import parse_line
from ..core.readings.forms import IMMEDIATE
from ..core.result import Result
from ..engine import shanten_of
from ..errors import MjcalcError
from ..i18n import N_, localized, name_in, tr
from ..registry import WILDCARD_PROVIDERS
from ..ruleset.schema import SCOPES
from .fit import LABEL, _fields, _widest, _wrapped, wrap
from .table_lib import tabulate
from .totals import total_shown

WAIT_NAMES = {
    "edge": ("边张", "edge wait"), "closed": ("坎张", "closed wait"), "pair": ("单钓", "pair wait"),
    "two_sided": ("两面", "two-sided wait"), "dual_pung": ("对碰", "dual-pung wait"), "single": ("单张", "single"),
}
# The words of the tables, in English; every other language from the catalog (mjcalc/i18n.py).
_WORDS = {
    "hand": N_("hand"), "context": N_("context"), "options": N_("options"), "reading": N_("reading"),
    "item": N_("item"), "applies": N_("applies to"), "payer": N_("payer"), "payee": N_("payee"),
    "formula": N_("formula"), "amount": N_("amount"), "net": N_("net"), "seat": N_("seat"),
    "kongs": N_("kong points"), "waits": N_("waits"), "unseen": N_("unseen"), "total": N_("total"),
    "not_a_win": N_("NOT A WIN"), "waiting": N_("WAITING — one tile short"), "error": N_("ERROR"),
    "ignored": N_("ignored (not used by this ruleset)"), "notes": N_("notes"), "note": N_("note"),
    "wins_on": N_("wins on"), "substitutions": N_("wildcards"), "self": N_("self-drawn"),
    "discard": N_("on a discard"), "defaults": N_("* = default"), "points": N_("points to the winner"),
    "score": N_("if it wins"), "own": N_("payer's own items"), "with": N_("with"), "unless": N_("unless said"),
    "not_ready": N_("NOT READY — shanten {shanten} (tiles to change before the hand waits); no tile completes it"),
    "called_only": N_("WAITING — only on a set the winning tile completes in hand (叫胡): mjcalc waits lists it"),
    "immediate": N_("an immediate win, whatever the tiles"), "name": N_("name"),
}
WORDS = {"en": _WORDS}  # and each other language when first asked for (words)


def words(lang: str) -> dict[str, str]:
    """The table's words in ``lang``."""
    found = WORDS.get(lang)
    if found is None:
        found = WORDS[lang] = {k: tr(v, lang) for k, v in _WORDS.items()}
    return found


# --- fitting the terminal ------------------------------------------------------------------------------
# The full layout is the default; given a width (the terminal's, or COLUMNS), each line that would pass it is
# wrapped, and a table that would is written in a narrow layout of the same facts.

# --- the table -----------------------------------------------------------------------------------------


def hand_parts(hand: Any, typed: str | None = None) -> list[str]:
    """The ``hand`` line of a table, the hand as it is: the concealed tiles in the groups the line wrote them in
    (``typed``, split at each suit letter and space), else by suit; honors a group for each kind held more than once
    (``111z 2z``, not ``1112z``); the melds as written, the flowers, then the winning tile apart after a plus
    (``+ 2z``). The JSON's ``hand`` is ``Hand.text()``, notation that reads back to the same hand: the same pieces,
    written for a reader instead.

    >>> from mjcalc.engine import Request, score_line
    >>> " ".join(hand_parts(score_line("123m456p789s111z22z").hand))
    '123m 456p 789s 111z 2z + 2z'
    >>> line = "123m456p789s23s55p 1s"
    >>> " ".join(hand_parts(score_line(line, Request("riichi")).hand, line))
    '123m 456p 789s 23s 55p + 1s'
    >>> " ".join(hand_parts(score_line("23m406p789s22z [111z] 1m", Request("riichi")).hand))
    '23m 406p 789s 22z [111z] + 1m'
    """
    win = hand.win_tile
    red = list(hand.red_kinds)
    called = False  # the winning tile completed a set in hand (叫胡): it is in that meld, not apart
    melds = []
    for m in hand.melds:
        melds.append(m.text())
        called = called or m.called
        for k in m.reds:  # a red five written in a meld stays there
            if k in red:
                red.remove(k)
    body = list(hand.concealed)
    apart = win is not None and not called
    if apart:
        body.remove(win)
    groups = _typed_groups(typed, hand.concealed, win if apart else None) if typed else None
    if groups is None:
        suited = [t for t in body if t < T.HONOR_START]
        groups = [[t for t in suited if T.suit_of(t) == s] for s in range(3)]
        groups.append([t for t in body if t >= T.HONOR_START])
    parts: list[str] = []
    for group in groups:
        if not group:
            continue
        if group[0] >= T.HONOR_START:
            parts += _honor_parts(group)
        else:
            reds = [k for k in red if k in group]
            for k in reds:
                red.remove(k)
            parts.append(T.format_tiles(group, red=reds))
    parts += melds
    if hand.flowers:
        parts.append("".join(str(f + 1) for f in sorted(hand.flowers)) + "f")
    if apart:
        parts.append("+ " + (T.format_tiles((win,), red=[win]) if red and win in red and win not in body
                             else T.name(win)))
    return parts


def _typed_groups(typed: str, concealed: tuple[int, ...], win: int | None) -> list[list[int]] | None:
    """The concealed tiles in the runs the line wrote them in (a new run at each suit letter or space), the winning
    tile (the last one written of its kind) taken out; None when the line's tiles are not the hand's (a GB string,
    a wildcard read otherwise)."""
    try:
        written = parse_line(typed).concealed
    except MjcalcError:
        return None
    if sorted(t.tile for t in written) != sorted(concealed):
        return None
    runs: list[list[int]] = []
    last: Any = None
    for t in written:
        if last is None or t.column != last.column + 1 or T.suit_of(t.tile) != T.suit_of(last.tile):
            runs.append([])
        runs[-1].append(t.tile)
        last = t
    if win is not None:
        for run in reversed(runs):
            if win in run:
                del run[len(run) - 1 - run[::-1].index(win)]
                break
    return runs


def _honor_parts(honors: list[int]) -> list[str]:
    """Honors a group for each kind held more than once, those held once side by side (thirteen orphans: 1234567z)."""
    counts = T.counts_of(honors)
    parts: list[str] = []
    singles = ""
    for kind in range(T.HONOR_START, T.NUM_KINDS):
        n = counts[kind]
        if n == 1:
            singles += T.name(kind)[0]
        elif n:
            if singles:
                parts.append(singles + "z")
                singles = ""
            parts.append(T.name(kind)[0] * n + "z")
    if singles:
        parts.append(singles + "z")
    return parts


def to_text(r: Result, lang: str = "en", width: int | None = None) -> str:
    """The human table; given a ``width`` (``terminal_width()``), fitted to it (see "fitting the terminal")."""
    w = words(lang)
    lines: list[str] = []
    rules = r.ruleset
    if rules is not None:
        lines.extend(wrap(f"mjcalc · {rules.names.get('zh')} {rules.names.get('en')} ({rules.id})", width, 2))
    if r.error is not None:
        err = r.error
        lines.extend(wrap(error_line(err, lang), width, 2))
        caret = err.caret(r.input)
        if caret:
            lines.append(caret)
        return "\n".join(lines)
    assert rules is not None and r.hand is not None and r.ctx is not None
    lines.extend(_fields(w["hand"], hand_parts(r.hand, r.input), width, sep=" "))
    lines.extend(_context_lines(r, lang, width))
    lines.extend(_fields(w["options"], _options_parts(rules, r.options), width))
    if r.ignored_flags:
        lines.extend(wrap(f"{'':<{LABEL}}{w['ignored']}: {', '.join('+' + f for f in r.ignored_flags)}", width, LABEL))
    for warning in r.warnings:
        lines.extend(wrap(f"{'':<{LABEL}}{w['note']}: {localized(warning, lang)}", width, LABEL))
    lines.append("")
    if r.result == "waiting":
        if not r.waits:  # no shape wait: how far from ready (or ready only by a set completed in hand)

            far = shanten_of(r)
            lines.extend(wrap(w["not_ready"].format(shanten=far) if far else w["called_only"], width, 2))
            return "\n".join(lines)
        lines.append(w["waiting"])
        lines.append(_waits_table(r, lang, width))
        return "\n".join(lines)
    if r.result == "not_a_win":
        lines.append(f"{w['not_a_win']}:")
        for cond in r.failed:
            lines.extend(wrap(f"  ✗ {cond.id}: {name_in(cond.message, lang)}", width, 4))
        return "\n".join(lines)
    assert r.best is not None
    c, s = r.best.candidate, r.best.settlement
    wait = WAIT_NAMES.get(c.reading.wait or "", ("", ""))
    wait_text = wait[0] if lang == "zh" else wait[1]
    marked = []
    for i, text in enumerate(c.reading.text()):
        marked.append(f"{text}*" if i == c.reading.win_index else text)
    if c.reading.form == IMMEDIATE:  # a flower win: the hand wins whatever its tiles
        names = ", ".join(name_in(a.item.names, lang) for a in r.best.awards if a.item.immediate)
        lines.extend(wrap(f"{w['reading']:<10}— {w['immediate']}: {names}", width, 10))
    else:
        assert c.hand.win_tile is not None  # a win read in sets has its winning tile
        why = f"(* {w['wins_on']} {T.name(c.hand.win_tile)}{', ' + wait_text if wait_text else ''})"
        lines.extend(_fields(w["reading"], marked, width, "   " + why, sep=" "))
    if c.subs:
        lines.extend(_fields(w["substitutions"], [f"{k} → {v}" for k, v in c.subs.items()], width, sep=", "))
    lines.append("")
    own = {id(a) for p in s.payments for a in p.extras}  # the items not on every payment of this hand
    rows = [[a.item.id, a.item.names.get("zh"), a.item.names.get("en"), _value_shown(rules, a, lang),
             _scope(a.item.applies_to if id(a) in own else "all", lang)]
            for a in r.best.awards]
    unit = unit_of(rules, lang)
    limit = total_shown(rules, r.best.awards, s.fan)
    total = tr(limit, lang) if limit else f"{unit} {s.fan}"  # a yakuman hand: its limit, not its count of 13s
    table = tabulate(rows, headers=[w["item"], "名称", w["name"], unit, w["applies"]], tablefmt="simple")
    if width is not None and _widest(table) > width:  # narrow: one item a line, its scope after it if not all
        every = _scope("all", lang)
        table = "\n".join(_wrapped([f"{w['item']} ({unit}; {w['applies']}: {every}, {w['unless']})",
                                     *(f"{value:>4}  {zh} {en} ({iid})" + ("" if scope == every else f": {scope}")
                                       for iid, zh, en, value, scope in rows)], width, 6))
    lines.append(table)
    lines.extend(wrap(f"{total} ({_scope('all', lang)})", width, 2))
    if s.fu_lines:
        lines.extend(wrap(tr("fu {fu} = {parts}", lang).format(
            fu=s.fu, parts=" + ".join(f"{tr(reason, lang)} {fu}" for reason, fu in s.fu_lines)), width, 5))
    lines.append("")
    lines.append(_payments_table(s, unit, lang, width, tr(limit, lang) if limit else None))
    lines.append(f"{w['points']}: {s.points}")
    if s.kong_payments:
        lines.append("")
        lines.append(_kongs_table(s, lang, width))
    lines.append("")
    net = s.net
    lines.append(tabulate([[tr("{seat} (dealer)", lang).format(seat=seat) if seat == "E" else seat, f"{net[seat]:+d}"]
                           for seat in T.SEATS],
                          headers=[w["seat"], w["net"]], tablefmt="simple"))
    if s.notes:
        lines.append("")
        lines.extend(_wrapped([f"{w['notes']}: {localized(n, lang)}" for n in s.notes], width, 4))
    return "\n".join(lines)


def _value_shown(rules: Any, a: Any, lang: str) -> str:
    """An item's value in the items table: ``+2``, ``+1 × 3``, or what the formula kind shows instead (the limit a
    yakuman is)."""
    limit = total_shown(rules, (a,), a.total)
    if limit:
        return tr(limit, lang)
    return f"{a.total:+d}" if a.count == 1 else f"{a.value:+d} × {a.count}"


def _payments_table(s: Any, unit: str, lang: str, width: int | None, limit: str | None = None) -> str:
    """Who pays whom: a table, or (narrow) each payment on a line with its arithmetic under it. A payment's fan is
    the hand's (``limit`` instead, for a yakuman hand); riichi sticks on the table are no part of the hand, so
    show none."""
    w = words(lang)

    def fan(p: Any) -> Any:
        return None if p.payer == "table" else limit or p.fan  # None: a blank tabulate keeps the column numeric

    def own(p: Any) -> str:
        return " ".join(f"{name_in(a.item.names, lang)} {a.total:+d}" for a in p.extras)

    def amount(p: Any) -> str:
        if p.capped_from is None:
            return str(p.amount)
        return tr("{amount} (cut from {uncapped})", lang).format(amount=p.amount, uncapped=p.capped_from)

    def payer(p: Any) -> str:
        who = tr(N_("table"), lang) if p.payer == "table" else p.payer  # riichi's sticks on the table
        return who + (tr(" (for {seat})", lang).format(seat=p.on_behalf_of) if p.on_behalf_of else "")

    pay_rows = [[payer(p), p.payee, own(p), fan(p), localized(p.formula, lang),
                 p.amount if p.capped_from is None else amount(p)]
                for p in s.payments]
    headers = [w["payer"], w["payee"], w["own"], unit, w["formula"], w["amount"]]
    if not any(p.extras for p in s.payments):  # no item of one payer only: the column would stay empty
        pay_rows = [row[:2] + row[3:] for row in pay_rows]
        headers = headers[:2] + headers[3:]
    table = tabulate(pay_rows, headers=headers, tablefmt="simple")
    if width is None or _widest(table) <= width:
        return table
    lines = []
    for p in s.payments:  # narrow: who pays whom how much, on how much, then the arithmetic
        extra = f", {w['with']} {own(p)}" if p.extras else ""
        shown = fan(p)
        how = f"{shown} {unit}" if isinstance(shown, int) else shown or ""
        said = f" ({how}{extra})" if how or extra else ""
        lines.extend(wrap(f"{payer(p)} → {p.payee}: {amount(p)}{said}", width, 4))
        lines.extend(wrap(f"    {localized(p.formula, lang)}", width, 6))
    return "\n".join(lines)


def _kongs_table(s: Any, lang: str, width: int | None) -> str:
    w = words(lang)
    by_kong: dict[tuple[str, str], list[Any]] = {}
    for k in s.kong_payments:
        by_kong.setdefault((k.tiles, name_in(k.names, lang)), []).append(k)
    kong_rows = [[f"{label} {tiles}", ks[0].payee, ", ".join(f"{k.payer} {k.amount}" for k in ks),
                  sum(k.amount for k in ks)] for (tiles, label), ks in by_kong.items()]
    table = tabulate(kong_rows, headers=[w["kongs"], w["payee"], w["payer"], w["total"]], tablefmt="simple")
    if width is None or _widest(table) <= width:
        return table
    return "\n".join([f"{w['kongs']}:", *_wrapped([f"  {kong} → {payee}: {paid}, {w['total']} {total}"
                                                   for kong, payee, paid, total in kong_rows], width, 4)])


UNITS = {"fan": N_("fan"), "han": N_("han"), "tai": N_("tai")}  # the rulesets' units, in words


def unit_of(rules: Any, lang: str) -> str:
    """The ruleset's unit (fan, tai, han) in ``lang``: 番, 台, 翻."""
    unit = rules.unit if rules is not None else ""
    return tr(UNITS[unit], lang) if unit in UNITS else unit


def _scope(scope: str, lang: str) -> str:
    return tr(SCOPES[scope], lang) if scope in SCOPES else scope


def error_line(err: Any, lang: str = "en") -> str:
    """``ERROR (notation) at column 17: …``: what went wrong and where, in ``lang``."""
    kind = tr(ERROR_KINDS.get(err.kind, err.kind), lang)
    if err.column:
        return tr("ERROR ({kind}) at column {column}: {message}", lang).format(kind=kind, column=err.column,
                                                                              message=err.render(lang))
    return tr("ERROR ({kind}): {message}", lang).format(kind=kind, message=err.render(lang))


ERROR_KINDS = {"notation": N_("notation"), "context": N_("context"), "ruleset": N_("ruleset"), "option": N_("option"),
               "record": N_("record"), "internal": N_("internal"), "answer": N_("answer")}


def _context_parts(r: Result, lang: str = "en") -> list[str]:
    ctx = r.ctx
    assert ctx is not None and r.ruleset is not None
    given = ctx.given
    parts = []

    def show(name: str, text: str) -> None:
        parts.append(text + ("" if name in given else "*"))

    show("seat", tr("seat {seat} (dealer)" if ctx.seat == "E" else "seat {seat}", lang).format(seat=ctx.seat))
    if "round" in r.ruleset.flags:
        show("round", tr("round {wind}", lang).format(wind=ctx.round))
    if ctx.zimo:
        parts.append(tr("self-drawn", lang))  # never the default, whichever flag made it so
    else:
        said = "zimo" in given or "from" in given
        parts.append(tr("on a discard from {seat}", lang).format(seat=ctx.discarder) + ("" if said else "*"))
    for name in sorted(r.ruleset.flags - {"seat", "round", "zimo", "from", "rules", "win", "base", "cap"}):
        value = ctx.to_json().get(name)
        if value not in (False, None, [], 0):
            shown = ",".join(value) if isinstance(value, list) else value
            parts.append(f"+{name}" if value is True else f"+{name}={shown}")
    return parts


def _context_lines(r: Result, lang: str, width: int | None) -> list[str]:
    w = words(lang)
    return _fields(w["context"], _context_parts(r, lang), width, f"   ({w['defaults']})")


def _options_parts(rules: Ruleset, options: Mapping[str, Any]) -> list[str]:
    parts = []
    for k, o in rules.options.items():
        if o.game:  # the game's options: the hand scorer never reads them
            continue
        v = options.get(k)
        parts.append(f"{k} {_option_text(v)}" + ("*" if v == o.default else ""))
    return parts


def _waits_table(r: Result, lang: str, width: int | None = None) -> str:
    w = words(lang)
    if not r.waits:
        return tr("no tile completes this hand", lang)
    rows = []
    for ws in r.wait_scores or []:
        res = ws.result
        if res is not None and res.best is not None:
            s = res.best.settlement
            items = ", ".join(name_in(a.item.names, lang) for a in res.best.awards)
            shown = _fan_shown(r.ruleset, res.best, unit_of(r.ruleset, lang), lang, False)
            outcome = f"{shown} → {s.points}  ({items})"
        elif res is not None and res.error is not None:
            outcome = res.error.render(lang)
        elif res is not None:
            outcome = _not_a_win(res.failed, unit_of(r.ruleset, lang), lang)
        else:
            outcome = ""
        rows.append([T.name(ws.tile), ws.unseen, outcome])
    if not rows:
        return "\n".join(wrap(f"{w['waits']}: " + " ".join(T.name(t) for t in r.waits), width, 4))
    table = tabulate(rows, headers=[w["waits"], w["unseen"], w["score"]], tablefmt="simple")
    if width is None or _widest(table) <= width:
        return table
    return "\n".join(_wrapped([f"{tile} ({w['unseen']} {unseen}): {outcome}" for tile, unseen, outcome in rows],
                               width, 4))


def _option_text(value: Any) -> str:
    """An option value as a user writes it with --set: on / off, none, or the value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def waits_text(report: Any, lang: str = "en", width: int | None = None) -> str:
    """The waits table: tile, unseen, self-drawn and discard outcomes; or the shanten of a hand not ready."""
    res = report.result
    if res.result != "waiting":
        if res.error is not None:
            return to_text(res, lang, width)
        size = res.ruleset.tile_rules.winning_size if res.ruleset else 14
        return "\n".join(wrap(tr("{hand}: the hand is complete ({size} tiles); give it one tile short to list its "
                                 "waits", lang).format(hand=" ".join(hand_parts(res.hand, res.input)) if res.hand else res.input, size=size),
                              width, 2))
    rules = res.ruleset
    w = words(lang)
    lines = [*wrap(f"mjcalc · {rules.names.get('zh')} {rules.names.get('en')} ({rules.id})", width, 2),
             *_fields(w["hand"], hand_parts(res.hand, res.input), width, sep=" "), *_context_lines(res, lang, width), ""]
    if not report.waits:
        lines.extend(wrap(tr("not ready: shanten {shanten} (tiles to change before the hand waits)", lang).format(
            shanten=report.shanten), width, 2))
        return "\n".join(lines)
    rows = []
    for zimo, ron in report.waits:
        rows.append([T.name(zimo.tile), zimo.unseen, _outcome_text(zimo.result, lang), _outcome_text(ron.result, lang)])
    if report.wild_draw is not None:  # drawing the treasure / a wildcard: a self-draw, never a discard
        d = report.wild_draw
        drawn = tr(WILDCARD_PROVIDERS[rules.wildcard].drawn_label, lang)  # the treasure, the 会牌 …
        rows.append([f"{T.name(d.tile)} ({drawn})",
                     d.unseen, _outcome_text(d.result, lang), "—"])
    table = tabulate(rows, headers=[w["waits"], w["unseen"], w["self"], w["discard"]], tablefmt="simple")
    if width is not None and _widest(table) > width:  # narrow: a wait a line, its two outcomes under it
        narrow = []
        for tile, unseen, self_drawn, discard in rows:
            narrow.append(f"{tile} ({w['unseen']} {unseen})")
            narrow.extend(wrap(f"    {w['self']}: {self_drawn}", width, 6))
            narrow.extend(wrap(f"    {w['discard']}: {discard}", width, 6))
        table = "\n".join(narrow)
    lines.append(table)
    return "\n".join(lines)


def _not_a_win(failed: list[Any], unit: str, lang: str = "en") -> str:
    """A wait that is no win: the conditions it fails; one short of a minimum says how far it got (8 fan)."""
    parts = [tr("{condition} ({reached} of {minimum} {unit})", lang).format(
        condition=c.id, reached=c.reached, minimum=c.minimum, unit=unit) if c.reached is not None else c.id
             for c in failed]
    return tr("not a win: {conditions}", lang).format(conditions=", ".join(parts))


def _outcome_text(res: Any, lang: str) -> str:
    if res is None:
        return ""
    if res.best is None:
        if res.error is not None:
            return "—"
        return _not_a_win(res.failed, unit_of(res.ruleset, lang), lang)
    s = res.best.settlement
    return f"{_fan_shown(res.ruleset, res.best, unit_of(res.ruleset, lang), lang)} → {s.points}"


def _fan_shown(rules: Any, best: Any, unit: str, lang: str, with_fu: bool = True) -> str:
    """A hand's fan (and fu) in a line: ``3 han 40 fu``; what the formula kind shows instead (a yakuman hand's limit,
    ``double yakuman``)."""
    s = best.settlement
    limit = total_shown(rules, best.awards, s.fan)
    if limit:
        return tr(limit, lang)
    return f"{s.fan} {unit}" + (f" {s.fu} {tr('fu', lang)}" if with_fu and s.fu is not None else "")
