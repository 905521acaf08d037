"""Bots think during their pause: a delayed AI turn's decision starts when the turn begins.

A bot seat waits ``ai_delay_s`` before it acts, so people can follow the game. That pause used to
be idle: the decision started when it ended, so a Hard search (up to its budget) came on top of
it. Now the decision is sent to the AI pool as soon as the turn is written, and the timer that
plays it at the end of the pause takes the answer that is by then usually ready; the bot acts
after max(pause, thinking), never pause + thinking.

A decision is a pure function of (state, seed, log position), so the answer computed ahead is
exactly the one the timer would compute; it is used only when the table is still at the version
it was computed for, with the same seats to decide. Anything else (a person chose first in a
simultaneous window, a timeout, another process's write) makes it stale: it is dropped and the
timer decides afresh.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.session.ai_pool import AiPool, Decision

__all__ = ["Ahead"]


@dataclass(frozen=True)
class _Ask:
    game: str
    state: Any
    seed: int
    version: int
    decisions: tuple[Decision, ...]


@dataclass(frozen=True)
class _Pending:
    ask: _Ask
    task: asyncio.Future[list[tuple[int, Any]]]


class Ahead:
    """The AI decisions started ahead of their timers: at most one computing per table."""

    def __init__(self, ai: AiPool) -> None:
        self.ai = ai
        self._pending: dict[int, _Pending] = {}
        self._next: dict[int, _Ask] = {}  # asked while the table's previous search was still computing

    def __len__(self) -> int:
        return len(self._pending)

    def start(self, table_id: int, game: str, state: Any, seed: int, version: int,
              decisions: Sequence[Decision]) -> None:
        """Start deciding for ``decisions`` at ``version`` of a table (the same again: nothing to do)."""
        ask = _Ask(game, state, seed, version, tuple(decisions))
        pending = self._pending.get(table_id)
        if pending is not None and (pending.ask.version, pending.ask.decisions) == (version, ask.decisions):
            return
        if pending is not None and not pending.task.done():
            # A person's click in a simultaneous window (Incan Gold) moves the version while the bots
            # search. Cancelling cannot stop a worker that has begun, so a restart per click would
            # pile searches up: the one under way finishes, then the newest position is searched.
            self._next[table_id] = ask
            return
        self._next.pop(table_id, None)
        self._launch(table_id, ask)

    def _launch(self, table_id: int, ask: _Ask) -> None:
        task = asyncio.ensure_future(self._think(ask))
        task.add_done_callback(lambda done: self._done(table_id, done))
        self._pending[table_id] = _Pending(ask, task)

    async def _think(self, ask: _Ask) -> list[tuple[int, Any]]:
        # A task of its own name: nothing waits for it until the timer (the fake Discord's tests
        # let it run in the background, as they do a view's timeout).
        return await self.ai.decide(ask.game, ask.state, ask.seed, ask.decisions)

    def _done(self, table_id: int, task: asyncio.Future[Any]) -> None:
        if not task.cancelled():
            task.exception()  # seen here: an error is the timer's to meet (it decides afresh), not the loop's to log
        pending = self._pending.get(table_id)
        if pending is not None and pending.task is task and table_id in self._next:
            self._launch(table_id, self._next.pop(table_id))

    def holds(self, table_id: int) -> bool:
        """Return whether anything was started or queued for the table (its decision not yet taken)."""
        return table_id in self._pending or table_id in self._next

    def started(self, table_id: int, version: int) -> bool:
        """Return whether a decision was started (or queued) for this version of the table."""
        pending, queued = self._pending.get(table_id), self._next.get(table_id)
        return ((pending is not None and pending.ask.version == version)
                or (queued is not None and queued.version == version))

    def take(self, table_id: int, version: int, decisions: Sequence[Decision]
             ) -> Awaitable[list[tuple[int, Any]]] | None:
        """Return the decision started for exactly this version and these seats, or None (anything
        else of the table's is dropped: the caller decides afresh)."""
        pending = self._pending.pop(table_id, None)
        self._next.pop(table_id, None)
        if pending is None:
            return None
        if (pending.ask.version, pending.ask.decisions) == (version, tuple(decisions)):
            return pending.task
        pending.task.cancel()
        return None

    def drop(self, table_id: int) -> None:
        """Forget a table's decisions started ahead (the table ended, or its timers went elsewhere)."""
        self._next.pop(table_id, None)
        pending = self._pending.pop(table_id, None)
        if pending is not None:
            pending.task.cancel()  # a worker already computing finishes, and its answer is ignored

    def clear(self) -> None:
        """Forget every decision started ahead (the session layer is closing)."""
        for table_id in list(self._pending):
            self.drop(table_id)
        self._next.clear()


