"""The fast reader of the usual line (notation._parse_common) against the general one (notation._parse_any), which
is the grammar written out character by character: on every line the fast reader takes, both give the same tiles
with their columns, melds, flowers and flags; a line the general reader refuses the fast one never takes; and the
hand built from either is the same, or the same error at the same column. Lines: the case files and examples,
mutations of them (tests/line_mutations.py), generated riichi, MCR (honors as digits, letters and characters,
flowers) and benchmark lines."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from line_mutations import builtin_rulesets, mutate, seed_lines

from mjcalc.core.hand import Hand, build_hand
from mjcalc.core.normalise import normalise
from mjcalc.core.notation import ParsedLine, _parse_any, _parse_common, parse_line
from mjcalc.errors import MjcalcError
from mjcalc.ruleset.loader import load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))


def _lines() -> list[str]:
    import gen_hands
    import mcr_hands
    import riichi_situations

    rng = random.Random(20261202)
    seeds = seed_lines()
    out = [*seeds, *(mutate(rng.choice(seeds), rng) for _ in range(1500))]
    out += [s.line() for s in riichi_situations.generate(300, 5)]
    mcr = mcr_hands.generate(300, 5)
    for k, s in enumerate(mcr):
        s.style = k % 3
    out += [s.notation() for s in mcr]
    out += gen_hands.lines(300, 5)
    # spacing and flags around the groups: +flags without spaces, tiles right after a meld, flags then tiles
    out += ["123m456p789s111z22z+zimo+seat=E", "23m456p789s22z [111z]1m +zimo", "23m[111z]456p789s22z 1m",
            "123m456p789s111z22z  +zimo", "123m456p789s111z22z +zimo  +seat=E", "123m456p789s111z22z +zimo 1m",
            "123m456p789s111z22z\t+zimo", "123m456p789s111z22z +zimo\t+seat=E", "", "+zimo", "1m+", "[]",
            "123m456p789s111z2z 2z +", "123m456p789s111z22z +=E", "123m456p789s111z22z +a=", "东东东南南 +seat=东",
            "123m456p789s 1f2f3f [东东东] 2z2z", "123m 0f", "123m 9f", "1m2f3z 8z", "1m [1m+] 2m", "1m [1 1m]"]
    return out


LINES = _lines()
TILE_RULES = [load_ruleset(name).tile_rules for name in builtin_rulesets()]


def _tiles(tiles: object) -> list[tuple[int, int, bool]]:
    return [(t.tile, t.column, t.red) for t in tiles]  # type: ignore[attr-defined]


def _read(line: ParsedLine) -> tuple[object, ...]:
    return (_tiles(line.concealed), [(m.kind, _tiles(m.tiles), m.column, m.text, m.added, m.shape.kinds,
                                      m.shape.reds) for m in line.melds],
            _tiles(line.flowers), list(line.flags), line.kinds, line.red_kinds, line.flower_kinds)


def _hand(line: ParsedLine, rules: object) -> object:
    try:
        hand = build_hand(line, rules)  # type: ignore[arg-type]
    except MjcalcError as exc:
        return exc.kind, exc.message, exc.column
    # build_hand gives the Hand its melds' facts as kept with each meld's shape: those of the melds themselves
    made = Hand(hand.concealed, hand.melds, hand.win_tile, hand.flowers, hand.reds, hand.sets, hand.red_kinds)
    assert (hand.facts, hand.closed, hand.kinds) == (made.facts, made.closed, made.kinds), line.text
    assert hand.text() == _text_as_defined(hand), line.text
    return hand, hand.facts


def _text_as_defined(hand: Hand) -> str:
    """Hand.text as its docstring defines it, from the melds themselves (Hand.text reads each meld's text, called
    and reds from a memo kept by the meld)."""
    from mjcalc.core import tiles as T

    win = hand.win_tile
    called = any(m.called for m in hand.melds)
    body = list(hand.concealed)
    if win is not None:
        if not called:
            body.remove(win)
        body.sort()
    red = list(hand.red_kinds)
    for m in hand.melds:
        for k in m.reds:
            if k in red:
                red.remove(k)
    parts = [T.format_tiles(body, sort=False, red=red, between=" "), *(m.text() for m in hand.melds)]
    if hand.flowers:
        parts.append("".join(str(f + 1) for f in sorted(hand.flowers)) + "f")
    if win is not None and not called:
        parts.append(T.format_tiles((win,), red=[win]) if red and win in red and win not in body else T.name(win))
    return " ".join(p for p in parts if p)


def test_the_fast_reader_reads_as_the_general_one() -> None:
    taken = 0
    for raw in LINES:
        try:
            text = normalise(raw)
        except MjcalcError:
            continue
        if "|" in text or len(text) > 1000:
            continue
        fast = _parse_common(text)
        try:
            general = _parse_any(text)
        except MjcalcError as exc:
            assert fast is None, (raw, exc.message)
            continue
        if fast is None:
            continue
        taken += 1
        assert _read(fast) == _read(general), raw
        for rules in TILE_RULES:  # each from a fresh reading: a reading keeps what it was asked
            assert _hand(_parse_common(text), rules) == _hand(_parse_any(text), rules), (raw, rules.ruleset)
    assert taken > 1200  # most lines are the usual kind


@pytest.mark.parametrize("flags", ["+zimo +seat=E", "+seat=S +zimo+riichi", "+lian=3"])
def test_flags_met_again_are_read_once_with_the_columns_of_each_line(flags: str) -> None:
    line = f"123m456p789s111z22z {flags}"
    shifted = f"123m456p789s 1f 111z22z {flags}"  # four characters more before the flags
    first, again, moved = parse_line(line), parse_line(line), parse_line(shifted)
    assert again.flag_memo is not None and moved.flag_memo is again.flag_memo
    assert first.flags == again.flags == _parse_any(line).flags
    assert moved.flags == _parse_any(shifted).flags
    assert [w.column + 4 for w in again.flags] == [w.column for w in moved.flags]


def test_what_the_flags_made_is_kept_with_the_columns_of_each_line() -> None:
    """read_line keeps what a flag text made (engine.read_line, FlagsRead); the same flags further along a line
    point at their own columns (+win is read by the general flag path, with its column)."""
    from mjcalc.engine import score_line

    won = "123m456p789s111z22z +win=1m +zimo"
    for _ in range(3):  # met again: kept
        assert score_line(won).result == "win"
    moved = "456m 456p789s111z22z +win=1m +zimo"  # no 1m: +win is refused where it is written
    r = score_line(moved)
    assert r.result == "error" and r.error.column == moved.index("+win") + 1, r.error
