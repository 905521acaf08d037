"""A table's pace (issue 41, part 1): decision times from 30 seconds to 7 days, written as people
write them; the pace shown on the lobby, the board and the prompts; a correspondence lobby that
waits a day; reminders at half time and near the end; closed DMs reminded in the channel."""

from __future__ import annotations

import pytest
from incan_kit import buttons, last_dm, lobby_id, start_bot
from table_kit import choose, lobby_message

from engine.session import SessionError
from fakediscord import FakeChannel, FakeDiscord, FakeUser

DAY, HOUR = 86400, 3600
ACCEPTED = "between 30 seconds and 7 days, e.g. 90s, 10m, 8h, 3d"


def answer(fake: FakeDiscord, user: FakeUser) -> str:
    return fake.ephemeral_replies(user)[-1].render()


def expedition(fake: FakeDiscord, channel: FakeChannel):
    """The current expedition's public message (the one with My status)."""
    return [m for m in fake.channel_messages(channel) if buttons(m, "peek:")][-1]


async def open_incan(fake, bot, channel, users, timeout: str | None = None, start: bool = True):
    """Open Incan Gold with ``users`` (the first hosts) and the given timeout; start it."""
    await fake.slash(users[0], channel, "incan new", {} if timeout is None else {"timeout": timeout})
    lobby = lobby_message(fake, channel)
    for user in users[1:]:
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    if start:
        await fake.click(users[0], lobby, lobby_id(lobby, "start"))
    return await bot.sessions.table_in(channel.id)


def reminders(fake: FakeDiscord, user: FakeUser) -> list[str]:
    return [m.content for m in fake.dm_messages(user) if "the card closes" in m.content]


# --------------------------------------------------------------------------- durations


@pytest.mark.parametrize(("command", "timeout", "seconds"), [
    ("incan new", "1d", DAY), ("incan new", "90", 90), ("sakkara new", "8h", 8 * HOUR),
    ("indus new", "1d12h", 36 * HOUR), ("indus new", "7d", 7 * DAY), ("sakkara new", "10m", 600),
])
async def test_a_new_table_takes_its_decision_time_as_a_duration(fake, table, store, clock, ann, command, timeout,
                                                                seconds):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, command, {"timeout": timeout})
    game = await bot.sessions.table_in(table.id)
    assert game.table_options["decision_timeout_s"] == seconds
    await fake.stop(bot)


@pytest.mark.parametrize(("timeout", "why"), [("soon", "is not a duration"), ("29s", "too short"),
                                              ("8d", "too long"), ("1h soon", "is not a duration")])
async def test_a_wrong_decision_time_is_refused_privately_and_opens_nothing(fake, table, store, clock, ann,
                                                                           timeout, why):
    bot = await start_bot(fake, store, clock)
    rec = await fake.slash(ann, table, "sakkara new", {"timeout": timeout})
    said = rec.replies[-1]
    assert why in said.render() and ACCEPTED in said.render() and said.ephemeral
    with pytest.raises(SessionError, match="no_table"):
        await bot.sessions.table_in(table.id)
    assert fake.channel_messages(table) == []
    await fake.stop(bot)


async def test_the_refusal_is_in_the_readers_language(fake, table, store, clock):
    aino = fake.user("Aino", locale="fi")
    bot = await start_bot(fake, store, clock)
    await fake.slash(aino, table, "incan new", {"timeout": "2 weeks"})
    assert "Päätösaika on 30 sekunnista 7 päivään" in answer(fake, aino)
    await fake.stop(bot)


async def test_a_servers_decision_time_is_a_duration_and_shows_its_pace(fake, table, store, clock):
    boss = fake.user("Boss", manage_guild=True)
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings decision_time", {"time": "3d"})
    assert "**Correspondence · 3 days per decision**" in answer(fake, boss)
    assert (await bot.sessions.server_settings(fake.guild_id))["decision_timeout_s"] == 3 * DAY
    await fake.slash(boss, table, "settings decision_time", {"time": "20s"})  # too short: nothing changes
    assert "too short" in answer(fake, boss) and ACCEPTED in answer(fake, boss)
    assert (await bot.sessions.server_settings(fake.guild_id))["decision_timeout_s"] == 3 * DAY
    await fake.slash(boss, table, "settings decision_time", {})
    assert "**Correspondence · 3 days per decision**" in answer(fake, boss)
    await fake.slash(boss, table, "settings decision_time", {"time": "90"})
    assert "**Live · 1 minute and 30 seconds per decision**" in answer(fake, boss)
    await fake.stop(bot)


# --------------------------------------------------------------------------- the pace, shown


async def test_a_correspondence_table_shows_its_pace_on_lobby_board_and_prompt(fake, table, store, clock, ann):
    bo = fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    game = await open_incan(fake, bot, table, [ann, bo], "1d", start=False)
    lobby = lobby_message(fake, table)
    assert "Correspondence · 1 day per decision" in lobby.render()
    assert game.lobby_until is not None and round(game.lobby_until - clock.now()) == DAY
    assert f"closes <t:{int(game.lobby_until)}:R>" in lobby.render()  # how long it stays open, live
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    board = expedition(fake, table)
    due = f"<t:{int(game.deadline)}:R>"
    assert round(game.deadline - clock.now()) == DAY
    assert f"Time runs out {due} (Correspondence · 1 day per decision)" in board.render()
    await fake.click(bo, board, buttons(board, "peek:")[0])  # his private prompt
    assert "Correspondence · 1 day per decision" in answer(fake, bo) and due in answer(fake, bo)
    await fake.stop(bot)


async def test_a_sakkara_dm_prompt_shows_the_pace(fake, table, store, clock, ann):
    bo = fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "sakkara new", {"timeout": "8h"})
    lobby = lobby_message(fake, table)
    await fake.click(bo, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    user = ann if game.seats[game.humans_owing()[0]].user_id == ann.id else bo
    prompt = last_dm(fake, user) or [m for m in fake.dm_messages(user) if m.custom_ids][-1]
    assert "Correspondence · 8 hours per decision" in prompt.render()
    await fake.stop(bot)


async def test_a_live_table_keeps_its_short_deadline_line(fake, table, store, clock, ann):
    bo = fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    game = await open_incan(fake, bot, table, [ann, bo], "2m", start=False)
    assert "Live · 2 minutes per decision" in lobby_message(fake, table).render()
    assert "closes" not in lobby_message(fake, table).render()  # a live lobby does not say so
    await fake.click(ann, lobby_message(fake, table), lobby_id(lobby_message(fake, table), "start"))
    board = expedition(fake, table).render()
    assert f"Time runs out <t:{int(game.deadline)}:R>." in board and "per decision" not in board
    await fake.stop(bot)


# --------------------------------------------------------------------------- the lobby waits a day


@pytest.mark.parametrize("restarted", [False, True])
async def test_a_correspondence_lobby_stays_open_a_day_then_closes(fake, table, store, clock, ann, restarted):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {"timeout": "8h"})  # correspondence: its lobby waits a day
    lobby = lobby_message(fake, table)
    await fake.run(clock.advance, 8 * HOUR + 1)  # a live lobby, or one that waited a decision time, is gone
    assert buttons(fake.messages[lobby.id], "lobby:")
    if restarted:
        await fake.stop(bot)
        bot = await start_bot(fake, store, clock)
        game = await bot.sessions.table_in(table.id)  # loaded: it knows when its lobby closes
        assert game.lobby_until is not None and round(game.lobby_until - clock.now()) == DAY - 8 * HOUR - 1
    await fake.run(clock.advance, DAY - 8 * HOUR - 10)
    assert buttons(fake.messages[lobby.id], "lobby:")
    await fake.run(clock.advance, 10)
    closed = fake.messages[lobby.id]
    assert "Nobody started this table in time" in closed.text and not buttons(closed, "lobby:")
    with pytest.raises(SessionError, match="no_table"):
        await bot.sessions.table_in(table.id)
    await fake.stop(bot)


# --------------------------------------------------------------------------- reminders


@pytest.mark.parametrize("restarted", [False, True])
async def test_a_day_long_decision_is_reminded_at_half_time_and_an_hour_before(fake, table, store, clock, ann,
                                                                              restarted):
    bo, cy = fake.user("Bo"), fake.user("Cy")
    bot = await start_bot(fake, store, clock)
    game = await open_incan(fake, bot, table, [ann, bo, cy], "1d")
    await choose(fake, game, ann, "torch")
    deadline = game.deadline
    assert deadline is not None
    await fake.run(clock.advance, DAY / 2 - 10)
    assert reminders(fake, bo) == []
    await fake.run(clock.advance, 10)  # half time
    for user in (bo, cy):
        said = reminders(fake, user)
        assert len(said) == 1 and f"<t:{int(deadline)}:R>" in said[0]
        assert "if you have not chosen, you go back to camp with what you carry" in said[0]
    assert reminders(fake, ann) == []  # she has chosen
    if restarted:  # a restart arms the reminders still to come, from the stored deadline
        await fake.stop(bot)
        bot = await start_bot(fake, store, clock)
    await fake.run(clock.advance, DAY / 2 - HOUR - 10)
    assert [len(reminders(fake, user)) for user in (bo, cy)] == [1, 1]
    await fake.run(clock.advance, 10)  # an hour before the end
    assert [len(reminders(fake, user)) for user in (bo, cy)] == [2, 2]
    assert not any("the card closes" in text for text in fake.public_texts())  # DMs reached them
    await fake.run(clock.advance, HOUR)
    game = await bot.sessions.table_in(table.id)
    assert game.window > 0 and [len(reminders(fake, user)) for user in (bo, cy)] == [2, 2]
    await fake.stop(bot)


async def test_closed_dms_are_reminded_in_the_channel_without_telling_who_has_chosen(fake, table, store, clock,
                                                                                    ann):
    bo, cy, dan = fake.user("Bo"), fake.user("Cy"), fake.user("Dan")  # Dan only watches
    fake.close_dms(cy)
    bot = await start_bot(fake, store, clock)
    game = await open_incan(fake, bot, table, [ann, bo, cy], "1d")
    await choose(fake, game, ann, "torch")
    before = {m.id for m in fake.channel_messages(table)}
    start = len(fake.rest_calls)
    await fake.run(clock.advance, DAY / 2)  # half time: Bo by DM; Cy's DM fails (403)
    assert len(reminders(fake, bo)) == 1 and fake.dm_messages(cy) == []
    notes = [m for m in fake.channel_messages(table) if m.id not in before and "the card closes" in m.content]
    assert len(notes) == 1  # one message for the reminder
    people = (ann, bo, cy)  # everyone inside, chosen or not: nobody learns who still owes
    assert sorted(notes[0].content.split()[:3]) == sorted(f"<@{u.id}>" for u in people)
    assert "whoever has not chosen goes back to camp" in notes[0].content
    assert not any(name in notes[0].content for name in ("Ann", "Bo", "Cy", "Dan"))
    sent = next(c for c in fake.rest_calls[start:] if c.method == "POST" and c.response
                and c.response.get("id") == str(notes[0].id))
    allowed = sent.payload["allowed_mentions"]
    assert sorted(map(int, allowed["users"])) == sorted(u.id for u in people) and not allowed.get("parse")
    assert dan.id not in map(int, allowed["users"])
    await fake.run(clock.advance, DAY / 2 - HOUR)  # near the end: Cy is known closed, not tried again
    notes = [m for m in fake.channel_messages(table) if m.id not in before and "the card closes" in m.content]
    assert len(notes) == 2 and fake.dm_messages(cy) == []
    await fake.stop(bot)


async def test_a_sakkara_player_with_closed_dms_is_named_alone_in_the_channel(fake, table, store, clock, ann):
    bo = fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "sakkara new", {})
    lobby = lobby_message(fake, table)
    await fake.click(bo, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    owing = ann if game.seats[game.humans_owing()[0]].user_id == ann.id else bo
    other = bo if owing is ann else ann
    bot.hub.private.dms_closed(owing.id)
    start = len(fake.rest_calls)
    await fake.run(clock.advance, 91)  # the live reminder, 30 s before the end
    notes = [m for m in fake.channel_messages(table) if "the Easy bot plays what you owe" in m.content]
    assert len(notes) == 1 and notes[0].content.startswith(f"<@{owing.id}> ")
    assert f"<@{other.id}>" not in notes[0].content
    sent = next(c for c in fake.rest_calls[start:] if c.method == "POST" and c.response
                and c.response.get("id") == str(notes[0].id))
    assert [int(u) for u in sent.payload["allowed_mentions"]["users"]] == [owing.id]
    await fake.stop(bot)
