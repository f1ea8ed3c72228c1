"""The games' database under abuse, whole `mjcalc game …` processes as a user runs them (tests/test_game_store.py
runs a bounded round of each):

- **kill**: ``--adds`` `game add`s (each a penalty of its own amount, so each result is told apart, on a game of
  ``--base`` hands), each process killed with SIGKILL at a random moment of its run or left to finish. Then the
  database opens and passes SQLite's integrity check, and its results are exactly those the commands committed:
  every one whose command said OK, once, in order; a killed command's result at most once; nothing else.
- **race**: two writers add to one game for ``--rounds`` rounds, each round both naming the same ``--hand N`` at
  once. Exactly one may win each round: the other is refused; the game ends with one result a round, each the
  winner's, none lost and none doubled.
- **bad files**: files that are not mjcalc's database (not SQLite, another program's, damaged, newer, a result
  that is not JSON), each opened by show, add and list: exit 3 and a message naming the file, never a traceback.
- **replay**: a record file of several games with bad lines: each bad line named ``FILE:LINE:``, every game still
  replayed, exit 2.

    python benchmarks/game_reliability.py [--adds 1000] [--rounds 500] [--base 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_game_cli import changchun_game  # noqa: E402  (a long game's record, from the scorer's cases)

PLAYERS = "A,B,C,D"


def mjcalc() -> list[str]:
    found = shutil.which("mjcalc", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "mjcalc"]


def environment(db: Path) -> dict[str, str]:
    env = {**os.environ, "MJCALC_DB": str(db), "COLUMNS": "100"}
    env.pop("MJCALC_LANG", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: each module compiled once, not at every start
    return env


def run(args: list[str], db: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = environment(db)
    return subprocess.run([*mjcalc(), *args], capture_output=True, text=True, timeout=timeout, env=env)


def kept_results(db: Path, name: str) -> list[dict[str, Any]]:
    """The results as kept, read straight from the file (not through mjcalc)."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = con.execute("SELECT r.seq, r.result FROM results r JOIN games g ON g.id = r.game WHERE g.name = ? "
                           "ORDER BY r.seq", (name,)).fetchall()
    finally:
        con.close()
    assert [seq for seq, _ in rows] == list(range(len(rows))), "positions are not 0, 1, 2, …"
    return [json.loads(text) for _, text in rows]


def seed_game(db: Path, name: str, hands: int, seed: int) -> int:
    """A changchun game of ``hands`` results, added in one go (a record replayed into the database)."""
    record = changchun_game(hands, seed)
    first = run(["game", "new", name, "--rules", "changchun", "--players", PLAYERS], db)
    assert first.returncode == 0, first.stderr
    con = sqlite3.connect(db)
    with con:
        game_id = con.execute("SELECT id FROM games WHERE name = ?", (name,)).fetchone()[0]
        con.executemany("INSERT INTO results (game, seq, result) VALUES (?, ?, ?)",
                        [(game_id, i, json.dumps(r)) for i, r in enumerate(record)])
    con.close()
    return len(record)


# --- kill -9 -----------------------------------------------------------------------------------------------

def kill_run(folder: Path, adds: int, base: int, seed: int, say: Any = print) -> dict[str, Any]:
    db = folder / "kill.db"
    rnd = random.Random(seed)
    before = seed_game(db, "k", base, seed)
    next_hand = json.loads(run(["game", "show", "k", "--json"], db).stdout)["final"]["next"]["number"]
    attempts: list[tuple[int, str]] = []  # (amount, what happened: ok | killed | failed)
    env = environment(db)
    t0 = time.perf_counter()
    first = run(["game", "add", "k", "penalty A 1 B", "--hand", str(next_hand)], db)  # how long an add takes
    assert first.returncode == 0, first.stderr
    times = [time.perf_counter() - t0]
    attempts.append((1, "ok"))
    start = time.perf_counter()
    for i in range(1, adds):
        amount = i + 1
        t0 = time.perf_counter()
        proc = subprocess.Popen([*mjcalc(), "game", "add", "k", f"penalty A {amount} B", "--hand", str(next_hand)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        # half the kills anywhere in a typical run (start-up, replay, commit) or none, half near its end (the
        # transaction and the commit): the moments that could lose or double a result
        # (every tenth add runs to its end: how long an add takes, measured without the bias of the kills)
        typical = sorted(times)[len(times) // 2]
        wait: float | None = None if i % 10 == 0 else rnd.uniform(0.0, 1.5 * typical) if rnd.random() < 0.5 \
            else rnd.uniform(0.8 * typical, 1.1 * typical)
        try:
            out, err = proc.communicate(timeout=wait)
            outcome = "ok" if proc.returncode == 0 and out.startswith("added") else "failed"
            if wait is None:
                times.append(time.perf_counter() - t0)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
            out, err = proc.communicate()
            outcome = "ok" if proc.returncode == 0 and out.startswith("added") else \
                "killed" if proc.returncode == -signal.SIGKILL else "failed"
        if outcome == "failed":
            raise AssertionError(f"add {amount}: exit {proc.returncode}: {err}")
        attempts.append((amount, outcome))
        if say and (i + 1) % 100 == 0:
            say(f"  {i + 1} adds, {sum(o == 'killed' for _, o in attempts)} killed")
    elapsed = time.perf_counter() - start
    shown = run(["game", "show", "k", "--json"], db)
    assert shown.returncode == 0, shown.stderr
    kept = kept_results(db, "k")[before:]
    amounts = [r["penalty"]["amount"] for r in kept]
    acked = [a for a, o in attempts if o == "ok"]
    killed = {a for a, o in attempts if o == "killed"}
    assert len(amounts) == len(set(amounts)), "a result is kept twice"
    assert amounts == sorted(amounts), "results out of order"
    missing = [a for a in acked if a not in set(amounts)]
    assert not missing, f"results whose command said OK are missing: {missing[:10]}"
    extra = [a for a in amounts if a not in set(acked) and a not in killed]
    assert not extra, f"results kept that no command made: {extra[:10]}"
    assert len(json.loads(shown.stdout)["hands"]) == before + len(amounts)
    return {"adds": adds, "ok": len(acked), "killed": len(killed),
            "killed_but_committed": sum(1 for a in amounts if a in killed), "kept": len(amounts),
            "lost": 0, "doubled": 0, "seconds": round(elapsed, 1)}


# --- two writers -------------------------------------------------------------------------------------------

def race_run(folder: Path, rounds: int, say: Any = print) -> dict[str, Any]:
    db = folder / "race.db"
    assert run(["game", "new", "r", "--rules", "changchun", "--players", PLAYERS], db).returncode == 0
    hand = "123m456p789s111z 22z"
    writers = {0: f"A ron B {hand}", 1: f"C ron D {hand}"}
    outcome: dict[int, list[tuple[int, str]]] = {0: [], 1: []}
    barrier = threading.Barrier(2)
    number = [1]
    errors: list[str] = []

    def writer(w: int) -> None:
        env = environment(db)
        for _ in range(rounds):
            barrier.wait()
            n = number[0]
            done = subprocess.run([*mjcalc(), "game", "add", "r", writers[w], "--hand", str(n)], capture_output=True,
                                  text=True, env=env)
            if done.returncode == 0:
                outcome[w].append((n, "ok"))
            elif done.returncode == 2 and "refused" in done.stderr:
                outcome[w].append((n, "refused"))
            else:
                errors.append(f"writer {w}, hand {n}: exit {done.returncode}: {done.stderr}")
                outcome[w].append((n, "error"))
            barrier.wait()
            if w == 0:
                number[0] = n + sum(1 for x in (0, 1) if outcome[x][-1] == (n, "ok"))
            barrier.wait()

    start = time.perf_counter()
    threads = [threading.Thread(target=writer, args=(w,)) for w in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    assert not errors, errors[:3]
    kept = kept_results(db, "r")
    ok = {w: [n for n, o in outcome[w] if o == "ok"] for w in (0, 1)}
    refused = sum(1 for w in (0, 1) for _, o in outcome[w] if o == "refused")
    both = set(ok[0]) & set(ok[1])
    assert not both, f"hands added twice: {sorted(both)[:10]}"
    assert len(kept) == len(ok[0]) + len(ok[1]), "results lost or doubled"
    for w in (0, 1):
        for n in ok[w]:
            win = kept[n - 1]["win"][0]
            assert (win["winner"], win.get("from")) == (("A", "B") if w == 0 else ("C", "D")), f"hand {n} is not {w}'s"
    sheet = json.loads(run(["game", "show", "r", "--json"], db).stdout)
    assert [h["number"] for h in sheet["hands"]] == list(range(1, len(kept) + 1))
    return {"rounds": rounds, "added": len(kept), "refused": refused, "lost": 0, "doubled": 0,
            "seconds": round(elapsed, 1)}


# --- files that are not the database -----------------------------------------------------------------------

def bad_files(folder: Path) -> dict[str, Any]:
    good = folder / "good.db"
    seed_game(good, "g", 30, 3)
    data = good.read_bytes()
    cases: dict[str, bytes | None] = {
        "text": b"game riichi A B C D\nA tsumo 123m456p789s111z 22z\n",
        "random bytes": random.Random(5).randbytes(8192),
        "zip": b"PK\x03\x04" + bytes(200),
        "truncated": data[:100],
        "half": data[: len(data) // 2],
        "pages overwritten": data[:4096] + random.Random(6).randbytes(len(data) - 4096),
        "foreign": None,
        "newer": None,
        "not JSON": None,
        "missing table": None,
    }
    out: dict[str, Any] = {}
    for name, content in cases.items():
        path = folder / f"bad-{name.replace(' ', '-')}.db"
        if content is not None:
            path.write_bytes(content)
        elif name == "foreign":
            con = sqlite3.connect(path)
            con.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
            con.commit()
            con.close()
        else:
            shutil.copy(good, path)
            con = sqlite3.connect(path)
            if name == "newer":
                con.execute("PRAGMA user_version = 99")
            elif name == "not JSON":
                con.execute("UPDATE results SET result = 'not json' WHERE seq = 3")
            else:
                con.execute("DROP TABLE results")
            con.commit()
            con.close()
        before = path.read_bytes()
        codes = []
        for args in (["game", "show", "g"], ["game", "add", "g", "draw"], ["game", "list"], ["game", "players"]):
            done = run([*args, "--db", str(path)], path)
            codes.append(done.returncode)
            assert "Traceback" not in done.stderr and "internal error" not in done.stderr, (name, args, done.stderr)
            assert done.returncode == 3, (name, args, done.returncode, done.stdout, done.stderr)
            assert str(path) in done.stderr, (name, done.stderr)
        if name in ("foreign", "text", "random bytes", "zip"):
            assert path.read_bytes() == before, f"{name}: the file was changed"
        out[name] = done.stderr.strip().splitlines()[0]
    return out


# --- a replay file with bad lines --------------------------------------------------------------------------

def replay_bad_lines(folder: Path, games: int = 20, seed: int = 9) -> dict[str, Any]:
    rnd = random.Random(seed)
    lines: list[str] = []
    bad: list[int] = []
    for g in range(games):
        lines.append(json.dumps({"game": {"players": ["A", "B", "C", "D"], "rules": "changchun", "set": {}}}))
        for r in changchun_game(rnd.randint(3, 12), seed + g):
            if rnd.random() < 0.15:
                lines.append(rnd.choice(['{"win": [{"winner": "X", "hand": "123m"}]}', "{not json",
                                         '{"draw": {"ready": ["Z"]}}', '{"abort": "four_winds"}']))
                bad.append(len(lines))
            lines.append(json.dumps(r))
    path = folder / "games.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run(["game", "replay", str(path), "--json"], folder / "unused.db")
    sheets = [json.loads(line) for line in done.stdout.splitlines()]
    named = sorted(int(line.split(":")[1]) for line in done.stderr.splitlines() if line.startswith(f"{path}:"))
    assert done.returncode == 2, done.returncode
    assert named == bad, (named, bad)
    assert len(sheets) == games
    assert "Traceback" not in done.stderr
    return {"games": games, "bad lines": len(bad), "named": len(named), "sheets": len(sheets), "exit": done.returncode}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--adds", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--base", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("kill", "race", "bad", "replay"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if args.only in (None, "kill"):
            print("kill -9:", kill_run(folder, args.adds, args.base, args.seed), flush=True)
        if args.only in (None, "race"):
            print("two writers:", race_run(folder, args.rounds), flush=True)
        if args.only in (None, "bad"):
            for name, message in bad_files(folder).items():
                print(f"bad file ({name}): exit 3: {message}", flush=True)
        if args.only in (None, "replay"):
            print("replay with bad lines:", replay_bad_lines(folder), flush=True)


if __name__ == "__main__":
    main()
