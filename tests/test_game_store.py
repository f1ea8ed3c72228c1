"""The games' database (mjcalc/game/store.py): the schema and its migrations, files that are not mjcalc's, transactions;
and bounded rounds of benchmarks/game_reliability.py (kill -9 during adds, two writers, bad files)."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest

from mjcalc.game import Game, header_to_json
from mjcalc.game.store import APPLICATION_ID, MIGRATIONS, VERSION, Refused, Store, StoreError, default_path

ROOT = Path(__file__).resolve().parent.parent
HEADER = header_to_json(Game.new(["A", "B", "C", "D"], "changchun").header)
WIN = {"win": [{"winner": "B", "from": "C", "hand": "123m456p789s111z 22z"}]}


def _pragmas(path: Path) -> tuple[int, int, str]:
    con = sqlite3.connect(path)
    try:
        return (con.execute("PRAGMA application_id").fetchone()[0], con.execute("PRAGMA user_version").fetchone()[0],
                con.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        con.close()


def _new(path: Path, results: list[dict] | None = None) -> None:
    with Store(str(path)) as store, store.write():
        store.create("g", HEADER)
        kept = store.get("g")
        for r in results or []:
            store.append(kept, r)


def test_a_new_file_is_made_at_the_current_version_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "games.db"
    _new(path, [WIN])
    assert _pragmas(path) == (APPLICATION_ID, VERSION, "wal")
    with Store(str(path)) as store, store.read():
        kept = store.get("g")
    assert kept.header == HEADER and kept.results == [WIN] and kept.created and kept.updated
    assert kept.game().sheet().final.scores == [-4, 16, -8, -4]


def test_the_default_path_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJCALC_DB", str(tmp_path / "x.db"))
    assert default_path() == str(tmp_path / "x.db")
    monkeypatch.delenv("MJCALC_DB")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == str(tmp_path / "data" / "mjcalc" / "games.db")
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_path() == str(tmp_path / ".local" / "share" / "mjcalc" / "games.db")


def test_a_missing_file_reads_as_no_games_and_is_not_made(tmp_path: Path) -> None:
    path = tmp_path / "none.db"
    with Store(str(path), create=False) as store, store.read():
        assert store.all() == []
        with pytest.raises(Refused, match="no game named 'x'"):
            store.get("x")
    assert not path.exists()


@pytest.mark.parametrize("version", range(VERSION))
def test_an_older_file_is_migrated_and_keeps_its_games(tmp_path: Path, version: int) -> None:
    """A file as each older mjcalc left it (its schema made by the steps up to its version), with a game in it:
    opened, it is brought to the current version, its game intact."""
    path = tmp_path / "old.db"
    con = sqlite3.connect(path, isolation_level=None)
    for step in MIGRATIONS[:version]:
        step(con)
    if version:
        con.execute(f"PRAGMA application_id={APPLICATION_ID}")
        con.execute(f"PRAGMA user_version={version}")
        con.execute("INSERT INTO games (id, name, header) VALUES (1, 'old', ?)", (json.dumps(HEADER),))
        con.execute("INSERT INTO results (game, seq, result) VALUES (1, 0, ?)", (json.dumps(WIN),))
    con.close()
    with Store(str(path)) as store, store.read():
        games = store.all()
    assert _pragmas(path)[:2] == (APPLICATION_ID, VERSION)
    if version:
        assert [(k.name, k.results) for k in games] == [("old", [WIN])]
        assert games[0].created is None  # a fact the old file did not keep stays unknown
    else:
        assert games == []
    _new(path)  # and it takes new games
    with Store(str(path)) as store, store.read():
        assert "g" in store.names()


def test_a_migration_is_one_transaction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step that fails leaves the file as it was (its version, its tables)."""
    import mjcalc.game.store as store_module

    path = tmp_path / "old.db"
    con = sqlite3.connect(path, isolation_level=None)
    MIGRATIONS[0](con)
    con.execute(f"PRAGMA application_id={APPLICATION_ID}")
    con.execute("PRAGMA user_version=1")
    con.close()

    def broken(con: sqlite3.Connection) -> None:
        con.execute("ALTER TABLE games ADD COLUMN created TEXT")
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store_module, "MIGRATIONS", (MIGRATIONS[0], broken))
    with pytest.raises(StoreError, match="disk I/O error"):
        Store(str(path))
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "created" not in [r[1] for r in con.execute("PRAGMA table_info(games)")]
    con.close()


@pytest.mark.parametrize("kind", ["text", "zeros", "foreign", "newer", "missing_table", "truncated", "not_json",
                                  "gap", "not_object", "folder"])
def test_a_file_that_is_not_a_good_database_is_a_store_error(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "bad.db"
    if kind == "text":
        path.write_text("game riichi A B C D\n")
    elif kind == "zeros":
        path.write_bytes(bytes(5000))
    elif kind == "foreign":
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        con.commit()
        con.close()
    elif kind == "folder":
        path.mkdir()
    else:
        _new(path, [WIN, WIN])
        con = sqlite3.connect(path)
        con.execute("PRAGMA journal_mode=DELETE")
        if kind == "newer":
            con.execute(f"PRAGMA user_version={VERSION + 1}")
        elif kind == "missing_table":
            con.execute("DROP TABLE results")
        elif kind == "not_json":
            con.execute("UPDATE results SET result = '{oops' WHERE seq = 1")
        elif kind == "gap":
            con.execute("DELETE FROM results WHERE seq = 0")
        elif kind == "not_object":
            con.execute("UPDATE results SET result = '[1]' WHERE seq = 1")
        con.commit()
        con.close()
        if kind == "truncated":
            path.write_bytes(path.read_bytes()[:1500])
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(StoreError) as caught, Store(str(path)) as store, store.read():
        store.get("g")
    assert str(path) in caught.value.message and caught.value.exit_code == 3
    if kind in ("text", "zeros", "foreign"):
        assert path.read_bytes() == before  # another program's file is never written to


def test_an_empty_file_is_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    path.write_bytes(b"")
    _new(path)
    assert _pragmas(path)[:2] == (APPLICATION_ID, VERSION)


def test_a_write_that_fails_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    _new(path, [WIN])
    with pytest.raises(RuntimeError), Store(str(path)) as store, store.write():
        kept = store.get("g")
        store.append(kept, WIN)
        store.create("h", HEADER)
        raise RuntimeError("the command failed after writing")
    with Store(str(path)) as store, store.read():
        assert store.names() == ["g"] and store.get("g").results == [WIN]


def test_append_undo_delete_and_names(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    _new(path, [WIN, {"draw": {"ready": [], "nagashi": []}}])
    with Store(str(path)) as store, store.write():
        kept = store.get("g")
        assert store.remove_last(kept) == {"draw": {"ready": [], "nagashi": []}}
        with pytest.raises(Refused, match="already kept"):
            store.create("g", HEADER)
    with Store(str(path)) as store, store.write():
        assert store.get("g").results == [WIN]
        store.delete(store.get("g"))
    with Store(str(path)) as store, store.read():
        assert store.names() == []


def test_a_second_writer_waits_for_the_first(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE: the second writer's transaction starts only once the first has committed, so it reads
    the first one's result before adding its own."""
    import threading
    import time

    path = tmp_path / "g.db"
    _new(path)
    order: list[str] = []
    first_in = threading.Event()

    def first() -> None:
        with Store(str(path)) as store, store.write():
            first_in.set()
            kept = store.get("g")
            time.sleep(0.3)
            store.append(kept, WIN)
            order.append("first committed")

    t = threading.Thread(target=first)
    t.start()
    first_in.wait()
    with Store(str(path)) as store, store.write():
        order.append("second began")
        assert len(store.get("g").results) == 1
    t.join()
    assert order == ["first committed", "second began"]


# --- bounded rounds of the reliability measurements ---------------------------------------------------------

def _reliability():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import game_reliability
    finally:
        sys.path.pop(0)
    return game_reliability


def test_kill_minus_nine_during_adds_loses_and_doubles_nothing(tmp_path: Path) -> None:
    figures = _reliability().kill_run(tmp_path, adds=24, base=30, seed=7, say=None)
    assert figures["killed"] >= 3 and figures["ok"] >= 3, figures


def test_two_writers_naming_the_same_hand_add_it_once(tmp_path: Path) -> None:
    figures = _reliability().race_run(tmp_path, rounds=6, say=None)
    assert figures["added"] == 6 and figures["refused"] == 6


def test_bad_files_exit_three_naming_the_file(tmp_path: Path) -> None:
    messages = _reliability().bad_files(tmp_path)
    assert "not an SQLite file" in messages["text"] and "damaged" in messages["truncated"]
    assert "moz_places" in messages["foreign"] and "newer mjcalc" in messages["newer"]


def test_a_replay_file_with_bad_lines_names_each_and_replays_the_rest(tmp_path: Path) -> None:
    figures = _reliability().replay_bad_lines(tmp_path, games=6)
    assert figures["sheets"] == 6 and figures["named"] == figures["bad lines"] > 0
