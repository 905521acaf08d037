"""``/tables`` (issue 13, item 7): a server's active tables with links, privately; a server manager
ends one through a confirmation and the session's cancel. Crafted presses change nothing."""

from __future__ import annotations

from incan_kit import buttons, lobby_id, start_bot

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from fakediscord.crafted import SELECT as STRING_SELECT


def lobby_of(fake: FakeDiscord, channel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


def private(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    return fake.ephemeral_replies(user)[-1]


async def open_two(fake: FakeDiscord, bot, first, second):
    """An Incan Gold lobby in ``first`` and a running Sakkara game in ``second``."""
    ann, bo = fake.user("Ann"), fake.user("Bo")
    await fake.slash(ann, first, "incan new", {})
    await fake.slash(bo, second, "sakkara new", {})
    lobby = lobby_of(fake, second)
    await fake.click(ann, lobby, lobby_id(lobby, "join"))
    await fake.click(bo, lobby, lobby_id(lobby, "start"))
    return ann, bo, await bot.sessions.table_in(first.id), await bot.sessions.table_in(second.id)


async def test_an_empty_server_is_told_how_to_open_a_table(fake, table, store, clock):
    cy = fake.user("Cy")
    bot = await start_bot(fake, store, clock)
    await fake.slash(cy, table, "tables", {})
    answer = private(fake, cy)
    assert answer.ephemeral and "No table is open" in answer.render() and "/incan new" in answer.render()
    await fake.stop(bot)


async def test_everyone_sees_the_tables_with_links_and_only_managers_get_the_menu(fake, table, store, clock):
    bot = await start_bot(fake, store, clock)
    other = fake.text_channel("second")
    await open_two(fake, bot, table, other)
    cy = fake.user("Cy")
    await fake.slash(cy, table, "tables", {})
    text = private(fake, cy).render()
    assert f"<#{table.id}>" in text and f"<#{other.id}>" in text
    assert "waiting in the lobby" in text and "playing" in text and "Ann" in text and "Bo" in text
    assert f"/channels/{fake.guild_id}/{other.id}/" in text  # a jump link to the Sakkara board
    assert private(fake, cy).custom_ids == []  # not a manager: nothing to press
    await fake.stop(bot)


async def test_a_manager_ends_a_running_table_after_confirming(fake, table, store, clock):
    bot = await start_bot(fake, store, clock)
    other = fake.text_channel("second")
    ann, bo, incan, sakkara = await open_two(fake, bot, table, other)
    boss = fake.user("Boss", manage_guild=True)
    await fake.slash(boss, table, "tables", {})
    listing = private(fake, boss)
    menu = f"tables:menu:{fake.guild_id}"
    assert listing.custom_ids == [menu]
    await fake.select(boss, listing, menu, [str(sakkara.id)])
    ask = private(fake, boss)
    assert "End Sakkara" in ask.render() and ask.custom_ids == [f"tables:end:{sakkara.id}", f"tables:keep:{sakkara.id}"]
    assert sakkara.status == "playing"  # asking changes nothing
    await fake.click(boss, ask, f"tables:end:{sakkara.id}")
    assert sakkara.status == "cancelled" and incan.status == "lobby"
    assert "was ended" in private(fake, boss).render() and private(fake, boss).custom_ids == []
    told = fake.channel_messages(other)[-1].render()
    assert f"<@{ann.id}>" in told and f"<@{bo.id}>" in told  # the channel and every seated player
    live = [c for m in fake.channel_messages(other) for c in m.custom_ids if not c.startswith("rematch:")]
    assert live == []  # every control of the ended table is closed
    await fake.stop(bot)


async def test_keep_it_and_crafted_presses_change_nothing(fake, table, store, clock):
    bot = await start_bot(fake, store, clock)
    other = fake.text_channel("second")
    ann, _bo, incan, sakkara = await open_two(fake, bot, table, other)
    boss = fake.user("Boss", manage_guild=True)
    await fake.slash(boss, table, "tables", {})
    listing = private(fake, boss)
    await fake.select(boss, listing, f"tables:menu:{fake.guild_id}", [str(incan.id)])
    ask = private(fake, boss)
    await fake.click(boss, ask, f"tables:keep:{incan.id}")
    assert "Nothing was changed" in private(fake, boss).render() and incan.status == "lobby"

    # A player without Manage Server crafts the menu and the button: refused.
    await fake.slash(ann, table, "tables", {})
    theirs = private(fake, ann)
    await fake.craft_component(ann, theirs, f"tables:menu:{fake.guild_id}", component_type=STRING_SELECT,
                               values=[str(sakkara.id)])
    assert "manage the server may end" in private(fake, ann).render()
    await fake.craft_component(ann, theirs, f"tables:end:{sakkara.id}")
    assert "manage the server may end" in private(fake, ann).render()
    # A manager of another server names this server's table: refused.
    elsewhere = fake.text_channel("theirs", guild_id=fake.other_guild())
    mallory = fake.user("Mallory", manage_guild=True)
    await fake.slash(mallory, elsewhere, "tables", {})
    await fake.craft_component(mallory, private(fake, mallory), f"tables:end:{sakkara.id}")
    assert "not valid" in private(fake, mallory).render()
    await fake.craft_component(mallory, private(fake, mallory), f"tables:menu:{fake.guild_id}",
                               component_type=STRING_SELECT, values=["99999999999999999999999"])
    assert "not valid" in private(fake, mallory).render()
    assert sakkara.status == "playing" and incan.status == "lobby"
    await fake.stop(bot)
