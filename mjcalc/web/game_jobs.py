"""What a worker process does for the games' routes (``games.py``): each job one transaction of the games' store
(``mjcalc.game.store``, the file ``mjcalc game`` uses) and the engine's replay of it (``mjcalc.game``); its
answer is the API's. The rules of a game are the engine's: here a request becomes calls, and what they return
or raise becomes an answer.

A change is checked and made in one write transaction (the store's write lock taken first): the hand number
the sender saw is compared with the game's, under the lock, before its result is added, so two phones recording
hand N at once have it once (the second is told, 409).

A successful job's text is the game's version on the first line, then ``lang<TAB>sheet JSON`` a line
(``games.Sheets``). The version changes with every change of the results (their number and a digest of them).

Each worker keeps the games it replayed lately: a game whose kept results are the ones it knows, or those and a
few more, is not replayed from the start; and the sheet's text of each game's latest version.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import OrderedDict
from typing import Any

Answer = tuple[int, str]

NOT_FOUND = "no game at this address: check the link (it is the one the game's page shows and its QR code holds)"
CACHED = 32  # games a worker keeps replayed
MAX_RESULTS = 2_000  # a game's results (a long evening is about a hundred): a bound on a shared server's disk
CONFLICT = "conflict"

_stores: dict[str, Any] = {}
_games: OrderedDict[str, tuple[list[dict[str, Any]], Any]] = OrderedDict()
_texts: OrderedDict[tuple[str, str], tuple[str, str]] = OrderedDict()  # (game, lang) -> (version, sheet's JSON)


class _Answered(Exception):
    def __init__(self, status: int, kind: str, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.answer: Answer = (status, error_text(kind, message, column))


def _not_found() -> _Answered:
    return _Answered(404, "not_found", NOT_FOUND)


def error_text(kind: str, message: str, column: int | None = None) -> str:
    """An answer that is no scored line: the error object of docs/OUTPUT.md, alone (as ``jobs.dumps`` writes)."""
    return json.dumps({"result": "error", "error": {"kind": kind, "message": message, "column": column}},
                      ensure_ascii=False, indent=2) + "\n"


def _open(db: str, create: bool) -> Any:
    """The worker's connection to ``db`` (None: no file yet, and none made for a read)."""
    from ..game.store import Store

    store = _stores.get(db)
    if store is not None and store.con is not None:
        return store
    import os

    if not create and not os.path.exists(db):
        return None
    store = Store(db, create=create)
    _stores[db] = store
    return store


def _kept(store: Any, game: str) -> Any:
    from ..game.store import Refused

    try:
        return store.get(game)
    except Refused:
        raise _not_found() from None


def _replayed(kept: Any) -> Any:
    """The game of ``kept`` replayed, from what this worker kept of it where it can."""
    known = _games.get(kept.name)
    if known is not None:
        results, game = known
        if results == kept.results[: len(results)] and len(game.results) == len(results):
            try:
                for result in kept.results[len(results):]:
                    game.add(result)
            except Exception:
                known = None
            else:
                _games.move_to_end(kept.name)
                _games[kept.name] = (list(kept.results), game)
                return game
    _games.pop(kept.name, None)
    game = kept.game()
    _remember(kept.name, kept.results, game)
    return game


def _remember(name: str, results: list[dict[str, Any]], game: Any) -> None:
    if game.errors:  # a kept result that no longer applies: replayed afresh each time, never built on
        _games.pop(name, None)
        return
    _games[name] = (list(results), game)
    _games.move_to_end(name)
    while len(_games) > CACHED:
        _games.popitem(last=False)


def _version(results: list[dict[str, Any]]) -> str:
    digest = hashlib.sha256(json.dumps(results, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
    return f"{len(results)}-{digest}"


def _sheets(game: Any, name: str, results: list[dict[str, Any]], langs: list[str]) -> str:
    version = _version(results)
    sheet: Any = None
    lines = [version]
    for lang in langs:
        known = _texts.get((name, lang))
        if known is not None and known[0] == version:
            text = known[1]
        else:
            sheet = sheet or game.sheet()
            if lang == "en":
                text = sheet.json_bytes().decode("utf-8")
            else:
                text = json.dumps(sheet.to_json(lang), ensure_ascii=False, separators=(",", ":"))
            _texts[(name, lang)] = (version, text)
            while len(_texts) > 2 * CACHED:
                _texts.popitem(last=False)
        lines.append(f"{lang}\t{text}")
    return "\n".join(lines) + "\n"


def _numbers(game: Any) -> tuple[int | None, int | None]:
    """The number of the last entry of the sheet, and of the next hand (None: none yet, or the game ended)."""
    hands = game.sheet().hands
    nxt = game.next_hand()
    return (hands[-1].number if hands else None), (nxt["number"] if nxt is not None else None)


def _check_seen(game: Any, seen: int | None) -> None:
    if seen is not None and seen != len(game.results):
        raise _Answered(409, CONFLICT, f"the sheet changed meanwhile: it has {len(game.results)} results, not "
                        f"{seen}; nothing was changed (look at the sheet again)")


def new(body: dict[str, Any]) -> Answer:
    from ..game import Game, header_from_json, header_to_json
    from ..game.store import Refused
    from ..support.builtin import builtin_names

    rules = body["header"]["game"].get("rules")
    if isinstance(rules, str) and rules not in builtin_names():
        raise _Answered(400, "ruleset", f"a game here uses a built-in ruleset: {', '.join(builtin_names())}")
    game = Game(header_from_json(body["header"]))
    store = _open(body["db"], create=True)
    try:
        with store.write():
            store.create(body["id"], header_to_json(game.header))
    except Refused:
        raise _Answered(409, CONFLICT, "that id is taken") from None
    _remember(body["id"], [], game)
    return 201, _sheets(game, body["id"], [], body["langs"])


def get(body: dict[str, Any]) -> Answer:
    store = _open(body["db"], create=False)
    if store is None:
        raise _not_found()
    with store.read():
        kept = _kept(store, body["id"])
    return 200, _sheets(_replayed(kept), kept.name, kept.results, body["langs"])


def add(body: dict[str, Any]) -> Answer:
    from ..game import result_to_json

    store = _open(body["db"], create=False)
    if store is None:
        raise _not_found()
    hand = body["hand"]
    with store.write():  # the lock first: the check and the append see the same results
        kept = _kept(store, body["id"])
        game = _replayed(kept)
        _check_hand(game, hand)
        _check_seen(game, body.get("seen"))
        if len(kept.results) >= MAX_RESULTS:
            raise _Answered(400, "limit", f"a game here keeps at most {MAX_RESULTS:,} results")
        try:
            game.add(body["result"])
            store.append(kept, result_to_json(game.results[-1], game.header))
        except BaseException:
            _games.pop(kept.name, None)  # the replay has a result the store may not
            raise
    _remember(kept.name, kept.results, game)
    return 201, _sheets(game, kept.name, kept.results, body["langs"])


def _check_hand(game: Any, hand: int) -> None:
    """Hand ``hand`` must be the one the game is at (409 when it was recorded first, here or elsewhere)."""
    last, nxt = _numbers(game)
    if nxt is None and last is not None and hand <= last or nxt is not None and hand < nxt:
        raise _Answered(409, CONFLICT, f"hand {hand} is already recorded"
                        + (f"; the next is hand {nxt}" if nxt is not None else "; the game has ended")
                        + ": nothing was added")
    if nxt is not None and hand != nxt:
        raise _Answered(409, CONFLICT, f"the next result is hand {nxt}, not hand {hand}: nothing was added")


def preview(body: dict[str, Any]) -> Answer:
    """What adding the result would make (the entry and the standing after it), nothing kept: the engine applies
    it and takes it back."""
    store = _open(body["db"], create=False)
    if store is None:
        raise _not_found()
    with store.read():
        kept = _kept(store, body["id"])
    game = _replayed(kept)
    _check_hand(game, body["hand"])
    lang = body["langs"][0]
    game.add(body["result"])
    try:
        sheet = game.sheet()
        shown = {"entry": sheet.hands[-1].to_json(lang), "final": sheet.final.to_json()}
    finally:
        game.undo()
    return 200, json.dumps(shown, ensure_ascii=False, separators=(",", ":")) + "\n"


def undo(body: dict[str, Any]) -> Answer:
    store = _open(body["db"], create=False)
    if store is None:
        raise _not_found()
    hand = body["hand"]
    with store.write():
        kept = _kept(store, body["id"])
        game = _replayed(kept)
        if not kept.results:
            raise _Answered(409, CONFLICT, "the game has no result to undo")
        last, _ = _numbers(game)
        if last != hand:
            raise _Answered(409, CONFLICT, f"the last result is hand {last}, not hand {hand}: nothing was undone")
        _check_seen(game, body.get("seen"))
        _games.pop(kept.name, None)
        store.remove_last(kept)
    game = _replayed(kept)
    return 200, _sheets(game, kept.name, kept.results, body["langs"])


def versions(body: dict[str, Any]) -> Answer:
    """The version of each game named (null: none of that name), from one read; nothing replayed."""
    store = _open(body["db"], create=False)
    out: dict[str, str | None] = {}
    if store is not None:
        from ..game.store import Refused

        with store.read():
            for name in body["ids"]:
                try:
                    out[name] = _version(store.get(name).results)
                except Refused:
                    out[name] = None
    return 200, json.dumps(out)


def _exists(body: dict[str, Any]) -> Any:
    store = _open(body["db"], create=False)
    if store is None:
        raise _not_found()
    with store.read():
        return _kept(store, body["id"])


def qr(body: dict[str, Any]) -> Answer:
    _exists(body)
    try:
        import io

        import segno
    except ImportError:
        raise _Answered(404, "not_found", "no QR code here: the server has no segno (pip install 'mjcalc[serve]')") \
            from None
    out = io.BytesIO()
    segno.make_qr(body["url"], error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False,
                                                svgclass=None, lineclass=None)
    return 200, out.getvalue().decode("utf-8")


def chart(body: dict[str, Any]) -> Answer:
    from ..game.chart import sheet_svg

    kept = _exists(body)
    game = _replayed(kept)
    sheet = game.sheet()
    return 200, sheet_svg(" · ".join(sheet.players), sheet, body["lang"])


JOBS = {"game.new": new, "game.get": get, "game.add": add, "game.undo": undo, "game.preview": preview,
        "game.versions": versions, "game.qr": qr, "game.chart": chart}


def answer(kind: str, body: dict[str, Any]) -> Answer:
    """A game job's answer: the engine's refusal as a 400 with its message (and column), a store that cannot be
    read or written as the server's fault (its details on the console, never a path in the answer)."""
    from ..errors import MjcalcError
    from ..game import GameError
    from ..game.store import StoreError

    try:
        return JOBS[kind](body)
    except _Answered as exc:
        return exc.answer
    except GameError as exc:
        return 400, error_text("game", exc.message, exc.column)
    except StoreError as exc:
        print(f"mjcalc serve: the games' store: {exc}", file=sys.stderr, flush=True)
        _stores.pop(body.get("db", ""), None)
        return 503, error_text("internal", "the games' store cannot be read or written just now (the server's "
                               "console says why); try again")
    except MjcalcError as exc:
        kind_of = "ruleset" if exc.kind in ("ruleset", "option") else "game"
        return 400, error_text(kind_of, str(exc.message)[:1000])
