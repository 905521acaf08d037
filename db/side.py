"""The store's side rows of a table: the bot's messages, the armed timers and state snapshots.

None of these is the game itself (that is the action log); each lets the bot pick a table up
again after a restart, or in another process: where its messages are, when its timers fire, and
a recent state so that loading replays only a short tail.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from db.backend import Refused
from db.codecs import check_int64, to_ms
from db.errors import StoreError
from db.plumbing import StoreBase
from db.records import ACTIVE_STATUSES, STATUSES, DeadlineRow, MessageRow, SnapshotRow

__all__ = ["SideRows"]


class SideRows(StoreBase):
    """Messages, deadlines and snapshots (the operations on the game itself are in :class:`db.Store`)."""

    def _seat_key(self) -> str:
        # The expression of the messages_slot index, as each dialect spells it (ON CONFLICT names it).
        return "ifnull(seat, -1)" if self.dialect == "sqlite" else "coalesce(seat, -1)"

    # ------------------------------------------------------------------ the bot's messages

    async def set_message(
        self, game_id: int, kind: str, channel_id: int, message_id: int, *, seat: int | None = None,
        open: bool = False,
    ) -> MessageRow:
        """Record (or replace) the message of ``kind`` for the game, or for one seat's DM; ``open``: it
        carries controls that act on the game (see ``close_message``)."""
        # One statement in autocommit mode (atomic on its own): one round trip instead of
        # BEGIN / upsert / COMMIT. The error path may take more.
        async with self._single() as db:
            try:
                rows = await db.fetch(
                    "INSERT INTO messages (game_id, kind, seat, channel_id, message_id, updated_at, open)"
                    f" VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, kind, {self._seat_key()}) DO UPDATE"
                    " SET channel_id = excluded.channel_id, message_id = excluded.message_id,"
                    f" updated_at = excluded.updated_at, open = excluded.open RETURNING {MessageRow.COLUMNS}",
                    (game_id, kind, seat, channel_id, message_id, self._now_ms(), int(open)),
                )
            except Refused as exc:
                await self._status(db, game_id, STATUSES)
                raise ValueError(f"bad message record: {exc}") from exc
            return MessageRow.decode(rows[0])

    async def messages(self, game_id: int) -> list[MessageRow]:
        """Return the messages recorded for the game, by kind then seat (channel ones first)."""
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {MessageRow.COLUMNS} FROM messages WHERE game_id = ? ORDER BY kind, coalesce(seat, -1)",
                (game_id,),
            )
        return [MessageRow.decode(row) for row in rows]

    async def delete_message(self, game_id: int, kind: str, *, seat: int | None = None) -> bool:
        """Forget a recorded message; return whether there was one."""
        async with self._single() as db:
            rows = await db.fetch(
                "DELETE FROM messages WHERE game_id = ? AND kind = ? AND coalesce(seat, -1) = ? RETURNING game_id",
                (game_id, kind, -1 if seat is None else seat),
            )
        return bool(rows)

    # ------------------------------------------------------------------ deadlines

    async def set_deadline(
        self, game_id: int, kind: str, due_at: datetime, *, version: int | None = None
    ) -> DeadlineRow:
        """Arm (or re-arm) the game's timer ``kind`` for ``due_at``, valid at game ``version``.

        Only for games in the lobby or playing (ending a game clears its deadlines). A timer armed
        together with actions is cheaper through ``append_actions(..., deadlines=...)``.
        """
        due = to_ms(due_at)
        # One statement (atomic in autocommit mode): one round trip, not four.
        async with self._single() as db:
            rows = await db.fetch(
                "INSERT INTO deadlines (game_id, kind, due_at, version)"
                " SELECT id, CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT) FROM games"
                " WHERE id = ? AND status IN ('lobby', 'playing')"
                " ON CONFLICT (game_id, kind) DO UPDATE"
                " SET due_at = excluded.due_at, version = excluded.version"
                f" RETURNING {DeadlineRow.COLUMNS}",
                (kind, due, version, game_id),
            )
            if not rows:
                await self._status(db, game_id, ACTIVE_STATUSES)  # raises the precise error
                raise StoreError(f"deadline of game {game_id} was not written")
            return DeadlineRow.decode(rows[0])

    async def clear_deadline(self, game_id: int, kind: str) -> bool:
        """Disarm the game's timer ``kind``; return whether it was armed."""
        async with self._single() as db:
            rows = await db.fetch(
                "DELETE FROM deadlines WHERE game_id = ? AND kind = ? RETURNING game_id", (game_id, kind)
            )
        return bool(rows)

    async def deadline(self, game_id: int, kind: str) -> DeadlineRow | None:
        """Return the game's timer ``kind``, if armed."""
        async with self._read() as db:
            rows = await db.fetch(
                f"SELECT {DeadlineRow.COLUMNS} FROM deadlines WHERE game_id = ? AND kind = ?", (game_id, kind)
            )
        return DeadlineRow.decode(rows[0]) if rows else None

    async def deadlines(self, game_id: int | None = None) -> list[DeadlineRow]:
        """Return the armed timers of one game, or of every game when ``game_id`` is None, soonest first."""
        return await self.armed(game_ids=None if game_id is None else [game_id])

    async def armed(self, *, buckets: Sequence[int] | None = None, bucket_count: int = 1,
                    game_ids: Sequence[int] | None = None) -> list[DeadlineRow]:
        """Return armed timers, soonest first, in one query: all of them, those of games with
        ``id % bucket_count`` in ``buckets``, or those of ``game_ids``; each with its game's table
        options and name (a restart arms a decision's reminders from its decision time, and its
        other derived timers by what the game is, without loading it)."""
        where: list[str] = []
        params: list[object] = []
        if buckets is not None:
            if not buckets:
                return []
            where.append(f"d.game_id % ? IN ({', '.join('?' * len(buckets))})")
            params += [check_int64(bucket_count, "bucket_count"), *buckets]
        if game_ids is not None:
            if not game_ids:
                return []
            where.append(f"d.game_id IN ({', '.join('?' * len(game_ids))})")
            params += list(game_ids)
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        async with self._read() as db:
            rows = await db.fetch(
                "SELECT d.game_id, d.kind, d.due_at, d.version, g.table_options, g.game"
                f" FROM deadlines d JOIN games g ON g.id = d.game_id {clause}"
                " ORDER BY d.due_at, d.game_id, d.kind", params
            )
        # A restart reads every table's timer: most tables share a few options texts, decoded once
        # each, and the loop is let go now and then (100,000 rows take a while; clicks come first).
        decoded: dict[object, dict[str, Any]] = {}
        out = []
        for number, row in enumerate(rows):
            out.append(DeadlineRow.decode(row, decoded))
            if number % 2000 == 1999:
                await asyncio.sleep(0)
        return out

    # ------------------------------------------------------------------ snapshots

    async def save_snapshot(self, game_id: int, version: int, opened: int, state: str) -> bool:
        """Keep ``state`` (after ``version`` actions, window ``opened``) as the game's snapshot unless a
        newer one is stored; return whether it was kept. The caller vouches that it matches the log."""
        if not 0 <= opened <= version:
            raise ValueError(f"snapshot window {opened} outside 0..{version}")
        async with self._single() as db:
            rows = await db.fetch(
                "INSERT INTO snapshots (game_id, version, opened, state, saved_at)"
                " SELECT id, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS BIGINT) FROM games"
                " WHERE id = ? AND version >= ?"
                " ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, opened = excluded.opened,"
                " state = excluded.state, saved_at = excluded.saved_at WHERE excluded.version > snapshots.version"
                " RETURNING game_id",
                (version, opened, state, self._now_ms(), game_id, version),
            )
        return bool(rows)

    async def snapshot(self, game_id: int) -> SnapshotRow | None:
        """Return the game's latest snapshot, if any."""
        async with self._read() as db:
            rows = await db.fetch(f"SELECT {SnapshotRow.COLUMNS} FROM snapshots WHERE game_id = ?", (game_id,))
        return SnapshotRow.decode(rows[0]) if rows else None
