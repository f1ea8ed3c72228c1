"""Kong points: each of the other three pays the owner of a kong, apart from the hand and never capped; a kong no
meld declares is found by a family's finder (``kong_finder``, named in a ruleset's ``kongs:`` by ``found_by``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ...registry import KONG_FINDERS
from .. import tiles as T
from ..candidate import Candidate
from ..hand import Hand, Meld
from ..model import Ruleset


class KongPayment:
    __slots__ = ("payer", "payee", "kong", "names", "tiles", "amount")

    def __init__(self, payer: str, payee: str, kong: str, names: dict[str, str], tiles: str, amount: int) -> None:
        self.payer: Final = payer
        self.payee: Final = payee
        self.kong: Final = kong
        self.names: Final = names
        self.tiles: Final = tiles
        self.amount: Final = amount

    def to_json(self) -> dict[str, Any]:
        return {"payer": self.payer, "payee": self.payee, "kong": self.kong, "name": self.names,
                "tiles": self.tiles, "amount": self.amount}


KongFinder = Callable[["Candidate"], list[tuple[int, ...]]]


def kong_finder(namespace: str) -> Callable[[KongFinder], KongFinder]:
    """Register a kong finder as ``<namespace>.<function name>`` (hooks: ``meihe.lame_kong``)."""
    def register(fn: KongFinder) -> KongFinder:
        KONG_FINDERS[f"{namespace}.{fn.__name__}"] = fn
        return fn

    return register


def kong_payments(rules: Ruleset, options: Mapping[str, Any], hand: Hand, owner: str,
                  candidate: Candidate | None = None) -> list[KongPayment]:
    """Kong points: each of the other three pays the owner, apart from the hand (and never capped). With the
    reading's ``candidate``, also a kong of wildcards and the kongs the ruleset's finders see."""
    kongs = rules.kongs
    if not kongs and not hand.melds:  # nothing to score (a special kong is a meld): most hands of most rulesets
        return []
    base = int(options.get("base", 1))
    wild_kind = candidate.wild_kind if candidate is not None else None
    scored: list[tuple[str, dict[str, str], str, int]] = []
    for m in hand.melds:
        if (kongs or m.kind == "special") and m.is_kong:  # the property (a Python-level call) last: rarely asked
            scored.append(_kong_value(rules, m, wild_kind))
    for rule in kongs.values():
        if rule.found_by and candidate is not None:
            scored.extend((rule.id, rule.names, T.format_tiles(tiles), rule.points)
                          for tiles in KONG_FINDERS[rule.found_by](candidate))
    out: list[KongPayment] = []
    for kid, names, text, points in scored:
        if points <= 0:
            continue
        for payer in (T.next_seat(owner, k) for k in (1, 2, 3)):
            out.append(KongPayment(payer, owner, kid, names, text, points * base))
    return out


def _kong_value(rules: Ruleset, m: Meld, wild_kind: int | None) -> tuple[str, dict[str, str], str, int]:
    if m.kind == "special":
        assert m.special is not None  # a special kong always names its kind
        sk = rules.special_kong_points[m.special]
        names = next(d.names for d in rules.tile_rules.special_kongs if d.id == m.special)
        points = sk.per_tile * len(m.tiles) if sk.per_tile else sk.points + sk.extra_points * m.extra
        return m.special, names, m.text(), points
    concealed = m.kind == "concealed_kong"
    for rule in rules.kongs.values():
        if rule.wildcard and concealed and m.tiles[0] == wild_kind:
            return rule.id, rule.names, m.text(), rule.concealed
    for rule in rules.kongs.values():
        if rule.tiles and m.tiles[0] in rule.tiles:
            return rule.id, rule.names, m.text(), rule.concealed if concealed else rule.exposed
    rule = rules.kongs["angang" if concealed else "minggang"]
    return rule.id, rule.names, m.text(), rule.points
