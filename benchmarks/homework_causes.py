"""Labelled homework answers: right answers with one known mistake applied, and how often ``mjcalc check`` names
that mistake as the primary cause (the first difference's ``cause``); ``among``: it is one of the differences'
causes; ``only``: it is the cause of every difference (one mistake, one cause throughout).

    python benchmarks/homework_causes.py gen > /tmp/labelled.jsonl         # every ruleset, every mistake
    python benchmarks/homework_causes.py measure /tmp/labelled.jsonl       # per ruleset and per cause
    PYTHONPATH=/path/to/other/checkout python benchmarks/homework_causes.py measure /tmp/labelled.jsonl
    python benchmarks/homework_causes.py write                             # tests/homework/labelled/*.yaml

A mistake is made by settling the right reading again with one step done wrong (an item dropped, a payer's item
charged to every payer, the fan shifted, the cap left off …) through the ruleset's own settler, and writing the
figures that gives. An answer two mistakes both give is undecidable: it is dropped (and counted).
"""

from __future__ import annotations

import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ("changchun", "changchun-mil", "jilin", "meihe", "taiwan", "taiwan-common", "mcr", "riichi", "riichi-tenhou",
            "riichi-mleague")
PER_RULESET = 45  # cases written to tests/homework/labelled/ per ruleset
HANDS_PER_RULESET = 70


def _hand_lines() -> list[str]:
    """Every hand of the case files, without its ruleset flag, deduplicated."""
    out: dict[str, None] = {}
    for path in sorted((ROOT / "tests" / "cases").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8"))["cases"]:
            if case.get("set") or case.get("rules"):
                continue
            out[re.sub(r"\s*\+rules=\S+", "", str(case["hand"])).strip()] = None
    return list(out)


def _variants(line: str) -> list[str]:
    """The line and a few contexts around it: self-drawn, on another's discard, the dealer winning, a closed loser."""
    out = [line]
    if "+zimo" not in line and "+from" not in line:
        out += [f"{line} +zimo", f"{line} +from=W"]
    if "+seat" not in line and "+dealer" not in line:
        out += [f"{v} +seat=E" for v in list(out)]
    out += [f"{v} +closed=N" for v in out if "+closed" not in v and "+zimo" not in v][:1]
    out += [f"{out[-1]} +cap=20", f"{out[0]} +base=50"]  # a cap that cuts (where the ruleset takes the flags)
    return out


def _name(item: Any) -> str:
    zh = item.names.get("zh", "")
    return zh if zh and not re.search(r"[\s,，、;；:]", zh) else item.id


class Hand:
    """One scored win of a ruleset and the means to settle its reading again another way."""

    def __init__(self, line: str, rules: str) -> None:
        from mjcalc.core.settlement.payments import settle_per_payer
        from mjcalc.engine import Request, score_line
        from mjcalc.registry import SETTLERS

        self.line, self.rules_id = line, rules
        self.res = score_line(f"{line} +rules={rules}", Request(builtin_only=True), with_wait_scores=False)
        self.ok = self.res.result == "win" and self.res.best is not None
        if not self.ok:
            return
        self.rules = self.res.ruleset
        self.best = self.res.best
        self.s = self.best.settlement
        self.awards = list(self.best.awards)
        self.params = {k: self.rules.resolve(v, self.res.options) for k, v in self.rules.formula.items()}
        self.kind = self.params.get("kind")
        self.fn = SETTLERS.get(str(self.kind), settle_per_payer)
        self.riichi = self.kind == "riichi"
        self.unit = {"fan": "fan", "han": "han", "tai": "tai"}.get(self.rules.unit, "fan")

    def settle(self, awards: list[Any] | None = None, options: dict[str, Any] | None = None,
               what_if: dict[str, Any] | None = None, **params: Any) -> Any:
        p = {**self.params, **params}
        if what_if:
            p["what_if"] = what_if
        try:
            return self.fn(self.rules, options if options is not None else self.res.options, p,
                           self.best.candidate, list(self.awards if awards is None else awards))
        except Exception:  # a step the settler cannot do here: no such mistake for this hand
            return None

    def answer(self, fan: int | None = None, fu: int | None = None, points: int | None = None,
               items: list[str] | None = None) -> str:
        parts = []
        if items is not None:
            parts.append("items " + (",".join(items) if items else "none"))
        if fan is not None:
            parts.append(f"{self.unit} {fan}")
        if fu is not None:
            parts.append(f"fu {fu}")
        if points is not None:
            parts.append(f"points {points}")
        return " ".join(parts)

    def right_items(self, drop: Any = None, extra: str | None = None) -> list[str]:
        out = [_name(a.item) for a in self.awards if a is not drop and a.total]
        return out + ([extra] if extra else [])


def _shift(h: Hand, delta: int) -> list[Any]:
    from mjcalc.core.settlement.payments import Award
    from mjcalc.support.frozen import replace

    base = next((a.item for a in h.awards if a.item.applies_to == "all"), h.awards[0].item)
    return [*h.awards, Award(replace(base, id="_shift", applies_to="all", excludes=(), reduces=()), delta, 1)]


def mistakes(h: Hand, rng: random.Random) -> Iterator[tuple[str, str]]:
    """(cause, answer) for each mistake that can be made on this hand."""
    from mjcalc.core.settlement.payments import Award
    from mjcalc.support.frozen import replace

    s, ans = h.s, h.answer
    fu = s.fu if h.riichi else None
    yield "is_a_win", "not a win"
    own: list[Any] = []
    for p in s.payments:
        for a in p.extras:
            if all(a is not b for b in own):
                own.append(a)
    # a payer's item left out of its payment, or charged to every payer
    for a in own:
        alt = h.settle([b for b in h.awards if b is not a])
        if alt is not None and alt.points != s.points:
            yield "payer_item_missed", ans(s.fan, fu, alt.points)
            yield "payer_item_missed", ans(s.fan, fu, alt.points, h.right_items())
            yield "payer_item_missed", ans(s.fan, fu, alt.points, h.right_items(drop=a))
        alt = h.settle([Award(replace(b.item, applies_to="all"), b.value, b.count) if b is a else b
                        for b in h.awards])
        if alt is not None and alt.points != s.points:
            yield "payer_item_to_all", ans(s.fan, fu, alt.points)
        if alt is not None and (alt.points != s.points or alt.fan != s.fan):  # the fan with it, the points too
            yield "payer_item_to_all", ans(alt.fan, fu, alt.points)
            yield "payer_item_to_all", ans(alt.fan, fu, alt.points, h.right_items())
    if len(own) > 1:
        alt = h.settle([b for b in h.awards if all(b is not a for a in own)])
        if alt is not None and alt.points != s.points:
            yield "payer_item_missed", ans(s.fan, fu, alt.points)
        alt = h.settle([Award(replace(b.item, applies_to="all"), b.value, b.count) if any(b is a for a in own)
                        else b for b in h.awards])
        if alt is not None and alt.points != s.points:
            yield "payer_item_to_all", ans(s.fan, fu, alt.points)
    pay_cfg = {k: h.rules.resolve(v, h.res.options) for k, v in h.rules.payments.items()}
    ctx = h.best.candidate.ctx
    if not h.riichi and not ctx.zimo:
        for key, value in (("fan_on_discard", None), ("discard", "all_losers")):
            if (key == "fan_on_discard" and pay_cfg.get(key) == "discarder") or (
                    key == "discard" and pay_cfg.get(key) == "discarder"):
                alt = h.settle(what_if={"payments": {key: value}})
                if alt is not None and alt.points != s.points:
                    yield "payer_item_to_all", ans(s.fan, fu, alt.points)
    # an item missed, counted wrongly, valued wrongly
    common = [a for a in h.awards if all(a is not b for b in own) and a.total]
    for a in rng.sample(common, min(3, len(common))):
        rest = [b for b in h.awards if b is not a]
        if not any(b.total for b in rest):
            continue
        alt = h.settle(rest)
        if alt is not None:
            yield "missed_item", ans(alt.fan, fu, alt.points, h.right_items(drop=a))
    awarded = {a.item.id for a in h.awards}
    c = h.best.candidate
    extra: dict[str, list[Any]] = {"not_applicable": [], "excluded": []}
    for item in h.rules.items:
        if item.id in awarded or not item.is_enabled(h.res.options) or item.applies_to != "all":
            continue
        if item.tier != h.rules.tiers[-1]:
            continue  # no yakuman added to an ordinary hand
        value = h.rules.item_value(item, h.res.options)
        if isinstance(value, tuple):
            value = value[0] if c.hand.closed else value[1]
        if not value or value > 8:
            continue
        try:
            holds = bool(item.when(c))
        except Exception:
            continue
        # a fallback (MCR 无番和) holds on every hand but counts only alone: beside other items it does not apply
        extra["excluded" if holds and not item.fallback else "not_applicable"].append((item, value))
    for cause, found in extra.items():
        for item, value in rng.sample(found, min(2, len(found))):
            alt = h.settle([*h.awards, Award(item, value, 1)])
            if alt is not None:
                yield cause, ans(alt.fan, fu, alt.points, h.right_items(extra=_name(item)))
    single = [a for a in common if a.count == 1]
    for a in rng.sample(single, min(2, len(single))):
        alt = h.settle([Award(a.item, a.value + 1, 1) if b is a else b for b in h.awards])
        if alt is not None:
            items = [f"{_name(b.item)}:{b.value + 1}" if b is a else _name(b.item) for b in h.awards if b.total]
            yield "wrong_value", ans(alt.fan, fu, alt.points, items)
    # a wrong total
    for delta in (-1, 1):
        if s.fan + delta < 1 or not h.awards or (h.riichi and s.fan >= 13):  # a yakuman's han is no count
            continue
        alt = h.settle(what_if={"han": s.fan + delta}) if h.riichi else h.settle(_shift(h, delta))
        if alt is not None:
            yield "wrong_fan", ans(s.fan + delta, fu, alt.points)
            yield "wrong_fan", ans(s.fan + delta, fu, alt.points, h.right_items())
    if h.riichi and s.fu_lines and h.best.candidate.reading.form != "seven_pairs":
        for other in (s.fu - 10, s.fu + 10):
            if other >= 20:
                alt = h.settle(what_if={"fu": other})
                if alt is not None:
                    yield "wrong_fu", ans(s.fan, other, alt.points)
        raw = sum(part for _, part in s.fu_lines)
        if raw != s.fu:
            alt = h.settle(what_if={"fu_unrounded": True})
            if alt is not None:
                yield "rounding", ans(s.fan, raw, alt.points)
        alt = h.settle(what_if={"round_to": 1})
        if alt is not None and alt.points != s.points:
            yield "rounding", ans(s.fan, fu, alt.points)
    # one payment for the total
    if len(s.payments) > 1:
        for amount in dict.fromkeys(p.amount for p in s.payments):
            if amount != s.points:
                yield "one_share", ans(s.fan, fu, amount)
    # the base, the cap
    if h.riichi:
        alt = h.settle(what_if={"dealer": ctx.seat != "E"})
        if alt is not None and alt.points != s.points:
            yield "wrong_base", ans(s.fan, fu, alt.points)
        if s.limit is not None:
            alt = h.settle(what_if={"no_limit": True})
            if alt is not None and alt.points != s.points:
                yield "cap_missed", ans(s.fan, fu, alt.points)
        if "kiriage" in h.res.options:
            alt = h.settle(options={**h.res.options, "kiriage": not h.res.options["kiriage"]})
            if alt is not None and alt.points != s.points:
                yield "cap_wrong", ans(s.fan, fu, alt.points)
        return
    for param in ("base", "per_fan"):
        if param in h.params:
            value = int(h.params[param])
            alt = h.settle(**{param: value * 2 if value else 1})
            if alt is not None and alt.points != s.points:
                yield "wrong_base", ans(s.fan, fu, alt.points)
    if any(p.capped_from is not None for p in s.payments) or s.notes:
        alt = h.settle(cap=None, fan_cap=None)
        if alt is not None and alt.points != s.points:
            yield "cap_missed", ans(s.fan, fu, alt.points)
    fan_cap = h.params.get("fan_cap")
    if fan_cap is not None and s.fan > fan_cap:  # the cap written as the hand's fan
        yield "cap_wrong", ans(fan_cap, fu, s.points)
        yield "cap_wrong", ans(fan_cap, fu, s.points, h.right_items())
    for name in ("cap", "fan_cap"):
        value = h.params.get(name)
        if value is not None and any(p.capped_from is not None for p in s.payments) or s.notes:
            for other in ((value + 1,) if name == "fan_cap" else (value * 2,)) if value is not None else ():
                alt = h.settle(**{name: other})
                if alt is not None and alt.points != s.points:
                    yield "cap_wrong", ans(s.fan, fu, alt.points)
    if h.params.get("cap") is not None:
        scope = h.params.get("cap_scope", "per_player_net")
        alt = h.settle(cap_scope="per_payer" if scope == "per_player_net" else "per_player_net")
        if alt is not None and alt.points != s.points:
            yield "cap_wrong", ans(s.fan, fu, alt.points)


def generate(rules: str, seed: int = 31) -> tuple[list[dict[str, str]], int]:
    """The labelled answers of a ruleset, and how many were dropped as undecidable."""
    rng = random.Random(f"{seed}-{rules}")
    lines = [v for line in _hand_lines() for v in _variants(line)]
    rng.shuffle(lines)
    hands: list[Hand] = []
    seen: set[str] = set()
    for line in lines:
        if len(hands) >= HANDS_PER_RULESET:
            break
        h = Hand(line, rules)
        if h.ok and line not in seen:
            seen.add(line)
            hands.append(h)
    labels: dict[tuple[str, str], set[str]] = defaultdict(set)
    for h in hands:
        for cause, answer in mistakes(h, rng):
            labels[(h.line, answer)].add(cause)
            figures = re.fullmatch(r"(?:fan|han|tai) \d+(?: fu \d+)? (points \d+)", answer)
            if figures and figures.group(1) != f"points {h.s.points}":  # the points alone, as a student writes
                labels[(h.line, figures.group(1))].add(cause)
    out = [{"rules": rules, "cause": next(iter(c)), "line": line, "answer": answer}
           for (line, answer), c in labels.items() if len(c) == 1]
    return out, sum(len(c) > 1 for c in labels.values())


def measure(cases: list[dict[str, str]]) -> dict[str, Any]:
    from mjcalc.api import check

    # total, primary, among the causes, every difference's cause
    table: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses: list[str] = []
    for case in cases:
        got = check(case["line"], case["answer"], rules=case["rules"])
        diffs = got.get("differences") or []
        causes = [d["cause"] for d in diffs]
        row = table[(case["rules"], case["cause"])]
        row[0] += 1
        row[1] += bool(causes) and causes[0] == case["cause"]
        row[2] += case["cause"] in causes
        row[3] += bool(causes) and set(causes) == {case["cause"]}
        if not causes or causes[0] != case["cause"]:
            misses.append(f"{case['rules']}: {case['cause']} → {causes[:3]}  | {case['line']} => {case['answer']}")
    return {"table": table, "misses": misses}


def _report(result: dict[str, Any]) -> str:
    table = result["table"]
    rows = []
    for key in ("rules", "cause"):
        totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for (rules, cause), counts in table.items():
            t = totals[rules if key == "rules" else cause]
            for i, k in enumerate(counts):
                t[i] += k
        rows.append(f"{key:<20} {'n':>5} {'primary':>9} {'among':>9} {'only':>9}")
        for name, (n, *hits) in sorted(totals.items()):
            rows.append(f"{name:<20} {n:>5}" + "".join(f" {100 * k / n:>8.1f}%" for k in hits))
        rows.append("")
    n, *hits = (sum(v[i] for v in table.values()) for i in range(4))
    rows.append(f"{'all':<20} {n:>5}" + "".join(f" {100 * k / n:>8.1f}%" for k in hits))
    return "\n".join(rows)


def main(argv: list[str]) -> None:
    command = argv[0] if argv else "measure"
    if command == "gen":
        dropped = 0
        for rules in RULESETS:
            cases, d = generate(rules)
            dropped += d
            for case in cases:
                print(json.dumps(case, ensure_ascii=False))
        print(f"dropped as undecidable: {dropped}", file=sys.stderr)
    elif command == "measure":
        path = argv[1] if len(argv) > 1 else None
        cases = ([json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines()] if path else
                 [c for rules in RULESETS for c in generate(rules)[0]])
        result = measure(cases)
        print(_report(result))
        if "-v" in argv:
            print("\n".join(result["misses"]))
    elif command == "write":
        folder = ROOT / "tests" / "homework" / "labelled"
        folder.mkdir(exist_ok=True)
        for rules in RULESETS:
            cases, _ = generate(rules)
            rng = random.Random(f"write-{rules}")
            by_cause: dict[str, list[dict[str, str]]] = defaultdict(list)
            for case in cases:
                by_cause[case["cause"]].append(case)
            del by_cause["is_a_win"][2:]  # the same every time: two are enough
            chosen: list[dict[str, str]] = []
            while len(chosen) < PER_RULESET and any(by_cause.values()):  # every cause in turn
                for cause in sorted(by_cause):
                    if by_cause[cause] and len(chosen) < PER_RULESET:
                        chosen.append(by_cause[cause].pop(rng.randrange(len(by_cause[cause]))))
            chosen.sort(key=lambda c: (c["cause"], c["line"], c["answer"]))
            text = (f"# Generated by benchmarks/homework_causes.py write: a right answer with one mistake applied;\n"
                    f"# the primary cause mjcalc check gives must be that mistake. [cause, line, answer]\n"
                    f"rules: {rules}\ncases:\n")
            text += "".join(f"- [{c['cause']}, {json.dumps(c['line'], ensure_ascii=False)}, "
                            f"{json.dumps(c['answer'], ensure_ascii=False)}]\n" for c in chosen)
            (folder / f"{rules}.yaml").write_text(text, encoding="utf-8")
            print(f"{rules}: {len(chosen)} cases, {dict(Counter(c['cause'] for c in chosen))}")
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
