"""The Python API: the objects of the command line's JSON output (docs/OUTPUT.md), as dicts, for scripts and
notebooks. What is here is stable (the README's "Python" section says what may change); everything else in
the package is internal.

>>> import mjcalc
>>> r = mjcalc.score("123m456p789s111z22z +zimo +seat=E")
>>> r["result"], r["ruleset"], r["points"]
('win', 'changchun', 48)
>>> [row["result"] for row in mjcalc.score_many(["123m456p789s111z22z +zimo +seat=E", "123m", "# a comment"])]
['win', 'error', 'skipped']

Nothing heavy is imported with the package: each function imports the engine when first called.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from .errors import MjcalcError, RulesetError

if TYPE_CHECKING:
    from .batch.lines import Record

__all__ = ["MjcalcError", "RulesetError", "check", "rulesets", "score", "score_many", "waits"]

Options = Mapping[str, "str | int | bool | None"]


def _checked_lang(lang: str) -> str:
    if lang not in ("en", "zh"):
        raise ValueError(f"lang is 'en' or 'zh', not {lang!r}")
    return lang


def _line(line: object) -> str:
    if not isinstance(line, str):
        raise TypeError(f"a hand is a line of notation (str), not {type(line).__name__}")
    return line


def score(line: str, rules: str | None = None, options: Options | None = None, lang: str = "en", *,
          builtin_only: bool = False) -> dict[str, Any]:
    """Score one line of notation: the object ``mjcalc score --json`` prints (docs/OUTPUT.md).

    ``rules`` is a built-in ruleset's name or a path to a ruleset file (default: changchun; the user's config
    file and ``MJCALC_RULES`` are not read), ``options`` what ``--set`` gives (``{"cap": 500}``), ``lang`` the
    language of messages (``en`` or ``zh``). A line that cannot be read never raises: its object has
    ``"result": "error"`` and the ``error``. ``builtin_only``: no ruleset file is read, neither ``rules`` nor
    one a line names with ``+rules=`` (for lines from someone else: a server); naming one is an error.

    >>> r = score("123m456p789s111z22z +zimo +seat=E")
    >>> r["fan"], r["net"]
    (5, {'E': 48, 'S': -16, 'W': -16, 'N': -16})
    >>> score("123m456p789s111z22", rules="riichi")["error"]["kind"]
    'notation'
    >>> score("123m456p789s111z22z", options={"nosuch": 1})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjcalc.errors.RulesetError: options: 'nosuch' is not an option of changchun; options: ...
    >>> score("123m456p789s111z22z +rules=house.yaml", builtin_only=True)["error"]["column"]
    21
    """
    from .engine import checked_request, score_line
    from .output.record import to_json

    chosen = _checked_lang(lang)
    return to_json(score_line(_line(line), checked_request(rules, options, builtin_only)), chosen)


def _record(n: int, item: object) -> Record:
    """One item given to score_many as the record ``batch`` reads: a str as a line of a text file (a comment or
    a blank line is a skipped record), a mapping as a JSON Lines / YAML record."""
    from .batch.lines import Line, read_lines
    from .batch.readers import _from_mapping, _guarded

    if isinstance(item, str):
        return next(read_lines(iter([Line(n, item)]), 1))
    return _guarded(n, str(item)[:200], lambda: _from_mapping(n, item, str(item)[:200]))


def score_many(records: Iterable[str | Mapping[str, Any]], rules: str | None = None, options: Options | None = None,
               jobs: int = 1) -> Iterator[dict[str, Any]]:
    """Score records as ``mjcalc batch --format jsonl`` does: one object per record, in order, as they are
    scored (an iterator: records are read as they are needed, so a generator of any length is fine).

    A record is a line of notation (``"HAND +flags"``; a blank or ``#`` line gives a ``"skipped"`` object) or a
    mapping as a JSON Lines record (``{"hand": "...", "rules": "riichi", "set": {...}, "zimo": True}``). Each
    object carries ``line``: the record's position, from 1. A record that cannot be read or scored is an
    error object, never an exception. ``jobs`` > 1 scores on that many processes (order is kept).

    >>> rows = list(score_many([{"hand": "123m456p789s111z22z", "zimo": True, "seat": "E"}, {"hand": 5}]))
    >>> [(r["line"], r["result"], r.get("points")) for r in rows]
    [(1, 'win', 48), (2, 'error', None)]
    >>> rows[1]["error"]["message"]
    "'hand' must be a string, not int"
    """
    from .batch.run import scored
    from .batch.writers import render_jsonl
    from .engine import checked_request

    if isinstance(records, (str, Mapping)):
        raise TypeError("records is an iterable of lines or mappings: for one line, call score()")
    if not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs is a whole number from 1, not {jobs!r}")
    request = checked_request(rules, options)

    def read() -> Iterator[Record]:
        for n, item in enumerate(records, 1):
            yield _record(n, item)

    return (json.loads(text) for _, _, text in scored(read(), request, render_jsonl, jobs))


def waits(line: str, rules: str | None = None, options: Options | None = None, *, builtin_only: bool = False
          ) -> dict[str, Any]:
    """What a hand one tile short waits on: the object ``mjcalc waits --json`` prints (each waiting tile, how
    many are unseen, what it scores self-drawn and on a discard; else the shanten). ``builtin_only`` as for
    score().

    >>> w = waits("123m456p789s111z2z")
    >>> w["result"], [t["tile"] for t in w["waits"]]
    ('waiting', ['2z'])
    """
    from .engine import analyse, checked_request
    from .output.waits import report_json

    return report_json(analyse(_line(line), checked_request(rules, options, builtin_only)))


def check(line: str, answer: str | Mapping[str, Any] | None = None, rules: str | None = None,
          options: Options | None = None, lang: str = "en") -> dict[str, Any]:
    """Check a student's answer for one hand: the object ``mjcalc check --json`` prints for the record
    (``correct``: True / False, the ``differences`` each with its message, and the ``expected`` answer; or
    ``correct`` None and the ``error`` when it cannot be checked). ``answer`` is written as after ``=>`` in a
    homework file (``"fan 3 points 16 items 自摸"``) or a mapping of those keys; without it, the line's own
    ``=> …`` part is the answer.

    >>> c = check("123m456p789s111z22z +zimo +seat=E", "fan 5 points 40")
    >>> c["correct"], [d["field"] for d in c["differences"]], c["expected"]["points"]
    (False, ['points'], 48)
    >>> check("123m456p789s111z22z +zimo +seat=E => fan 5 points 48")["correct"]
    True
    """
    from .engine import checked_request
    from .homework.compare import check_record

    chosen = _checked_lang(lang)
    record = _record(1, _line(line))
    if answer is not None:
        if not isinstance(answer, (str, Mapping)):
            raise TypeError(f"answer is a str or a mapping, not {type(answer).__name__}")
        record.answer = answer if isinstance(answer, str) else dict(answer)
    return check_record(record, checked_request(rules, options), chosen)


def rulesets() -> dict[str, dict[str, Any]]:
    """The built-in rulesets by id, each the object ``mjcalc rules show ID --json`` prints: its names,
    description, unit, options (type, default, choices, doc), win conditions and items.

    >>> r = rulesets()
    >>> "changchun" in r and "riichi" in r
    True
    >>> r["riichi"]["unit"], r["changchun"]["names"]["en"] != ""
    ('han', True)
    """
    from .output.rules_table import ruleset_json
    from .ruleset.loader import load_ruleset
    from .support.builtin import builtin_names

    try:
        loaded = [load_ruleset(name) for name in builtin_names()]
    except MjcalcError as exc:  # a broken installation
        raise RulesetError(exc.kind, exc.message, exc.column) from None
    return {r.id: json.loads(json.dumps(ruleset_json(r), ensure_ascii=False, default=str)) for r in loaded}
