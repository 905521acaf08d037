"""``/notify``: each player's own choice, for all servers, of how the bot tells them a decision is theirs.

``/notify how:dm`` (the prompt with its controls by DM), ``how:mention`` (a new message in the
game's channel naming only them) or ``how:off`` (nothing beyond the board and the reminder);
without the option it shows the current choice and what the default is. Usable in a server and
in a DM with the bot, answered privately in the reader's language. The choice is kept per user
(:class:`cogs.table.messages.reach.NotifyChoices`, the hub's); whoever sends turn notices reads it
there. This cog is the player's settings command: a later setting is another option of it.

``/notify new_tables:on|off`` (players wanted, in a server only): whether the member is named when
a table opens on this server (:mod:`cogs.table.messages.wanted`); per server, kept in the store.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.commands.translator import localised_name
from cogs.table.controls.buttons import reply
from cogs.table.messages.hub import TableBot
from cogs.table.messages.reach import HOWS
from i18n import t

__all__ = ["Notify", "setup"]


def explained(how: str | None) -> str:
    """Return the private answer telling a player their choice (None: the default) and the default."""
    command = f"`/{localised_name('notify')}`"
    chosen = t("notify.none", command=command) if how is None else t("notify.current", how=t(f"notify.how.{how}"))
    return f"{chosen}\n{t('notify.default')}"


class Notify(commands.Cog):
    """``/notify``."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="notify", description="How the bot tells you of your turns, and of new tables here")
    @app_commands.describe(how="dm: the prompt by DM; mention: a message naming you; off: the board only. "
                               "Leave out to see",
                           new_tables="on: be named when a table opens on this server; off: not")
    @app_commands.choices(how=[app_commands.Choice(name="DM", value="dm"),
                               app_commands.Choice(name="mention", value="mention"),
                               app_commands.Choice(name="off", value="off")],
                          new_tables=[app_commands.Choice(name="on", value="on"),
                                      app_commands.Choice(name="off", value="off")])
    @app_commands.allowed_contexts(guilds=True, dms=True)
    @app_commands.allowed_installs(guilds=True)
    async def notify(self, interaction: discord.Interaction, how: str | None = None,
                     new_tables: str | None = None) -> None:
        """Show or set the player's choices, privately (the gate refused a value outside the choices)."""
        choices = self.bot.hub.notify_choices
        choice = next((known for known in HOWS if known == how), None)
        if (how is not None and choice is None) or new_tables not in (None, "on", "off"):
            # The gate refuses it first; this keeps a bypass from storing it.
            await reply(interaction, t("error.not_valid"))
            return
        guild = interaction.guild
        if new_tables is not None and guild is None:
            await reply(interaction, t("notify.new_tables_guild_only"))
            return
        user_id = interaction.user.id
        if how is None and new_tables is None:
            shown = explained(await choices.how(user_id))
            if guild is not None:
                on = await self.bot.store.watches_new_tables(guild.id, user_id)
                shown += "\n" + t("notify.new_tables_on" if on else "notify.new_tables_off")
            await reply(interaction, shown)
            return
        lines = []
        if choice is not None:
            await choices.choose(user_id, choice)
            lines.append(t("notify.set", how=t(f"notify.how.{choice}")))
        if new_tables is not None and guild is not None:
            await self.bot.store.set_watches_new_tables(guild.id, user_id, new_tables == "on")
            lines.append(t("notify.new_tables_set_on" if new_tables == "on" else "notify.new_tables_set_off"))
        await reply(interaction, "\n".join(lines))


async def setup(bot: TableBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(Notify(bot))
