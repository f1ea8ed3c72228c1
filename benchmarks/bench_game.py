"""Replaying games against scoring their hands, whole processes side by side.

Generates GAMES riichi games (seeded; riichi-tenhou by default): each result drawn at random — a win (its hand one
of the seeded riichi situations of tests/riichi_situations.py, its context left to the game: seat, round, from,
honba, sticks, riichi), two wins on one discard, an exhaustive draw, a riichi declaration, an abortive draw — and
kept when the engine accepts it, until the game ends. Then, in turns, as a user runs them:

- ``python -m mjcalc.game replay games.jsonl`` (or ``mjcalc game replay`` once the command line has it:
  ``--replay-cmd``): every game replayed, one JSON sheet a line, each win's score inside as ``score --json``;
- ``mjcalc batch hands.txt --rules R --format jsonl --jobs 1``: the same winning lines, as the sheets scored them
  (context filled in), one JSON record a line.

Start-up, reading, scoring, writing: all of it counts. Each figure is the median of ``--rounds`` runs; the ratio
is replay over batch (the target: at most 1.3).

    python benchmarks/bench_game.py [--games 10000] [--rounds 3] [--rules riichi-tenhou]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

NAMES = ["A", "B", "C", "D"]


def hand_pool(count: int, seed: int) -> list[tuple[str, bool, bool]]:
    """Winning lines without the context a game fills in: (line, self-drawn, with riichi)."""
    from riichi_situations import _write, generate

    out = []
    for s in generate(count, seed):
        rest = list(s.concealed)
        rest.remove(s.win)
        red_here = [k for k, where in s.red.items() if where == "concealed"]
        win_red = [s.win] if s.red.get(s.win) == "win" else []
        parts = [_write(sorted(rest), red_here) + _write([s.win], win_red)]
        for i, (kind, tiles) in enumerate(s.melds):
            text = _write(tiles, [k for k, where in s.red.items() if where == i])
            parts.append(f"({text})" if kind == "ankan" else f"[{text}]")
        riichi = bool(s.flags.get("riichi") or s.flags.get("wriichi"))
        words = [f"+{name}" for name in ("last", "gang", "qiang", "wriichi", "ippatsu") if s.flags.get(name)]
        if s.dora:
            words.append("+dora=" + _write(s.dora, []))
        if s.ura and riichi:
            words.append("+ura=" + _write(s.ura, []))
        out.append((" ".join(parts + words), s.zimo, riichi))
    return out


def usual(pool: list[tuple[str, bool, bool]], rules: str) -> list[tuple[str, bool, bool]]:
    """The hands of a table's usual size (a haneman at most, as a non-dealer's win scores them): a game of
    generated yakuman would end at the first bust."""
    import mjcalc

    out = []
    for line, zimo, riichi in pool:
        flags = " +seat=S" + (" +zimo" if zimo else " +from=N") + (" +riichi" if riichi and "+wriichi" not in line else "")
        r = mjcalc.score(line + flags, rules=rules)
        if r["result"] == "win" and r["points"] <= 12000:
            out.append((line, zimo, riichi))
    return out


def make_games(count: int, rules: str, seed: int) -> tuple[str, list[str], int]:
    """``count`` games as JSON Lines, the winning lines their sheets scored, and the results in all: about three
    wins in four hands, a draw in six, now and then two winners, an abortive draw, a penalty."""
    from mjcalc.game import Game, GameError

    rng = random.Random(seed)
    pool = usual(hand_pool(6000, seed), rules)
    records: list[str] = []
    lines: list[str] = []
    results = 0
    for _ in range(count):
        game = Game.new(NAMES, rules)
        tries = 0
        while not game.ended and tries < 200 and len(game.results) < 40:
            tries += 1
            r = rng.random()
            riichi = [n for n in NAMES if rng.random() < 0.12]
            result: dict
            if r < 0.75:
                line, zimo, declared = rng.choice(pool)
                winner = rng.choice(NAMES)
                win = {"winner": winner, "hand": line}
                if not zimo:
                    win["from"] = rng.choice([n for n in NAMES if n != winner])
                riichi = [n for n in riichi if n != winner] + ([winner] if declared else [])
                result = {"win": [win]}
            elif r < 0.79:
                discarder = rng.choice(NAMES)
                winners = rng.sample([n for n in NAMES if n != discarder], 2)
                wins = []
                for winner in winners:
                    line, _, declared = rng.choice([p for p in pool if not p[1]])
                    wins.append({"winner": winner, "from": discarder, "hand": line})
                    if declared and winner not in riichi:
                        riichi.append(winner)
                result = {"win": wins}
            elif r < 0.96:
                result = {"draw": {"ready": [n for n in NAMES if rng.random() < 0.4], "nagashi": []}}
            elif r < 0.98:
                result = {"abort": rng.choice(["nine_terminals", "four_winds", "four_kongs"])}
            else:
                result = {"penalty": {"player": rng.choice(NAMES), "amount": 1000, "to": "table"}}
                riichi = []
            if riichi:
                result["riichi"] = riichi
            try:
                game.add(result)
            except GameError:
                continue
        records.append(game.to_jsonl())
        results += len(game.results)
        for h in game.sheet().hands:
            lines += [w.hand for w in h.wins]
    return "".join(records), lines, results


def timed(cmd: list[str], out: Path) -> tuple[float, float]:
    """Wall seconds and processor seconds (user + system) of one run, its output to ``out``; a failed run stops the
    benchmark. On a shared machine the processor time is the steadier of the two."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out, "wb") as f:
        done = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, check=False)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: exit {done.returncode}\n{done.stderr.decode()[:2000]}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def replay_command(given: str | None) -> list[str]:
    if given:
        return given.split()
    mjcalc = shutil.which("mjcalc") or str(Path(sys.executable).parent / "mjcalc")
    probe = subprocess.run([mjcalc, "game", "replay", "--help"], capture_output=True, check=False)
    if probe.returncode == 0:
        return [mjcalc, "game", "replay", "--json"]
    return [sys.executable, "-m", "mjcalc.game", "replay"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rules", default="riichi-tenhou")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--replay-cmd", help="the replay command (default: mjcalc game replay --json, or "
                                             "python -m mjcalc.game replay)")
    args = parser.parse_args()
    mjcalc = shutil.which("mjcalc") or str(Path(sys.executable).parent / "mjcalc")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        records, lines, results = make_games(args.games, args.rules, args.seed)
        games_file, hands_file = folder / "games.jsonl", folder / "hands.txt"
        games_file.write_text(records, encoding="utf-8")
        hands_file.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        replay = [*replay_command(args.replay_cmd), str(games_file)]
        batch = [mjcalc, "batch", str(hands_file), "--rules", args.rules, "--format", "jsonl", "--jobs", "1"]
        times: dict[str, list[tuple[float, float]]] = {"replay": [], "batch": []}
        for n in range(args.rounds):
            order = ("replay", "batch") if n % 2 == 0 else ("batch", "replay")
            for name in order:
                times[name].append(timed(replay if name == "replay" else batch, folder / f"{name}.out"))
        sheets = (folder / "replay.out").read_bytes().count(b"\n")
        scored = sum(1 for line in (folder / "batch.out").read_text(encoding="utf-8").splitlines()
                     if json.loads(line)["result"] == "win")
        print(f"{args.games:,} {args.rules} games, {results:,} results, {len(lines):,} wins "
              f"({sheets:,} sheets, {scored:,} batch wins); {args.rounds} rounds alternating")
        wall = {k: statistics.median(t[0] for t in v) for k, v in times.items()}
        cpu = {k: statistics.median(t[1] for t in v) for k, v in times.items()}
        print(f"  replay  {' '.join(Path(replay[0]).name.split() + replay[1:4])} …: wall {wall['replay']:.2f} s, "
              f"CPU {cpu['replay']:.2f} s (medians)")
        print(f"  batch   mjcalc batch … --format jsonl --jobs 1: wall {wall['batch']:.2f} s, CPU {cpu['batch']:.2f} s")
        print(f"  replay / batch: wall {wall['replay'] / wall['batch']:.2f}, CPU {cpu['replay'] / cpu['batch']:.2f}")


if __name__ == "__main__":
    main()
