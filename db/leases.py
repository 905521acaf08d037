"""Timer leases on PostgreSQL: which process runs which tables' timers (issue 16).

Tables are grouped in buckets (``id % buckets``); ``timer_leases`` holds one row per bucket with
its owner (a process's random id, ``''`` when free) and when the lease expires. A process renews
what it holds, claims free or expired buckets, and releases them when it stops or holds more than
its share; ``timer_processes`` holds one heartbeat row per live process, so that a process that
holds nothing yet is counted in everyone's share.

Expiry is always judged by the database's clock (``clock_timestamp()``), never a process's: the
processes' clocks may disagree, the database is the one judge every claim passes through. Claims
lock the rows they take (``FOR UPDATE SKIP LOCKED``), so two processes claiming at once take
disjoint buckets and a bucket never has two owners.

SQLite has one process and no leases: :func:`leases_of` returns None there.
:class:`TimerLeases` satisfies ``engine.session.leases.LeaseBook`` structurally (db never imports
engine).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from db.plumbing import StoreBase

if TYPE_CHECKING:
    from db.pg import PgBackend

__all__ = ["TimerLeases", "leases_of"]

_NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
"""The database's now in milliseconds (clock_timestamp: the real time, not the transaction's start)."""

CHANNEL = "table_changed"  # what the 0005 triggers notify, with the table's id as the payload


def leases_of(store: StoreBase, owner: str | None = None) -> TimerLeases | None:
    """Return timer leases on the store's database for a process (``owner``: a fresh random id),
    or None on SQLite, where one process runs every timer."""
    if store.dialect != "postgresql":
        return None
    from db.pg import PgBackend  # asyncpg is imported only when PostgreSQL is used

    backend = store._backend  # the store's backend is this package's own business
    assert isinstance(backend, PgBackend)
    return TimerLeases(backend, owner)


class TimerLeases:
    """One process's view of the lease table: renew, claim, release, list, and hear table changes."""

    def __init__(self, backend: PgBackend, owner: str | None = None) -> None:
        self._backend = backend
        self.owner: str = owner or uuid.uuid4().hex
        self._rows_made = 0  # buckets known to have a row (rows are made once, then only updated)

    async def renew(self, ttl_s: float) -> tuple[list[int], int]:
        """Extend this process's heartbeat and every lease it still holds by ``ttl_s``; return (the
        buckets held, the number of live processes, this one included). One transaction.

        A lease this process held that another has taken meanwhile is simply not returned: lost.
        """
        ttl_ms = round(ttl_s * 1000)
        async with self._backend.write() as db:
            # Clearing the dead skips rows another renewal is clearing: no process ever waits on
            # another's lock here, so renewals cannot deadlock.
            await db.execute(
                "DELETE FROM timer_processes WHERE owner IN (SELECT owner FROM timer_processes"
                f" WHERE expires_at < {_NOW_MS} FOR UPDATE SKIP LOCKED)")
            await db.execute(
                f"INSERT INTO timer_processes (owner, expires_at) VALUES (?, {_NOW_MS} + ?)"
                " ON CONFLICT (owner) DO UPDATE SET expires_at = excluded.expires_at",
                (self.owner, ttl_ms))
            held = await db.fetch(
                f"UPDATE timer_leases SET expires_at = {_NOW_MS} + ? WHERE owner = ? RETURNING bucket",
                (ttl_ms, self.owner))
            live = await db.fetch(f"SELECT count(*) FROM timer_processes WHERE expires_at >= {_NOW_MS}")
        return sorted(int(row[0]) for row in held), int(live[0][0])

    async def claim(self, count: int, buckets: int, ttl_s: float) -> list[int]:
        """Take up to ``count`` of the buckets ``0 .. buckets-1`` that are free or expired; return them.

        Rows another claimer has locked are skipped rather than waited for: two processes claiming
        at the same moment get disjoint buckets, each in one round trip.
        """
        if count <= 0:
            return []
        if self._rows_made < buckets:
            async with self._backend.single() as db:
                await db.execute(
                    "INSERT INTO timer_leases (bucket, owner, expires_at)"
                    " SELECT b, '', 0 FROM generate_series(0, ? - 1) AS b ON CONFLICT (bucket) DO NOTHING",
                    (buckets,))
            self._rows_made = buckets
        async with self._backend.single() as db:
            rows = await db.fetch(
                f"UPDATE timer_leases SET owner = ?, expires_at = {_NOW_MS} + ?"
                " WHERE bucket IN (SELECT bucket FROM timer_leases"
                f"                 WHERE bucket < ? AND expires_at < {_NOW_MS}"
                "                  ORDER BY random() LIMIT ? FOR UPDATE SKIP LOCKED)"
                " RETURNING bucket",
                (self.owner, round(ttl_s * 1000), buckets, count))
        return sorted(int(row[0]) for row in rows)

    async def release(self, buckets: Sequence[int] | None = None) -> None:
        """Give up ``buckets`` (None: every lease, and this process's heartbeat): free at once."""
        async with self._backend.write() as db:
            if buckets is None:
                await db.execute("UPDATE timer_leases SET owner = '', expires_at = 0 WHERE owner = ?",
                                 (self.owner,))
                await db.execute("DELETE FROM timer_processes WHERE owner = ?", (self.owner,))
            elif buckets:
                await db.execute(
                    "UPDATE timer_leases SET owner = '', expires_at = 0 WHERE owner = ? AND bucket = ANY(?::int[])",
                    (self.owner, list(buckets)))

    async def holders(self) -> dict[int, str]:
        """Return the owner of every bucket whose lease has not expired."""
        async with self._backend.read() as db:
            rows = await db.fetch(
                f"SELECT bucket, owner FROM timer_leases WHERE owner <> '' AND expires_at >= {_NOW_MS}")
        return {int(bucket): str(owner) for bucket, owner in rows}

    async def listen(self, changed: Callable[[int], Awaitable[None]],
                     lost: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
        """Call ``changed(table_id)`` for every write to a table by any process (this one's too: a
        notification does not say who wrote), on a connection of its own; ``lost()`` when that
        connection drops. Return a function that stops listening."""

        async def heard(payload: str) -> None:
            if payload.isdigit():
                await changed(int(payload))

        return await self._backend.listen(CHANNEL, heard, lost)
