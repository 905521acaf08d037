"""A correspondence Indus game over four simulated days (issue 41, "Done when"): three people who
come back hours after each move, two restarts, Bo's seat taken over by the bot after two timeouts
and taken back by a click; every turn that passes to a present person notifies exactly them (Ann
by a DM prompt she plays from, Cy by a mention); the result counts like a live game's."""

from __future__ import annotations

import pytest
from incan_kit import buttons, start_bot
from indus_kit import board, dm_prompt, first_choice, open_table
from test_indus_absence import BOT_DELAY, CORRESPONDENCE, DAY

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from engine.indus import GAME
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeUser


@pytest.fixture
def people(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


THINK_S = 3 * 3600.0
"""How long after the last move a present person comes back to play (a correspondence pace)."""


class Days:
    """Plays the game on: present people come back after :data:`THINK_S` and play the first option
    (Ann from her DM prompt, the others on the board); ``absent`` lets his deadline pass. Checks,
    at every turn that passes to a present person, that exactly they were notified."""

    def __init__(self, fake: FakeDiscord, clock: ManualClock, channel: FakeChannel, users: list[FakeUser]) -> None:
        self.fake, self.clock, self.channel, self.users = fake, clock, channel, users
        self.by_id = {user.id: user for user in users}
        self.passes = 0
        self.from_dm = 0

    def counts(self) -> dict[int, int]:
        return {user.id: len(self.fake.notifications(user)) for user in self.users}

    async def play(self, bot: Bot, table: Table, absent: FakeUser | None, done: object) -> None:
        for _ in range(2000):
            if done() or table.status != "playing":  # type: ignore[operator]
                return
            owing = table.humans_owing()
            if not owing:
                await self.fake.run(self.clock.advance, BOT_DELAY)
                continue
            user = self.by_id[table.seats[owing[0]].user_id or 0]
            if absent is not None and user.id == absent.id:
                await self.fake.run(self.clock.advance, DAY + 1)
                continue
            await self.fake.run(self.clock.advance, THINK_S)
            if table.humans_owing() != owing:
                continue  # nothing should move meanwhile, but never act on a stale view
            before, counts = user.id, self.counts()
            prompt = dm_prompt(self.fake, user) if user.name == "Ann" else None
            if prompt is not None and prompt is not self.fake.dm_messages(user)[-1]:
                prompt = None  # an older prompt than her newest DM is no longer the place to act
            place = prompt if prompt is not None else await board(self.fake, bot, table)
            cid, value = first_choice(place, GAME.legal_actions(table.state, owing[0])[0])
            await (self.fake.click(user, place, cid) if value is None
                   else self.fake.select(user, place, cid, [value]))
            self.from_dm += prompt is not None
            self.check_pass(table, before, counts)

    def check_pass(self, table: Table, before: int, counts: dict[int, int]) -> None:
        """When the turn passed to a present person, they (and nobody else) got one new notice."""
        owing = table.humans_owing()
        if table.status != "playing" or not owing:
            return
        after = table.seats[owing[0]].user_id
        now = self.counts()
        if after == before or after is None:
            assert now == counts, "no notice while the same player goes on"
            return
        self.passes += 1
        assert now[after] == counts[after] + 1, f"{self.by_id[after].name} is told once"
        assert all(now[u] == counts[u] for u in now if u != after), "and nobody else"


async def test_a_correspondence_game_over_four_days_with_two_restarts_and_a_seat_taken_over(
        fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock, people: list[FakeUser]) -> None:
    ann, bo, cy = people
    bot = await start_bot(fake, store, clock, **CORRESPONDENCE)
    for user, how in ((ann, "dm"), (cy, "mention")):
        await fake.slash(user, table, "notify", {"how": how})
    game = await open_table(fake, bot, table, people)
    seat = game.seat_of(bo.id)
    assert seat is not None
    began = clock.now()
    days = Days(fake, clock, table, people)

    # Days 0-2: Bo lets two decisions of a day each run out; the Easy bot takes his seat.
    await days.play(bot, game, bo, lambda: game.seats[seat].away is not None)
    assert game.seats[seat].away == "easy" and clock.now() - began >= 2 * DAY

    # Restart 1, an hour down: the bot still plays Bo's seat, the others play on for a day.
    await fake.stop(bot)
    await clock.advance(3600)
    bot = await start_bot(fake, store, clock, **CORRESPONDENCE)
    game = await bot.sessions.table_in(table.id)
    assert game.seats[seat].away == "easy"
    await days.play(bot, game, None, lambda: clock.now() - began >= 3 * DAY)
    assert game.status == "playing" and game.seats[seat].away == "easy"

    # Day 3: Bo clicks the board (not his turn: refused privately) and takes his seat back.
    await days.play(bot, game, None, lambda: bool(game.humans_owing()))
    message = await board(fake, bot, game)
    cid, value = first_choice(message)
    await (fake.click(bo, message, cid) if value is None else fake.select(bo, message, cid, [value]))
    assert game.seats[seat].away is None

    # Restart 2; the game goes on to its end, Bo playing his own seat again.
    await fake.stop(bot)
    await clock.advance(3600)
    bot = await start_bot(fake, store, clock, **CORRESPONDENCE)
    game = await bot.sessions.table_in(table.id)
    assert game.seats[seat].away is None
    await days.play(bot, game, None, lambda: False)
    assert game.status == "finished" and clock.now() - began >= 4 * DAY
    assert days.passes >= 20 and days.from_dm >= 10

    # It counts like a live game: stored result, the leaderboard and the game's log.
    assert [r.score for r in await store.results(game.id)] == GAME.result(game.state)["scores"]
    [summary] = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert "Bo: played by the bot for" in summary.render()
    board_rec = await fake.slash(ann, table, "leaderboard", {"game": "indus"})
    shown = board_rec.replies[-1].render()
    assert all(user.name in shown for user in people)
    log = await fake.slash(cy, table, "game log", {"id": game.id})
    assert log.replies and log.replies[-1].files  # the whole game's log, as for a live game
    await fake.stop(bot)


async def test_away_after_is_a_table_option_shown_on_the_lobby(
        fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock, people: list[FakeUser]) -> None:
    """``/indus new timeout:1d away_after:1``: the lobby says when the bot steps in, and one missed
    decision is enough."""
    ann, bo, _ = people
    bot = await start_bot(fake, store, clock, ai_delay_s=BOT_DELAY)
    await fake.slash(ann, table, "indus new", {"timeout": "1d", "away_after": 1})
    lobby = next(m for m in fake.channel_messages(table) if buttons(m, "lobby:"))
    assert "misses 1 decision in a row is played by the table's bot" in lobby.render()
    await fake.slash(ann, table, "indus cancel", {})
    game = await open_table(fake, bot, table, people, options={"timeout": "1d", "away_after": 1})
    seat = game.seat_of(bo.id)
    assert seat is not None
    days = Days(fake, clock, table, people)
    await days.play(bot, game, bo, lambda: [e.kind for e in game.seat_events].count("timeout") >= 1)
    assert game.seats[seat].away == "easy"  # after one timeout, not two
    await fake.stop(bot)
