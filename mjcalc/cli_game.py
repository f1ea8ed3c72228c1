"""``mjcalc game …``: the commands of a whole game, kept in SQLite (mjcalc/game/store.py), played by the engine
(mjcalc/game), shown by mjcalc/game/render.py and mjcalc/game/chart.py. Thin: options in, one transaction, output.

Exit codes as the rest of mjcalc: 2 a result (or record line) that cannot be read or applied, a refused
``--hand N``, an unknown game; 3 the database (cannot be opened, not mjcalc's, damaged), a ruleset or an option.
"""

# No ``from __future__ import annotations``: typer reads the commands' annotations (see cli.py).
import json
import sys
from typing import Any

import typer

from .cli_run import _LANG, _bounded_jobs, _chosen_lang, _config, _fail, _options, _quiet_collector
from .config import DEFAULT_RULESET, LOGS_RULES_HELP, RULES_HELP
from .i18n import N_, Msg, tr

game_app = typer.Typer(no_args_is_help=True, help=N_("A whole game: the score sheet (new, add, undo, show, list, "
                                                     "export, replay, players), kept in SQLite."))

DbOpt = typer.Option(None, "--db", help=N_("The games' database file (default: MJCALC_DB, else "
                                           "~/.local/share/mjcalc/games.db)."))
LangOpt = typer.Option(None, "--lang", help=N_("Language of messages: en or zh."))
SheetJsonOpt = typer.Option(False, "--json", help=N_("Print the sheet as JSON (docs/GAME.md)."))
HandOpt = typer.Option(None, "--hand", help=N_("The hand number this result must be: refused if another was "
                                                "added first."))


def _setup(lang: str | None) -> str:
    return _chosen_lang(lang, _config(lang))


def _store(db: str | None, *, create: bool) -> Any:
    from .game.store import Store, StoreError, default_path

    try:
        return Store(db or default_path(), create=create)
    except StoreError as exc:
        _fail(exc)


def _width() -> int | None:
    from .output.fit import terminal_width

    return terminal_width()


def _say(text: str) -> None:
    typer.echo(text)


def _sheet_json(sheet: Any, lang: str, pretty: bool = True) -> str:
    if pretty:
        return json.dumps(sheet.to_json(lang), ensure_ascii=False, indent=2)
    return sheet.json_bytes().decode("utf-8")


def _read(db: str | None, name: str | None) -> tuple[Any, str]:
    """The game ``name`` as kept (None: every game kept, a list), read in one snapshot, and the file's path; exit
    with the message when the file or the game is not there."""
    from .errors import MjcalcError

    store = _store(db, create=False)
    try:
        with store.read():
            return (store.all() if name is None else store.get(name)), store.path
    except MjcalcError as exc:
        _fail(exc)
    finally:
        store.close()


def _write_text(path: str, text: str) -> None:
    from .errors import MjcalcError

    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        _fail(MjcalcError("option", Msg("cannot write {path}: {reason}", path=path, reason=exc.strerror or str(exc))))


def _replayed(kept: Any) -> Any:
    from .errors import MjcalcError

    try:
        return kept.game()
    except MjcalcError as exc:  # the header's ruleset is gone or broken (a file moved)
        _fail(exc)


def _each_replayed(kept: list[Any], lang: str) -> tuple[list[tuple[Any, Any]], int]:
    """Every game kept, replayed; one that cannot be (its ruleset file gone) is reported and left out: exit 3."""
    from .errors import MjcalcError

    out = []
    code = 0
    for k in kept:
        try:
            out.append((k, k.game()))
        except MjcalcError as exc:
            typer.echo("mjcalc: " + tr("game {name}: {message}", lang).format(name=k.name, message=exc.render(lang)),
                       err=True)
            code = exc.exit_code
    return out, code


def _added_text(game: Any, entry: Any, lang: str, width: int | None) -> str:
    from .game.render import next_lines, result_words, signed, standing_text
    from .output.fit import cols, wrap

    sheet = game.sheet()
    players = sheet.players
    lines = wrap(tr("added {entry}", lang).format(entry=f"{tr('hand {number}', lang).format(number=entry.number)} · "
                                                        f"{entry.label} · {result_words(entry, players, lang)}"),
                 width, 2)
    wname = max(cols(p) for p in players)
    wc = max(len(signed(c)) for c in entry.changes)
    we = max(len(str(e)) for e in entry.end)
    for p in range(4):
        lines.append("  " + players[p] + " " * (wname - cols(players[p])) + "  " + signed(entry.changes[p]).rjust(wc)
                     + "  " + str(entry.end[p]).rjust(we))
    final = sheet.final
    if final.ended:
        lines += standing_text(sheet, lang, width)
    elif final.next is not None:
        lines += next_lines(final.next, players, lang, width)
    return "\n".join(lines)


@game_app.command("new", help=N_("Start a game: its players in seat order (the first deals first, or --dealer), "
                                 "its ruleset and options."))
def new_cmd(
    name: str = typer.Argument(..., metavar="NAME", help=N_("The game's name (used by the other commands).")),
    rules: str | None = typer.Option(None, "--rules", "-r", help=RULES_HELP),
    players: str = typer.Option(..., "--players", "-p", help=N_("The four players in seat order: A,B,C,D.")),
    set_: list[str] | None = typer.Option(None, "--set", "-s", help=N_("Option KEY=VALUE of the hand or the game "
                                                                 "(repeatable), e.g. length=tonpuu.")),
    dealer: str | None = typer.Option(None, "--dealer", help=N_("Who deals first: a player's name, or random "
                                                         "(default: the first listed).")),
    db: str | None = DbOpt,
    json_out: bool = SheetJsonOpt,
    lang: str | None = LangOpt,
) -> None:
    import os

    from .errors import MjcalcError
    from .game import Game, header_to_json
    from .game.store import check_name

    config = _config(lang)
    chosen = _chosen_lang(lang, config)
    ruleset = rules or config.rules or DEFAULT_RULESET
    if (ruleset.endswith((".yaml", ".yml")) or os.sep in ruleset) and os.path.exists(ruleset):
        ruleset = os.path.abspath(ruleset)  # the game is read again from any folder
    names = [p.strip() for p in players.split(",")]
    first = dealer
    if dealer == "random":
        import random

        first = random.SystemRandom().choice(names) if len(set(names)) == 4 else None
    try:
        check_name(name)
        game = Game.new(names, ruleset, _options(set_), first)
    except MjcalcError as exc:
        _fail(exc)
    store = _store(db, create=True)
    try:
        with store.write():
            store.create(name, header_to_json(game.header))
    except MjcalcError as exc:
        _fail(exc)
    finally:
        store.close()
    if json_out:
        _say(_sheet_json(game.sheet(), chosen))
        return
    from .output.fit import wrap

    header = game.header
    _say("\n".join(wrap(tr("game {name} started: {rules}, {players}; {first} deals first", chosen).format(
        name=name, rules=game.rules.id, players=", ".join(header.players), first=header.players[0]), _width(), 2)))
    nxt = game.next_hand()
    if nxt is not None:
        from .game.render import next_lines

        _say("\n".join(next_lines(nxt, list(header.players), chosen, _width())))


@game_app.command("add", help=N_("Add a result: the text form (B ron C 123m456p789s111z 22z riichi B) or one "
                                 "GAME.md JSON result."))
def add_cmd(
    name: str = typer.Argument(..., metavar="NAME", help=N_("The game's name.")),
    result: list[str] = typer.Argument(..., metavar="RESULT",
                                       help=N_("The result (quotes optional: the words are joined).")),
    hand: int | None = HandOpt,
    db: str | None = DbOpt,
    json_out: bool = SheetJsonOpt,
    lang: str | None = LangOpt,
) -> None:
    from .errors import MjcalcError
    from .game import result_to_json

    chosen = _setup(lang)
    text = " ".join(result)
    store = _store(db, create=False)
    try:
        with store.write():  # the write lock first: the game read, replayed and added to under it
            kept = store.get(name)
            game = _replayed(kept)
            _check_hand(game, hand, "add")
            entry = game.add(text)
            store.append(kept, result_to_json(game.results[-1], game.header))
    except MjcalcError as exc:
        _fail(exc)
    finally:
        store.close()
    if json_out:
        _say(_sheet_json(game.sheet(), chosen))
    else:
        _say(_added_text(game, entry, chosen, _width()))


def _check_hand(game: Any, hand: int | None, action: str) -> None:
    """``--hand N`` of add: the next result must be hand N; of undo: the last result must be."""
    from .game.store import Refused

    if hand is None:
        return
    if action == "add":
        nxt = game.next_hand()
        if nxt is None:
            raise Refused(Msg("the game has ended: hand {hand} cannot be added; nothing was added", hand=hand))
        if nxt["number"] != hand:
            raise Refused(Msg("refused: the next result is hand {next}, not hand {hand} (another result was "
                                "added or undone first?); nothing was added", next=nxt["number"], hand=hand))
        return
    entries = game.sheet().hands
    last = entries[-1].number if entries else None
    if last != hand:
        raise Refused(Msg("refused: the last result is hand {last}, not hand {hand} (another result was added or "
                            "undone first?); nothing was undone", last=last if last is not None else "none",
                            hand=hand))


@game_app.command("undo", help=N_("Take the last result back."))
def undo_cmd(
    name: str = typer.Argument(..., metavar="NAME", help=N_("The game's name.")),
    hand: int | None = typer.Option(None, "--hand", help=N_("The hand number the last result must be: refused if "
                                                     "another was added first.")),
    db: str | None = DbOpt,
    json_out: bool = SheetJsonOpt,
    lang: str | None = LangOpt,
) -> None:
    from .errors import MjcalcError
    from .game.store import Refused

    chosen = _setup(lang)
    store = _store(db, create=False)
    try:
        with store.write():
            kept = store.get(name)
            game = _replayed(kept)
            if not kept.results:
                raise Refused(Msg("game {name} has no result to undo", name=name))
            _check_hand(game, hand, "undo")
            entry = game.sheet().hands[-1] if len(game.results) == len(kept.results) else None
            store.remove_last(kept)
    except MjcalcError as exc:
        _fail(exc)
    finally:
        store.close()
    game = _replayed(kept)
    if json_out:
        _say(_sheet_json(game.sheet(), chosen))
        return
    from .game.render import next_lines, result_words
    from .output.fit import wrap

    players = list(game.header.players)
    if entry is not None:
        _say("\n".join(wrap(tr("undone {entry}", chosen).format(
            entry=f"{tr('hand {number}', chosen).format(number=entry.number)} · {entry.label} · "
                  f"{result_words(entry, players, chosen)}"), _width(), 2)))
    else:
        _say(tr("undone: the last result kept", chosen))
    nxt = game.next_hand()
    if nxt is not None:
        _say("\n".join(next_lines(nxt, players, chosen, _width())))


@game_app.command("show", help=N_("The sheet: every hand, each player's change and running total, the standing, "
                                  "the next hand, the ranking at the end."))
def show_cmd(
    name: str = typer.Argument(..., metavar="NAME", help=N_("The game's name.")),
    json_out: bool = SheetJsonOpt,
    svg: str | None = typer.Option(None, "--svg", help=N_("Also write the scores over the hands as an SVG picture to "
                                                   "this file.")),
    db: str | None = DbOpt,
    lang: str | None = LangOpt,
) -> None:

    chosen = _setup(lang)
    kept, _ = _read(db, name)
    game = _replayed(kept)
    sheet = game.sheet()
    if svg:
        _write_svg(svg, name, sheet, chosen)
    if json_out:
        _say(_sheet_json(sheet, chosen))
    else:
        from .game.render import sheet_text

        _say(sheet_text(name, sheet, chosen, _width()))


def _write_svg(path: str, name: str, sheet: Any, lang: str) -> None:
    from .game.chart import sheet_svg

    _write_text(path, sheet_svg(name, sheet, lang))


@game_app.command("list", help=N_("The games kept: name, ruleset, players, hands played, where each stands."))
def list_cmd(
    db: str | None = DbOpt,
    json_out: bool = typer.Option(False, "--json", help=N_("Print the list as JSON.")),
    lang: str | None = LangOpt,
) -> None:

    chosen = _setup(lang)
    kept, path = _read(db, None)
    rows = []
    games, code = _each_replayed(kept, chosen)
    for k, game in games:
        sheet = game.sheet()
        hands = sheet.hands[-1].number if sheet.hands else 0
        rows.append({"name": k.name, "rules": sheet.ruleset, "players": sheet.players, "results": len(k.results),
                     "hands": hands, "ended": sheet.final.ended, "reason": sheet.final.reason,
                     "next": sheet.final.next, "scores": sheet.final.scores, "created": k.created,
                     "updated": k.updated})
    if json_out:
        _say(json.dumps(rows, ensure_ascii=False, indent=2))
        raise typer.Exit(code)
    from .output.fit import wrap

    if not rows:
        _say(tr("no game kept in {path}", chosen).format(path=path))
        raise typer.Exit(code)
    width = _width()
    for r in rows:
        state = tr("ended", chosen) if r["ended"] else tr("next {label}", chosen).format(
            label=(r["next"] or {}).get("label", ""))
        _say("\n".join(wrap(f"{r['name']} · {r['rules']} · {', '.join(r['players'])} · "
                            + tr("{n} hands", chosen).format(n=r["hands"]) + f" · {state} · "
                            + (r["updated"] or "")[:16].replace("T", " "), width, 2)))
    raise typer.Exit(code)


@game_app.command("export", help=N_("Write a game's record (text or GAME.md's JSON Lines), its sheet as CSV, or "
                                    "a riichi game as tenhou.net/6 JSON (Tenhou's viewer: each hand's start and "
                                    "result)."))
def export_cmd(
    name: str = typer.Argument(..., metavar="NAME", help=N_("The game's name.")),
    fmt: str = typer.Option("text", "--format", help=N_("text | jsonl | csv | tenhou-json")),
    output: str | None = typer.Option(None, "--output", "-o", help=N_("Write here instead of stdout.")),
    db: str | None = DbOpt,
    lang: str | None = LangOpt,
) -> None:
    from .errors import MjcalcError

    chosen = _setup(lang)
    if fmt not in ("text", "jsonl", "csv", "tenhou-json"):
        _fail(MjcalcError("option", Msg("--format is text, jsonl, csv or tenhou-json, not '{value}'", value=fmt)))
    kept, _ = _read(db, name)
    game = _replayed(kept)
    if fmt == "text":
        data = game.to_text()
    elif fmt == "jsonl":
        data = game.to_jsonl()
    elif fmt == "tenhou-json":
        from .logs import LogError
        from .logs.export import tenhou_json

        try:
            data = json.dumps(tenhou_json(game.header, game.results, game.sheet(), name), ensure_ascii=False,
                              separators=(",", ":")) + "\n"
        except LogError as exc:
            _fail(MjcalcError("option", str(exc)))
    else:
        from .game.render import sheet_csv

        data = sheet_csv(game.sheet(), chosen)
    if output in (None, "-"):
        sys.stdout.write(data)
        return
    _write_text(output, data)


@game_app.command("players", help=N_("Each player's total over every game kept, by ruleset; the grade where the "
                                     "family has one."))
def players_cmd(
    db: str | None = DbOpt,
    json_out: bool = typer.Option(False, "--json", help=N_("Print the totals as JSON.")),
    lang: str | None = LangOpt,
) -> None:

    chosen = _setup(lang)
    kept, path = _read(db, None)
    totals: dict[tuple[str, str], dict[str, Any]] = {}
    ladders: dict[str, Any] = {}
    games, code = _each_replayed(kept, chosen)
    for _, game in games:
        sheet = game.sheet()
        ladders.setdefault(sheet.ruleset, game.rules)
        for p, player in enumerate(sheet.players):
            row = totals.setdefault((player, sheet.ruleset), {"player": player, "rules": sheet.ruleset, "games": 0,
                                                              "total": 0, "points": None, "first": 0})
            row["games"] += 1
            row["total"] += sheet.final.scores[p] - game.rules.start
            row["first"] += sheet.final.ranking[0] == p
            if sheet.final.points is not None:
                row["points"] = round((row["points"] or 0) + sheet.final.points[p], 1)
    rows = sorted(totals.values(), key=lambda r: (r["rules"], -r["total"], r["player"]))
    for r in rows:
        grade = ladders[r["rules"]].grade(r["total"]) if ladders[r["rules"]].grades else None
        r["grade"] = dict(grade.names) if grade is not None else None
    if json_out:
        _say(json.dumps(rows, ensure_ascii=False, indent=2))
        raise typer.Exit(code)
    if not rows:
        _say(tr("no game kept in {path}", chosen).format(path=path))
        raise typer.Exit(code)
    from .output.fit import cols, wrap

    width = _width()
    wname = max(cols(r["player"]) for r in rows)
    current = None
    for r in rows:
        if r["rules"] != current:
            current = r["rules"]
            _say(f"{current}:")
        parts = [r["player"] + " " * (wname - cols(r["player"])), f"{r['total']:+d}",
                 tr("{n} games", chosen).format(n=r["games"]), tr("{n} first", chosen).format(n=r["first"])]
        if r["points"] is not None:
            parts.append(tr("{points} pt", chosen).format(points=f"{r['points']:+.1f}"))
        if r["grade"]:
            parts.append(r["grade"].get(chosen) or r["grade"].get("zh") or "")
        _say("\n".join(wrap("  " + "  ".join(parts), width, 4)))
    raise typer.Exit(code)


@game_app.command("replay", help=N_("Replay game records (the text form or GAME.md's JSON Lines; a file may hold "
                                    "several games) into their sheets."))
def replay_cmd(
    files: list[str] = typer.Argument(..., metavar="FILE", help=N_("Record files.")),
    json_out: bool = typer.Option(False, "--json", help=N_("One JSON sheet a line, a line a game (docs/GAME.md).")),
    lang: str | None = LangOpt,
) -> None:
    from .game.files import games_of, replay_files

    chosen = _setup(lang)
    if json_out:

        sys.stdout.flush()
        with _quiet_collector():  # a long run: the collector as a batch sets it
            code = replay_files(files, sys.stdout.buffer, sys.stderr)
        raise typer.Exit(code)
    from .errors import EXIT_BAD_INPUT
    from .game import GameError
    from .game.render import sheet_text

    width = _width()
    code = 0
    shown = 0
    for path in files:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (OSError, UnicodeDecodeError) as exc:
            typer.echo(f"mjcalc: {path}: " + tr("cannot read: {reason}", chosen).format(
                reason=getattr(exc, "strerror", None) or exc), err=True)
            code = EXIT_BAD_INPUT
            continue
        for number, found in enumerate(games_of(text), 1):
            if isinstance(found, GameError):
                typer.echo(found.render(chosen, file=path), err=True)
                code = EXIT_BAD_INPUT
                continue
            for error in found.errors:
                typer.echo(error.render(chosen, file=path), err=True)
                code = EXIT_BAD_INPUT
            if shown:
                _say("")
            _say(sheet_text(tr("{file}, game {n}", chosen).format(file=path, n=number), found.sheet(), chosen,
                            width))
            shown += 1
    raise typer.Exit(code)


@game_app.command("import", help=N_("Import game logs (Tenhou's mjlog XML, plain or gzip, or tenhou.net/6 JSON; a "
                                    "folder: its logs): each replayed to its sheet, every win re-scored beside the "
                                    "log's own han, fu, points and changes, every difference listed. Exit 1 when "
                                    "any differs, 2 when a log cannot be read."))
def import_cmd(
    logs: list[str] = typer.Argument(..., metavar="LOG", help=N_("Log files or folders.")),
    rules: str | None = typer.Option(None, "--rules", "-r", help=LOGS_RULES_HELP),
    set_: list[str] | None = typer.Option(None, "--set", "-s", help=N_("Option KEY=VALUE of the hand or the game "
                                                                       "(repeatable), e.g. kiriage=on.")),
    json_out: bool = typer.Option(False, "--json", help=N_("One JSON sheet a line, a line a log (docs/GAME.md), "
                                                           "the log's values beside.")),
    db: str | None = DbOpt,
    name: str | None = typer.Option(None, "--name", help=N_("Also keep the game under this name (one LOG; with "
                                                            "--db alone: the log's file name).")),
    jobs: int = typer.Option(1, "--jobs", "-j", help=N_("Worker processes (the order is kept); more than one "
                                                        "pays where the cores are many and free.")),
    lang: str | None = LangOpt,
) -> None:
    from .errors import EXIT_BAD_INPUT, MjcalcError
    from .logs.files import game_name, log_files
    from .logs.run import import_many

    chosen = _setup(lang)
    options = _options(set_)
    paths = list(log_files(logs))
    if name is not None and len(paths) != 1:
        _fail(MjcalcError("option", Msg("--name keeps one game: give one LOG, not {n}", n=len(paths))))
    workers = _bounded_jobs(jobs, None, paths[0] if paths else "")
    keep = db is not None or name is not None
    store = _store(db, create=True) if keep else None
    code = 0
    shown = 0
    out = sys.stdout.buffer
    sys.stdout.flush()
    try:
        with _quiet_collector():
            for done in import_many(paths, rules, options, json_out=json_out, lang=chosen,
                                    width=None if json_out else _width(), keep=keep, jobs=workers):
                if done.error is not None:
                    sys.stdout.flush()
                    typer.echo(f"mjcalc: {done.error}", err=True)
                    code = EXIT_BAD_INPUT
                    continue
                if store is not None and done.rows is not None:
                    code = max(code, _keep(store, name or game_name(done.path), done.rows))
                if isinstance(done.output, bytes):
                    out.write(done.output + b"\n")
                else:
                    out.write((("\n" if shown else "") + done.output + "\n").encode("utf-8"))
                shown += 1
                if not done.agrees and not code:
                    code = 1
    except MjcalcError as exc:  # the ruleset or an option: the same for every log
        _fail(exc)
    finally:
        out.flush()
        if store is not None:
            store.close()
    raise typer.Exit(code)


def _keep(store: Any, name: str, rows: list[dict[str, Any]]) -> int:
    """An imported game kept under ``name``: its header and results, as ``game new`` and ``game add`` keep them."""
    from .errors import MjcalcError
    from .game.store import check_name

    try:
        check_name(name)
        with store.write():
            store.create(name, rows[0])
            kept = store.get(name)
            for row in rows[1:]:
                store.append(kept, row)
    except MjcalcError as exc:
        typer.echo("mjcalc: " + exc.render(_lang_now()), err=True)
        return exc.exit_code
    return 0


def _lang_now() -> str:

    return _LANG[0]
