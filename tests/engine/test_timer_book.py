"""Timers far ahead wait in the book as data and are armed on the clock once they come near; waiting
or armed, a timer is replaced by a newer version, never by an older one, and cancelled either way."""

from __future__ import annotations

from engine.clock import ManualClock
from engine.session.alarms import REMIND, WAITED, Alarms
from engine.session.contract import AUTO, DECISION, LOBBY, SessionSettings, StoredTimer
from engine.session.timers import HORIZON_S, SingleProcess

DAY = 86400.0


class Recorder:
    """The timers' handlers: each firing is noted with the clock's time."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.fired: list[tuple[str, int, int, float]] = []

    async def remind(self, table_id: int, window: int) -> None:
        self.fired.append((REMIND, table_id, window, self.clock.now()))

    async def waited(self, table_id: int, window: int) -> None:
        self.fired.append((WAITED, table_id, window, self.clock.now()))

    async def expire(self, table_id: int, window: int) -> None:
        self.fired.append((DECISION, table_id, window, self.clock.now()))

    async def auto(self, table_id: int, version: int) -> None:
        self.fired.append((AUTO, table_id, version, self.clock.now()))

    async def lobby_idle(self, table_id: int) -> None:
        self.fired.append((LOBBY, table_id, 0, self.clock.now()))

    def failed(self, table_id: int) -> None:
        raise AssertionError(f"table {table_id}: a timer failed")


def _alarms() -> tuple[ManualClock, Alarms, Recorder]:
    clock = ManualClock()
    alarms = Alarms(clock, SingleProcess(), SessionSettings(reminder_before_s=30.0))
    recorder = Recorder(clock)
    alarms.serve(recorder)
    return clock, alarms, recorder


async def test_a_far_timer_waits_off_the_clock_and_fires_on_time():
    clock, alarms, recorder = _alarms()
    t0 = clock.now()
    alarms.arm(StoredTimer(1, DECISION, t0 + DAY, 4))
    alarms.arm(StoredTimer(2, AUTO, t0 + 2 * HORIZON_S, 7))
    alarms.arm(StoredTimer(3, DECISION, t0 + 60, 1))  # near: armed at once, with its reminder
    # The near decision's two parts and one look at the waiting ones: nothing per far timer.
    assert clock.pending() == [t0 + 30, t0 + 60, t0 + 2 * HORIZON_S - HORIZON_S / 2]
    assert alarms.book.armed(1) == {DECISION} and alarms.book.armed(2) == {AUTO}
    assert sorted(alarms.book.tables()) == [1, 2, 3]

    await clock.advance(DAY + 1)

    assert recorder.fired == [
        (REMIND, 3, 1, t0 + 30), (DECISION, 3, 1, t0 + 60), (AUTO, 2, 7, t0 + 2 * HORIZON_S),
        (REMIND, 1, 4, t0 + DAY - 30), (DECISION, 1, 4, t0 + DAY),
    ]
    assert alarms.book.tables() == [] and clock.pending() == []


async def test_a_newer_version_replaces_a_waiting_timer_and_an_older_one_does_not():
    clock, alarms, recorder = _alarms()
    t0 = clock.now()
    alarms.arm(StoredTimer(1, DECISION, t0 + DAY, 4))
    alarms.arm(StoredTimer(1, DECISION, t0 + DAY / 2, 3))  # read before version 4 was written: ignored
    alarms.arm(StoredTimer(2, DECISION, t0 + DAY, 4))
    alarms.arm(StoredTimer(2, DECISION, t0 + 2 * DAY, 5))  # the next decision: replaces the waiting one
    alarms.arm(StoredTimer(3, DECISION, t0 + 60, 1))
    alarms.arm(StoredTimer(3, DECISION, t0 + DAY, 2))  # a far newer one cancels the armed near one

    await clock.advance(3 * DAY)

    assert [(kind, table, version, when - t0) for kind, table, version, when in recorder.fired] == [
        (REMIND, 1, 4, DAY - 30), (REMIND, 3, 2, DAY - 30), (DECISION, 1, 4, DAY), (DECISION, 3, 2, DAY),
        (REMIND, 2, 5, 2 * DAY - 30), (DECISION, 2, 5, 2 * DAY),
    ]


async def test_cancelling_a_table_forgets_its_waiting_timers():
    clock, alarms, recorder = _alarms()
    t0 = clock.now()
    alarms.arm(StoredTimer(1, DECISION, t0 + DAY, 4))
    alarms.arm(StoredTimer(1, LOBBY, t0 + DAY, 0))
    alarms.arm(StoredTimer(2, DECISION, t0 + DAY, 4))
    alarms.arm(StoredTimer(3, AUTO, t0 + DAY, 9))
    alarms.book.cancel(1)
    alarms.book.cancel(2, DECISION, REMIND)
    assert alarms.book.armed(1) == set() and alarms.book.armed(2) == set()
    assert alarms.book.tables() == [3]

    await clock.advance(2 * DAY)

    assert [(kind, table) for kind, table, _, _ in recorder.fired] == [(AUTO, 3)]


async def test_cancel_all_leaves_nothing_to_fire():
    clock, alarms, recorder = _alarms()
    t0 = clock.now()
    alarms.arm(StoredTimer(1, DECISION, t0 + DAY, 4))
    alarms.arm(StoredTimer(2, AUTO, t0 + 10, 1))
    alarms.book.cancel_all()
    await clock.advance(2 * DAY)
    assert recorder.fired == [] and alarms.book.tables() == []


async def test_a_correspondence_decision_waits_until_its_first_derived_moment_comes_near():
    clock, alarms, recorder = _alarms()
    t0 = clock.now()
    # Waited for an eighth of the day, then reminded at half time and an hour before.
    alarms.arm(StoredTimer(1, DECISION, t0 + DAY, 2, span=DAY))
    assert clock.pending() == [t0 + DAY / 8 - HORIZON_S / 2]  # one look, before the first of them

    await clock.advance(DAY / 8 - HORIZON_S / 2)
    assert clock.pending() == [t0 + DAY / 8, t0 + DAY / 2, t0 + DAY]  # the reminders follow one another
    await clock.advance(DAY * 7 / 8 + HORIZON_S / 2)

    assert [(kind, when - t0) for kind, _, _, when in recorder.fired] == [
        (WAITED, DAY / 8), (REMIND, DAY / 2), (REMIND, DAY - 3600), (DECISION, DAY)]


async def test_the_waited_moment_is_derived_again_by_a_restart_before_it_and_not_after_it():
    t0 = ManualClock().now()
    fired = []
    for restarted_at in (DAY / 8 - 60, DAY / 8 + 60):  # the window opened at t0, a day per decision
        clock, alarms, recorder = _alarms()
        await clock.advance(restarted_at)
        alarms.arm(StoredTimer(1, DECISION, t0 + DAY, 2, span=DAY))  # read from the store at start-up
        await clock.advance(DAY)
        fired.append([(kind, when - t0) for kind, _, _, when in recorder.fired if kind == WAITED])
    assert fired == [[(WAITED, DAY / 8)], []]  # from the window's opening, not the restart; never twice


async def test_a_live_decision_has_no_waited_moment():
    clock, alarms, recorder = _alarms()
    t0 = clock.now()
    alarms.arm(StoredTimer(1, DECISION, t0 + 600, 2, span=600))
    await clock.advance(600)
    assert [(kind, when - t0) for kind, _, _, when in recorder.fired] == [(REMIND, 570), (DECISION, 600)]


async def test_only_a_game_whose_seats_decide_at_once_has_a_waited_moment():
    clock = ManualClock()
    alarms = Alarms(clock, SingleProcess(), SessionSettings(reminder_before_s=30.0), simultaneous=["incan_gold"])
    recorder = Recorder(clock)
    alarms.serve(recorder)
    t0 = clock.now()
    alarms.arm(StoredTimer(1, DECISION, t0 + DAY, 2, span=DAY, game="incan_gold"))
    alarms.arm(StoredTimer(2, DECISION, t0 + DAY, 2, span=DAY, game="sakkara"))  # one mover at a time
    alarms.arm(StoredTimer(3, DECISION, t0 + DAY, 2, span=DAY))  # the game not known: as if it were one
    await clock.advance(DAY)
    assert sorted((table, when - t0) for kind, table, _, when in recorder.fired if kind == WAITED) == [
        (1, DAY / 8), (3, DAY / 8)]
    assert sorted(table for kind, table, _, _ in recorder.fired if kind == DECISION) == [1, 2, 3]
