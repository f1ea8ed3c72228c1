"""Differential test: mjcalc's MCR (国标麻将) against the reference calculator ``MahjongGB`` (pymahjonggb 1.4.0).

Several thousand seeded winning situations (tests/mcr_hands.py), each written as mjcalc's line (the one-line
notation, or a GB string) and given to the reference as its own tuples, must come out with the same fans (id,
value and count, flowers included) and the same total; a hand the reference scores under 8 fan (flowers left
out) must not be a win in mjcalc. The generator is held to reach every fan of the spec, and each of its lines
must read back as the situation it was written from.

    .venv/bin/python tests/test_mcr_oracle.py --report /work/notes/mcr-disagreements.md
writes the disagreements by kind, with the smallest examples of each.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("MahjongGB")

sys.path.insert(0, str(Path(__file__).parent))

from mcr_hands import SEATS, Situation, generate, reference_fans

from mjcalc.engine import Request, score_line
from mjcalc.output.record import to_json

pytestmark = pytest.mark.oracle

HANDS = 5000
SEED = 20261201
MINIMUM = 8  # fan, flowers left out
AT_LEAST = 10  # times each fan must come up in the generated hands

# The reference's fan names (its zh name; the wait fans carry a 独听・ prefix there) -> the spec's ids
# (/work/shared/spec/rules/mcr.md): the one table of the mapping.
FAN_IDS = {
    "大四喜": "big_four_winds", "大三元": "big_three_dragons", "绿一色": "all_green", "九莲宝灯": "nine_gates",
    "四杠": "four_kongs", "连七对": "seven_shifted_pairs", "十三幺": "thirteen_orphans",
    "清幺九": "all_terminals", "小四喜": "little_four_winds", "小三元": "little_three_dragons",
    "字一色": "all_honors", "四暗刻": "four_concealed_pungs", "一色双龙会": "pure_terminal_chows",
    "一色四同顺": "quadruple_chow", "一色四节高": "four_pure_shifted_pungs", "一色四步高": "four_pure_shifted_chows",
    "三杠": "three_kongs", "混幺九": "all_terminals_and_honors", "七对": "seven_pairs",
    "七星不靠": "greater_honors_and_knitted_tiles", "全双刻": "all_even_pungs", "清一色": "full_flush",
    "一色三同顺": "pure_triple_chow", "一色三节高": "pure_shifted_pungs", "全大": "upper_tiles",
    "全中": "middle_tiles", "全小": "lower_tiles", "清龙": "pure_straight",
    "三色双龙会": "three_suited_terminal_chows", "一色三步高": "pure_shifted_chows", "全带五": "all_five",
    "三同刻": "triple_pung", "三暗刻": "three_concealed_pungs", "全不靠": "lesser_honors_and_knitted_tiles",
    "组合龙": "knitted_straight", "大于五": "upper_four", "小于五": "lower_four", "三风刻": "big_three_winds",
    "花龙": "mixed_straight", "推不倒": "reversible_tiles", "三色三同顺": "mixed_triple_chow",
    "三色三节高": "mixed_shifted_pungs", "无番和": "chicken_hand", "妙手回春": "last_tile_draw",
    "海底捞月": "last_tile_claim", "杠上开花": "out_with_replacement_tile", "抢杠和": "robbing_the_kong",
    "碰碰和": "all_pungs", "混一色": "half_flush", "三色三步高": "mixed_shifted_chows", "五门齐": "all_types",
    "全求人": "melded_hand", "双暗杠": "two_concealed_kongs", "双箭刻": "two_dragons_pungs",
    "全带幺": "outside_hand", "不求人": "fully_concealed_hand", "双明杠": "two_melded_kongs", "和绝张": "last_tile",
    "箭刻": "dragon_pung", "圈风刻": "prevalent_wind", "门风刻": "seat_wind", "门前清": "concealed_hand",
    "平和": "all_chows", "四归一": "tile_hog", "双同刻": "double_pung", "双暗刻": "two_concealed_pungs",
    "暗杠": "concealed_kong", "断幺": "all_simples", "一般高": "pure_double_chow", "喜相逢": "mixed_double_chow",
    "连六": "short_straight", "老少副": "two_terminal_chows", "幺九刻": "pung_of_terminals_or_honors",
    "明杠": "melded_kong", "缺一门": "one_voided_suit", "无字": "no_honors", "独听・边张": "edge_wait",
    "独听・嵌张": "closed_wait", "独听・单钓": "single_wait", "自摸": "self_drawn", "花牌": "flower_tiles",
    "明暗杠": "concealed_kong_and_melded_kong",
}
FLOWERS = "flower_tiles"


@lru_cache(maxsize=1)
def situations() -> list[Situation]:
    return generate(HANDS, SEED)


def expected(s: Situation) -> tuple[Counter[tuple[str, int, int]], int, int]:
    """The reference's verdict: its fans as (id, value, count), the total, and the total without flowers."""
    fans = Counter((FAN_IDS[zh], value, count) for value, count, zh, _ in reference_fans(s))
    total = sum(v * c for (_, v, c), n in fans.items() for _ in range(n))
    base = sum(v * c for (fid, v, c), n in fans.items() for _ in range(n) if fid != FLOWERS)
    return fans, total, base


def ours(s: Situation) -> dict[str, Any]:
    return to_json(score_line(s.line(), Request(rules="mcr"), with_wait_scores=False))


def differences(s: Situation, out: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """What differs between the two calculators on this situation, as (kind, detail); empty when they agree.
    ``out`` is mjcalc's JSON record of the situation's line (by default: scored here)."""
    fans, total, base = expected(s)
    out = ours(s) if out is None else out
    result = out["result"]
    if result == "error":
        message = (out.get("error") or {}).get("message", "?")
        return [(f"mjcalc error: {message}", "")]
    if base < MINIMUM:
        return [] if result == "not_a_win" else [("not_a_win mismatch", f"reference {base} fan (< 8), mjcalc {result}")]
    if result != "win":
        return [("not_a_win mismatch", f"reference {base} fan, mjcalc {result}")]
    got = Counter((i["id"], i["value"], i["count"]) for i in out["items"])
    found: list[tuple[str, str]] = []
    theirs = {fid: (v, c) for fid, v, c in fans}
    mine = {fid: (v, c) for fid, v, c in got}
    for fid in sorted(theirs.keys() - mine.keys()):
        found.append((f"missing fan {fid}", ""))
    for fid in sorted(mine.keys() - theirs.keys()):
        found.append((f"extra fan {fid}", ""))
    for fid in sorted(theirs.keys() & mine.keys()):
        if theirs[fid] != mine[fid]:
            found.append((f"wrong count {fid}", f"reference {theirs[fid]}, mjcalc {mine[fid]} (value, count)"))
    if not found and out.get("fan") != total:
        found.append(("wrong total", f"reference {total}, mjcalc {out.get('fan')}"))
    return found


def _show(fans: Any) -> str:
    return " ".join(f"{fid}={v}x{c}" if c > 1 else f"{fid}={v}" for fid, v, c in sorted(fans))


def test_random_situations_agree_with_the_reference() -> None:
    found = [(s.line(), d) for s in situations() if (d := differences(s))]
    assert not found, f"{len(found)} disagreements of {HANDS}:\n" + "\n".join(f"{line!r}: {d}" for line, d in found[:20])


BATCH = 1000


def test_batch_jsonl_agrees_with_the_reference(tmp_path: Path) -> None:
    """The same through ``mjcalc batch --rules mcr --format jsonl`` (how whole files of hands are scored): one
    record per line, in order, each agreeing with the reference."""
    from typer.testing import CliRunner

    from mjcalc.cli import app

    sample = situations()[:BATCH]
    path = tmp_path / "hands.txt"
    path.write_text("".join(s.line() + "\n" for s in sample), encoding="utf-8")
    run = CliRunner().invoke(app, ["batch", str(path), "--rules", "mcr", "--format", "jsonl"],
                             env={"MJCALC_CONFIG": str(tmp_path / "none.yaml")})
    records = [json.loads(x) for x in run.stdout.splitlines() if x.startswith("{")]
    assert [(r["line"], r["input"]) for r in records] == [(i + 1, s.line()) for i, s in enumerate(sample)]
    found = [(s.line(), d) for s, r in zip(sample, records, strict=True) if (d := differences(s, r))]
    assert not found, f"{len(found)} disagreements of {BATCH}:\n" + "\n".join(f"{x!r}: {d}" for x, d in found[:20])


def test_generator_reaches_every_fan_and_form() -> None:
    seen: Counter[str] = Counter()
    under = 0
    for s in situations():
        fans, _, base = expected(s)
        seen.update(fid for fid, _, _ in fans)
        under += base < MINIMUM
    thin = {fid: seen[fid] for fid in FAN_IDS.values() if seen[fid] < AT_LEAST}
    assert not thin, f"fans the generator reaches fewer than {AT_LEAST} times: {thin}"
    assert under >= 200, under  # hands under the minimum: not wins
    forms: Counter[str] = Counter()
    for s in situations():
        forms[s.template.split(":")[0]] += 1
        forms["gb" if s.gb else "notation"] += 1
        forms[f"{'gb' if s.gb else 'notation'} style {s.style}"] += 1
        forms[f"flowers {len(s.flowers)}"] += 1
        for flag in ("zimo", "fourth", "last", "gang", "qiang"):
            forms[flag] += getattr(s, flag)
        forms["last with gang or qiang"] += s.last and (s.gang or s.qiang)
        forms["qiang with fourth"] += s.qiang and s.fourth
        forms[f"seat {s.seat}"] += 1
        forms[f"round {s.round}"] += 1
        forms["knitted straight with a meld"] += s.template == "knitted_straight" and bool(s.melds)
        forms["win on a melded pung's kind"] += any(m.kind == "pon" and m.tiles[0] == s.win for m in s.melds)
        for m in s.melds:
            kind = "added kong" if m.added else m.kind
            forms[f"{kind} from {m.source}" if m.kind != "ankan" else kind] += 1
    needed = {"seven_pairs", "seven_shifted_pairs", "thirteen_orphans", "greater_honors_knitted",
              "lesser_honors_knitted", "knitted_straight", "nine_gates", "four_kongs", "chicken_hand", "random_tiles", "gb",
              "notation", "zimo", "fourth", "last with gang or qiang", "qiang with fourth", "win on a melded pung's kind", "knitted straight with a meld", "last", "gang", "qiang", "ankan"}
    needed |= {f"notation style {n}" for n in range(3)} | {"gb style 0", "gb style 1"}
    needed |= {f"flowers {n}" for n in range(9)} | {f"seat {w}" for w in SEATS} | {f"round {w}" for w in SEATS}
    needed |= {f"{kind} from {seat}" for kind in ("chi", "pon", "kong", "added kong") for seat in (1, 2, 3)}
    assert {k for k in needed if forms[k] < AT_LEAST} == set(), forms


def test_situations_hold_together() -> None:
    """Only situations the rules allow: what mjcalc refuses (rules/mcr.md) is never generated."""
    for s in situations():
        kinds = s.kinds()
        assert max(Counter(kinds).values()) <= 4, s
        alone = kinds.count(s.win) == 1
        assert not s.fourth or alone, s
        assert not s.qiang or (alone and not s.zimo), s
        assert not s.gang or (s.zimo and any(m.kind in ("kong", "ankan") for m in s.melds)), s


READ_BACK = 1500


def test_lines_read_back() -> None:
    """Each line (notation or GB string) reads back in mjcalc as the situation it was written from."""
    from mjcalc.core.notation import parse_line
    from mjcalc.engine import read_line
    from mjcalc.errors import MjcalcError
    from mjcalc.ruleset.loader import load_ruleset

    rules = load_ruleset("mcr")
    wrong = []
    for s in situations()[:READ_BACK]:
        line = s.line()
        try:
            read = read_line(parse_line(line), rules, Request(rules="mcr"))
        except MjcalcError as exc:
            wrong.append(f"{line!r}: {exc}")
            continue
        hand, ctx = read.hand, read.ctx
        got = (sorted(hand.concealed), hand.win_tile, sorted((m.kind, sorted(m.tiles)) for m in hand.melds),
               len(hand.flowers), ctx.zimo, ctx.get("fourth"), ctx.last, ctx.gang, ctx.qiang, ctx.seat, ctx.round)
        kind = {"chi": "chi", "pon": "pon", "kong": "kong", "ankan": "concealed_kong"}
        want = (sorted(s.concealed), s.win, sorted((kind[m.kind], sorted(m.tiles)) for m in s.melds),
                len(s.flowers), s.zimo, s.fourth, s.last, s.gang, s.qiang, s.seat, s.round)
        if got != want:
            wrong.append(f"{line!r}: read {got}, written {want}")
    assert not wrong, f"{len(wrong)} lines of {READ_BACK} read back otherwise:\n" + "\n".join(wrong[:10])


# --- the report -------------------------------------------------------------------------------------------------

NOTES = "## Notes from the oracle developer"


def report(path: Path, count: int = HANDS, seed: int = SEED) -> int:
    """Write the disagreements of ``count`` situations by kind, up to 3 smallest examples each; their number."""
    by_kind: dict[str, list[tuple[int, str, str, str, str]]] = defaultdict(list)
    bad = 0
    for s in generate(count, seed):
        try:
            found = differences(s)
        except Exception as exc:  # noqa: BLE001 - a crash of mjcalc is a disagreement of its own kind
            found = [("mjcalc exception", f"{type(exc).__name__}: {exc}")]
        if not found:
            continue
        bad += 1
        fans, _, _ = expected(s)
        try:
            out = ours(s)
            mine = _show((i["id"], i["value"], i["count"]) for i in out.get("items") or [])
            mine = f"{out['result']} fan={out.get('fan')} {mine}"
        except Exception as exc:  # noqa: BLE001
            mine = f"exception {exc}"
        for kind, detail in found:
            by_kind[kind].append((len(found) * 1000 + len(s.line()), s.line(), detail, _show(fans), mine))
    import subprocess
    import time

    def git(*a: str) -> str:
        return subprocess.run(["git", *a], capture_output=True, text=True, cwd=Path(__file__).parent).stdout.strip()

    state = git("log", "-1", "--format=%h %s")[:90] + (" + uncommitted changes" if git("status", "--short", "-uno") else "")
    lines = ["# MCR differential: mjcalc against pymahjonggb 1.4.0", "",
             f"Run {time.strftime('%H:%M UTC', time.gmtime())} on `{state}`.", "",
             f"{count} generated hands (tests/mcr_hands.py, seed {seed}), {bad} with a disagreement.", ""]
    if by_kind:
        lines += ["| kind | hands |", "| --- | --- |"]
        lines += [f"| {kind} | {len(v)} |" for kind, v in sorted(by_kind.items(), key=lambda kv: -len(kv[1]))]
        lines.append("")
        for kind, v in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
            lines += [f"## {kind} ({len(v)})", ""]
            for _, line, detail, theirs, mine in sorted(v)[:3]:
                lines += [f"- `{line}`" + (f" -- {detail}" if detail else ""),
                          f"  - reference: {theirs}", f"  - mjcalc: {mine}"]
            lines.append("")
    notes = path.read_text(encoding="utf-8") if path.exists() else ""
    kept = notes[notes.index(NOTES):] if NOTES in notes else ""  # what was written to the MCR developer by hand
    path.write_text("\n".join(lines) + "\n" + kept, encoding="utf-8")
    return bad


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="write the MCR disagreement report")
    parser.add_argument("--report", type=Path, required=True)
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    print(report(args.report, args.hands, args.seed), "hands disagree")
