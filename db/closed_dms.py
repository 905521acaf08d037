"""Users whose direct messages are closed to the bot (issue 17; the table ``closed_dms``).

A DM to such a user answers 403, an invalid request that Discord counts toward its ban of a bot's
address; the bot does not try them again until they interact, and remembers them across a restart
here. :class:`ClosedDmRecords` is a part of :class:`db.store.Store` (it uses the store's backend).
Times are seconds since the epoch on the caller's clock (the session clock), stored as milliseconds.
"""

from __future__ import annotations

from db.codecs import check_int64
from db.plumbing import StoreBase

__all__ = ["ClosedDmRecords"]


class ClosedDmRecords(StoreBase):
    """Closed DMs per user (a part of ``db.store.Store``)."""

    async def closed_dms(self) -> dict[int, float]:
        """Return every user whose DMs were found closed, with when (seconds since the epoch)."""
        async with self._read() as db:
            rows = await db.fetch("SELECT user_id, closed_at FROM closed_dms", ())
        return {int(user): int(at) / 1000 for user, at in rows}

    async def set_dms_closed(self, user_id: int, at: float) -> None:
        """Remember that a DM to the user answered 403 at ``at`` (one autocommit statement)."""
        check_int64(user_id, "user_id")
        async with self._single() as db:
            await db.execute(
                "INSERT INTO closed_dms (user_id, closed_at) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET closed_at = excluded.closed_at",
                (user_id, round(at * 1000)))

    async def clear_dms_closed(self, user_id: int) -> None:
        """Forget it: the user is to be tried again (one autocommit statement)."""
        check_int64(user_id, "user_id")
        async with self._single() as db:
            await db.execute("DELETE FROM closed_dms WHERE user_id = ?", (user_id,))
