"""``/help``: what the bot hosts and how to use it, privately, in the reader's language.

Without an option it lists the games (each with its player count and one line on what it is), how
to open a table, and where to look further. ``/help game:<game>`` shows that game's commands (as
the reader's Discord names them, from the command tree itself, so the list cannot drift from the
commands), how a turn works on Discord, and its bot levels with the style of each. A message that
@mentions the bot gets one short public line pointing to ``/help``, in the server's language, at
most once a minute per channel (a mention costs a rate-limited send; a flood must not).
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.commands.translator import localised_description, localised_name
from cogs.table.controls.buttons import can_manage, reply
from cogs.table.messages.fields import add_split_field
from cogs.table.messages.hub import TableBot
from cogs.table.messages.permissions import invite_text
from db import Unavailable
from i18n import reading, t

__all__ = ["GAMES", "MENTION_COOLDOWN_S", "Help", "help_embed", "setup"]

GAMES: tuple[tuple[str, str], ...] = (("incan_gold", "incan"), ("sakkara", "sakkara"), ("indus", "indus"))
"""Each hosted game and its command group, in the order they are listed."""

LEVELS = ("easy", "medium", "hard")

log = logging.getLogger(__name__)

MENTION_COOLDOWN_S = 60.0
"""A channel gets at most one answer to mentions per this many seconds."""


def help_embed(tree: app_commands.CommandTree[TableBot], game: str | None,
               client_id: int | str | None = None) -> discord.Embed:
    """Return the help for all games (``game`` None) or for one game, in the current reader's language;
    with ``client_id`` (asked by a manager) the general help also says what the invite asks for."""
    embed = discord.Embed(title=t("help.title"), colour=discord.Colour.gold())
    if game is None:
        news = ", ".join(f"`/{localised_name(f'{group} new')}`" for _, group in GAMES)
        embed.description = t("help.intro", commands=news)
        embed.add_field(name=t("help.games"), value="\n".join(t(f"help.game.{name}") for name, _ in GAMES),
                        inline=False)
        embed.add_field(name=t("help.more_title"), value=t(
            "help.more", rules=f"`/{localised_name('incan rules')}`", leaderboard="`/leaderboard`",
            settings=f"`/{localised_name('settings language')}`", help="`/help`")
            + "\n" + t("help.yours", games=f"`/{localised_name('games')}`", notify=f"`/{localised_name('notify')}`"),
            inline=False)
        if client_id is not None:
            embed.add_field(name=t("help.invite_title"), value=invite_text(client_id), inline=False)
        return embed
    group = dict(GAMES)[game]
    embed.description = t(f"help.game.{game}")
    command = tree.get_command(group)
    lines = []
    if isinstance(command, app_commands.Group):
        for sub in command.commands:
            path = f"{group} {sub.name}"
            lines.append(f"`/{localised_name(path)}` — {localised_description(path, sub.description)}")
    add_split_field(embed, t("help.commands"), lines, "\n")
    embed.add_field(name=t("help.turn_title"), value=t(f"help.turn.{game}"), inline=False)
    embed.add_field(name=t("help.levels_title"),
                    value="\n".join(t(f"help.level.{game}.{level}") for level in LEVELS), inline=False)
    return embed


class Help(commands.Cog):
    """``/help`` and the answer to a mention."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self._answered: dict[int, float] = {}  # channel id -> when a mention was last answered there

    @app_commands.command(name="help", description="The games, their commands, and the bot levels")
    @app_commands.describe(game="One game's commands, how a turn works, and its bot levels")
    @app_commands.choices(game=[app_commands.Choice(name="Incan Gold", value="incan_gold"),
                                app_commands.Choice(name="Sakkara", value="sakkara"),
                                app_commands.Choice(name="Indus", value="indus")])
    async def help(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """Answer privately with the help (all games, or one)."""
        if game is not None and game not in dict(GAMES):  # a crafted value outside the choices
            await reply(interaction, t("error.not_valid"))
            return
        manager = interaction.guild_id is not None and can_manage(interaction)
        client_id = (self.bot.application_id or "YOUR_CLIENT_ID") if manager else None
        await reply(interaction, None, embed=help_embed(self.bot.tree, game, client_id))

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Answer a mention of the bot (in a server) with a pointer to ``/help``."""
        me = self.bot.user
        if me is None or message.author.bot or message.guild is None or not any(
                user.id == me.id for user in message.mentions):
            return
        now = time.monotonic()
        if now - self._answered.get(message.channel.id, -MENTION_COOLDOWN_S) < MENTION_COOLDOWN_S:
            return
        self._answered[message.channel.id] = now
        readers = self.bot.hub.readers
        with contextlib.suppress(Unavailable):  # the database is away: the pointer goes out in Discord's language
            await readers.load_guild(message.guild.id)
        with reading(readers.public(message.guild.id)):
            text = t("help.mention", help="`/help`")
        channel_id = message.channel.id

        if not self.bot.hub.permissions.may(channel_id, "send"):
            return  # a server may let people mention the bot where it may not answer: nothing is tried

        async def send(latest: dict[str, Any], fresh: bool) -> None:
            try:
                await self.bot.get_partial_messageable(channel_id).send(**latest)
            except discord.HTTPException as exc:  # e.g. no permission to send there: nothing to do
                log.info("could not answer a mention in channel %s (%s)", channel_id, exc.status)

        # Through the outbox, like every rate-limited call (a send counts toward the bot's budget).
        await self.bot.hub.outbox.submit(("mention", channel_id), {
            "content": text, "allowed_mentions": discord.AllowedMentions.none()},
            new=True, plan=lambda fresh: [("send", channel_id)], run=send)


async def setup(bot: TableBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(Help(bot))
