"""A bot's pause before it acts is thinking time: its decision starts when its turn begins.

The session layer on the real store (in memory), a manual clock, and an AI pool that records when
each decision was asked for and for which log positions.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from test_session import ANN, CHANNEL, GUILD, Recorder

from db import Store
from db.leases import leases_of
from engine.clock import ManualClock
from engine.session import Sessions, SessionSettings, Table
from engine.session.ai_pool import AiPool, Decision, decide
from engine.session.games import SPECS
from engine.session.leases import Leases
from wiring.storage import StoreRepository


class WatchedPool(AiPool):
    """The thread pool, noting (clock time, decisions) at every ask; ``gate`` holds answers back."""

    def __init__(self, clock: ManualClock) -> None:
        super().__init__(SPECS, workers=0)
        self.clock = clock
        self.asked: list[tuple[float, list[Decision]]] = []
        self.answered = 0
        self.gate = threading.Event()
        self.gate.set()

    async def decide(self, game: str, state: Any, seed: int, decisions: Sequence[Decision]
                     ) -> list[tuple[int, Any]]:
        self.asked.append((self.clock.now(), list(decisions)))
        await asyncio.to_thread(self.gate.wait, 10.0)
        out = await super().decide(game, state, seed, decisions)
        self.answered += 1
        return out


async def until(condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached in time")


async def incan_gold_with_bots(store: Store, clock: ManualClock, pool: WatchedPool, bots: int = 2
                               ) -> tuple[Sessions, Table, Recorder]:
    rec = Recorder()
    sessions = Sessions(StoreRepository(store), SPECS, rec, clock,
                        SessionSettings(decision_timeout_s=120, reminder_before_s=30, ai_delay_s=2.0), ai=pool)
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    for _ in range(bots):
        await sessions.add_ai(table.id, ANN.user_id or 0, "medium")
    await sessions.start(table.id, ANN.user_id or 0, seed=11)
    return sessions, table, rec


def bots_owing(table: Table) -> list[int]:
    return [s for s in table.owing() if table.seats[s].is_ai]


async def test_the_decision_starts_with_the_turn_and_is_played_at_the_end_of_the_pause(store):
    clock = ManualClock()
    pool = WatchedPool(clock)
    sessions, table, rec = await incan_gold_with_bots(store, clock, pool)
    start, version, bots = clock.now(), table.version, bots_owing(table)
    assert len(bots) == 2
    await until(lambda: pool.answered == 1)
    # Asked at once, for every bot owing, at the positions the timer would have used.
    decisions = [(s, "medium", version + n) for n, s in enumerate(bots)]
    assert pool.asked == [(start, decisions)]
    expected = decide(SPECS, "incan_gold", table.state, table.seed or 0, decisions)
    await clock.advance(1.99)
    assert bots_owing(table) == bots and table.version == version  # the answer waits for the pause
    await clock.advance(0.01)
    await until(lambda: bots_owing(table) == [])
    assert len(pool.asked) == 1  # the timer took the answer computed ahead; nobody decided twice
    assert rec.updates[-1].steps == expected and rec.updates[-1].start == version
    await sessions.close()


async def test_a_person_choosing_first_makes_the_early_answer_stale(store):
    clock = ManualClock()
    pool = WatchedPool(clock)
    sessions, table, rec = await incan_gold_with_bots(store, clock, pool)
    start, version, bots = clock.now(), table.version, bots_owing(table)
    await until(lambda: pool.answered == 1)
    await clock.advance(1.0)
    await sessions.act(table.id, ANN.user_id or 0, table.window, "torch")  # in the same window as the bots
    assert table.version == version + 1
    await until(lambda: pool.answered == 2)
    # Asked again at Ann's choice, at the new positions: the early answer was for a table that moved.
    decisions = [(s, "medium", version + 1 + n) for n, s in enumerate(bots)]
    assert pool.asked[1] == (start + 1.0, decisions)
    expected = decide(SPECS, "incan_gold", table.state, table.seed or 0, decisions)
    await clock.advance(1.99)  # the pause restarts at her choice
    assert table.version == version + 1
    await clock.advance(0.01)
    await until(lambda: any(u.start == version + 1 for u in rec.updates))
    [played] = [u for u in rec.updates if u.start == version + 1]
    assert played.steps[:len(bots)] == expected  # then the reveal, and the next card's window opens
    assert [when for when, _ in pool.asked[:2]] == [start, start + 1.0]
    await sessions.close()


async def test_a_decision_slower_than_the_pause_is_played_when_it_comes_and_asked_once(store):
    clock = ManualClock()
    pool = WatchedPool(clock)
    pool.gate.clear()  # the pool is busy: the answer comes after the pause
    sessions, table, _ = await incan_gold_with_bots(store, clock, pool)
    start, version, bots = clock.now(), table.version, bots_owing(table)
    await until(lambda: len(pool.asked) == 1)
    assert pool.asked[0][0] == start
    # The pause ends while the pool is still busy: the timer waits for the answer, not for a new one.
    pause = asyncio.create_task(clock.advance(2.0))
    await asyncio.sleep(0.1)
    assert bots_owing(table) == bots and table.version == version and not pause.done()
    pool.gate.set()
    await pause
    await until(lambda: bots_owing(table) == [])
    assert len(pool.asked) == 1 and table.version == version + len(bots)
    await sessions.close()


async def test_the_process_running_the_timers_thinks_ahead_when_another_process_starts_the_turn(pg_server):
    """On PostgreSQL the process that writes a bot turn may not run that table's timers: the one that
    does starts the decision when it hears of the write, and nobody else decides."""
    clock = ManualClock(time.time())
    url = pg_server.new_database()
    procs = []
    for _ in range(2):
        store = await Store.connect(url, pool_size=4)
        book = leases_of(store)
        assert book is not None
        pool, rec = WatchedPool(clock), Recorder()
        sessions = Sessions(StoreRepository(store), SPECS, rec, clock,
                            SessionSettings(decision_timeout_s=120, reminder_before_s=30, ai_delay_s=2.0),
                            coordinator=Leases(book, renew_s=0.25, ttl_s=2.0), ai=pool)
        await sessions.open()
        procs.append((store, sessions, pool, rec))
    try:
        leases = [cast(Leases, p[1].coordinator) for p in procs]
        await until(lambda: sum(len(lease.held) for lease in leases) == leases[0].bucket_count)
        # A table (in a channel of its own) whose timers the other process runs.
        writer, runner, table = None, None, None
        for channel in range(CHANNEL, CHANNEL + 20):
            sessions = procs[channel % 2][1]
            candidate = await sessions.create("incan_gold", GUILD, channel, ANN)
            owner = [p for p in procs if cast(Leases, p[1].coordinator).owns(candidate.id)]
            if owner and owner[0][1] is not sessions:
                writer, runner, table = procs[channel % 2], owner[0], candidate
                break
        assert writer is not None and runner is not None and table is not None
        for _ in range(2):
            await writer[1].add_ai(table.id, ANN.user_id or 0, "medium")
        start = clock.now()
        await writer[1].start(table.id, ANN.user_id or 0, seed=11)
        bots = [s for s in table.owing() if table.seats[s].is_ai]
        await until(lambda: runner[2].answered == 1)
        assert runner[2].asked == [(start, [(s, "medium", table.version + n) for n, s in enumerate(bots)])]
        await clock.advance(2.0)
        await until(lambda: any(u.start == table.version for u in runner[3].updates))
        assert len(runner[2].asked) == 1 and writer[2].asked == []  # decided once, by the timers' process
    finally:
        for store, sessions, _, _ in procs:
            await sessions.close()
            await store.close()
