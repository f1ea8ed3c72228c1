"""Mutated hand lines for the fuzz tests (tests/test_fuzz_lines.py) and the long fuzz run (benchmarks/fuzz_lines.py).

Seed lines are every hand of the case files and the example files; a mutation changes a seed the way a
hostile or careless user would: full-width and other Unicode digits, letters and punctuation, control bytes,
characters inserted, deleted or swapped, huge numbers in the numeric flags, flags piled up, long lines, GB
strings. Deterministic for a seed (``random.Random``).
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent

# Unicode decimal digits of other scripts (str.isdigit() is true for all, int() reads most), superscripts,
# circled and other compatibility forms, full-width forms of the ASCII the notation uses.
OTHER_DIGITS = ("١٢٣٤٥٦٧٨٩٠"  # Arabic-Indic
                "۱۲۳۴۵۶۷۸۹۰"  # Extended Arabic-Indic
                "१२३४५६७८९०"  # Devanagari
                "১২৩৪৫৬৭৮৯০"  # Bengali
                "๑๒๓๔๕๖๗๘๙๐"  # Thai
                "¹²³⁴⁵⁶⁷⁸⁹⁰₁₂₃₄₅₆₇₈₉₀"  # super- and subscripts (isdigit() true, int() refuses)
                "①②③④⑤⑥⑦⑧⑨⑩⑪⒈⒉❶❷➀"  # circled and others (isdigit() true for some)
                "𝟏𝟐𝟑𝟗𝟘𝟙𝟚𝟛"  # mathematical digits (NFKC: ASCII)
                "〡〢〣〤〥一二三四五六七八九十")  # Hangzhou and CJK numerals
FULL_WIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}
ODD = ("\u3000\u00a0\u2003\u200b\u200d\ufeff\u202e\u2028\u2029\u0085\u00ad\u0301\ufffd\U0001f004\U0001f600"
       "東發中白發万筒条索萬㎜½…、。，：；！？＂＇ǅﬀſKÅ𝐦𝐩𝐬𝐳ｍｐｓｚ")
CONTROL = [chr(c) for c in (*range(0, 32), 127, *range(0x80, 0xA0))]
SURROGATES = ["\udce9", "\udcff", "\ud800"]  # undecodable bytes as surrogateescape makes them
NUMERIC_FLAGS = ("base", "cap", "honba", "sticks", "lian", "底", "本场")
TILE_FLAGS = ("win", "bao", "hui", "flip", "dora", "ura", "和", "宝")
OTHER_FLAGS = ("zimo", "seat=E", "seat=W", "from=W", "round=S", "gang", "qiang", "last", "tian", "di", "ren",
               "riichi", "wriichi", "ippatsu", "mobao", "duibao", "gangpao", "fourth", "baozhuang", "closed=W,N",
               "dealer", "rules=riichi", "rules=jilin", "rules=meihe", "rules=changchun-mil", "rules=nosuch",
               "rules=/dev/null", "rules=" + "x" * 300, "seat=", "=", "", "zimo=maybe", "自摸", "包庄", "pao=W",
               "pao=S", "包=北")
TILES = [f"{d}{s}" for s in "mps" for d in range(10)] + [f"{d}z" for d in range(1, 8)] + [f"{d}f" for d in range(1, 9)]


def builtin_rulesets() -> list[str]:
    return sorted(p.stem for p in (ROOT / "rules").glob("*.yaml"))


def seed_lines() -> list[str]:
    """Every hand line of the case files and the example files (homework answers cut off), deduplicated."""
    seen: dict[str, None] = {}
    for path in sorted((ROOT / "tests" / "cases").glob("*.yaml")):
        for case in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("cases", []):
            if isinstance(case, dict) and isinstance(case.get("hand"), str):
                seen[case["hand"]] = None
    for path in sorted((ROOT / "examples").glob("*.txt")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            line = raw.split("=>")[0].strip()
            if line and not line.startswith("#"):
                seen[line] = None
    seen["[1111s,1][2222m,2][3333p,7][4444p]88s|EE0000|2"] = None
    seen["[123m,1]456p789s111z2z|ES1010|abc"] = None
    return list(seen)


def _huge_number(rng: random.Random) -> str:
    choice = rng.randrange(8)
    if choice == 0:
        return "9" * rng.choice((4301, 5000, 20000, 100000))
    if choice == 1:
        return str(10 ** rng.randint(10, 400))
    if choice == 2:
        return "-" + str(rng.randint(1, 10 ** 6))
    if choice == 3:
        return "".join(rng.choice(OTHER_DIGITS) for _ in range(rng.randint(1, 6)))
    if choice == 4:
        return rng.choice(("1_000", "+3", " 7", "0x10", "1e9", "١٠", "１０", "³", "NaN", "inf", "00000000000001"))
    if choice == 5:
        return str(2 ** 63) if rng.random() < 0.5 else str(2 ** 31)
    if choice == 6:
        return str(rng.randint(0, 10 ** 12))
    return str(rng.randint(0, 20))


def _tile_value(rng: random.Random) -> str:
    choice = rng.randrange(5)
    if choice == 0:
        return "".join(rng.choice(TILES) for _ in range(rng.randint(1, 12)))
    if choice == 1:
        return rng.choice(OTHER_DIGITS) + rng.choice("mpsz")
    if choice == 2:
        return "".join(FULL_WIDTH.get(c, c) for c in rng.choice(TILES))
    if choice == 3:
        return rng.choice(TILES) * rng.randint(50, 2000)
    return rng.choice(TILES)


def _flag(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3:
        return f"+{rng.choice(NUMERIC_FLAGS)}={_huge_number(rng)}"
    if roll < 0.6:
        return f"+{rng.choice(TILE_FLAGS)}={_tile_value(rng)}"
    return f"+{rng.choice(OTHER_FLAGS)}"


def _odd_char(rng: random.Random) -> str:
    pool = rng.randrange(5)
    if pool == 0:
        return rng.choice(OTHER_DIGITS)
    if pool == 1:
        return rng.choice(CONTROL)
    if pool == 2:
        return rng.choice(ODD)
    if pool == 3:
        return rng.choice(SURROGATES)
    return rng.choice(list(FULL_WIDTH.values()))


def mutate(line: str, rng: random.Random) -> str:
    """One mutation (sometimes a few in a row) of a line."""
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        line = _mutate_once(line, rng)
    return line


def _mutate_once(line: str, rng: random.Random) -> str:
    kind = rng.randrange(13)
    at = rng.randint(0, len(line))
    if kind == 0:  # the whole line, or a part, full-width
        start, end = sorted((rng.randint(0, len(line)), rng.randint(0, len(line))))
        if rng.random() < 0.4:
            start, end = 0, len(line)
        return line[:start] + "".join(FULL_WIDTH.get(c, c) for c in line[start:end]) + line[end:]
    if kind == 1:  # digits of another script in place of ASCII digits
        return "".join(rng.choice(OTHER_DIGITS) if c.isdigit() and rng.random() < 0.3 else c for c in line)
    if kind == 2:  # a control byte or an odd character inserted
        return line[:at] + _odd_char(rng) + line[at:]
    if kind == 3 and line:  # a character deleted
        at = min(at, len(line) - 1)
        return line[:at] + line[at + 1 :]
    if kind == 4 and len(line) > 1:  # two characters swapped
        a, b = rng.randrange(len(line)), rng.randrange(len(line))
        chars = list(line)
        chars[a], chars[b] = chars[b], chars[a]
        return "".join(chars)
    if kind == 5:  # a character of the notation's alphabet inserted
        return line[:at] + rng.choice("0123456789mpszf[](){}+=,| ESWNPFC东南西北白发中") + line[at:]
    if kind == 6:  # a flag added (a huge number, a tile list, any flag)
        return f"{line} {_flag(rng)}" if rng.random() < 0.7 else line[:at] + _flag(rng) + line[at:]
    if kind == 7:  # many flags
        return line + "".join(_flag(rng) if rng.random() < 0.2 else f" +{rng.choice(OTHER_FLAGS)}"
                              for _ in range(rng.choice((50, 500, 3000))))
    if kind == 8:  # a long line: tiles or a part repeated
        piece = rng.choice((rng.choice(TILES), line[at : at + rng.randint(1, 20)] or "1m", " ", "[123m] "))
        return line + piece * rng.choice((100, 1000, 20000, 250000))
    if kind == 9:  # a character replaced by an odd one
        at = min(at, max(len(line) - 1, 0))
        return line[:at] + _odd_char(rng) + line[at + 1 :]
    if kind == 10:  # a GB tail or its parts
        tail = rng.choice(("|EE0000|2", "|ES1111|8", "|" + rng.choice(OTHER_DIGITS), "|EE00", "||", "|EE0000|9",
                           "|EE0000|abcdefgh", "|EE0000|" + _huge_number(rng), "|ＥＥ０１０１|２", "|E"))
        return line + tail
    if kind == 11:  # a numeric flag's value replaced
        return f"{line} +{rng.choice(NUMERIC_FLAGS)}={_huge_number(rng)}"
    # a whole-line transformation
    pick = rng.randrange(4)
    if pick == 0:
        return line.upper()
    if pick == 1:
        return line.replace(" ", rng.choice(("\t", "\u3000", "  ", "\x0b", "\x1c", "")))
    if pick == 2:
        return line[: rng.randint(0, len(line))]
    return line + line


def to_bytes(text: str) -> bytes:
    """A mutated line as a file holds it: an undecodable byte (\\udc80-\\udcff) as that byte, another lone
    surrogate as the invalid UTF-8 of its code point."""
    return b"".join(ch.encode("utf-8", "surrogateescape" if "\udc80" <= ch <= "\udcff" else "surrogatepass")
                    for ch in text)


def lines(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` mutated lines, each with a built-in ruleset to score it under."""
    rng = random.Random(seed)
    seeds = seed_lines()
    rulesets = builtin_rulesets()
    return [(mutate(rng.choice(seeds), rng), rng.choice(rulesets)) for _ in range(count)]
