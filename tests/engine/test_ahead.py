"""Decisions started ahead of their timers: one search at a time per table, the newest position next."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from engine.session.ahead import Ahead
from engine.session.ai_pool import AiPool, Decision
from engine.session.games import SPECS


class HeldPool(AiPool):
    """Answers each decision with its own log positions, when the test releases it."""

    def __init__(self) -> None:
        super().__init__(SPECS, workers=0)
        self.asked: list[int] = []  # the first position of every decision that began computing
        self.release: dict[int, asyncio.Event] = {}

    async def decide(self, game: str, state: Any, seed: int, decisions: Sequence[Decision]
                     ) -> list[tuple[int, Any]]:
        first = decisions[0][2]
        self.asked.append(first)
        event = self.release.setdefault(first, asyncio.Event())
        await event.wait()
        return [(seat, position) for seat, _, position in decisions]


def asks(version: int) -> list[Decision]:
    return [(0, "hard", version), (1, "hard", version + 1)]


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_newer_position_waits_for_the_search_under_way_then_is_searched():
    pool = HeldPool()
    ahead = Ahead(pool)
    ahead.start(7, "incan_gold", None, 1, 10, asks(10))
    await settle()
    ahead.start(7, "incan_gold", None, 1, 11, asks(11))  # a person chose: the version moved
    ahead.start(7, "incan_gold", None, 1, 12, asks(12))  # and another: only the newest is kept
    await settle()
    assert pool.asked == [10] and ahead.started(7, 12) and not ahead.started(7, 11)
    pool.release.setdefault(10, asyncio.Event()).set()
    await settle()
    assert pool.asked == [10, 12]  # the stale search finished; the newest position is searched now
    pool.release.setdefault(12, asyncio.Event()).set()
    task = ahead.take(7, 12, asks(12))
    assert task is not None and await task == [(0, 12), (1, 13)]
    assert len(ahead) == 0


async def test_the_same_start_twice_searches_once_and_a_mismatch_is_not_taken():
    pool = HeldPool()
    ahead = Ahead(pool)
    ahead.start(7, "incan_gold", None, 1, 10, asks(10))
    ahead.start(7, "incan_gold", None, 1, 10, asks(10))  # e.g. its own write heard back
    await settle()
    assert pool.asked == [10]
    assert ahead.take(7, 10, asks(10)[:1]) is None  # other seats to decide: decide afresh
    assert len(ahead) == 0 and not ahead.started(7, 10)


async def test_drop_and_clear_forget_the_tables_searches():
    pool = HeldPool()
    ahead = Ahead(pool)
    ahead.start(7, "incan_gold", None, 1, 10, asks(10))
    ahead.start(8, "incan_gold", None, 1, 20, asks(20))
    await settle()
    ahead.start(7, "incan_gold", None, 1, 11, asks(11))  # queued behind 10
    ahead.drop(7)
    pool.release.setdefault(10, asyncio.Event()).set()
    await settle()
    assert pool.asked == [10, 20] and not ahead.started(7, 11)  # nothing queued was launched after the drop
    ahead.clear()
    assert len(ahead) == 0 and ahead.take(8, 20, asks(20)) is None
