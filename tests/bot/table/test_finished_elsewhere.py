"""Two processes finishing one game at the same moment (seen in the multi-process chaos run): the
process whose click wrote the game's last move, and the one running the table's timers, which
heard of that move and found "a result not yet written". The store lets one write the result; that
one draws the final board and the summary. The other forgets the table: no traceback, no retry, no
second summary, and the click that made the last move is answered as accepted, whichever lost.

Two bots on one fake Discord and one database file, each with its own store, clock and session:
the click's bot is the one the fake hands the clicks to; the timer's bot runs its automatic timer
when the click's bot comes to write the result, and the two writes then go in the order the test
names (the real race, made certain). A Cancel that meets the game ended by the other process is
refused privately ("that table is over"), the other having told the channel.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from incan_kit import act_id, buttons, lobby_id, moves_message, start_bot

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeUser


class Race:
    """Both processes' result writes meet here; ``first``'s goes first, the other's once it is done."""

    def __init__(self, first: str) -> None:
        self.first = first
        self.arrived: dict[str, asyncio.Event] = {"click": asyncio.Event(), "timer": asyncio.Event()}
        self.done = asyncio.Event()

    def hook(self, name: str, bot: Bot, arrival: Callable[[], None] = lambda: None) -> None:
        repo: Any = bot.sessions.repo
        write: Callable[..., Awaitable[None]] = repo.finish

        async def finish(*args: Any) -> None:
            self.arrived[name].set()
            arrival()
            for event in self.arrived.values():
                await asyncio.wait_for(event.wait(), 5)
            if name != self.first:
                await asyncio.wait_for(self.done.wait(), 5)
            try:
                await write(*args)
            finally:
                self.done.set()

        repo.finish = finish


@pytest.fixture
async def other_store(tmp_path: Path, store: Store) -> AsyncIterator[Store]:
    """The timers' process's own store on the database file of ``store``."""
    other = await Store.open(str(tmp_path / "bot.sqlite3"))
    yield other
    await other.close()


@pytest.fixture
async def timers(fake: FakeDiscord, other_store: Store, clock: ManualClock) -> AsyncIterator[Bot]:
    """The bot of the process running the table's timers, on a clock of its own (at the same time)."""
    bot = await start_bot(fake, other_store, ManualClock(clock.now()))
    yield bot
    await fake.stop(bot)


@pytest.fixture
async def clicks(fake: FakeDiscord, store: Store, clock: ManualClock, timers: Bot) -> AsyncIterator[Bot]:
    """The bot of the process the clicks come to: started last, so the fake hands it the clicks."""
    bot = await start_bot(fake, store, clock)
    yield bot
    await fake.stop(bot)


async def _started(fake: FakeDiscord, table: FakeChannel, ann: FakeUser, clicks: Bot,
                   caplog: pytest.LogCaptureFixture) -> Table:
    """Ann's game with two bots, started in ``table``; the log captured from here on."""
    caplog.clear()  # discord.py's words at start-up (no voice support) are not the bot's
    caplog.set_level(logging.INFO, logger="engine.session")
    await fake.slash(ann, table, "incan new", {})
    lobby = next(m for m in fake.channel_messages(table) if buttons(m, "lobby:"))
    for op in ("ai-easy", "ai-easy", "start"):
        await fake.click(ann, lobby, lobby_id(lobby, op))
    return await clicks.sessions.table_in(table.id)


def _said_once_quietly(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing above INFO was logged; the loser said once, without a traceback, what happened."""
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    said = [r for r in caplog.records if "by another process" in r.getMessage()]
    assert len(said) == 1 and said[0].exc_info is None and said[0].levelno == logging.INFO


@pytest.mark.parametrize("first", ["click", "timer"])
async def test_one_result_one_summary_and_no_traceback_when_two_processes_finish_a_game_at_once(
        fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock, ann: FakeUser, timers: Bot,
        clicks: Bot, caplog: pytest.LogCaptureFixture, first: str) -> None:
    other_clock = timers.sessions.clock
    assert isinstance(other_clock, ManualClock)
    game = await _started(fake, table, ann, clicks, caplog)

    fired: list[asyncio.Future[None]] = []

    def timer_fires() -> None:
        # The last move is written: the timers' process hears of it, and its automatic timer (due at
        # once, "a result not yet written") fires while the click's process writes the result.
        timers.sessions.alarms.arm_auto(game.id, other_clock.now(), game.version)
        fired.append(asyncio.ensure_future(other_clock.advance(0)))  # awaited with the click (the fake's drain)

    race = Race(first)
    race.hook("click", clicks, timer_fires)
    race.hook("timer", timers)
    answers = []
    while not game.spec.game.is_over(game.state):
        public = moves_message(fake, table.id)  # Torch / Camp on the expedition's message
        answers.append(await fake.click(ann, public, act_id(public, "camp")))
    assert race.done.is_set() and all(event.is_set() for event in race.arrived.values())  # both came to write
    assert len(fired) == 1 and fired[0].done()

    assert (await store.load_game(game.id)).game.status == "finished"
    assert len(await store.results(game.id)) == 3
    summaries = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert len(summaries) == 1 and "Incan Gold — final scores" in summaries[0].render()
    assert not [m for m in fake.channel_messages(table) if buttons(m, "act:")]  # the board shows the end
    last = answers[-1]  # the click that made the last move: answered as accepted, nothing private
    assert last.acknowledged and last.replies == [] and last.errors == []
    _said_once_quietly(caplog)
    board = (game.id, clicks.hub.renderer(game).board_kind(game), None)
    for bot in (clicks, timers):  # forgotten by both (where its messages are too), nothing armed to try again
        assert bot.sessions.loaded(game.id) is None and bot.sessions.timers.armed(game.id) == set()
        assert bot.hub.book.ref(board) is None
    await other_clock.advance(60)
    await clock.advance(60)
    assert len([m for m in fake.channel_messages(table) if buttons(m, "rematch:")]) == 1


async def test_a_cancel_that_meets_the_game_cancelled_by_another_process_is_answered_privately(
        fake: FakeDiscord, table: FakeChannel, store: Store, ann: FakeUser, timers: Bot, clicks: Bot,
        caplog: pytest.LogCaptureFixture) -> None:
    """The host's /cancel reaches one process as the other ends the game (their Cancel pressed twice,
    or a manager's at once): the other tells the channel; this one answers the host privately, in
    their language, that the table is over, and posts nothing."""
    game = await _started(fake, table, ann, clicks, caplog)
    repo: Any = clicks.sessions.repo
    write: Callable[..., Awaitable[None]] = repo.cancel
    public: list[list[str]] = []

    async def cancel(*args: Any) -> None:
        # This process saw the game playing; the other ends it now, and tells the channel.
        await timers.sessions.cancel(game.id, ann.id, False)
        public.append(fake.public_texts())
        await write(*args)

    repo.cancel = cancel
    ann.locale = "fi"  # the answer is in the reader's language
    answer = await fake.slash(ann, table, "incan cancel", {})

    assert answer.ephemeral and [m.content for m in answer.replies] == ["Tämä pöytä on jo päättynyt."]
    assert len(public) == 1 and fake.public_texts() == public[0]  # the other's word is the only one
    told = [m for m in fake.channel_messages(table) if m.content.startswith(f"{ann.mention} Incan Gold: ")]
    assert len(told) == 1 and "cancelled" in told[0].content  # the other process's word, once
    assert (await store.load_game(game.id)).game.status == "cancelled"
    _said_once_quietly(caplog)
    board = (game.id, clicks.hub.renderer(game).board_kind(game), None)
    assert clicks.sessions.loaded(game.id) is None and clicks.hub.book.ref(board) is None
