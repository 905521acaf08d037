"""``/help`` and the answer to an @mention (issue 13, item 7): every game and command, per game how a
turn works and each bot level's style, in the reader's language; a mention gets one pointer to /help
in the server's language and no ERROR log."""

from __future__ import annotations

import logging

import pytest
from incan_kit import start_bot

from cogs.help.cog import GAMES
from fakediscord import FakeDiscord


async def test_help_lists_every_game_and_how_to_open_a_table(fake, table, store, clock):
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    rec = await fake.slash(ann, table, "help", {})
    answer = rec.replies[-1]
    assert answer.ephemeral
    text = answer.render()
    for name in ("Incan Gold", "Sakkara", "Indus"):
        assert name in text
    for group in ("incan", "sakkara", "indus"):
        assert f"/{group} new" in text
    assert "`/games`" in text and "`/notify`" in text  # the player's own commands
    await fake.stop(bot)


@pytest.mark.parametrize(("game", "group"), GAMES)
async def test_help_for_a_game_lists_its_commands_its_turn_and_its_levels(fake, table, store, clock, game, group):
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    text = (await fake.slash(ann, table, "help", {"game": game})).replies[-1].render()
    command = bot.tree.get_command(group)
    assert command is not None
    for sub in command.commands:  # every command of the game, from the tree itself
        assert f"/{group} {sub.name}" in text
    assert "/incan resign" in text or group != "incan"
    for level in ("Easy", "Medium", "Hard"):
        assert f"**{level}**" in text
    assert "How a turn works" in text
    await fake.stop(bot)


async def test_the_incan_turn_help_says_a_choice_is_final_as_the_rules_do(fake, table, store, clock):
    """A choice is locked once made; only the one-change option allows one change per game."""
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    text = (await fake.slash(ann, table, "help", {"game": "incan_gold"})).replies[-1].render()
    assert "a choice is final, unless the table allows one change per game" in text
    assert "may change it" not in text
    await fake.stop(bot)


@pytest.mark.parametrize(("locale", "words"), [("fi", ("/incan uusi", "Bottien tasot", "**🔦 Etene**")),
                                               ("sv-SE", ("/incan ny", "Botarnas nivåer", "**🔦 Stanna**")),
                                               ("it", ("/incan nuovo", "Livelli dei bot", "**🔦 Torcia**"))])
async def test_help_is_in_the_readers_language_and_names_commands_as_they_see_them(fake, table, store, clock,
                                                                                  locale, words):
    reader = fake.user("Reader", locale=locale)
    bot = await start_bot(fake, store, clock)
    general = (await fake.slash(reader, table, "help", {})).replies[-1].render()
    one = (await fake.slash(reader, table, "help", {"game": "incan_gold"})).replies[-1].render()
    both = general + one
    for word in words:
        assert word in both
    await fake.stop(bot)


async def test_every_help_fits_discords_embed_limits_in_every_language(fake, table, store, clock):
    bot = await start_bot(fake, store, clock)
    for locale in ("en-US", "fi", "sv-SE", "it"):
        reader = fake.user(f"R{locale}", locale=locale)
        for game in (None, *(g for g, _ in GAMES)):
            options = {} if game is None else {"game": game}
            embed = (await fake.slash(reader, table, "help", options)).replies[-1].embeds[0]
            assert len(embed["title"]) <= 256 and len(embed.get("description", "")) <= 4096
            assert all(len(f["name"]) <= 256 and len(f["value"]) <= 1024 for f in embed["fields"])
            total = len(embed["title"]) + len(embed.get("description", "")) + sum(
                len(f["name"]) + len(f["value"]) for f in embed["fields"])
            assert total <= 6000
    await fake.stop(bot)


async def test_a_mention_is_answered_once_with_a_pointer_to_help_and_logs_no_error(fake: FakeDiscord, table, store,
                                                                                   clock, caplog):
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    caplog.set_level(logging.INFO)
    await fake.say(ann, table, f"<@{fake.bot_user.id}> help")
    await bot.hub.outbox.drained()
    answers = [m for m in fake.channel_messages(table) if int(m.data["author"]["id"]) == fake.bot_user.id]
    assert len(answers) == 1 and "/help" in answers[0].render()
    await fake.say(ann, table, f"<@{fake.bot_user.id}> hello?")  # at once again: no second answer
    await fake.say(ann, table, "no mention here")
    await bot.hub.outbox.drained()
    assert len([m for m in fake.channel_messages(table) if int(m.data["author"]["id"]) == fake.bot_user.id]) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not [r for r in caplog.records if "CommandNotFound" in r.getMessage()]
    await fake.stop(bot)


async def test_a_mention_is_answered_in_the_servers_language(fake, table, store, clock):
    boss = fake.user("Boss", manage_guild=True)
    bot = await start_bot(fake, store, clock)
    await fake.slash(boss, table, "settings language", {"language": "it"})
    await fake.say(boss, table, f"<@{fake.bot_user.id}>")
    await bot.hub.outbox.drained()
    answer = [m for m in fake.channel_messages(table) if int(m.data["author"]["id"]) == fake.bot_user.id][-1]
    assert "Scrivi `/help`" in answer.render()
    await fake.stop(bot)
