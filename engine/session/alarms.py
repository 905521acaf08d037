"""Arming a table's timers in this process, and arming one again when its work fails.

A table's deadlines are stored; each becomes an in-memory timer here (:class:`TimerBook`), naming
only the table and the version it belongs to. What a timer does when it fires is not known here:
it is the :class:`TimerHandlers`' (:class:`engine.session.timer_work.TimerWork`), which serve
the alarms once they exist. Play arms timers and the timers' work plays, so one of the two must
be handed the other after both are made: the handlers are, through :meth:`Alarms.serve`.

A timer whose work fails is armed again with a backoff, so a fault never leaves a table stuck.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Protocol

from engine.clock import Clock
from engine.session.contract import (
    AUTO,
    DECISION,
    LOBBY,
    START,
    RepoUnavailable,
    SessionError,
    SessionSettings,
    StoredTimer,
)
from engine.session.pace import CORRESPONDENCE, pace_of, patience_s, reminder_offsets
from engine.session.schedule import START_REMINDER_S
from engine.session.timers import Coordinator, TimerBook

__all__ = ["DECISION_PARTS", "REMIND", "RETRY_S", "START_SOON", "WAITED", "Alarms", "TimerHandlers"]

log = logging.getLogger("engine.session")

REMIND = "remind"  # the in-memory reminders before a decision deadline (derived from it, never stored)
WAITED = "waited"  # a correspondence decision window open for its patience (derived from its deadline, never stored)
DECISION_PARTS = (REMIND, WAITED, DECISION)
"""A decision's stored timer and the in-memory ones derived from it: a new window replaces them all."""
START_SOON = "start-soon"  # the in-memory reminder before a scheduled start (derived from it, never stored)
RETRY_S = (1.0, 2.0, 5.0, 10.0, 30.0)  # a timer whose work met an unreachable database tries again


class TimerHandlers(Protocol):
    """What runs when a table's timer fires (each names the table and the version it was armed for)."""

    async def remind(self, table_id: int, window: int) -> None:
        """The reminder before a decision deadline."""
        ...

    async def waited(self, table_id: int, window: int) -> None:
        """A correspondence decision window has been open for its patience (:func:`patience_s`)."""
        ...

    async def expire(self, table_id: int, window: int) -> None:
        """The decision deadline passed."""
        ...

    async def auto(self, table_id: int, version: int) -> None:
        """Automatic play came due (bots, a chance draw, a result not yet written)."""
        ...

    async def lobby_idle(self, table_id: int) -> None:
        """A lobby's time ran out with nobody starting it."""
        ...

    async def start_soon(self, table_id: int) -> None:
        """A scheduled table starts shortly."""
        ...

    async def start_due(self, table_id: int) -> None:
        """A scheduled table's time came."""
        ...

    def failed(self, table_id: int) -> None:
        """A timer's work failed half-way: the table's cached state is no longer to be trusted."""
        ...


class Alarms:
    """The timers this process runs: armed from stored deadlines, re-armed with backoff on failure."""

    def __init__(self, clock: Clock, coordinator: Coordinator, settings: SessionSettings,
                 simultaneous: Collection[str] | None = None) -> None:
        self.clock = clock
        self.coordinator = coordinator
        self.settings = settings
        # The games whose seats decide at once (GameSpec.deciding): only their decisions have a
        # waited moment. In a game of one mover at a time nobody is "the last few", and the moment
        # would load a table (after a restart, or unloaded while idle) only to do nothing. None: all.
        self.simultaneous = None if simultaneous is None else frozenset(simultaneous)
        self.book = TimerBook(clock)
        self.book.promote_with(self.arm)
        self._handlers: TimerHandlers | None = None

    def serve(self, handlers: TimerHandlers) -> None:
        """Name what the timers run when they fire (before the first timer is armed)."""
        self._handlers = handlers

    @property
    def handlers(self) -> TimerHandlers:
        """Return what the timers run; it serves them before anything is armed."""
        assert self._handlers is not None, "Alarms.serve() was not called"
        return self._handlers

    def arm(self, timer: StoredTimer) -> None:
        """Arm a stored (or just written) timer in this process, if this process runs the table's timers.

        A timer whose first part (a decision's first reminder or waited moment still to come, else
        the timer itself) is beyond the book's horizon waits in the book as data and comes back here
        once it is near (see TimerBook.wait).
        """
        table_id, due, version = timer.table_id, timer.due, timer.version or 0
        if not self.coordinator.owns(table_id):
            return
        if timer.kind not in (DECISION, AUTO, LOBBY, START) or self.book.superseded(table_id, timer.kind, version):
            return
        waited: list[float] = []
        if timer.kind == DECISION:
            reminders, waited = self._reminders(timer), self._waited(timer)
        elif timer.kind == START:
            # A scheduled start's reminder is derived from it, so a restart before it arms it again
            # (and one after it does not remind twice).
            reminders = [due - START_REMINDER_S] if due - START_REMINDER_S > self.clock.now() else []
        else:
            reminders = []
        first = min([due, *reminders, *waited])
        if not self.book.near(first):
            parts = {DECISION: list(DECISION_PARTS), START: [START_SOON, START]}.get(timer.kind, [timer.kind])
            self.book.wait(timer, first, parts)
            return
        handlers = self.handlers
        if timer.kind == DECISION:
            self.arm_reminders(table_id, version, reminders)
            for moment in waited:
                self.arm_work(table_id, WAITED, moment, version, lambda: handlers.waited(table_id, version))
            self.arm_work(table_id, DECISION, due, version, lambda: handlers.expire(table_id, version))
        elif timer.kind == AUTO:
            self.arm_auto(table_id, due, version)
        elif timer.kind == START:
            for moment in reminders:
                self.arm_work(table_id, START_SOON, moment, version, lambda: handlers.start_soon(table_id))
            self.arm_work(table_id, START, due, version, lambda: handlers.start_due(table_id))
        else:
            self.arm_work(table_id, LOBBY, due, version, lambda: handlers.lobby_idle(table_id))

    def _reminders(self, timer: StoredTimer) -> list[float]:
        """Return when a decision timer's reminders are due that are still to come, earliest first."""
        offsets = reminder_offsets(timer.span, self.settings.reminder_before_s) if timer.span is not None \
            else (self.settings.reminder_before_s,)  # the decision time is not known: as a live table
        now = self.clock.now()
        return sorted(moment for moment in (timer.due - offset for offset in offsets) if moment > now)

    def _waited(self, timer: StoredTimer) -> list[float]:
        """Return when a correspondence decision's window will have been open for its patience, if
        that is still to come (a live table has none: its patience is the live constant, acted on
        in memory). Derived from the stored deadline and decision time (the window opened at
        ``due - span``), like the reminders: a restart or an unloaded table keeps it, and one past
        already is not acted on again (as a reminder past is not sent again)."""
        span = timer.span
        if span is None or pace_of(span) != CORRESPONDENCE:
            return []
        if self.simultaneous is not None and timer.game is not None and timer.game not in self.simultaneous:
            return []  # one mover at a time: nothing waits on the last few
        moment = timer.due - span + patience_s(span, 0.0)
        return [moment] if moment > self.clock.now() else []

    def arm_reminders(self, table_id: int, version: int, times: Sequence[float]) -> None:
        """Arm the first of a decision's reminders still to come; when it fires, the next one.

        The book keeps one timer per (table, kind), so a table's reminders are armed one after the
        other rather than side by side; the ones already past (a restart late in the window) are
        skipped, so nobody is reminded twice of the same time.
        """
        now = self.clock.now()
        later = sorted(moment for moment in times if moment > now)
        if not later:
            return
        handlers, first, rest = self.handlers, later[0], later[1:]

        async def remind() -> None:
            await handlers.remind(table_id, version)
            self.arm_reminders(table_id, version, rest)

        self.arm_work(table_id, REMIND, first, version, remind)

    def arm_auto(self, table_id: int, due: float, version: int, *, of: int | None = None, attempt: int = 0) -> None:
        """Arm automatic play at ``due`` for ``version`` (its work checks version ``of``, by default the same)."""
        handlers, checked = self.handlers, version if of is None else of
        self.arm_work(table_id, AUTO, due, version, lambda: handlers.auto(table_id, checked), attempt)

    def arm_work(self, table_id: int, kind: str, due: float, version: int, work: Callable[[], Awaitable[None]],
                 attempt: int = 0) -> None:
        """Arm a timer's work; when it fails, arm it again with backoff (see :meth:`_timer`)."""
        self.book.arm(table_id, kind, due, version, self._timer(table_id, kind, version, work, attempt))

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
                    # Another process ended the table while this timer waited for its lock (bringing
                    # it up to date found it over and forgot it), or as this timer was ending it (the
                    # store refused the second end: Play.end forgot it). Nothing is left to do, or to retry.
                    return
                self.handlers.failed(table_id)  # a write may have failed half-way: reload before acting again
                delay = RETRY_S[min(attempt, len(RETRY_S) - 1)]
                if isinstance(exc, RepoUnavailable):
                    log.warning("table %s: the database is unreachable; the %s timer tries again in %gs",
                                table_id, kind, delay)
                else:  # the first time with its traceback; a fault that lasts logs one line per retry
                    log.warning("table %s: the %s timer failed (%s); it tries again in %gs", table_id, kind,
                                exc, delay, exc_info=attempt == 0)
                self.arm_work(table_id, kind, self.clock.now() + delay, version, work, attempt + 1)

        return run
