"""The SQLite backend (aiosqlite): one connection, WAL, and group commit for appends.

Concurrency: aiosqlite runs statements one at a time on its own thread, but a transaction spans
several awaits, so every use holds one lock (:class:`db.lanes.Lanes`) for its whole duration; other coroutines
never see a half-written transaction. Each statement is a round trip to that thread, which under
load waits for a full event-loop iteration, so the hot paths are single statements in autocommit
mode (a statement is its own transaction): an append and the timers it re-arms are one INSERT into
the ``action_appends`` view.

Appends use group commit: one writer task takes every append queued while the store was busy and
writes them with one multi-row INSERT per 500 rows (one round trip, one fsync), each caller,
waiting on its own request rather than on the lock, still getting its own outcome (if any of them
is refused, SQLite undoes the statement and each is written alone). The writer takes the lock
through its fast lane: moves are what players wait for. An append cancelled while
still queued is dropped; if a caller is cancelled after its write was handed to SQLite the outcome
is unknown: reload the game before trusting memory.

One SQLite file belongs to one bot process; several processes need PostgreSQL (:mod:`db.pg`).
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Literal

import aiosqlite

from db.backend import ROWS_PER_INSERT, Dialect, Refused, Row, insert_appends_sql
from db.errors import StoreError
from db.lanes import Lanes
from db.migrate import apply_migrations, rollback_quietly

__all__ = ["SqliteBackend"]

MIN_SQLITE = (3, 37, 0)  # STRICT tables
_UNIQUE = re.compile(r"^UNIQUE constraint failed: (.*)$")


def _refused(exc: sqlite3.IntegrityError) -> Refused:
    """Return the dialect-neutral refusal of an IntegrityError."""
    message = str(exc)
    unique = _UNIQUE.match(message)
    if unique:
        return Refused("unique", unique.group(1))
    if message.startswith("FOREIGN KEY"):
        return Refused("foreign_key", message)
    if "constraint failed" in message:
        return Refused("check", message)
    return Refused(message.strip(), "")  # a trigger's RAISE(ABORT, 'token')


class SqliteConn:
    """The store's view of the aiosqlite connection (the caller holds the backend's lock)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """Return every row of ``sql`` (one round trip to the SQLite thread)."""
        try:
            return [tuple(row) for row in await self.db.execute_fetchall(sql, params)]
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc

    async def execute(self, sql: str, params: Sequence[object] = ()) -> None:
        """Run ``sql``."""
        try:
            await self.db.execute(sql, params)
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        """Run ``sql`` for every row of parameters."""
        try:
            await self.db.executemany(sql, rows)
        except sqlite3.IntegrityError as exc:
            raise _refused(exc) from exc


class _Append:
    """One queued append: its rows, and once written, its outcome."""

    __slots__ = ("error", "rows", "settled", "written")

    def __init__(self, rows: Sequence[Row], written: asyncio.Future[None]) -> None:
        self.rows = rows
        self.settled = False
        self.error: Exception | None = None
        self.written = written  # resolved once the outcome is known

    def settle(self, error: Exception | None) -> None:
        """Record the outcome: written (None) or refused with ``error``; wake the caller."""
        self.settled = True
        self.error = error
        if not self.written.done():
            self.written.set_result(None)


class SqliteBackend:
    """One SQLite database file (or ``:memory:``) behind one aiosqlite connection."""

    dialect: Dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection, journal_mode: str, schema_version: int) -> None:
        self._db = db
        self._conn = SqliteConn(db)
        self._lock = Lanes()  # the moves' writer has a fast lane (see db.lanes)
        self._pending: list[_Append] = []
        self._writer: asyncio.Future[None] | None = None  # the task writing queued appends, if any
        self.journal_mode = journal_mode
        self.schema_version = schema_version

    @classmethod
    async def open(cls, path: str | os.PathLike[str], *, synchronous: Literal["FULL", "NORMAL"] = "FULL",
                   busy_timeout_ms: int = 5000) -> SqliteBackend:
        """Open and migrate ``path``; see :meth:`db.store.Store.open`."""
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreError(f"SQLite {sqlite3.sqlite_version} is too old; the schema needs 3.37+")
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be 'FULL' or 'NORMAL', not {synchronous!r}")
        db = await aiosqlite.connect(os.fspath(path), isolation_level=None)
        try:
            # busy_timeout first: switching to WAL needs the write lock another process may hold.
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms):d}")
            rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
            journal_mode = str(rows[0][0]).lower()
            if journal_mode not in ("wal", "memory"):
                raise StoreError(f"could not enable WAL on {os.fspath(path)!r} (journal_mode={journal_mode})")
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            version = await apply_migrations(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, journal_mode, version)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[SqliteConn]:
        """Hold the lock for a read, so no other coroutine's transaction is half-visible."""
        async with self._lock:
            yield self._conn

    single = read  # one statement in autocommit mode is atomic on its own
    snapshot = read  # nothing else writes while the lock is held

    @asynccontextmanager
    async def write(self) -> AsyncIterator[SqliteConn]:
        """Hold the lock and one IMMEDIATE transaction: committed on success, rolled back on any error."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                # Inside the try: a COMMIT that fails (disk full, busy) must not leave the
                # transaction open for the next caller.
                await self._db.execute("COMMIT")
            except BaseException:
                await rollback_quietly(self._db)
                raise

    async def settings(self) -> dict[str, int | str]:
        """Return the effective pragmas (journal_mode, foreign_keys, busy_timeout, synchronous, user_version)."""
        found: dict[str, int | str] = {}
        async with self.read() as db:
            for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous", "user_version"):
                found[name] = (await db.fetch(f"PRAGMA {name}"))[0][0]
        return found

    async def close(self) -> None:
        """Close the connection (waits for a running operation to finish)."""
        async with self._lock:
            await self._db.close()

    # ------------------------------------------------------------------ group commit

    async def append(self, rows: Sequence[Row]) -> None:
        """Queue one append and wait for its own outcome (see the module docstring)."""
        request = _Append(rows, asyncio.get_running_loop().create_future())
        # Callers wait on their own request, not on the lock: handing a lock from waiter to waiter
        # costs an event-loop turn each, which under load was most of an append's latency.
        self._pending.append(request)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write_appends())
        try:
            await asyncio.shield(request.written)
        except asyncio.CancelledError:
            # Cancelled while queued: the request must not be written later, unseen. Once the
            # writer took it, the outcome is unknown to this caller (see the module docstring).
            if request in self._pending:
                self._pending.remove(request)
            raise
        if request.error is not None:
            raise request.error

    async def _write_appends(self) -> None:
        """Write queued appends until none is left, each turn taking everything queued so far."""
        while self._pending:
            batch: list[_Append] = []
            try:
                async with self._lock.fast():
                    batch, self._pending = self._pending, []
                    await self._flush(batch)
            except BaseException as exc:
                # Only a stop (cancellation at shutdown) gets here: no caller may wait forever. A
                # statement already handed to SQLite may still commit: its callers' outcome is unknown.
                error = exc if isinstance(exc, Exception) else StoreError("the store stopped before the write")
                for request in [*batch, *self._pending]:
                    if not request.settled:
                        request.settle(error)
                self._pending = []
                raise

    async def _flush(self, batch: list[_Append]) -> None:
        """Write queued appends (inside the lock): all together if they all fit and pass, else one
        by one so each gets its own outcome; settle every request."""
        total = sum(len(r.rows) for r in batch)
        if len(batch) > 1 and total > ROWS_PER_INSERT:
            # A big queue (hundreds of tables at once) is written in statements that fit, not one
            # request at a time: under load this is where group commit earns its keep.
            chunk: list[_Append] = []
            count = 0
            for request in batch:
                if chunk and count + len(request.rows) > ROWS_PER_INSERT:
                    await self._flush(chunk)
                    chunk, count = [], 0
                chunk.append(request)
                count += len(request.rows)
            if chunk:
                await self._flush(chunk)
            return
        if len(batch) > 1:
            rows = [row for request in batch for row in request.rows]
            try:
                # One statement, so atomic without BEGIN/COMMIT: the batch costs one round trip.
                await self._insert(rows)
            except Refused:
                # One of them is stale or refused (a double click in the same batch). SQLite undid
                # the whole statement, timers included: retry each alone for its own outcome.
                pass
            except Exception as exc:
                for request in batch:
                    request.settle(exc)
                return
            else:
                for request in batch:
                    request.settle(None)
                return
        for request in batch:
            try:
                await self._append_one(request.rows)
            except Exception as exc:
                request.settle(exc)
            else:
                request.settle(None)

    async def _append_one(self, rows: Sequence[Row]) -> None:
        """Write one append atomically (inside the lock)."""
        # The schema's triggers check status, seq == version and the seat, and bump the version.
        # One multi-row INSERT is one statement, hence atomic even in autocommit mode.
        if len(rows) <= ROWS_PER_INSERT:
            await self._insert(rows)
            return
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            for start in range(0, len(rows), ROWS_PER_INSERT):
                await self._insert(rows[start : start + ROWS_PER_INSERT])
            await self._db.execute("COMMIT")
        except BaseException:
            await rollback_quietly(self._db)
            raise

    async def _insert(self, rows: Sequence[Row]) -> None:
        await self._conn.execute(insert_appends_sql(len(rows)), [v for row in rows for v in row])
