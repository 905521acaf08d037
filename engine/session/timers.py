"""The session's timers, keyed by (table, kind), and who may run them.

A timer is armed from what is stored (deadline rows) or from what the session just wrote; either
way it names only the table id and the version it belongs to, so it can fire for a table that is
not loaded (the handler loads it). Re-arming a (table, kind) replaces the earlier timer.

A timer far ahead (a correspondence table's deadline, a day away) is not handed to the clock: it
waits in the book as its stored record (:meth:`TimerBook.wait`) and is armed once it comes within
:data:`HORIZON_S`. An event loop's scheduled call with its closures costs kilobytes and its heap
grows slower with every entry; a process holding 100,000 tables a day apart would spend seconds
and hundreds of MiB arming them at start, for the few dozen due in the next minutes.

Which process runs a table's timers is the :class:`Coordinator`'s answer: with one process (SQLite)
it is always this one; with several processes sharing PostgreSQL it is the holder of the lease on
the table's bucket (``engine.session.leases``).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from engine.clock import Clock, Handle
from engine.session.contract import StoredTimer

__all__ = ["HORIZON_S", "Coordinator", "SingleProcess", "TimerBook"]

HORIZON_S = 600.0
"""A timer whose first part is due later than this waits in the book instead of on the clock."""

Promote = Callable[[StoredTimer], None]
"""Arm a waiting timer that came within the horizon."""


class Coordinator(Protocol):
    """Which process runs which table's timers, and how processes hear of each other's writes."""

    shared: bool
    """True when other processes write to the same store: a cached table must be brought up to date
    (its tail read) before it is acted on, and a refused append is retried on the fresh state."""

    def owns(self, table_id: int) -> bool:
        """Return True when this process runs the table's timers now."""
        ...

    async def start(self, gained: Callable[[Iterable[int] | None], Awaitable[None]],
                    lost: Callable[[Iterable[int]], Awaitable[None]],
                    changed: Callable[[int], Awaitable[None]]) -> None:
        """Begin: call ``gained(buckets)`` (None: all) when timers become ours, ``lost(buckets)`` when
        they stop being ours, ``changed(table_id)`` when another process wrote to a table."""
        ...

    def bucket_of(self, table_id: int) -> int:
        """Return the lease bucket of a table."""
        ...

    @property
    def bucket_count(self) -> int:
        """Return the number of lease buckets."""
        ...

    async def stop(self) -> None:
        """Give up every lease (another process takes over at once) and stop listening."""
        ...


class SingleProcess:
    """One process owns every table: the SQLite default."""

    shared = False
    bucket_count = 1

    def owns(self, table_id: int) -> bool:
        """Return True: every timer is this process's."""
        return True

    def bucket_of(self, table_id: int) -> int:
        """Return 0: there is one bucket."""
        return 0

    async def start(self, gained: Callable[[Iterable[int] | None], Awaitable[None]],
                    lost: Callable[[Iterable[int]], Awaitable[None]],
                    changed: Callable[[int], Awaitable[None]]) -> None:
        """Every timer is ours from the start."""
        await gained(None)

    async def stop(self) -> None:
        """Nothing to give up."""


class TimerBook:
    """Armed timers by (table id, kind): arming a kind again replaces it.

    Timers far ahead wait as data (:meth:`wait`) and are handed back to ``promote`` (the alarms,
    which arm them as they would have at once) once their first part is within ``horizon_s``.
    """

    def __init__(self, clock: Clock, horizon_s: float = HORIZON_S) -> None:
        self.clock = clock
        self.horizon_s = horizon_s
        self._handles: dict[int, dict[str, tuple[int, Handle]]] = {}
        self._waiting: dict[tuple[int, str], StoredTimer] = {}  # (table, kind) -> the timer
        self._queue: list[tuple[float, int, StoredTimer]] = []  # (first, order, timer): replaced ones stay, skipped
        self._order = itertools.count()
        self._kinds_waiting: set[str] = set()  # every kind that ever waited: a table's are found without a scan
        self._wake: Handle | None = None
        self._wake_at = math.inf
        self._promote: Promote | None = None

    def promote_with(self, promote: Promote) -> None:
        """Name what arms a waiting timer once it comes within the horizon."""
        self._promote = promote

    def near(self, when: float) -> bool:
        """Return True when ``when`` is within the horizon: a timer due then is armed on the clock."""
        return when <= self.clock.now() + self.horizon_s

    def superseded(self, table_id: int, kind: str, version: int) -> bool:
        """Return True when a newer version of the table's timer ``kind`` is armed or waiting."""
        armed = self._handles.get(table_id, {}).get(kind)
        waiting = self._waiting.get((table_id, kind))
        return (armed is not None and armed[0] > version) or (waiting is not None and (waiting.version or 0) > version)

    def wait(self, timer: StoredTimer, first: float, replaces: Iterable[str]) -> None:
        """Keep ``timer`` as data until ``first``, the earliest moment it needs the clock, comes
        within the horizon; the table's timers of ``replaces`` armed now (older versions of its
        parts) are cancelled, as arming would."""
        self._cancel_handles(timer.table_id, replaces)
        self._waiting[(timer.table_id, timer.kind)] = timer
        self._kinds_waiting.add(timer.kind)
        heapq.heappush(self._queue, (first, next(self._order), timer))
        if first - self.horizon_s / 2 < self._wake_at:
            self._wake_up_at(first - self.horizon_s / 2)

    def _wake_up_at(self, when: float) -> None:
        """Look at the waiting timers at ``when`` (half a horizon before the first is due: one look
        arms everything due in the next half horizon, so the clock holds one handle for all)."""
        if self._wake is not None:
            self._wake.cancel()
        self._wake_at = when
        self._wake = self.clock.call_at(when, self._promote_near)

    async def _promote_near(self) -> None:
        """Arm every waiting timer now within the horizon; wake again for the next one."""
        self._wake, self._wake_at = None, math.inf
        limit = self.clock.now() + self.horizon_s
        while self._queue and self._queue[0][0] <= limit:
            _, _, timer = heapq.heappop(self._queue)
            key = (timer.table_id, timer.kind)
            if self._waiting.get(key) is not timer:
                continue  # replaced or cancelled since
            del self._waiting[key]
            assert self._promote is not None, "TimerBook.promote_with() was not called"
            self._promote(timer)
        if self._queue:
            self._wake_up_at(self._queue[0][0] - self.horizon_s / 2)

    def arm(self, table_id: int, kind: str, when: float, version: int,
            callback: Callable[[], Awaitable[None]]) -> bool:
        """Run ``callback`` at ``when`` (epoch s) unless re-armed or cancelled before; return True.

        A timer of an older ``version`` than the one armed (or waiting) is not armed (False): a
        stored deadline read before this process wrote a newer one must not replace it.
        """
        if self.superseded(table_id, kind, version):
            return False
        self._waiting.pop((table_id, kind), None)
        kinds = self._handles.setdefault(table_id, {})
        old = kinds.get(kind)
        if old is not None:
            old[1].cancel()
        entry: tuple[int, Handle]

        async def fire() -> None:
            book = self._handles.get(table_id)
            if book is not None and book.get(kind) is entry:  # fired: no longer armed
                del book[kind]
                if not book:
                    del self._handles[table_id]
            await callback()

        entry = (version, self.clock.call_at(when, fire))
        kinds[kind] = entry
        return True

    def cancel(self, table_id: int, *kinds: str) -> None:
        """Cancel the table's timers of ``kinds`` (all of them when none is named), armed or waiting."""
        self._cancel_handles(table_id, kinds or list(self._handles.get(table_id, ())))
        for kind in kinds or self._kinds_waiting:
            self._waiting.pop((table_id, kind), None)

    def _cancel_handles(self, table_id: int, kinds: Iterable[str]) -> None:
        """Cancel the table's timers of ``kinds`` armed on the clock."""
        book = self._handles.get(table_id)
        if book is None:
            return
        for kind in kinds:
            armed = book.pop(kind, None)
            if armed is not None:
                armed[1].cancel()
        if not book:
            del self._handles[table_id]

    def armed(self, table_id: int) -> set[str]:
        """Return the kinds armed for a table, on the clock or waiting."""
        return set(self._handles.get(table_id, ())) | {k for k in self._kinds_waiting if (table_id, k) in self._waiting}

    def tables(self) -> list[int]:
        """Return the ids of tables with an armed (or waiting) timer."""
        return list(dict.fromkeys([*self._handles, *(t for t, _ in self._waiting)]))

    def cancel_all(self) -> None:
        """Cancel every timer."""
        for table_id in list(self._handles):
            self._cancel_handles(table_id, list(self._handles[table_id]))
        self._waiting.clear()
        self._queue.clear()
        if self._wake is not None:
            self._wake.cancel()
        self._wake, self._wake_at = None, math.inf
