"""Timers shared by several processes on one database: a lease per bucket of tables (issue 16).

Tables fall in :data:`BUCKETS` buckets (``id % BUCKETS``). Each bucket's timers are run by the one
process that holds its lease in the database; the holder renews its leases every :data:`RENEW_S`
and a lease not renewed for :data:`TTL_S` is free to take, so a process that dies has its buckets
taken by the others within ``TTL_S + RENEW_S`` (under 10 s), and the new holder re-arms their
timers from the stored deadlines (``gained``). Every process aims at a fair share of the buckets
(all of them divided by the live processes, rounded up): one above it releases the extras, one
below it claims free or expired ones, so a process that joins gets its share within a few rounds.

Safety: a process stops believing it holds a bucket (``owns`` turns False) once ``TTL_S`` has passed
since the start of its last successful renewal, a little before the database lets another process
take it: the two never both run a bucket's timers. Even so, a timer that fires twice is harmless:
every write is an append at an expected version.

Writes by other processes arrive through the database's notifications (``changed``): a table
cached here is marked stale and, when its timers are ours, re-armed from the store.

The engine never imports ``db``: :class:`LeaseBook` says what it needs of the lease table, and
``db.leases.TimerLeases`` provides it (wired in ``wiring/coordination.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Protocol

__all__ = ["BUCKETS", "RENEW_S", "TTL_S", "LeaseBook", "Leases"]

log = logging.getLogger("engine.session.leases")

BUCKETS = 64  # far more than processes, so shares stay even; few enough for one-statement rounds
RENEW_S = 2.0  # how often a process renews its leases (and looks for buckets to claim)
TTL_S = 7.0  # a lease not renewed for this long is free: taken within TTL_S + RENEW_S < 10 s
MAX_BACKOFF_S = 8.0  # the longest pause between attempts while the database is unreachable

Gained = Callable[[Iterable[int] | None], Awaitable[None]]
Lost = Callable[[Iterable[int]], Awaitable[None]]
Changed = Callable[[int], Awaitable[None]]


class LeaseBook(Protocol):
    """The lease table as one process sees it (``db.leases.TimerLeases`` on PostgreSQL)."""

    owner: str

    async def renew(self, ttl_s: float) -> tuple[list[int], int]:
        """Extend this process's heartbeat and leases by ``ttl_s``; return (buckets held, live processes)."""
        ...

    async def claim(self, count: int, buckets: int, ttl_s: float) -> list[int]:
        """Take up to ``count`` free or expired buckets below ``buckets``; return them."""
        ...

    async def release(self, buckets: Sequence[int] | None = None) -> None:
        """Give up ``buckets`` (None: all, and the heartbeat)."""
        ...

    async def listen(self, changed: Changed, lost: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
        """Call ``changed(table_id)`` for every write to a table; ``lost()`` when the feed drops;
        return the function that stops it."""
        ...


class Leases:
    """The :class:`engine.session.timers.Coordinator` of a process sharing the store with others."""

    shared = True

    def __init__(self, book: LeaseBook, *, buckets: int | None = None, renew_s: float | None = None,
                 ttl_s: float | None = None, monotonic: Callable[[], float] = time.monotonic) -> None:
        # The module constants are read now, not when this module was imported: a test harness may
        # shorten them for the processes it starts before the bot builds its coordinator.
        self.renew_s = RENEW_S if renew_s is None else renew_s
        self.ttl_s = TTL_S if ttl_s is None else ttl_s
        if not 0 < self.renew_s < self.ttl_s:
            raise ValueError("renew_s must be positive and shorter than ttl_s")
        self.book = book
        self._buckets = BUCKETS if buckets is None else buckets
        self._monotonic = monotonic
        self.held: set[int] = set()
        self._rearm: set[int] = set()  # held buckets whose timers are still to be armed from the store
        self._valid_until = -math.inf  # what this process believes of ``held``, on its own clock
        self._gained: Gained | None = None
        self._lost: Lost | None = None
        self._changed: Changed | None = None
        self._unlisten: Callable[[], Awaitable[None]] | None = None
        self._loop: asyncio.Task[None] | None = None
        self._failures = 0
        self._stopped = False

    # ------------------------------------------------------------------ Coordinator

    @property
    def bucket_count(self) -> int:
        """Return the number of lease buckets."""
        return self._buckets

    @property
    def owner(self) -> str:
        """Return this process's id in the lease table."""
        return self.book.owner

    def bucket_of(self, table_id: int) -> int:
        """Return the lease bucket of a table."""
        return table_id % self._buckets

    def owns(self, table_id: int) -> bool:
        """Return True when this process holds the table's bucket and its lease is still valid."""
        return self.bucket_of(table_id) in self.held and self._monotonic() < self._valid_until

    async def start(self, gained: Gained, lost: Lost, changed: Changed) -> None:
        """Listen for other processes' writes, take a fair share of the buckets, then keep them.

        The first round runs before this returns, so the timers of the buckets taken are armed by
        then; a database that cannot be reached now is retried by the loop (the bot still starts).
        """
        self._gained, self._lost, self._changed = gained, lost, changed
        self._stopped = False
        await self._listen()
        try:
            await self._round()
        except Exception as exc:
            self._failed(exc)
        self._loop = asyncio.create_task(self._keep(), name=f"leases {self.owner[:8]}")

    async def stop(self) -> None:
        """Stop renewing and listening, and release every lease (the others take over at once)."""
        await self.abandon()
        try:
            await self.book.release()
        except Exception as exc:  # the leases expire by themselves within TTL_S
            log.warning("leases: not released on stop (%s); they expire within %gs", exc, self.ttl_s)

    async def abandon(self) -> None:
        """Stop renewing and listening without releasing anything: what a killed process leaves
        behind (its leases expire after ``ttl_s``). For tests and chaos drills."""
        await self._halt()
        self.held.clear()
        self._rearm.clear()
        self._valid_until = -math.inf

    # ------------------------------------------------------------------ the loop

    async def _halt(self) -> None:
        self._stopped = True
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop
            self._loop = None
        if self._unlisten is not None:
            unlisten, self._unlisten = self._unlisten, None
            try:
                await unlisten()
            except Exception as exc:
                log.debug("leases: the notification feed did not close cleanly (%s)", exc)

    async def _keep(self) -> None:
        """Renew every ``renew_s``; while the database fails, retry with backoff (never crash)."""
        while not self._stopped:
            # Backing off past a lease's life would only lengthen the outage once the database is back.
            backoff = min(self.renew_s * 2 ** max(self._failures - 1, 0), MAX_BACKOFF_S, self.ttl_s)
            pause = self.renew_s if self._failures == 0 else max(backoff, self.renew_s)
            await asyncio.sleep(pause)
            try:
                await self._expire_belief()
                if self._unlisten is None:
                    await self._listen()
                # A round that hangs must not outlive the leases it renews.
                await asyncio.wait_for(self._round(), self.ttl_s)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._failed(exc)
                await self._expire_belief()

    def _failed(self, exc: BaseException, what: str = "renewal") -> None:
        self._failures += 1
        if self._failures == 1 or self._failures % 10 == 0:  # one line per outage, then a reminder
            log.warning("leases: %s failed (%s: %s); retrying, %d attempt(s) so far", what, type(exc).__name__,
                        exc, self._failures)

    async def _expire_belief(self) -> None:
        """Once ``ttl_s`` passed without a renewal, hold nothing: the leases may be another's now."""
        if self.held and self._monotonic() >= self._valid_until:
            log.warning("leases: not renewed for %gs; the timers of %d bucket(s) stop here", self.ttl_s,
                        len(self.held))
            await self._drop(self.held)

    async def _round(self) -> None:
        """Renew, then move towards a fair share (release extras or claim free buckets), then arm
        the timers of every bucket that became ours."""
        began = self._monotonic()
        held, live = await self.book.renew(self.ttl_s)
        # Belief had lapsed (a slow or failed renewal): a timer that fired meanwhile was dropped
        # here, so every bucket still held is armed again from the store.
        lapsed = self._monotonic() >= self._valid_until
        # The database extended the leases by ttl_s from a moment after ``began``: believing them
        # until began + ttl_s ends before they expire there. The margin covers clock-rate drift.
        self._valid_until = began + self.ttl_s - min(0.5, self.ttl_s / 10)
        if self._failures:
            log.info("leases: renewed again after %d failed attempt(s)", self._failures)
            self._failures = 0
        now_held = set(held)
        await self._drop(self.held - now_held)
        self._rearm |= now_held if lapsed else now_held - self.held
        self.held = now_held
        share = math.ceil(self._buckets / max(live, 1))
        if len(now_held) > share:
            # Keep a spread of buckets, not the lowest: ids are handed out in order, so with few
            # tables the low buckets hold them all and a newcomer given the high half got none.
            extras = sorted(now_held, key=_spread)[share:]
            # Stop running them here before the database lets another process take them.
            await self._drop(extras)
            await self.book.release(extras)
        elif len(now_held) < share:
            taken = await self.book.claim(share - len(now_held), self._buckets, self.ttl_s)
            self.held |= set(taken)
            self._rearm |= set(taken)
        self._rearm &= self.held
        if self._rearm and self._gained is not None:
            # Kept until it succeeds: a failure here (the store unreachable) is retried next round.
            await self._gained(sorted(self._rearm))
            self._rearm.clear()

    async def _drop(self, buckets: Iterable[int]) -> None:
        """Stop running ``buckets`` here."""
        gone = sorted(set(buckets) & self.held)
        self.held -= set(gone)
        await self._call_lost(gone)

    async def _call_lost(self, buckets: list[int]) -> None:
        if buckets and self._lost is not None:
            await self._lost(buckets)

    # ------------------------------------------------------------------ notifications

    async def _listen(self) -> None:
        """Open the notification feed; on a reopening, re-arm every held bucket's timers (on the
        round that follows), since writes made while it was down went unheard."""
        reopened = self._loop is not None
        try:
            self._unlisten = await self.book.listen(self._heard, self._feed_lost)
        except Exception as exc:
            self._failed(exc, "listening")
            return
        if reopened:
            self._rearm |= self.held

    async def _heard(self, table_id: int) -> None:
        if self._changed is None or self._stopped:
            return
        try:
            await self._changed(table_id)
        except Exception as exc:
            # Nobody awaits a notification's task: report it here, and let the next round arm the
            # bucket's timers from the store in case this one's were not.
            log.warning("leases: a change to table %s was not taken in (%s)", table_id, exc)
            self._rearm.add(self.bucket_of(table_id))

    async def _feed_lost(self) -> None:
        if not self._stopped:
            log.warning("leases: the notification feed dropped; it is reopened on the next round")
            self._unlisten = None


def _spread(bucket: int) -> int:
    """Return ``bucket`` with its bits reversed: in this order, any first k buckets are spread evenly
    over the range (0, 32, 16, 48, 8, ...), so a share kept in this order keeps a spread of tables."""
    return int(f"{bucket:032b}"[::-1], 2)
