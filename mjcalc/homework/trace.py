"""Wrong points traced to their step: the kept reading settled again with one step done another way — the
student's fan, items or fu carried through, a payer's item charged to all, the base, a cap (``Hypothesis``,
``Resettle``) — and each way that gives the student's number is an explanation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..core.model import Ruleset
from ..core.result import Result
from ..core.settlement.payments import Award, Settlement, settle_per_payer
from ..core.settlement.whatif import Change, Hypothesis
from ..errors import MjcalcError
from ..i18n import localized
from ..registry import HOMEWORK_HYPOTHESES, SETTLERS
from ..support.frozen import replace
from .explain import Why, Wrong
from .facts import _item_label, _scope_text
from .messages import _unit, msg


class Resettle:
    """The kept reading settled again with one step changed: the ruleset's own settler, with its parameters (base,
    cap …) or ``what_if`` (registry.WHAT_IF) replaced. None when that settlement cannot be made."""

    def __init__(self, res: Result) -> None:
        assert res.best is not None and res.ruleset is not None
        self.rules, self.options = res.ruleset, res.options
        self.c, self.awards = res.best.candidate, res.best.awards
        self.params = {k: self.rules.resolve(v, self.options) for k, v in self.rules.formula.items()}
        self.kind = self.params.get("kind")
        self.fn = SETTLERS.get(str(self.kind), settle_per_payer)

    def __call__(self, awards: list[Award] | None = None, options: Mapping[str, Any] | None = None,
                 what_if: Mapping[str, Any] | None = None, **params: Any) -> Change:
        return Change(None if awards is None else tuple(awards), options, tuple(params.items()),
                      tuple((what_if or {}).items()))

    def run(self, change: Change) -> Settlement | None:
        params = {**self.params, **dict(change.params)}
        if change.what_if:
            params["what_if"] = {k: (dict(v) if isinstance(v, tuple) else v) for k, v in change.what_if}
        try:
            done: Settlement | None = self.fn(self.rules, change.options if change.options is not None else
                                              self.options, params, self.c,
                                              list(self.awards if change.awards is None else change.awards))
        except (MjcalcError, ArithmeticError, KeyError, ValueError, TypeError, AssertionError):
            done = None
        return done


def _worked(s: Settlement, lang: str) -> str:
    parts = [f"{p.payer}: {localized(p.formula, lang)}"
             + (msg("cut", lang, amount=p.amount) if p.capped_from is not None
                and str(p.amount) not in p.formula.rsplit("=", 1)[-1] else "")
             for p in s.payments]
    return "; ".join(parts) + "; " + msg("total", lang, total=s.points)


def _compare_points(res: Result, given: dict[str, Any], student_awards: list[Award] | None,
                    lang: str) -> Wrong:
    """The explanations of wrong points: each hypothesis (``Hypothesis``) that settles the student's number, alone
    or with one more step, and one payer's share given for the total."""
    assert res.best is not None and res.ruleset is not None
    s = res.best.settlement
    student = given["points"]
    resettle = Resettle(res)
    # a family's settler brings its own hypotheses (hooks/riichi.py), else those of the per-payer formulas
    hypotheses = HOMEWORK_HYPOTHESES.get(str(resettle.kind), _per_payer_hypotheses)(
        res, resettle, given, student_awards, lang, msg)
    worked = _worked(s, lang)
    out: list[Why] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    carried: set[tuple[str, ...]] = set()  # the payments the student's own numbers give: no step said to give them

    def add(h: Hypothesis, why: str, alt: Settlement | None, cause: str, cost: int) -> None:
        formulas = tuple(p.formula for p in alt.payments) if alt is not None else (why,)
        if (cause, formulas) in seen or (not h.inherit and formulas in carried):
            return  # the same payments by the same step another way (rounded to 1 or to 10): said once
        seen.add((cause, formulas))
        if h.inherit and cost == 0:
            carried.add(formulas)
        text = why if alt is None else f"{why} — " + msg("yours", lang, what=student, worked=_worked(alt, lang))
        out.append(Why(cause, msg("points", lang, given=student, actual=s.points, why=text, worked=worked), text,
                       cost, h.prio, h.follows, h.inherit and cost == 0, same=formulas))

    def shares(h: Hypothesis, alt: Settlement) -> None:
        for p in alt.payments:
            if p.amount == student and len(alt.payments) > 1:
                add(h, h.why + "; " + _one_share(alt, p, lang), alt, "one_share", h.cost + 1)
                return

    settled = [(h, resettle.run(h.change)) for h in sorted(hypotheses, key=lambda h: (h.cost, h.prio))]
    hit: set[int] = set()
    for h, alt in settled:
        if alt is None or alt.points == s.points:
            continue
        if alt.points == student:
            hit.add(id(h))
            add(h, h.why, alt, h.causes[0], h.cost)
        elif h.role == "given":
            shares(h, alt)
    steps = [h for h in hypotheses if h.role == "step"]

    def combined(firsts: list[Hypothesis]) -> None:  # a step besides: where neither alone gives the number
        for h in firsts:
            for step in steps:
                both = h.change.plus(step.change)
                if both is None or id(h) in hit or id(step) in hit:
                    continue
                alt = resettle.run(both)
                if alt is not None and alt.points == student and alt.points != s.points:
                    add(Hypothesis(step.causes, f"{h.why}; {step.why}", both, "step", h.follows, step.prio,
                                   h.cost + 1), f"{h.why}; {step.why}", alt, step.causes[0], h.cost + 1)

    combined([h for h in hypotheses if h.role == "given"])
    if not any(y.cost <= 1 for y in out):
        combined([h for h in hypotheses if h.role == "payer"])
    if len(s.payments) > 1:
        for p in s.payments:
            if p.amount == student:
                add(Hypothesis(("one_share",), "", Change(), "step", prio=2), _one_share(s, p, lang), None,
                    "one_share", 1)
                break
    if not out:
        out.append(Why("arithmetic", msg("points_plain", lang, given=student, actual=s.points, worked=worked),
                       generic=True))
    return Wrong("points", "formula", out)


def _one_share(s: Settlement, p: Any, lang: str) -> str:
    return msg("h_one_share", lang, payer=p.payer, n=len(s.payments),
               amounts=" + ".join(str(q.amount) for q in s.payments) + f" = {s.points}")


BASES: Final = (0, 1, 2, 3, 4, 5, 6, 8, 10, 16, 20, 30, 50, 100)


def _shifted(res: Result, delta: int) -> list[Award]:
    """The kept awards and ``delta`` more (or less) on every payer: a student's total counted another way."""
    assert res.best is not None
    awards = res.best.awards
    base_item = next((a.item for a in awards if a.item.applies_to == "all"), None) or (
        awards[0].item if awards else None)
    if base_item is None:
        return list(awards)
    shift = replace(base_item, id="_shift", applies_to="all", excludes=(), reduces=())
    return [*awards, Award(shift, delta, 1)]


def _per_payer_hypotheses(res: Result, again: Resettle, given: dict[str, Any], student_awards: list[Award] | None,
                          lang: str, say: Callable[..., str]) -> list[Hypothesis]:
    assert res.best is not None and res.ruleset is not None
    rules, s, ctx = res.ruleset, res.best.settlement, res.best.candidate.ctx
    unit = _unit(rules.unit, lang)
    out: list[Hypothesis] = []
    own: list[Award] = []  # items of some payers only
    for p in s.payments:
        for a in p.extras:
            if all(a is not b for b in own):
                own.append(a)
    if "fan" in given and given["fan"] != s.fan:
        out.append(Hypothesis(("wrong_fan",), msg("h_fan", lang, unit=unit, given=given["fan"], actual=s.fan),
                              again(_shifted(res, given["fan"] - s.fan)), "given", ("fan",), 7, 0))
    counted = sum(a.total for a in student_awards or () if a.item.applies_to == "all")
    if student_awards is not None and not _only_payer_items_missed(res, student_awards, own):
        # the items counted (a payer's item among them) carried through
        out.append(Hypothesis(("wrong_fan",), msg("h_items", lang, unit=unit, given=counted, actual=s.fan),
                              again(student_awards), "given", ("items",), 7, 0))
    if "fan" not in given:
        for delta in (-3, -2, -1, 1, 2, 3):
            if s.fan + delta >= 0:
                out.append(Hypothesis(("wrong_fan",), msg("h_fan_other", lang, unit=unit, given=s.fan + delta,
                                                         actual=s.fan), again(_shifted(res, delta)), "search",
                                      prio=5 if abs(delta) == 1 else 9))  # before a base that pays the same
    written = {a.item.id for a in student_awards} if student_awards is not None else None
    for a in own:
        payers = ", ".join(p.payer for p in s.payments if any(x is a for x in p.extras))
        label, scope = _item_label(a.item, lang), _scope_text(a.item.applies_to, lang)
        if written is None or a.item.id in written:  # charged to all: counted, so written if items are
            to_all = [Award(replace(b.item, applies_to="all"), b.value, b.count) if b is a else b
                      for b in res.best.awards]
            out.append(Hypothesis(("payer_item_to_all",), msg("h_to_all", lang, item=label, scope=scope,
                                                              payers=payers), again(to_all), "payer", prio=0))
        out.append(Hypothesis(("payer_item_missed",), msg("h_payer_missed", lang, item=label, scope=scope,
                                                          payers=payers),
                              again([b for b in res.best.awards if b is not a]), "payer", prio=0))
    if len(own) > 1:
        names = ", ".join(_item_label(a.item, lang) for a in own)
        scopes = ", ".join(dict.fromkeys(_scope_text(a.item.applies_to, lang) for a in own))
        payers = ", ".join(dict.fromkeys(p.payer for p in s.payments if p.extras))
        if written is None or all(a.item.id in written for a in own):
            out.append(Hypothesis(("payer_item_to_all",), msg("h_to_all", lang, item=names, scope=scopes,
                                                              payers=payers),
                                  again([Award(replace(b.item, applies_to="all"), b.value, b.count)
                                         if any(b is a for a in own) else b for b in res.best.awards]),
                                  "payer", prio=1))
        out.append(Hypothesis(("payer_item_missed",), msg("h_payer_missed", lang, item=names, scope=scopes,
                                                          payers=payers),
                              again([b for b in res.best.awards if all(b is not a for a in own)]), "payer", prio=1))
    pay_cfg = {k: rules.resolve(v, res.options) for k, v in rules.payments.items()}
    if not ctx.zimo and pay_cfg.get("fan_on_discard") == "discarder":
        out.append(Hypothesis(("payer_item_to_all",), msg("h_fan_on_discard", lang, unit=unit, payer=ctx.discarder),
                              again(what_if={"payments": (("fan_on_discard", None),)}), "payer", prio=0))
    if not ctx.zimo and pay_cfg.get("discard") == "discarder":
        out.append(Hypothesis(("payer_item_to_all",), msg("h_discarder_only", lang, payer=ctx.discarder),
                              again(what_if={"payments": (("discard", "all_losers"),)}), "payer", prio=0))
    # the base (底) and the per-fan price (台钱): a near value before one from the usual list
    for param in ("base", "per_fan"):
        if param in again.params:
            actual = int(again.params[param])
            label = _param_label(rules, param)
            near = {actual * 2, actual // 2, actual + 1, max(actual - 1, 0), _default(rules, param)}
            for value in sorted({*BASES, *near} - {actual, None}):  # type: ignore[operator]
                out.append(Hypothesis(("wrong_base",), msg("h_base", lang, name=label, value=value, actual=actual),
                                      again(None, None, None, **{param: value}), "step",
                                      prio=5 if value in near else 8))
    if again.kind == "additive" and "per_fan" in again.params and int(again.params.get("base", 0)):
        base = int(again.params["base"])  # 台 × 底 with no 底 of its own: the base taken for the price of a 台
        out.append(Hypothesis(("wrong_base",), msg("h_base_as_price", lang, base=base, price=again.params["per_fan"],
                                                   unit=unit),
                              again(None, None, None, base=0, per_fan=base), "step", prio=5))
    # caps
    capped = any(p.capped_from is not None for p in s.payments)
    cap, fan_cap = again.params.get("cap"), again.params.get("fan_cap")
    notes = "; ".join(s.notes) or msg("no_cap_here", lang)
    caps = [(name, value) for name, value in (("cap", cap), ("fan_cap", fan_cap)) if value is not None]
    if caps:  # tried whether or not a cap cuts the right payments: a step done the student's way may reach it
        def cap_text(names: list[tuple[str, Any]]) -> str:
            return msg("h_cap_missed", lang, caps=", ".join(f"{_param_label(rules, n)} {v}" for n, v in names),
                       notes=notes)

        out.append(Hypothesis(("cap_missed",), cap_text(caps), again(cap=None, fan_cap=None), "step", prio=3))
        if len(caps) > 1:
            for name, value in caps:
                out.append(Hypothesis(("cap_missed",), cap_text([(name, value)]),
                                      again(None, None, None, **{name: None}), "step", prio=3))
    if cap is not None:
        scope = again.params.get("cap_scope", "per_player_net")
        other = "per_payer" if scope == "per_player_net" else "per_player_net"
        words = {"per_payer": msg("scope_per_payer", lang), "per_player_net": msg("scope_net", lang)}
        out.append(Hypothesis(("cap_wrong",), msg("h_cap_scope", lang, wrong=words[other], right=words[scope],
                                                  notes=notes), again(cap_scope=other), "step", prio=4))
    capping: tuple[tuple[str, Any], ...] = (("cap", cap), ("fan_cap", fan_cap))
    for name, value in capping:
        default = _default(rules, name)
        tries = set()
        if value is not None and capped:  # the cap cut a payment here: at another height?
            tries |= {value - 2, value - 1, value + 1, value + 2} if name == "fan_cap" else {value // 2, value * 2}
        if default is not None and default != value:
            tries.add(default)
        for other_value in sorted(t for t in tries if t is not None and t > 0):
            what = f" {unit}" if name == "fan_cap" else ""
            out.append(Hypothesis(("cap_wrong",), msg("h_cap_value", lang, value=other_value, unit=what,
                                                      actual=value if value is not None else "—"),
                                  again(None, None, None, **{name: other_value}), "step", prio=4))
    return out


def _default(rules: Ruleset, param: str) -> Any:
    """The default of the option a formula parameter reads, or None."""
    option = rules.formula.get(param)
    if isinstance(option, dict) and "option" in option and option["option"] in rules.options:
        return rules.options[option["option"]].default
    return None


def _only_payer_items_missed(res: Result, student_awards: list[Award], own: list[Award]) -> bool:
    """The student's items are the right ones but for items of some payers left out: the payer's hypotheses say
    it (their points are those of the items they counted)."""
    assert res.best is not None
    written = {(a.item.id, a.total) for a in student_awards}
    right = {(a.item.id, a.total) for a in res.best.awards if a.total}
    return written <= right and all(any(b is a for b in own) for a in res.best.awards
                                    if a.total and (a.item.id, a.total) not in written)


def _param_label(rules: Ruleset, param: str) -> str:
    """A formula parameter as the user sets it: its option's name, else the parameter's (base, per_fan)."""
    ref = rules.formula.get(param)
    if isinstance(ref, dict) and "option" in ref:
        return f"{ref['option']}"
    return {"per_fan": f"per_{rules.unit}"}.get(param, param)
