"""Slash commands are synced only when the command tree changed, or when asked (issue 15, item 7).

Discord rate-limits syncs; the bot used to sync at every start. The hash of the payload synced is
kept in the database per scope; DEV_GUILD_ID puts the commands in that server only, and a scope
this database synced before and no longer uses is emptied, so no command shows twice."""

from __future__ import annotations

from discord import app_commands
from incan_kit import start_bot

import bot as bot_module


def syncs(fake) -> list[tuple[str, int]]:
    """The command syncs Discord received: (scope, number of commands), in order."""
    out = []
    for call in fake.calls("PUT"):
        if call.route.endswith("/commands"):
            scope = "global" if "/guilds/" not in call.route else f"guild:{call.path.split('/')[4]}"
            out.append((scope, len(call.payload or [])))
    return out


async def restart(fake, store, clock, old, **config):
    await fake.stop(old)
    return await start_bot(fake, store, clock, **config)


async def test_a_restart_with_the_same_commands_does_not_sync(fake, store, clock):
    bot = await start_bot(fake, store, clock)
    assert [scope for scope, _ in syncs(fake)] == ["global"]
    bot = await restart(fake, store, clock, bot)
    assert [scope for scope, _ in syncs(fake)] == ["global"]  # before: a second global sync at every start
    assert "incan" in [c["name"] for c in fake.commands[None]]  # Discord still has them
    await fake.stop(bot)


async def test_a_changed_command_tree_is_synced_again(fake, store, clock, monkeypatch):
    bot = await start_bot(fake, store, clock)

    @app_commands.command(name="ping", description="A command that was not there before")
    async def ping(interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    original = bot_module.Bot.setup_hook

    async def with_ping(self) -> None:
        self.tree.add_command(ping)
        await original(self)

    monkeypatch.setattr(bot_module.Bot, "setup_hook", with_ping)
    bot = await restart(fake, store, clock, bot)
    assert [scope for scope, _ in syncs(fake)] == ["global", "global"]
    assert "ping" in [c["name"] for c in fake.commands[None]]
    await fake.stop(bot)


async def test_asked_to_sync_it_syncs_unchanged_commands(fake, store, clock):
    bot = await start_bot(fake, store, clock)
    bot = await restart(fake, store, clock, bot, force_sync=True)
    bot = await restart(fake, store, clock, bot, sync_commands=False, force_sync=True)
    assert [scope for scope, _ in syncs(fake)] == ["global", "global", "global"]
    await fake.stop(bot)


def test_sync_flag_on_the_command_line(tmp_path, monkeypatch):
    seen = []

    async def fake_run(config):
        seen.append(config.force_sync)
        return 0

    monkeypatch.setattr(bot_module, "run", fake_run)
    monkeypatch.setattr(bot_module, "configure_logging", lambda level: None)
    monkeypatch.setattr(bot_module, "configure_gc", lambda: None)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    assert bot_module.main(["--sync"]) == 0 and bot_module.main([]) == 0
    assert seen == [True, False]


async def test_a_development_server_gets_the_commands_once_and_alone(fake, store, clock):
    guild = fake.guild_id
    bot = await start_bot(fake, store, clock)  # a production start first: global commands
    bot = await restart(fake, store, clock, bot, dev_guild_id=guild)
    found = syncs(fake)
    assert found[0][0] == "global" and found[0][1] > 0
    # Then the server's own copies, and the global ones this database had synced emptied: once each.
    assert sorted(found[1:]) == [("global", 0), (f"guild:{guild}", found[0][1])]
    assert fake.commands[None] == [] and len(fake.commands[guild]) == found[0][1]
    rec = await fake.slash(fake.user("Ann"), fake.text_channel("table"), "incan new", {})
    assert rec.acknowledged  # served by the server's copy
    bot = await restart(fake, store, clock, bot, dev_guild_id=guild)
    assert len(syncs(fake)) == 3  # unchanged: nothing synced
    bot = await restart(fake, store, clock, bot)  # back to production: global again, the server's emptied
    assert sorted(syncs(fake)[3:]) == [("global", found[0][1]), (f"guild:{guild}", 0)]
    await fake.stop(bot)
