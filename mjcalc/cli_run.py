"""What the command line's commands share (cli.py, cli_game.py): the language of the run's messages, a failure
said and its exit code, the user's config, --set pairs, --jobs bounded by the cores, the collector set aside for a
long run."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, NoReturn

import typer

from .errors import MjcalcError
from .i18n import Msg

if TYPE_CHECKING:
    from .config import Config

_LANG = ["en"]  # the language of this run's messages, once known (_lang)


def _fail(exc: MjcalcError) -> NoReturn:
    typer.echo(f"mjcalc: {exc.render(_LANG[0])}", err=True)
    raise typer.Exit(exc.exit_code)


def _config(lang: str | None = None) -> "Config":
    from .config import load_config

    try:
        return load_config()
    except MjcalcError as exc:
        if lang in ("en", "zh"):
            _LANG[0] = lang
        _fail(exc)
        raise AssertionError from exc  # unreachable: _fail exits


def _options(pairs: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, eq, value = pair.partition("=")
        if not eq or not key:
            _fail(MjcalcError("ruleset", Msg("--set takes KEY=VALUE, not '{pair}'", pair=pair)))
        out[key.strip()] = value.strip()
    return out


def _chosen_lang(lang: str | None, config: "Config") -> str:
    """The language chosen: --lang, else MJCALC_LANG or the config file (``config``), else English."""
    chosen = lang or config.lang or "en"
    if chosen not in ("en", "zh"):
        _fail(MjcalcError("option", Msg("--lang is en or zh, not '{lang}'", lang=chosen)))
    _LANG[0] = chosen
    return chosen


@contextmanager
def _quiet_collector() -> Iterator[None]:
    """For a long run: what is loaded so far (modules, the ruleset) is set aside from the garbage collector,
    which otherwise walks it again and again, and the youngest generation is collected less often. Cycles
    made while scoring are still collected, so memory stays flat. As it was afterwards (a test's process).
    The collector is turned on here (off for start-up: mjcalc.__main__); the little garbage that start-up
    leaves is set aside with the rest rather than collected first, which would slow a short batch."""
    import gc

    gc.enable()
    gc.freeze()
    threshold = gc.get_threshold()
    gc.set_threshold(20_000, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _bounded_jobs(jobs: int | None, size: int | None, file: str) -> int:
    """The worker processes to run: ``--jobs`` bounded by the cores mjcalc may use; not given, every usable core
    for a file large enough to be split between workers (``batch.parallel.AUTO_JOBS_BYTES``), one process otherwise."""
    from .batch.parallel import AUTO_JOBS_BYTES, usable_cpus

    if jobs is None:
        return usable_cpus() if file != "-" and size is not None and size >= AUTO_JOBS_BYTES else 1
    if jobs < 1:
        _fail(MjcalcError("option", Msg("--jobs is a number of worker processes, at least 1, not {jobs}", jobs=jobs)))
    usable = usable_cpus()
    if jobs > usable:
        typer.echo(f"mjcalc: --jobs {jobs}: this machine lets mjcalc use {usable} "
                   f"core{'s' if usable != 1 else ''}; running {usable} worker{'s' if usable != 1 else ''}",
                   err=True)
        return usable
    return jobs
