"""Players wanted (issue 44, item 3): ``/notify new_tables`` per server, the one message an opening
table sends naming exactly the members who asked (20 at most), and tables scheduled with
``start_at`` (a live timestamp, a reminder, a start at the time with bots when asked, across a restart)."""

from __future__ import annotations

import pytest
from incan_kit import buttons, lobby_id, start_bot

from engine.session.schedule import START_REMINDER_S
from fakediscord import FakeDiscord, FakeMessage, FakeUser

HOUR = 3600.0
TEN = 1_800_000_000 + 2 * HOUR  # the test clock starts at 2027-01-15 08:00 UTC: "10:00" is two hours on


def wanted_messages(fake: FakeDiscord, channel) -> list[FakeMessage]:
    return [m for m in fake.channel_messages(channel) if "Players wanted" in m.content]


def private_answer(fake: FakeDiscord, user: FakeUser) -> str:
    [reply] = fake.last_interaction_response(user).replies
    assert reply.ephemeral
    return reply.render()


def lobby(fake: FakeDiscord, channel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def test_an_opening_names_exactly_the_first_twenty_who_asked_and_notifies_nobody_else(fake, table, store,
                                                                                            clock, ann):
    bot = await start_bot(fake, store, clock)
    members = [fake.user(f"P{number}") for number in range(24)]
    bystander = fake.user("Quiet")  # never asked
    await fake.slash(ann, table, "notify", {"new_tables": "on"})  # the host asked too: not named at their own table
    for member in members:
        await fake.slash(member, table, "notify", {"new_tables": "on"})
    assert "you are named when a new table opens" in private_answer(fake, members[-1])
    await fake.slash(members[3], table, "notify", {"new_tables": "off"})  # changed their mind
    assert "no longer named" in private_answer(fake, members[3])
    await fake.slash(ann, table, "incan new", {})
    [message] = wanted_messages(fake, table)
    expected = [m.id for m in members if m is not members[3]][:20]  # the longest-waiting first
    assert message.notified == frozenset(expected)
    assert lobby(fake, table).id != message.id and f"/channels/{fake.guild_id}/{table.id}/" in message.content
    for user in (ann, bystander, members[3], *members[21:]):
        assert fake.notifications(user) == [], user.name
    await fake.stop(bot)


async def test_new_tables_is_per_server_and_shown_by_notify(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    bo, cy = fake.user("Bo"), fake.user("Cy")
    elsewhere = fake.text_channel("elsewhere", guild_id=fake.other_guild())
    await fake.slash(bo, table, "notify", {"new_tables": "on"})
    await fake.slash(cy, elsewhere, "notify", {"new_tables": "on"})
    await fake.slash(bo, elsewhere, "notify", {})
    assert "you are not named when a new table opens" in private_answer(fake, bo)
    await fake.slash(bo, fake.dm_channel(bo), "notify", {"new_tables": "off"})  # a DM names no server
    assert "per server" in private_answer(fake, bo) and await store.watches_new_tables(fake.guild_id, bo.id)
    rec = await fake.craft_slash(cy, table, "notify", {"new_tables": "everyone"})  # a modified client
    assert rec.acknowledged and "That is not valid" in private_answer(fake, cy)
    assert not await store.watches_new_tables(fake.guild_id, cy.id)
    await fake.slash(ann, elsewhere, "sakkara new", {})
    [there] = wanted_messages(fake, elsewhere)
    assert there.notified == frozenset({cy.id}) and wanted_messages(fake, table) == []
    await fake.slash(ann, table, "indus new", {})
    [here] = wanted_messages(fake, table)
    assert here.notified == frozenset({bo.id})
    await fake.stop(bot)


async def test_a_member_who_cannot_see_the_channel_is_not_notified(fake, table, store, clock, ann):
    """The bot asks for no member list (bot.INTENTS), so its cache rarely knows who can see a
    channel (cogs.table.messages.wanted leaves out whom it can tell); Discord notifies nobody of a
    message they cannot see, so a hidden member costs a place among the 20 at most."""
    bot = await start_bot(fake, store, clock)
    bo, cy = fake.user("Bo"), fake.user("Cy")
    hidden = fake.text_channel("hidden")
    for user in (bo, cy):
        await fake.slash(user, table, "notify", {"new_tables": "on"})
    fake.hide_channel(hidden, cy)  # an overwrite the bot's cache knows
    await fake.slash(ann, hidden, "incan new", {})
    [message] = wanted_messages(fake, hidden)
    assert message.notified == frozenset({bo.id}) and fake.notifications(cy) == []
    await fake.stop(bot)


async def test_nobody_asked_no_message(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {})
    assert wanted_messages(fake, table) == [] and fake.notifications(ann) == []
    await fake.stop(bot)


@pytest.mark.parametrize("restarted", [False, True])
async def test_a_scheduled_table_reminds_its_players_and_starts_at_its_time_with_bots(fake, table, store, clock,
                                                                                      ann, restarted):
    bot = await start_bot(fake, store, clock)
    bo = fake.user("Bo")
    await fake.slash(bo, table, "notify", {"new_tables": "on"})
    await fake.slash(ann, table, "sakkara new", {"start_at": "10:00", "fill_with": "easy"})
    assert "Your table is open" in private_answer(fake, ann)
    shown = lobby(fake, table)
    assert f"<t:{int(TEN)}:F>" in shown.text and f"<t:{int(TEN)}:R>" in shown.text and "easy" in shown.text
    [message] = wanted_messages(fake, table)
    assert f"<t:{int(TEN)}:F>" in message.content and message.notified == frozenset({bo.id})
    if restarted:  # the start and its reminder are stored: a restart long before them keeps both
        await fake.stop(bot)
        bot = await start_bot(fake, store, clock)
    await fake.run(clock.advance, 2 * HOUR - START_REMINDER_S - 1)
    assert not [m for m in fake.notifications(ann) if "⏰" in m.content]
    await fake.run(clock.advance, 2)
    [reminder] = [m for m in fake.notifications(ann) if "⏰" in m.content]
    assert f"<t:{int(TEN)}:R>" in reminder.content and fake.dm_messages(ann)[-1].id == reminder.id
    assert [m for m in fake.notifications(bo) if "⏰" in m.content] == []  # not seated: no reminder
    game = await bot.sessions.table_in(table.id)
    assert game.status == "lobby"
    await fake.run(clock.advance, START_REMINDER_S - 2)  # a second before the start
    assert game.status == "lobby"
    await fake.run(clock.advance, 1)
    game = await bot.sessions.table_in(table.id)
    assert game.status == "playing"
    assert sorted(s.ai_level or "person" for s in game.seats) == ["easy", "person"]  # one bot filled the seat
    await fake.stop(bot)


async def test_a_scheduled_table_without_bots_waits_for_its_host_when_too_few_came(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {"start_at": "10:00"})
    assert "waits for the host" in lobby(fake, table).text
    await fake.run(clock.advance, 2 * HOUR + 1)
    game = await bot.sessions.table_in(table.id)
    assert game.status == "lobby" and len(game.seats) == 1
    await fake.click(fake.user("Bo"), lobby(fake, table), lobby_id(lobby(fake, table), "join"))
    await fake.click(ann, lobby(fake, table), lobby_id(lobby(fake, table), "start"))
    assert (await bot.sessions.table_in(table.id)).status == "playing"
    await fake.stop(bot)


async def test_a_scheduled_table_with_enough_players_starts_by_itself(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    bo = fake.user("Bo")
    fake.close_dms(bo)
    await fake.slash(ann, table, "incan new", {"start_at": "2027-01-15 10:00"})
    await fake.click(bo, lobby(fake, table), lobby_id(lobby(fake, table), "join"))  # DMs closed: the reminder learns it
    await fake.run(clock.advance, 2 * HOUR - START_REMINDER_S + 1)
    [told] = [m for m in fake.notifications(bo) if "⏰" in m.content]
    assert told.channel_id == table.id and told.notified == frozenset({bo.id})  # the channel, naming only Bo
    await fake.run(clock.advance, START_REMINDER_S)
    game = await bot.sessions.table_in(table.id)
    assert game.status == "playing" and not any(s.is_ai for s in game.seats)
    await fake.stop(bot)


@pytest.mark.parametrize(("written", "said"), [("25:00", "not a time I can read"), ("soon", "not a time I can read"),
                                               ("07:59", "already passed"), ("2027-01-23 09:00", "more than a week"),
                                               ("2027-02-30 09:00", "not a time I can read")])
async def test_a_bad_start_time_is_refused_privately_and_opens_nothing(fake, table, store, clock, ann, written, said):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {"start_at": written})
    answer = private_answer(fake, ann)
    assert said in answer and "18:30" in answer and "Nothing was opened" in answer
    assert [m for m in fake.channel_messages(table) if buttons(m, "lobby:")] == []
    await fake.slash(ann, table, "incan new", {"fill_with": "hard"})  # bots to fill with need a start time
    assert "start_at" in private_answer(fake, ann) and not fake.channel_messages(table)
    aino = fake.user("Aino", locale="fi")
    await fake.slash(aino, table, "incan new", {"start_at": written})
    assert "18:30" in private_answer(fake, aino) and "Mitään ei avattu" in private_answer(fake, aino)
    await fake.stop(bot)

