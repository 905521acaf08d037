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
class _Pending:
    version: int
    decisions: tuple[Decision, ...]
    task: asyncio.Future[list[tuple[int, Any]]]


class Ahead:
    """The AI decisions started ahead of their timers, one per table at most."""

    def __init__(self, ai: AiPool) -> None:
        self.ai = ai
        self._pending: dict[int, _Pending] = {}

    def __len__(self) -> int:
        return len(self._pending)

    def start(self, table_id: int, game: str, state: Any, seed: int, version: int,
              decisions: Sequence[Decision]) -> None:
        """Start deciding for ``decisions`` at ``version`` of a table (replacing an older start)."""
        self.drop(table_id)
        task = asyncio.ensure_future(self._think(game, state, seed, decisions))
        task.add_done_callback(_retrieve)
        self._pending[table_id] = _Pending(version, tuple(decisions), task)

    async def _think(self, game: str, state: Any, seed: int, decisions: Sequence[Decision]
                     ) -> list[tuple[int, Any]]:
        # A task of its own name: nothing waits for it until the timer (the fake Discord's tests
        # let it run in the background, as they do a view's timeout).
        return await self.ai.decide(game, state, seed, decisions)

    def started(self, table_id: int, version: int) -> bool:
        """Return whether a decision was started for this version of the table."""
        pending = self._pending.get(table_id)
        return pending is not None and pending.version == version

    def take(self, table_id: int, version: int, decisions: Sequence[Decision]
             ) -> Awaitable[list[tuple[int, Any]]] | None:
        """Return the decision started for exactly this version and these seats, or None (a stale one
        is dropped)."""
        pending = self._pending.pop(table_id, None)
        if pending is None:
            return None
        if pending.version == version and pending.decisions == tuple(decisions):
            return pending.task
        pending.task.cancel()
        return None

    def drop(self, table_id: int) -> None:
        """Forget a table's decision started ahead (the table ended or moved on)."""
        pending = self._pending.pop(table_id, None)
        if pending is not None:
            pending.task.cancel()  # a worker already computing finishes, and its answer is ignored


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Mark a dropped decision's outcome as seen: its error is the timer's to meet, not the loop's to log."""
    if not task.cancelled():
        task.exception()
