"""The loaded tables (:class:`TableCache`): a cache over the store, never the truth.

A table is loaded on demand (its first click, command or timer: the latest snapshot plus a short
tail of actions), every write is an append at the expected version, and the timers are restored
at start-up from the stored deadlines with one query, each naming only its table and version: a
timer loads its table when it fires.

With several processes (``coordinator.shared``), a cached table is brought up to date (its tail
read) under its lock before anything acts on it. Only the process holding a table's lease runs
its timers; the others only write the deadlines, which the owner hears of.

A table nobody used for :data:`IDLE_S` is dropped again once more than :attr:`TableCache.keep_loaded`
tables are loaded (:meth:`TableCache.unload_idle`, run by the loads themselves at most every
:data:`SWEEP_EVERY_S`): correspondence tables are loaded by their reminders and deadlines, a few
times a day each, and a process holding 100,000 of them would otherwise keep every one (about
12 KiB each) within a day. Dropping one is what a restart does to it: its stored timers stay armed
and load it again when they fire, a click loads it again, and whatever it kept only in memory is
either read again from the store (its state, deadline, lobby close, runs of missed decisions) or
makes it stay loaded (its lock held, an in-memory timer pending, a bot's decision under way).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping

from engine.clock import Clock
from engine.core import IllegalAction
from engine.session.ahead import Ahead
from engine.session.alarms import Alarms
from engine.session.contract import GameSpec, RepoCorrupt, Repository, SessionError
from engine.session.loading import automatic, fill, fill_tail
from engine.session.table import Table
from engine.session.timers import Coordinator

__all__ = ["IDLE_S", "KEEP_LOADED", "SWEEP_EVERY_S", "TableCache"]

log = logging.getLogger("engine.session")

KEEP_LOADED = 1000
"""Up to this many loaded tables nothing is dropped (a server's live tables, kept warm)."""

IDLE_S = 30 * 60.0
"""A table unused this long may be dropped from the cache (live decisions are 30-600 s: a live
table in play is never idle this long)."""

SWEEP_EVERY_S = 5 * 60.0
"""The loads look for idle tables at most this often (a sweep reads every loaded table)."""


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
        self.keep_loaded = KEEP_LOADED
        self.on_unload: list[Callable[[Table], None]] = []
        """Called with each table unloaded while idle (or ended by another process): what is kept
        beside it (the Discord side's caches of its messages and story) goes too, to be read again
        from the store at its next use."""
        self._loading: dict[int, asyncio.Future[Table]] = {}
        self._used: dict[int, float] = {}  # table id -> when it was last asked for (clock time)
        self._swept_at = float("-inf")

    def loaded(self, table_id: int) -> Table | None:
        """Return the table if it is loaded in this process (no database access)."""
        return self.tables.get(table_id)

    async def get(self, table_id: int) -> Table:
        """Return a table, loading it on demand and bringing it up to date; SessionError("gone") if over."""
        table = self.tables.get(table_id)
        if table is not None:
            self._used[table_id] = self.clock.now()
        else:
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
            self.unload_idle()
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
        table.opened_at = self._opened_at(table)
        self.register(table)
        if table.status == "playing" and automatic(table, table.state) is not None:
            # A chance draw (or an action the rules play unasked) is due and no stored timer will
            # play it: a start whose first draw was never written. Play it now.
            self.alarms.arm_auto(table_id, self.clock.now(), table.version)
        return table

    def _opened_at(self, table: Table) -> float:
        """Return when the loaded table's decision window opened: its stored deadline less the
        table's decision time (what play set it to), else now. Not the load's time: what waits
        from the window's opening (a count redraw, a nudge of the last few) must not wait again
        after a restart or an unload."""
        now = self.clock.now()
        if table.deadline is None:
            return now
        return min(now, table.deadline - table.timeout_s(self.alarms.settings))

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
        self._used[table.id] = self.clock.now()

    def unload_idle(self) -> list[int]:
        """Drop the tables idle for :data:`IDLE_S` that keep nothing only in memory, when more than
        :attr:`keep_loaded` are loaded and the last look is :data:`SWEEP_EVERY_S` old; return their
        ids. Each stays stored, its stored timers armed: the next click or timer loads it again."""
        now = self.clock.now()
        if len(self.tables) <= self.keep_loaded or now - self._swept_at < SWEEP_EVERY_S:
            return []
        self._swept_at = now
        idle = [table for table in self.tables.values() if self._idle(table, now)]
        for table in idle:
            self.tables.pop(table.id, None)
            self._used.pop(table.id, None)
            if self.by_channel.get(table.channel_id) == table.id:
                del self.by_channel[table.channel_id]
            self._beside_goes(table)
        if idle:
            log.debug("%d idle table(s) unloaded, %d stay loaded", len(idle), len(self.tables))
        return [table.id for table in idle]

    def _idle(self, table: Table, now: float) -> bool:
        """Whether a table may be dropped: in play (a lobby's few), unused for :data:`IDLE_S`, and
        nothing of it only in memory: no lock held, no in-memory timer pending (e.g. a redraw), no
        bot's decision under way or waiting to be taken (a table being loaded is not here yet)."""
        return (table.status == "playing" and now - self._used.get(table.id, now) >= IDLE_S
                and not table.lock.locked() and not table.timers and not table.thinking
                and not self.ahead.holds(table.id))

    def forget_ended_elsewhere(self, table: Table) -> None:
        """Drop a table another process ended (it told the players): as :meth:`forget`, and what is
        kept beside it goes too, as for an idle table, since no listener call here ends it."""
        self.forget(table)
        self._beside_goes(table)

    def _beside_goes(self, table: Table) -> None:
        """What is kept beside a table no longer held here goes with it (:attr:`on_unload`)."""
        for unloaded in self.on_unload:
            unloaded(table)

    def forget(self, table: Table) -> None:
        """Drop an ended table: its timers, its bots' head start and its place in the cache."""
        for handle in table.timers:
            handle.cancel()
        table.timers.clear()
        self.alarms.book.cancel(table.id)
        self.ahead.drop(table.id)
        self.tables.pop(table.id, None)
        self._used.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]
