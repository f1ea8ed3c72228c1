"""The record of a Result (docs/OUTPUT.md): the JSON object (``to_json``: ``score --json``, the Python and web APIs,
a batch's line without orjson) and the cells of a batch's CSV row. Compiled (setup.py COMPILED): a batch builds
one a line. Without orjson a batch's record is made from parts that come back line after line kept as shared
objects (``_Kept``)."""

from __future__ import annotations

from typing import Any, Final

from ..core import tiles as T
from ..core.result import Result
from ..core.settlement.payments import Award, Payment
from ..engine import shanten_of
from ..i18n import localized, name_in, tr
from ..support.memo import remember


def csv_cells(res: Result) -> list[Any]:
    """The cells of ``res``'s row of a batch's CSV (batch.writers.CSV_COLUMNS). Here, compiled, and not in
    batch/: a batch makes them for every line."""
    best = res.best
    s = best.settlement if best is not None else None
    error = res.error.message if res.error is not None else "; ".join([c.id for c in res.failed])
    if s is None:
        cells: list[Any] = [res.line, control_escaped(res.input), res.ruleset.id if res.ruleset is not None else "",
                            res.result, "", "", "", "", "", "", ""]
    else:
        net = s.net
        cells = [res.line, control_escaped(res.input), res.ruleset.id if res.ruleset is not None else "", res.result,
                 s.fan, s.fu if s.fu is not None else "", s.points,
                 net.get("E", ""), net.get("S", ""), net.get("W", ""), net.get("N", "")]
    cells.append(" ".join([f"{a.item.id}:{a.total}" for a in best.awards]) if best is not None else "")
    cells.append(control_escaped(error))
    return cells


_CONTROL: Final = {c: f"\\x{c:02x}" for c in (*range(32), *range(127, 160))} | {0x2028: "\\u2028", 0x2029: "\\u2029"}


def control_escaped(text: str) -> str:
    """Text as a terminal or a CSV row can show it: control characters escaped (``\\x1b``), one line."""
    return text if text.isprintable() else text.translate(_CONTROL)


def to_json(r: Result, lang: str = "en") -> dict[str, Any]:
    """The object of docs/OUTPUT.md: keys may be added, never renamed or dropped."""
    return record_of(r, lang, None)


# --- parts kept once serialized ------------------------------------------------------------------------------

class _Kept:
    """Parts of records without orjson, each kept by a key once made: the objects themselves, shared by the
    records that have them, which are written at once and never changed. Bounded."""

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}
        # The options of the last record and their kept form: the lines of a file share one options mapping
        # (core.model._option_values), never changed once made, so most records find theirs without a key built.
        self.last_options: Any = None
        self.last_kept: Any = None
        # An award's item by the item itself (its identity, with the item kept beside its form to tell a reused
        # identity apart), its value, count and unit: an item is rule data, read from Python attributes, and the
        # key of its content (id, names, applies_to) cost more to build and compare than the item's JSON.
        self.items: dict[tuple[int, int, int, str], tuple[Any, Any]] = {}
        # A line of a fu breakdown by itself ((reason, fu): a few dozen in all): the breakdowns are many more (some
        # 8,000 at 20,000 riichi lines), and kept whole they held megabytes a batch never read again.
        self.fu_lines: dict[tuple[str, int], Any] = {}
        # A payment by its fields (a few thousand in all: the amounts, honba and formulas of a ruleset's scores).
        self.payments: dict[tuple[Any, ...], Any] = {}

    def keep(self, key: Any, value: Any) -> Any:
        """``value`` kept for ``key``, in the form records hold it."""
        return remember(self.memo, key, value, 8192)


_SHARED: Final = _Kept()
# The text of each group of a reading met so far (Group.text), by the group's identity (the group kept beside its
# text to tell a reused identity apart): groups are interned (core.readings.forms._GROUPS,
# decompose._MELD_GROUPS), and a group is a tuple of six fields, its tiles a tuple too, hashed anew on every
# look-up by value.
_GROUP_TEXT: Final[dict[int, tuple[Any, str]]] = {}


def _item_json(a: Award, unit: str) -> dict[str, Any]:
    return {"id": a.item.id, "name": {"zh": a.item.names.get("zh"), "en": a.item.names.get("en")},
            "value": a.value, "count": a.count, "unit": unit, "applies_to": a.item.applies_to}


# The keys of a record, by which of its optional keys it has (``_shape``): each record starts as a copy of the keys
# of the first record of its shape, in their order (values None), and its values replace them. A dict grown key by
# key is resized three times on the way to some 25 keys; a copy is made at its size.
_SHAPES: Final[dict[int, dict[str, Any]]] = {}


def _shape(r: Result) -> int:
    """Which of a record's optional keys it has, as bits (``_record`` writes them under the same conditions)."""
    shape = 1 if r.line is not None else 0
    if r.result == "not_a_win":
        shape |= 2
    elif r.result == "waiting":
        shape |= 4
    if r.hand is not None:
        shape |= 8
    if r.ignored_flags:
        shape |= 16
    if r.warnings:
        shape |= 32
    best = r.best
    if best is not None and r.ruleset is not None:
        s = best.settlement
        shape |= 64 | (128 if s.fu is not None else 0) | (256 if s.limit is not None else 0)
    return shape


def record_of(r: Result, lang: str, kept: _Kept | None) -> dict[str, Any]:
    shape = _shape(r)
    keys = _SHAPES.get(shape)
    if keys is not None:
        return _record_fields(keys.copy(), r, lang, kept)
    out = _record_fields({}, r, lang, kept)
    _SHAPES[shape] = dict.fromkeys(out)  # (a few shapes in all)
    return out


def _record_fields(out: dict[str, Any], r: Result, lang: str, kept: _Kept | None) -> dict[str, Any]:
    """``out`` (empty, or the keys of a record of ``r``'s shape) with the keys and values of ``r``'s record."""
    if r.line is not None:
        out["line"] = r.line
    out["input"] = r.input
    rules = r.ruleset
    out["ruleset"] = rules.id if rules is not None else None
    out["hand"] = r.hand.text() if r.hand is not None else None
    ctx = r.ctx
    out["context"] = ctx.to_json() if ctx is not None else None
    options = r.options
    if not options:
        out["options"] = None
    elif kept is None:
        out["options"] = options
    elif options is kept.last_options:
        out["options"] = kept.last_kept
    else:
        key: Any = ("options", tuple(options.items()))
        try:
            found = kept.memo.get(key)
        except TypeError:  # a value that is no key (a list): written as it is
            found = options
        else:
            if found is None:
                found = kept.keep(key, dict(options))
            kept.last_options, kept.last_kept = options, found
        out["options"] = found
    out["result"] = r.result
    out["error"] = r.error.to_json(lang) if r.error is not None else None
    if r.result == "not_a_win":
        out["failed_conditions"] = [{"id": c.id, "message": name_in(c.message, lang)} for c in r.failed]
    if r.hand is not None:
        out["waits"] = r.wait_names()
    if r.result == "waiting":
        out["shanten"] = shanten_of(r)
        out["wait_scores"] = [_wait_json(w) for w in r.wait_scores]
    if r.ignored_flags:
        out["ignored_flags"] = r.ignored_flags
    if r.warnings:
        out["warnings"] = r.warnings if lang == "en" else [localized(n, lang) for n in r.warnings]
    best = r.best
    if best is not None and rules is not None:
        c, s = best.candidate, best.settlement
        if kept is None:
            out["reading"] = c.reading.text()
        else:
            texts = []
            for g in c.reading.groups:
                group_text = _GROUP_TEXT.get(id(g))
                if group_text is None or group_text[0] is not g:
                    group_text = remember(_GROUP_TEXT, id(g), (g, g.text()), 8192)
                texts.append(group_text[1])
            out["reading"] = texts
        out["winning_tile"] = T.name(c.hand.win_tile) if c.hand.win_tile is not None else None
        out["wait"] = c.reading.wait
        out["substitutions"] = c.subs
        unit = rules.unit
        if kept is None:
            out["items"] = [_item_json(a, unit) for a in best.awards]
        else:
            items = []
            for a in best.awards:
                item = a.item
                item_key = (id(item), a.value, a.count, unit)
                held = kept.items.get(item_key)
                if held is None or held[0] is not item:
                    value = _item_json(a, unit)
                    held = remember(kept.items, item_key, (item, value), 8192)
                items.append(held[1])
            out["items"] = items
        out["fan"] = s.fan
        if s.fu is not None:
            out["fu"] = s.fu
            if kept is None:
                out["fu_breakdown"] = _fu_json(s.fu_lines, lang)
            else:
                fu_lines = []
                for fu_line in s.fu_lines:
                    fu_kept = kept.fu_lines.get(fu_line)
                    if fu_kept is None:
                        fu_kept = remember(kept.fu_lines, fu_line, {"reason": fu_line[0], "fu": fu_line[1]}, 1024)
                    fu_lines.append(fu_kept)
                out["fu_breakdown"] = fu_lines
        if s.limit is not None:
            out["limit"] = s.limit
        if kept is None:
            out["payments"] = [p.to_json() for p in s.payments]
        else:
            out["payments"] = [_kept_payment(p, kept) for p in s.payments]
        if lang != "en":  # the texts in the chosen language (docs/OUTPUT.md): formula, notes, warnings
            for shown, p in zip(out["payments"], s.payments, strict=True):
                shown["formula"] = localized(p.formula, lang)
        out["kong_payments"] = [k.to_json() for k in s.kong_payments]
        out["net"] = s.net
        out["points"] = s.points
        out["notes"] = s.notes if lang == "en" else [localized(n, lang) for n in s.notes]
    return out


def _kept_payment(p: Payment, kept: _Kept) -> Any:
    """``p.to_json()`` in its kept form, by the fields it is made of."""
    key = _payment_key(p)
    found = kept.payments.get(key)
    return remember(kept.payments, key, p.to_json(), 8192) if found is None else found


def _payment_key(p: Payment) -> tuple[Any, ...]:
    extras = p.extras
    return (p.payer, p.payee, p.fan, p.amount, p.capped_from, p.formula, p.on_behalf_of,
            tuple([a.item.id for a in extras]) if extras else (), p.liable_for)


def _fu_json(lines: list[tuple[str, int]], lang: str) -> list[dict[str, Any]]:
    return [{"reason": tr(reason, lang), "fu": fu} for reason, fu in lines]


def _wait_json(w: Any) -> dict[str, Any]:
    res = w.result
    entry: dict[str, Any] = {"tile": T.name(w.tile), "unseen": w.unseen, "result": res.result if res else None}
    if res is not None and res.best is not None:
        entry["fan"] = res.best.settlement.fan
        entry["points"] = res.best.settlement.points
        entry["items"] = [a.item.id for a in res.best.awards]
    return entry


# --- the line of a batch, formatted ----------------------------------------------------------------------------
