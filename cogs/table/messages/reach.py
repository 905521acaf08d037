"""How each player chose to be told that a decision is theirs (``/notify how:``), for all servers.

``dm``: the prompt with its controls by DM; ``mention``: a new message in the game's channel that
names only them; ``off``: nothing beyond the board and the reminder; ``None``: never chosen (the
default depends on the table's pace: a DM on correspondence tables; on live tables the board, and
a DM when they are away). Whoever sends a turn notice asks :meth:`NotifyChoices.how`.

The choice is kept in the store (``db.player_settings``) and cached here: a turn notice must not
cost a query. The cache is loaded per user on first use (a process with 100,000 tables does not
read every player at start-up) and an entry is read again after :data:`CACHE_S`, because the
processes sharing one token each keep their own cache, and the choice is made in whichever
process received the command (a DM's command comes to shard 0's).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Literal, Protocol, get_args

__all__ = ["CACHE_S", "HOWS", "How", "NotifyChoiceStore", "NotifyChoices"]

log = logging.getLogger(__name__)

How = Literal["dm", "mention", "off"]
HOWS: tuple[How, ...] = get_args(How)
"""Every choice, in the order the command offers them."""

CACHE_S = 60.0
"""A cached choice is read from the store again after this long (seconds on the session clock): a
choice made through another process reaches this one within it."""


class NotifyChoiceStore(Protocol):
    """Where the choices are kept: the store (:mod:`db.player_settings`)."""

    async def notify_choice(self, user_id: int) -> str | None:
        """Return the user's choice (None: never chosen)."""
        ...

    async def set_notify_choice(self, user_id: int, how: str | None) -> None:
        """Keep the user's choice."""
        ...


class NotifyChoices:
    """Each user's choice, cached in memory and loaded from the store on first use."""

    def __init__(self, store: NotifyChoiceStore | None, now: Callable[[], float]) -> None:
        self.store = store
        self.now = now  # the session's clock (tests move it)
        self._known: dict[int, tuple[How | None, float]] = {}  # user id -> (choice, when read)

    async def how(self, user_id: int) -> How | None:
        """Return how the user chose to be told of their decisions (None: never chosen, the default).

        A store out of reach answers what was known before (or None): a notice goes out the
        default way rather than not at all."""
        known = self._known.get(user_id)
        if known is not None and self.now() - known[1] < CACHE_S:
            return known[0]
        if self.store is None:
            return known[0] if known is not None else None
        try:
            stored = await self.store.notify_choice(user_id)
        except Exception:
            log.warning("could not read how user %s is to be notified", user_id, exc_info=True)
            return known[0] if known is not None else None
        choice = next((how for how in HOWS if how == stored), None)  # anything else: the default
        self._known[user_id] = (choice, self.now())
        return choice

    async def choose(self, user_id: int, how: How | None) -> None:
        """Keep the user's choice (None: back to the default); raises when the store cannot keep it
        (the user is told nothing changed) and ValueError for a value that is no choice."""
        if how is not None and how not in HOWS:
            raise ValueError(f"not a notification choice: {how!r}")
        if self.store is not None:
            await self.store.set_notify_choice(user_id, how)
        self._known[user_id] = (how, self.now())
