"""``/settings decision_time | bot_delay | threads`` (issue 13, item 7): a server's managers choose
what its new tables start with; the values are used (the deadline, the bots' pause, the log's thread
or the channel); only managers change them (Discord shows /settings to them alone)."""

from __future__ import annotations

from incan_kit import start_bot
from table_kit import incan_table

from fakediscord import FakeDiscord, FakeUser


def answer(fake: FakeDiscord, user: FakeUser) -> str:
    return fake.ephemeral_replies(user)[-1].render()


async def test_a_managers_defaults_are_what_new_tables_start_with(fake, table, store, clock):
    boss = fake.user("Boss", manage_guild=True)
    ann, bo, cy = fake.user("Ann"), fake.user("Bo"), fake.user("Cy")
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings decision_time", {"time": "45"})
    assert "**Live · 45 seconds per decision**" in answer(fake, boss)
    await fake.slash(boss, table, "settings bot_delay", {"seconds": 0.5})
    await fake.slash(boss, table, "settings threads", {"on": False})
    assert "**off**" in answer(fake, boss)

    game = await incan_table(fake, bot, table, [ann, bo, cy], bots=("easy",))
    assert game.table_options["decision_timeout_s"] == 45 and game.table_options["ai_delay_s"] == 0.5
    assert game.deadline is not None and round(game.deadline - clock.now()) == 45  # the deadline shown
    assert fake.threads(table) == []  # threads off: the log goes to the channel
    before = game.version
    for user in (ann, bo, cy):
        seat = game.seat_of(user.id)
        if seat in game.humans_owing():
            public = [m for m in fake.channel_messages(table) if any(c.startswith("act:") for c in m.custom_ids)][-1]
            await fake.click(user, public, next(c for c in public.custom_ids if c.endswith('"torch"')))
    await fake.run(clock.advance, 0.6)  # the bot acts after the server's half a second
    assert game.version > before
    await fake.stop(bot)


async def test_a_table_opened_with_its_own_timeout_keeps_it(fake, table, store, clock):
    boss = fake.user("Boss", manage_guild=True)
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings decision_time", {"time": "45s"})
    await fake.slash(boss, table, "incan new", {"timeout": "300"})
    game = await bot.sessions.table_in(table.id)
    assert game.table_options["decision_timeout_s"] == 300
    await fake.stop(bot)


async def test_only_managers_change_the_defaults_and_read_them_back(fake, table, store, clock):
    boss = fake.user("Boss", manage_guild=True)
    eve = fake.user("Eve")
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings decision_time", {})
    assert "**Live · 2 minutes per decision**" in answer(fake, boss)  # the bot's default (DECISION_TIMEOUT_S)
    await fake.slash(boss, table, "settings threads", {})
    assert "**on**" in answer(fake, boss)
    # Discord hides /settings from members who cannot manage the server; a crafted call is refused.
    rec = await fake.craft_slash(eve, table, "settings decision_time", {"time": "30"})
    assert "manage the server" in rec.replies[-1].render()
    assert await bot.sessions.server_settings(fake.guild_id) == {}
    await fake.slash(boss, table, "settings bot_delay", {"seconds": 2})
    await fake.slash(boss, table, "settings bot_delay", {})
    assert "**2 s**" in answer(fake, boss)
    await fake.stop(bot)
