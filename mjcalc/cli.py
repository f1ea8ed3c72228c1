"""The command line: parses options into a Request, calls the engine, prints a renderer's output. Thin."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any, Optional

import typer

from .config import Config, load_config
from .context import FlagWord
from .engine import Request, score_line
from .errors import EXIT_BAD_INPUT, MjcalcError
from .render import rules_list, ruleset_json, ruleset_text, to_json, to_text
from .ruleset import builtin_names, load_ruleset

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="mjcalc — a mahjong hand-scoring calculator. `mjcalc score \"123m456p789s111z22z +zimo +seat=E\"`.",
)
rules_app = typer.Typer(no_args_is_help=True, help="List the rulesets, or show one: every item, condition, option.")
app.add_typer(rules_app, name="rules")

RulesOpt = Annotated[Optional[str], typer.Option("--rules", "-r", help="Ruleset name or path to a .yaml file "
                                                 "(default: MJCALC_RULES, the config file, then changchun).")]
SetOpt = Annotated[Optional[list[str]], typer.Option("--set", "-s", help="Option KEY=VALUE (repeatable), e.g. cap=500.")]
LangOpt = Annotated[Optional[str], typer.Option("--lang", help="Language of messages: en or zh.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the JSON object of spec/OUTPUT.md.")]


def _fail(exc: MjcalcError) -> None:
    typer.echo(f"mjcalc: {exc.message}", err=True)
    raise typer.Exit(exc.exit_code)


def _config() -> Config:
    try:
        return load_config()
    except MjcalcError as exc:
        _fail(exc)
        raise AssertionError from exc  # unreachable: _fail exits


def _options(pairs: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            _fail(MjcalcError("ruleset", f"--set takes KEY=VALUE, not '{pair}'"))
        out[key.strip()] = value.strip()
    return out


def _lang(lang: str | None, config: Config) -> str:
    chosen = lang or config.lang or "en"
    if chosen not in ("en", "zh"):
        _fail(MjcalcError("context", f"--lang is en or zh, not '{chosen}'"))
    return chosen


@app.command()
def score(
    hand: Annotated[str, typer.Argument(help="The hand in one line, e.g. \"123m456p789s111z22z +zimo +seat=E\".")],
    rules: RulesOpt = None,
    set_: SetOpt = None,
    json_out: JsonOpt = False,
    lang: LangOpt = None,
    zimo: Annotated[bool, typer.Option("--zimo", help="Self-drawn (+zimo).")] = False,
    seat: Annotated[Optional[str], typer.Option(help="Winner's seat wind E/S/W/N; E is the dealer.")] = None,
    from_: Annotated[Optional[str], typer.Option("--from", help="Discarder's seat on a discard win.")] = None,
    round_: Annotated[Optional[str], typer.Option("--round", help="Prevalent wind.")] = None,
    closed: Annotated[Optional[str], typer.Option(help="Other seats whose hands are closed, e.g. W,N.")] = None,
    bao: Annotated[Optional[str], typer.Option(help="Treasure tile (宝牌), e.g. 5m.")] = None,
    mobao: Annotated[bool, typer.Option("--mobao", help="Won by drawing the treasure tile.")] = False,
    duibao: Annotated[bool, typer.Option("--duibao", help="The treasure tile is the winning tile.")] = False,
    hui: Annotated[Optional[str], typer.Option(help="Wildcard tile kind (会牌).")] = None,
    flip: Annotated[Optional[str], typer.Option(help="Tile flipped to find the wildcard.")] = None,
    gang: Annotated[bool, typer.Option("--gang", help="Won on a kong replacement tile.")] = False,
    qiang: Annotated[bool, typer.Option("--qiang", help="Won by robbing a kong.")] = False,
    last: Annotated[bool, typer.Option("--last", help="Won on the last tile.")] = False,
    flag: Annotated[Optional[list[str]], typer.Option("--flag", "-f", help="Any other flag, as in the line: "
                                                      "-f riichi -f dora=3m (repeatable).")] = None,
) -> None:
    """Score one hand: the reading, every item, the formula per payer, payments and each seat's net."""
    config = _config()
    words: list[FlagWord] = []
    for name, value in (("zimo", zimo), ("mobao", mobao), ("duibao", duibao), ("gang", gang), ("qiang", qiang),
                        ("last", last)):
        if value:
            words.append(FlagWord(name, None, None))
    for name, value in (("seat", seat), ("from", from_), ("round", round_), ("closed", closed), ("bao", bao),
                        ("hui", hui), ("flip", flip)):
        if value is not None:
            words.append(FlagWord(name, value, None))
    for f in flag or []:
        word, eq, value = f.lstrip("+").partition("=")
        words.append(FlagWord(word, value if eq else None, None))
    request = Request(rules or config.rules, _options(set_), words, config.options)
    result = score_line(hand, request)
    chosen = _lang(lang, config)
    if json_out:
        typer.echo(json.dumps(to_json(result, chosen), ensure_ascii=False, indent=2))
    else:
        text = to_text(result, chosen)
        typer.echo(text, err=result.error is not None)
    raise typer.Exit(result.exit_code)


@rules_app.command("list")
def rules_list_cmd(json_out: JsonOpt = False) -> None:
    """The built-in rulesets."""
    try:
        loaded = [load_ruleset(n) for n in builtin_names()]
    except MjcalcError as exc:
        _fail(exc)
        return
    if json_out:
        typer.echo(json.dumps([{"id": r.id, "names": r.names, "unit": r.unit, "description": r.description}
                               for r in loaded], ensure_ascii=False, indent=2))
    else:
        typer.echo(rules_list(loaded))


@rules_app.command("show")
def rules_show(
    name: Annotated[str, typer.Argument(help="A built-in ruleset name or a path to a .yaml file.")],
    json_out: JsonOpt = False,
    lang: LangOpt = None,
) -> None:
    """Every item, win condition and option of a ruleset, from the same data that scores."""
    try:
        rules = load_ruleset(name)
    except MjcalcError as exc:
        _fail(exc)
        return
    if json_out:
        typer.echo(json.dumps(ruleset_json(rules), ensure_ascii=False, indent=2, default=str))
    else:
        typer.echo(ruleset_text(rules, _lang(lang, _config())))


def main(argv: list[str] | None = None) -> Any:
    """Entry point: typer's usage errors exit 2; ours carry their own codes."""
    try:
        return app(args=argv, standalone_mode=True)
    except MjcalcError as exc:  # a safety net: engine errors are normally inside the Result
        sys.stderr.write(f"mjcalc: {exc.message}\n")
        sys.exit(exc.exit_code or EXIT_BAD_INPUT)
