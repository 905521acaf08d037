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
``?`` placeholders; the backend (:mod:`db.sqlite`, :mod:`db.pg`) runs them.

The store never imports ``discord`` or ``engine``: it stores ints and opaque JSON values.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Literal, cast

from db.backend import Backend, Conn, Refused
from db.closed_dms import ClosedDmRecords
from db.commands import CommandSyncRecords
from db.errors import (
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    NoSuchSeat,
    StaleVersion,
    WrongStatus,
)
from db.locales import LocaleRecords
from db.plumbing import Clock, utc_now
from db.records import (
    ACTIVE_STATUSES,
    CHANCE_SEAT,
    ActionRow,
    DeadlineRow,
    GameLog,
    GameRow,
    NewResult,
    NewSeat,
    ResultRow,
    SeatRow,
    SnapshotRow,
    TableLoad,
    TableTail,
    check_int64,
    encode_json,
    to_ms,
)
from db.settings import SettingsRecords
from db.side import SideRows
from db.sqlite import SqliteBackend
from db.table_records import TableRecords
from db.urls import is_postgresql, sqlite_path

__all__ = ["Clock", "Store", "utc_now"]


def _placeholders(count: int) -> str:
    """Return ``?, ?, ...`` with ``count`` markers."""
    return ", ".join("?" * count)


class Store(SideRows, LocaleRecords, SettingsRecords, TableRecords, CommandSyncRecords, ClosedDmRecords):
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

    # ------------------------------------------------------------------ the action log

    async def append_action(self, game_id: int, expected_seq: int, seat: int, payload: object) -> int:
        """Append one action at ``expected_seq`` and return the game's new version.

        ``expected_seq`` must equal the game's version (the number of actions so far): a double
        click or a race raises StaleVersion and writes nothing. Raises WrongStatus when the game is
        not playing, NoSuchSeat for a seat that is neither chance (-1) nor at the table.
        """
        return await self.append_actions(game_id, expected_seq, [(seat, payload)])

    async def append_actions(
        self,
        game_id: int,
        expected_seq: int,
        actions: Sequence[tuple[int, object]],
        *,
        deadline: tuple[str, datetime, int] | None = None,
        deadlines: Sequence[tuple[str, datetime, int]] = (),
    ) -> int:
        """Append ``actions`` ((seat, payload) pairs) at ``expected_seq``, ``expected_seq + 1``, ...
        atomically (all or nothing) and return the game's new version.

        Each of ``deadline`` and ``deadlines`` (at most two in all) = (kind, due_at, version) arms or
        re-arms the game's timer ``kind`` as :meth:`set_deadline` would, in the same statement: it is
        written with the actions and only if they are. Errors as :meth:`append_action`; a payload
        that is not JSON data or a deadline the schema would refuse raises ValueError before
        anything is written.
        """
        if not actions:
            raise ValueError("append_actions needs at least one action")
        check_int64(expected_seq, "expected_seq")
        timers = [_timer(*d) for d in ([deadline] if deadline is not None else []) + list(deadlines)]
        if len(timers) > 2 or len({t[0] for t in timers}) != len(timers):
            raise ValueError("an append arms at most two timers, of different kinds")
        timers += [_NO_TIMER] * (2 - len(timers))
        now = self._now_ms()
        rows: list[tuple[object, ...]] = []
        for offset, (seat, payload) in enumerate(actions):
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < CHANCE_SEAT:
                raise ValueError(f"seat must be an int >= {CHANCE_SEAT}, not {seat!r}")
            # The timers ride on the last row, so they are upserted once and after every action passed.
            row_timers = (*timers[0], *timers[1]) if offset == len(actions) - 1 else (*_NO_TIMER, *_NO_TIMER)
            rows.append((game_id, expected_seq + offset, seat, encode_json(payload, "payload"), now, *row_timers))
        try:
            await self._backend.append(rows)
        except Refused as exc:
            async with self._read() as db:
                raise await self._append_refused(db, game_id, expected_seq, rows, exc) from exc
        return expected_seq + len(rows)

    async def _append_refused(
        self, db: Conn, game_id: int, expected_seq: int, rows: Iterable[tuple[object, ...]], exc: Refused
    ) -> Exception:
        """Return the typed error for an append the schema refused."""
        found = await db.fetch("SELECT status, version FROM games WHERE id = ?", (game_id,))
        if not found:
            return GameNotFound(game_id)
        status, version = found[0]
        if exc.reason == "game_not_playing":
            return WrongStatus(game_id, str(status), ("playing",))
        if exc.reason == "stale_version" or exc.mentions("actions_pkey", "actions.game_id, actions.seq"):
            return StaleVersion(game_id, expected_seq, int(version))
        if exc.reason == "no_such_seat":
            seats = {int(r[0]) for r in await db.fetch("SELECT seat FROM seats WHERE game_id = ?", (game_id,))}
            named = [cast(int, row[2]) for row in rows]
            return NoSuchSeat(game_id, next((n for n in named if n != CHANCE_SEAT and n not in seats), -2))
        return exc

    async def actions(self, game_id: int, *, since: int = 0) -> list[ActionRow]:
        """Return the game's actions with ``seq >= since``, in order (an unknown game has none)."""
        async with self._read() as db:
            rows = await self._fetch(
                db,
                f"SELECT {ActionRow.COLUMNS} FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq",
                (game_id, since),
            )
        return [ActionRow.decode(row) for row in rows]

    # ------------------------------------------------------------------ ending a game

    async def finish_game(
        self,
        game_id: int,
        results: Sequence[NewResult],
        finished_at: datetime | None = None,
        *,
        expected_version: int | None = None,
    ) -> GameRow:
        """Mark a playing game finished and write its results in the same transaction.

        ``results`` has exactly one entry per seat; placements start at 1 and a winner is placed
        first. With ``expected_version``, a game that moved on raises StaleVersion. Its deadlines
        are cleared. Raises GameNotFound, WrongStatus, or ValueError for inconsistent results.
        """
        ended = self._ms(finished_at)
        async with self._write() as db:
            _, version = await self._status(db, game_id, ("playing",))
            if expected_version is not None and version != expected_version:
                raise StaleVersion(game_id, expected_version, version)
            seats = [row.seat for row in await self._seats(db, game_id)]
            _check_results(results, seats)
            await db.executemany(
                "INSERT INTO results (game_id, seat, user_id, ai_level, score, placement, is_winner)"
                " SELECT game_id, seat, user_id, ai_level, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT)"
                " FROM seats WHERE game_id = ? AND seat = ?",
                [(r.score, r.placement, int(r.is_winner), game_id, r.seat) for r in results],
            )
            await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            rows = await self._fetch(
                db,
                "UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?"
                f" RETURNING {GameRow.COLUMNS}",
                (ended, game_id),
            )
            return GameRow.decode(rows[0])

    async def cancel_game(
        self,
        game_id: int,
        status: Literal["cancelled", "abandoned"] = "cancelled",
        *,
        at: datetime | None = None,
    ) -> None:
        """End a game in the lobby or playing without results (cancelled by a user, or abandoned
        after an error/timeout), clearing its deadlines. Works on a game whose JSON is corrupt.
        """
        if status not in ("cancelled", "abandoned"):
            raise ValueError(f"status must be 'cancelled' or 'abandoned', not {status!r}")
        ended = self._ms(at)
        async with self._write() as db:
            await self._status(db, game_id, ACTIVE_STATUSES)
            await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            await db.execute(
                "UPDATE games SET status = ?, finished_at = ? WHERE id = ?", (status, ended, game_id)
            )

    async def results(self, game_id: int) -> list[ResultRow]:
        """Return the game's results in seat order (empty unless finished)."""
        async with self._read() as db:
            rows = await self._fetch(
                db, f"SELECT {ResultRow.COLUMNS} FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        return [ResultRow.decode(row) for row in rows]


_Timer = tuple[str | None, int | None, int | None]
_NO_TIMER: _Timer = (None, None, None)


def _timer(kind: str, due_at: datetime, version: int) -> _Timer:
    """Return an append's deadline as the view's columns; raise ValueError where the schema would refuse it."""
    if not isinstance(kind, str) or not 1 <= len(kind) <= 32:
        raise ValueError(f"deadline kind must be 1 to 32 characters, not {kind!r}")
    check_int64(version, "deadline version")
    if version < 0:
        raise ValueError(f"deadline version must be >= 0, not {version}")
    return (kind, to_ms(due_at), version)


def _check_results(results: Sequence[NewResult], seats: Sequence[int]) -> None:
    """Raise ValueError unless ``results`` name every seat once with sane placements."""
    named = sorted(result.seat for result in results)
    if named != sorted(seats):
        raise ValueError(f"results must name each seat once: seats {list(seats)}, results for {named}")
    for result in results:
        check_int64(result.score, "score")
        if not 1 <= result.placement <= len(seats):
            raise ValueError(f"seat {result.seat}: placement {result.placement} outside 1..{len(seats)}")
        if result.is_winner and result.placement != 1:
            raise ValueError(f"seat {result.seat} is a winner but placed {result.placement}")
