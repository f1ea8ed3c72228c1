"""Importing game logs, whole processes as a user runs them: `mjcalc game import DIR --json` (each log read, replayed
by the game engine, every win re-scored and set beside the log) and `mjcalc batch DIR --format jsonl` (every win
re-scored) against a Python process that only parses the same files with the standard library's XML / JSON
parser. The target: import within 3× the parse; memory flat in the number of files (max RSS at 100 and 1,000).

The logs: real-sized, made from the real whole games of tests/data/tenhou (mjlog XML and tenhou.net/6 JSON, every
event of play kept) by relabelling their tiles — the three suits in each of their 6 orders, the three dragons
turned round (白 → 發 → 中 → 白: a dora indicator keeps pointing at its dora), the log's dragon yaku with them — so
each variant is another game of the same shape whose every win Tenhou would score alike (every hand still agrees
with its log). That gives 16 games × 18 = 288 distinct ones; beyond that the variants come round again (the first
line printed says how many were distinct).

    python benchmarks/bench_logs.py [--counts 100,1000] [--rounds 3] [--mjcalc PATH]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "tenhou"
SUITS = list(itertools.permutations(range(3)))
DRAGONS = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]  # turned round: the dora after an indicator stays its dora

PARSE_ONLY = """
import json, sys, xml.etree.ElementTree as ET
for path in sys.argv[1:]:
    if path.endswith(".json"):
        with open(path, "rb") as f:
            json.load(f)
    else:
        ET.parse(path)
"""


def whole_games() -> list[Path]:
    """The real logs that are whole games with a final result."""
    sys.path.insert(0, str(ROOT))
    from mjcalc.logs import LogError, read_path

    out = []
    for path in sorted(DATA.iterdir()):
        if path.name == "README.md":
            continue
        try:
            game = read_path(path)
        except LogError:
            continue
        if game.whole and game.final_scores is not None and len(game.hands) > 3:
            out.append(path)
    return out


def kind_map(suits: tuple[int, ...], dragons: tuple[int, ...]) -> list[int]:
    """Each of the 34 kinds relabelled: the suits in another order, the dragons in another order."""
    out = []
    for kind in range(34):
        if kind < 27:
            out.append(suits[kind // 9] * 9 + kind % 9)
        elif kind >= 31:
            out.append(31 + dragons[kind - 31])
        else:
            out.append(kind)
    return out


def tile_id(kinds: list[int], t: int) -> int:
    """A tile of Tenhou's 136 numbers relabelled (the copy kept: a red five stays red)."""
    return kinds[t // 4] * 4 + t % 4


def meld_code(kinds: list[int], m: int) -> int:
    """A call of the mjlog's 16-bit code relabelled."""
    if m & 0x4:  # chi: base kind and the called one's position above bit 10
        t = m >> 10
        called, t = t % 3, t // 3
        base = (t // 7) * 9 + t % 7
        new = kinds[base]
        return (((new // 9) * 7 + new % 9) * 3 + called) << 10 | (m & 0x3FF)
    if m & 0x18:  # pon or added kong: kind above bit 9
        t = m >> 9
        called, kind = t % 3, t // 3
        return (kinds[kind] * 3 + called) << 9 | (m & 0x1FF)
    return tile_id(kinds, m >> 8) << 8 | (m & 0xFF)  # a kong: its tile above bit 8


_TILE_ATTRS = ("hai", "hai0", "hai1", "hai2", "hai3", "machi", "doraHai", "doraHaiUra")
DRAGON_YAKU = {18: 31, 19: 32, 20: 33}  # Tenhou's yaku numbers of 白 發 中 and their kinds
DRAGON_NAMES = {31: "役牌 白", 32: "役牌 發", 33: "役牌 中"}
_ATTR = re.compile(r'(\w+)="([^"]*)"')
_TAG = re.compile(r"<(\w+)([^>]*)/>")
_MOVE = re.compile(r"[TUVWDEFG]\d+")


def relabel_xml(text: str, kinds: list[int]) -> str:
    def numbers(value: str, f: Callable[[int], int]) -> str:
        return ",".join(str(f(int(x))) for x in value.split(",")) if value else value

    def attr(tag: str, m: re.Match[str]) -> str:
        name, value = m.group(1), m.group(2)
        if name in _TILE_ATTRS:
            value = numbers(value, lambda t: tile_id(kinds, t))
        elif name == "m":
            value = numbers(value, lambda c: meld_code(kinds, c))
        elif name == "yaku" and tag == "AGARI":
            numbers_of = [int(x) for x in value.split(",")] if value else []
            for k in range(0, len(numbers_of), 2):
                if numbers_of[k] in DRAGON_YAKU:
                    numbers_of[k] = {v: y for y, v in DRAGON_YAKU.items()}[kinds[DRAGON_YAKU[numbers_of[k]]]]
            value = ",".join(map(str, numbers_of))
        elif name == "seed" and tag == "INIT":
            parts = value.split(",")
            parts[5] = str(tile_id(kinds, int(parts[5])))
            value = ",".join(parts)
        return f'{name}="{value}"'

    def tag(m: re.Match[str]) -> str:
        name = m.group(1)
        if _MOVE.fullmatch(name):
            return f"<{name[0]}{tile_id(kinds, int(name[1:]))}{m.group(2)}/>"
        return f"<{name}" + _ATTR.sub(lambda a: attr(name, a), m.group(2)) + "/>"

    return _TAG.sub(tag, text)


def code_kind(code: int) -> tuple[int, bool]:
    if code in (51, 52, 53):
        return (code - 51) * 9 + 4, True
    return (code // 10 - 1) * 9 + code % 10 - 1, False


def relabel_code(code: int, kinds: list[int]) -> int:
    if code == 60 or code == 0:
        return code
    kind, red = code_kind(code)
    new = kinds[kind]
    if new >= 27:
        return 41 + new - 27
    if red:
        return 51 + new // 9
    return (new // 9 + 1) * 10 + new % 9 + 1


def relabel_json(text: str, kinds: list[int]) -> str:
    data = json.loads(text)

    def item(x: object) -> object:
        if isinstance(x, int) and not isinstance(x, bool):
            return relabel_code(x, kinds)
        if isinstance(x, str):
            if x.startswith("r") and x[1:].isdigit():
                return "r" + str(relabel_code(int(x[1:]), kinds))
            return re.sub(r"\d\d", lambda m: f"{relabel_code(int(m.group()), kinds):02d}", x)
        return x

    names = {DRAGON_NAMES[k]: DRAGON_NAMES[kinds[k]] for k in DRAGON_NAMES}
    for hand in data["log"]:
        result = hand[16]
        if result and result[0] == "和了":
            for j in range(2, len(result), 2):
                result[j] = [next((names[n] + y[len(n):] for n in names if isinstance(y, str) and y.startswith(n)), y)
                             for y in result[j]]
        for k in (2, 3):
            hand[k] = [item(x) for x in hand[k]]
        for k in range(4, 16):
            hand[k] = [item(x) for x in hand[k]]
    return json.dumps(data, ensure_ascii=False)


def variants(count: int) -> Iterator[tuple[str, str]]:
    """``count`` logs (file name, text), distinct while the relabellings last, then round again."""
    games = [(p, p.read_text(encoding="utf-8")) for p in whole_games()]
    combos = [(g, s, d) for s in SUITS for d in DRAGONS for g in games]
    for n in range(count):
        (path, text), s, d = combos[n % len(combos)]
        kinds = kind_map(s, d)
        body = relabel_json(text, kinds) if path.suffix == ".json" else relabel_xml(text, kinds)
        yield f"{n:05d}-{path.stem}{'.json' if path.suffix == '.json' else '.xml'}", body


def distinct() -> int:
    return len(whole_games()) * len(SUITS) * len(DRAGONS)


def timed(argv: list[str], **kwargs: object) -> tuple[float, int, float]:
    """A whole process's wall time, max RSS (KiB) and processor time (user + system: on a shared machine the
    steadier of the two times)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)  # type: ignore[call-overload]
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0,):
        raise SystemExit(f"{' '.join(argv[:4])} … exit {proc.returncode}: {err[-2000:]}")
    return seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--counts", default="100,1000")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--mjcalc", default=None, help="the mjcalc command (default: this interpreter's -m mjcalc)")
    args = parser.parse_args()
    mjcalc = [args.mjcalc] if args.mjcalc else [sys.executable, "-m", "mjcalc"]
    print(f"{distinct()} distinct games from {len(whole_games())} real ones")
    for count in (int(c) for c in args.counts.split(",")):
        with tempfile.TemporaryDirectory(prefix="mjcalc-logs-") as folder:
            names = []
            size = 0
            for name, text in variants(count):
                path = os.path.join(folder, name)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                size += len(text.encode())
                names.append(path)
            runs: dict[str, list[tuple[float, int, float]]] = {"parse": [], "import": [], "batch": []}
            for _ in range(args.rounds):
                runs["parse"].append(timed([sys.executable, "-c", PARSE_ONLY, *names]))
                runs["import"].append(timed([*mjcalc, "game", "import", folder, "--json"]))
                runs["batch"].append(timed([*mjcalc, "batch", folder, "--format", "jsonl"]))
            parse = statistics.median(t for t, _, _ in runs["parse"])
            parse_cpu = statistics.median(c for _, _, c in runs["parse"])
            print(f"{count} logs ({size / count / 1024:.0f} KiB each, {size / 2**20:.1f} MiB):")
            for what, results in runs.items():
                seconds = statistics.median(t for t, _, _ in results)
                cpu = statistics.median(c for _, _, c in results)
                rss = max(r for _, r, _ in results)
                ratio = f"  {seconds / parse:4.2f}× the parse (CPU {cpu / parse_cpu:4.2f}×)" if what != "parse" else ""
                rate = f"  {count / seconds:6.0f} games/s" if what != "parse" else ""
                print(f"  {what:7} {seconds:7.2f} s, CPU {cpu:6.2f} s{ratio}{rate}  max RSS {rss / 1024:6.1f} MiB")


if __name__ == "__main__":
    main()
