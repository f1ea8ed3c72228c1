"""Render a Result: the JSON of ``docs/OUTPUT.md`` and the human table. No scoring logic here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import tiles as T
from .engine import Result
from .hooks.riichi import yakuman_shown
from .i18n import N_, localized, tr
from .readings import IMMEDIATE
from .ruleset import SCOPES, Ruleset


def _name(names: Mapping[str, Any], lang: str) -> str:
    """A name in ``lang``, else in English (as a record writes it, ``record._name``: not imported from there,
    which would import orjson and the record's tables for a table printed; 7 M instructions of ``mjcalc score``)."""
    return str(names.get(lang) or names.get("en", ""))


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
    "treasure": N_("treasure drawn"), "wildcard": N_("wildcard drawn"),
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

LABEL = 10  # the width of a header line's label ("context   ")


def terminal_width() -> int | None:
    """The width to fit: COLUMNS when set, else the terminal's; None (the full layout) when writing to a pipe."""
    import os
    import shutil
    import sys

    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


def cols(text: str) -> int:
    """Columns a line takes on a terminal: a wide character (Chinese) two, a combining mark none."""
    if text.isascii():
        return len(text)
    from unicodedata import combining, east_asian_width

    return sum(0 if combining(ch) else 2 if east_asian_width(ch) in "WF" else 1 for ch in text)


def _widest(text: str) -> int:
    return max((cols(line) for line in text.splitlines()), default=0)


def _cut(word: str, room: int) -> tuple[str, str]:
    """The longest head of ``word`` that fits ``room`` columns (at least one character), and the rest."""
    used = 0
    for i, ch in enumerate(word):
        used += cols(ch)
        if used > room and i:
            return word[:i], word[i:]
    return word, ""


def wrap(text: str, width: int | None, indent: int = 0) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken at spaces (a word too long for a line is cut);
    lines after the first indented by ``indent``. No width, or a line that fits: the line as it is."""
    if width is None or cols(text) <= width:
        return [text]
    import re

    lead = len(text) - len(text.lstrip(" "))
    tokens = re.split(r"( +)", text[lead:])
    lines: list[str] = []
    line, pad, has_word = text[:lead], " " * indent, False
    for j in range(0, len(tokens), 2):
        word, sep = tokens[j], tokens[j - 1] if j else ""
        if has_word and cols(line + sep + word) > width:
            lines.append(line)
            line, sep = pad, ""
        while cols(line + sep + word) > width and cols(line + sep) < width:
            head, word = _cut(word, width - cols(line + sep))
            if not word:
                word = head
                break
            lines.append(line + sep + head)
            line, sep = pad, ""
        line += sep + word
        has_word = True
    lines.append(line)
    return lines


def _fields(label: str, parts: list[str], width: int | None, tail: str = "", sep: str = " · ") -> list[str]:
    """A header line: the label, the parts joined by ``sep``, then ``tail``; given a width, a part (or the
    tail) that does not fit starts a line of its own under the first part."""
    line = label + " " * max(1, LABEL - cols(label)) + (parts[0] if parts else "")  # 手牌 takes 4 columns
    lines: list[str] = []
    for part in parts[1:]:
        if width is not None and cols(line + sep + part) > width:
            lines.append(line)
            line = " " * LABEL + part
        else:
            line += sep + part
    if tail and width is not None and cols(line + tail) > width:
        lines.append(line)
        line = " " * LABEL + tail.strip()
    else:
        line += tail
    lines.append(line)
    return _wrapped(lines, width, LABEL)


def _wrapped(lines: list[str], width: int | None, indent: int = 0) -> list[str]:
    return [out for line in lines for out in wrap(line, width, indent)]


def tabulate(*args: Any, **kwargs: Any) -> str:
    """tabulate's table, the library imported when a table is first written (not by a batch or ``--json``)."""
    return str(_table()(*args, **kwargs))


def _table() -> Any:
    """``tabulate.tabulate``. The library imports two standard modules for what a table of ours never asks of them,
    each costing a command about as much as the rest of tabulate: ``html`` for its HTML formats alone (``from html
    import escape``; html's table of 2,231 entity names is 7M instructions, benchmarks/bench_startup.py), and
    ``dataclasses`` to ask whether the first row is a dataclass (2M more, and ours are tuples). tabulate is imported
    with stand-ins for them, taken away at once: the stand-in ``escape`` imports the real module when first called,
    and the stand-in ``dataclasses`` answers from the real module when one has been imported — until then no
    dataclass exists, so nothing is one."""
    import sys

    if "tabulate" in sys.modules:
        from tabulate import tabulate as table

        return table
    import types

    def escape(text: str, quote: bool = True) -> str:
        import html

        return html.escape(text, quote)

    def is_dataclass(obj: object) -> bool:
        real = sys.modules.get("dataclasses")
        return real is not None and real is not stand_ins.get("dataclasses") and bool(real.is_dataclass(obj))

    def fields(obj: object) -> Any:
        import dataclasses

        return dataclasses.fields(obj)  # type: ignore[arg-type]

    stand_ins: dict[str, types.ModuleType] = {}
    for name, functions in (("html", {"escape": escape}), ("dataclasses", {"is_dataclass": is_dataclass,
                                                                           "fields": fields})):
        if name not in sys.modules:
            stand_ins[name] = module = types.ModuleType(name)
            module.__dict__.update(functions)
            sys.modules[name] = module
    try:
        from tabulate import tabulate as table
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    return table


# --- the table -----------------------------------------------------------------------------------------


def hand_parts(hand: Any) -> list[str]:
    """The ``hand`` line of a table, the hand as it is: the concealed tiles by suit, the honors a group for each kind
    held more than once (``111z 2z``, not ``1112z``), the melds as written, the flowers, then the winning tile apart
    after a plus (``+ 2z``). The JSON's ``hand`` is ``Hand.text()``, notation that reads back to the same hand: the
    same pieces, worked out the same way, written for a reader instead.

    >>> from mjcalc.engine import Request, score_line
    >>> " ".join(hand_parts(score_line("123m456p789s111z22z").hand))
    '123m 456p 789s 111z 2z + 2z'
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
    suited = [t for t in body if t < T.HONOR_START]
    parts = T.format_tiles(suited, sort=False, red=red, between=" ").split(" ") if suited else []
    counts = T.counts_of(t for t in body if t >= T.HONOR_START)
    singles = ""  # honors held once, side by side (thirteen orphans: 1234567z)
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
    parts += melds
    if hand.flowers:
        parts.append("".join(str(f + 1) for f in sorted(hand.flowers)) + "f")
    if apart:
        parts.append("+ " + (T.format_tiles((win,), red=[win]) if red and win in red and win not in body
                             else T.name(win)))
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
    lines.extend(_fields(w["hand"], hand_parts(r.hand), width, sep=" "))
    lines.extend(_context_lines(r, lang, width))
    lines.extend(_fields(w["options"], _options_parts(rules, r.options), width))
    if r.ignored_flags:
        lines.extend(wrap(f"{'':<{LABEL}}{w['ignored']}: {', '.join('+' + f for f in r.ignored_flags)}", width, LABEL))
    for warning in r.warnings:
        lines.extend(wrap(f"{'':<{LABEL}}{w['note']}: {localized(warning, lang)}", width, LABEL))
    lines.append("")
    if r.result == "waiting":
        if not r.waits:  # no shape wait: how far from ready (or ready only by a set completed in hand)
            from .waiting import shanten_of

            far = shanten_of(r)
            lines.extend(wrap(w["not_ready"].format(shanten=far) if far else w["called_only"], width, 2))
            return "\n".join(lines)
        lines.append(w["waiting"])
        lines.append(_waits_table(r, lang, width))
        return "\n".join(lines)
    if r.result == "not_a_win":
        lines.append(f"{w['not_a_win']}:")
        for cond in r.failed:
            lines.extend(wrap(f"  ✗ {cond.id}: {_name(cond.message, lang)}", width, 4))
        return "\n".join(lines)
    assert r.best is not None
    c, s = r.best.candidate, r.best.settlement
    wait = WAIT_NAMES.get(c.reading.wait or "", ("", ""))
    wait_text = wait[0] if lang == "zh" else wait[1]
    marked = []
    for i, text in enumerate(c.reading.text()):
        marked.append(f"{text}*" if i == c.reading.win_index else text)
    if c.reading.form == IMMEDIATE:  # a flower win: the hand wins whatever its tiles
        names = ", ".join(_name(a.item.names, lang) for a in r.best.awards if a.item.immediate)
        lines.extend(wrap(f"{w['reading']:<10}— {w['immediate']}: {names}", width, 10))
    else:
        assert c.hand.win_tile is not None  # a win read in sets has its winning tile
        why = f"(* {w['wins_on']} {T.name(c.hand.win_tile)}{', ' + wait_text if wait_text else ''})"
        lines.extend(_fields(w["reading"], marked, width, "   " + why, sep=" "))
    if c.subs:
        lines.extend(_fields(w["substitutions"], [f"{k} → {v}" for k, v in c.subs.items()], width, sep=", "))
    lines.append("")
    own = {id(a) for p in s.payments for a in p.extras}  # the items not on every payment of this hand
    rows = [[a.item.id, a.item.names.get("zh"), a.item.names.get("en"), _value_shown(a, lang),
             _scope(a.item.applies_to if id(a) in own else "all", lang)]
            for a in r.best.awards]
    unit = unit_of(rules, lang)
    limit = yakuman_shown(r.best.awards, s.fan)
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


def _value_shown(a: Any, lang: str) -> str:
    """An item's value in the items table: ``+2``, ``+1 × 3``, or the limit a yakuman is."""
    limit = yakuman_shown((a,), a.total)
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
        return " ".join(f"{_name(a.item.names, lang)} {a.total:+d}" for a in p.extras)

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
        by_kong.setdefault((k.tiles, _name(k.names, lang)), []).append(k)
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
        if o.game:  # a game's option: the hand scorer never reads it
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
            items = ", ".join(_name(a.item.names, lang) for a in res.best.awards)
            outcome = f"{_fan_shown(res.best, unit_of(r.ruleset, lang), lang, False)} → {s.points}  ({items})"
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
                                 "waits", lang).format(hand=" ".join(hand_parts(res.hand)) if res.hand else res.input, size=size),
                              width, 2))
    rules = res.ruleset
    w = words(lang)
    lines = [*wrap(f"mjcalc · {rules.names.get('zh')} {rules.names.get('en')} ({rules.id})", width, 2),
             *_fields(w["hand"], hand_parts(res.hand), width, sep=" "), *_context_lines(res, lang, width), ""]
    if not report.waits:
        lines.extend(wrap(tr("not ready: shanten {shanten} (tiles to change before the hand waits)", lang).format(
            shanten=report.shanten), width, 2))
        return "\n".join(lines)
    rows = []
    for zimo, ron in report.waits:
        rows.append([T.name(zimo.tile), zimo.unseen, _outcome_text(zimo.result, lang), _outcome_text(ron.result, lang)])
    if report.wild_draw is not None:  # drawing the treasure / a wildcard: a self-draw, never a discard
        d = report.wild_draw
        rows.append([f"{T.name(d.tile)} ({w['treasure'] if rules.wildcard == 'treasure' else w['wildcard']})",
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
    return f"{_fan_shown(res.best, unit_of(res.ruleset, lang), lang)} → {s.points}"


def _fan_shown(best: Any, unit: str, lang: str, with_fu: bool = True) -> str:
    """A hand's fan (and fu) in a line: ``3 han 40 fu``; a yakuman hand's limit instead (``double yakuman``)."""
    s = best.settlement
    limit = yakuman_shown(best.awards, s.fan)
    if limit:
        return tr(limit, lang)
    return f"{s.fan} {unit}" + (f" {s.fu} {tr('fu', lang)}" if with_fu and s.fu is not None else "")
