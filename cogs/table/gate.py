"""The gate every interaction passes before a cog sees it: the command tree's checks and errors.

Slash commands whose channel the bot cannot post in are refused privately; an unexpected error is
logged and answered privately.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from cogs.i18n import t
from cogs.table.hub import TableBot

__all__ = ["Tree"]

log = logging.getLogger("temple_table")


class Tree(app_commands.CommandTree[TableBot]):
    """The command tree: refuses commands where the bot cannot post, answers errors privately."""

    async def interaction_check(self, interaction: discord.Interaction[TableBot]) -> bool:
        """Refuse privately when the bot lacks the permissions a table needs in this channel."""
        perms = interaction.app_permissions
        if interaction.guild is not None and not (perms.send_messages and perms.embed_links):
            await interaction.response.send_message(t("error.no_permission"), ephemeral=True)
            return False
        return True

    async def on_error(self, interaction: discord.Interaction[TableBot],
                       error: app_commands.AppCommandError) -> None:
        """Log an unexpected error and tell the user privately that nothing changed."""
        log.error("command %s failed", interaction.command and interaction.command.qualified_name,
                  exc_info=error)
        text = t("error.internal")
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
