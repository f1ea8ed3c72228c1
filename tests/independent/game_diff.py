"""The game engine (mjcalc.game, as ``game replay`` runs it) against the independent replayer (game_ref.py) on one
record file: both replay it, and every hand's label-independent fields, every win's winner / from / pao, the next
hand and the final scores, ranking, points and end are compared; so are the lines each reports as errors.

    python tests/independent/game_diff.py FILE.jsonl …      # prints each difference, exit 1 if any
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

import game_ref  # noqa: E402

from mjcalc.game.files import replay_files  # noqa: E402

# Every hand's fields that do not depend on how a label is written (GAME.md's sheet, and the streak).
HAND_FIELDS = ("number", "round", "dealer", "honba", "table", "lian", "start", "result", "riichi", "ready",
               "nagashi", "changes", "end")
WIN_FIELDS = ("winner", "from", "pao")
NEXT_FIELDS = ("number", "round", "dealer", "honba", "table", "lian")
FINAL_FIELDS = ("scores", "ranking", "points", "ended")


def error_lines(text: str, path: str) -> list[int]:
    """The line numbers of ``FILE:LINE: message`` reports about `path` (continuation lines, carets, skipped)."""
    found = re.findall(r"^" + re.escape(path) + r":(\d+):", text, flags=re.M)
    return sorted({int(n) for n in found})


def engine(path: str) -> tuple[list[dict[str, Any]], list[int]]:
    """The engine's sheets of a file (one a game) and the lines it reports as errors."""
    out, err = io.BytesIO(), io.StringIO()
    replay_files([path], out, err)
    sheets = [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]
    return sheets, error_lines(err.getvalue(), path)


def reference(path: str) -> tuple[list[dict[str, Any]], list[int]]:
    """game_ref's sheets of a file (a game whose header failed gives none) and the lines it reports as errors."""
    sheets, errors = game_ref.replay_file(path)
    return [s for s in sheets if "hands" in s], error_lines("\n".join(errors), path)


def _points(value: Any) -> Any:
    return None if value is None else [round(float(x), 1) for x in value]


def diff_sheets(ours: dict[str, Any], ref: dict[str, Any]) -> list[str]:
    """Each difference between the engine's sheet and the reference's, as `where: ours != ref`."""
    out: list[str] = []

    def check(where: str, a: Any, b: Any) -> None:
        if a != b:
            out.append(f"{where}: engine {a!r} != ref {b!r}")

    check("players", ours.get("players"), ref.get("players"))
    oh, rh = ours.get("hands", []), ref.get("hands", [])
    check("hands", len(oh), len(rh))
    for k, (a, b) in enumerate(zip(oh, rh, strict=False)):
        where = f"hand[{k}] {b.get('label', '')}"
        for f in HAND_FIELDS:
            check(f"{where} {f}", a.get(f), b.get(f))
        aw, bw = a.get("wins") or [], b.get("wins") or []
        check(f"{where} wins", len(aw), len(bw))
        for j, (x, y) in enumerate(zip(aw, bw, strict=False)):
            for f in WIN_FIELDS:
                check(f"{where} wins[{j}].{f}", x.get(f), y.get(f))
    an, bn = ours.get("final", {}).get("next"), ref.get("next")
    if an is None or bn is None:
        check("next", an, bn)
    else:
        for f in NEXT_FIELDS:
            check(f"next.{f}", an.get(f), bn.get(f))
    fa, fb = ours.get("final", {}), ref.get("final", {})
    for f in FINAL_FIELDS:
        if f == "points":
            check("final.points", _points(fa.get(f)), _points(fb.get(f)))
        else:
            check(f"final.{f}", fa.get(f), fb.get(f))
    return out


def diff_file(path: str) -> list[str]:
    """Every difference of one record file: error lines, then each game's sheet."""
    (os_, oe), (rs, re_) = engine(path), reference(path)
    out: list[str] = []
    if oe != re_:
        out.append(f"error lines: engine {oe} != ref {re_}")
    if len(os_) != len(rs):
        out.append(f"games: engine {len(os_)} != ref {len(rs)}")
    for k, (a, b) in enumerate(zip(os_, rs, strict=False)):
        out += [(f"game {k}: " if len(rs) > 1 else "") + d for d in diff_sheets(a, b)]
    return out


def main(argv: list[str]) -> int:
    bad = 0
    for path in argv:
        diffs = diff_file(path)
        for d in diffs:
            print(f"{path}: {d}")
        bad += bool(diffs)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
