"""Migrations: applied from empty in one transaction, tracked by user_version, newer databases refused."""

from __future__ import annotations

import os
import sqlite3
from datetime import timedelta
from pathlib import Path

import aiosqlite
import pytest
from db_kit import T0, FakeClock, PlayingGame

import db.sqlite
from db import MigrationError, SchemaTooNew, Store
from db.migrate import apply_migrations, check_sequence, load_migrations, parse_migration, split_statements

OLD_COLUMNS = {"messages": "game_id, kind, seat, channel_id, message_id, updated_at"}
"""The columns a 0002 database had where a later migration added one (0007: messages.open)."""

HEADER = "-- Migration {n}: test.\n-- Reason: testing the runner.\n-- Date: 2026-12-02\n\n"


def _user_version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}


def test_shipped_migrations_are_numbered_and_headed():
    migrations = load_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "0001_initial.sql"
    assert all(m.statements for m in migrations)


async def test_migrates_from_empty(db_path: Path):
    store = await Store.open(db_path)
    latest = load_migrations()[-1].version
    assert store.schema_version == latest
    assert (await store.settings())["user_version"] == latest
    await store.close()
    assert _user_version(db_path) == latest
    assert {"games", "seats", "actions", "messages", "results", "deadlines", "game_kinds"} <= _tables(db_path)


async def test_reopen_is_idempotent(db_path: Path):
    store = await Store.open(db_path)
    game = await store.create_game("sakkara", guild_id=1, channel_id=2, host_id=3)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        schema_before = conn.execute("SELECT sql FROM sqlite_schema ORDER BY name").fetchall()
    store = await Store.open(db_path)
    assert store.schema_version == load_migrations()[-1].version
    assert (await store.get_game(game.id)).game == "sakkara"
    await store.close()
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT sql FROM sqlite_schema ORDER BY name").fetchall() == schema_before


async def test_newer_database_is_refused_and_left_alone(db_path: Path):
    latest = load_migrations()[-1].version
    with sqlite3.connect(db_path) as conn:
        conn.execute("CREATE TABLE from_the_future (x)")
        conn.execute(f"PRAGMA user_version = {latest + 3}")
    with pytest.raises(SchemaTooNew) as caught:
        await Store.open(db_path)
    assert (caught.value.found, caught.value.supported) == (latest + 3, latest)
    assert "newer" in str(caught.value)
    assert _user_version(db_path) == latest + 3
    assert _tables(db_path) == {"from_the_future"}


async def test_a_failing_migration_applies_nothing(db_path: Path):
    good = parse_migration("0001_good.sql", HEADER.format(n=1) + "CREATE TABLE a (x INTEGER);\n")
    bad = parse_migration(
        "0002_bad.sql", HEADER.format(n=2) + "CREATE TABLE b (x INTEGER);\nINSERT INTO nowhere VALUES (1);\n"
    )
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        with pytest.raises(MigrationError, match=r"0002_bad\.sql"):
            await apply_migrations(conn, [good, bad])
    assert _user_version(db_path) == 0
    assert _tables(db_path) == set()
    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        assert await apply_migrations(conn, [good]) == 1
        # Pending migrations are applied on top of the recorded version only.
        fixed = parse_migration("0002_fixed.sql", HEADER.format(n=2) + "CREATE TABLE b (x INTEGER);\n")
        assert await apply_migrations(conn, [good, fixed]) == 2
    assert _tables(db_path) == {"a", "b"}
    assert _user_version(db_path) == 2


async def test_a_0002_database_migrates_to_the_newest_and_keeps_its_data(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
):
    # A database as the code of migration 0002 left it: the store opened with only 0001 and 0002.
    async def up_to_0002(conn: aiosqlite.Connection) -> int:
        return await apply_migrations(conn, load_migrations()[:2])

    monkeypatch.setattr(db.sqlite, "apply_migrations", up_to_0002)
    clock = FakeClock()
    old = await Store.open(db_path, clock=clock)
    assert old.schema_version == 2
    game_id = await PlayingGame(old)()
    await old.set_deadline(game_id, "decision", T0 + timedelta(minutes=2), version=2)
    await old.close()
    with sqlite3.connect(db_path) as conn:  # 0002 had no action_appends view: the log as it wrote it
        conn.executemany(
            "INSERT INTO actions VALUES (?, ?, ?, ?, 0)", [(game_id, 0, -1, '"T5"'), (game_id, 1, 0, '"torch"')]
        )
        conn.execute("INSERT INTO messages VALUES (?, 'round', NULL, 500, 42, 0)", (game_id,))
        before = {table: conn.execute(f"SELECT {OLD_COLUMNS.get(table, '*')} FROM {table} ORDER BY 1, 2").fetchall()
                  for table in ("games", "seats", "actions", "messages", "deadlines")}
        assert "action_appends" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_schema")}
    monkeypatch.undo()

    store = await Store.open(db_path, clock=clock)
    latest = load_migrations()[-1].version  # 0003 and every migration after it
    assert store.schema_version == latest
    await store.close()
    assert _user_version(db_path) == latest
    with sqlite3.connect(db_path) as conn:
        after = {table: conn.execute(f"SELECT {OLD_COLUMNS.get(table, '*')} FROM {table} ORDER BY 1, 2").fetchall()
                 for table in before}
    # 0005 adds one 'auto' timer per playing game, due at once: the first start looks at each once.
    auto = [row for row in after["deadlines"] if row[1] == "auto"]
    assert [(row[0], row[3]) for row in auto] == [(game_id, 2)]
    after["deadlines"] = [row for row in after["deadlines"] if row[1] != "auto"]
    assert after == before
    # The migrated database takes appends that re-arm the timer.
    store = await Store.open(db_path, clock=clock)
    later = T0 + timedelta(minutes=3)
    assert await store.append_actions(game_id, 2, [(1, "camp")], deadline=("decision", later, 3)) == 3
    timer = await store.deadline(game_id, "decision")
    assert timer is not None and (timer.due_at, timer.version) == (later, 3)
    assert (await store.load_game(game_id)).moves() == [(-1, "T5"), (0, "torch"), (1, "camp")]
    await store.close()


def test_malformed_migration_files_are_refused():
    with pytest.raises(MigrationError, match="NNNN_reason"):
        parse_migration("1_initial.sql", HEADER.format(n=1) + "SELECT 1;")
    with pytest.raises(MigrationError, match="header"):
        parse_migration("0001_initial.sql", "CREATE TABLE a (x);")
    with pytest.raises(MigrationError, match="transactions"):
        parse_migration("0001_initial.sql", HEADER.format(n=1) + "BEGIN;\nCREATE TABLE a (x);\nCOMMIT;\n")
    with pytest.raises(MigrationError, match="incomplete"):
        parse_migration("0001_initial.sql", HEADER.format(n=1) + "CREATE TABLE a (x)\n")
    one = parse_migration("0001_a.sql", HEADER.format(n=1) + "SELECT 1;")
    three = parse_migration("0003_c.sql", HEADER.format(n=3) + "SELECT 1;")
    with pytest.raises(MigrationError, match=r"0003_c\.sql"):
        check_sequence([three, one])


def test_missing_package_data_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    import db.migrate

    class _Files:
        def joinpath(self, name: str) -> Path:
            return tmp_path  # an installed package without its .sql files

    monkeypatch.setattr(db.migrate.resources, "files", lambda package: _Files())
    with pytest.raises(MigrationError, match="no migration files"):
        load_migrations()


def test_split_statements_keeps_triggers_whole():
    sql = (
        "-- comment; with a semicolon\nCREATE TABLE t (x);\n"
        "CREATE TRIGGER tr AFTER INSERT ON t BEGIN\n  SELECT 1;\n  SELECT 2;\nEND;\n-- trailing\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")


async def test_migrations_are_found_from_any_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)
    assert not (Path(os.getcwd()) / "migrations").exists()
    store = await Store.open(":memory:")
    assert store.schema_version == load_migrations()[-1].version
    await store.close()


async def test_file_database_runs_in_wal_with_foreign_keys_and_busy_timeout(db_path: Path):
    store = await Store.open(db_path, busy_timeout_ms=2500)
    settings = await store.settings()
    assert store.journal_mode == "wal"
    assert settings["journal_mode"] == "wal"
    assert settings["foreign_keys"] == 1
    assert settings["busy_timeout"] == 2500
    assert settings["synchronous"] == 2  # FULL
    await store.create_game("indus", guild_id=1, channel_id=2, host_id=3)
    assert Path(f"{db_path}-wal").exists()
    await store.close()
    # WAL is persistent: a plain connection sees it in the file itself.
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_synchronous_normal_on_request(db_path: Path):
    store = await Store.open(db_path, synchronous="NORMAL")
    assert (await store.settings())["synchronous"] == 1
    await store.close()
    with pytest.raises(ValueError):
        await Store.open(db_path, synchronous="OFF")  # type: ignore[arg-type]
