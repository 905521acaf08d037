"""The repository: every SQL statement the bot runs against its SQLite database.

One :class:`Store` owns one aiosqlite connection (WAL journal, foreign keys on, a busy timeout)
and migrates the database when it opens. Storage is event-sourced: a ``games`` row holds what was
set up (game, preset, options, seed, seats) and ``actions`` holds every accepted action in order,
so a table's state is ``replay(seed, actions)``. An action is durable once ``append_action``
returns; the bot replies only after that.

Concurrency: aiosqlite runs statements one at a time on its own thread, but a transaction spans
several awaits, so every method holds one ``asyncio.Lock`` for its whole duration; other coroutines
never see a half-written transaction. Each statement is a round trip to that thread, which under
load waits for a full event-loop iteration, so the hot paths are single statements in autocommit
mode (a statement is its own transaction): an append and the decision timer it re-arms are one
INSERT into the ``action_appends`` view (``migrations/0003_append_with_deadline.sql``), and
``set_message`` / ``set_deadline`` are one upsert each. Appends use group commit: one writer task
takes every append queued while the store was busy and writes them with one multi-row INSERT per
500 rows (one round trip, one fsync), each caller, waiting on its own request rather than on the
lock, still getting its own result or typed error (if any of them is refused, SQLite undoes the
statement and each is written alone). An append cancelled while still queued is dropped; if a
caller is cancelled after its write was handed to SQLite the outcome is unknown: reload the game
before trusting memory.

Invariants (seq == version, append-only log, frozen seats after the start, legal status changes,
one active game per channel) are enforced by the schema itself (see ``migrations/0001_initial.sql``);
the store turns the schema's refusals into the typed errors of :mod:`db.errors`.

The store never imports ``discord`` or ``engine``: it stores ints and opaque JSON values.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Literal

import aiosqlite

from db.errors import (
    AlreadySeated,
    ChannelBusy,
    GameNotFound,
    NoSuchSeat,
    StaleVersion,
    StoreError,
    WrongStatus,
)
from db.locales import LocaleRecords
from db.migrate import apply_migrations, rollback_quietly
from db.records import (
    ACTIVE_STATUSES,
    CHANCE_SEAT,
    ActionRow,
    DeadlineRow,
    GameLog,
    GameRow,
    GameStatus,
    MessageRow,
    NewResult,
    NewSeat,
    ResultRow,
    SeatRow,
    check_int64,
    encode_json,
    to_ms,
)

__all__ = ["Clock", "Store", "utc_now"]

Clock = Callable[[], "datetime | float"]
"""Returns now: an aware datetime, or seconds since the Unix epoch. Injected so tests pin time."""

MIN_SQLITE = (3, 37, 0)  # STRICT tables
_ROWS_PER_INSERT = 500  # multi-row VALUES stays far below SQLite's bound-parameter limit


def utc_now() -> datetime:
    """Return the current time as an aware UTC datetime (the default clock)."""
    return datetime.now(UTC)


def _placeholders(count: int) -> str:
    """Return ``?, ?, ...`` with ``count`` markers."""
    return ", ".join("?" * count)


class Store(LocaleRecords):
    """The bot's repository over one SQLite database; open with ``await Store.open(path)``."""

    def __init__(
        self, db: aiosqlite.Connection, clock: Clock, journal_mode: str, schema_version: int
    ) -> None:
        """Wrap an open, migrated connection; use :meth:`open` instead."""
        self._db: aiosqlite.Connection = db
        self._clock: Clock = clock
        self._lock: asyncio.Lock = asyncio.Lock()
        self._pending: list[_Append] = []
        self._writer: asyncio.Future[None] | None = None  # the task writing queued appends, if any
        self.journal_mode: str = journal_mode
        self.schema_version: int = schema_version

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
        """Return a store on ``path`` (a file, or ``":memory:"``), migrated to the newest schema.

        Raises SchemaTooNew when the file was written by newer code, MigrationError when a
        migration fails (the file is left untouched), StoreError when WAL cannot be enabled on a
        file. ``synchronous="FULL"`` fsyncs every commit (an acknowledged action survives a power
        cut); ``"NORMAL"`` survives a crash of the bot but not of the machine.
        """
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
        return cls(db, clock, journal_mode, version)

    async def settings(self) -> dict[str, int | str]:
        """Return the connection's effective pragmas (journal_mode, foreign_keys, busy_timeout,
        synchronous, user_version), for the start-up log and tests."""
        names = ("journal_mode", "foreign_keys", "busy_timeout", "synchronous", "user_version")
        found: dict[str, int | str] = {}
        async with self._read() as db:
            for name in names:
                rows = await self._fetch(db, f"PRAGMA {name}")
                found[name] = rows[0][0]
        return found

    async def close(self) -> None:
        """Close the connection (waits for a running operation to finish)."""
        async with self._lock:
            await self._db.close()

    async def __aenter__(self) -> Store:
        """Return the store itself, for ``async with await Store.open(...) as store``."""
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Close the store."""
        await self.close()

    # ------------------------------------------------------------------ plumbing

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
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock for a read, so no other coroutine's transaction is half-visible."""
        async with self._lock:
            yield self._db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock and one IMMEDIATE transaction: committed on success, rolled back on any error."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                # Inside the try: a COMMIT that fails (disk full, busy) must not leave the
                # transaction open for the next caller.
                await self._db.execute("COMMIT")
            except BaseException:
                await rollback_quietly(self._db)
                raise

    async def _fetch(self, db: aiosqlite.Connection, sql: str, params: Sequence[object] = ()) -> list[Any]:
        """Return every row of ``sql`` as a list of tuples (one round trip to the SQLite thread)."""
        return list(await db.execute_fetchall(sql, params))

    async def _game(self, db: aiosqlite.Connection, game_id: int) -> GameRow:
        """Return the game row or raise GameNotFound (inside the caller's lock)."""
        rows = await self._fetch(db, f"SELECT {GameRow.COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return GameRow.decode(rows[0])

    async def _status(
        self, db: aiosqlite.Connection, game_id: int, allowed: tuple[GameStatus, ...]
    ) -> tuple[GameStatus, int]:
        """Return (status, version) of a game in one of ``allowed``; raise GameNotFound / WrongStatus.

        Reads only plain columns, so a game with corrupt JSON can still be cancelled or abandoned.
        """
        rows = await self._fetch(db, "SELECT status, version FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        status, version = rows[0]
        if status not in allowed:
            raise WrongStatus(game_id, str(status), allowed)
        return status, int(version)

    async def _seats(self, db: aiosqlite.Connection, game_id: int) -> list[SeatRow]:
        """Return the seats of a game in seat order (inside the caller's lock)."""
        rows = await self._fetch(
            db, f"SELECT {SeatRow.COLUMNS} FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [SeatRow.decode(row) for row in rows]

    async def _insert_seats(self, db: aiosqlite.Connection, game_id: int, seats: Sequence[NewSeat]) -> None:
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
        async with self._write() as db:
            try:
                rows = await self._fetch(
                    db,
                    "INSERT INTO games (game, preset, options, table_options, guild_id, channel_id, host_id,"
                    f" created_at) VALUES ({_placeholders(8)}) RETURNING {GameRow.COLUMNS}",
                    (game, preset, options_json, table_json, guild_id, channel_id, host_id, self._now_ms()),
                )
            except sqlite3.IntegrityError as exc:
                if "FOREIGN KEY" in str(exc):
                    raise ValueError(f"unknown game type {game!r}") from exc
                active = await self._fetch(
                    db,
                    "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'playing')",
                    (channel_id,),
                )
                if active:
                    raise ChannelBusy(channel_id, int(active[0][0])) from exc
                raise
            row = GameRow.decode(rows[0])
            await self._insert_seats(db, row.id, seats)
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
        async with self._read() as db:
            game = await self._game(db, game_id)
            seats = await self._seats(db, game_id)
            rows = await self._fetch(
                db, f"SELECT {ActionRow.COLUMNS} FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        return GameLog(game, tuple(seats), tuple(ActionRow.decode(row) for row in rows))

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
                    " SELECT ?, coalesce(max(seat) + 1, 0), ?, ?, ? FROM seats WHERE game_id = ?"
                    f" RETURNING {SeatRow.COLUMNS}",
                    (game_id, seat.user_id, seat.ai_level, seat.display_name, game_id),
                )
            except sqlite3.IntegrityError as exc:
                if seat.user_id is not None and "seats.user_id" in str(exc):
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
    ) -> int:
        """Append ``actions`` ((seat, payload) pairs) at ``expected_seq``, ``expected_seq + 1``, ...
        atomically (all or nothing) and return the game's new version.

        With ``deadline`` = (kind, due_at, version), the game's timer ``kind`` is armed or re-armed
        as :meth:`set_deadline` would, in the same statement: it is written with the actions and
        only if they are. Errors as :meth:`append_action`; a payload that is not JSON data or a
        deadline the schema would refuse raises ValueError before anything is written.
        """
        if not actions:
            raise ValueError("append_actions needs at least one action")
        check_int64(expected_seq, "expected_seq")
        timer = _NO_TIMER if deadline is None else _timer(*deadline)
        now = self._now_ms()
        rows: list[_Row] = []
        for offset, (seat, payload) in enumerate(actions):
            if isinstance(seat, bool) or not isinstance(seat, int) or seat < CHANCE_SEAT:
                raise ValueError(f"seat must be an int >= {CHANCE_SEAT}, not {seat!r}")
            # The timer rides on the last row, so it is upserted once and after every action passed.
            row_timer = timer if offset == len(actions) - 1 else _NO_TIMER
            rows.append((game_id, expected_seq + offset, seat, encode_json(payload, "payload"), now, *row_timer))
        request = _Append(game_id, expected_seq, rows, asyncio.get_running_loop().create_future())
        # Group commit: queue the request; one writer task takes everything queued at each turn of
        # the lock and writes it in one statement (one round trip, one fsync for many tables under
        # load). Callers wait on their own request, not on the lock: handing a lock from waiter to
        # waiter costs an event-loop turn each, which under load was most of an append's latency.
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
        return expected_seq + len(rows)

    async def _write_appends(self) -> None:
        """Write queued appends until none is left, each turn taking everything queued so far."""
        while self._pending:
            batch: list[_Append] = []
            try:
                async with self._lock:
                    batch, self._pending = self._pending, []
                    await self._flush_appends(batch)
            except BaseException as exc:
                # Only a stop (cancellation at shutdown) gets here: no caller may wait forever. A
                # statement already handed to SQLite may still commit: its callers' outcome is unknown.
                error = exc if isinstance(exc, Exception) else StoreError("the store stopped before the write")
                for request in [*batch, *self._pending]:
                    if not request.settled:
                        request.settle(error)
                self._pending = []
                raise

    async def _flush_appends(self, batch: list[_Append]) -> None:
        """Write queued appends (inside the lock): all together if they all fit and pass, else one
        by one so each gets its own outcome; settle every request."""
        if len(batch) > 1 and sum(len(r.rows) for r in batch) > _ROWS_PER_INSERT:
            # A big queue (hundreds of tables at once) is written in statements that fit, not one
            # request at a time: under load this is where group commit earns its keep.
            chunk: list[_Append] = []
            size = 0
            for request in batch:
                if chunk and size + len(request.rows) > _ROWS_PER_INSERT:
                    await self._flush_appends(chunk)
                    chunk, size = [], 0
                chunk.append(request)
                size += len(request.rows)
            await self._flush_appends(chunk)
            return
        rows = [row for request in batch for row in request.rows]
        if len(batch) > 1:
            try:
                # One statement, so atomic without BEGIN/COMMIT: the batch costs one round trip.
                await self._insert_rows(rows)
            except sqlite3.IntegrityError:
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
                await self._append_one(request)
            except Exception as exc:
                request.settle(exc)
            else:
                request.settle(None)

    async def _append_one(self, request: _Append) -> None:
        """Write one append request atomically (inside the lock); raise its typed error."""
        db = self._db
        rows = request.rows
        try:
            # The schema's triggers check status, seq == version and the seat, and bump the
            # version. One multi-row INSERT is one statement, hence atomic even in autocommit
            # mode: the common case costs a single round trip and a single commit.
            if len(rows) <= _ROWS_PER_INSERT:
                await self._insert_rows(rows)
            else:
                await db.execute("BEGIN IMMEDIATE")
                try:
                    for start in range(0, len(rows), _ROWS_PER_INSERT):
                        await self._insert_rows(rows[start : start + _ROWS_PER_INSERT])
                    await db.execute("COMMIT")
                except BaseException:
                    await rollback_quietly(db)
                    raise
        except sqlite3.IntegrityError as exc:
            raise await self._append_refused(db, request.game_id, request.expected_seq, rows, exc) from exc

    async def _insert_rows(self, rows: Sequence[_Row]) -> None:
        """Insert ``rows`` (at most ``_ROWS_PER_INSERT``) through ``action_appends`` in one statement."""
        await self._db.execute(_insert_actions_sql(len(rows)), [v for row in rows for v in row])

    async def _append_refused(
        self,
        db: aiosqlite.Connection,
        game_id: int,
        expected_seq: int,
        rows: Iterable[_Row],
        exc: sqlite3.IntegrityError,
    ) -> Exception:
        """Return the typed error for an append the schema refused (inside the caller's lock)."""
        message = str(exc)
        found = await self._fetch(db, "SELECT status, version FROM games WHERE id = ?", (game_id,))
        if not found:
            return GameNotFound(game_id)
        status, version = found[0]
        if "game_not_playing" in message:
            return WrongStatus(game_id, str(status), ("playing",))
        if "stale_version" in message:
            return StaleVersion(game_id, expected_seq, int(version))
        if "no_such_seat" in message:
            seats = {int(r[0]) for r in await self._fetch(db, "SELECT seat FROM seats WHERE game_id = ?",
                                                          (game_id,))}
            bad = next((row[2] for row in rows if row[2] != CHANCE_SEAT and row[2] not in seats), -2)
            return NoSuchSeat(game_id, bad)
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
                " SELECT game_id, seat, user_id, ai_level, ?, ?, ? FROM seats WHERE game_id = ? AND seat = ?",
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

    # ------------------------------------------------------------------ the bot's messages

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, *, seat: int | None = None
    ) -> MessageRow:
        """Record (or replace) the message of ``kind`` for the game, or for one seat's DM."""
        # One statement in autocommit mode (atomic on its own): one round trip to the database
        # thread instead of BEGIN / upsert / COMMIT. The error path may take more.
        async with self._lock:
            db = self._db
            try:
                rows = await self._fetch(
                    db,
                    "INSERT INTO messages (game_id, kind, seat, channel_id, message_id, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, kind, ifnull(seat, -1)) DO UPDATE"
                    " SET channel_id = excluded.channel_id, message_id = excluded.message_id,"
                    f" updated_at = excluded.updated_at RETURNING {MessageRow.COLUMNS}",
                    (game_id, kind, seat, channel_id, message_id, self._now_ms()),
                )
            except sqlite3.IntegrityError as exc:
                await self._status(db, game_id, ("lobby", "playing", "finished", "cancelled", "abandoned"))
                raise ValueError(f"bad message record: {exc}") from exc
            return MessageRow.decode(rows[0])

    async def messages(self, game_id: int) -> list[MessageRow]:
        """Return the messages recorded for the game, by kind then seat (channel ones first)."""
        async with self._read() as db:
            rows = await self._fetch(
                db,
                f"SELECT {MessageRow.COLUMNS} FROM messages WHERE game_id = ?"
                " ORDER BY kind, ifnull(seat, -1)",
                (game_id,),
            )
        return [MessageRow.decode(row) for row in rows]

    async def delete_message(self, game_id: int, kind: str, *, seat: int | None = None) -> bool:
        """Forget a recorded message; return whether there was one."""
        async with self._write() as db:
            rows = await self._fetch(
                db,
                "DELETE FROM messages WHERE game_id = ? AND kind = ? AND seat IS ? RETURNING game_id",
                (game_id, kind, seat),
            )
        return bool(rows)

    # ------------------------------------------------------------------ deadlines

    async def set_deadline(
        self, game_id: int, kind: str, due_at: datetime, *, version: int | None = None
    ) -> DeadlineRow:
        """Arm (or re-arm) the game's timer ``kind`` for ``due_at``, valid at game ``version``.

        Only for games in the lobby or playing (ending a game clears its deadlines). A timer armed
        together with actions is cheaper through ``append_actions(..., deadline=...)``.
        """
        due = to_ms(due_at)
        # One statement (atomic in autocommit mode): the timer is re-armed on every decision
        # window, so it costs one round trip to the database thread, not four.
        async with self._lock:
            rows = await self._fetch(
                self._db,
                "INSERT INTO deadlines (game_id, kind, due_at, version)"
                " SELECT id, ?, ?, ? FROM games WHERE id = ? AND status IN ('lobby', 'playing')"
                " ON CONFLICT (game_id, kind) DO UPDATE"
                " SET due_at = excluded.due_at, version = excluded.version"
                f" RETURNING {DeadlineRow.COLUMNS}",
                (kind, due, version, game_id),
            )
            if not rows:
                await self._status(self._db, game_id, ACTIVE_STATUSES)  # raises the precise error
                raise StoreError(f"deadline of game {game_id} was not written")
            return DeadlineRow.decode(rows[0])

    async def clear_deadline(self, game_id: int, kind: str) -> bool:
        """Disarm the game's timer ``kind``; return whether it was armed."""
        async with self._write() as db:
            rows = await self._fetch(
                db, "DELETE FROM deadlines WHERE game_id = ? AND kind = ? RETURNING game_id", (game_id, kind)
            )
        return bool(rows)

    async def deadline(self, game_id: int, kind: str) -> DeadlineRow | None:
        """Return the game's timer ``kind``, if armed."""
        async with self._read() as db:
            rows = await self._fetch(
                db,
                f"SELECT {DeadlineRow.COLUMNS} FROM deadlines WHERE game_id = ? AND kind = ?",
                (game_id, kind),
            )
        return DeadlineRow.decode(rows[0]) if rows else None

    async def deadlines(self, game_id: int | None = None) -> list[DeadlineRow]:
        """Return the armed timers of one game, or of every game when ``game_id`` is None, soonest first."""
        where, params = ("WHERE game_id = ?", (game_id,)) if game_id is not None else ("", ())
        async with self._read() as db:
            rows = await self._fetch(
                db,
                f"SELECT {DeadlineRow.COLUMNS} FROM deadlines {where} ORDER BY due_at, game_id, kind",
                params,
            )
        return [DeadlineRow.decode(row) for row in rows]


_Timer = tuple[str | None, int | None, int | None]
_Row = tuple[int, int, int, str, int, str | None, int | None, int | None]
"""A row of ``action_appends``: game_id, seq, seat, payload, created_at, then the timer (or NULLs)."""

_NO_TIMER: _Timer = (None, None, None)


def _timer(kind: str, due_at: datetime, version: int) -> _Timer:
    """Return an append's deadline as the view's columns; raise ValueError where the schema would refuse it."""
    if not isinstance(kind, str) or not 1 <= len(kind) <= 32:
        raise ValueError(f"deadline kind must be 1 to 32 characters, not {kind!r}")
    check_int64(version, "deadline version")
    if version < 0:
        raise ValueError(f"deadline version must be >= 0, not {version}")
    return (kind, to_ms(due_at), version)


class _Append:
    """One queued append_actions call: its rows, and once written, its outcome."""

    __slots__ = ("error", "expected_seq", "game_id", "rows", "settled", "written")

    def __init__(self, game_id: int, expected_seq: int, rows: list[_Row], written: asyncio.Future[None]) -> None:
        self.game_id = game_id
        self.expected_seq = expected_seq
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


def _insert_actions_sql(count: int) -> str:
    """Return a multi-row INSERT of ``count`` actions (with their timers) into ``action_appends``."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * count)
    return (
        "INSERT INTO action_appends (game_id, seq, seat, payload, created_at,"
        f" deadline_kind, deadline_due, deadline_version) VALUES {values}"
    )


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
