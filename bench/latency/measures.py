"""What a run measures: each press's moments, the tallies, and the clock the sessions run on."""

from __future__ import annotations

import asyncio
import contextvars
import heapq
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from engine.clock import ManualClock


@dataclass
class Click:
    """One press and the moments that matter, in perf_counter seconds."""

    table: int
    sent: float
    moves: bool  # plays a move (not only a sub-menu or the Choose button)
    acked: float | None = None  # the interaction's first response reached Discord
    deferred: bool = False  # that response was a deferral (the redraw came later)
    posted: float | None = None  # the bot asked for the public message to show the move
    public: float | None = None  # the public message showing it reached Discord


CLICK: contextvars.ContextVar[Click | None] = contextvars.ContextVar("bench_click", default=None)
"""Set by a person's task before it presses: every task the press causes inherits it."""

HANDED: contextvars.ContextVar[float | None] = contextvars.ContextVar("bench_handed", default=None)
"""When the bot handed the REST call being answered to discord.py (before any bucket wait)."""


@dataclass
class Tally:
    """What is counted while measuring."""

    units: int = 0  # revealed cards (Incan Gold) or accepted moves (Sakkara, Indus)
    limited: Counter[str] = field(default_factory=Counter)  # rate-limited REST calls by kind
    r429: int = 0
    loop_lag: list[float] = field(default_factory=list)  # how late the clock ticker woke (s)
    on_wire: list[float] = field(default_factory=list)  # outbox calls: budget taken -> call ended (s)
    requests: list[float] = field(default_factory=list)  # budget taken -> its requests ended (tokens back)
    failed_presses: int = 0  # a press the fake refused (the control was gone) or never answered


class BenchClock(ManualClock):
    """A ManualClock whose timers that come due in one step run together (as on a real loop)."""

    async def advance_together(self, seconds: float) -> None:
        """Move time forward and run every timer due by then concurrently; repeat for timers they arm."""
        target = self.time + seconds
        self.time = target
        while self._queue and self._queue[0][0] <= target:
            due: list[Callable[[], Awaitable[None]]] = []
            while self._queue and self._queue[0][0] <= target:
                _, _, handle, callback = heapq.heappop(self._queue)
                if not handle.cancelled:
                    due.append(callback)
            await asyncio.gather(*(c() for c in due))


def cpu_wait_s() -> float | None:
    """Return how long the event loop's thread has waited for a CPU so far (Linux schedstat), or None.

    On a shared machine other processes' work delays every click; this says by how much.
    """
    try:
        with open(f"/proc/self/task/{os.getpid()}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None
