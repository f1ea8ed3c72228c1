"""The JSON record of a Result (docs/OUTPUT.md), and the bytes of one line of JSON a batch writes for it.

Compiled (setup.py COMPILED): a batch builds one record a line. ``to_json`` gives the object (``score --json``,
the Python and web APIs); ``record_bytes`` the compact line a batch writes. With orjson the line is formatted as
bytes from the JSON of its members (``_line``), without the object made for orjson to write: the parts that come
back line after line (the options, an item, a line of the fu breakdown, a seat, a formula, a context's member, a
group's text) each written once and kept (bounded), numbers as they are, the rest (the input, an error) written by
orjson. Without orjson the line is written from ``to_json``'s object, its parts that come back kept as shared
objects. Either way the bytes are those of ``json_line`` on ``to_json``'s object (tests/test_batch.py)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from . import tiles as T
from .context import _CONTEXT_FIELDS, DEFAULT, Context, _json_value
from .engine import Result, rules_read
from .i18n import localized, tr
from .memo import remember
from .settlement import Award, Payment

_orjson: Any
try:  # an optional speed-up (pyproject.toml); without it the standard library writes the very same text
    import orjson

    _orjson = orjson
except ImportError:  # tests/test_batch.py checks the standard library's text is the same
    _orjson = None


def json_line(obj: Any) -> str:
    """``obj`` as one line of compact JSON (no spaces after ``,`` and ``:``), non-ASCII text as it is: what a
    batch writes a record as. orjson writes it where it is installed; the standard library writes the same
    text otherwise, and for what orjson refuses (a lone surrogate, an integer beyond 64 bits)."""
    if _orjson is not None:
        try:
            return str(_orjson.dumps(obj).decode())
        except (TypeError, ValueError):
            pass
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def json_bytes(obj: Any) -> bytes:
    """``json_line(obj)`` as the UTF-8 bytes a batch writes (a lone surrogate written ``\\udcxx``), without
    decoding orjson's bytes to text and encoding them again."""
    if _orjson is not None:
        try:
            return bytes(_orjson.dumps(obj))
        except (TypeError, ValueError):
            pass
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "backslashreplace")


def record_bytes(r: Result) -> bytes:
    """The line of JSON (bytes, without its line end) a batch writes for ``r``: ``json_bytes(to_json(r))``."""
    if _orjson is not None:
        try:
            return _line(r)
        except (TypeError, ValueError):  # refused (a lone surrogate …): the standard library writes it
            return json_bytes(_record(r, "en", None))
    return json_bytes(_record(r, "en", _SHARED))


def encode_jsonl(record: Any, res: Result | None) -> bytes:
    """A batch record's line of JSON as the UTF-8 bytes written (batch.ENCODERS: ``record_bytes``, orjson's bytes
    as they are): the record (``batch.Record``) of a skipped line when ``res`` is None. U+0085, U+2028 and U+2029,
    valid in JSON raw but a line break to many readers, written as escapes. Here, compiled, and not in batch.py:
    a batch calls it for every line (2k instructions a line less than there)."""
    if res is None:
        data = json_bytes({"line": record.line, "input": record.text, "result": "skipped"})
    else:
        data = record_bytes(res)
    if _has_line_breaks(data):
        import re

        data = re.sub(b"\xc2\x85|\xe2\x80\xa8|\xe2\x80\xa9",
                      lambda m: f"\\u{ord(m.group().decode()):04x}".encode(), data)
    return data


def _has_line_breaks(data: bytes) -> bool:
    """Whether UTF-8 ``data`` holds U+0085, U+2028 or U+2029. First whether it holds the bytes they need (``int in
    bytes``: one memchr each, called through the type's slot, where ``find`` is a method call that costs some 1,200
    instructions): U+2028 and U+2029 need 0x80 and 0xa8 or 0xa9, U+0085 needs 0xc2 and 0x85. Nine records in ten
    hold none of those pairs (a Chinese name holds some of the bytes); the others are searched by the lead bytes,
    one byte a search (memchr, ten times as fast as a search for the three sequences): a record holds few such
    bytes (``→`` is one), none at all of the first. (callgrind: 5.7k instructions a riichi record -> 1.5k)"""
    if not (0x80 in data and (0xa8 in data or 0xa9 in data)) and not (0xc2 in data and 0x85 in data):
        return False
    at = data.find(b"\xe2")
    while at >= 0:
        if data[at + 1:at + 3] in (b"\x80\xa8", b"\x80\xa9"):
            return True
        at = data.find(b"\xe2", at + 1)
    return data.find(b"\xc2") >= 0 and b"\xc2\x85" in data


def csv_cells(res: Result) -> list[Any]:
    """The cells of ``res``'s row of a batch's CSV (batch.CSV_COLUMNS). Here, compiled, and not in batch.py: a batch
    makes them for every line."""
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
    return _record(r, lang, None)


def _name(names: Mapping[str, Any], lang: str) -> str:
    return str(names.get(lang) or names.get("en", ""))


# --- parts kept once serialized ------------------------------------------------------------------------------

class _Kept:
    """Parts of records without orjson, each kept by a key once made: the objects themselves, shared by the
    records that have them, which are written at once and never changed. Bounded."""

    def __init__(self) -> None:
        self.memo: dict[Any, Any] = {}
        # The options of the last record and their kept form: the lines of a file share one options mapping
        # (engine._option_values), never changed once made, so most records find theirs without a key built.
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
# text to tell a reused identity apart): groups are interned (readings._GROUPS, _MELD_GROUPS), and a group is a
# tuple of six fields, its tiles a tuple too, hashed anew on every look-up by value.
_GROUP_TEXT: Final[dict[int, tuple[Any, str]]] = {}


def _item_json(a: Award, unit: str) -> dict[str, Any]:
    return {"id": a.item.id, "name": {"zh": a.item.names.get("zh"), "en": a.item.names.get("en")},
            "value": a.value, "count": a.count, "unit": unit, "applies_to": a.item.applies_to}


# The keys of a record, by which of its optional keys it has (``_shape``): each record starts as a copy of the keys
# of the first record of its shape, in their order (values None), and its values replace them. A dict grown key by
# key is resized three times on the way to some 25 keys; a copy is made at its size (3k instructions a line less).
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


def _record(r: Result, lang: str, kept: _Kept | None) -> dict[str, Any]:
    shape = _shape(r)
    keys = _SHAPES.get(shape)
    if keys is not None:
        return _filled(keys.copy(), r, lang, kept)
    out = _filled({}, r, lang, kept)
    _SHAPES[shape] = dict.fromkeys(out)  # (a few shapes in all)
    return out


def _filled(out: dict[str, Any], r: Result, lang: str, kept: _Kept | None) -> dict[str, Any]:
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
        out["failed_conditions"] = [{"id": c.id, "message": _name(c.message, lang)} for c in r.failed]
    if r.hand is not None:
        out["waits"] = r.wait_names()
    if r.result == "waiting":
        from .waiting import shanten_of

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


# The JSON of a short text that comes back line after line (a seat, a ruleset's id, a tile's name, a wait, a
# limit, a note, a formula), kept (bounded).
_TEXT_JSON: Final[dict[str, bytes]] = {}


def _text_json(text: str) -> bytes:
    found = _TEXT_JSON.get(text)
    return remember(_TEXT_JSON, text, bytes(memoryview(_orjson.dumps(text))), 8192) if found is None else found


def _payment_json(p: Payment) -> bytes:
    """``p.to_json()`` as orjson writes it. The usual payment (nothing capped, no share, no items of its own)
    written from the kept JSON of its seats and formula, its numbers as they are: a look-up by the 8 fields of a
    payment cost 1.5k instructions and its first writing 9k, and a payment met once is the rule (at 3,000 riichi
    lines: 1,542 kinds in 6,647 payments)."""
    if p.capped_from is None and p.on_behalf_of is None and not p.extras and not p.liable_for:
        return (b'{"payer":%b,"payee":%b,"fan":%d,"amount":%d,"capped_from":null,"formula":%b,"on_behalf_of":null,'
                b'"payer_items":[],"liable_for":[]}' % (_text_json(p.payer), _text_json(p.payee), p.fan, p.amount,
                                                        _text_json(p.formula)))
    key = _payment_key(p)
    found = _PAYMENT_JSON.get(key)
    return remember(_PAYMENT_JSON, key, _kept_dump(p.to_json()), 8192) if found is None else found


def _kept_payment(p: Payment, kept: _Kept) -> Any:
    """``p.to_json()`` in its kept form, by the fields it is made of."""
    key = _payment_key(p)
    found = kept.payments.get(key)
    return remember(kept.payments, key, p.to_json(), 8192) if found is None else found


def _payment_key(p: Payment) -> tuple[Any, ...]:
    extras = p.extras
    return (p.payer, p.payee, p.fan, p.amount, p.capped_from, p.formula, p.on_behalf_of,
            tuple([a.item.id for a in extras]) if extras else (), p.liable_for)


# Each field of a context by name, but the first four: its place among the pieces of ``Context.to_json``'s object
# (``_context_members``), and its texts as a member of that object by value, each beside its value (``True == 1``:
# a member is used for a value of the same type). A member's JSON is written as it is joined (``_placed``:
# ``{"seat":"E"`` first, ``,"round":"E"`` after), and the object's closing brace is a last piece of its own, so that
# the object is one formatting of its pieces (``_context_json``: a brace added to each end copied it twice more, 700
# instructions a line). Those of the defaults made on first use.
_CONTEXT_MEMBERS: Final[dict[str, tuple[int, dict[Any, tuple[Any, bytes]]]]] = {
    name: (i - 3, {}) for i, name in enumerate(_CONTEXT_FIELDS) if i >= 4}
_CONTEXT_DEFAULTS: Final[list[bytes]] = []
# The first four fields (seat, round, zimo, discarder), set on nearly every line, as one piece, by their values: one
# look-up for the four, where each field's member took two (callgrind: ~530 instructions a field).
_CONTEXT_HEADS: Final[dict[tuple[str, str, bool, str | None], bytes]] = {}


def _placed(at: int, name: str, value: Any) -> bytes:
    """The text of field ``name`` (at ``at`` in the object) as a member, as ``_context_members`` gives it."""
    member = bytes(_orjson.dumps({"from" if name == "discarder" else name: _json_value(name, value)}))[1:-1]
    return (b"{" if at == 0 else b",") + member


def _context_members(ctx: Context) -> list[bytes]:
    """The pieces that joined are ``ctx.to_json()`` as orjson writes it, from the kept members of its fields: for
    a fraction of the work (a context has 29 fields, nearly all at their defaults). The first four are one piece."""
    if not _CONTEXT_DEFAULTS:
        _CONTEXT_DEFAULTS.append(b"")  # (the first four fields')
        _CONTEXT_DEFAULTS.extend([_placed(at, name, getattr(DEFAULT, name)) for at, name in enumerate(_CONTEXT_FIELDS)
                                  if at >= 4])
        _CONTEXT_DEFAULTS.append(b"}")
    members = _CONTEXT_DEFAULTS.copy()
    seat, round_, zimo, discarder = ctx.seat, ctx.round, ctx.zimo, ctx.discarder
    key = (seat, round_, zimo, discarder)
    head = _CONTEXT_HEADS.get(key)
    if head is None:
        head = remember(_CONTEXT_HEADS, key, _placed(0, "seat", seat) + _placed(1, "round", round_) +
                        _placed(2, "zimo", zimo) + _placed(3, "discarder", discarder), 1024)
    members[0] = head
    for name, value in ctx.values.items():  # the others set (the rest are at their defaults; round: in the head)
        field = _CONTEXT_MEMBERS.get(name)
        if field is None:
            continue
        at, known = field
        try:
            held = known.get(value)
        except TypeError:  # a value that is no key (a list given through the API): written as it is
            members[at] = _placed(at + 3, name, value)
            continue
        if held is None or type(held[0]) is not type(value):
            held = remember(known, value, (value, _placed(at + 3, name, value)), 1024)
        members[at] = held[1]
    return members


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

# The JSON of the parts of lines that come back line after line, each kept (bounded), as in _Kept; a group's text
# by the group's identity, as _GROUP_TEXT. A line of a fu breakdown by itself, as it is (a shared tuple: not
# unpacked and packed again for the look-up).
_OPTIONS_JSON: Final[dict[Any, bytes]] = {}
_ITEM_JSON: Final[dict[int, tuple[Any, int, int, str, bytes]]] = {}
_FU_JSON: Final[dict[Any, bytes]] = {}
_GROUP_JSON: Final[dict[int, tuple[Any, bytes]]] = {}
_PAYMENT_JSON: Final[dict[tuple[Any, ...], bytes]] = {}  # a payment other than the usual, by its fields
_last_options: Final[list[Any]] = [None, b""]  # the options of the last line and their JSON (one mapping, shared)


def _dumped(value: Any) -> bytes:
    """``value`` as orjson writes it."""
    data: bytes = _orjson.dumps(value)  # (bytes: checked, not made again)
    return data


def _kept_dump(value: Any) -> bytes:
    """``_dumped(value)`` copied, to be kept: orjson's bytes are as long as its buffer (1 KiB and more for a
    payment of 200 bytes), and the kept parts of a few thousand lines held 10 MB."""
    return bytes(memoryview(_orjson.dumps(value)))


def _opt_json(value: str | None) -> bytes:
    return b"null" if value is None else _text_json(value)


def _context_json(ctx: Context) -> bytes:
    """``ctx.to_json()`` as orjson writes it, from its members (``_context_members``): one copy of its 27 pieces
    (bytes formatting, compiled), where a join takes some 100 instructions a piece more (buffers got and released;
    riichi jsonl at 3,000 lines 833.8M instructions joined, 827.5M so)."""
    m = _context_members(ctx)
    if len(m) != 27:  # (the first four fields, the other 25 and the brace)
        return b"".join(m)
    return (b"%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b" % (
            m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13],
            m[14], m[15], m[16], m[17], m[18], m[19], m[20], m[21], m[22], m[23], m[24], m[25], m[26]))


def _line(r: Result) -> bytes:
    """``json_bytes(to_json(r))``, formatted from the JSON of its members (those that come back kept), without the
    record's object made for orjson to write (with each part kept as an orjson Fragment: record_bytes 215M
    instructions at 3,000 riichi lines, 201M so). Bytes formatting (``b"…%b…%d" % (…)``), compiled, is one copy
    of its pieces, numbers written in place; a join is dearer by the piece (its pieces' buffers) and text dearer
    still (a line holding Chinese names is joined and encoded by the character: a join of text, 223M)."""
    line = r.line
    rules = r.ruleset
    hand = r.hand
    ctx = r.ctx
    seen = rules_read(rules) if rules is not None else None  # a Python-level Ruleset's fields, read once
    rules_json = _text_json(seen.id) if seen is not None else b"null"
    hand_json = b'"%b"' % (hand.text().encode(),) if hand is not None else b"null"  # tiles: nothing to escape
    ctx_json = _context_json(ctx) if ctx is not None else b"null"
    if line is not None:
        head = b'{"line":%d,"input":%b,"ruleset":%b,"hand":%b,"context":%b' % (line, _dumped(r.input), rules_json,
                                                                                 hand_json, ctx_json)
    else:
        head = b'{"input":%b,"ruleset":%b,"hand":%b,"context":%b' % (_dumped(r.input), rules_json, hand_json, ctx_json)
    parts = [head]
    options = r.options
    if not options:
        options_json = b"null"
    elif options is _last_options[0]:
        options_json = _last_options[1]
    else:
        key: Any = tuple(options.items())
        try:
            found = _OPTIONS_JSON.get(key)
        except TypeError:  # a value that is no key (a list): written as it is
            options_json = _dumped(dict(options))
        else:
            if found is None:
                found = remember(_OPTIONS_JSON, key, _kept_dump(dict(options)), 1024)
            _last_options[0], _last_options[1] = options, found
            options_json = found
    error_json = _dumped(r.error.to_json("en")) if r.error is not None else b"null"
    parts.append(b',"options":%b,"result":%b,"error":%b' % (options_json, _text_json(r.result), error_json))
    if r.result == "not_a_win":
        parts.append(b',"failed_conditions":%b' % (
            _dumped([{"id": c.id, "message": _name(c.message, "en")} for c in r.failed]),))
    if hand is not None:
        names = r.wait_names()  # tiles' names: nothing to escape
        parts.append(b',"waits":["%b"]' % ('","'.join(names).encode(),) if names else b',"waits":[]')
    if r.result == "waiting":
        from .waiting import shanten_of

        parts.append(b',"shanten":%b,"wait_scores":%b' % (_dumped(shanten_of(r)),
                                                            _dumped([_wait_json(w) for w in r.wait_scores])))
    if r.ignored_flags:
        parts.append(b',"ignored_flags":%b' % (_dumped(r.ignored_flags),))
    if r.warnings:
        parts.append(b',"warnings":%b' % (_dumped(r.warnings),))
    best = r.best
    if best is not None and seen is not None:
        c, s = best.candidate, best.settlement
        groups = []
        for g in c.reading.groups:
            group_json = _GROUP_JSON.get(id(g))
            if group_json is not None and group_json[0] is g:  # (one type of tuple: read in place, compiled)
                groups.append(group_json[1])
            else:
                kept_group: tuple[Any, bytes] = (g, _kept_dump(g.text()))
                groups.append(remember(_GROUP_JSON, id(g), kept_group, 8192)[1])
        unit = seen.unit
        items = []
        for a in best.awards:
            item, value, count = a.item, a.value, a.count
            # By one integer of the item's identity, value and count, the entry telling a key met twice apart: a
            # tuple of the four built and hashed cost 850 instructions an item, this some 400.
            item_key = id(item) ^ value << 48 ^ count << 56
            held = _ITEM_JSON.get(item_key)
            if held is not None and held[0] is item and held[1] == value and held[2] == count and held[3] == unit:
                items.append(held[4])
            else:
                kept_item: tuple[Any, int, int, str, bytes] = (item, value, count, unit, _kept_dump(_item_json(a, unit)))
                items.append(remember(_ITEM_JSON, item_key, kept_item, 8192)[4])
        win = c.hand.win_tile
        parts.append(b',"reading":[%b],"winning_tile":%b,"wait":%b,"substitutions":%b,"items":[%b],"fan":%d' % (
            b",".join(groups), _text_json(T.name(win)) if win is not None else b"null", _opt_json(c.reading.wait),
            _dumped(c.subs) if c.subs else b"{}", b",".join(items), s.fan))
        fu = s.fu
        if fu is not None:
            fu_lines: list[Any] = s.fu_lines  # each as it is, not unpacked and packed again for the look-up
            breakdown = []
            for fu_line in fu_lines:
                fu_json = _FU_JSON.get(fu_line)
                if fu_json is None:
                    fu_json = remember(_FU_JSON, fu_line, _kept_dump({"reason": fu_line[0], "fu": fu_line[1]}), 1024)
                breakdown.append(fu_json)
            parts.append(b',"fu":%d,"fu_breakdown":[%b]' % (fu, b",".join(breakdown)))
        if s.limit is not None:
            parts.append(b',"limit":%b' % (_text_json(s.limit),))
        net = s.net
        parts.append(b',"payments":[%b],"kong_payments":%b,"net":{"E":%d,"S":%d,"W":%d,"N":%d},"points":%d,'
                     b'"notes":[%b]}' % (
                         b",".join([_payment_json(p) for p in s.payments]),
                         _dumped([k.to_json() for k in s.kong_payments]) if s.kong_payments else b"[]",
                         net["E"], net["S"], net["W"], net["N"], s.points,
                         b",".join([_text_json(note) for note in s.notes])))
    else:
        parts.append(b"}")
    return b"".join(parts)
