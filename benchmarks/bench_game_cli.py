"""`mjcalc game add` on a kept game of ``--hands`` hands against a single `mjcalc score`, whole processes as a user
runs them, alternating, each the median of ``--rounds`` runs. The target: add within 2× score.

A `game add` opens the database, takes the write lock, reads the game's results and replays every one of them
(each win scored again: the results are the only truth) to know the state the new result is added to, checks
and scores the new result, appends it and commits with a full sync. Each timed add is taken back by an untimed
`game undo`, so every add meets the same game.

The game: changchun (no end of its own), winners, discarders and draws drawn at random, the winning hands those
of the scorer's changchun cases (tests/cases/changchun.yaml) that are wins in a game.

    python benchmarks/bench_game_cli.py [--hands 100] [--rounds 21]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCORE_LINE = "123m456p789s111z22z +zimo +seat=E"
ADDED = "B ron C 123m456p789s111z 22z"


def win_pool() -> list[tuple[str, bool]]:
    """Winning lines of the changchun cases without the context a game fills in: (line, self-drawn)."""
    import yaml

    data = yaml.safe_load((ROOT / "tests" / "cases" / "changchun.yaml").read_text(encoding="utf-8"))
    out = []
    for case in data["cases"]:
        if "points" not in (case.get("expect") or {}):
            continue
        line = case["hand"]
        zimo = "+zimo" in line
        line = re.sub(r"\s*\+(seat|from|zimo|round)(=\S+)?", "", line).strip()
        out.append((line, zimo))
    return out


def changchun_game(hands: int, seed: int) -> list[dict[str, Any]]:
    """``hands`` results of a changchun game (GAME.md's JSON objects), each accepted by the engine."""
    from mjcalc.game import Game, GameError, result_to_json

    rnd = random.Random(seed)
    pool = win_pool()
    game = Game.new(["A", "B", "C", "D"], "changchun")
    tries = 0
    while len(game.results) < hands:
        tries += 1
        if tries > hands * 50:
            raise RuntimeError("no game could be made from the pool")
        if rnd.random() < 0.15:
            text = "draw"
        else:
            line, zimo = rnd.choice(pool)
            winner = rnd.choice("ABCD")
            text = f"{winner} tsumo {line}" if zimo else \
                f"{winner} ron {rnd.choice([p for p in 'ABCD' if p != winner])} {line}"
        try:
            game.add(text)
        except GameError:
            continue
    return [result_to_json(r, game.header) for r in game.results]


def mjcalc() -> list[str]:
    found = shutil.which("mjcalc", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "mjcalc"]


def timed(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([*mjcalc(), *args], capture_output=True, env=env)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {done.returncode}: {done.stderr.decode()[:500]}")
    return elapsed


def make_db(db: Path, hands: int, seed: int = 1) -> None:
    from mjcalc.game import Game, header_to_json
    from mjcalc.game.store import Store

    with Store(str(db)) as store, store.write():
        store.create("g", header_to_json(Game.new(["A", "B", "C", "D"], "changchun").header))
        kept = store.get("g")
        for result in changchun_game(hands, seed):
            store.append(kept, result)


def measure(hands: int, rounds: int, say: Any = print) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.db"
        make_db(db, hands)
        env = {**os.environ, "MJCALC_DB": str(db)}
        env.pop("COLUMNS", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: each module compiled once, not at every start
        for _ in range(2):  # warm the file cache and the compiled modules
            timed(["score", SCORE_LINE], env)
            timed(["game", "add", "g", ADDED], env)
            timed(["game", "undo", "g"], env)
        score, add = [], []
        for _ in range(rounds):
            score.append(timed(["score", SCORE_LINE], env))
            add.append(timed(["game", "add", "g", ADDED, "--hand", str(hands + 1)], env))
            timed(["game", "undo", "g", "--hand", str(hands + 1)], env)
        out = {"score_ms": statistics.median(score) * 1000, "add_ms": statistics.median(add) * 1000}
        out["ratio"] = out["add_ms"] / out["score_ms"]
        if say:
            say(f"score {out['score_ms']:.0f} ms · game add on {hands} hands {out['add_ms']:.0f} ms · "
                f"ratio {out['ratio']:.2f} (target ≤ 2)")
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=21)
    args = parser.parse_args()
    measure(args.hands, args.rounds)


if __name__ == "__main__":
    main()
