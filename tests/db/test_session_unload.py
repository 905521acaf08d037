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
from tests.db.test_session import ANN, BO, GUILD, Recorder, make

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


async def _stored(store: Store, clock: ManualClock, count: int) -> tuple[list[Table], Sessions, Recorder]:
    """Make ``count`` tables in one process and close it; return them (as they stood) and a second
    process started over the same store, with nothing loaded yet (as after a restart)."""
    first, _ = make(store, clock)
    made = await _tables(first, count)
    await first.close()
    sessions, rec = make(store, clock)
    await sessions.open()
    return made, sessions, rec


async def test_idle_tables_are_unloaded_past_the_limit_and_come_back_as_they_were(store: Store) -> None:
    clock = ManualClock()
    made, sessions, rec = await _stored(store, clock, 5)
    before = {table.id: _as_stored(table) for table in made}
    sessions.cache.keep_loaded = 1
    unloaded: list[int] = []
    sessions.cache.on_unload.append(lambda table: unloaded.append(table.id))
    a, b, c, d, e = (table.id for table in made)
    for table_id in (a, b, c):
        await sessions.table(table_id)
    await clock.advance(IDLE_S - 1)
    await sessions.table(d)  # a load looks for idle tables: none is idle yet
    assert set(sessions.tables) == {a, b, c, d} and unloaded == []

    await clock.advance(SWEEP_EVERY_S - 1)
    await sessions.table(b)  # used again: b is not idle
    await sessions.table(d)  # no load: nobody looks
    assert set(sessions.tables) == {a, b, c, d}
    await clock.advance(1)
    await sessions.table(e)  # a load: a and c are idle, and more than one table is loaded
    assert set(sessions.tables) == {b, d, e} and sorted(unloaded) == [a, c]
    assert sessions.loaded(a) is None and 700 not in sessions.by_channel

    again = await sessions.table_in(702)  # a command in c's channel loads it again, as it stood
    assert again.id == c and _as_stored(again) == before[c]

    # a stays unloaded until its stored timers load it (the first: the moment its window has been
    # open an eighth of its day, derived from its deadline), and its deadline plays its people's
    # timeouts, as for the others.
    await clock.advance(DAY / 8 - IDLE_S - SWEEP_EVERY_S - 60)
    assert sessions.loaded(a) is None
    await clock.advance(61)
    assert sessions.loaded(a) is not None and ("waited", a) in rec.calls
    await clock.advance(DAY * 7 / 8 + IDLE_S + SWEEP_EVERY_S - 1)
    timed_out = {update.table.id: update.timed_out for update in rec.updates if update.timed_out}
    assert set(timed_out) == {a, b, c, d, e} and all(len(seats) == 3 for seats in timed_out.values())


async def test_a_table_keeping_something_in_memory_stays_loaded(store: Store) -> None:
    clock = ManualClock()
    made, sessions, _ = await _stored(store, clock, 4)
    sessions.cache.keep_loaded = 0
    locked, timed, idle, last = [await sessions.table(table.id) for table in made]

    async def redraw() -> None:
        return None

    timed.timers.append(clock.call_at(clock.now() + DAY / 2, redraw))  # e.g. a count redraw waiting
    await clock.advance(IDLE_S + SWEEP_EVERY_S)
    async with locked.lock:  # e.g. a click being played on it
        sessions.cache.tables.pop(last.id)
        await sessions.table(last.id)  # a load: the cache looks for idle tables
    assert set(sessions.tables) == {locked.id, timed.id, last.id}
    assert idle.id not in sessions.tables


async def test_under_the_limit_a_table_stays_loaded_however_long_it_waits(store: Store) -> None:
    clock = ManualClock()
    made, sessions, _ = await _stored(store, clock, 3)
    loaded = [await sessions.table(table.id) for table in made[:2]]
    await clock.advance(DAY / 2 - 60)  # idle for hours, and no reminder yet
    await sessions.table(made[2].id)  # a load: the cache would look, but holds only 3 of its 1,000
    assert [sessions.loaded(table.id) for table in made[:2]] == loaded
