"""The slash commands every game shares: ``/<game> join | leave | addbot | start | cancel | resign``.

Each game's cog subclasses :class:`TableCog` (a ``GroupCog``: the group name is the game's
command) and adds only what differs: ``new`` with its options, ``status`` and ``rules``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.answer import answering_click
from cogs.table.controls.buttons import as_seat, refuse, reply
from cogs.table.controls.lobby import lobby_op
from cogs.table.controls.resign import ask_to_resign
from cogs.table.controls.schedule import read_schedule
from cogs.table.messages.hub import Renderer, TableBot
from cogs.table.messages.listing import tables_embed
from cogs.table.messages.rulebook import pack, rule_embeds
from engine.session import SessionError, Table
from i18n import t

__all__ = ["TableCog"]


class TableCog(commands.GroupCog):
    """A game's command group: the shared lobby commands and the helpers its ``new`` uses."""

    bot: TableBot
    renderer: Renderer

    def __init__(self, bot: TableBot, renderer: Renderer) -> None:
        self.bot = bot
        self.renderer = renderer
        bot.hub.register(renderer)

    async def table_here(self, interaction: discord.Interaction) -> Table:
        """Return this channel's table of this game, or raise SessionError (a person away who asks is back)."""
        if interaction.guild is None or interaction.channel is None:
            raise SessionError("guild_only")
        table = await self.bot.sessions.table_in(interaction.channel.id)
        if table.spec.name != self.renderer.name:
            raise SessionError("wrong_game", game=table.spec.name)
        # A command about the table by a person whose seat a bot plays while they are away: it is theirs again.
        await self.bot.sessions.seen(table.id, interaction.user.id)
        return table

    async def lobby(self, interaction: discord.Interaction, op: str) -> None:
        """Run a lobby operation on this channel's table for the user."""
        try:
            table = await self.table_here(interaction)
        except SessionError as exc:
            await refuse(interaction, exc, self.renderer.command)
            return
        await lobby_op(self.bot.hub, interaction, table.id, op)

    async def show_rules(self, interaction: discord.Interaction, sections: Sequence[str], colour: discord.Colour,
                         **values: Any) -> None:
        """Answer privately with the game's rules in the reader's language (more than one message
        when the sections exceed what Discord takes in one)."""
        embeds = rule_embeds(sections, colour, interaction.locale.value, **values)
        for message in pack(embeds):
            await reply(interaction, None, embeds=message)

    async def open_table(self, interaction: discord.Interaction, options: dict[str, Any],
                         table_options: dict[str, Any], dm_ok: str, dm_closed: str, *,
                         start_at: str | None = None, fill_with: str | None = None) -> None:
        """Open a table in the channel with the user as host (for later: ``start_at``, with bots of
        ``fill_with`` in the empty seats then); check that DMs reach them.

        Answered by one private line as the interaction's response (deferred only if opening
        takes long), never a deferral followed by a followup.
        """
        assert interaction.channel is not None and interaction.guild is not None
        schedule = await read_schedule(interaction, start_at, fill_with, self.bot.sessions.clock.now())
        if schedule is None:
            return  # refused privately: nothing is opened
        table_options = {**table_options, **schedule}
        async with answering_click(interaction) as answer:
            try:
                await self.bot.sessions.create(self.renderer.name, interaction.guild.id, interaction.channel.id,
                                               as_seat(interaction.user), options, table_options)
                error = None
            except SessionError as exc:
                error = exc
            except ValueError as exc:
                error = SessionError("bad_option", detail=str(exc))
            ok = error is not None or not self.renderer.dm_prompts or await self.bot.hub.private.check_dms(
                interaction.user, dm_ok)
            answer.stop_guard()
            await answer.settled()
            if error is not None and error.code == "host_cap":
                # Their open tables, with links: where to go on, or what to cancel first.
                mine = [x for x in await self.bot.sessions.active_in_guild(interaction.guild.id)
                        if x.host_id == interaction.user.id]
                await reply(interaction, t("error.host_cap", **error.details),
                            embed=await tables_embed(self.bot.hub, mine))
                return
            if error is not None:
                await refuse(interaction, error, self.renderer.command)
                return
            await reply(interaction, t("lobby.opened") + ("" if ok else "\n" + dm_closed))

    @app_commands.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        """Join the lobby."""
        await self.lobby(interaction, "join")

    @app_commands.command(name="leave", description="Leave this channel's table before it starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the lobby."""
        await self.lobby(interaction, "leave")

    @app_commands.command(name="addbot", description="Add a bot player")
    @app_commands.describe(level="How well the bot plays")
    async def addbot(self, interaction: discord.Interaction,
                     level: Literal["easy", "medium", "hard"] = "medium") -> None:
        """Seat an AI player."""
        await self.lobby(interaction, f"ai-{level}")

    @app_commands.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game."""
        await self.lobby(interaction, "start")

    @app_commands.command(name="cancel", description="Cancel this channel's table (host or server manager)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        """Cancel the table."""
        await self.lobby(interaction, "cancel")

    @app_commands.command(name="resign", description="Leave the running game: a bot plays your seat")
    @app_commands.describe(level="The bot that plays your seat for the rest of the game")
    async def resign(self, interaction: discord.Interaction,
                     level: Literal["easy", "medium", "hard"] = "medium") -> None:
        """Ask the player to confirm leaving the game (a bot of their choice takes the seat)."""
        try:
            table = await self.table_here(interaction)
        except SessionError as exc:
            await refuse(interaction, exc, self.renderer.command)
            return
        await ask_to_resign(interaction, table, level, self.renderer.command)
