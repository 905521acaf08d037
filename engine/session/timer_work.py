"""What runs when a table's timer fires (a mixin of :class:`engine.session.runner.Runner`).

A table's deadlines are stored; each becomes an in-memory timer in the process that runs the
table's timers (:mod:`engine.session.timers`), naming only the table and the version it belongs
to. Firing, it loads the table if need be and checks that the version still holds: the reminder
before a decision deadline, the timeout (the game's timeout agent plays for every absent person),
and automatic play (the bots that owe, together; a chance draw; a result not yet written). A
timer whose work fails is armed again with a backoff, so a fault never leaves a table stuck.
With several processes, timers follow the leases (:meth:`TimerWork._gained`, ``_lost``), and a
write heard from another process re-arms the table's timers and starts its bots thinking.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import Any

from engine.clock import Clock
from engine.core import CHANCE, resolve_chance
from engine.session.ahead import Ahead
from engine.session.ai_pool import AiPool, Decision, decide
from engine.session.contract import (
    AUTO,
    DECISION,
    GameSpec,
    Repository,
    RepoUnavailable,
    SeatEvent,
    SessionError,
    SessionSettings,
    Stale,
    StoredTimer,
)
from engine.session.loading import step
from engine.session.table import Listener, Table, Update
from engine.session.timers import Coordinator, TimerBook

__all__ = ["REMIND", "RETRY_S", "TimerWork"]

log = logging.getLogger("engine.session")
fired = logging.getLogger("engine.session.fired")
"""One DEBUG line per timer that played actions: which process ran which table's timers, for the
multi-process chaos test (fakediscord/chaos.py), which turns it on in its bot processes."""

REMIND = "remind"  # the in-memory reminder before a decision deadline (derived from it, never stored)
RETRY_S = (1.0, 2.0, 5.0, 10.0, 30.0)  # a timer whose work met an unreachable database tries again


class TimerWork:
    """The timers' handlers; the runner provides the cache and play they work through."""

    # Provided by Runner.
    repo: Repository
    specs: dict[str, GameSpec]
    listener: Listener
    clock: Clock
    settings: SessionSettings
    coordinator: Coordinator
    ai: AiPool
    ahead: Ahead
    tables: dict[int, Table]
    timers: TimerBook

    async def get(self, table_id: int) -> Table:
        raise NotImplementedError

    async def _sync(self, table: Table) -> None:
        raise NotImplementedError

    async def _advance(self, table: Table, first: list[tuple[int, Any]], *, new_window: bool = False,
                       timed_out: list[int] | None = None) -> Update:
        raise NotImplementedError

    async def _finish(self, table: Table, update: Update) -> None:
        raise NotImplementedError

    @staticmethod
    async def _notify(call: Coroutine[Any, Any, None]) -> None:
        raise NotImplementedError

    @staticmethod
    def _decisions(table: Table) -> list[Decision]:
        raise NotImplementedError

    def _think_ahead(self, table: Table) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ timers

    def _arm(self, timer: StoredTimer) -> None:
        """Arm a stored (or just written) timer in this process, if this process runs the table's timers."""
        table_id, due, version = timer.table_id, timer.due, timer.version or 0
        if not self.coordinator.owns(table_id):
            return
        if timer.kind == DECISION:
            remind_at = due - self.settings.reminder_before_s
            if remind_at > self.clock.now():
                self._arm_work(table_id, REMIND, remind_at, version, lambda: self._remind(table_id, version))
            self._arm_work(table_id, DECISION, due, version, lambda: self._expire(table_id, version))
        elif timer.kind == AUTO:
            self._arm_work(table_id, AUTO, due, version, lambda: self._auto(table_id, version))

    def _arm_work(self, table_id: int, kind: str, due: float, version: int, work: Callable[[], Awaitable[None]],
                  attempt: int = 0) -> None:
        """Arm a timer's work; when it fails, arm it again with backoff (see :meth:`_timer`)."""
        self.timers.arm(table_id, kind, due, version, self._timer(table_id, kind, version, work, attempt))

    def _timer(self, table_id: int, kind: str, version: int, work: Callable[[], Awaitable[None]], attempt: int
               ) -> Callable[[], Awaitable[None]]:
        """Wrap a timer's work: if it fails (a write refused, the database unreachable), the table's
        cached state is no longer trusted and the same timer is armed again after a backoff, so the
        game goes on by itself once the fault clears (a newer timer of the table replaces it)."""

        async def run() -> None:
            try:
                await work()
            except Exception as exc:
                if isinstance(exc, SessionError) and exc.code == "gone":
                    # Another process ended the table while this timer waited for its lock: bringing
                    # it up to date found it over and forgot it. Nothing is left to do, or to retry.
                    return
                table = self.tables.get(table_id)
                if table is not None:
                    table.stale = True  # a write may have failed half-way: reload before acting again
                delay = RETRY_S[min(attempt, len(RETRY_S) - 1)]
                if isinstance(exc, RepoUnavailable):
                    log.warning("table %s: the database is unreachable; the %s timer tries again in %gs",
                                table_id, kind, delay)
                else:  # the first time with its traceback; a fault that lasts logs one line per retry
                    log.warning("table %s: the %s timer failed (%s); it tries again in %gs", table_id, kind,
                                exc, delay, exc_info=attempt == 0)
                self._arm_work(table_id, kind, self.clock.now() + delay, version, work, attempt + 1)

        return run

    async def _timer_table(self, table_id: int) -> Table | None:
        """Return the table a timer fired for, loaded and up to date, or None when it is not ours or over."""
        if not self.coordinator.owns(table_id):
            return None
        try:
            return await self.get(table_id)
        except SessionError:
            return None

    async def _remind(self, table_id: int, window: int) -> None:
        table = await self._timer_table(table_id)
        if table is None:
            return
        async with table.lock:
            if table.window == window and table.status == "playing" and table.humans_owing():
                await self._notify(self.listener.reminded(table, table.humans_owing()))

    async def _expire(self, table_id: int, window: int) -> None:
        """The decision timer ran out: the game's timeout agent plays for every absent human."""
        for _ in range(3):
            table = await self._timer_table(table_id)
            if table is None:
                return
            async with table.lock:
                await self._sync(table)
                if table.window != window or table.status != "playing" or not table.humans_owing():
                    return
                absent = table.humans_owing()
                await self._note_timeouts(table, absent)
                try:
                    update = await self._advance(table, self._timeout_actions(table, absent), timed_out=absent)
                    self._fired(DECISION, update)
                    return
                except Stale:
                    table.stale = True  # another process moved first: look again
                except SessionError:
                    log.exception("table %s: timeout could not be applied", table.id)
                    return

    async def _note_timeouts(self, table: Table, absent: list[int]) -> None:
        """Record the timeouts before the moves they explain: the game's log tells them, also
        after a restart (a timeout recorded twice, by a retry, is one event)."""
        for seat in absent:
            event = SeatEvent(table.version, seat, "timeout")
            if event in table.seat_events:
                continue
            try:
                await self.repo.add_seat_event(table.id, event)
            except RepoUnavailable:
                raise
            except Exception:
                log.warning("table %s: the timeout of seat %s was not recorded", table.id, seat, exc_info=True)
            table.seat_events.append(event)

    def _timeout_actions(self, table: Table, absent: list[int]) -> list[tuple[int, Any]]:
        """Return what the timeout agent plays for the absent seats (whole turns in a sequential game)."""
        state, game = table.state, table.spec.game
        actions: list[tuple[int, Any]] = []
        assert table.seed is not None
        for seat in absent:
            # For a sequential game the timeout agent plays what the absent seat owes: the rest of
            # the turn in progress, chance draws inside it included (Indus: place, roll, move),
            # and never a turn of the seat's that begins after it.
            turn = table.spec.turn_of(state)
            while True:
                movers = game.to_move(state)
                if table.spec.turn_of(state) != turn:
                    break
                if seat in movers:
                    [(_, action)] = decide(self.specs, table.spec.name, state, table.seed,
                                           [(seat, "", table.version + len(actions))])
                elif movers == [CHANCE] and actions:
                    action = resolve_chance(game, state)
                else:
                    break
                mover = seat if seat in movers else CHANCE
                state, _, _ = step(table.spec, state, mover, action)
                actions.append((mover, action))
                if mover == CHANCE and seat not in game.to_move(state):
                    break
        return actions

    async def _auto(self, table_id: int, version: int) -> None:
        """Automatic play came due: AI seats that owe act together, or a finished game gets its result."""
        table = await self._timer_table(table_id)
        if table is None:
            return
        async with table.lock:
            await self._sync(table)
            if table.version != version or table.status != "playing":
                return
            if table.spec.game.is_over(table.state):
                # The last action was written but not the result (a crash, or another process died).
                await self._finish(table, Update(table, [], [], False))
                return
            # Every AI seat owing now acts: in a simultaneous window (Incan Gold) they choose
            # together, in one write and one redraw; in a turn-based game only one seat owes, and
            # the next AI turn waits its own delay. A seat whose decision is already in the pool
            # (an earlier timer of this window) is not asked again.
            decisions = self._decisions(table)
            seats = [s for s, _, _ in decisions]
            if not seats:
                if not table.thinking:
                    # Nothing for a bot: a chance draw or an action the rules play unasked may still
                    # be due (a start whose first draw was not written); play it, or nothing.
                    try:
                        await self._advance(table, [])
                    except Stale:
                        table.stale = True
                return
            assert table.seed is not None
            state, window, seed = table.state, table.window, table.seed
            ahead = self.ahead.take(table.id, table.version, decisions)
            table.thinking.update(seats)
        # The bots think without the table's lock: the pool may be busy with other tables' bots for
        # seconds, and a person's click at this table (choosing beside the bots, resigning) must
        # not wait for that.
        try:
            if ahead is None:
                ahead = self.ai.decide(table.spec.name, state, seed, decisions)
            actions = await ahead
        finally:
            table.thinking.difference_update(seats)
        async with table.lock:
            await self._sync(table)
            if table.status != "playing" or table.window != window:
                return  # overtaken (a timeout closed the window): that step armed what comes next
            game = table.spec.game
            owing = table.owing()
            actions = [(s, a) for s, a in actions if s in owing and table.seats[s].is_ai
                       and a in game.legal_actions(table.state, s)]
            if not actions:
                return
            try:
                self._fired(AUTO, await self._advance(table, actions))
            except Stale:
                table.stale = True  # whoever moved the table wrote its next AI timer too

    @staticmethod
    def _fired(kind: str, update: Update) -> None:
        if update.steps:
            fired.debug("table %s: the %s timer played %d action(s) at version %d", update.table.id, kind,
                        len(update.steps), update.start)

    # ------------------------------------------------------------------ coordination

    async def _gained(self, buckets: Iterable[int] | None) -> None:
        """Timers became ours (start-up, or a lease taken over): arm them from the store, one query."""
        wanted = None if buckets is None else sorted(buckets)
        if wanted is not None and not wanted:
            return
        for number, timer in enumerate(await self.repo.timers(wanted, self.coordinator.bucket_count)):
            self._arm(timer)
            if number % 500 == 499:
                await asyncio.sleep(0)  # thousands of timers: let clicks in between

    async def _lost(self, buckets: Iterable[int]) -> None:
        """Timers stopped being ours (a lease given up or expired): stop running them."""
        gone = set(buckets)
        for table_id in self.timers.tables():
            if self.coordinator.bucket_of(table_id) in gone:
                self.timers.cancel(table_id)
        for table_id in list(self.tables):
            if self.coordinator.bucket_of(table_id) in gone:
                self.ahead.drop(table_id)  # its bots now think in the process that runs its timers

    async def _changed(self, table_id: int) -> None:
        """Another process wrote to a table: mark the cache stale and re-arm its timers if they are ours."""
        table = self.tables.get(table_id)
        if table is not None:
            table.stale = True
        if self.coordinator.owns(table_id):
            for timer in await self.repo.timers(table_ids=[table_id]):
                self._arm(timer)
                version = timer.version or 0
                if timer.kind == AUTO and timer.due > self.clock.now() and not self.ahead.started(table_id, version):
                    await self._think_ahead_of(table, table_id, version)

    async def _think_ahead_of(self, cached: Table | None, table_id: int, version: int) -> None:
        """A bot turn whose timer is ours was written (by another process, or heard back from this
        one): start its decision now, as a process running its own timers does in :meth:`_advance`.
        A failure here only costs the head start: the timer decides anyway."""
        if cached is not None and cached.version == version:
            # The cache holds that very version (this process's own write, heard back): a decision
            # depends on nothing else, so no read is needed (should the table have moved on since,
            # the answer is merely stale).
            if cached.status == "playing":
                self._think_ahead(cached)
            return
        try:
            table = await self._timer_table(table_id)  # loaded and brought up to date
        except (RepoUnavailable, Stale) as exc:
            log.info("table %s: no head start for its bots (%s)", table_id, exc)
            return
        if table is not None and table.version == version and table.status == "playing":
            self._think_ahead(table)
