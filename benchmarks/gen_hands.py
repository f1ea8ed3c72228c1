"""Random hand lines for benchmarks: complete 4-set hands (some open, some with kongs), a share of broken
lines, in mjcalc's one-line notation. Deterministic for a seed.

    python benchmarks/gen_hands.py 100000 > /tmp/hands.txt
"""

from __future__ import annotations

import random
import sys

SUITS = "mps"
BROKEN = ["123m456p789s11111z", "123m456p789s111z22x", "123m456p789s11z", "123m456p789s111z22z +bogus",
          "123m456p789s22z [124m] 1m", "[[[", "你好"]


def _set(rng: random.Random, counts: dict[str, int]) -> tuple[str, str] | None:
    """One random set as (kind, tiles), respecting four copies of each tile."""
    for _ in range(20):
        roll = rng.random()
        if roll < 0.55:
            suit, start = rng.choice(SUITS), rng.randint(1, 7)
            tiles = [f"{start + k}{suit}" for k in range(3)]
            kind = "chi"
        elif roll < 0.9:
            suit = rng.choice("mpsz")
            tile = f"{rng.randint(1, 7 if suit == 'z' else 9)}{suit}"
            tiles = [tile] * 3
            kind = "pon"
        else:
            suit = rng.choice("mpsz")
            tile = f"{rng.randint(1, 7 if suit == 'z' else 9)}{suit}"
            tiles = [tile] * 4
            kind = "kong"
        if all(counts.get(t, 0) + tiles.count(t) <= 4 for t in set(tiles)):
            for t in tiles:
                counts[t] = counts.get(t, 0) + 1
            return kind, "".join(t[0] for t in tiles) + tiles[0][1]
    return None


def hand_line(rng: random.Random) -> str:
    counts: dict[str, int] = {}
    concealed: list[str] = []
    melds: list[str] = []
    for _ in range(4):
        made = _set(rng, counts)
        if made is None:
            return rng.choice(BROKEN)
        kind, text = made
        if kind == "kong":
            melds.append(f"({text})" if rng.random() < 0.5 else f"[{text}]")
        elif rng.random() < 0.25:
            melds.append(f"[{text}]")
        else:
            concealed.append(text)
    suit = rng.choice("mpsz")
    pair = f"{rng.randint(1, 7 if suit == 'z' else 9)}{suit}"
    if counts.get(pair, 0) > 2:
        return rng.choice(BROKEN)
    concealed.append(pair[0] * 2 + pair[1])
    flags = []
    if rng.random() < 0.4:
        flags.append("+zimo")
    flags.append(f"+seat={rng.choice('ESWN')}")
    body = "".join(concealed)
    win_at = rng.randrange(len(body) // 2)  # move one tile to the end: the winning tile
    tiles = [(body[i], body[j]) for i, j in _digits(body)]
    win = tiles.pop(win_at % len(tiles))
    rest = "".join(d + s for d, s in tiles)
    return f"{rest} {' '.join(melds)} {win[0]}{win[1]} {' '.join(flags)}".replace("  ", " ")


def _digits(body: str) -> list[tuple[int, int]]:
    """Index pairs (digit, its suit letter) of a compact tile string."""
    out = []
    pending: list[int] = []
    for i, ch in enumerate(body):
        if ch.isdigit():
            pending.append(i)
        else:
            out.extend((p, i) for p in pending)
            pending = []
    return out


def lines(n: int, seed: int = 1, broken: float = 0.1) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(BROKEN) if rng.random() < broken else hand_line(rng) for _ in range(n)]


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    sys.stdout.write("\n".join(lines(count)) + "\n")
