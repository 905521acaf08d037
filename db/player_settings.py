"""Each player's own settings: the same on every server (migration 0012), and per server (0013).

``notify``: how the bot tells the player that a decision is theirs (``/notify how:``) — ``dm``
(the prompt with its controls by DM), ``mention`` (a new message in the game's channel naming only
them) or ``off`` (nothing beyond the board and the reminder); ``None`` is the default, which
depends on the table's pace and is the bot's business, not the store's. One row per user with a
column per setting, so the next setting is a column. :class:`PlayerSettingRecords` is a part of
:class:`db.store.Store` (it uses the store's backend).

``new_tables`` (``/notify new_tables:``): whether the player is told when a table opens on one
server. Per server, so a row per (server, user) in ``new_table_watchers``: a row is "on".
"""

from __future__ import annotations

from db.codecs import check_int64
from db.plumbing import StoreBase

__all__ = ["NOTIFY_CHOICES", "PlayerSettingRecords"]

WATCHERS_MAX = 1000
"""At most this many watchers of a server are read at once (a message names far fewer)."""

NOTIFY_CHOICES = ("dm", "mention", "off")
"""What ``notify`` may hold (the schema checks it too)."""


class PlayerSettingRecords(StoreBase):
    """Players' own settings (a part of ``db.store.Store``)."""

    async def notify_choice(self, user_id: int) -> str | None:
        """Return how the user chose to be told of their decisions (None: never chosen)."""
        check_int64(user_id, "user_id")
        async with self._read() as db:
            rows = await db.fetch("SELECT notify FROM player_settings WHERE user_id = ?", (user_id,))
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    async def set_notify_choice(self, user_id: int, how: str | None) -> None:
        """Keep how the user is told of their decisions (None: back to the default; one autocommit
        statement). Raises ValueError for anything but one of :data:`NOTIFY_CHOICES`."""
        check_int64(user_id, "user_id")
        if how is not None and how not in NOTIFY_CHOICES:
            raise ValueError(f"notify must be one of {NOTIFY_CHOICES}, not {how!r}")
        async with self._single() as db:
            await db.execute(
                "INSERT INTO player_settings (user_id, notify, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify, updated_at = excluded.updated_at",
                (user_id, how, self._now_ms()))

    async def watches_new_tables(self, guild_id: int, user_id: int) -> bool:
        """Return True when the user asked to be told of new tables on the server."""
        check_int64(guild_id, "guild_id")
        check_int64(user_id, "user_id")
        async with self._read() as db:
            rows = await db.fetch("SELECT 1 FROM new_table_watchers WHERE guild_id = ? AND user_id = ?",
                                  (guild_id, user_id))
        return bool(rows)

    async def set_watches_new_tables(self, guild_id: int, user_id: int, on: bool) -> None:
        """Keep (or drop) the user's wish to be told of new tables on the server. Asking again keeps
        the first time they asked: their place among the longest-waiting."""
        check_int64(guild_id, "guild_id")
        check_int64(user_id, "user_id")
        async with self._single() as db:
            if on:
                await db.execute(
                    "INSERT INTO new_table_watchers (guild_id, user_id, since) VALUES (?, ?, ?)"
                    " ON CONFLICT (guild_id, user_id) DO NOTHING", (guild_id, user_id, self._now_ms()))
            else:
                await db.execute("DELETE FROM new_table_watchers WHERE guild_id = ? AND user_id = ?",
                                 (guild_id, user_id))

    async def new_table_watchers(self, guild_id: int, limit: int = WATCHERS_MAX) -> list[int]:
        """Return who asked to be told of new tables on the server, the longest-waiting first."""
        check_int64(guild_id, "guild_id")
        async with self._read() as db:
            rows = await db.fetch("SELECT user_id FROM new_table_watchers WHERE guild_id = ?"
                                  " ORDER BY since, user_id LIMIT ?", (guild_id, limit))
        return [int(row[0]) for row in rows]
