"""The SQLite connection's lock, with a fast lane for the moves (:class:`Lanes`).

One aiosqlite connection serves the whole bot, so every use of it holds one lock. Under load the
queue for that lock is long (lobbies opening, messages recorded, settings read: 100 tables of
bots playing flat out beside people's tables queue hundreds of uses a second), and the writer of
the moves (group commit, :meth:`db.sqlite.SqliteBackend.append`) waited behind all of them: a
person's click waited up to half a second for its move to be written
(``bench/bot_latency.py --game indus --ai-load 100``). Moves are what every player waits for;
the rest can wait a turn. The fast lane goes first, but never twice in a row while the ordinary
queue waits, so nothing starves: each turn of the writer takes every move queued meanwhile.
"""

from __future__ import annotations

import asyncio
from collections import deque

__all__ = ["Lanes"]


class Lanes:
    """An asyncio lock with two queues; :meth:`release` hands the lock straight to the next holder
    (no other task can slip in between), the fast lane's first unless it had the last turn."""

    def __init__(self) -> None:
        self._held = False
        self._fast: deque[asyncio.Future[None]] = deque()
        self._slow: deque[asyncio.Future[None]] = deque()
        self._fast_went_last = False

    def locked(self) -> bool:
        """Return True while someone holds the lock."""
        return self._held

    async def acquire(self, fast: bool = False) -> None:
        """Wait for the lock (in the fast lane when ``fast``)."""
        if not self._held and not self._fast and not self._slow:
            self._held = True
            self._fast_went_last = fast
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        (self._fast if fast else self._slow).append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self.release()  # handed the lock as the cancellation came: pass it on
            else:
                lane = self._fast if fast else self._slow
                if waiter in lane:  # a release may have dropped it already (it skips cancelled waiters)
                    lane.remove(waiter)
            raise

    def release(self) -> None:
        """Hand the lock to the next waiter, or free it."""
        if not self._held:
            raise RuntimeError("Lanes.release() of a lock nobody holds")
        while self._fast or self._slow:
            fast = bool(self._fast) and not (self._fast_went_last and self._slow)
            waiter = (self._fast if fast else self._slow).popleft()
            if waiter.done():  # cancelled while queued, its task not yet run to take it out
                continue
            self._fast_went_last = fast
            waiter.set_result(None)  # the lock stays held: it is the waiter's now
            return
        self._held = False

    async def __aenter__(self) -> None:
        await self.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self.release()

    def fast(self) -> _FastLane:
        """Return an async context manager holding the lock through the fast lane."""
        return _FastLane(self)


class _FastLane:
    def __init__(self, lanes: Lanes) -> None:
        self._lanes = lanes

    async def __aenter__(self) -> None:
        await self._lanes.acquire(fast=True)

    async def __aexit__(self, *exc: object) -> None:
        self._lanes.release()
