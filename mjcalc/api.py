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
    from .game import Game as Engine

__all__ = ["Game", "GameError", "MjcalcError", "RulesetError", "check", "rulesets", "score", "score_many", "waits"]

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


class GameError(MjcalcError, ValueError):
    """A result that cannot be read or applied to a game (``Game.add``), or a record that cannot be read:
    ``message`` says what, ``column`` where in the line as written (``text``), ``index`` which result, ``line`` the
    line of a record; ``render(file=…)`` is ``FILE:LINE: message`` and the line with a caret under the column.

    >>> g = Game(["A", "B", "C", "D"], rules="riichi")
    >>> g.add("B ron C 123m456p789s777z 66z +dora=6z +seat=E")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mjcalc.api.GameError: +seat=E in the line, but B sits S this hand
    """

    def __init__(self, error: MjcalcError) -> None:
        super().__init__(error.kind, error.msg, error.column)
        self.index: int | None = getattr(error, "index", None)
        self.line: int | None = getattr(error, "line", None)
        self.text: str | None = getattr(error, "text", None)
        self._error = error

    def render(self, lang: str = "en", file: str | None = None) -> str:  # type: ignore[override]
        render = getattr(self._error, "render")
        return str(render(lang, file) if file is not None else render(lang))


def _game_error(exc: MjcalcError) -> MjcalcError:
    """A game's error as the API raises it: RulesetError for the ruleset or its options, GameError else."""
    if exc.kind == "ruleset":
        return RulesetError(exc.kind, exc.msg, exc.column)
    return GameError(exc)


class Game:
    """A whole game (docs/GAME.md): the players in seat order (the first deals first, unless ``dealer`` names
    another), a ruleset (default changchun) with its options (``--set``: the hand's and the game's), and the
    results, each replayed as it is added. Its sheet is GAME.md's JSON.

    ``add(result)`` takes a result in the text form (``"B ron C 123m… riichi B"``) or GAME.md's JSON object (a
    mapping, or its text), applies it and returns the sheet's entry it made; a result that cannot be applied raises
    GameError and changes nothing (``hand=N``: refused unless it would be hand number N). ``undo()`` takes the last
    one back; ``results`` lists them as GAME.md's JSON objects; ``sheet()`` is the sheet; ``to_text()`` and
    ``to_jsonl()`` write the record, which ``Game.from_record`` reads back.

    >>> g = Game(["A", "B", "C", "D"], rules="riichi-tenhou")
    >>> g.add("B ron C 123m456p789s777z 66z +dora=6z riichi B D")["changes"]
    [0, 9000, -8000, -1000]
    >>> g.add({"win": [{"winner": "B", "hand": "234m456p678s22p555z"}]})["label"]
    '东2局'
    >>> g.undo()
    {'win': [{'winner': 'B', 'hand': '234m456p678s22p555z'}]}
    >>> s = g.sheet()
    >>> s["final"]["scores"], s["final"]["ranking"], s["final"]["next"]["dealer"]
    ([25000, 34000, 17000, 24000], [1, 0, 3, 2], 1)
    >>> Game.from_record(g.to_jsonl()).results == g.results
    True
    """

    def __init__(self, players: Iterable[str], rules: str | None = None, options: Options | None = None,
                 dealer: str | None = None) -> None:
        from .engine import DEFAULT_RULESET
        from .game import Game as Engine

        if isinstance(players, str) or not isinstance(players, Iterable):
            raise TypeError("players is a list of four names")
        if options is not None and not isinstance(options, Mapping):
            raise TypeError(f"options is a mapping of option name to value, not {type(options).__name__}")
        try:
            self._game = Engine.new(list(players), rules or DEFAULT_RULESET, dict(options or {}), dealer)
        except MjcalcError as exc:
            raise _game_error(exc) from None

    @classmethod
    def from_record(cls, record: str, *, errors: str = "raise") -> Game:
        """A game from its record (the text form or GAME.md's JSON Lines). ``errors="skip"``: a line that cannot be
        read or applied is left out and kept in ``errors`` (each a GameError with its line), the rest replayed."""
        from .game import Game as Engine

        if errors not in ("raise", "skip"):
            raise ValueError(f"errors is 'raise' or 'skip', not {errors!r}")
        game = cls.__new__(cls)
        try:
            game._game = Engine.from_record(record, errors=errors)
        except MjcalcError as exc:
            raise _game_error(exc) from None
        return game

    @property
    def engine(self) -> Engine:
        """The game engine under it (mjcalc.game.Game: typed results and sheet), for what this API does not say."""
        return self._game

    @property
    def players(self) -> list[str]:
        """The players in seat order at the start, the first dealer first."""
        return list(self._game.header.players)

    @property
    def rules(self) -> str:
        return self._game.header.rules

    @property
    def errors(self) -> list[MjcalcError]:
        """The lines of a record read with ``errors="skip"`` that were left out."""
        return [GameError(e) for e in self._game.errors]

    @property
    def results(self) -> list[dict[str, Any]]:
        """The results so far, as GAME.md's JSON objects."""
        from .game import result_to_json

        return [result_to_json(r, self._game.header) for r in self._game.results]

    def add(self, result: str | Mapping[str, Any], hand: int | None = None) -> dict[str, Any]:
        """Add one result: the sheet's entry it made (GAME.md's JSON of one hand)."""
        if not isinstance(result, (str, Mapping)):
            raise TypeError(f"a result is its text or its JSON object, not {type(result).__name__}")
        try:
            return self._game.add(result, hand=hand).to_json()
        except MjcalcError as exc:
            raise _game_error(exc) from None

    def undo(self) -> dict[str, Any]:
        """Take the last result back: that result, as GAME.md's JSON object. IndexError when there is none."""
        from .game import result_to_json

        return result_to_json(self._game.undo(), self._game.header)

    def sheet(self, lang: str = "en") -> dict[str, Any]:
        """The sheet: GAME.md's JSON (every hand, each win's score as ``score --json``, the final standing)."""
        return self._game.sheet().to_json(_checked_lang(lang))

    def to_text(self) -> str:
        """The record in the text form (docs/GAME.md)."""
        return self._game.to_text()

    def to_jsonl(self) -> str:
        """The record as GAME.md's JSON Lines."""
        return self._game.to_jsonl()
