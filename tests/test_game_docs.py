"""docs/GAME.md: every example of the text form reads as it says and writes back as it says, every error example
says what and where, the record replays to the sheet shown, and the Python example runs."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

from mjcalc.game import Game, GameError, header_from_text, result_from_text, result_to_json, result_to_text

DOC = (Path(__file__).resolve().parent.parent / "docs" / "GAME.md").read_text(encoding="utf-8")
HEADER = header_from_text("game riichi A B C D")


def _table(title: str) -> list[list[str]]:
    """The rows of the first table after the line holding ``title``: its cells, backticks taken off."""
    rest = DOC[DOC.index(title):]
    rows = []
    for line in rest.splitlines()[1:]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if set(cells[0]) <= {"-", " "} or cells[0] in ("line",):
                continue
            rows.append([c[1:-1] if c.startswith("`") and c.endswith("`") else c for c in cells])
        elif rows:
            break
    return rows


EXAMPLES = _table("### Examples")
ERRORS = _table("And a line that cannot be read")


def test_the_tables_are_found() -> None:
    assert len(EXAMPLES) >= 20 and len(ERRORS) >= 8


@pytest.mark.parametrize(("line", "reads", "written"), EXAMPLES, ids=[row[0] for row in EXAMPLES])
def test_example(line: str, reads: str, written: str) -> None:
    result = result_from_text(line, HEADER, seats=[0, 1, 2, 3])
    assert result_to_json(result, HEADER) == json.loads(reads)
    back = result_to_text(result, HEADER)
    assert back == (line if written == "the same" else written)
    assert result_from_text(back, HEADER, seats=[0, 1, 2, 3]) == result


@pytest.mark.parametrize(("line", "says", "column"), ERRORS, ids=[row[0] for row in ERRORS])
def test_error_example(line: str, says: str, column: str) -> None:
    with pytest.raises(GameError) as caught:
        result_from_text(line, HEADER, seats=[0, 1, 2, 3])
    assert says in caught.value.message
    assert caught.value.column == int(column), caught.value.render()
    assert "^" in caught.value.render()


def _block(kind: str) -> str:
    found = re.search(rf"```{kind}\n(.*?)```", DOC, re.S)
    assert found, kind
    return found.group(1)


def test_the_record_replays_to_the_sheet_shown() -> None:
    game = Game.from_record(_block("record"), errors="raise")
    sheet = game.sheet()
    lines = [f"{h.number} {h.label} {h.result} {h.changes} {h.end}" for h in sheet.hands]
    final = sheet.final
    assert final.next is not None
    lines.append(f"ranking {final.ranking} points {final.points} next {final.next['label']}")
    assert "\n".join(lines) == _block("sheet").strip()


def test_the_python_example() -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(_block("python"), {}, "docs/GAME.md", "docs/GAME.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0
