"""Independent reference scorer for 吉林麻将 Jilin, written from spec/rules/jilin.md alone.

Shares the notation reader and the brute-force decomposition of changchun_ref (both written for this
audit, not mjcalc's).  What differs from Changchun, per jilin.md: 三色全 or one suit (+ honors); 不能缺幺
counts winds and dragons; the triplet condition is waived by a wind or dragon pair (special kongs count as
kongs); no 手把一 restriction; 夹胡 only by the 13-tile hand's single wait; 坐庄 +1 for a paying dealer
and 门清 +1 for each closed payer; 旋风杠 / 喜杠 worth one 暗杠 each; 大蛋 = a kong of 1m, 1p or 1s.
"""

from __future__ import annotations

from changchun_ref import (
    DRAGONS,
    HONORS,
    SEATS,
    WINDS,
    Result,
    counts_of,
    decompositions,
    is_terminal,
    kong_points,
    largest_remainder,
    next_seats,
    parse,
    shape_waits,
    suit,
    t,
)

DA_DAN = frozenset({t("1m"), t("1p"), t("1s")})
DEFAULTS = {"base": 1, "cap": None, "matched_treasure_fan": 1, "all_triplets_fan": 3}


def score(line: str, options: dict | None = None) -> Result:
    s = parse(line)
    if any(m.kind == "special" and m.special not in ("xuanfeng", "xi") for m in s.melds):
        raise ValueError("Jilin special kongs are 旋风杠 and 喜杠 only")
    opts = {**DEFAULTS, **(options or {})}
    if s.base is not None:
        opts["base"] = s.base
    if s.cap is not None:
        opts["cap"] = s.cap
    base = opts["base"]
    melds = s.melds
    nsets = 4 - len(melds)
    self_drawn = s.zimo or s.mobao or s.duibao
    discarder = None if self_drawn else (s.frm or SEATS[(SEATS.index(s.seat) + 2) % 4])
    payers = next_seats(s.seat)
    open_hand = any(m.kind in ("chi", "pon", "kong") for m in melds)
    meld_tiles = [x for m in melds for x in m.tiles]
    meld_has_triplet = any(m.kind in ("pon", "kong", "ankong", "special") for m in melds)
    meld_all_triplets = all(m.kind != "chi" for m in melds)
    kp = kong_points(melds, base, lambda m: 2 + m.extras, DA_DAN)  # one 暗杠 + one 明杠 per extra tile

    others = list(s.concealed)
    others.remove(s.win)
    held13 = counts_of(others + meld_tiles)
    waits = {k for k in shape_waits(others, nsets) if held13[k] < 4}
    candidates = [x for x in range(34) if held13[x] < 4] if s.mobao else [s.win]

    best, failed_all = None, set()
    for x in candidates:
        conc = [*others, x]
        whole = conc + meld_tiles
        nsuits = len({suit(k) for k in whole} - {3})
        cond_suits = nsuits == 3 or nsuits <= 1
        cond_yao = any(is_terminal(k) or k in HONORS for k in whole)
        any_dec = False
        for dec in decompositions(counts_of(conc), nsets):
            any_dec = True
            pair, sets = dec[0][1], dec[1:]
            piao = meld_all_triplets and all(kind == "trip" for kind, _ in sets)
            cond_triplet = meld_has_triplet or any(k == "trip" for k, _ in sets) or pair in WINDS | DRAGONS
            failed = [n for n, ok in (("three_suits_or_flush", cond_suits), ("terminal_or_honor", cond_yao),
                                      ("triplet", cond_triplet)) if not ok]
            if failed:
                failed_all.update(failed)
                continue
            items = [("basic_win", 1)]
            if not piao and waits == {x}:
                items.append(("single_wait", 1))
            if self_drawn:
                items.append(("self_drawn", 1))
            if s.mobao:
                items.append(("treasure", 1))
            elif s.duibao:
                items.append(("matched_treasure", opts["matched_treasure_fan"]))
            if piao:
                items.append(("all_triplets", opts["all_triplets_fan"]))
            if not open_hand:
                items.append(("closed_win", 1))
            if s.seat == "E":
                items.append(("dealer_win", 1))
            fan = sum(v for _, v in items)
            raw = {}
            for p in payers:
                f = fan + (p == discarder) + (p == "E") + (p in s.closed)
                raw[p] = 2 ** (f - 1) * base
            key = (sum(raw.values()) + 3 * kp, -len(items))
            if best is None or key > best[0]:
                best = (key, fan, items, raw, (x, tuple(dec)))
        if not any_dec:
            failed_all.add("shape")
    if best is None:
        return Result("not_a_win", failed=sorted(failed_all))
    _, fan, items, raw, reading = best
    pay = dict(raw)
    cap = opts["cap"]
    if cap is not None and sum(pay.values()) > cap:
        scaled = largest_remainder(list(pay.items()), cap, payers)
        pay = dict(zip(pay, scaled, strict=True))
    kong = {p: kp for p in payers} if kp else {}
    net = {p: 0 for p in SEATS}
    for p, a in [*pay.items(), *kong.items()]:
        net[p] -= a
        net[s.seat] += a
    feats = {i for i, _ in items} | ({"capped"} if pay != raw else set()) | ({"closed_payer"} if s.closed else set())
    # OUTPUT.md: fan is what every payment holds: 门清 too when every payer's hand is closed
    every_closed = all(p in s.closed for p in payers)
    return Result("win", fan + every_closed, items, pay, kong, net, sum(pay.values()), reading=reading,
                  features=feats)
