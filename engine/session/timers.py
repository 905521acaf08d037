"""The session's timers, keyed by (table, kind), and who may run them.

A timer is armed from what is stored (deadline rows) or from what the session just wrote; either
way it names only the table id and the version it belongs to, so it can fire for a table that is
not loaded (the handler loads it). Re-arming a (table, kind) replaces the earlier timer.

Which process runs a table's timers is the :class:`Coordinator`'s answer: with one process (SQLite)
it is always this one; with several processes sharing PostgreSQL it is the holder of the lease on
the table's bucket (``engine.session.leases``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from engine.clock import Clock, Handle

__all__ = ["Coordinator", "SingleProcess", "TimerBook"]


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
    """Armed timers by (table id, kind): arming a kind again replaces it."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._handles: dict[int, dict[str, tuple[int, Handle]]] = {}

    def arm(self, table_id: int, kind: str, when: float, version: int,
            callback: Callable[[], Awaitable[None]]) -> bool:
        """Run ``callback`` at ``when`` (epoch s) unless re-armed or cancelled before; return True.

        A timer of an older ``version`` than the one armed is not armed (False): a stored deadline
        read before this process wrote a newer one must not replace it.
        """
        kinds = self._handles.setdefault(table_id, {})
        old = kinds.get(kind)
        if old is not None:
            if old[0] > version:
                return False
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
        """Cancel the table's timers of ``kinds`` (all of them when none is named)."""
        book = self._handles.get(table_id)
        if book is None:
            return
        for kind in kinds or list(book):
            armed = book.pop(kind, None)
            if armed is not None:
                armed[1].cancel()
        if not book:
            del self._handles[table_id]

    def armed(self, table_id: int) -> set[str]:
        """Return the kinds armed for a table."""
        return set(self._handles.get(table_id, ()))

    def tables(self) -> list[int]:
        """Return the ids of tables with an armed timer."""
        return list(self._handles)

    def cancel_all(self) -> None:
        """Cancel every timer."""
        for table_id in list(self._handles):
            self.cancel(table_id)
