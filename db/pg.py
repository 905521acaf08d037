"""The PostgreSQL backend (asyncpg): a pool of connections, one database shared by many processes.

Selected by ``DATABASE_URL=postgresql://user:pass@host/db``. The store's statements (written with
``?`` placeholders) run here as ``$1, $2, ...``; the schema (``db/migrations/postgresql/``) raises
the same refusal tokens as SQLite's, so :class:`db.store.Store` reads one set of errors.

Unlike SQLite, several bot processes may use one database: appends are ordered by the games row
they lock (a second writer at the same version gets ``stale_version``), every write to a table
notifies ``table_changed`` (:meth:`PgBackend.listen`), and ``timer_leases`` says which process
runs which tables' timers (:mod:`db.leases`). A connection that is lost raises
:class:`db.errors.Unavailable`; the pool opens a fresh one for the next call.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, NoReturn, TypeAlias

import asyncpg

from db.backend import ROWS_PER_INSERT, Dialect, Refused, Row, insert_appends_sql
from db.errors import AccessDenied, MigrationError, SchemaTooNew, Unavailable
from db.migrate import Migration, check_sequence, load_migrations

__all__ = ["PgBackend", "translate"]

Connection: TypeAlias = "asyncpg.Connection[Any] | asyncpg.pool.PoolConnectionProxy[Any]"

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 10.0
MIGRATION_LOCK = 7_163_231_004  # pg_advisory_xact_lock key: one process migrates at a time
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")

_LOST = (asyncpg.exceptions.ConnectionDoesNotExistError, asyncpg.exceptions.CannotConnectNowError,
         asyncpg.exceptions.ConnectionFailureError, asyncpg.exceptions.AdminShutdownError,
         asyncpg.exceptions.CrashShutdownError, asyncpg.exceptions.InterfaceError, ConnectionError, OSError,
         TimeoutError)
"""What a lost or unreachable server raises (asyncpg's own, and the socket's)."""


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> str:
    """Return ``sql`` with its ``?`` placeholders numbered ``$1, $2, ...`` (quoted text left alone)."""
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0) != "?":
            return match.group(0)
        count += 1
        return f"${count}"

    return _PLACEHOLDER.sub(number, sql)


def _raise(exc: Exception) -> NoReturn:
    """Raise the store's view of an asyncpg error."""
    if isinstance(exc, asyncpg.exceptions.RaiseError):  # a trigger's RAISE EXCEPTION 'token'
        raise Refused(str(exc).strip(), "") from exc
    if isinstance(exc, asyncpg.exceptions.UniqueViolationError):
        raise Refused("unique", exc.constraint_name or str(exc)) from exc
    if isinstance(exc, asyncpg.exceptions.ForeignKeyViolationError):
        raise Refused("foreign_key", exc.constraint_name or str(exc)) from exc
    if isinstance(exc, asyncpg.exceptions.CheckViolationError | asyncpg.exceptions.NotNullViolationError):
        raise Refused("check", getattr(exc, "constraint_name", None) or str(exc)) from exc
    if isinstance(exc, _LOST):
        raise Unavailable(f"PostgreSQL: {exc or type(exc).__name__}") from exc
    raise exc


class PgConn:
    """One pooled connection as the store's statements use it."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """Return every row of ``sql``."""
        try:
            return [tuple(row) for row in await self.conn.fetch(translate(sql), *params)]
        except Exception as exc:
            _raise(exc)

    async def execute(self, sql: str, params: Sequence[object] = ()) -> None:
        """Run ``sql``."""
        try:
            await self.conn.execute(translate(sql), *params)
        except Exception as exc:
            _raise(exc)

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        """Run ``sql`` for every row of parameters."""
        try:
            await self.conn.executemany(translate(sql), rows)
        except Exception as exc:
            _raise(exc)


class PgBackend:
    """A pool of asyncpg connections to one PostgreSQL database."""

    dialect: Dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str, schema_version: int) -> None:
        self._pool = pool
        self.url = url
        self.schema_version = schema_version

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PgBackend:
        """Connect (raise Unavailable when the server cannot be reached, AccessDenied when it refuses
        the user or database) and migrate."""
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size, timeout=CONNECT_TIMEOUT_S,
                                             command_timeout=60)
        except Exception as exc:
            # An unknown role is InvalidAuthorizationSpecificationError, the parent of the wrong
            # password's error: both, and an unknown database, are settings to fix, not an outage.
            if isinstance(exc, asyncpg.exceptions.InvalidCatalogNameError
                          | asyncpg.exceptions.InvalidAuthorizationSpecificationError):
                raise AccessDenied(f"PostgreSQL refused the connection: {exc}") from exc
            _raise(exc)
        try:
            async with pool.acquire() as conn:
                version = await apply_pg_migrations(conn)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, url, version)

    @asynccontextmanager
    async def _acquire(self) -> AsyncIterator[Connection]:
        try:
            connection = await self._pool.acquire(timeout=CONNECT_TIMEOUT_S)
        except Exception as exc:
            _raise(exc)
        try:
            yield connection
        finally:
            try:
                await self._pool.release(connection)
            except Exception:
                log.debug("a connection could not be returned to the pool", exc_info=True)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[PgConn]:
        """A pooled connection in autocommit mode (each statement sees what is committed)."""
        async with self._acquire() as conn:
            yield PgConn(conn)

    single = read  # one statement in autocommit mode is its own transaction

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[PgConn]:
        """A read-only REPEATABLE READ transaction: several reads of one consistent state."""
        async with self._acquire() as conn:
            try:
                async with conn.transaction(isolation="repeatable_read", readonly=True):
                    yield PgConn(conn)
            except _LOST as exc:
                _raise(exc)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[PgConn]:
        """One transaction: committed on success, rolled back on any error."""
        async with self._acquire() as conn:
            try:
                async with conn.transaction():
                    yield PgConn(conn)
            except _LOST as exc:
                _raise(exc)

    async def append(self, rows: Sequence[Row]) -> None:
        """Insert one append's rows through ``action_appends``: one statement (one round trip, one commit)."""
        if len(rows) <= ROWS_PER_INSERT:
            async with self.single() as db:
                await db.execute(insert_appends_sql(len(rows)), [v for row in rows for v in row])
            return
        async with self.write() as db:
            for start in range(0, len(rows), ROWS_PER_INSERT):
                chunk = rows[start : start + ROWS_PER_INSERT]
                await db.execute(insert_appends_sql(len(chunk)), [v for row in chunk for v in row])

    async def listen(self, channel: str, callback: Callable[[str], Awaitable[None]],
                     lost: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
        """Call ``callback(payload)`` for every notification on ``channel``, on a connection of its own;
        ``lost()`` when that connection drops (the caller reconnects). Return a function that stops."""
        try:
            conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT_S)
        except Exception as exc:
            _raise(exc)
        tasks: set[asyncio.Task[None]] = set()

        def heard(_conn: Connection, _pid: int, _channel: str, payload: object) -> None:
            task = asyncio.ensure_future(callback(str(payload)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        def dropped(_conn: object) -> None:
            task = asyncio.ensure_future(lost())
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        conn.add_termination_listener(dropped)
        await conn.add_listener(channel, heard)

        async def stop() -> None:
            conn.remove_termination_listener(dropped)
            if not conn.is_closed():
                await conn.close()

        return stop

    async def settings(self) -> dict[str, int | str]:
        """Return the server's version and the settings that matter to durability."""
        found: dict[str, int | str] = {}
        async with self.read() as db:
            for name in ("server_version", "synchronous_commit", "fsync", "default_transaction_isolation"):
                found[name] = str((await db.fetch(f"SHOW {name}"))[0][0])
        found["schema_version"] = self.schema_version
        return found

    async def close(self) -> None:
        """Close the pool (waits for connections in use to be released)."""
        try:
            await asyncio.wait_for(self._pool.close(), 10)
        except (TimeoutError, *_LOST):
            self._pool.terminate()


async def apply_pg_migrations(conn: Connection, migrations: list[Migration] | None = None) -> int:
    """Bring the database to the newest PostgreSQL schema in one transaction; return its version.

    One process migrates at a time (an advisory lock); the version lives in ``schema_version``.
    Raises SchemaTooNew when the database is newer than the code, MigrationError when a migration
    fails (nothing is applied).
    """
    migrations = check_sequence(migrations if migrations is not None else load_migrations("postgresql"))
    latest = migrations[-1].version if migrations else 0
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await conn.fetchval("SELECT max(version) FROM schema_version") or 0
        if current > latest:
            raise SchemaTooNew(current, latest)
        for migration in migrations[current:]:
            try:
                for statement in migration.statements:
                    await conn.execute(statement)
            except asyncpg.PostgresError as exc:
                raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
        if current < latest:
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", latest)
    return latest
