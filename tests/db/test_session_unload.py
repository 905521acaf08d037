"""Idle tables leave the cache (engine.session.cache.TableCache.unload_idle) and come back as they were.

A process holding many correspondence tables loads each a few times a day (its reminders, its
deadline): without unloading, every one would stay in memory within a day.
"""

from __future__ import annotations

from db import Store
from engine.clock import ManualClock
from engine.incan_gold import GAME
from engine.session import SeatSpec, Sessions, Table
from engine.session.cache import IDLE_S, SWEEP_EVERY_S
from tests.db.test_session import ANN, BO, GUILD, make

DAY = 86400.0


async def _tables(sessions: Sessions, count: int) -> list[Table]:
    """``count`` Incan Gold tables of three people with a day per decision, each in its channel,
    the first card revealed (a decision of everyone pending)."""
    tables = []
    for n in range(count):
        host = SeatSpec(f"H{n}", 100 + n)
        table = await sessions.create("incan_gold", GUILD, 700 + n, host, table_options={"decision_timeout_s": DAY})
        for seat in (ANN, BO):
            await sessions.join(table.id, SeatSpec(seat.display_name, (seat.user_id or 0) * 1000 + n))
        await sessions.start(table.id, host.user_id or 0, seed=n + 1)
        tables.append(table)
    return tables


def _as_stored(table: Table) -> tuple[object, ...]:
    return table.status, table.version, table.window, table.deadline, GAME.dumps(table.state)


async def test_idle_tables_are_unloaded_past_the_limit_and_come_back_as_they_were(store: Store) -> None:
    clock = ManualClock()
    first, _ = make(store, clock)
    made = await _tables(first, 4)
    before = {table.id: _as_stored(table) for table in made}
    await first.close()

    sessions, rec = make(store, clock)
    await sessions.open()
    sessions.cache.keep_loaded = 1
    a, b, c, d = (table.id for table in made)
    await sessions.table(a)
    await sessions.table(b)
    await clock.advance(IDLE_S - 1)
    await sessions.table(c)  # a load looks for idle tables: none is idle yet
    assert set(sessions.tables) == {a, b, c}

    await clock.advance(SWEEP_EVERY_S)
    await sessions.table(b)  # used again: b is not idle
    await sessions.table(d)  # a load: only a is idle (c was loaded 5 minutes ago)
    assert set(sessions.tables) == {b, c, d}
    assert sessions.loaded(a) is None and 700 not in sessions.by_channel

    again = await sessions.table_in(700)  # a command in its channel loads it again, as it stood
    assert again.id == a and _as_stored(again) == before[a]

    # Its stored timers stayed armed: the day's deadline plays the timeouts of the unloaded tables.
    await clock.advance(DAY)
    timed_out = {update.table.id: update.timed_out for update in rec.updates if update.timed_out}
    assert set(timed_out) == {a, b, c, d} and all(len(seats) == 3 for seats in timed_out.values())


async def test_a_table_keeping_something_in_memory_stays_loaded(store: Store) -> None:
    clock = ManualClock()
    first, _ = make(store, clock)
    made = await _tables(first, 4)
    await first.close()

    sessions, _ = make(store, clock)
    await sessions.open()
    sessions.cache.keep_loaded = 0
    locked, timed, idle, last = [await sessions.table(table.id) for table in made]
    ran: list[int] = []

    async def redraw() -> None:
        ran.append(timed.id)

    timed.timers.append(clock.call_at(clock.now() + DAY / 2, redraw))  # e.g. a count redraw waiting
    await clock.advance(IDLE_S + SWEEP_EVERY_S)
    async with locked.lock:  # e.g. a click being played on it
        sessions.cache.tables.pop(last.id)
        await sessions.table(last.id)  # a load: the cache looks for idle tables
    assert set(sessions.tables) == {locked.id, timed.id, last.id}
    assert idle.id not in sessions.tables


async def test_under_the_limit_a_table_stays_loaded_however_long_it_waits(store: Store) -> None:
    clock = ManualClock()
    sessions, _ = make(store, clock)
    made = await _tables(sessions, 2)
    await clock.advance(DAY / 2 - 60)  # its reminder at half time loads nothing new
    await sessions.table(made[1].id)
    assert [sessions.loaded(table.id) for table in made] == made
