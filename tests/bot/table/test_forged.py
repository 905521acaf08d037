"""Forged and crafted interactions: a button's table id is untrusted input (issue 15, items 1 and 3).

A crafted interaction is what a modified client can send: any custom_id on a message it can see,
any option value (fakediscord/crafted.py). Every one gets a private answer, changes nothing and
logs no traceback (the `fake` fixture fails a test on any ERROR discord.py or the bot logs).
"""

from __future__ import annotations

import pytest
from incan_kit import buttons, lobby_id, start_bot

from fakediscord import FakeDiscord, FakeMessage, FakeUser

NOT_VALID = "That is not valid"


def lobby_of(fake: FakeDiscord, channel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


def private_text(fake: FakeDiscord, user: FakeUser) -> str:
    return fake.ephemeral_replies(user)[-1].render()


async def test_a_forged_cancel_from_another_server_changes_nothing(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {})
    victim = await bot.sessions.table_in(table.id)
    # Mallory manages her own server, where the bot also runs a table.
    theirs = fake.text_channel("their-table", guild_id=fake.other_guild())
    mallory = fake.user("Mallory", manage_guild=True)
    await fake.slash(mallory, theirs, "incan new", {})
    own = lobby_of(fake, theirs)
    rec = await fake.craft_component(mallory, own, f"lobby:{victim.id}:cancel")
    assert rec.acknowledged
    assert NOT_VALID in private_text(fake, mallory)
    assert await bot.sessions.table_in(table.id) is victim and victim.status == "lobby"
    assert (await store.load_game(victim.id)).game.status == "lobby"
    await fake.stop(bot)


async def test_a_forged_join_from_another_server_seats_nobody(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {})
    victim = await bot.sessions.table_in(table.id)
    theirs = fake.text_channel("their-table", guild_id=fake.other_guild())
    mallory = fake.user("Mallory")
    await fake.slash(mallory, theirs, "incan new", {})
    for op in ("join", "ai-easy", "start", "leave"):
        await fake.craft_component(mallory, lobby_of(fake, theirs), f"lobby:{victim.id}:{op}")
        assert NOT_VALID in private_text(fake, mallory)
    assert [s.user_id for s in victim.seats] == [ann.id]
    assert len((await store.load_game(victim.id)).seats) == 1
    await fake.stop(bot)


async def test_a_button_of_another_channel_of_the_same_server_is_refused(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {})
    victim = await bot.sessions.table_in(table.id)
    other = fake.text_channel("other")
    bo = fake.user("Bo", manage_guild=True)
    await fake.slash(bo, other, "incan new", {})
    await fake.craft_component(bo, lobby_of(fake, other), f"lobby:{victim.id}:cancel")
    assert NOT_VALID in private_text(fake, bo)
    assert victim.status == "lobby"
    await fake.stop(bot)


async def test_a_forged_move_in_a_dm_needs_a_seat(fake, table, store, clock, ann):
    """A DM button is honoured only for someone seated at its table (DMs carry no channel to check)."""
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {})
    game = await bot.sessions.table_in(table.id)
    lobby = lobby_of(fake, table)
    for level in ("easy", "easy"):
        await fake.click(ann, lobby, lobby_id(lobby, f"ai-{level}"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    version = game.version
    eve = fake.user("Eve")
    # Eve's only DM from the bot: she opened a Sakkara table once (Sakkara checks that DMs reach her).
    other = fake.text_channel("other")
    await fake.slash(eve, other, "sakkara new", {})
    dm = fake.dm_messages(eve)[-1]
    for custom_id in (f'act:{game.id}:{game.window}:"camp"', f"peek:{game.id}", f"lobby:{game.id}:cancel",
                      f"rematch:{game.id}"):
        await fake.craft_component(eve, dm, custom_id)
        assert NOT_VALID in private_text(fake, eve)
    assert game.version == version and game.status == "playing"
    await fake.stop(bot)


async def test_a_rematch_forged_from_another_server_opens_nothing(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {})
    game = await bot.sessions.table_in(table.id)
    await bot.sessions.cancel(game.id, ann.id, False)
    theirs = fake.text_channel("their-table", guild_id=fake.other_guild())
    await fake.slash(ann, theirs, "incan new", {})  # Ann sat at the old table: still not from there
    await fake.craft_component(ann, lobby_of(fake, theirs), f"rematch:{game.id}")
    assert NOT_VALID in private_text(fake, ann)
    with pytest.raises(Exception, match="no_table"):
        await bot.sessions.table_in(table.id)
    await fake.stop(bot)
