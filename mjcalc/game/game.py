"""A game being kept: its header, its results (the only truth) and the replay of them, one result at a time;
reading a whole record (text or JSON Lines) and writing it back.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .hands import json_loads as loads
from .model import GameError, Header, Result
from .records import header_from_json, header_to_json, make_header, result_from_json, result_to_json
from .replay import Replay
from .sheet import HandEntry, Sheet
from .text import _parse, header_from_text, header_to_text, is_header, result_to_text


class Source:
    """Where a result came from: the line of its file, the text as written, and where each win's hand starts in it
    (text form), or the hands as written (JSON: an error in a hand is shown under the hand itself)."""

    __slots__ = ("line", "text", "hand_columns", "hands")

    def __init__(self, line: int | None, text: str | None, hand_columns: tuple[int, ...] = (),
                 hands: tuple[str, ...] = ()) -> None:
        self.line = line
        self.text = text
        self.hand_columns = hand_columns
        self.hands = hands

    def place(self, error: GameError, index: int | None) -> GameError:
        """The error placed in this source: its line; a hand's column within the line (or under the hand)."""
        if error.part is not None and error.part < len(self.hand_columns):
            return error.located(index=index, text=self.text, line=self.line, shift=self.hand_columns[error.part] - 1)
        if error.part is not None and error.part < len(self.hands):
            return error.located(index=index, text=self.hands[error.part], line=self.line)
        if error.text is None and error.column is not None and self.text is not None and not self.hands:
            return error.located(index=index, text=self.text, line=self.line)
        if error.text is None or error.text == self.text:
            return error.located(index=index, line=self.line, text=self.text if error.column is not None else None)
        return error.located(index=index, line=self.line)


class Game:
    """A game: players, a ruleset with its options, the first dealer, and the results so far, replayed as they come.

    ``add`` takes a result (typed, the text form, or a JSON object or its text) and applies it, or raises
    GameError and changes nothing; ``undo`` takes the last one back; ``sheet`` is the replay (``to_json``: GAME.md's
    JSON); ``to_text`` / ``to_jsonl`` write the record."""

    def __init__(self, header: Header) -> None:
        self._replay = Replay(header)
        self.rules = self._replay.rules
        # the options as their types read them (1, not "1"): the record is written the same from text or JSON
        self.header = Header(header.players, header.rules, {k: self.rules.options.get(k, v)
                                                            for k, v in header.options.items()})
        self._replay.header = self.header
        self._results: list[Result] = []
        self._undo: list[tuple[Any, ...]] = []
        self.errors: list[GameError] = []  # lines of a record read that could not be read or applied

    @classmethod
    def new(cls, players: Sequence[str], rules: str, options: Mapping[str, Any] | None = None,
            dealer: str | None = None) -> Game:
        """A new game: four players in seat order, a ruleset, options (``--set``: hand and game options alike),
        the first dealer (a player's name; default the first listed)."""
        return cls(make_header(players, rules, options, dealer))

    @property
    def results(self) -> list[Result]:
        """The results so far, in order (a copy)."""
        return list(self._results)

    @property
    def ended(self) -> bool:
        return self._replay.ended

    def next_hand(self) -> dict[str, Any] | None:
        """What the next hand is (number, label, round, dealer, honba, table, lian), or None once ended."""
        return self._replay.next_hand()

    def seats(self) -> list[int]:
        """The players at E, S, W, N this hand."""
        return self._replay.seats()

    def parse(self, result: Result | str | Mapping[str, Any], line: int | None = None) -> tuple[Result, Source]:
        """A result as typed objects: a Result as it is; a mapping (GAME.md's JSON object); text: a JSON object
        (starting with ``{``) or the text form, players named or seated as this hand seats them. With where it
        came from (for the place of an error found when it is applied)."""
        parsed, text, columns = self._read(result, line)
        return parsed, self._source(parsed, line, text, columns)

    def _read(self, result: Result | str | Mapping[str, Any],
              line: int | None) -> tuple[Result, str | None, tuple[int, ...] | None]:
        """The result, its text (None for a mapping) and its hands' columns (None: a JSON object)."""
        if result.__class__ is str:
            text: str = result.rstrip("\n")  # type: ignore[union-attr]
            if text[:1] == "{" or text.lstrip()[:1] == "{":
                try:
                    obj = loads(text)
                except ValueError as exc:
                    raise GameError(f"not JSON: {exc}", getattr(exc, "colno", None), text=text, line=line) from None
                try:
                    return result_from_json(obj, self.header), text, None
                except GameError as exc:
                    raise exc.located(line=line, text=text if exc.column is not None else None) from None
            try:
                parsed, columns = _parse(text, self.header, self.seats())
            except GameError as exc:
                raise exc.located(line=line, text=text) from None
            return parsed, text, columns
        if isinstance(result, Mapping):
            return result_from_json(result, self.header), None, None
        if isinstance(result, str):
            return self._read(str(result), line)
        if hasattr(result, "kind"):
            return result, None, ()
        raise GameError(f"a result is a Result, its text or its JSON object, not {type(result).__name__}")

    @staticmethod
    def _source(parsed: Result, line: int | None, text: str | None, columns: tuple[int, ...] | None) -> Source:
        if columns is None:  # a JSON object: a hand's error is shown under the hand
            return Source(line, text, hands=tuple(w.hand for w in getattr(parsed, "wins", ())))
        return Source(line, text, columns)

    def add(self, result: Result | str | Mapping[str, Any], *, hand: int | None = None,
            line: int | None = None) -> HandEntry:
        """Apply one result: the sheet's entry it makes. ``hand``: refuse it unless it would be hand number
        ``hand`` (two people adding the same hand never count it twice)."""
        index = len(self._results)
        parsed, text, columns = self._read(result, line)
        if hand is not None:
            upcoming = self._replay.hands_done + 1
            if hand != upcoming:
                raise GameError(f"this result would be hand {upcoming}, not hand {hand}"
                                + (" (the game has ended)" if self.ended else ""), index=index, line=line)
        snapshot = self._snapshot()
        try:
            entry = self._replay.apply(parsed, index)
        except GameError as exc:
            raise self._source(parsed, line, text, columns).place(exc, index) from None
        self._results.append(parsed)
        self._undo.append(snapshot)
        return entry

    def undo(self) -> Result:
        """Take the last result back (the state is as before it); IndexError when there is none."""
        if not self._results:
            raise IndexError("no result to undo")
        state = self._undo.pop()
        self._restore(state)
        return self._results.pop()

    def _snapshot(self) -> tuple[Any, ...]:
        r = self._replay
        return (list(r.scores), r.deal, r.honba, r.table, r.lian, r.hands_done, r.in_round, r.ended, r.reason,
                len(r.entries))

    def _restore(self, state: tuple[Any, ...]) -> None:
        r = self._replay
        (r.scores, r.deal, r.honba, r.table, r.lian, r.hands_done, r.in_round, r.ended, r.reason, count) = state
        del r.entries[count:]

    def sheet(self) -> Sheet:
        """The sheet of the results so far (GAME.md's JSON: ``sheet().to_json()``)."""
        sheet = self._replay.sheet()
        sheet.errors = list(self.errors)
        return sheet

    # --- records ----------------------------------------------------------------------------------------

    @classmethod
    def from_record(cls, text: str | Iterable[str], *, errors: str = "skip", first_line: int = 1) -> Game:
        """A game read from its record, text form or GAME.md's JSON Lines (told apart by the first line that is
        no comment: a JSON object or ``game …``), each result applied as it is read. ``errors``: ``skip`` — a
        line that cannot be read or applied is kept in ``errors`` (its line number, message and caret) and the
        rest replayed; ``raise`` — the first such line raises. A header that cannot be read always raises.
        ``first_line``: the number of the record's first line in its file (a file may hold several games)."""
        lines = text.splitlines() if isinstance(text, str) else [t.rstrip("\n") for t in text]
        game: Game | None = None
        for number, raw in enumerate(lines, first_line):
            stripped = raw.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if game is None:
                header = _header(raw, number)
                try:
                    game = cls(header)
                except GameError as exc:  # the options or the dealer: the header's own line
                    raise (exc if exc.line is not None else exc.located(line=number, index=-1)) from None
                continue
            try:
                game.add(raw, line=number)
            except GameError as exc:
                if errors == "raise":
                    raise
                game.errors.append(exc if exc.line is not None else exc.located(line=number))
        if game is None:
            raise GameError("an empty record: it starts with its header (game RULES P1 P2 P3 P4, or "
                            '{"game": {...}})', line=1)
        return game

    def to_text(self) -> str:
        """The record in the text form: the header line, then one line a result."""
        return "\n".join([header_to_text(self.header), *(result_to_text(r, self.header) for r in self._results)]) \
            + "\n"

    def to_jsonl(self) -> str:
        """The record as GAME.md's JSON Lines."""
        rows = [header_to_json(self.header), *(result_to_json(r, self.header) for r in self._results)]
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def _header(raw: str, number: int) -> Header:
    text = raw.strip()
    try:
        if text.startswith("{"):
            try:
                obj = loads(text)
            except ValueError as exc:
                raise GameError(f"not JSON: {exc}") from None
            return header_from_json(obj)
        if is_header(raw):
            return header_from_text(raw)
        raise GameError("a game record starts with its header: game RULES P1 P2 P3 P4 [OPTION=VALUE …], or "
                        '{"game": {"players": [...], "rules": "…", "set": {...}}}', 1, text=raw)
    except GameError as exc:
        raise exc.located(line=number, index=-1) from None
