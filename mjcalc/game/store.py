"""Games kept in one SQLite file: each game's header and its results, in order, as GAME.md's JSON objects.

The results are the only truth: nothing derived (dealer, scores, the sheet) is stored; a sheet is the replay of
what is kept (``Kept.game``), so it can never disagree with its results.

The file: ``--db FILE``, else ``MJCALC_DB``, else ``$XDG_DATA_HOME/mjcalc/games.db`` (``~/.local/share/…``).
Each command is one transaction: a write takes the write lock first (``BEGIN IMMEDIATE``), then reads and
replays the game, then appends or removes one result and commits; a reader reads one snapshot. The journal is
SQLite's write-ahead log with a full sync at each commit, so a process killed at any moment leaves every
committed result once and nothing else, and a writer waits for another (the busy timeout) rather than failing.

The schema is versioned (``PRAGMA user_version``) and marked as mjcalc's (``PRAGMA application_id``); opening
an older file runs the steps of ``MIGRATIONS`` from its version up, in one transaction. A file that is not
SQLite, is another program's, is damaged or is newer than this mjcalc is a StoreError (exit code 3).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from ..errors import EXIT_BAD_RULESET, MjcalcError
from ..i18n import Msg

APPLICATION_ID = 0x4D4A4347  # "MJCG": marks the file as mjcalc's games
BUSY_MS = 15_000  # how long a command waits for another's write to end
MAX_NAME = 64


class StoreError(MjcalcError):
    """The database cannot be opened, read or written: what and which file. Exit code 3."""

    def __init__(self, message: str) -> None:
        super().__init__("store", message)

    @property
    def exit_code(self) -> int:
        return EXIT_BAD_RULESET


class Refused(MjcalcError):
    """The user's mistake, nothing changed: no game of that name (or one already, for ``new``), a bad name, a
    ``--hand N`` that another writer's result made wrong. Exit code 2."""

    def __init__(self, message: str) -> None:
        super().__init__("game", message)


def default_path() -> str:
    """``MJCALC_DB``, else the per-user data folder's ``mjcalc/games.db`` (XDG)."""
    given = os.environ.get("MJCALC_DB", "")
    if given:
        return given
    base = os.environ.get("XDG_DATA_HOME", "")
    if not base or not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return os.path.join(base, "mjcalc", "games.db")


def _v1(con: sqlite3.Connection) -> None:
    """Games by name, each with its header; results by game and position, each one JSON object."""
    con.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, header TEXT NOT NULL)")
    con.execute("CREATE TABLE results (game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE, "
                "seq INTEGER NOT NULL, result TEXT NOT NULL, PRIMARY KEY (game, seq)) WITHOUT ROWID")


def _v2(con: sqlite3.Connection) -> None:
    """When a game was started and each result added (UTC, ISO 8601): facts of the record, for ``game list``."""
    con.execute("ALTER TABLE games ADD COLUMN created TEXT")
    con.execute("ALTER TABLE results ADD COLUMN added TEXT")


# MIGRATIONS[n] takes a database of version n to version n + 1; a new file runs them all.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_v1, _v2)
VERSION = len(MIGRATIONS)
TABLES = frozenset(("games", "results"))


def _now() -> str:
    import datetime

    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text[:200]


class Kept:
    """One game as kept: its name, header (GAME.md's ``{"game": …}``), results (GAME.md's result objects, in
    order) and when it was started and last added to."""

    __slots__ = ("created", "header", "id", "name", "results", "updated")

    def __init__(self, id_: int, name: str, header: dict[str, Any], results: list[dict[str, Any]],
                 created: str | None, updated: str | None) -> None:
        self.id = id_
        self.name = name
        self.header = header
        self.results = results
        self.created = created
        self.updated = updated

    def game(self) -> Any:
        """The game replayed from its results (mjcalc.game.Game); a kept result that no longer applies (a ruleset
        file changed since) is in its ``errors``, with the result's position, and the rest still replayed."""
        from .game import Game  # the engine only when a game is replayed: `game list` reads without it
        from .errors import GameError
        from .records import header_from_json

        game = Game(header_from_json(self.header))
        for index, result in enumerate(self.results):
            try:
                game.add(result)
            except GameError as exc:
                game.errors.append(exc.located(index=index, line=index + 1))
        return game


class Store:
    """An open database. ``read()`` / ``write()`` are transactions (context managers); the methods that read
    or change games run inside one."""

    def __init__(self, path: str, *, create: bool = True) -> None:
        """Open ``path`` (created with its folder when ``create``; else a missing file reads as no games)."""
        self.path = path
        self.con: sqlite3.Connection | None = None
        if not create and not os.path.exists(path):
            return
        if create:
            folder = os.path.dirname(os.path.abspath(path))
            try:
                os.makedirs(folder, exist_ok=True)
            except OSError as exc:
                raise StoreError(Msg("cannot make the folder {folder}: {reason}", folder=folder,
                                     reason=exc.strerror or str(exc))) from None
        if os.path.isdir(path):
            raise StoreError(Msg("{path} is a folder, not a database file", path=path))
        try:
            self.con = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        try:
            self._prepare()
        except sqlite3.Error as exc:
            self.close()
            raise self._error(exc) from None
        except StoreError:
            self.close()
            raise

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- opening: what the file is, its schema brought up to date ---------------------------------------------

    def _prepare(self) -> None:
        con = self.con
        assert con is not None
        version = self._check()
        if con.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.execute("PRAGMA foreign_keys=ON")
        if version < VERSION:
            con.execute("BEGIN IMMEDIATE")
            try:
                version = self._check()  # another process may have migrated it while this one waited
                for step in MIGRATIONS[version:]:
                    step(con)
                con.execute(f"PRAGMA application_id={APPLICATION_ID}")
                con.execute(f"PRAGMA user_version={VERSION}")
                con.execute("COMMIT")
            except BaseException:
                con.execute("ROLLBACK")
                raise

    def _check(self) -> int:
        """The file's schema version; StoreError for another program's database or a newer mjcalc's."""
        con = self.con
        assert con is not None
        app = con.execute("PRAGMA application_id").fetchone()[0]
        version = con.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if app != APPLICATION_ID:
            if app == 0 and version == 0 and not tables:
                return 0  # a new, empty file
            raise StoreError(Msg("{path} is an SQLite database, but not one of mjcalc's games (it has {what}); "
                                 "name another file with --db or MJCALC_DB", path=self.path,
                                 what=", ".join(sorted(tables))[:120] or f"application_id {app}"))
        if version > VERSION:
            raise StoreError(Msg("{path} was written by a newer mjcalc (schema {version}; this one reads up to "
                                 "{known}): upgrade mjcalc to use it", path=self.path, version=version,
                                 known=VERSION))
        if version >= 1 and not tables >= TABLES:
            raise StoreError(Msg("{path} is damaged: its table {table} is missing", path=self.path,
                                 table=sorted(TABLES - tables)[0]))
        return int(version)

    def _error(self, exc: BaseException) -> StoreError:
        text = str(exc)
        if "file is not a database" in text or "not a database" in text:
            return StoreError(Msg("{path} is not a database of mjcalc's games (not an SQLite file); name another "
                                  "file with --db or MJCALC_DB", path=self.path))
        if "malformed" in text or "corrupt" in text:
            return StoreError(Msg("{path} is damaged ({reason}): restore it from a copy, or start another file",
                                  path=self.path, reason=_reason(exc)))
        if "locked" in text or "busy" in text:
            return StoreError(Msg("{path} is busy: another mjcalc has been writing to it for {seconds} s; try "
                                  "again", path=self.path, seconds=BUSY_MS // 1000))
        if "unable to open" in text:
            return StoreError(Msg("cannot open {path} (a missing folder, or no permission)", path=self.path))
        if "readonly" in text:
            return StoreError(Msg("cannot write {path}: it is read-only", path=self.path))
        return StoreError(Msg("{path}: {reason}", path=self.path, reason=_reason(exc)))

    # --- transactions ---------------------------------------------------------------------------------------

    @contextmanager
    def read(self) -> Iterator[Store]:
        """One snapshot: what another writer commits meanwhile is not seen."""
        with self._transaction("BEGIN"):
            yield self

    @contextmanager
    def write(self) -> Iterator[Store]:
        """The write lock taken at once (another writer waits); committed when the block ends without an
        exception, else rolled back."""
        with self._transaction("BEGIN IMMEDIATE"):
            yield self

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[None]:
        con = self.con
        if con is None:
            yield
            return
        try:
            con.execute(begin)
        except sqlite3.Error as exc:
            raise self._error(exc) from None
        try:
            yield
        except BaseException:
            with suppress(sqlite3.Error):  # the transaction may be gone with the error (SQLite rolls back itself)
                con.execute("ROLLBACK")
            raise
        try:
            con.execute("COMMIT")
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        if self.con is None:
            return []
        try:
            return self.con.execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise self._error(exc) from None

    # --- games ----------------------------------------------------------------------------------------------

    def names(self) -> list[str]:
        return [r[0] for r in self._run("SELECT name FROM games ORDER BY id")]

    def create(self, name: str, header: dict[str, Any]) -> None:
        """A new game: Refused when the name is taken."""
        if self.con is None:
            raise StoreError(Msg("cannot write {path}", path=self.path))
        if self._run("SELECT 1 FROM games WHERE name = ?", (name,)):
            raise Refused(Msg("a game named '{name}' is already kept in {path}: choose another name", name=name,
                             path=self.path))
        self._run("INSERT INTO games (name, header, created) VALUES (?, ?, ?)",
                  (name, json.dumps(header, ensure_ascii=False), _now()))

    def get(self, name: str) -> Kept:
        """A game and its results; Refused when none has the name."""
        rows = self._run("SELECT id, header, created FROM games WHERE name = ?", (name,))
        if not rows:
            known = self.names()
            hint = Msg("the games kept: {names}", names=", ".join(known[:10]) + (" …" if len(known) > 10 else "")) \
                if known else Msg("none is kept there yet (mjcalc game new)")
            raise Refused(Msg("no game named '{name}' in {path}; {hint}", name=name, path=self.path, hint=hint))
        return self._kept(rows[0][0], name, rows[0][1], rows[0][2])

    def all(self) -> list[Kept]:
        """Every game kept, in the order they were started."""
        return [self._kept(i, n, h, c) for i, n, h, c in self._run("SELECT id, name, header, created FROM games "
                                                                   "ORDER BY id")]

    def _kept(self, id_: int, name: str, header: str, created: str | None) -> Kept:
        rows = self._run("SELECT seq, result, added FROM results WHERE game = ? ORDER BY seq", (id_,))
        parsed_header = self._json(header, Msg("game '{name}': its header", name=name))
        results = []
        for n, (seq, text, _) in enumerate(rows):
            if seq != n:
                raise StoreError(Msg("{path} is damaged: game '{name}' has no result {n}", path=self.path,
                                     name=name, n=n + 1))
            results.append(self._json(text, Msg("game '{name}': result {n}", name=name, n=n + 1)))
        updated = rows[-1][2] if rows else created
        return Kept(id_, name, parsed_header, results, created, updated)

    def _json(self, text: Any, what: str) -> Any:
        try:
            value = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise StoreError(Msg("{path} is damaged: {what} is not JSON ({reason})", path=self.path, what=what,
                                 reason=_reason(exc))) from None
        if not isinstance(value, dict):
            raise StoreError(Msg("{path} is damaged: {what} is not a JSON object", path=self.path, what=what))
        return value

    def append(self, kept: Kept, result: dict[str, Any]) -> None:
        """One result after the game's last."""
        self._run("INSERT INTO results (game, seq, result, added) VALUES (?, ?, ?, ?)",
                  (kept.id, len(kept.results), json.dumps(result, ensure_ascii=False), _now()))
        kept.results.append(result)

    def remove_last(self, kept: Kept) -> dict[str, Any]:
        """The game's last result taken away (the caller checked there is one)."""
        self._run("DELETE FROM results WHERE game = ? AND seq = ?", (kept.id, len(kept.results) - 1))
        return kept.results.pop()

    def delete(self, kept: Kept) -> None:
        """A game and its results."""
        self._run("DELETE FROM results WHERE game = ?", (kept.id,))
        self._run("DELETE FROM games WHERE id = ?", (kept.id,))


def check_name(name: str) -> str:
    """A game's name: printable text of 1 to 64 characters, no space at either end (Refused else)."""
    if not name or not name.strip() or len(name) > MAX_NAME or not name.isprintable() or name != name.strip():
        raise Refused(Msg("a game's name is printable text of 1 to {most} characters, with no space at either end, "
                         "not '{name}'", most=MAX_NAME, name=name[:80]))
    return name
