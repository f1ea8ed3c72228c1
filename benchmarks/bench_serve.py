"""`mjcalc serve` under load, from a load generator in this process (asyncio, keep-alive connections, 127.0.0.1
only): requests per second and latencies of ``POST /api/score``, by number of clients; a score's latency while
clients loop the slowest waits; a score's latency while idle sockets are held open.

    python benchmarks/bench_serve.py [--mjcalc PATH] [--seconds 5] [--clients 1,8,64,256] [--json FILE]

``--mjcalc``: the ``mjcalc`` command to start (another checkout's venv, for a before / after); by default this
interpreter's ``-m mjcalc``. The server is started on a free port and stopped at the end. Each figure:

- **keep-alive clients**: N connections, each sending a score and waiting for its answer, over and over, for
  ``--seconds``: answers per second, p50 / p99 latency, and how many were not 200 (503: refused as busy);
- **slowest waits**: 60 connections loop the waits of ``345567888p9999s +hui=9s +zimo`` (meihe), and one more
  sends a normal score every 50 ms: that score's p50 / p99 / max, and what the 60 were answered; the same
  with the 60 looping the slowest score (``345567888p9999s9p +hui=9s +zimo``, five wildcards);
- **idle sockets**: 500 connections that send nothing are held open (each one the server closes is opened
  again), and a new client sends a normal score every 50 ms: p50 / p99 / max and how many failed.

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
import time
from typing import Any

QUICK = {"hand": "123m456p789s111z22z +zimo +seat=E"}
WORST = {"hand": "345567888p9999s +hui=9s +zimo", "rules": "meihe"}
DEAREST = {"hand": "345567888p9999s9p +hui=9s +zimo", "rules": "meihe"}  # a score with five wildcards
LENGTH = re.compile(rb"content-length:\s*(\d+)", re.IGNORECASE)


def start(command: list[str]) -> tuple[subprocess.Popen[str], int]:
    env = {**os.environ, "MJCALC_CONFIG": "/nonexistent/mjcalc.yaml", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([*command, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
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


async def exchange(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, data: bytes) -> int:
    writer.write(data)
    head = await reader.readuntil(b"\r\n\r\n")
    found = LENGTH.search(head)
    if found:
        await reader.readexactly(int(found.group(1)))
    else:  # no length: the answer ends with the connection (a server's plain-text refusal)
        await reader.read()
        raise ConnectionResetError(f"answer without a length: {head[:40]!r}")
    return int(head.split()[1])


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
    args = parser.parse_args()
    command = shlex.split(args.mjcalc) if args.mjcalc else [sys.executable, "-m", "mjcalc"]
    version = subprocess.run([*command, "--version"], capture_output=True, text=True).stdout.strip()
    proc, port = start(command)
    results: dict[str, Any] = {"mjcalc": " ".join(command), "version": version, "load_before": os.getloadavg()}
    try:
        asyncio.run(warm(port))
        results["keep_alive"] = [asyncio.run(keep_alive(port, int(n), args.seconds)) for n in args.clients.split(",")]
        results["waits_flood"] = asyncio.run(flood(port, args.seconds, "/api/waits", WORST))
        results["score_flood"] = asyncio.run(flood(port, args.seconds, "/api/score", DEAREST))
        results["idle_sockets"] = asyncio.run(idle_sockets(port, args.seconds))
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
    for row in results["keep_alive"]:
        others = {k: v for k, v in row["statuses"].items() if k != "200"}
        print(f"| {row['clients']} | {row['per_second']:,.0f} | {ms(row['p50'])} | {ms(row['p99'])} | "
              f"{others or 'none'} |")
    idle = results["idle_sockets"]
    print()
    for key, what in (("waits_flood", "waits"), ("score_flood", "scores (five wildcards)")):
        got = results[key]
        print(f"A score while 60 clients loop the slowest {what}: p50 {ms(got['p50'])} ms, p99 {ms(got['p99'])} ms, "
              f"max {ms(got['max'])} ms; the score's answers {got['probe']}; the 60's {got['flood']}")
    print(f"A new client's score while 500 idle sockets are held: p50 {ms(idle['p50'])} ms, p99 {ms(idle['p99'])} ms, "
          f"max {ms(idle['max'])} ms; answers {idle['probe']}; idle sockets opened {idle['idle_opened']:,}")
    print(f"Exit on SIGTERM: {results['exit_on_sigterm']}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2)


if __name__ == "__main__":
    main()
