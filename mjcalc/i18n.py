"""Every user-facing text in English and Chinese: a GNU gettext message catalog, looked up at the edge.

The English text is the message id (gettext's own convention), so English needs no catalog at all: nothing is
read and nothing imported unless a text is rendered in another language. A translation lives in
``mjcalc/locale/<lang>.po`` (the source, edited by hand or with any .po editor); an
installed package carries the compiled ``<lang>.mo`` beside it (``setup.py`` writes it with ``write_mo``), and a
checkout without one reads the .po directly.

A text is marked where it is written, in one of three ways, which ``tests/test_i18n.py`` collects from the
source to check that every text has its translation and that no translation is left without its text:

- ``Msg("a fifth {tile}: there are only four of each tile", tile="1z")``: a text with parameters, made in the
  core (an error, a note). It *is* its English rendering (a ``str``: code that joins or compares texts keeps
  working, and JSON shows the English), and it remembers its id and parameters, so that the edge can render it
  again in the chosen language: ``localized(text, "zh")``. A parameter that is itself a Msg is rendered in the
  same language.
- ``tr("hand", lang)``: a fixed text rendered at once (labels of the table, headings).
- ``N_("…")``: a fixed text marked for the catalog and translated later (``tr(text, lang)`` of a variable), such
  as the help texts of the command line.

Texts that come with a ruleset (item names, win conditions' messages) stay in its YAML, in both languages:
``Msg.pair({"en": …, "zh": …})`` carries such a pair where a Msg is expected.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LANGS = ("en", "zh")


def N_(text: str) -> str:
    """Mark ``text`` for the catalog; it is translated where it is shown (``tr``)."""
    return text


class Msg(str):
    """A text with its message id and parameters; its ``str`` value is the English rendering."""

    template: str
    params: dict[str, Any]
    texts: dict[str, str] | None

    def __new__(cls, template: str, /, **params: Any) -> Msg:
        self = super().__new__(cls, template.format(**params) if params else template)
        self.template = template
        self.params = params
        self.texts = None
        return self

    @classmethod
    def pair(cls, texts: Mapping[str, str]) -> Msg:
        """A text given in each language by the data (a ruleset's YAML), not by the catalog."""
        english = texts.get("en") or next(iter(texts.values()), "")
        self = super().__new__(cls, english)
        self.template = english
        self.params = {}
        self.texts = dict(texts)
        return self

    def render(self, lang: str = "en") -> str:
        if lang == "en":
            return str.__str__(self)
        if self.texts is not None:
            return self.texts.get(lang) or str.__str__(self)
        template = translate(self.template, lang)
        if not self.params:
            return template
        values = {k: localized(v, lang) if isinstance(v, Msg) else v for k, v in self.params.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):  # a translation that names a parameter wrongly: the English
            return str.__str__(self)

    def __reduce__(self) -> tuple[Any, ...]:  # pickled to a batch's worker processes and back
        return (_rebuilt, (self.template, self.params, self.texts))


def _rebuilt(template: str, params: dict[str, Any], texts: dict[str, str] | None) -> Msg:
    return Msg.pair(texts) if texts is not None else Msg(template, **params)


def formatted(text: str, lang: str, /, **values: Any) -> str:
    """``text`` (a text of the catalog, in English) in ``lang``, filled in; English when the translation names a
    blank wrongly."""
    try:
        return tr(text, lang).format(**values)
    except (KeyError, IndexError, ValueError):
        return text.format(**values)


def name_in(names: Mapping[str, Any], lang: str) -> str:
    """A name of a names-by-language mapping (an item's, a ruleset's) in ``lang``, else in English."""
    return str(names.get(lang) or names.get("en", ""))


def localized(text: Any, lang: str) -> str:
    """``text`` in ``lang``: a Msg rendered again; any other text (a name, a tile) as it is."""
    if isinstance(text, Msg):
        return text.render(lang)
    return "" if text is None else str(text)


def tr(text: str, lang: str) -> str:
    """A fixed text of the catalog in ``lang`` (English: ``text`` itself)."""
    return text if lang == "en" else translate(text, lang)


# --- the catalog -----------------------------------------------------------------------------------------

_CATALOGS: dict[str, Any] = {}


def translate(msgid: str, lang: str) -> str:
    if lang == "en":
        return msgid
    catalog = _CATALOGS.get(lang)
    if catalog is None:
        catalog = _CATALOGS[lang] = _load(lang)
    return catalog.gettext(msgid)  # type: ignore[no-any-return]


def catalog_dir() -> str:
    import os

    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")


def _load(lang: str) -> Any:
    """The language's gettext translations: the installed .mo, else (a checkout) the .po compiled in memory."""
    import gettext
    import io
    import os

    po = os.path.join(catalog_dir(), lang + ".po")
    mo = os.path.join(catalog_dir(), lang + ".mo")
    try:
        if os.path.exists(mo):  # installed: built from the .po by setup.py (a checkout has none)
            with open(mo, "rb") as f:
                return gettext.GNUTranslations(f)
        with open(po, encoding="utf-8") as f:
            return gettext.GNUTranslations(io.BytesIO(write_mo(read_po(f.read()))))
    except (OSError, ValueError):
        return gettext.NullTranslations()  # no catalog: English, rather than no output


# --- .po in, .mo out (the subset of the formats mjcalc's catalog uses; stdlib only: setup.py runs it) -------


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str) -> str:
    """The text of one quoted .po string: ``"a \\"b\\"\\n"``."""
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"not a quoted string: {text!r}")
    body = text[1:-1]
    if "\\" not in body:
        return body
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body) and body[i + 1] in _ESCAPES:
            out.append(_ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def read_po(text: str) -> dict[str, str]:
    """msgid → msgstr of a .po file, the header (msgid "") included; an entry marked fuzzy or left
    untranslated is not a translation."""
    entries: dict[str, str] = {}
    msgid: list[str] | None = None
    msgstr: list[str] | None = None
    fuzzy = False
    current: list[str] | None = None

    def flush() -> None:
        nonlocal msgid, msgstr, fuzzy
        if msgid is not None and msgstr is not None:
            key, value = "".join(msgid), "".join(msgstr)
            if value and not (fuzzy and key):
                entries[key] = value
        msgid = msgstr = None
        fuzzy = False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if msgstr is not None:
                flush()
            if line.startswith("#,") and "fuzzy" in line:
                fuzzy = True
            continue
        if line.startswith("msgid "):
            flush()
            msgid, current = [_unquote(line[6:])], None
            current = msgid
        elif line.startswith("msgstr "):
            if msgid is None:
                raise ValueError(f"line {number}: msgstr without msgid")
            msgstr = [_unquote(line[7:])]
            current = msgstr
        elif line.startswith('"') and current is not None:
            current.append(_unquote(line))
        else:
            raise ValueError(f"line {number}: cannot read {raw!r}")
    flush()
    return entries


def write_mo(entries: Mapping[str, str]) -> bytes:
    """The GNU .mo file of ``entries`` (little-endian, no hash table), as msgfmt writes it."""
    import struct

    keys = sorted(entries)
    ids = [k.encode("utf-8") for k in keys]
    strs = [entries[k].encode("utf-8") for k in keys]
    count = len(keys)
    start = 7 * 4 + 16 * count  # the header, then the two tables of (length, offset)
    offsets: list[int] = []
    blob = b""
    for data in ids + strs:
        offsets.extend((len(data), start + len(blob)))
        blob += data + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, count, 7 * 4, 7 * 4 + 8 * count, 0, 0)
    return header + struct.pack(f"<{4 * count}I", *offsets) + blob
