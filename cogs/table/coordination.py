"""Which process runs which table's timers: one process on SQLite, leases on PostgreSQL."""

from __future__ import annotations

from collections.abc import Sequence

from db.store import Store
from engine.session import Coordinator, SingleProcess

__all__ = ["coordinator_for"]


def coordinator_for(store: Store, shard_ids: Sequence[int] | None, shard_count: int | None) -> Coordinator:
    """Return the coordinator for a store: SQLite has one process; PostgreSQL may have many."""
    return SingleProcess()
