"""The store's plumbing: its backend, its clock, and the reads every operation shares.

Kept apart from :mod:`db.store` (the operations) so that neither module outgrows a screenful of
concerns; :class:`StoreBase` is not used on its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from db.backend import Backend, Conn
from db.codecs import to_ms
from db.errors import AlreadySeated, GameNotFound, WrongStatus
from db.records import GameRow, GameStatus, NewSeat, SeatRow

__all__ = ["Clock", "StoreBase", "utc_now"]

Clock = Callable[[], "datetime | float"]
"""Returns now: an aware datetime, or seconds since the Unix epoch. Injected so tests pin time."""


def utc_now() -> datetime:
    """Return the current time as an aware UTC datetime (the default clock)."""
    return datetime.now(UTC)


class StoreBase:
    """A backend and a clock, with the reads that several operations need (inside their connection)."""

    def __init__(self, backend: Backend, clock: Clock) -> None:
        self._backend = backend
        self._clock: Clock = clock
        self.schema_version: int = backend.schema_version

    @property
    def backend(self) -> Backend:
        """Return the database under the store, for tools that move whole tables (:mod:`db.transfer`)."""
        return self._backend

    @property
    def dialect(self) -> str:
        """Return ``"sqlite"`` or ``"postgresql"``."""
        return self._backend.dialect

    def _now_ms(self) -> int:
        """Return the injected clock's now in milliseconds since the epoch."""
        now = self._clock()
        if isinstance(now, datetime):
            return to_ms(now)
        return int(now * 1000)

    def _ms(self, moment: datetime | None) -> int:
        """Return ``moment`` (default: now) in milliseconds since the epoch."""
        return self._now_ms() if moment is None else to_ms(moment)

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Conn]:
        """A connection for reads (SQLite: under the store's lock, so no transaction is half-visible)."""
        async with self._backend.read() as db:
            yield db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Conn]:
        """A connection in one transaction: committed on success, rolled back on any error."""
        async with self._backend.write() as db:
            yield db

    @asynccontextmanager
    async def _single(self) -> AsyncIterator[Conn]:
        """A connection for one statement that is atomic on its own (the cheapest write)."""
        async with self._backend.single() as db:
            yield db

    async def _fetch(self, db: Conn, sql: str, params: Sequence[object] = ()) -> list[Any]:
        """Return every row of ``sql`` as a list of tuples."""
        return await db.fetch(sql, params)

    async def _game(self, db: Conn, game_id: int) -> GameRow:
        """Return the game row or raise GameNotFound (inside the caller's connection)."""
        rows = await db.fetch(f"SELECT {GameRow.COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return GameRow.decode(rows[0])

    async def _status(self, db: Conn, game_id: int, allowed: tuple[GameStatus, ...], *,
                      lock: bool = False) -> tuple[GameStatus, int]:
        """Return (status, version) of a game in one of ``allowed``; raise GameNotFound / WrongStatus.

        Reads only plain columns, so a game with corrupt JSON can still be cancelled or abandoned.
        ``lock`` (inside a write transaction): the game row stays locked until it ends, so another
        process ending the same game at the same moment waits and then reads the status this one
        wrote (WrongStatus) instead of racing on the results' key. PostgreSQL locks the row (as its
        appends do); SQLite needs nothing: a write transaction there holds the whole database.
        """
        sql = "SELECT status, version FROM games WHERE id = ?"
        if lock and self.dialect == "postgresql":
            sql += " FOR UPDATE"
        rows = await db.fetch(sql, (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        status, version = rows[0]
        if status not in allowed:
            raise WrongStatus(game_id, str(status), allowed)
        return status, int(version)

    async def _seats(self, db: Conn, game_id: int) -> list[SeatRow]:
        """Return the seats of a game in seat order (inside the caller's connection)."""
        rows = await db.fetch(f"SELECT {SeatRow.COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow.decode(row) for row in rows]

    async def _insert_seats(self, db: Conn, game_id: int, seats: Sequence[NewSeat]) -> None:
        """Insert ``seats`` as seats 0..n-1; raise AlreadySeated when a user appears twice."""
        users = [seat.user_id for seat in seats if seat.user_id is not None]
        if len(users) != len(set(users)):
            duplicate = next(user for user in users if users.count(user) > 1)
            raise AlreadySeated(game_id, duplicate)
        if seats:
            await db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name) VALUES (?, ?, ?, ?, ?)",
                [(game_id, n, s.user_id, s.ai_level, s.display_name) for n, s in enumerate(seats)],
            )

