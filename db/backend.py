"""What the store needs of a database, whichever it is: connections, transactions, refusals.

:class:`db.store.Store` holds every statement the bot runs and talks to one :class:`Backend`:
SQLite through aiosqlite (:mod:`db.sqlite`, the zero-setup default) or PostgreSQL through asyncpg
(:mod:`db.pg`, selected by a ``postgresql://`` URL). Statements are written once with ``?``
placeholders; a backend runs them in its own dialect. Where the dialects must differ, the store
asks :attr:`Backend.dialect`.

A statement the schema refuses (a trigger, a constraint) raises :class:`Refused` with the reason
normalised across dialects; a database that cannot be reached raises :class:`db.errors.Unavailable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal, Protocol

from db.errors import StoreError

__all__ = ["APPEND_COLUMNS", "ROWS_PER_INSERT", "Backend", "Conn", "Dialect", "Refused", "Row", "insert_appends_sql"]

Dialect = Literal["sqlite", "postgresql"]
Row = tuple[Any, ...]


APPEND_COLUMNS = ("game_id", "seq", "seat", "payload", "created_at", "deadline_kind", "deadline_due",
                  "deadline_version", "deadline2_kind", "deadline2_due", "deadline2_version")
"""A row of the ``action_appends`` view: an action, then up to two timers armed with it (or NULLs)."""

ROWS_PER_INSERT = 500  # multi-row VALUES stays far below either database's bound-parameter limit


def insert_appends_sql(count: int) -> str:
    """Return a multi-row INSERT of ``count`` actions (with their timers) into ``action_appends``."""
    one = "(" + ", ".join("?" * len(APPEND_COLUMNS)) + ")"
    return f"INSERT INTO action_appends ({', '.join(APPEND_COLUMNS)}) VALUES {', '.join([one] * count)}"


class Refused(StoreError):
    """The schema refused a statement: ``reason`` is a trigger's token (``stale_version``,
    ``game_not_playing``, ...), ``unique``, ``foreign_key`` or ``check``; ``detail`` names the
    constraint or columns (as each dialect words it)."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail

    def mentions(self, *names: str) -> bool:
        """Return True when the refusal names one of ``names`` (a constraint, index or column)."""
        return any(name in self.detail for name in names)


class Conn(Protocol):
    """One connection (in a transaction, or autocommit) as the store's statements use it."""

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        """Return every row of ``sql``."""
        ...

    async def execute(self, sql: str, params: Sequence[object] = ()) -> None:
        """Run ``sql``."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        """Run ``sql`` once per row of parameters."""
        ...


class Backend(Protocol):
    """A database the store runs on."""

    dialect: Dialect
    schema_version: int

    def read(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for reads that sees only committed transactions."""
        ...

    def write(self) -> AbstractAsyncContextManager[Conn]:
        """A connection in one transaction: committed on success, rolled back on any error."""
        ...

    def snapshot(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for several reads that see one consistent state of the database."""
        ...

    def single(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for one statement that is its own transaction (the cheapest write)."""
        ...

    async def append(self, rows: Sequence[Row]) -> None:
        """Insert one append's action rows (with their timers) through ``action_appends``, all or
        nothing; raise Refused as the schema does."""
        ...

    async def settings(self) -> dict[str, int | str]:
        """Return the connection's effective settings, for the start-up log and tests."""
        ...

    async def close(self) -> None:
        """Close the connection(s)."""
        ...
