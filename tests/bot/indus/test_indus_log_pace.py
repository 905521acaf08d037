"""The game's log at each pace: a live table writes a batch to the thread at each round's end; a
correspondence table keeps the lines on its board until they would overflow it (a round there
lasts hours or days: a post per round would cost a call for lines the board shows anyway)."""

from __future__ import annotations

from incan_kit import start_bot
from indus_kit import board, open_table, play_step
from table_kit import thread_of

from bot import Bot
from cogs.table.messages.story import BOARD_LOG_LIMIT
from engine.session import Table
from fakediscord import FakeDiscord, FakeUser

DAY = 86400.0


async def play_to_turn(fake: FakeDiscord, bot: Bot, table: Table, users: list[FakeUser], turn: int) -> None:
    """Play (the setup, then turns) until turn ``turn`` has begun: with two players, turns 1, 3
    and 5 each begin a round, so the rounds before them have ended."""
    for _ in range(400):
        if table.state.phase != "setup" and table.state.turn >= turn:
            return
        await play_step(fake, bot, table, users)
    raise AssertionError("the turns did not come")


async def test_a_live_table_writes_its_log_to_the_thread_at_each_rounds_end(fake, table, store, clock):
    users = [fake.user("Ann"), fake.user("Bo")]
    bot = await start_bot(fake, store, clock, decision_timeout_s=600.0)
    game = await open_table(fake, bot, table, users)
    await play_to_turn(fake, bot, game, users, 5)
    await bot.hub.outbox.drained()
    assert len(fake.channel_messages(thread_of(fake, table))) >= 3  # the opening line, then a batch a round
    await fake.stop(bot)


async def test_a_correspondence_table_keeps_its_log_on_the_board_until_it_would_overflow(fake, table, store, clock):
    users = [fake.user("Ann"), fake.user("Bo")]
    bot = await start_bot(fake, store, clock, decision_timeout_s=DAY)
    game = await open_table(fake, bot, table, users)
    await play_to_turn(fake, bot, game, users, 5)
    await bot.hub.outbox.drained()
    thread = thread_of(fake, table)
    lines = bot.hub.story.lines(game)
    assert len("\n".join(lines)) <= BOARD_LOG_LIMIT
    posts = fake.channel_messages(thread)
    assert len(posts) == 1  # the opening line only: no batch at the rounds' ends
    shown = (await board(fake, bot, game)).render()
    assert all(line in shown for line in lines[-3:])  # the round's lines are on the board
    # Lines keep coming: before they would overflow the board, a batch goes to the thread.
    for _ in range(60):
        if len(fake.channel_messages(thread)) > len(posts):
            break
        await play_step(fake, bot, game, users)
        await bot.hub.outbox.drained()
    assert len(fake.channel_messages(thread)) > len(posts)
    await fake.stop(bot)
