"""Users whose direct messages are closed to the bot: not tried again until they interact.

A DM to such a user answers 403 (Discord code 50007), and Discord bans a bot's address for a while
after 10,000 answers of 401, 403 or 429 within 10 minutes; a bot that kept trying would spend that
allowance on every reminder. So a 403 puts the user on this list; nothing is sent to them by DM
until they click or run a command (they may have opened their DMs meanwhile), and then at most once
every :data:`DM_RETRY_AFTER_S`. The list is kept in the store (``db.closed_dms``): a restart, or
another process on the same token that starts later, does not pay a 403 per such user to learn it
again. Writes go to the store in the background: a lost write costs at most one 403 later.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

__all__ = ["DM_RETRY_AFTER_S", "ClosedDmStore", "ClosedDms"]

log = logging.getLogger(__name__)

DM_RETRY_AFTER_S = 600.0
"""A user whose DMs were closed is tried again when they next interact, if at least this long ago
(each failed DM counts toward Discord's 10,000 invalid requests per 10 minutes)."""


class ClosedDmStore(Protocol):
    """Where the list is kept: the store (:mod:`db.closed_dms`)."""

    async def closed_dms(self) -> dict[int, float]:
        """Return every user whose DMs were found closed, with when (seconds since the epoch)."""
        ...

    async def set_dms_closed(self, user_id: int, at: float) -> None:
        """Remember that a DM to the user answered 403 at ``at``."""
        ...

    async def clear_dms_closed(self, user_id: int) -> None:
        """Forget it: the user is to be tried again."""
        ...


class ClosedDms:
    """The users not to DM, with when each was found closed (on the session's clock)."""

    def __init__(self, store: ClosedDmStore | None) -> None:
        self.store = store
        self.users: set[int] = set()  # read on every DM: a plain set
        self._at: dict[int, float] = {}
        self._writes: set[asyncio.Future[None]] = set()

    async def load(self) -> None:
        """Read the list kept by earlier runs (once, at start-up; a failure only costs 403s later)."""
        if self.store is None:
            return
        try:
            kept = await self.store.closed_dms()
        except Exception:
            log.warning("could not read the users whose DMs are closed", exc_info=True)
            return
        for user_id, at in kept.items():
            if user_id not in self._at:  # found during start-up: that is newer
                self.users.add(user_id)
                self._at[user_id] = at
        log.info("%d user(s) known to have closed DMs", len(kept))

    def closed(self, user_id: int, now: float) -> None:
        """A DM to the user answered 403: do not try them again until they interact."""
        self.users.add(user_id)
        self._at[user_id] = now
        if self.store is not None:
            self._write(self.store.set_dms_closed, user_id, now)

    def interacted(self, user_id: int, now: float) -> None:
        """The user clicked or ran a command: if found closed long enough ago, try them again."""
        at = self._at.get(user_id)
        if at is None or now - at < DM_RETRY_AFTER_S:
            return
        self.users.discard(user_id)
        del self._at[user_id]
        if self.store is not None:
            self._write(self.store.clear_dms_closed, user_id)

    def _write(self, write: Callable[..., Awaitable[None]], *args: Any) -> None:
        async def run() -> None:
            try:
                await write(*args)
            except Exception:
                log.warning("could not store that user %s's DMs are closed (or open)", args[0], exc_info=True)

        task = asyncio.ensure_future(run())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def flush(self) -> None:
        """Wait for the writes in flight (before the store closes)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)
