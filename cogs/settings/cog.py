"""``/settings``: the server's settings, for people who can manage the server.

``/settings language`` chooses the language of the bot's public messages on this server (lobby,
boards, logs, summaries, leaderboards); left out, it tells the current one. Private texts keep
following each player's own Discord language. Further settings are subcommands of this group.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.i18n import NATIVE_NAMES, t
from cogs.table.buttons import can_manage, reply
from cogs.table.hub import TableBot

__all__ = ["Settings", "setup"]

AUTO = "auto"
"""The choice that clears the server's language: public messages follow its Discord language."""


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Settings(commands.GroupCog, group_name="settings", group_description="This server's settings (Manage Server)"):
    """The server's settings (Discord shows the group only to members who can manage the server)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="The language of the bot's public messages on this server")
    @app_commands.describe(language="Leave out to see the current language")
    @app_commands.choices(language=[
        app_commands.Choice(name="English", value="en"),
        app_commands.Choice(name="suomi (Finnish)", value="fi"),
        app_commands.Choice(name="svenska (Swedish)", value="sv"),
        app_commands.Choice(name="italiano (Italian)", value="it"),
        app_commands.Choice(name="the server's Discord language", value=AUTO),
    ])
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        """Show or choose the server's language; the answer is private, in the user's language."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply(interaction, t("error.guild_only"))
            return
        readers = self.bot.hub.readers
        await readers.load_guild(guild_id)
        if language is None:
            chosen = readers.chosen(guild_id)
            key = "settings.language_chosen" if chosen else "settings.language_auto"
            await reply(interaction, t(key, language=NATIVE_NAMES[readers.public(guild_id)]))
            return
        if not can_manage(interaction):  # the command is hidden from others; a crafted call lands here
            await reply(interaction, t("error.not_manager"))
            return
        await readers.choose(guild_id, None if language == AUTO else language)
        key = "settings.language_reset" if language == AUTO else "settings.language_set"
        await reply(interaction, t(key, language=NATIVE_NAMES[readers.public(guild_id)]))


async def setup(bot: commands.Bot) -> None:
    """Load the cog (discord.py extension entry point)."""
    assert isinstance(bot, TableBot)
    await bot.add_cog(Settings(bot))
