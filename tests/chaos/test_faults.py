"""Faults on the store: a write that fails never stalls a table, never loses what was acknowledged,
and the player is told the truth (issue 15, items 2 and 8).

Timer work (a bot seat's turn, a decision timeout) whose write fails is retried with backoff and the
game goes on by itself once the fault clears; a game whose last move was written but whose result
was not is finished by a retry, and the click that made that move is answered as accepted. Then
the chaos form: every write of whole games of all three games fails once, at random.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from chaos_kit import FaultyRepository, InjectedFault

from db.store import Store
from engine.clock import ManualClock
from engine.session import SeatSpec, SessionError, Sessions, SessionSettings, Table, Update
from engine.session.games import SPECS
from tests.chaos.harness.kills import Move, Report, check_database
from wiring.storage import StoreRepository

ANN, BO = SeatSpec("Ann", 1), SeatSpec("Bo", 2)
GUILD = 900


class Recorder:
    """A listener that keeps the updates and results it was told (and ignores the rest)."""

    def __init__(self) -> None:
        self.updates: list[Update] = []
        self.results: list[dict[str, Any]] = []

    async def played(self, update: Update) -> None:
        self.updates.append(update)

    async def finished(self, table: Table, result: dict[str, Any], *, origin: object | None) -> None:
        self.results.append(result)

    def __getattr__(self, name: str) -> Any:
        async def ignored(*args: Any, **kwargs: Any) -> None:
            return None

        return ignored


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(str(tmp_path / "faults.sqlite3"))
    yield s
    await s.close()


def session(store: Store, ai_delay: float, rng: random.Random | None = None
            ) -> tuple[Sessions, FaultyRepository, Recorder, ManualClock]:
    repo, rec, clock = FaultyRepository(StoreRepository(store), rng), Recorder(), ManualClock()
    sessions = Sessions(repo, SPECS, rec, clock, SessionSettings(decision_timeout_s=120, reminder_before_s=30,
                                                          ai_delay_s=ai_delay))
    return sessions, repo, rec, clock


async def incan_with_bots(sessions: Sessions, channel: int = 500) -> Table:
    table = await sessions.create("incan_gold", GUILD, channel, ANN)
    for _ in range(2):
        await sessions.add_ai(table.id, ANN.user_id or 0, "easy")
    return await sessions.start(table.id, ANN.user_id or 0, seed=7)


def owing_humans(table: Table) -> list[int]:
    return [s for s in table.owing() if not table.seats[s].is_ai]


async def test_a_bot_turn_whose_write_fails_is_retried_and_the_game_goes_on(store):
    sessions, repo, _, clock = session(store, ai_delay=1.0)
    table = await incan_with_bots(sessions)
    bots = [s for s, seat in enumerate(table.seats) if seat.is_ai]
    assert set(bots) <= set(table.owing())  # the bot seats choose after their delay
    version = table.version
    repo.fail("append")
    await clock.advance(1.0)  # their turn: the write fails (before: the timer died, the table waited forever)
    assert table.version == version and set(bots) <= set(table.owing())
    await clock.advance(5.0)  # the fault is gone: the retry writes their choices
    assert table.version > version and not set(bots) & set(table.owing())
    assert owing_humans(table) == [table.seat_of(ANN.user_id or 0)]
    assert repo.faults == 1


async def test_a_timeout_whose_write_fails_is_retried(store):
    sessions, repo, rec, clock = session(store, ai_delay=0.0)
    table = await incan_with_bots(sessions)
    ann = table.seat_of(ANN.user_id or 0)
    window = table.window
    repo.fail("append", times=2)
    await clock.advance(120.0)  # Ann's decision times out; its write fails twice
    assert table.window == window and ann in table.owing()
    await clock.advance(60.0)
    assert table.window != window or table.status == "finished"
    assert any(ann in update.timed_out for update in rec.updates)
    log = await store.load_game(table.id)
    assert [(a.seat, a.payload) for a in log.actions if a.seat == ann] == [(ann, "camp")]  # returned to camp


async def test_a_result_that_cannot_be_written_is_retried_and_the_last_move_counts(store):
    """Before: the last move was committed, the result write failed, the player read 'nothing was
    changed' and the table stayed 'playing' until the next restart."""
    sessions, repo, rec, clock = session(store, ai_delay=0.0)
    table = await incan_with_bots(sessions)
    ann = ANN.user_id or 0
    repo.fail("finish", times=2)
    while not table.spec.game.is_over(table.state):
        await sessions.act(table.id, ann, table.window, "camp")  # never raises: the moves are written
    last = rec.updates[-1]
    assert last.actors and table.seat_of(ann) in last.actors  # the final move was drawn as accepted
    assert rec.results == [] and (await store.load_game(table.id)).game.status == "playing"
    with pytest.raises(SessionError, match=r"not_your_turn|not_playing"):
        await sessions.act(table.id, ann, table.window, "torch")
    await clock.advance(60.0)  # the retries: the second fails too, the third writes it
    assert table.status == "finished" and len(rec.results) == 1
    stored = await store.load_game(table.id)
    assert stored.game.status == "finished"
    assert [r.score for r in await store.results(table.id)] == rec.results[0]["scores"]
    assert repo.faults == 2


# --------------------------------------------------------------------------- every write fails once


GAMES = (("incan_gold", (ANN, BO), ("easy",)), ("sakkara", (ANN,), ("easy",)), ("indus", (ANN, BO), ("easy",)))


async def retry(call: Any, *args: Any) -> Any:
    """What a person does when the bot says 'something went wrong, nothing changed': try again."""
    for _ in range(20):
        try:
            return await call(*args)
        except InjectedFault:
            continue
    raise AssertionError(f"{call.__name__} failed 20 times")


async def play(sessions: Sessions, clock: ManualClock, game: str, humans: tuple[SeatSpec, ...], bots: tuple[str, ...],
               channel: int, rng: random.Random, moves: list[Move]) -> int:
    """Play one whole game through the session, pressing again whatever failed; return its id."""
    host = humans[0].user_id or 0
    table = await retry(sessions.create, game, GUILD, channel, humans[0])
    for person in humans[1:]:
        await retry(sessions.join, table.id, person)
    for level in bots:
        await retry(sessions.add_ai, table.id, host, level)
    await retry(sessions.start, table.id, host, rng.randrange(1 << 30))
    for _ in range(5000):
        if table.status != "playing":
            return table.id
        owing = owing_humans(table)
        if not owing or table.spec.game.is_over(table.state):
            await clock.advance(rng.choice([1.0, 2.0, 5.0, 10.0]))  # bot turns, retries, the result
            continue
        seat = rng.choice(owing)
        user = table.seats[seat].user_id or 0
        action = rng.choice(table.spec.game.legal_actions(table.state, seat))
        window = table.window
        try:
            await sessions.act(table.id, user, window, action)
        except InjectedFault:
            continue  # 'nothing was changed': pressed again on the next turn of the loop
        except SessionError as exc:
            assert exc.code in ("stale", "not_your_turn"), exc.code
            continue
        moves.append(Move(table.id, user, window, action))
    raise AssertionError(f"{game} table {table.id} never finished")


async def test_every_write_fails_once_at_random_and_every_game_still_ends_right(store, tmp_path):
    rng = random.Random(15)
    sessions, repo, rec, clock = session(store, ai_delay=1.0, rng=rng)
    moves: list[Move] = []
    played = []
    for number, (game, humans, bots) in enumerate(GAMES * 2):
        played.append(await play(sessions, clock, game, humans, bots, 600 + number, rng, moves))
    assert repo.faults >= 50  # every kind of write failed somewhere
    assert {name for name, *_ in repo.failed} >= {"create", "add_seat", "start", "append", "finish"}
    report = Report()
    check_database(tmp_path / "faults.sqlite3", moves, report)
    assert report.lost == [] and report.corrupt == []
    assert report.finished == len(played) == len(rec.results)
    assert len(moves) > 100  # the players' moves, checked one by one
