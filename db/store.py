"""The repository: every SQL statement the bot runs, on SQLite or on PostgreSQL.

``await Store.open(path)`` opens an SQLite file (the zero-setup default); ``await
Store.connect(url)`` opens ``sqlite:///path`` or ``postgresql://user:pass@host/db``. Either way the
database is migrated to the newest schema of its dialect (``db/migrations/<dialect>/``) and the
store offers the same operations with the same guarantees. Storage is event-sourced: a ``games``
row holds what was set up (game, preset, options, seed, seats) and ``actions`` holds every accepted
action in order, so a table's state is ``replay(seed, actions)`` (or a snapshot plus the actions
after it). An action is durable once ``append_actions`` returns; the bot replies only after that.

Invariants (seq == version, append-only log, frozen seats after the start, legal status changes,
one active game per channel) are enforced by the schema itself, in both dialects; the store turns
the schema's refusals into the typed errors of :mod:`db.errors`. Statements are written once with
``?`` placeholders; the backend (:mod:`db.sqlite`, :mod:`db.pg`) runs them. This module opens the
store, sets games up (lobby, seats, start) and reads them back; the action log and a game's end
are :mod:`db.play`, the side rows and other records the other parts of :class:`Store`.

The store never imports ``discord`` or ``engine``: it stores ints and opaque JSON values.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Literal

from db.backend import Backend, Refused
from db.closed_dms import ClosedDmRecords
from db.codecs import check_int64, encode_json
from db.commands import CommandSyncRecords
from db.errors import (
    AlreadySeated,
    ChannelBusy,
    NoSuchSeat,
)
from db.locales import LocaleRecords
from db.play import PlayRecords
from db.player_settings import PlayerSettingRecords
from db.plumbing import Clock, utc_now
from db.records import ActionRow, DeadlineRow, GameLog, GameRow, NewSeat, SeatRow, SnapshotRow, TableLoad, TableTail
from db.seeding import SeedRecords
from db.settings import SettingsRecords
from db.side import SideRows
from db.sqlite import SqliteBackend
from db.table_records import TableRecords
from db.urls import is_postgresql, sqlite_path

__all__ = ["Clock", "Store", "utc_now"]


def _placeholders(count: int) -> str:
    """Return ``?, ?, ...`` with ``count`` markers."""
    return ", ".join("?" * count)


class Store(PlayRecords, SideRows, LocaleRecords, SettingsRecords, TableRecords, CommandSyncRecords, ClosedDmRecords,
            PlayerSettingRecords, SeedRecords):
    """The bot's repository; open with ``await Store.open(path)`` or ``await Store.connect(url)``."""

    def __init__(self, backend: Backend, clock: Clock = utc_now) -> None:
        """Wrap an open, migrated backend; use :meth:`open` or :meth:`connect` instead."""
        super().__init__(backend, clock)
        self.journal_mode: str = getattr(backend, "journal_mode", "")

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Clock = utc_now,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        busy_timeout_ms: int = 5000,
    ) -> Store:
        """Return a store on the SQLite file ``path`` (or ``":memory:"``), migrated to the newest schema.

        Raises SchemaTooNew when the file was written by newer code, MigrationError when a
        migration fails (the file is left untouched), StoreError when WAL cannot be enabled on a
        file. ``synchronous="FULL"`` fsyncs every commit (an acknowledged action survives a power
        cut); ``"NORMAL"`` survives a crash of the bot but not of the machine.
        """
        backend = await SqliteBackend.open(path, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms)
        return cls(backend, clock)

    @classmethod
    async def connect(cls, url: str, *, clock: Clock = utc_now, pool_size: int = 10) -> Store:
        """Return a store on ``sqlite:///path`` (or a plain path) or ``postgresql://...``, migrated.

        Raises db.errors.Unavailable when a PostgreSQL server cannot be reached.
        """
        if is_postgresql(url):
            from db.pg import PgBackend  # asyncpg is imported only when PostgreSQL is used

            return cls(await PgBackend.open(url, pool_size=pool_size), clock)
        return await cls.open(sqlite_path(url), clock=clock)

    async def settings(self) -> dict[str, int | str]:
        """Return the connection's effective settings (SQLite: its pragmas), for the log and tests."""
        return await self._backend.settings()

    async def close(self) -> None:
        """Close the connection(s) (waits for a running operation to finish)."""
        await self._backend.close()

    async def __aenter__(self) -> Store:
        """Return the store itself, for ``async with await Store.open(...) as store``."""
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Close the store."""
        await self.close()

    # ------------------------------------------------------------------ games

    async def create_game(
        self,
        game: str,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        table_options: dict[str, Any] | None = None,
        seats: Sequence[NewSeat] = (),
    ) -> GameRow:
        """Return a new table in the lobby (with ``seats`` already joined, e.g. the host).

        Raises ChannelBusy when the channel already has a game in the lobby or playing, and
        ValueError for an unknown game type or options that are not a JSON object.
        """
        options_json = encode_json(dict(options or {}), "options")
        table_json = encode_json(dict(table_options or {}), "table_options")
        for value, what in ((guild_id, "guild_id"), (channel_id, "channel_id"), (host_id, "host_id")):
            check_int64(value, what)
        try:
            async with self._write() as db:
                rows = await db.fetch(
                    "INSERT INTO games (game, preset, options, table_options, guild_id, channel_id, host_id,"
                    f" created_at) VALUES ({_placeholders(8)}) RETURNING {GameRow.COLUMNS}",
                    (game, preset, options_json, table_json, guild_id, channel_id, host_id, self._now_ms()),
                )
                row = GameRow.decode(rows[0])
                await self._insert_seats(db, row.id, seats)
        except Refused as exc:
            # Outside the failed transaction (PostgreSQL refuses statements in an aborted one).
            if exc.reason == "foreign_key":
                raise ValueError(f"unknown game type {game!r}") from exc
            async with self._read() as db:
                active = await db.fetch(
                    "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,)
                )
            if active:
                raise ChannelBusy(channel_id, int(active[0][0])) from exc
            raise
        return row

    async def get_game(self, game_id: int) -> GameRow:
        """Return the game; raise GameNotFound, or CorruptRow if its stored JSON is malformed."""
        async with self._read() as db:
            return await self._game(db, game_id)

    async def active_game(self, channel_id: int) -> GameRow | None:
        """Return the channel's game in the lobby or playing, if any."""
        async with self._read() as db:
            rows = await self._fetch(
                db,
                f"SELECT {GameRow.COLUMNS} FROM games"
                " WHERE channel_id = ? AND status IN ('lobby', 'playing')",
                (channel_id,),
            )
        return GameRow.decode(rows[0]) if rows else None

    async def unfinished_game_ids(self) -> list[int]:
        """Return the ids of every game in the lobby or playing, oldest first (decodes no JSON)."""
        async with self._read() as db:
            rows = await self._fetch(
                db, "SELECT id FROM games WHERE status IN ('lobby', 'playing') ORDER BY id"
            )
        return [int(row[0]) for row in rows]

    async def unfinished_games(self) -> list[GameRow]:
        """Return every game in the lobby or playing, oldest first.

        One corrupt row raises CorruptRow for the whole call; recovery that must survive a bad
        game should iterate :meth:`unfinished_game_ids` and :meth:`load_game` each.
        """
        async with self._read() as db:
            rows = await self._fetch(
                db,
                f"SELECT {GameRow.COLUMNS} FROM games WHERE status IN ('lobby', 'playing') ORDER BY id",
            )
        return [GameRow.decode(row) for row in rows]

    async def load_game(self, game_id: int) -> GameLog:
        """Return the game, its seats and its whole action log, read consistently."""
        async with self._backend.snapshot() as db:
            game = await self._game(db, game_id)
            seats = await self._seats(db, game_id)
            rows = await db.fetch(f"SELECT {ActionRow.COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return GameLog(game, tuple(seats), tuple(ActionRow.decode(row) for row in rows))

    async def load_table(self, game_id: int) -> TableLoad:
        """Return what a table is rebuilt from, read consistently: the game, its seats, its latest
        snapshot, the actions after it (all of them without one) and its armed timers."""
        async with self._backend.snapshot() as db:
            game = await self._game(db, game_id)
            seats = await self._seats(db, game_id)
            found = await db.fetch(f"SELECT {SnapshotRow.COLUMNS} FROM snapshots WHERE game_id = ?", (game_id,))
            snapshot = SnapshotRow.decode(found[0]) if found else None
            since = snapshot.version if snapshot is not None else 0
            rows = await db.fetch(
                f"SELECT {ActionRow.COLUMNS} FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq", (game_id, since)
            )
            timers = await db.fetch(f"SELECT {DeadlineRow.COLUMNS} FROM deadlines WHERE game_id = ?", (game_id,))
        return TableLoad(game, tuple(seats), snapshot, tuple(ActionRow.decode(r) for r in rows),
                         tuple(DeadlineRow.decode(r) for r in timers))

    async def tail(self, game_id: int, since: int) -> TableTail:
        """Return the game row and seats now and its actions with ``seq >= since``, read consistently."""
        async with self._backend.snapshot() as db:
            game = await self._game(db, game_id)
            seats = await self._seats(db, game_id) if game.status == "lobby" else []
            rows = [] if game.version <= since else await db.fetch(
                f"SELECT {ActionRow.COLUMNS} FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq", (game_id, since)
            )
        return TableTail(game, tuple(seats), tuple(ActionRow.decode(r) for r in rows))

    # ------------------------------------------------------------------ seats

    async def seats(self, game_id: int) -> list[SeatRow]:
        """Return the seats of a game in seat order (join order while in the lobby)."""
        async with self._read() as db:
            return await self._seats(db, game_id)

    async def add_seat(self, game_id: int, seat: NewSeat) -> SeatRow:
        """Return the new last seat of a lobby; raise AlreadySeated, GameNotFound or WrongStatus."""
        async with self._write() as db:
            await self._status(db, game_id, ("lobby",))
            try:
                rows = await self._fetch(
                    db,
                    "INSERT INTO seats (game_id, seat, user_id, ai_level, display_name)"
                    " SELECT CAST(? AS BIGINT), coalesce(max(seat) + 1, 0), CAST(? AS BIGINT), CAST(? AS TEXT),"
                    f" CAST(? AS TEXT) FROM seats WHERE game_id = ? RETURNING {SeatRow.COLUMNS}",
                    (game_id, seat.user_id, seat.ai_level, seat.display_name, game_id),
                )
            except Refused as exc:
                if seat.user_id is not None and exc.mentions("seats.user_id", "seats_one_per_user"):
                    raise AlreadySeated(game_id, seat.user_id) from exc
                raise
            return SeatRow.decode(rows[0])

    async def remove_seat(self, game_id: int, seat: int) -> SeatRow:
        """Remove a lobby seat, move the later seats up one, and return the removed seat."""
        async with self._write() as db:
            await self._status(db, game_id, ("lobby",))
            rows = await self._fetch(
                db,
                f"DELETE FROM seats WHERE game_id = ? AND seat = ? RETURNING {SeatRow.COLUMNS}",
                (game_id, seat),
            )
            if not rows:
                raise NoSuchSeat(game_id, seat)
            later = await self._fetch(
                db, "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, seat)
            )
            # One row at a time, ascending: the primary key is checked per row, not per statement.
            for (number,) in later:
                await db.execute(
                    "UPDATE seats SET seat = seat - 1 WHERE game_id = ? AND seat = ?", (game_id, number)
                )
            return SeatRow.decode(rows[0])

    async def set_seats(self, game_id: int, seats: Sequence[NewSeat]) -> list[SeatRow]:
        """Replace a lobby's seats with ``seats`` (numbered 0..n-1) and return them."""
        async with self._write() as db:
            await self._status(db, game_id, ("lobby",))
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._insert_seats(db, game_id, seats)
            return await self._seats(db, game_id)

    async def start_game(
        self, game_id: int, seats: Sequence[NewSeat], seed: int, *, started_at: datetime | None = None
    ) -> GameRow:
        """Seat the players in their final order, record the seed and mark the game playing.

        ``seed`` must fit a signed 64-bit integer. Raises GameNotFound, WrongStatus (not in the
        lobby), AlreadySeated, or ValueError for no seats.
        """
        if not seats:
            raise ValueError("a game needs at least one seat to start")
        check_int64(seed, "seed")
        async with self._write() as db:
            await self._status(db, game_id, ("lobby",))
            # Seats first: they are frozen once the status leaves 'lobby'.
            await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            await self._insert_seats(db, game_id, seats)
            rows = await self._fetch(
                db,
                f"UPDATE games SET status = 'playing', seed = ?, started_at = ? WHERE id = ?"
                f" RETURNING {GameRow.COLUMNS}",
                (seed, self._ms(started_at), game_id),
            )
            return GameRow.decode(rows[0])
