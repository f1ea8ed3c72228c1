"""The text and the JSON of ``mjcalc rules list`` and ``rules show``: a ruleset's every item, condition and option.
Apart from ``table`` (a hand's table), which every ``score`` imports: read only when a ruleset is shown."""

from __future__ import annotations

from typing import Any

from ..core import tiles as T
from ..core.facts import describe
from ..core.model import Ruleset
from ..i18n import N_, localized, name_in, tr
from ..registry import KONG_FINDERS, PREDICATES
from ..ruleset.loader import decisions_of
from ..support.docs import doc_of
from .fit import _widest, cols, wrap
from .table import _option_text, _scope, unit_of, words
from .table_lib import tabulate


def rules_list(rulesets: list[Ruleset], lang: str = "en", width: int | None = None) -> str:
    """The built-in rulesets, a table; given a ``width`` it does not fit, a ruleset a few lines: its id and Chinese
    name, then its English name, unit and number of items."""
    rows = [[r.id, r.names.get("zh"), r.names.get("en"), unit_of(r, lang), len(r.items)] for r in rulesets]
    table = tabulate(rows, headers=["id", "名称", words(lang)["name"], tr("unit", lang), tr("items", lang)],
                     tablefmt="simple")
    if width is None or _widest(table) <= width:
        return table
    lines = []
    for rid, zh, en, unit, count in rows:
        counted = tr("{count} item" if count == 1 else "{count} items", lang).format(count=count)
        lines.extend(wrap(f"{rid}  {zh}", width, 2))
        if cols(f"  {en} · {unit} · {counted}") <= width:
            lines.append(f"  {en} · {unit} · {counted}")
        else:  # the name on a line of its own, the unit and count kept together under it
            lines.extend([*wrap(f"  {en}", width, 2), f"  {unit} · {counted}"])
    return "\n".join(lines)


def ruleset_json(r: Ruleset) -> dict[str, Any]:
    def doc(text: str) -> str:
        name = text.split("(")[0].strip()
        fn = PREDICATES.get(name)
        text = doc_of(fn).strip()  # also when the predicates are compiled (mypyc drops docstrings)
        return text.splitlines()[0] if text else ""

    return {
        "id": r.id, "names": r.names, "description": r.description, "descriptions": _by_lang(r.description),
        "source": r.source, "unit": r.unit,
        "file": r.path, "decisions": decisions_of(r),
        "hand": {"sets": r.tile_rules.sets, "forms": [f.name for f in r.forms], "wildcard": r.wildcard,
                 "red_fives": r.tile_rules.red_fives, "flowers": r.tile_rules.flowers},
        "flags": sorted(r.flags),
        "options": {k: {"type": o.type, "default": o.default, "choices": list(o.choices) or None, "doc": o.doc,
                        "docs": _by_lang(o.doc), "game": o.game} for k, o in r.options.items()},
        "win_conditions": [{"id": c.id, "names": c.names, "when": c.when_text, "message": c.message}
                           for c in r.conditions],
        "items": [{"id": i.id, "names": i.names, "value": i.value, "applies_to": i.applies_to, "when": i.when_text,
                   "predicate": doc(i.when_text),
                   "excludes": list(i.excludes) + [f"{n} of {rid}" for rid, n in i.reduces],
                   "excludes_all_but": list(i.spares), "immediate": i.immediate, "enabled_by": i.enabled, "doc": i.doc,
                   "gate": describe(i.gate), "liable": i.liable, "liable_by": i.liable_option}
                  for i in r.items],
        "special_kongs": [{"id": d.id, "names": d.names, "core": T.format_tiles(d.core),
                           "extra_from": T.format_tiles(d.extra_from), "last_set": d.last_set,
                           "points": r.special_kong_points[d.id].__dict__} for d in r.tile_rules.special_kongs],
        "kongs": [{"id": k.id, "names": k.names, "points": k.points, "big_tiles": T.format_tiles(k.tiles) or None,
                   "exposed": k.exposed or None, "concealed": k.concealed or None, "wildcard": k.wildcard,
                   "found_by": k.found_by, "found_doc": _finder_doc(k.found_by)} for k in r.kongs.values()],
        "formula": r.formula, "payments": r.payments,
    }


def _by_lang(text: str) -> dict[str, str]:
    """A text of the ruleset in each language its file gives it (``{en: …, zh: …}``: a Msg.pair), else the one
    text it has, as English."""
    texts = getattr(text, "texts", None)
    return dict(texts) if texts else {"en": str(text)}


def _finder_doc(name: str | None) -> str | None:
    fn = KONG_FINDERS.get(name or "")

    return " ".join(doc_of(fn).split()) if fn else None


def _kong_points_text(k: dict[str, Any], lang: str = "en") -> str:
    if k["wildcard"]:
        return tr("a concealed kong of four wildcards: {points} (instead of 暗杠)", lang).format(points=k["concealed"])
    if k["big_tiles"]:
        return tr("{tiles}: exposed {exposed}, concealed {concealed}", lang).format(
            tiles=k["big_tiles"], exposed=k["exposed"], concealed=k["concealed"])
    if k["found_by"]:
        return f"{k['points']} — {k['found_doc']}"
    return str(k["points"])


def _value_text(value: Any, lang: str = "en") -> str:
    """A value of the ruleset's data as a reader writes it: ``option base``, on / off, none, ``1, 2``."""
    if isinstance(value, dict) and "option" in value:
        shown = tr("option {option}", lang).format(option=value["option"])
        if isinstance(value.get("values"), dict):
            shown += " (" + ", ".join(f"{_option_text(k)}: {_value_text(v, lang)}"
                                      for k, v in value["values"].items()) + ")"
        return shown
    if isinstance(value, dict):
        return ", ".join(f"{tr(k, lang) if k in _VALUE_KEYS else k} {_value_text(v, lang)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_value_text(v, lang) for v in value)
    return _option_text(value)


_VALUE_KEYS = {N_("closed"), N_("open")}  # an item's value by whether the hand is closed


RULES_WIDTH = 120  # rules show on a pipe: the tables wrapped at this width


def _reference_table(rows: list[list[Any]], headers: list[str], width: int) -> str:
    """A table whose last column wraps to fit ``width``; when the other columns leave it too little room, each
    row as a line of its first columns and the last one wrapped under it."""
    rows = [["" if x is None else str(x) for x in row] for row in rows]
    others = [max(cols(x) for x in [h, *(row[i] for row in rows)]) for i, h in enumerate(headers[:-1])]
    room = width - sum(others) - 2 * len(others) - 2  # tabulate's two spaces between columns, and a margin
    if room >= 24:
        table = tabulate(rows, headers=headers, tablefmt="simple", maxcolwidths=[*[None] * len(others), room])
        if _widest(table) <= width:
            return table
    out = wrap(" · ".join(headers), width, 4)
    for row in rows:
        out.extend(wrap("  ".join(x for x in row[:-1] if x), width, 4))
        out.extend(wrap("    " + row[-1], width, 4))
    return "\n".join(out)


def ruleset_text(r: Ruleset, lang: str = "en", width: int | None = None) -> str:
    """Every option, win condition, item and kong of a ruleset, from the data that scores, fitted to ``width``
    (a pipe: ``RULES_WIDTH``)."""
    data = ruleset_json(r)
    fit = width or RULES_WIDTH
    unit = unit_of(r, lang)
    lines = [*wrap(f"{r.names.get('zh')} {r.names.get('en')} ({r.id})", fit, 2), *wrap(localized(r.description, lang), fit),
             *wrap(tr("source: {source}", lang).format(source=r.source), fit, 2),
             *wrap(tr("file: {path}", lang).format(path=r.path), fit, 2)]
    if data["decisions"]:
        lines.extend(wrap(tr("decisions: {path}", lang).format(path=data["decisions"]), fit, 2))
    lines.append("")
    lines.extend(wrap(tr("hand: {sets} sets + a pair; forms: {forms}; wildcard: {wildcard}", lang).format(
        sets=r.tile_rules.sets, forms=", ".join(data["hand"]["forms"]), wildcard=r.wildcard), fit, 2))
    lines.extend(wrap(tr("flags read: {flags} (docs/NOTATION.md)", lang).format(
        flags=" ".join("+" + f for f in data["flags"])), fit, 2))
    lines.append("")
    lines.extend(wrap(tr("OPTIONS (house rules: --set NAME=VALUE, or a ruleset file that extends this one)", lang),
                      fit, 2))
    lines.append(_reference_table([[k, o["type"] if not o["choices"] else " | ".join(o["choices"]),
                                    _option_text(o["default"]), localized(o["doc"], lang)]
                                   for k, o in data["options"].items()],
                                  [tr("option", lang), tr("type", lang), tr("default", lang), tr("meaning", lang)],
                                  fit))
    lines.append("")
    lines.append(tr("WIN CONDITIONS (all must hold)", lang))
    lines.append(_reference_table([[c["id"], c["names"].get("zh"), name_in(c["message"], lang)]
                                   for c in data["win_conditions"]], ["id", "名称", tr("meaning", lang)], fit))
    lines.append("")
    lines.append(tr("ITEMS ({unit})", lang).format(unit=unit))
    rows = []
    for item, i in zip(r.items, data["items"], strict=True):
        extra = []
        if i["immediate"]:
            extra.append(tr("a win whatever the tiles", lang))
        if i["excludes_all_but"]:
            extra.append(tr("excludes every other item but {items}", lang).format(items=", ".join(i["excludes_all_but"])))
        elif i["excludes"]:
            extra.append(tr("excludes {items}", lang).format(items=", ".join(i["excludes"])))
        if i["enabled_by"]:
            extra.append(tr("only with option {option}", lang).format(option=i["enabled_by"]))
        if i["liable_by"]:
            extra.append(tr("+pao: a player can be liable for it, with option {option}", lang).format(
                option=i["liable_by"]))
        elif i["liable"]:
            extra.append(tr("+pao: a player can be liable for it", lang))
        if i["gate"]:
            extra.append(describe(item.gate, lang))  # asked only when the hand's facts meet it
        rows.append([i["id"], i["names"].get("zh"), i["names"].get("en"), _value_text(i["value"], lang),
                     _scope(i["applies_to"], lang), " ".join([localized(i["doc"], lang) or i["predicate"], *(f"[{e}]" for e in extra)])])
    w = words(lang)
    lines.append(_reference_table(rows, ["id", "名称", w["name"], unit, w["applies"], tr("when", lang)], fit))
    if data["special_kongs"] or data["kongs"]:
        lines.append("")
        lines.extend(wrap(tr("KONG POINTS (× base, paid by each of the other three; apart from the hand)", lang), fit, 2))
        krows = [[k["id"], k["names"].get("zh"), _kong_points_text(k, lang)] for k in data["kongs"]]
        for sk in data["special_kongs"]:
            p = sk["points"]
            value = (tr("{points} a tile", lang).format(points=p["per_tile"]) if p["per_tile"]
                     else tr("{points} + {extra} per extra tile", lang).format(points=p["points"],
                                                                             extra=p["extra_points"]))
            if sk["extra_from"] != sk["core"]:
                value += tr(" (extra tiles: any of {tiles})", lang).format(tiles=sk["extra_from"])
            if sk["last_set"]:
                value += tr("; also when the winning tile completes it in hand (叫胡)", lang)
            krows.append([sk["id"], sk["names"].get("zh"), f"{{{sk['core']}}}: {value}"])
        lines.append(_reference_table(krows, [tr("kong", lang), "名称", tr("points", lang)], fit))
    lines.append("")
    f = r.formula
    lines.extend(wrap(tr("FORMULA: {kind}", lang).format(kind=f.get("kind"))
                      + "".join(f" · {k} {_value_text(v, lang)}" for k, v in f.items() if k != "kind"), fit, 4))
    if r.payments:
        lines.extend(wrap(tr("PAYMENTS: {payments}", lang).format(
            payments=" · ".join(f"{k} {_value_text(v, lang)}" for k, v in r.payments.items())), fit, 4))
    return "\n".join(lines)
