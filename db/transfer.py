"""Every row of one store moved into another: a server's history from SQLite to PostgreSQL.

The tables are read from the migrations (every ``CREATE TABLE`` the PostgreSQL files leave, in the
order they create them, so a table comes after the tables it references), not from a list kept by
hand: a table added by a future migration is moved without anyone remembering to add it here.
Each table's columns, primary key and identity column are read from the target's catalog (both
dialects carry the same columns; generated ones such as ``games.duration_ms`` are recomputed).

The copy is one PostgreSQL transaction: the target holds everything or nothing. Inside it the
tables' own triggers are switched off (``DISABLE TRIGGER USER``, undone at the end and by a
rollback): they guard the live game (seats frozen once it starts, an action only at seq ==
version, results only while finishing, totals fed when a game finishes), and history arrives
already finished, with the leaderboard totals it fed. Foreign keys stay checked. Rows keep their
ids; the identity sequences then start after the highest copied id, so the next game gets a fresh
one. Both dialects store times as integer milliseconds, booleans as 0/1 and JSON as text, so
values move unchanged (asyncpg refuses a value of the wrong type rather than guessing).

Run it with the bot stopped: the source is read in batches under the store's lock, not as one
snapshot of a database another process is writing.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from db.backend import Conn, Row
from db.errors import TargetNotEmpty, TransferError
from db.migrate import load_migrations
from db.plumbing import StoreBase

__all__ = ["BATCH_ROWS", "SEEDED", "SKIPPED", "Shape", "count_rows", "game_ids", "moved_tables", "table_rows",
           "table_shapes", "transfer"]

BATCH_ROWS = 5000  # rows per read and per insert: a few MB in memory, whatever the history's size

SKIPPED = {
    "timer_leases": "which process runs which tables' timers: the processes on the target take fresh leases",
    "timer_processes": "the processes sharing the timers, by heartbeat: the target's processes write their own",
}
"""Tables that are not history, with why they are left behind (``schema_version`` is not a
migration's table: each database keeps its own)."""

SEEDED = ("game_kinds",)
"""Tables the migrations fill on both sides: compared, never copied."""

_CREATE = re.compile(r"\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.IGNORECASE)
_DROP = re.compile(r"\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)", re.IGNORECASE)
_COMMENT = re.compile(r"--[^\n]*")


def moved_tables() -> tuple[str, ...]:
    """Return the tables a copy moves (every table of the migrations but the seeded and skipped
    ones), each after the tables it references."""
    tables: list[str] = []
    for migration in load_migrations("postgresql"):
        for statement in migration.statements:
            code = _COMMENT.sub("", statement)
            tables += [name.lower() for name in _CREATE.findall(code)]
            dropped = {name.lower() for name in _DROP.findall(code)}
            tables = [name for name in tables if name not in dropped]
    return tuple(name for name in tables if name not in SKIPPED and name not in SEEDED)


@dataclass(frozen=True, slots=True)
class Shape:
    """A table as the copy sees it: the columns it writes, its primary key, its identity column."""

    table: str
    columns: tuple[str, ...]
    key: tuple[str, ...]
    identity: str | None

    def select(self) -> str:
        """Return ``SELECT <columns> FROM <table>`` (identifiers quoted: ``key`` and ``open`` are columns)."""
        return f"SELECT {', '.join(_quoted(self.columns))} FROM \"{self.table}\""

    def insert(self) -> str:
        """Return the INSERT of one row of :attr:`columns`."""
        return (f"INSERT INTO \"{self.table}\" ({', '.join(_quoted(self.columns))}) "
                f"VALUES ({', '.join('?' * len(self.columns))})")


def _quoted(names: Sequence[str]) -> list[str]:
    return [f'"{name}"' for name in names]


async def _shape(db: Conn, table: str) -> Shape:
    """Return ``table``'s shape from a PostgreSQL catalog (inside the caller's connection)."""
    columns = await db.fetch(
        "SELECT column_name, is_identity FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND table_name = ? AND is_generated = 'NEVER' ORDER BY ordinal_position", (table,))
    if not columns:
        raise TransferError(f"the target has no table {table}: is it a Temple Table database?")
    key = await db.fetch(
        "SELECT a.attname FROM pg_index AS i JOIN pg_attribute AS a ON a.attrelid = i.indrelid"
        " AND a.attnum = ANY (i.indkey) WHERE i.indrelid = CAST(CAST(? AS text) AS regclass) AND i.indisprimary"
        " ORDER BY array_position(CAST(i.indkey AS int2[]), a.attnum)", (table,))
    identity = next((str(name) for name, flag in columns if flag == "YES"), None)
    return Shape(table, tuple(str(name) for name, _ in columns), tuple(str(row[0]) for row in key), identity)


async def table_shapes(target: StoreBase) -> list[Shape]:
    """Return the shape of every moved table, read from the PostgreSQL store ``target``."""
    _require_postgresql(target)
    async with target.backend.read() as db:
        return [await _shape(db, table) for table in moved_tables()]


async def _batches(db: Conn, shape: Shape, batch: int) -> AsyncIterator[list[Row]]:
    """Yield ``shape``'s rows in primary-key order, ``batch`` at a time (keyset pages: each read is
    an index seek, not a scan past the rows already read)."""
    if not shape.key:
        # No primary key (only `messages`: a few rows per game): one read, in a stable order.
        yield await db.fetch(f"{shape.select()} ORDER BY {', '.join(_quoted(shape.columns))}")
        return
    order = ", ".join(_quoted(shape.key))
    at = [shape.columns.index(name) for name in shape.key]
    after: list[object] | None = None
    while True:
        where = "" if after is None else f" WHERE ({order}) > ({', '.join('?' * len(at))})"
        rows = await db.fetch(f"{shape.select()}{where} ORDER BY {order} LIMIT {int(batch)}", after or ())
        if rows:
            yield rows
        if len(rows) < batch:
            return
        after = [rows[-1][n] for n in at]


async def table_rows(store: StoreBase, shape: Shape, batch: int = BATCH_ROWS) -> AsyncIterator[list[Row]]:
    """Yield every row of ``shape``'s table in ``store`` (either dialect), in primary-key order."""
    async with store.backend.read() as db:
        async for rows in _batches(db, shape, batch):
            yield rows


async def count_rows(store: StoreBase, tables: Sequence[str] | None = None) -> dict[str, int]:
    """Return the number of rows of each table (default: the moved and the seeded ones)."""
    names = tables if tables is not None else (*SEEDED, *moved_tables())
    async with store.backend.read() as db:
        return {name: int((await db.fetch(f'SELECT count(*) FROM "{name}"'))[0][0]) for name in names}


async def game_ids(store: StoreBase) -> list[int]:
    """Return the id of every game in ``store``, whatever its status, in order."""
    async with store.backend.read() as db:
        return [int(row[0]) for row in await db.fetch("SELECT id FROM games ORDER BY id")]


def _require_postgresql(store: StoreBase) -> None:
    if store.dialect != "postgresql":
        raise TransferError("the copy writes into PostgreSQL only (SQLite's triggers cannot be paused)")


async def transfer(source: StoreBase, target: StoreBase, *, force: bool = False,
                   batch: int = BATCH_ROWS) -> dict[str, int]:
    """Copy every moved table of ``source`` into the PostgreSQL store ``target``; return the rows
    copied per table.

    Raises TargetNotEmpty when the target already holds rows (``force``: replace them), and
    TransferError when the schemas differ or a table cannot be copied; either way the target is
    left as it was.
    """
    _require_postgresql(target)
    if source.schema_version != target.schema_version:
        raise TransferError(f"the source is at schema {source.schema_version} and the target at "
                            f"{target.schema_version}: open both with this release first")
    copied: dict[str, int] = {}
    async with target.backend.write() as out, source.backend.snapshot() as src:
        shapes = [await _shape(out, table) for table in moved_tables()]
        held = {shape.table: int((await out.fetch(f'SELECT count(*) FROM "{shape.table}"'))[0][0])
                for shape in shapes}
        if any(held.values()):
            if not force:
                raise TargetNotEmpty(held)
            await out.execute(f"TRUNCATE {', '.join(_quoted([s.table for s in shapes]))}")
        for shape in shapes:
            copied[shape.table] = await _copy(src, out, shape, batch)
    return copied


async def _copy(src: Conn, out: Conn, shape: Shape, batch: int) -> int:
    """Copy one table (inside the target's transaction); return its row count."""
    count = 0
    try:
        await out.execute(f'ALTER TABLE "{shape.table}" DISABLE TRIGGER USER')
        async for rows in _batches(src, shape, batch):
            await out.executemany(shape.insert(), rows)
            count += len(rows)
        await out.execute(f'ALTER TABLE "{shape.table}" ENABLE TRIGGER USER')
        if shape.identity is not None:
            # The next row the bot inserts gets the id after the highest copied one.
            await out.fetch(
                f"SELECT setval(pg_get_serial_sequence(CAST(? AS text), CAST(? AS text)),"
                f" coalesce(max(\"{shape.identity}\"), 0) + 1, false) FROM \"{shape.table}\"",
                (shape.table, shape.identity))
    except TransferError:
        raise
    except Exception as exc:
        raise TransferError(f"copying {shape.table} failed after {count} rows: {exc}") from exc
    return count
