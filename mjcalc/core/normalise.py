"""Text as typed → the text the notation reads, and text as the terminal may show it.

``normalise`` runs before a line is read (``notation.parse_line``) and on a flag value given as a command-line
option. An ASCII line, the usual one, is returned as it is. Otherwise each character is replaced by its
Unicode compatibility form (NFKC) where that form is one character: the full-width ``１２３ｍ`` an input method
types becomes ``123m``, ``＋`` ``＝`` ``，`` ``［］（）｛｝`` and the ideographic space become ``+ = , [ ] ( ) { }`` and
a space, mathematical digits become digits. Superscripts, subscripts, circled forms, fractions and squared
forms are not read as what they decompose to (``²`` is no 2 a player typed), and no character becomes more
than one: so a column of the normalised line is the column of the line as typed, and a caret lands under
what the user wrote. The suits as Chinese players write them after a tile's digits become the letters, one
character for one as well: ``万 萬`` m, ``筒 饼 餅`` p, ``条 條 索`` s, and ``字`` or ``东 東`` z for the honors by
number (``123万`` is ``123m``, ``11东`` is ``11z``: a pair of 东); without digits before them the suit characters
stay, for the grammar to refuse at their column, and ``东`` is the tile 东.

What is left that the notation cannot read is refused here when no grammar rule could explain it better:
a digit of another script (``١``, ``३``: ``str.isdigit()`` is true for them and ``int()`` reads them, the
notation reads 0-9 only), a superscript or circled digit, and a byte that was not UTF-8 text (a lone
surrogate, as ``surrogateescape`` decodes it). Anything else unknown is the grammar's "unexpected" error.

>>> normalise("１２３ｍ４５６ｐ　＋ｚｉｍｏ")
'123m456p +zimo'
>>> normalise("123万456筒789条 +win=3萬")
'123m456p789s +win=3m'
>>> normalise("123万456筒789条11东 东")
'123m456p789s11z 东'
"""

from __future__ import annotations

import unicodedata
from typing import Final

from ..errors import MjcalcError
from ..i18n import Msg
from ..support.memo import remember

# Compatibility forms that are not read as the characters they decompose to.
_NOT_READ_AS: Final = frozenset(("<super>", "<sub>", "<circle>", "<fraction>", "<square>"))
# The Chinese suit characters, read as the suit letter after a digit (and only there: ``万`` alone is no tile).
SUIT_CHARS: Final = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s", "索": "s",
                     "字": "z", "东": "z", "東": "z"}
# What each non-ASCII character met so far normalises to (itself when nothing), and why it cannot be read (None
# when it can): a batch meets the same few. Bounded: a batch's memory must not grow with the file.
_FOUND: Final[dict[str, tuple[str, str | None]]] = {}


def normalise(text: str) -> str:
    """The line the notation reads (see the module's docstring); the same length as ``text``. Raises
    MjcalcError("notation") at the column of a character no rule of the notation can read as the user meant."""
    if text.isascii():
        return text
    chars = list(text)
    for i, ch in enumerate(chars):
        if ch >= "\x80":
            found = _FOUND.get(ch)
            if found is None:
                found = remember(_FOUND, ch, _form_and_problem(ch), 4096)
            form, problem = found
            if problem is not None:
                raise MjcalcError("notation", problem, i + 1)
            if form in SUIT_CHARS and i and "0" <= chars[i - 1] <= "9":  # the digit before is normalised already
                form = SUIT_CHARS[form]
            chars[i] = form
    return "".join(chars)


def _form_and_problem(ch: str) -> tuple[str, str | None]:
    form = _form(ch)
    return form, None if form.isascii() else _problem(form)


def _form(ch: str) -> str:
    """The one character ``ch`` stands for, or ``ch``."""
    if "\ud800" <= ch <= "\udfff":
        return ch
    form = unicodedata.normalize("NFKC", ch)
    if len(form) != 1 or form == ch:
        return ch
    if unicodedata.decomposition(ch).split(" ", 1)[0] in _NOT_READ_AS:
        return ch
    return form


def _problem(ch: str) -> str | None:
    """Why a non-ASCII character (after normalisation) cannot be read, when it is a digit or not text at all."""
    if "\udc80" <= ch <= "\udcff":  # surrogateescape's form of an undecodable byte
        return Msg("this is not UTF-8 text: the byte 0x{byte:02X} cannot be read (save the file as UTF-8)",
                   byte=ord(ch) - 0xDC00)
    if "\ud800" <= ch <= "\udfff":
        return Msg("this is not text: a lone surrogate U+{code:04X}", code=ord(ch))
    value = unicodedata.digit(ch, None)
    if value is None and unicodedata.category(ch) != "Nd":
        return None
    name = unicodedata.name(ch, f"U+{ord(ch):04X}").lower()
    written = Msg("write {value}", value=value) if value is not None else Msg("write the digits 0-9")
    return Msg("'{char}' ({name}) is not a digit the notation reads: {written}", char=ch, name=name, written=written)
