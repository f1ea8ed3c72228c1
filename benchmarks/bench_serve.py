"""`mjcalc serve` under load, from a load generator in this process (asyncio, keep-alive connections, 127.0.0.1
only): requests per second and latencies of ``POST /api/score``, by number of clients; a score's latency while
clients loop the slowest waits; a score's latency while idle sockets are held open.

    python benchmarks/bench_serve.py [--mjcalc PATH] [--seconds 5] [--clients 1,8,64,256] [--json FILE]
                                     [--only keep_alive,waits_flood,score_flood,idle_sockets,one_game]

``--mjcalc``: the ``mjcalc`` command to start (another checkout's venv, for a before / after); by default this
interpreter's ``-m mjcalc``. The server is started on a free port and stopped at the end. Each figure:

- **keep-alive clients**: N connections, each sending a score and waiting for its answer, over and over, for
  ``--seconds``: answers per second, p50 / p99 latency, and how many were not 200 (503: refused as busy);
- **slowest waits**: 60 connections loop the waits of ``345567888p9999s +hui=9s +zimo`` (meihe), and one more
  sends a normal score every 50 ms: that score's p50 / p99 / max, and what the 60 were answered; the same
  with the 60 looping the slowest score (``345567888p9999s9p +hui=9s +zimo``, five wildcards);
- **idle sockets**: 500 connections that send nothing are held open (each one the server closes is opened
  again), and a new client sends a normal score every 50 ms: p50 / p99 / max and how many failed;
- **one game, 8 phones**: 8 keep-alive clients record results on one game (``POST /api/games/{id}/results``
  with the hand number each last saw; a 409 sends it to read the sheet and try the next hand), game after game
  of ``GAME_HANDS`` hands (a long evening's): results recorded per second, p50 / p99 of a recorded one, the
  409s; then each game is checked: every hand recorded once (none lost, none twice), the kept record's
  ``mjcalc game replay`` equal to the server's sheet.

The load generator shares the machine (two cores here) with the server and its workers, so the figures are a
lower bound of what the server does alone; the same generator measures both sides of a comparison.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from typing import Any

QUICK = {"hand": "123m456p789s111z22z +zimo +seat=E"}
WORST = {"hand": "345567888p9999s +hui=9s +zimo", "rules": "meihe"}
DEAREST = {"hand": "345567888p9999s9p +hui=9s +zimo", "rules": "meihe"}  # a score with five wildcards
LENGTH = re.compile(rb"content-length:\s*(\d+)", re.IGNORECASE)
FIGURES = ("keep_alive", "waits_flood", "score_flood", "idle_sockets", "one_game")
GAME_HANDS = 32  # hands a game of the benchmark has (a long evening's)
HAND = "123m456p789s111z 22z"  # a changchun win for anyone (tests/games/changchun.yaml)
DB = os.path.join(tempfile.mkdtemp(prefix="bench-serve-"), "games.db")


def start(command: list[str]) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "MJCALC_CONFIG": "/nonexistent/mjcalc.yaml", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([*command, "serve", "--port", "0", "--db", DB], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    assert proc.stdout is not None
    found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
    if not found:
        proc.kill()
        raise SystemExit("the server said no address")
    return proc, int(found.group(1))


def message(port: int, path: str, body: dict[str, Any]) -> bytes:
    payload = json.dumps(body).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n").encode() + payload


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, data: bytes,
                   body: list[bytes] | None = None) -> int:
    """One request on a kept connection: its status (``body``: the answer's bytes appended to it)."""
    writer.write(data)
    head = await reader.readuntil(b"\r\n\r\n")
    found = LENGTH.search(head)
    if found:
        got = await reader.readexactly(int(found.group(1)))
        if body is not None:
            body.append(got)
    else:  # no length: the answer ends with the connection (a server's plain-text refusal)
        await reader.read()
        raise ConnectionResetError(f"answer without a length: {head[:40]!r}")
    return int(head.split()[1])


def get(port: int, path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()


async def phone(port: int, me: int, game: str, accepted: list[tuple[int, Any]], latencies: list[float],
                statuses: dict[str, int]) -> None:
    """One phone of the table: records the next hand (a result of its own), reads the sheet again on a 409,
    until the game has ``GAME_HANDS`` hands."""
    names = "ABCD"
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        got: list[bytes] = []
        await exchange(reader, writer, get(port, f"/api/games/{game}"), got)
        sheet = json.loads(got[-1])
        while sheet["final"]["next"] is not None and sheet["final"]["next"]["number"] <= GAME_HANDS:
            number = sheet["final"]["next"]["number"]
            kind = (me + number) % 3
            win: dict[str, Any] = {"winner": names[me % 4], "hand": HAND}
            if kind == 2:
                win["from"] = names[(me + 1) % 4]
            result = {"draw": {"ready": [], "nagashi": []}} if kind == 0 else {"win": [win]}
            began = time.monotonic()
            got = []
            status = await exchange(reader, writer, message(port, f"/api/games/{game}/results",
                                                             {"hand": number, "result": result}), got)
            statuses[str(status)] = statuses.get(str(status), 0) + 1
            if status == 201:
                latencies.append(time.monotonic() - began)
                accepted.append((number, result))
                sheet = json.loads(got[-1])
            elif status == 409:
                got = []
                await exchange(reader, writer, get(port, f"/api/games/{game}"), got)
                sheet = json.loads(got[-1])
            else:
                raise SystemExit(f"results: {status} {got[-1][:300]!r}")
    finally:
        writer.close()


async def one_game(port: int, seconds: float) -> dict[str, Any]:
    """Games of ``GAME_HANDS`` hands one after another, 8 phones each, for ``seconds``."""
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    games: list[tuple[str, list[tuple[int, Any]]]] = []
    header = {"game": {"players": ["A", "B", "C", "D"], "rules": "changchun", "set": {"hands": GAME_HANDS}}}
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    began = time.monotonic()
    busy = 0.0
    while time.monotonic() - began < seconds:
        got: list[bytes] = []
        assert await exchange(reader, writer, message(port, "/api/games", header), got) == 201
        game = json.loads(got[-1])["id"]
        accepted: list[tuple[int, Any]] = []
        games.append((game, accepted))
        start = time.monotonic()
        await asyncio.gather(*(phone(port, me, game, accepted, latencies, statuses) for me in range(8)))
        busy += time.monotonic() - start
    writer.close()
    recorded = sum(len(a) for _, a in games)
    return {"games": games, "recorded": recorded, "per_second": recorded / busy, "p50": quantile(latencies, 0.5),
            "p99": quantile(latencies, 0.99), "statuses": statuses}


def check_games(command: list[str], port: int, games: list[tuple[str, list[tuple[int, Any]]]]) -> dict[str, int]:
    """Each game as kept: every hand once, the results the phones were told were recorded, and ``mjcalc game
    replay`` of the kept record equal to the server's sheet."""
    import urllib.request

    lost = doubled = differ = 0
    folder = os.path.dirname(DB)
    env = {**os.environ, "MJCALC_CONFIG": "/nonexistent/mjcalc.yaml"}
    for game, accepted in games:
        numbers = [n for n, _ in accepted]
        doubled += len(numbers) - len(set(numbers))
        lost += len(set(range(1, GAME_HANDS + 1)) - set(numbers))
        record = os.path.join(folder, f"{game}.jsonl")
        subprocess.run([*command, "game", "export", game, "--format", "jsonl", "--db", DB, "-o", record], env=env,
                       check=True)
        with open(record, encoding="utf-8") as f:
            kept = [json.loads(line) for line in f.read().splitlines()[1:]]
        replayed = subprocess.run([*command, "game", "replay", record, "--json"], capture_output=True, text=True,
                                  env=env, check=True).stdout
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/{game}", timeout=30) as answer:
            served = json.loads(answer.read())
        if kept != [r for _, r in sorted(accepted, key=lambda a: a[0])] or json.loads(replayed) != served:
            differ += 1
    return {"games": len(games), "lost": lost, "doubled": doubled, "differ": differ}


async def looper(port: int, data: bytes, until: float, latencies: list[float], statuses: dict[str, int]) -> None:
    """One keep-alive client, asking again as soon as answered; reconnects when the server closes."""
    conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    while time.monotonic() < until:
        try:
            if conn is None:
                conn = await asyncio.open_connection("127.0.0.1", port)
            began = time.monotonic()
            status = await asyncio.wait_for(exchange(*conn, data), max(0.1, until + 30 - time.monotonic()))
            latencies.append(time.monotonic() - began)
            statuses[str(status)] = statuses.get(str(status), 0) + 1
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as exc:
            statuses[type(exc).__name__] = statuses.get(type(exc).__name__, 0) + 1
            if conn is not None:
                conn[1].close()
            conn = None
            await asyncio.sleep(0.01)
    if conn is not None:
        conn[1].close()


async def prober(port: int, data: bytes, until: float, latencies: list[float], statuses: dict[str, int],
                 fresh: bool) -> None:
    """A score every 50 ms, on a new connection each time (``fresh``: a client arriving) or a kept one."""
    conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    while time.monotonic() < until:
        began = time.monotonic()
        try:
            if conn is None:
                conn = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 10)
            status = await asyncio.wait_for(exchange(*conn, data), 10)
            statuses[str(status)] = statuses.get(str(status), 0) + 1
            if status == 200:
                latencies.append(time.monotonic() - began)
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError) as exc:
            statuses[type(exc).__name__] = statuses.get(type(exc).__name__, 0) + 1
            if conn is not None:
                conn[1].close()
            conn = None
        if fresh and conn is not None:
            conn[1].close()
            conn = None
        await asyncio.sleep(max(0.0, 0.05 - (time.monotonic() - began)))
    if conn is not None:
        conn[1].close()


async def idle_holder(port: int, count: int, until: float, opened: list[int]) -> None:
    """``count`` sockets that send nothing, each reopened when the server closes it."""
    async def one() -> None:
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                opened[0] += 1
                try:
                    await asyncio.wait_for(reader.read(), max(0.01, until - time.monotonic()))
                except asyncio.TimeoutError:
                    pass
                writer.close()
            except OSError:
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one() for _ in range(count)))


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(value: float) -> str:
    return "—" if value != value else f"{value * 1000:,.0f}" if value >= 0.01 else f"{value * 1000:.1f}"


async def keep_alive(port: int, clients: int, seconds: float) -> dict[str, Any]:
    latencies: list[float] = []
    statuses: dict[str, int] = {}
    data = message(port, "/api/score", QUICK)
    began = time.monotonic()
    until = began + seconds
    await asyncio.gather(*(looper(port, data, until, latencies, statuses) for _ in range(clients)))
    elapsed = time.monotonic() - began
    return {"clients": clients, "per_second": statuses.get("200", 0) / elapsed, "p50": quantile(latencies, 0.5),
            "p99": quantile(latencies, 0.99), "statuses": statuses}


async def flood(port: int, seconds: float, path: str, body: dict[str, Any]) -> dict[str, Any]:
    flood_latencies: list[float] = []
    flooded: dict[str, int] = {}
    latencies: list[float] = []
    probe: dict[str, int] = {}
    until = time.monotonic() + seconds + 1.0
    loopers = [asyncio.ensure_future(looper(port, message(port, path, body), until, flood_latencies, flooded))
               for _ in range(60)]
    await asyncio.sleep(1.0)  # the flood is on
    await prober(port, message(port, "/api/score", QUICK), until, latencies, probe, fresh=False)
    await asyncio.gather(*loopers)
    return {"p50": quantile(latencies, 0.5), "p99": quantile(latencies, 0.99), "max": max(latencies, default=0.0),
            "probe": probe, "flood": flooded}


async def idle_sockets(port: int, seconds: float, count: int = 500) -> dict[str, Any]:
    latencies: list[float] = []
    probe: dict[str, int] = {}
    opened = [0]
    until = time.monotonic() + seconds + 1.0
    holder = asyncio.ensure_future(idle_holder(port, count, until, opened))
    await asyncio.sleep(1.0)
    await prober(port, message(port, "/api/score", QUICK), until, latencies, probe, fresh=True)
    await holder
    return {"p50": quantile(latencies, 0.5), "p99": quantile(latencies, 0.99), "max": max(latencies, default=0.0),
            "probe": probe, "idle_opened": opened[0]}


async def warm(port: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            for body in (QUICK, WORST):
                await exchange(reader, writer, message(port, "/api/score", body))
            await exchange(reader, writer, message(port, "/api/waits", WORST))
            writer.close()
            return
        except (OSError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.2)
    raise SystemExit("the server did not answer in 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mjcalc", default=None, help="the mjcalc command (default: this Python's -m mjcalc)")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--clients", default="1,8,64,256")
    parser.add_argument("--json", default=None, help="write the figures to this file too")
    parser.add_argument("--only", default=",".join(FIGURES), help="the figures to measure (default: all)")
    args = parser.parse_args()
    command = shlex.split(args.mjcalc) if args.mjcalc else [sys.executable, "-m", "mjcalc"]
    version = subprocess.run([*command, "--version"], capture_output=True, text=True).stdout.strip()
    proc, port = start(command)
    results: dict[str, Any] = {"mjcalc": " ".join(command), "version": version, "load_before": os.getloadavg()}
    try:
        asyncio.run(warm(port))
        only = set(args.only.split(","))
        if "keep_alive" in only:
            results["keep_alive"] = [asyncio.run(keep_alive(port, int(n), args.seconds))
                                     for n in args.clients.split(",")]
        if "waits_flood" in only:
            results["waits_flood"] = asyncio.run(flood(port, args.seconds, "/api/waits", WORST))
        if "score_flood" in only:
            results["score_flood"] = asyncio.run(flood(port, args.seconds, "/api/score", DEAREST))
        if "idle_sockets" in only:
            results["idle_sockets"] = asyncio.run(idle_sockets(port, args.seconds))
        if "one_game" in only:
            played = asyncio.run(one_game(port, args.seconds))
            results["one_game"] = {k: v for k, v in played.items() if k != "games"}
            results["one_game"]["checked"] = check_games(command, port, played["games"])
    finally:
        proc.terminate()
        try:
            results["exit_on_sigterm"] = proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            results["exit_on_sigterm"] = "killed after 30 s"
    results["load_after"] = os.getloadavg()

    print(f"{results['mjcalc']} ({version}); load average {results['load_before'][0]:.2f} before, "
          f"{results['load_after'][0]:.2f} after")
    print("\n| keep-alive clients | answers/s | p50 ms | p99 ms | not 200 |\n|---:|---:|---:|---:|---|")
    for row in results.get("keep_alive", []):
        others = {k: v for k, v in row["statuses"].items() if k != "200"}
        print(f"| {row['clients']} | {row['per_second']:,.0f} | {ms(row['p50'])} | {ms(row['p99'])} | "
              f"{others or 'none'} |")
    print()
    for key, what in (("waits_flood", "waits"), ("score_flood", "scores (five wildcards)")):
        got = results.get(key)
        if got:
            print(f"A score while 60 clients loop the slowest {what}: p50 {ms(got['p50'])} ms, p99 "
                  f"{ms(got['p99'])} ms, max {ms(got['max'])} ms; the score's answers {got['probe']}; the 60's "
                  f"{got['flood']}")
    idle = results.get("idle_sockets")
    if idle:
        print(f"A new client's score while 500 idle sockets are held: p50 {ms(idle['p50'])} ms, p99 "
              f"{ms(idle['p99'])} ms, max {ms(idle['max'])} ms; answers {idle['probe']}; idle sockets opened "
              f"{idle['idle_opened']:,}")
    game = results.get("one_game")
    if game:
        print(f"8 phones recording one game ({GAME_HANDS} hands a game): {game['per_second']:,.0f} results "
              f"recorded a second, p50 {ms(game['p50'])} ms, p99 {ms(game['p99'])} ms; answers {game['statuses']}; "
              f"checked {game['checked']}")
    print(f"Exit on SIGTERM: {results['exit_on_sigterm']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)


if __name__ == "__main__":
    main()
