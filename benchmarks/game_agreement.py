"""The engine against the independent game replayer on the full generated set (issue 33's hidden-set shape):
gen_games.py writes the games (300 random a ruleset, the edge and bad games: about 3,100), each is replayed by the
engine (as ``game replay`` does) and by tests/independent/game_ref.py, and the agreement is printed per ruleset
and kind, with the first differences of each disagreeing game.

    python benchmarks/game_agreement.py [--out DIR] [--seed 33] [--per-ruleset 300] [--rules R,…] [--show N]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INDEPENDENT = os.path.join(ROOT, "tests", "independent")
for path in (INDEPENDENT, os.path.join(ROOT, "tests")):
    if path not in sys.path:
        sys.path.insert(0, path)

import game_diff  # noqa: E402
import game_ref  # noqa: E402
import gen_games  # noqa: E402


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="where to write the games (default: a temporary folder)")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--per-ruleset", type=int, default=300)
    ap.add_argument("--rules", default=",".join(game_ref.GAME_RULESETS))
    ap.add_argument("--show", type=int, default=3, help="differences shown per disagreeing game")
    ap.add_argument("--open-questions", action="store_true", help="generate gen_games' avoided features too")
    a = ap.parse_args(argv)
    out = a.out or tempfile.mkdtemp(prefix="game-agreement-")
    rulesets = [r for r in a.rules.split(",") if r]
    manifest = gen_games.write(out, a.per_ruleset, a.seed, rulesets, False, a.open_questions)
    total: dict[str, Counter[str]] = defaultdict(Counter)
    failing: list[tuple[str, list[str]]] = []
    for item in manifest["games"]:
        path = os.path.join(out, item["file"])
        diffs = game_diff.diff_file(path)
        if item["kind"] == "bad":
            # the manifest says which lines are errors: both must report exactly those
            _, lines = game_diff.engine(path)
            if lines != item["errors"]:
                diffs = [f"error lines: engine {lines} != manifest {item['errors']}", *diffs]
        key = f"{item['rules']}"
        total[key]["games"] += 1
        total[key][item["kind"]] += 1
        if diffs:
            total[key]["differ"] += 1
            total[key][f"differ_{item['kind']}"] += 1
            failing.append((item["file"], diffs))
    print(f"{'ruleset':16} {'games':>6} {'agree':>6} {'%':>7}   random  edge  bad (disagreeing)")
    games = agree = 0
    for rules in rulesets:
        c = total[rules]
        n, d = c["games"], c["differ"]
        games, agree = games + n, agree + n - d
        print(f"{rules:16} {n:6} {n - d:6} {100 * (n - d) / max(n, 1):6.2f}%   "
              f"{c['differ_random']:6} {c['differ_edge']:5} {c['differ_bad']:4}")
    print(f"{'all':16} {games:6} {agree:6} {100 * agree / max(games, 1):6.2f}%")
    for file, diffs in failing:
        print(f"\n{file}:")
        for d in diffs[: a.show]:
            print(f"  {d}")
        if len(diffs) > a.show:
            print(f"  … {len(diffs) - a.show} more")
    if a.out is None:
        print(f"\n(games in {out})")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
