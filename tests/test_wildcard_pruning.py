"""The class pruning of wildcard substitutions (``joker_sets: by_class``) must score every hand exactly as
the exhaustive search does (``every_tile``: every tile, every placement of a winning wildcard)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from mjcalc.engine import Request, score_line
from mjcalc.output.record import to_json

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from bench_wildcards import wildcard_line

KEYS = ("result", "fan", "payments", "kong_payments", "net", "points")


def _scored(line: str, rules: str) -> dict[str, object]:
    out = to_json(score_line(line, Request(rules=rules), with_wait_scores=False))
    items = sorted((i["id"], i["value"]) for i in out.get("items", []))
    return {k: out.get(k) for k in KEYS} | {"items": items}


@pytest.fixture(scope="module")
def exhaustive(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("rules") / "meihe-exhaustive.yaml"
    path.write_text("extends: meihe\nid: meihe-exhaustive\njoker_sets: every_tile\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("wildcards", [1, 2, 3, 4])
def test_pruned_equals_exhaustive(wildcards: int, exhaustive: str) -> None:
    rng = random.Random(100 + wildcards)
    for _ in range(100):
        line = wildcard_line(rng, wildcards)
        if rng.random() < 0.5:  # some discard wins: the winning tile must then be real
            line = line.replace(" +zimo", f" +closed={rng.choice(['W', 'N', 'W,N,E'])}")
        pruned, full = _scored(line, "meihe"), _scored(line, exhaustive)
        if full["result"] == "error":
            continue
        assert pruned == full, line
