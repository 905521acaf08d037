"""What a table records beside its action log (migration 0007).

- **Seat events**: a timeout (the game's default was played for an absent player), a
  resignation (a person handed the seat to a bot of a level), or a person away (a bot of the
  table's level plays their seat, migration 0011) and back, at the game version they happened.
  A replay of the action log alone gives the game; the seat events say who played which seat
  from when, and what to tell about it.
- **The story cursor**: how much of a game's log has been posted (to its thread, or the channel
  when there is none), so a restart neither posts a batch twice nor drops one.
- **Open messages**: which of the bot's recorded messages still carry controls, so closing them
  (after an expedition, a turn, the end, a cancel, a restart) edits each message once.
- **Running tables** of a server (``/tables``) and of a player on every server (``/games``;
  through the index of seats by user).
(Server settings are :mod:`db.settings`.) :class:`TableRecords` is a part of :class:`db.store.Store`
(it uses the store's backend); its records are defined here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from db.backend import Conn, Refused
from db.codecs import check_int64, column_int, column_opt_int, column_str, decode_object, encode_json, from_ms
from db.errors import CorruptRow, GameNotFound, NoSuchSeat, WrongStatus
from db.plumbing import StoreBase
from db.records import MessageRow

__all__ = ["SEAT_EVENT_KINDS", "SeatEventRow", "StoryRow", "TableRecords"]

SEAT_EVENT_KINDS = ("timeout", "resign", "away", "back")


@dataclass(frozen=True, slots=True)
class SeatEventRow:
    """Something that happened to a seat at game version ``version``: one of :data:`SEAT_EVENT_KINDS`."""

    game_id: int
    version: int
    seat: int
    kind: str
    detail: dict[str, Any]
    created_at: datetime

    COLUMNS = "game_id, version, seat, kind, detail, created_at"

    @classmethod
    def decode(cls, row: tuple[object, ...]) -> SeatEventRow:
        """Return the record of a ``COLUMNS`` row; raise CorruptRow for a malformed one."""
        game_id = column_int(row[0], -1, "seat_events.game_id")
        kind = column_str(row[3], game_id, "seat_events.kind")
        if kind not in SEAT_EVENT_KINDS:
            raise CorruptRow(game_id, f"seat_events.kind: unknown kind {kind!r}")
        return cls(game_id, column_int(row[1], game_id, "seat_events.version"),
                   column_int(row[2], game_id, "seat_events.seat"),
                   kind, decode_object(row[4], game_id, "seat_events.detail"),
                   from_ms(column_int(row[5], game_id, "seat_events.created_at")))


@dataclass(frozen=True, slots=True)
class StoryRow:
    """How far a game's log was posted: actions before ``actions_written``, the first ``notes_written``
    seat events; ``thread_id`` None: the log goes to the channel."""

    game_id: int
    thread_id: int | None
    actions_written: int
    notes_written: int

    COLUMNS = "game_id, thread_id, actions_written, notes_written"

    @classmethod
    def decode(cls, row: tuple[object, ...]) -> StoryRow:
        """Return the record of a ``COLUMNS`` row; raise CorruptRow for a malformed one."""
        game_id = column_int(row[0], -1, "game_story.game_id")
        return cls(game_id, column_opt_int(row[1], game_id, "game_story.thread_id"),
                   column_int(row[2], game_id, "game_story.actions_written"),
                   column_int(row[3], game_id, "game_story.notes_written"))


class TableRecords(StoreBase):
    """Seat events, story cursors and open messages (a part of ``db.store.Store``)."""

    # ------------------------------------------------------------------ seat events

    async def add_seat_event(self, game_id: int, version: int, seat: int, kind: str,
                             detail: dict[str, Any] | None = None) -> bool:
        """Record a seat event at ``version``; return False when that very event was already recorded.

        Only while the game is playing (WrongStatus), for a seat at the table (NoSuchSeat); a
        ``resign`` only for a person's seat, once; ``away`` and ``back`` only for a person's seat (ValueError).
        """
        if kind not in SEAT_EVENT_KINDS:
            raise ValueError(f"kind must be one of {SEAT_EVENT_KINDS}, not {kind!r}")
        check_int64(version, "version")
        check_int64(seat, "seat")
        text = encode_json(detail or {}, "detail")
        try:
            async with self._write() as db:
                rows = await db.fetch(
                    "INSERT INTO seat_events (game_id, version, seat, kind, detail, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, version, seat, kind) DO NOTHING"
                    " RETURNING id",
                    (game_id, version, seat, kind, text, self._now_ms()),
                )
        except Refused as exc:
            # Read why outside the failed transaction (PostgreSQL refuses statements in an aborted one).
            async with self._read() as db:
                raise await self._event_refused(db, game_id, seat, exc) from exc
        return bool(rows)

    async def _event_refused(self, db: Conn, game_id: int, seat: int, exc: Refused) -> Exception:
        found = await db.fetch("SELECT status FROM games WHERE id = ?", (game_id,))
        if not found:
            return GameNotFound(game_id)
        reasons = {
            "game_not_playing": WrongStatus(game_id, str(found[0][0]), ("playing",)),
            "no_such_seat": NoSuchSeat(game_id, seat),
            "not_a_person": ValueError(f"seat {seat} of game {game_id} is a bot: only a person resigns or is away"),
            "already_resigned": ValueError(f"seat {seat} of game {game_id} has already resigned"),
        }
        return reasons.get(exc.reason, exc)

    async def seat_events(self, game_id: int) -> list[SeatEventRow]:
        """Return the game's seat events in the order they happened."""
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {SeatEventRow.COLUMNS} FROM seat_events WHERE game_id = ? ORDER BY version, id",
                (game_id,))
        return [SeatEventRow.decode(tuple(row)) for row in rows]

    # ------------------------------------------------------------------ the story cursor

    async def story(self, game_id: int) -> StoryRow | None:
        """Return how far the game's log was posted (None: nothing posted, no thread tried yet)."""
        async with self._read() as db:
            rows = await db.fetch(f"SELECT {StoryRow.COLUMNS} FROM game_story WHERE game_id = ?", (game_id,))
        return StoryRow.decode(tuple(rows[0])) if rows else None

    async def set_story(self, game_id: int, thread_id: int | None, actions_written: int,
                        notes_written: int) -> None:
        """Record the game's thread (None: the channel) and how far its log was posted."""
        for value, what in ((actions_written, "actions_written"), (notes_written, "notes_written")):
            if check_int64(value, what) < 0:
                raise ValueError(f"{what} must be >= 0, not {value}")
        if thread_id is not None:
            check_int64(thread_id, "thread_id")
        async with self._single() as db:
            try:
                await db.execute(
                    "INSERT INTO game_story (game_id, thread_id, actions_written, notes_written, updated_at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET thread_id = excluded.thread_id,"
                    " actions_written = excluded.actions_written, notes_written = excluded.notes_written,"
                    " updated_at = excluded.updated_at",
                    (game_id, thread_id, actions_written, notes_written, self._now_ms()),
                )
            except Refused as exc:
                raise GameNotFound(game_id) from exc

    # ------------------------------------------------------------------ open messages

    async def close_message(self, game_id: int, kind: str, *, seat: int | None = None) -> bool:
        """Mark a recorded message as closed (its controls were removed); return whether it was open."""
        async with self._single() as db:
            rows = await db.fetch(
                "UPDATE messages SET open = 0, updated_at = ? WHERE game_id = ? AND kind = ?"
                " AND coalesce(seat, -1) = ? AND open = 1 RETURNING game_id",
                (self._now_ms(), game_id, kind, -1 if seat is None else seat),
            )
        return bool(rows)

    async def open_messages_of_ended_games(self, limit: int = 500) -> list[MessageRow]:
        """Return open messages of games that are over (they ended while the bot was down)."""
        return await self._open_messages("NOT IN", limit)

    async def open_messages_of_running_games(self, limit: int = 100_000) -> list[MessageRow]:
        """Return open messages of games in the lobby or playing (one query for every table at start-up)."""
        return await self._open_messages("IN", limit)

    async def _open_messages(self, status_test: str, limit: int) -> list[MessageRow]:
        columns = ", ".join("m." + c for c in MessageRow.COLUMNS.split(", "))
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {columns} FROM messages AS m JOIN games AS g ON g.id = m.game_id"
                f" WHERE m.open = 1 AND g.status {status_test} ('lobby', 'playing') ORDER BY m.game_id LIMIT ?",
                (limit,),
            )
        return [MessageRow.decode(tuple(row)) for row in rows]

    # ------------------------------------------------------------------ a server's tables, a player's tables

    async def active_games_in(self, guild_id: int) -> list[tuple[int, str, int, str]]:
        """Return (game id, game, channel id, status) of a server's tables in the lobby or playing."""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT id, game, channel_id, status FROM games WHERE guild_id = ?"
                " AND status IN ('lobby', 'playing') ORDER BY id", (guild_id,))
        return [(int(r[0]), str(r[1]), int(r[2]), str(r[3])) for r in rows]

    async def active_games_of(self, user_id: int) -> list[int]:
        """Return the ids of the tables in the lobby or playing where the user sits, on every
        server, oldest first (through the index ``seats_by_user``: no other table's seats are read)."""
        check_int64(user_id, "user_id")
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT g.id FROM seats AS s JOIN games AS g ON g.id = s.game_id"
                " WHERE s.user_id = ? AND g.status IN ('lobby', 'playing') ORDER BY g.id", (user_id,))
        return [int(r[0]) for r in rows]
