"""Clocks for the session layer: the real one (asyncio) and a manual one for tests and benchmarks.

Timers are stored as wall-clock epoch seconds so they survive a restart; a clock turns such a
deadline into a scheduled coroutine call. The manual clock never sleeps: ``advance`` runs every
timer that came due, in order, and waits for it to finish.
"""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["Clock", "Handle", "ManualClock", "SystemClock"]

Callback = Callable[[], Awaitable[None]]


class Handle(Protocol):
    """A scheduled call that can be cancelled."""

    def cancel(self) -> None:
        """Stop the call if it has not run yet."""
        ...


class Clock(Protocol):
    """Wall-clock time and scheduling, injected into the session layer."""

    def now(self) -> float:
        """Return the time in seconds since the Unix epoch."""
        ...

    def call_at(self, when: float, callback: Callback) -> Handle:
        """Run ``callback()`` at epoch time ``when`` (at once if it is already past)."""
        ...

    async def drain(self) -> None:
        """Fire no more timers; return once the callbacks running now have finished (a clean
        shutdown lets a timer's write complete: the stored deadlines re-arm it after a restart)."""
        ...


class _TaskHandle:
    def __init__(self, timer: asyncio.TimerHandle) -> None:
        self.timer = timer
        self.task: asyncio.Task[None] | None = None

    def cancel(self) -> None:
        self.timer.cancel()
        # A timer's own task re-arms the table's timers (an AI turn, a timeout): cancelling itself
        # would abort the very update it is drawing. A running task of another timer is stale.
        if self.task is not None and not self.task.done() and self.task is not asyncio.current_task():
            self.task.cancel()


class SystemClock:
    """The real clock: ``time.time`` and the running asyncio loop."""

    def __init__(self) -> None:
        self.tasks: set[asyncio.Task[None]] = set()
        self.stopped = False

    def now(self) -> float:
        """Return the time in seconds since the Unix epoch."""
        return time.time()

    def call_at(self, when: float, callback: Callback) -> Handle:
        """Run ``callback()`` in a task at epoch time ``when``."""
        loop = asyncio.get_running_loop()
        handle: _TaskHandle

        def fire() -> None:
            if self.stopped:
                return
            task = loop.create_task(_run(callback))
            handle.task = task
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

        # A fresh context: a timer armed while handling a click must not inherit that task's
        # context variables (e.g. the language the click's replies are drawn in, i18n's reader).
        handle = _TaskHandle(loop.call_later(max(0.0, when - self.now()), fire, context=contextvars.Context()))
        return handle

    async def drain(self) -> None:
        """Fire no more timers; wait for the callbacks running now (and any they start meanwhile)."""
        self.stopped = True
        while self.tasks:
            await asyncio.wait(set(self.tasks))


async def _run(callback: Callback) -> None:
    await callback()


class _ManualHandle:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when told: ``await clock.advance(seconds)`` runs due timers."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.time = start
        self._queue: list[tuple[float, int, _ManualHandle, Callback]] = []
        self._order = itertools.count()

    def now(self) -> float:
        """Return the manual time."""
        return self.time

    def call_at(self, when: float, callback: Callback) -> Handle:
        """Queue ``callback()`` for manual time ``when``."""
        handle = _ManualHandle()
        heapq.heappush(self._queue, (when, next(self._order), handle, callback))
        return handle

    def pending(self) -> list[float]:
        """Return the due times of the timers still armed, soonest first."""
        return sorted(when for when, _, handle, _ in self._queue if not handle.cancelled)

    async def advance(self, seconds: float = 0.0) -> None:
        """Move time forward, running (and awaiting) every timer due by then, in order."""
        target = self.time + seconds
        while self._queue and self._queue[0][0] <= target:
            when, _, handle, callback = heapq.heappop(self._queue)
            if handle.cancelled:
                continue
            self.time = max(self.time, when)
            await callback()
        self.time = target

    async def drain(self) -> None:
        """Nothing to wait for: timers run only inside ``advance`` (a test keeps its clock across a
        restart, so draining stops nothing)."""
