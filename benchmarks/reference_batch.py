"""The reference riichi calculator (``mahjong`` 2.1.0) driven as a batch, the way ``mjcalc batch`` is: a file
of hands in, one JSON record a hand out. The benchmark's other side (benchmarks/bench_batch.py).

Each input line is a JSON object of the reference's own input types, in plain data:

    {"tiles": [136-array], "win_tile": 53, "melds": [["chi", [0, 4, 8], true]], "dora_indicators": [...],
     "ura_dora_indicators": [...], "config": {HandConfig keywords}, "options": {OptionalRules keywords}}

and each output line the hand's record: han, fu, the cost (payments), the yaku, the fu details, the error.

    python benchmarks/reference_batch.py IN.jsonl [-o OUT.jsonl]
"""

from __future__ import annotations

import json
import sys

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.meld import Meld

MELD_TYPES = {"chi": Meld.CHI, "pon": Meld.PON, "kan": Meld.KAN}


def score(record: dict) -> dict:
    config = HandConfig(**record["config"], options=OptionalRules(**record["options"]))
    melds = [Meld(MELD_TYPES[kind], tiles, opened=opened) for kind, tiles, opened in record["melds"]]
    res = HandCalculator.estimate_hand_value(record["tiles"], record["win_tile"], melds=melds,
                                             dora_indicators=record["dora_indicators"], config=config,
                                             ura_dora_indicators=record["ura_dora_indicators"])
    if res.error:
        return {"result": "error", "error": res.error}
    return {"result": "win", "han": res.han, "fu": res.fu, "cost": res.cost,
            "yaku": [{"id": y.yaku_id, "name": y.name, "han": y.han_open if res.is_open_hand else y.han_closed}
                     for y in res.yaku],
            "fu_details": res.fu_details}


def main() -> None:
    args = sys.argv[1:]
    out_path = None
    if "-o" in args:
        at = args.index("-o")
        out_path = args[at + 1]
        del args[at:at + 2]
    out = open(out_path, "w", encoding="utf-8") if out_path else sys.stdout  # noqa: SIM115
    with open(args[0], encoding="utf-8") as f:
        for n, text in enumerate(f, 1):
            record = {"line": n, **score(json.loads(text))}
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    out.flush()


if __name__ == "__main__":
    main()
