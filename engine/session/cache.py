"""The loaded tables (:class:`TableCache`): a cache over the store, never the truth.

A table is loaded on demand (its first click, command or timer: the latest snapshot plus a short
tail of actions), every write is an append at the expected version, and the timers are restored
at start-up from the stored deadlines with one query, each naming only its table and version: a
timer loads its table when it fires.

With several processes (``coordinator.shared``), a cached table is brought up to date (its tail
read) under its lock before anything acts on it. Only the process holding a table's lease runs
its timers; the others only write the deadlines, which the owner hears of.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from engine.clock import Clock
from engine.core import IllegalAction
from engine.session.ahead import Ahead
from engine.session.alarms import Alarms
from engine.session.contract import GameSpec, RepoCorrupt, Repository, SessionError
from engine.session.loading import automatic, fill, fill_tail
from engine.session.table import Table
from engine.session.timers import Coordinator

__all__ = ["TableCache"]

log = logging.getLogger("engine.session")


class TableCache:
    """The loaded tables: a cache over the store, never the truth; a table is loaded on demand."""

    def __init__(self, repo: Repository, specs: Mapping[str, GameSpec], clock: Clock, coordinator: Coordinator,
                 alarms: Alarms, ahead: Ahead) -> None:
        self.repo = repo
        self.specs = specs
        self.clock = clock
        self.coordinator = coordinator
        self.alarms = alarms  # a table loaded with automatic play due arms it; a forgotten one drops its timers
        self.ahead = ahead
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}
        self._loading: dict[int, asyncio.Future[Table]] = {}

    def loaded(self, table_id: int) -> Table | None:
        """Return the table if it is loaded in this process (no database access)."""
        return self.tables.get(table_id)

    async def get(self, table_id: int) -> Table:
        """Return a table, loading it on demand and bringing it up to date; SessionError("gone") if over."""
        table = self.tables.get(table_id)
        if table is None:
            # One load per table at a time: a second caller waits for the first caller's load (the
            # load runs in the first caller's task, so its errors are that caller's).
            pending = self._loading.get(table_id)
            if pending is not None:
                return await asyncio.shield(pending)
            future: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
            self._loading[table_id] = future
            try:
                table = await self._load(table_id)
            except BaseException as exc:
                future.set_exception(exc if isinstance(exc, Exception) else SessionError("gone"))
                future.exception()  # retrieved: waiters (if any) get it; nobody else must log it
                raise
            else:
                future.set_result(table)
            finally:
                del self._loading[table_id]
            return table
        if self.coordinator.shared or table.stale:
            async with table.lock:
                await self.sync(table)
        return table

    async def _load(self, table_id: int) -> Table:
        try:
            stored = await self.repo.load(table_id)
        except KeyError as exc:
            raise SessionError("gone") from exc
        except RepoCorrupt as exc:
            await self._abandon(table_id, exc)
            raise SessionError("gone") from exc
        if stored.status not in ("lobby", "playing") or stored.game not in self.specs:
            raise SessionError("gone")
        table = Table(stored.id, self.specs[stored.game], stored.guild_id, stored.channel_id, stored.host_id,
                      stored.options, stored.table_options, stored.status, list(stored.seats), stored.seed)
        try:
            fill(table, stored)
        except (IllegalAction, ValueError, KeyError, TypeError) as exc:
            await self._abandon(table_id, exc)
            raise SessionError("gone") from exc
        table.opened_at = self.clock.now()
        self.register(table)
        if table.status == "playing" and automatic(table, table.state) is not None:
            # A chance draw (or an action the rules play unasked) is due and no stored timer will
            # play it: a start whose first draw was never written. Play it now.
            self.alarms.arm_auto(table_id, self.clock.now(), table.version)
        return table

    async def _abandon(self, table_id: int, error: Exception) -> None:
        log.error("table %s cannot be loaded (%s): abandoned", table_id, error)
        try:
            await self.repo.cancel(table_id, "abandoned")
        except Exception:
            log.exception("table %s could not be marked abandoned", table_id)
        self.alarms.book.cancel(table_id)

    async def sync(self, table: Table) -> None:
        """Bring a cached table up to date with the store (under its lock); SessionError("gone") if it ended."""
        if not (self.coordinator.shared or table.stale):
            return
        tail = await self.repo.tail(table.id, table.version)
        if tail.status != table.status:
            if tail.status not in ("lobby", "playing"):
                table.status = tail.status
                self.forget(table)
                raise SessionError("gone")
            fill(table, await self.repo.load(table.id))  # started elsewhere: everything changed
            table.generation += 1
        elif fill_tail(table, tail):
            table.generation += 1
        table.stale = False

    def register(self, table: Table) -> None:
        """Keep a table (just loaded or opened) as the one of its channel."""
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def forget(self, table: Table) -> None:
        """Drop an ended table: its timers, its bots' head start and its place in the cache."""
        for handle in table.timers:
            handle.cancel()
        table.timers.clear()
        self.alarms.book.cancel(table.id)
        self.ahead.drop(table.id)
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
