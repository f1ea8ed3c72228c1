"""What a worker process does for a request: the objects of ``mjcalc.api`` (docs/OUTPUT.md), as text, byte for
byte as ``mjcalc score --json`` / ``mjcalc waits --json`` print them. No scoring here: only the API's calls.

A job is ``(kind, body)``: ``("score" | "waits", {"hand", "rules", "set", "lang"})`` (checked by ``app.py``)
or ``("rules", None)``. Its answer is ``(HTTP status, JSON text)``: a line that cannot be read is the API's
error object (status 200, as the command line prints it); a ``rules`` or ``set`` the request cannot have is
an error object with status 400. Nothing in an answer names a file of this machine, nor shows a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

from .game_jobs import Answer, error_text

__all__ = ["Answer", "answer", "catalogue", "dumps", "error_text", "labels", "serve"]


def dumps(obj: object) -> str:
    """JSON as the command line prints it (``--json``): UTF-8 text, indented by 2, a newline at the end."""
    return json.dumps(obj, ensure_ascii=False, indent=2) + "\n"


def catalogue() -> dict[str, Any]:
    """``GET /api/rules``: every built-in ruleset as ``mjcalc rules show ID --json`` prints it (its ``file`` and
    ``decisions`` by name only: no path of this machine), the flags a line can carry (``mjcalc.registry.FLAGS``),
    and what a game under each records (``games``)."""
    import os

    from ..api import rulesets
    from ..registry import FLAGS

    found = rulesets()
    for shown in found.values():
        for key in ("file", "decisions"):
            if isinstance(shown.get(key), str):
                shown[key] = os.path.basename(shown[key])
    flags = [f.to_json() for f in FLAGS]
    return {"rulesets": found, "flag_defs": flags, "labels": labels(), "games": games(found)}


def games(names: Iterable[str]) -> dict[str, dict[str, Any]]:
    """What a game under each ruleset records, its ``game:`` section under the default options as the engine
    reads it (``mjcalc.game.game_rules``): winners on one discard at most, the riichi deposit (0: no riichi),
    the pool of an exhaustive draw for the ready players, nagashi, a false win's preset, the abortive draws,
    other players' kongs paid apart, the dealer's streak. The page shows what to ask from it."""
    from ..errors import MjcalcError
    from ..game import game_rules

    out: dict[str, dict[str, Any]] = {}
    for name in names:
        try:
            rules = game_rules(name, {})
        except MjcalcError:
            continue
        out[name] = {"winners": rules.most_winners, "riichi": rules.deposit, "ready": rules.ready_pool,
                     "nagashi": rules.nagashi, "false_win": rules.false_win, "aborts": list(rules.aborts),
                     "kongs": rules.kongs, "streak": rules.streak}
    return out


def labels() -> dict[str, dict[str, dict[str, str]]]:
    """The words the page shows for the ids of a score's JSON, in each language, as the command line's table
    writes them: ``applies_to`` (the items' scopes) and ``wait`` (the kept reading's wait)."""
    from ..core.readings.decompose import WAIT_FACT_NAMES, WAITS
    from ..i18n import LANGS, tr
    from ..output.table import WAIT_NAMES
    from ..ruleset.schema import SCOPES

    scopes = {scope: {lang: tr(text, lang) for lang in LANGS} for scope, text in SCOPES.items()}
    waits: dict[str, dict[str, str]] = {}
    for wait in WAITS:
        if wait in WAIT_NAMES:  # the reading line's words (output.table.to_text)
            zh, en = WAIT_NAMES[wait]
            waits[wait] = {"en": en, "zh": zh}
        else:
            waits[wait] = {lang: tr(WAIT_FACT_NAMES[wait], lang) for lang in LANGS}
    return {"applies_to": scopes, "wait": waits}


def answer(job: tuple[str, Any]) -> Answer:
    from ..api import RulesetError, score, waits

    kind, body = job
    if kind.startswith("game."):
        from .game_jobs import answer as game_answer

        try:
            return game_answer(kind, body)
        except Exception:  # a bug in mjcalc: its traceback on the server's console, not in the answer
            import traceback

            traceback.print_exc(file=sys.stderr)
            return 500, error_text("internal", "internal error in mjcalc (the server's console has the details)")
    try:
        if kind == "score":
            obj = score(body["hand"], body["rules"], body["set"], body["lang"], builtin_only=True)
        elif kind == "waits":
            obj = waits(body["hand"], body["rules"], body["set"], builtin_only=True)
        elif kind == "rules":
            obj = catalogue()
        else:
            raise ValueError(f"no job {kind!r}")
        return 200, dumps(obj)
    except RulesetError as exc:
        return 400, error_text("ruleset", exc.message, exc.column)
    except Exception:  # a bug in mjcalc: its traceback on the server's console, not in the answer
        import traceback

        traceback.print_exc(file=sys.stderr)
        return 500, error_text("internal", "internal error in mjcalc (the server's console has the details)")


def _outlive_a_group_sigterm() -> None:
    """A SIGTERM sent to the server's whole process group leaves the workers to finish the lines being drained
    (the server stops them after); they still die with the server, by SIGKILL (Linux), or by SIGTERM elsewhere."""
    import signal

    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        if ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL) == 0:  # PR_SET_PDEATHSIG
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
    except (OSError, AttributeError):
        pass


def serve(conn: Any, parent: int, nice: int = 0) -> None:
    """A worker process: answer jobs from ``conn`` until it closes. Ctrl-C is the parent's; the worker dies
    with the parent whatever kills it (``batch.work._worker_init``); ``nice`` lowers its priority."""
    import os

    from ..batch.work import _worker_init

    _worker_init(parent)
    _outlive_a_group_sigterm()
    if nice:
        try:
            os.nice(nice)
        except (OSError, AttributeError):
            pass  # a system without priorities: the lane is still its own
    try:
        catalogue()  # every ruleset loaded before the first line comes
    except Exception:
        pass  # the first job says what is wrong
    try:
        conn.send("ready")
    except OSError:
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            conn.send(answer(job))
        except (OSError, KeyboardInterrupt):
            return
