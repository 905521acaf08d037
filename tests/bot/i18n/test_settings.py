"""``/settings language``: a server's managers choose the language of its public messages; it is
stored, it outlives a restart, and the answer itself is in the manager's own language."""

from __future__ import annotations

from incan_kit import buttons, start_bot

from fakediscord import FakeChannel, FakeDiscord, FakeMessage


def lobby(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return [m for m in fake.channel_messages(channel) if buttons(m, "lobby:")][-1]


async def test_a_manager_chooses_the_servers_language_and_it_stays(fake, table, store, clock):
    boss = fake.user("Boss", manage_guild=True, locale="sv-SE")
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    asked = await fake.slash(boss, table, "settings language", {})
    assert "följer dess Discord-språk" in asked.replies[-1].render() and "English" in asked.replies[-1].render()

    done = await fake.slash(boss, table, "settings language", {"language": "fi"})
    assert "Klart: den här serverns offentliga meddelanden är nu på **suomi**" in done.replies[-1].render()
    assert done.replies[-1].ephemeral
    await fake.slash(ann, table, "incan new", {})
    assert lobby(fake, table).embeds[0]["title"] == "Incan Gold — pöytä on auki"  # Ann's own reply: English
    assert "Your table is open" in fake.ephemeral_replies(ann)[-1].render()
    await fake.slash(ann, table, "incan cancel", {})
    await fake.stop(bot)

    bot2 = await start_bot(fake, store, clock)  # stored: a restart keeps the choice
    await fake.slash(ann, table, "incan new", {})
    assert lobby(fake, table).embeds[0]["title"] == "Incan Gold — pöytä on auki"
    await fake.slash(ann, table, "incan cancel", {})
    shown = await fake.slash(boss, table, "settings language", {})
    assert "(valt med `/inställningar språk`)" in shown.replies[-1].render()

    back = await fake.slash(boss, table, "settings language", {"language": "auto"})
    assert "följer åter dess Discord-språk (nu **English**)" in back.replies[-1].render()
    await fake.slash(ann, table, "incan new", {})
    assert lobby(fake, table).embeds[0]["title"] == "Incan Gold — table open"
    await fake.stop(bot2)


async def test_the_leaderboard_is_in_the_chosen_language(fake, table, store, clock):
    boss = fake.user("Boss", manage_guild=True)
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings language", {"language": "it"})
    board = await fake.slash(boss, table, "leaderboard", {})
    assert "Classifica — Tutti i giochi" in board.replies[-1].render()
    await fake.stop(bot)


async def test_only_managers_may_change_it(fake, table, store, clock):
    eve = fake.user("Eve", locale="fi")
    bot = await start_bot(fake, store, clock)
    rec = await fake.craft_slash(eve, table, "settings language", {"language": "it"})  # the client hides it
    assert "Vain palvelimen ylläpitäjä" in rec.replies[-1].render()
    assert bot.hub.readers.chosen(fake.guild_id) is None
    assert await store.guild_settings(fake.guild_id) == {}
    await fake.stop(bot)
