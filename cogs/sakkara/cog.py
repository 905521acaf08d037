"""Sakkara on Discord: the ``/sakkara`` commands (the drawing lives in ``cogs.sakkara.render``).

``/sakkara new`` opens a two-seat lobby in the channel (Join / Add bot / Start buttons); the game
is then played through the buttons and menus of each player's private prompt. ``status`` shows
the board and, privately, your rack; ``rules`` explains the game. No rule lives here.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.sakkara import words
from cogs.sakkara.controls import NAV_ITEMS
from cogs.sakkara.render import SakkaraRenderer
from cogs.sakkara.words import names
from cogs.table.commands.cog import TableCog
from cogs.table.controls.buttons import refuse
from cogs.table.controls.duration import AWAY_AFTER_DESCRIPTION, AwayAfterOption, DurationOption, read_decision_time
from cogs.table.controls.lobby import lobby_embed
from cogs.table.controls.schedule import FILL_WITH_DESCRIPTION, START_AT_DESCRIPTION, FillWithOption, StartAtOption
from cogs.table.messages.attach import board_file
from cogs.table.messages.hub import TableBot
from engine.sakkara import GAME
from engine.session import SessionError
from engine.session.absence import TAKEOVER_OPTION
from i18n import t
from pictures.drawing import drawn

__all__ = ["Sakkara", "setup"]

RULE_SECTIONS = 9  # sakkara.rules1 ... sakkara.rules9 in the catalogue (9: the bot levels)
RULES = tuple(f"sakkara.rules{n}" for n in range(1, RULE_SECTIONS + 1))
"""The catalogue ids of the rules' sections, in order (each with its ``_title``)."""


class Sakkara(TableCog, group_name="sakkara", group_description="Play Sakkara (2 players)"):
    """Sakkara tables: open one with /sakkara new, then use the buttons."""

    renderer: SakkaraRenderer

    def __init__(self, bot: TableBot) -> None:
        super().__init__(bot, SakkaraRenderer())
        bot.add_dynamic_items(*NAV_ITEMS)

    @app_commands.command(name="new", description="Open a Sakkara table in this channel")
    @app_commands.describe(
        timeout="Time per decision before the Easy bot plays your turn: 90s, 10m, 8h, 3d (30 s to 7 days)",
                           away_after=AWAY_AFTER_DESCRIPTION, start_at=START_AT_DESCRIPTION,
                           fill_with=FILL_WITH_DESCRIPTION)
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction,
                  timeout: DurationOption | None = None,
                  away_after: AwayAfterOption | None = None,
                  start_at: StartAtOption | None = None, fill_with: FillWithOption | None = None) -> None:
        """Open a table; the lobby message has Join / Leave / Add bot / Start buttons."""
        assert interaction.channel is not None
        seconds = None if timeout is None else await read_decision_time(interaction, timeout)
        if timeout is not None and seconds is None:
            return  # refused privately: nothing is opened
        table_options: dict[str, Any] = {"decision_timeout_s": seconds} if seconds else {}
        if away_after is not None:
            table_options[TAKEOVER_OPTION] = away_after
        await self.open_table(interaction, {}, table_options,
                              t("sakkara.dm_ok", channel=f"<#{interaction.channel.id}>"), t("lobby.dm_closed"),
                              start_at=start_at, fill_with=fill_with)

    @app_commands.command(name="status", description="Show the board, and your own rack privately")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the public board and, if seated, the private prompt (with the rack image)."""
        try:
            table = await self.table_here(interaction)
        except SessionError as exc:
            await refuse(interaction, exc, "sakkara")
            return
        if table.status == "lobby":
            await interaction.response.send_message(embed=lobby_embed(self.bot.hub, table), ephemeral=True)
            return
        module = words.boards()
        fields: dict[str, Any] = {"ephemeral": True}
        files: list[discord.File] = []
        public = self.renderer.public_embed(table, module is not None, self.bot.hub)
        if module is not None:
            png = await drawn(module.board_image, GAME.view(table.state, None), names(table))
            files.append(board_file(png, "board.png"))
        embeds = [public]
        seat = table.seat_of(interaction.user.id)
        if seat is not None:
            mine, view = self.renderer.prompt(self.bot.hub, table, seat)
            if module is not None:
                rack = await drawn(module.rack_image, GAME.view(table.state, seat), names(table))
                files.append(board_file(rack, "rack.png"))
                mine.set_image(url="attachment://rack.png")
            embeds.append(mine)
            if view is not None:
                fields["view"] = view
        if files:
            fields["files"] = files
        await interaction.response.send_message(embeds=embeds, **fields)

    @app_commands.command(name="rules", description="How to play Sakkara")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Show the rules in a few embeds."""
        await self.show_rules(interaction, RULES, discord.Colour.dark_gold())


async def setup(bot: commands.Bot) -> None:
    """Load the cog (discord.py extension entry point)."""
    assert isinstance(bot, TableBot)
    await bot.add_cog(Sakkara(bot))
