"""Two processes finishing (or ending) one game at the same moment: one writes, the other gets the
typed WrongStatus, never a unique violation on the results' key (the multi-process chaos run saw
that loser log a traceback and retry); and the race made rarer (the session's side, the loser
forgetting the table quietly, is tests/bot/table/test_finished_elsewhere.py). A session's cancel
(or a timer's close) that meets the game ended by another process is refused as "gone" and forgets
the table, quietly.

Each "process" is a store of its own (its own connection) on one database. On PostgreSQL the race
is made certain: a third connection holds the results table until both transactions are waiting
(before the game row was locked, both had read 'playing' and waited at the results' INSERT; now
the second waits for the first's lock on the game row). SQLite runs one write transaction at a
time, so there the second simply comes after the first.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from db_kit import FakeClock, PlayingGame

from db import NewResult, Store, WrongStatus
from engine.clock import ManualClock
from engine.session import AUTO, SessionError, Sessions
from engine.session.options import AWAY_DECISIONS, LOBBY_IDLE_S
from engine.session.timer_work import FINISHING_S
from tests.db.test_session import ANN, CHANNEL, GUILD, absent_game, make, table_of_three

RESULTS = [NewResult(0, 20, 1, True), NewResult(1, 12, 2, False), NewResult(2, 12, 2, False)]


@pytest.fixture(params=["sqlite", "postgresql"])
async def stores(request: pytest.FixtureRequest, tmp_path: Path, clock: FakeClock
                 ) -> AsyncIterator[tuple[Store, Store, str]]:
    """Two processes' stores on one database, and its URL."""
    if request.param == "sqlite":
        url = str(tmp_path / "bot.sqlite3")
        one, two = await Store.open(url, clock=clock), await Store.open(url, clock=clock)
    else:
        url = await request.getfixturevalue("pg_server").migrated_database()
        one, two = await Store.connect(url, clock=clock, pool_size=2), await Store.connect(url, clock=clock,
                                                                                           pool_size=2)
    yield one, two, url
    await one.close()
    await two.close()


async def _settled(work: Awaitable[Any]) -> Any:
    """Return what ``work`` returns, or the exception it raises."""
    try:
        return await work
    except Exception as exc:
        return exc


async def _waiting(conn: Any, count: int, unless: asyncio.Future[Any] | None = None) -> None:
    """Wait (real time) until ``count`` transactions of the database wait for a lock, or ``unless`` is done."""
    began = time.monotonic()
    query = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
    while await conn.fetchval(query) < count and not (unless is not None and unless.done()):
        assert time.monotonic() - began < 10, f"{count} transaction(s) never waited for a lock"
        await asyncio.sleep(0.01)


async def _race(store: Store, url: str, first: Callable[[], Awaitable[Any]],
                second: Callable[[], Awaitable[Any]]) -> list[Any]:
    """Run two endings of one game and return their outcomes. On PostgreSQL both are inside their
    transactions at once, the first ahead: a third connection holds the results table (no INSERT
    into it goes through) until both wait for a lock (a first that writes no result, a cancel, is
    simply done before the second). SQLite runs one write transaction at a time (BEGIN IMMEDIATE):
    there the second comes after the first, as it always would."""
    if store.dialect != "postgresql":
        return [await _settled(first()), await _settled(second())]
    conn: Any = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.execute("LOCK TABLE results IN SHARE MODE")
            ahead = asyncio.ensure_future(_settled(first()))
            await _waiting(conn, 1, unless=ahead)  # a finish waits at its INSERT, inside its transaction
            behind = asyncio.ensure_future(_settled(second()))
            await _waiting(conn, 2, unless=behind)
        return [await ahead, await behind]
    finally:
        await conn.close()


@pytest.mark.parametrize("second", ["finish", "cancel"])
async def test_two_processes_ending_one_game_at_once_one_writes_and_the_other_hears_wrong_status(stores, second):
    one, two, url = stores
    game_id = await PlayingGame(one)()
    await one.append_action(game_id, 0, -1, "T5")
    ending = {"finish": lambda: two.finish_game(game_id, RESULTS), "cancel": lambda: two.cancel_game(game_id)}

    won, lost = await _race(one, url, lambda: one.finish_game(game_id, RESULTS), ending[second])

    assert not isinstance(won, BaseException) and won.status == "finished"
    assert isinstance(lost, WrongStatus) and lost.status == "finished"
    assert [(r.seat, r.score) for r in await two.results(game_id)] == [(0, 20), (1, 12), (2, 12)]
    assert (await two.get_game(game_id)).status == "finished"


async def test_automatic_play_heard_due_at_once_is_left_to_its_writer_for_a_moment(store: Store):
    """The process running a table's timers hears of another process's write whose automatic play
    is due at once (a game's last move: its writer writes the result next) and waits FINISHING_S
    before finishing the game itself; a bot's turn heard due later keeps its time."""
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await table_of_three(sessions, bots=0)
    now = clock.now()
    await sessions.repo.set_deadline(table.id, AUTO, now, table.version)
    await sessions.timer_work.changed(table.id)
    assert now + FINISHING_S in clock.pending() and now not in clock.pending()

    await sessions.repo.set_deadline(table.id, AUTO, now + 5, table.version)  # a bot's turn, after its delay
    await sessions.timer_work.changed(table.id)
    assert now + 5 in clock.pending() and now + FINISHING_S not in clock.pending()
    await sessions.close()


def _meets(sessions: Sessions, store: Store, url: str, ending: Callable[[], Awaitable[Any]]) -> None:
    """Make the next end of a table in ``sessions`` (a cancel, a timer's close) meet another process's
    ``ending`` of it: the end has seen the table active, and at its write the other ends it first
    (on PostgreSQL a finish is inside its transaction as the cancel comes, see :func:`_race`)."""
    repo: Any = sessions.repo
    write: Callable[..., Awaitable[None]] = repo.cancel

    async def cancel(*args: Any) -> None:
        _, outcome = await _race(store, url, ending, lambda: write(*args))
        if isinstance(outcome, BaseException):
            raise outcome

    repo.cancel = cancel


def _quiet(caplog: pytest.LogCaptureFixture, status: str) -> None:
    """Nothing above INFO was logged, and the loser said once, without a traceback, what happened."""
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    said = [r for r in caplog.records if "by another process" in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is None and said[0].levelno == logging.INFO
    assert f"{status} by another process" in said[0].getMessage()


@pytest.mark.parametrize("other", ["finish", "cancel"])
async def test_a_cancel_that_meets_the_game_ended_by_another_process_is_told_it_is_over(stores, caplog, other):
    """A host's (or a manager's) Cancel in one process as another finishes the game, or cancels it
    too: the other's end stands alone, and the canceller hears "that table is over" (not an
    unexpected error); this process forgets the table and tells the channel nothing."""
    one, two, url = stores
    sessions, rec = make(one)
    table = await table_of_three(sessions, bots=0)
    endings = {"finish": lambda: two.finish_game(table.id, RESULTS), "cancel": lambda: two.cancel_game(table.id)}
    _meets(sessions, one, url, endings[other])
    caplog.set_level(logging.INFO, logger="engine.session")
    calls = list(rec.calls)

    with pytest.raises(SessionError, match=r"^gone$"):
        await sessions.cancel(table.id, ANN.user_id or 0, can_manage=False)

    stored = {"finish": ("finished", 3), "cancel": ("cancelled", 0)}[other]
    assert ((await two.get_game(table.id)).status, len(await two.results(table.id))) == stored
    assert rec.calls == calls and rec.results == []  # the other process tells the players, once
    assert sessions.loaded(table.id) is None and sessions.timers.armed(table.id) == set()
    _quiet(caplog, stored[0])
    await sessions.close()


@pytest.mark.parametrize("timer", ["lobby", "away"])
async def test_a_timer_ending_a_table_as_another_process_ends_it_stops_quietly(stores, caplog, timer):
    """A lobby's idle timer closes it as another process cancels it; a decision timer gives up a game
    whose people are all away as another process finishes it: nothing is retried, nothing said."""
    one, two, url = stores
    if timer == "lobby":
        clock = ManualClock()
        sessions, rec = make(one, clock)
        table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
        ending, status, reason, step = (lambda: two.cancel_game(table.id)), "cancelled", "expired", LOBBY_IDLE_S
    else:
        sessions, rec, clock, table = await absent_game(one, "incan_gold")
        ending, status, reason, step = (lambda: two.finish_game(table.id, RESULTS)), "finished", "away", 121
    _meets(sessions, one, url, ending)
    caplog.set_level(logging.INFO, logger="engine.session")

    for _ in range(AWAY_DECISIONS + 2):  # the lobby closes at the first step, the away game by the last
        await clock.advance(step + 1)

    assert (await two.get_game(table.id)).status == status
    assert ("ended", reason) not in rec.calls
    assert sessions.loaded(table.id) is None and sessions.timers.armed(table.id) == set()  # no retry
    _quiet(caplog, status)
    await sessions.close()
