"""Which process runs which table's timers: one process on SQLite, leases on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence

from db import Store, leases_of
from engine.session import Coordinator, SingleProcess
from engine.session.leases import Leases

__all__ = ["coordinator_for"]


def coordinator_for(store: Store, shard_ids: Sequence[int] | None, shard_count: int | None) -> Coordinator:
    """Return the coordinator for a store: SQLite has one process; PostgreSQL may have many.

    On PostgreSQL the leases are used even by a lone process: whether others share the database
    (other shards, a second copy started by mistake) cannot be known from here, and one process
    simply holds every bucket. The shard ids do not pick buckets: a table's timers need only REST,
    which any process can send, so any live process may run them.
    """
    book = leases_of(store)
    if book is None:
        return SingleProcess()
    return Leases(book)
