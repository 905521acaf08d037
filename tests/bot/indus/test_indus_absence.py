"""Absence in a correspondence Indus game through the real client and the fake Discord (issue 41,
item 5): Bo lets two turns of a day each run out, the Easy bot takes his seat and plays it at bot
speed (before and after a restart), everyone is told in the game's log and Bo by DM; a click of
his takes the seat back, and the summary says how long the bot played for him. A live table keeps
today's behaviour: a timeout plays only that turn, never more."""

from __future__ import annotations

import pytest
from incan_kit import buttons, start_bot
from indus_kit import board, first_choice, open_table, play_step, play_to_the_end
from table_kit import thread_lines

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeUser


@pytest.fixture
def people(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]

DAY = 86400.0
BOT_DELAY = 1.5
CORRESPONDENCE = {"decision_timeout_s": DAY, "ai_delay_s": BOT_DELAY}


async def until(fake: FakeDiscord, bot: Bot, clock: ManualClock, table: Table, users: list[FakeUser],
                absent: FakeUser, done: object, timeout_s: float = DAY) -> None:
    """Play on (the present people take the first option on the board, ``absent`` lets his
    deadline pass, bots wait their delay) until ``done()``."""
    for _ in range(600):
        if done() or table.status != "playing":  # type: ignore[operator]
            return
        owing = table.humans_owing()
        if not owing:
            await fake.run(clock.advance, BOT_DELAY)
        elif table.seats[owing[0]].user_id == absent.id:
            await fake.run(clock.advance, timeout_s + 1)
        else:
            await play_step(fake, bot, table, users)
    raise AssertionError("the game never got there")


async def bo_away(fake: FakeDiscord, channel: FakeChannel, store: Store, clock: ManualClock,
                  people: list[FakeUser]) -> tuple[Bot, Table, int]:
    """Open a correspondence table of ``people`` and let Bo (the second) miss his turns until the
    bot plays his seat; return the bot, the table and his seat."""
    bo = people[1]
    bot = await start_bot(fake, store, clock, **CORRESPONDENCE)
    game = await open_table(fake, bot, channel, people)
    seat = game.seat_of(bo.id)
    assert seat is not None
    await until(fake, bot, clock, game, people, bo, lambda: game.seats[seat].away is not None)
    return bot, game, seat


def everything_told(fake: FakeDiscord, channel: FakeChannel, message_text: str) -> str:
    """The game's log as posted to its thread, and what the board shows now."""
    [thread] = fake.threads(channel)
    return "\n".join(thread_lines(fake, thread)) + "\n" + message_text


async def test_a_seat_away_is_played_by_the_bot_across_a_restart_and_taken_back_by_a_click(
        fake, table, store: Store, clock, people):
    bo = people[1]
    bot, game, seat = await bo_away(fake, table, store, clock, people)
    assert [e.kind for e in game.seat_events].count("timeout") == 2
    told = everything_told(fake, table, (await board(fake, bot, game)).render())
    assert "Bo is away: the Easy bot plays for them until they come back." in told
    dms = [m.content for m in fake.dm_messages(bo) if "plays your seat until you come back" in m.content]
    assert len(dms) == 1 and "Indus" in dms[0]

    # A restart in the middle of his absence (three hours down): the bot still plays his seat.
    await fake.stop(bot)
    await clock.advance(3 * 3600)
    bot = await start_bot(fake, store, clock, **CORRESPONDENCE)
    game = await bot.sessions.table_in(table.id)
    assert game.seats[seat].away == "easy"
    await until(fake, bot, clock, game, people, bo, lambda: seat in game.owing())
    turn = game.state.turn
    assert game.humans_owing() == [] and game.deadline is None  # nobody waits a day for Bo
    await until(fake, bot, clock, game, people, bo, lambda: game.state.turn != turn)
    assert game.seats[seat].away == "easy"  # the bot played his whole turn, at bot speed
    assert [e.kind for e in game.seat_events].count("timeout") == 2

    # Bo comes back: any click of his at the table (here a move button of someone else's turn,
    # refused privately) gives him his seat back.
    await until(fake, bot, clock, game, people, bo, lambda: bool(game.humans_owing()))
    message = await board(fake, bot, game)
    cid, value = first_choice(message)
    rec = await (fake.click(bo, message, cid) if value is None else fake.select(bo, message, cid, [value]))
    assert rec.replies and rec.replies[-1].ephemeral
    assert game.seats[seat].away is None
    told = everything_told(fake, table, (await board(fake, bot, game)).render())
    assert "Bo is back and plays their own seat again." in told
    assert any("welcome back" in m.content for m in fake.dm_messages(bo))
    await until(fake, bot, clock, game, people, bo, lambda: seat in game.owing())
    assert game.humans_owing() == [seat] and game.deadline is not None  # his own decision again, with a day for it

    await play_to_the_end(fake, bot, game, people)
    [summary] = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert "Bo: played by the bot for 3 hours while away." in summary.render()
    await fake.stop(bot)


async def test_a_live_table_plays_only_the_turn_that_timed_out(fake, table, store: Store, clock, people):
    bo = people[1]
    bot = await start_bot(fake, store, clock, ai_delay_s=BOT_DELAY)
    game = await open_table(fake, bot, table, people)
    seat = game.seat_of(bo.id)
    await until(fake, bot, clock, game, people, bo,
                lambda: [e.kind for e in game.seat_events].count("timeout") >= 3, timeout_s=120)
    assert [e.kind for e in game.seat_events].count("timeout") == 3 and game.status == "playing"
    assert seat is not None and not game.seats[seat].is_ai
    told = everything_told(fake, table, (await board(fake, bot, game)).render())
    assert "is away" not in told and not [m for m in fake.dm_messages(bo) if "plays your seat" in m.content]
    await fake.stop(bot)


async def test_a_player_with_closed_dms_is_told_in_the_channel_naming_only_them(fake, table, store: Store, clock):
    people = [fake.user("Ann"), fake.user("Bo", dms_open=False), fake.user("Cy")]
    bo = people[1]
    bot, _, _ = await bo_away(fake, table, store, clock, people)
    [notice] = [m for m in fake.channel_messages(table) if "plays your seat until you come back" in m.content]
    assert notice.content.startswith(f"<@{bo.id}> ") and fake.dm_messages(bo) == []
    sent = next(c for c in fake.rest_calls if c.method == "POST" and c.response and c.response.get("id") ==
                str(notice.id))
    allowed = sent.payload["allowed_mentions"]  # it may ping Bo, and nobody else
    assert [int(u) for u in allowed["users"]] == [bo.id] and not allowed.get("parse")
    await fake.stop(bot)


async def test_a_command_in_the_tables_channel_takes_the_seat_back(fake, table, store: Store, clock, people):
    bo = people[1]
    bot, game, seat = await bo_away(fake, table, store, clock, people)
    rec = await fake.slash(bo, table, "indus status", {})
    assert rec.ephemeral and game.seats[seat].away is None
    assert [e.kind for e in game.seat_events][-1] == "back"
    await fake.stop(bot)
