"""The bytes of one line of JSON Lines a batch writes for a Result: ``record_bytes``, the same bytes as
``json_line`` of ``to_json``'s object (tests/test_batch.py). With orjson the line is formatted as bytes from the
JSON of its members (``_line``), without the object made for orjson to write: the parts that come back line after
line (the options, an item, a line of the fu breakdown, a seat, a formula, a context's member, a group's text)
each written once and kept (bounded), numbers as they are, the rest (the input, an error) written by orjson.
Without orjson the line is written from ``to_json``'s object (output/record.py)."""

from __future__ import annotations

import json
from typing import Any, Final

from ..core import tiles as T
from ..core.context import _CONTEXT_FIELDS, DEFAULT, Context, _json_value
from ..core.result import Result
from ..core.settlement.payments import Payment
from ..engine import ruleset_fields, shanten_of
from ..i18n import name_in
from ..support.memo import remember
from .record import _SHARED, _item_json, _payment_key, _wait_json, record_of

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
            return json_bytes(record_of(r, "en", None))
    return json_bytes(record_of(r, "en", _SHARED))


def encode_jsonl(record: Any, res: Result | None) -> bytes:
    """A batch record's line of JSON as the UTF-8 bytes written (batch.writers.ENCODERS: ``record_bytes``,
    orjson's bytes as they are): the record (``batch.lines.Record``) of a skipped line when ``res`` is None. U+0085,
    U+2028 and U+2029, valid in JSON raw but a line break to many readers, written as escapes. Here, compiled, and
    not in batch/: a batch calls it for every line."""
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
    bytes``: one memchr each, called through the type's slot, where ``find`` is a method call): U+2028 and U+2029
    need 0x80 and 0xa8 or 0xa9, U+0085 needs 0xc2 and 0x85. Nine records in ten hold none of those pairs (a Chinese
    name holds some of the bytes); the others are searched by the lead bytes, one byte a search (memchr, faster than
    a search for the three sequences): a record holds few such bytes (``→`` is one), none at all of the first."""
    if not (0x80 in data and (0xa8 in data or 0xa9 in data)) and not (0xc2 in data and 0x85 in data):
        return False
    at = data.find(b"\xe2")
    while at >= 0:
        if data[at + 1:at + 3] in (b"\x80\xa8", b"\x80\xa9"):
            return True
        at = data.find(b"\xe2", at + 1)
    return data.find(b"\xc2") >= 0 and b"\xc2\x85" in data


# The JSON of a short text that comes back line after line (a seat, a ruleset's id, a tile's name, a wait, a
# limit, a note, a formula), kept (bounded).
_TEXT_JSON: Final[dict[str, bytes]] = {}


def _text_json(text: str) -> bytes:
    found = _TEXT_JSON.get(text)
    return remember(_TEXT_JSON, text, bytes(memoryview(_orjson.dumps(text))), 8192) if found is None else found


def _payment_json(p: Payment) -> bytes:
    """``p.to_json()`` as orjson writes it. The usual payment (nothing capped, no share, no items of its own)
    written from the kept JSON of its seats and formula, its numbers as they are: most payments are met once, so
    a memo by all the payment's fields rarely hits."""
    if p.capped_from is None and p.on_behalf_of is None and not p.extras and not p.liable_for:
        return (b'{"payer":%b,"payee":%b,"fan":%d,"amount":%d,"capped_from":null,"formula":%b,"on_behalf_of":null,'
                b'"payer_items":[],"liable_for":[]}' % (_text_json(p.payer), _text_json(p.payee), p.fan, p.amount,
                                                        _text_json(p.formula)))
    key = _payment_key(p)
    found = _PAYMENT_JSON.get(key)
    return remember(_PAYMENT_JSON, key, _kept_dump(p.to_json()), 8192) if found is None else found


# Each field of a context by name, but the first four: its place among the pieces of ``Context.to_json``'s object
# (``_context_members``), and its texts as a member of that object by value, each beside its value (``True == 1``: a
# member is used for a value of the same type). A member's JSON is written as it is joined (``_placed``: ``{"seat":"E"``
# first, ``,"round":"E"`` after), and the object's closing brace is a last piece of its own, so that the object is one
# formatting of its pieces (``_context_json``: a brace added to each end would copy it twice more). Both made on first
# use, and again when a family has declared flags since (``_context_tables``).
_CONTEXT_MEMBERS: Final[dict[str, tuple[int, dict[Any, tuple[Any, bytes]]]]] = {}
_CONTEXT_DEFAULTS: Final[list[bytes]] = []


def _context_tables() -> None:
    """_CONTEXT_MEMBERS and _CONTEXT_DEFAULTS of the context's fields as they are now."""
    _CONTEXT_MEMBERS.clear()
    _CONTEXT_MEMBERS.update({name: (i - 3, {}) for i, name in enumerate(_CONTEXT_FIELDS) if i >= 4})
    _CONTEXT_DEFAULTS[:] = [b"", *[_placed(at, name, DEFAULT.get(name)) for at, name in enumerate(_CONTEXT_FIELDS)
                                   if at >= 4], b"}"]  # (the first four fields' piece first, the brace last)


# The first four fields (seat, round, zimo, discarder), set on nearly every line, as one piece, by their values: one
# look-up for the four, where each field's member took two.
_CONTEXT_HEADS: Final[dict[tuple[str, str, bool, str | None], bytes]] = {}


def _placed(at: int, name: str, value: Any) -> bytes:
    """The text of field ``name`` (at ``at`` in the object) as a member, as ``_context_members`` gives it."""
    member = bytes(_orjson.dumps({"from" if name == "discarder" else name: _json_value(name, value)}))[1:-1]
    return (b"{" if at == 0 else b",") + member


def _context_members(ctx: Context) -> list[bytes]:
    """The pieces that joined are ``ctx.to_json()`` as orjson writes it, from the kept members of its fields: for
    a fraction of the work (a context has 29 fields, nearly all at their defaults). The first four are one piece."""
    if len(_CONTEXT_DEFAULTS) != len(_CONTEXT_FIELDS) - 2:  # the first four as one, the others, the brace
        _context_tables()
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
    (bytes formatting, compiled), cheaper than a join, which gets and releases a buffer a piece."""
    m = _context_members(ctx)
    if len(m) != 27:  # (the first four fields, the other 25 and the brace)
        return b"".join(m)
    return (b"%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b%b" % (
            m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13],
            m[14], m[15], m[16], m[17], m[18], m[19], m[20], m[21], m[22], m[23], m[24], m[25], m[26]))


def _line(r: Result) -> bytes:
    """``json_bytes(to_json(r))``, formatted from the JSON of its members (those that come back kept), without the
    record's object made for orjson to write. Bytes formatting (``b"…%b…%d" % (…)``), compiled, is one copy
    of its pieces, numbers written in place; a join is dearer by the piece (its pieces' buffers) and text dearer
    still (a line holding Chinese names is joined and encoded by the character)."""
    line = r.line
    rules = r.ruleset
    hand = r.hand
    ctx = r.ctx
    fields = ruleset_fields(rules) if rules is not None else None  # a Python-level Ruleset's fields, read once
    rules_json = _text_json(fields.id) if fields is not None else b"null"
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
            _dumped([{"id": c.id, "message": name_in(c.message, "en")} for c in r.failed]),))
    if hand is not None:
        names = r.wait_names()  # tiles' names: nothing to escape
        parts.append(b',"waits":["%b"]' % ('","'.join(names).encode(),) if names else b',"waits":[]')
    if r.result == "waiting":
        parts.append(b',"shanten":%b,"wait_scores":%b' % (_dumped(shanten_of(r)),
                                                            _dumped([_wait_json(w) for w in r.wait_scores])))
    if r.ignored_flags:
        parts.append(b',"ignored_flags":%b' % (_dumped(r.ignored_flags),))
    if r.warnings:
        parts.append(b',"warnings":%b' % (_dumped(r.warnings),))
    best = r.best
    if best is not None and fields is not None:
        c, s = best.candidate, best.settlement
        groups = []
        for g in c.reading.groups:
            group_json = _GROUP_JSON.get(id(g))
            if group_json is not None and group_json[0] is g:  # (one type of tuple: read in place, compiled)
                groups.append(group_json[1])
            else:
                kept_group: tuple[Any, bytes] = (g, _kept_dump(g.text()))
                groups.append(remember(_GROUP_JSON, id(g), kept_group, 8192)[1])
        unit = fields.unit
        items = []
        for a in best.awards:
            item, value, count = a.item, a.value, a.count
            # By one integer of the item's identity, value and count, the entry telling a key met twice apart: a
            # tuple of the four built and hashed costs more.
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
