"""What runs when a table's timer fires: :class:`TimerWork`, the handlers that serve the alarms.

A table's deadlines are stored; each becomes an in-memory timer in the process that runs the
table's timers (:mod:`engine.session.alarms`), naming only the table and the version it belongs
to. Firing, it loads the table if need be and checks that the version still holds: the reminder
before a decision deadline, the moment a correspondence decision has waited its patience, the
timeout (the game's timeout agent plays for every absent person), and automatic play (the bots
that owe, together; a chance draw; a result not yet written). With several processes, timers
follow the leases (:meth:`TimerWork.gained`, ``lost``), and a write heard from another process
re-arms the table's timers and starts its bots thinking.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Iterable
from dataclasses import replace
from typing import Any

from engine.core import CHANCE, resolve_chance
from engine.session.absence import Absence
from engine.session.ai_pool import decide
from engine.session.contract import AUTO, DECISION, RepoUnavailable, SeatEvent, SessionError, Stale
from engine.session.missed import owed_actions
from engine.session.opening import Opening
from engine.session.options import AWAY_DECISIONS
from engine.session.play import Play
from engine.session.schedule import FILL_WITH, START_AT
from engine.session.table import Table, Update

__all__ = ["TimerWork"]

log = logging.getLogger("engine.session")

FINISHING_S = 2.0
"""How long the process running a table's timers waits before doing the automatic play it heard
became due at once in another process's write: the result of a game whose last move that write
was, which its writer writes milliseconds later (a bot's turn is due after its delay, not at once).
Doing it at once made the two processes finish one game at the same moment."""

fired = logging.getLogger("engine.session.fired")
"""One DEBUG line per timer that played actions: which process ran which table's timers, for the
multi-process chaos test (tests/chaos/harness/kills.py), which turns it on in its bot processes."""


class TimerWork:
    """The timers' handlers: they work through the play (and its cache) they are given."""

    def __init__(self, play: Play, absence: Absence, opening: Opening) -> None:
        self.play = play
        self.absence = absence  # seats of people away too long, played by the table's bot
        self.opening = opening  # a scheduled table starts as a host's Start does
        # The timers' work acts on the same tables, store and bots as the play it goes through:
        # one of each per Sessions, taken from the play rather than passed twice.
        self.cache = play.cache
        self.alarms = play.alarms
        self.specs = play.cache.specs
        self.repo = play.repo
        self.listener = play.listener
        self.clock = play.clock
        self.coordinator = play.coordinator
        self.ai = play.ai
        self.ahead = play.ahead

    def failed(self, table_id: int) -> None:
        """A timer's work failed: a write may have failed half-way, so the cached table is reloaded
        before it is acted on again."""
        table = self.cache.loaded(table_id)
        if table is not None:
            table.stale = True

    async def _timer_table(self, table_id: int) -> Table | None:
        """Return the table a timer fired for, loaded and up to date, or None when it is not ours or over."""
        if not self.coordinator.owns(table_id):
            return None
        try:
            return await self.cache.get(table_id)
        except SessionError:
            return None

    @contextlib.asynccontextmanager
    async def _waiting(self, table_id: int, window: int) -> AsyncIterator[Table | None]:
        """Hold the lock of the table a decision's in-memory timer (a reminder, its waited moment)
        fired for, loaded if need be; None when it is not ours, over, past that window, or waits
        for no person any more."""
        table = await self._timer_table(table_id)
        if table is None:
            yield None
            return
        async with table.lock:
            yield table if table.window == window and table.status == "playing" and table.humans_owing() else None

    async def remind(self, table_id: int, window: int) -> None:
        async with self._waiting(table_id, window) as table:
            if table is not None:
                await self.play.notify(self.listener.reminded(table, table.humans_owing()))

    async def waited(self, table_id: int, window: int) -> None:
        """A correspondence decision window has been open for its patience: the listener may act on
        the wait (Incan Gold tells the last few and redraws its count). The table is loaded for it
        when it was not (after a restart, or unloaded while idle): once per correspondence window."""
        async with self._waiting(table_id, window) as table:
            if table is not None:
                await self.play.notify(self.listener.waited(table))

    async def expire(self, table_id: int, window: int) -> None:
        """The decision timer ran out: the game's timeout agent plays for every absent human (and a
        person away too long at a correspondence table is then played by the table's bot)."""
        for _ in range(3):
            table = await self._timer_table(table_id)
            if table is None:
                return
            async with table.lock:
                await self.cache.sync(table)
                if table.window != window or table.status != "playing" or not table.humans_owing():
                    return
                absent = table.humans_owing()
                await self.absence.recount(table)  # before this timeout is noted: it counts once
                for seat in await self._note_timeouts(table, absent):  # once per decision, not per retry
                    table.away[seat] = table.away.get(seat, 0) + 1
                if table.everyone_away(AWAY_DECISIONS):
                    # Nobody plays any more: end it rather than let the timeout agent play it out
                    # (a result nobody played, DMs to people who are not there).
                    await self.play.end(table, "abandoned", "away")
                    return
                try:
                    update = await self.play.advance(table, self._timeout_actions(table, absent), timed_out=absent)
                    self._fired(DECISION, update)
                    # The decision that timed out was played as always; a person away too long is
                    # then the bot's from their next decision (correspondence tables only).
                    await self.absence.take_over(table, self.absence.due(table, absent))
                    return
                except Stale:
                    table.stale = True  # another process moved first: look again
                except SessionError:
                    log.exception("table %s: timeout could not be applied", table.id)
                    return

    async def _note_timeouts(self, table: Table, absent: list[int]) -> list[int]:
        """Record the timeouts before the moves they explain: the game's log tells them, also
        after a restart (a timeout recorded twice, by a retry, is one event). Return the seats
        whose timeout is new (not one a failed attempt already recorded)."""
        new = []
        for seat in absent:
            event = SeatEvent(table.version, seat, "timeout")
            if event in table.seat_events:
                continue
            new.append(seat)
            try:
                await self.repo.add_seat_event(table.id, event)
            except RepoUnavailable:
                raise
            except Exception:
                log.warning("table %s: the timeout of seat %s was not recorded", table.id, seat, exc_info=True)
            table.seat_events.append(event)
        return new

    def _timeout_actions(self, table: Table, absent: list[int]) -> list[tuple[int, Any]]:
        """Return what the timeout agent plays for the absent seats (whole turns in a sequential game)."""
        game, seed = table.spec.game, table.seed
        assert seed is not None

        def choose(mover: int, state: Any, played: int) -> Any:
            if mover == CHANCE:
                return resolve_chance(game, state)
            [(_, action)] = decide(self.specs, table.spec.name, state, seed, [(mover, "", table.version + played)])
            return action

        return owed_actions(table.spec, table.state, absent, choose)

    @contextlib.asynccontextmanager
    async def _lobby(self, table_id: int) -> AsyncIterator[Table | None]:
        """Hold the lock of the lobby a timer fired for, brought up to date; None when it is not
        ours or no longer a lobby (started or ended meanwhile: the stored timer is simply spent)."""
        table = await self._timer_table(table_id)
        if table is None:
            yield None
            return
        async with table.lock:
            await self.cache.sync(table)
            yield table if table.status == "lobby" else None

    async def lobby_idle(self, table_id: int) -> None:
        """A lobby nobody started in time closes: announced in place, its channel free again."""
        async with self._lobby(table_id) as table:
            if table is not None:
                await self.play.end(table, "cancelled", "expired")

    async def start_soon(self, table_id: int) -> None:
        """A scheduled table starts shortly: its seated people are reminded (if it is still a lobby)."""
        async with self._lobby(table_id) as table:
            if table is not None and START_AT in table.table_options:
                await self.play.notify(self.listener.start_soon(table))

    async def start_due(self, table_id: int) -> None:
        """A scheduled table's time came: it starts when it has enough players, or once bots of the
        level the host chose fill the seats it lacks; without that choice it waits for its host
        (its lobby timer closes it if nobody starts it)."""
        async with self._lobby(table_id) as table:
            if table is None:
                return
            level = table.table_options.get(FILL_WITH)
            missing = max(0, table.spec.min_players - len(table.seats))
            if missing and level is None:
                return
            for _ in range(missing):
                await self.opening.seat_bot(table, str(level))
            await self.opening.start(table)

    async def auto(self, table_id: int, version: int) -> None:
        """Automatic play came due: AI seats that owe act together, or a finished game gets its result."""
        table = await self._timer_table(table_id)
        if table is None:
            return
        async with table.lock:
            await self.cache.sync(table)
            if table.version != version or table.status != "playing":
                return
            if table.spec.game.is_over(table.state):
                # The last action was written but not the result (a crash, or another process died).
                await self.play.finish(table, Update(table, [], [], False))
                return
            # Every AI seat owing now acts: in a simultaneous window (Incan Gold) they choose
            # together, in one write and one redraw; in a turn-based game only one seat owes, and
            # the next AI turn waits its own delay. A seat whose decision is already in the pool
            # (an earlier timer of this window) is not asked again.
            decisions = self.play.decisions(table)
            seats = [s for s, _, _ in decisions]
            if not seats:
                if not table.thinking:
                    # Nothing for a bot: a chance draw or an action the rules play unasked may still
                    # be due (a start whose first draw was not written); play it, or nothing.
                    try:
                        await self.play.advance(table, [])
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
            await self.cache.sync(table)
            if table.status != "playing" or table.window != window:
                return  # overtaken (a timeout closed the window): that step armed what comes next
            game = table.spec.game
            owing = table.owing()
            actions = [(s, a) for s, a in actions if s in owing and table.seats[s].is_ai
                       and a in game.legal_actions(table.state, s)]
            if not actions:
                return
            try:
                self._fired(AUTO, await self.play.advance(table, actions))
            except Stale:
                table.stale = True  # whoever moved the table wrote its next AI timer too

    @staticmethod
    def _fired(kind: str, update: Update) -> None:
        if update.steps:
            fired.debug("table %s: the %s timer played %d action(s) at version %d", update.table.id, kind,
                        len(update.steps), update.start)

    # ------------------------------------------------------------------ coordination

    async def gained(self, buckets: Iterable[int] | None) -> None:
        """Timers became ours (start-up, or a lease taken over): arm them from the store, one query."""
        wanted = None if buckets is None else sorted(buckets)
        if wanted is not None and not wanted:
            return
        for number, timer in enumerate(await self.repo.timers(wanted, self.coordinator.bucket_count)):
            self.alarms.arm(timer)
            if number % 500 == 499:
                await asyncio.sleep(0)  # thousands of timers: let clicks in between

    async def lost(self, buckets: Iterable[int]) -> None:
        """Timers stopped being ours (a lease given up or expired): stop running them."""
        gone = set(buckets)
        for table_id in self.alarms.book.tables():
            if self.coordinator.bucket_of(table_id) in gone:
                self.alarms.book.cancel(table_id)
        for table_id in list(self.cache.tables):
            if self.coordinator.bucket_of(table_id) in gone:
                self.ahead.drop(table_id)  # its bots now think in the process that runs its timers

    async def changed(self, table_id: int) -> None:
        """Another process wrote to a table: mark the cache stale and re-arm its timers if they are ours.

        An automatic timer due already is, as a rule, the one written with a game's last move: the
        writer is writing the result this very moment, so it waits :data:`FINISHING_S` here (it
        finishes the game only if the writer could not; see :meth:`Play.finish`).
        """
        table = self.cache.loaded(table_id)
        if table is not None:
            table.stale = True
        if self.coordinator.owns(table_id):
            for timer in await self.repo.timers(table_ids=[table_id]):
                now = self.clock.now()
                if timer.kind == AUTO and timer.due <= now:  # a result (no bot turn: nothing to think ahead)
                    self.alarms.arm(replace(timer, due=now + FINISHING_S))
                    continue
                self.alarms.arm(timer)
                version = timer.version or 0
                if timer.kind == AUTO and not self.ahead.started(table_id, version):
                    await self._think_ahead_of(table, table_id, version)

    async def _think_ahead_of(self, cached: Table | None, table_id: int, version: int) -> None:
        """A bot turn whose timer is ours was written (by another process, or heard back from this
        one): start its decision now, as a process running its own timers does in :meth:`Play.advance`.
        A failure here only costs the head start: the timer decides anyway."""
        if cached is not None and cached.version == version:
            # The cache holds that very version (this process's own write, heard back): a decision
            # depends on nothing else, so no read is needed (should the table have moved on since,
            # the answer is merely stale).
            if cached.status == "playing":
                self.play.think_ahead(cached)
            return
        try:
            table = await self._timer_table(table_id)  # loaded and brought up to date
        except (RepoUnavailable, Stale) as exc:
            log.info("table %s: no head start for its bots (%s)", table_id, exc)
            return
        if table is not None and table.version == version and table.status == "playing":
            self.play.think_ahead(table)
