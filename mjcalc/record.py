"""The JSON record of a Result (docs/OUTPUT.md), and the bytes of one line of JSON a batch writes for it.

Compiled (setup.py COMPILED): a batch builds one record a line. ``to_json`` gives the object (``score --json``,
the Python and web APIs); ``record_bytes`` the compact line a batch writes, made from the same object, where the
parts that come back line after line (the options, an item, the fu breakdown, a group's text) are each serialized
once and kept (bounded): with orjson as ``orjson.Fragment`` (its bytes copied as they are), without it as the
shared object the standard library writes again. Either way the bytes are those of ``json_line`` on
``to_json``'s object (tests/test_batch.py).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from . import tiles as T
from .engine import Result
from .i18n import localized, tr
from .memo import remember
from .settlement import Award

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
    if _orjson is not None and _orjson_fragment is not None:
        try:
            return bytes(_orjson.dumps(_record(r, "en", _FRAGMENTS)))
        except (TypeError, ValueError):  # refused (a lone surrogate …): the standard library writes it
            return json_bytes(_record(r, "en", None))
    return json_bytes(_record(r, "en", _SHARED if _orjson is None else None))


def to_json(r: Result, lang: str = "en") -> dict[str, Any]:
    """The object of docs/OUTPUT.md: keys may be added, never renamed or dropped."""
    return _record(r, lang, None)


def _name(names: Mapping[str, Any], lang: str) -> str:
    return str(names.get(lang) or names.get("en", ""))


# --- parts kept once serialized ------------------------------------------------------------------------------

_orjson_fragment: Any = getattr(_orjson, "Fragment", None)  # orjson 3.9: bytes written into a document as they are


class _Kept:
    """Parts of records, each kept by a key once made: as orjson Fragments, or as the objects themselves (shared
    by the records that have them, which are written at once and never changed). Bounded."""

    def __init__(self, fragments: bool) -> None:
        self.fragments = fragments
        self.memo: dict[Any, Any] = {}
        # The options of the last record and their kept form: the lines of a file share one options mapping
        # (engine._option_values), never changed once made, so most records find theirs without a key built.
        self.last_options: Any = None
        self.last_kept: Any = None
        # An award's item by the item itself (its identity, with the item kept beside its form to tell a reused
        # identity apart), its value, count and unit: an item is rule data, read from Python attributes, and the
        # key of its content (id, names, applies_to) cost more to build and compare than the item's JSON.
        self.items: dict[tuple[int, int, int, str], tuple[Any, Any]] = {}

    def keep(self, key: Any, value: Any) -> Any:
        """``value`` kept for ``key``, in the form records hold it."""
        return remember(self.memo, key, _orjson_fragment(_orjson.dumps(value)) if self.fragments else value, 8192)


_FRAGMENTS: Final = _Kept(True)
_SHARED: Final = _Kept(False)
# The text of each group of a reading met so far (Group.text): groups are values, the concealed ones interned.
_GROUP_TEXT: Final[dict[Any, str]] = {}


def _item_json(a: Award, unit: str) -> dict[str, Any]:
    return {"id": a.item.id, "name": {"zh": a.item.names.get("zh"), "en": a.item.names.get("en")},
            "value": a.value, "count": a.count, "unit": unit, "applies_to": a.item.applies_to}


def _record(r: Result, lang: str, kept: _Kept | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if r.line is not None:
        out["line"] = r.line
    out["input"] = r.input
    rules = r.ruleset
    out["ruleset"] = rules.id if rules is not None else None
    out["hand"] = r.hand.text() if r.hand is not None else None
    ctx = r.ctx
    if ctx is None:
        out["context"] = None
    else:  # not kept: contexts seldom come back (riichi situations: 15,000 different in 20,000 lines)
        out["context"] = ctx.to_json()
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
        out["waits"] = [T.name(t) for t in r.waits]
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
                text = _GROUP_TEXT.get(g)
                texts.append(remember(_GROUP_TEXT, g, g.text(), 8192) if text is None else text)
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
                    held = remember(kept.items, item_key, (item, _orjson_fragment(_orjson.dumps(value))
                                                           if kept.fragments else value), 8192)
                items.append(held[1])
            out["items"] = items
        out["fan"] = s.fan
        if s.fu is not None:
            out["fu"] = s.fu
            if kept is None:
                out["fu_breakdown"] = _fu_json(s.fu_lines, lang)
            else:
                key = ("fu", tuple(s.fu_lines))
                found = kept.memo.get(key)
                out["fu_breakdown"] = kept.keep(key, _fu_json(s.fu_lines, "en")) if found is None else found
        if s.limit is not None:
            out["limit"] = s.limit
        out["payments"] = [p.to_json() for p in s.payments]
        if lang != "en":  # the texts in the chosen language (docs/OUTPUT.md): formula, notes, warnings
            for shown, p in zip(out["payments"], s.payments, strict=True):
                shown["formula"] = localized(p.formula, lang)
        out["kong_payments"] = [k.to_json() for k in s.kong_payments]
        out["net"] = s.net
        out["points"] = s.points
        out["notes"] = s.notes if lang == "en" else [localized(n, lang) for n in s.notes]
    return out


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
