"""Each player's own settings, the same on every server (migration 0012).

``notify``: how the bot tells the player that a decision is theirs (``/notify how:``) — ``dm``
(the prompt with its controls by DM), ``mention`` (a new message in the game's channel naming only
them) or ``off`` (nothing beyond the board and the reminder); ``None`` is the default, which
depends on the table's pace and is the bot's business, not the store's. One row per user with a
column per setting, so the next setting is a column. :class:`PlayerSettingRecords` is a part of
:class:`db.store.Store` (it uses the store's backend).
"""

from __future__ import annotations

from db.codecs import check_int64
from db.plumbing import StoreBase

__all__ = ["NOTIFY_CHOICES", "PlayerSettingRecords"]

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
