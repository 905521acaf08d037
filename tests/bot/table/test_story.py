"""The whole story of a game: the board shows what happened since the last batch, the game's
thread gets the batches, and at the end every event is in the thread exactly once (issue 13, item 4)."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from incan_kit import buttons, start_bot
from table_kit import choose, incan_table, incan_to_the_end, thread_lines, thread_of

from cogs.incan_gold.words import HAZARD_ICONS
from engine.core import CHANCE
from engine.incan_gold import GAME
from engine.session import Table
from fakediscord import FakeDiscord, FakeUser


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


async def expected_story(bot, store, game: Table) -> list[str]:
    """The log lines of the whole game, replayed from the store (timeouts included)."""
    renderer = bot.hub.renderers["incan_gold"]
    log = await store.load_game(game.id)
    notes = await store.seat_events(game.id)
    state = GAME.setup(len(log.seats), log.game.seed, log.game.options)
    lines = []
    for row in log.actions:
        for note in notes:
            if note.version == row.seq:
                lines.append(f"{game.seats[note.seat].display_name} did not decide in time: they returned to camp.")
        state, events = GAME.apply(state, row.seat, row.payload)
        lines += renderer.event_lines(game, events)
    return lines


async def test_every_event_reaches_the_thread_once_in_batches(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players, bots=("easy",))
    thread = thread_of(fake, table)
    lobby = next(m for m in fake.channel_messages(table) if "table open" in m.render() or "started" in m.render())
    assert thread.starter_message_id == lobby.id and thread.name.startswith("Incan Gold #")
    await incan_to_the_end(fake, game, players)
    lines = thread_lines(fake, thread)
    story = await expected_story(bot, store, game)
    assert lines[0].startswith("▶️ Incan Gold begins") and lines[-1].startswith("🏁 Game over")
    assert lines[1:-1] == story  # every event, in order, once
    cards = sum(1 for row in (await store.load_game(game.id)).actions if row.seat == CHANCE)
    marks = ("💎", "🏺", "💥", *HAZARD_ICONS.values())
    assert cards == sum(1 for line in story if line.startswith(marks))
    posts = fake.channel_messages(thread)
    assert len(posts) <= 5 + 2 + len("\n".join(story)) // 1000  # chapters + start/end + overflows
    assert len(posts) < cards / 3  # batches, not one post per event
    # The channel itself got no log posts: only the game's messages.
    assert not any(m.content.startswith("▶️") for m in fake.channel_messages(table))
    await fake.stop(bot)


async def test_the_board_shows_every_line_since_the_last_batch(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    await incan_to_the_end(fake, game, players, rounds=1)  # expedition 1 only
    thread = thread_of(fake, table)
    current = [m for m in fake.channel_messages(table) if buttons(m, "peek:")][-1]
    shown = [line for e in current.embeds for f in e.get("fields", []) if f["name"] == "What happened"
             for line in f["value"].splitlines()]
    story = await expected_story(bot, store, game)
    posted = thread_lines(fake, thread)[1:]
    assert posted + shown == story  # the thread up to the last batch, the board from there on
    await fake.stop(bot)


async def test_without_permission_to_create_a_thread_the_log_goes_to_the_channel(fake, table, store, clock, players):
    """Issue 45: the bot knows it may not make a thread there, so it does not try (no 403)."""
    fake.set_bot_permissions(table, create_threads=False)
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players, bots=("medium",))
    await incan_to_the_end(fake, game, players)
    assert fake.threads(table) == []
    texts = [m.content for m in fake.channel_messages(table) if not m.embeds]
    told = [text for text in texts if text.startswith("⚠️")]
    assert told == ["⚠️ **Create Public Threads** is off for me in this channel: the game's log is posted "
                    "here, not in a thread."]  # once
    logged = [line for text in texts if not text.startswith("⚠️") for line in text.splitlines()]
    assert logged[1:-1] == await expected_story(bot, store, game) and game.status == "finished"
    assert fake.forbidden == [] and not fake.calls("POST", "/channels/{channel_id}/messages/{message_id}/threads")
    await fake.stop(bot)


async def test_a_thread_the_bot_cannot_post_in_falls_back_to_the_channel(fake, table, store, clock, players):
    """Without Send Messages in Threads no thread is made (nobody could write in it): the log goes
    to the channel at once, without a 403 (issue 45)."""
    fake.set_bot_permissions(table, send_in_threads=False)
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    await incan_to_the_end(fake, game, players)
    assert fake.threads(table) == []
    texts = [m.content for m in fake.channel_messages(table) if not m.embeds]
    assert sum(text.startswith("⚠️ **Send Messages in Threads** is off") for text in texts) == 1
    logged = [line for text in texts if not text.startswith("⚠️") for line in text.splitlines()]
    assert logged[1:-1] == await expected_story(bot, store, game)
    assert fake.forbidden == []
    await fake.stop(bot)


async def test_a_restart_neither_drops_nor_repeats_a_line(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    await incan_to_the_end(fake, game, players, rounds=1)
    seat = game.humans_owing()[0]  # a choice into expedition 2, then the bot stops
    await choose(fake, game, next(u for u in players if u.id == game.seats[seat].user_id), "torch")
    await fake.stop(bot)
    await clock.advance(130)  # the decision ran out while the bot was down: a timeout on start-up
    again = await start_bot(fake, store, clock)
    revived = await again.sessions.table(game.id)
    await fake.run(clock.advance, 0)
    await incan_to_the_end(fake, revived, players)
    lines = thread_lines(fake, thread_of(fake, table))
    story = await expected_story(again, store, revived)
    assert any("did not decide in time" in line for line in story)
    assert lines[1:-1] == story
    await fake.stop(again)


async def test_opening_many_games_at_once_keeps_within_the_global_budget(fake, store, clock):
    """Each game's thread is made by its log's first call, through the outbox: a burst of starts
    (a lobby closed, a thread made, the first batch posted, the first expedition sent) never meets a
    429, with a global budget small enough that a thread made beside the outbox used to overflow it."""
    from fakediscord.ratelimits import RateLimits

    fake.limit(RateLimits(global_per_s=6))
    bot = await start_bot(fake, store, clock, rate_limited=True, rest_per_second=6)
    await asyncio.sleep(1.1)  # discord.py's log-in and the command sync are outside the bot's budget
    channels = [fake.text_channel(f"t{n}") for n in range(6)]
    users = [fake.user(f"P{n}") for n in range(3)]
    await bot.sessions.set_server_setting(fake.guild_id, "tables_per_host", len(channels))  # one host opens all
    for channel in channels:  # everyone opens a table at once (the lobbies wait for the budget)
        await fake.slash(users[0], channel, "incan new", {})
    await bot.hub.outbox.drained()
    for channel in channels:
        table = await bot.sessions.table_in(channel.id)
        for user in users[1:]:
            await fake.run(bot.sessions.join, table.id, dataclasses.replace(table.seats[0], display_name=user.name,
                                                                            user_id=user.id))
    for channel in channels:  # and everyone starts at once
        table = await bot.sessions.table_in(channel.id)
        await fake.run(bot.sessions.start, table.id, users[0].id, 7)
    await bot.hub.outbox.drained()
    assert fake.invalid_requests == 0 and fake.limiter is not None and fake.limiter.rate_limited == 0
    assert all(len(fake.threads(channel)) == 1 for channel in channels)  # every game has its thread
    for channel in channels:
        [thread] = fake.threads(channel)
        assert "begins" in thread_lines(fake, thread)[0]
    await fake.stop(bot)
