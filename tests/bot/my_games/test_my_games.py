"""``/games`` (issue 41, item 4): every running table a player sits at, across servers, privately,
in a server channel and in a DM with the bot: game, server and channel, whose turn, the player's
own deadline, a jump link; the tables waiting for them first; nothing secret of Incan Gold."""

from __future__ import annotations

import re

from incan_kit import lobby_id, start_bot
from table_kit import choose, incan_table, lobby_message

from cogs.my_games.cog import DESCRIPTION_MAX, games_embed
from engine.session import SeatSpec, Table
from fakediscord import FakeDiscord, FakeUser


def listing(fake: FakeDiscord, user: FakeUser) -> list[str]:
    """Return the lines of the user's latest private /games answer."""
    [reply] = fake.last_interaction_response(user).replies
    assert reply.ephemeral and reply.custom_ids == []
    [embed] = reply.embeds
    return str(embed.get("description", "")).splitlines()


def without_times(lines: list[str]) -> list[str]:
    return [re.sub(r"<t:\d+:R>", "<t:…>", line) for line in lines]


async def sakkara_table(fake, bot, channel, host, other, seed) -> Table:
    await fake.slash(host, channel, "sakkara new", {})
    lobby = lobby_message(fake, channel)
    await fake.click(other, lobby, lobby_id(lobby, "join"))
    table = await bot.sessions.table_in(channel.id)
    await fake.run(bot.sessions.start, table.id, host.id, seed)
    return table


async def test_tables_on_two_servers_in_a_channel_and_in_a_dm_waiting_for_you_first(fake, table, store, clock):
    ann, bo, cy = fake.user("Ann"), fake.user("Bo"), fake.user("Cy")
    bot = await start_bot(fake, store, clock)
    elsewhere = fake.text_channel("yonder", guild_id=fake.other_guild())
    lobby_channel, sakkara_channel = fake.text_channel("lobby"), fake.text_channel("pyramid")
    await fake.slash(bo, lobby_channel, "indus new", {})
    await fake.click(ann, lobby_message(fake, lobby_channel), lobby_id(lobby_message(fake, lobby_channel), "join"))
    sakkara = await sakkara_table(fake, bot, sakkara_channel, ann, bo, seed=1)
    assert sakkara.humans_owing() == [sakkara.seat_of(bo.id)]  # seed 1 seats Bo first: his turn
    incan = await incan_table(fake, bot, elsewhere, [bo, ann, cy])

    await fake.slash(ann, table, "games", {})
    lines = listing(fake, ann)
    assert len(lines) == 3
    incan_line = next(line for line in lines if "Incan Gold" in line)
    sakkara_line = next(line for line in lines if "Sakkara" in line)
    indus_line = next(line for line in lines if "Indus" in line)
    assert lines[-1] == indus_line and "in the lobby, 2 seated" in indus_line  # lobbies last
    assert f"Other Guild {elsewhere.guild_id}" in incan_line and f"<#{elsewhere.id}>" in incan_line
    assert "Fake Guild" in sakkara_line and f"<#{sakkara_channel.id}>" in sakkara_line
    assert "**waiting for you** (3 deciding)" in incan_line
    assert f"your time runs out <t:{int(incan.deadline or 0)}:R>" in incan_line  # her own deadline, live
    assert re.search(rf"/channels/{elsewhere.guild_id}/{elsewhere.id}/\d+\)", incan_line)  # the expedition
    assert re.search(rf"/channels/{fake.guild_id}/{lobby_channel.id}/\d+\)", indus_line)  # the lobby message
    assert "Bo to play" in sakkara_line and "<t:" not in sakkara_line  # Bo's deadline is not hers
    assert lines == [incan_line, sakkara_line, indus_line]  # the table waiting for her first
    await fake.slash(bo, table, "games", {})
    first, second, lobby_line = listing(fake, bo)  # both games wait for Bo: first, the lobby last
    assert "Sakkara" in first and "**your turn** — your time runs out <t:" in first
    assert "Incan Gold" in second and "**waiting for you**" in second and "Indus" in lobby_line

    # The same list from a DM with the bot, where there is no server.
    await fake.slash(ann, fake.dm_channel(ann), "games", {})
    assert listing(fake, ann) == lines

    # Nothing secret of Incan Gold: whether Bo has chosen does not change a line of Ann's list.
    await choose(fake, incan, ann, "torch")
    await fake.slash(ann, table, "games", {})
    before = listing(fake, ann)
    after_ann = next(line for line in before if "Incan Gold" in line)
    assert "waiting for the others (3 deciding)" in after_ann and "Bo" not in after_ann and "Cy" not in after_ann
    assert "<t:" not in after_ann  # she has chosen: no deadline of hers there
    await choose(fake, incan, bo, "camp")
    await fake.slash(ann, table, "games", {})
    assert without_times(listing(fake, ann)) == without_times(before)
    await fake.slash(cy, fake.dm_channel(cy), "games", {})  # Cy still owes: told only about himself
    cy_line = next(line for line in listing(fake, cy) if "Incan Gold" in line)
    assert "**waiting for you** (3 deciding)" in cy_line and "Bo" not in cy_line and "Ann" not in cy_line
    await fake.stop(bot)


async def test_nothing_running_is_a_friendly_line(fake, table, store, clock):
    dee = fake.user("Dee")
    bot = await start_bot(fake, store, clock)
    await fake.slash(dee, fake.dm_channel(dee), "games", {})
    [line] = listing(fake, dee)
    assert "You sit at no running table" in line and "/incan new" in line
    await fake.stop(bot)


async def test_a_table_not_in_memory_is_loaded_through_the_session(fake, table, store, clock):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    game = await sakkara_table(fake, bot, table, ann, bo, seed=1)
    await fake.stop(bot)
    again = await start_bot(fake, store, clock)
    assert again.sessions.loaded(game.id) is None
    await fake.slash(bo, fake.dm_channel(bo), "games", {})
    [line] = listing(fake, bo)
    assert "Sakkara" in line and again.sessions.loaded(game.id) is not None
    await fake.stop(again)


async def test_a_long_list_keeps_within_discords_limit(fake, table, store, clock):
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    await bot.sessions.set_server_setting(fake.guild_id, "tables_per_host", 50)
    lobbies = []
    for number in range(40):
        channel = fake.text_channel(f"t{number}")
        lobbies.append(await fake.run(bot.sessions.create, "incan_gold", fake.guild_id, channel.id,
                                      SeatSpec("Ann", ann.id)))
    embed = await games_embed(bot.hub, lobbies * 3, ann.id)  # 120 lines of ~150 characters
    text = str(embed.description)
    assert len(text) <= DESCRIPTION_MAX
    more = text.splitlines()[-1]
    assert re.fullmatch(r"…and \d+ more tables", more)
    shown = len(text.splitlines()) - 1
    assert shown + int(more.split()[1]) == 120
    await fake.stop(bot)
