"""Indus on Discord: the ``/indus`` commands (2-4 seats; default or seeded random board).

The drawing of a table (board message with the mover's controls, DM nudges, summary ruin by
ruin) is :class:`cogs.indus.render.IndusRenderer`; this module holds the slash commands only.
Everything goes through the shared path: command -> ``Sessions`` -> engine -> store -> render.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.indus.controls import PieceButton
from cogs.indus.render import IndusRenderer
from cogs.indus.words import board_png
from cogs.table.commands.cog import TableCog
from cogs.table.controls.buttons import refuse
from cogs.table.controls.duration import AWAY_AFTER_DESCRIPTION, AwayAfterOption, DurationOption, read_decision_time
from cogs.table.controls.lobby import lobby_embed
from cogs.table.controls.schedule import FILL_WITH_DESCRIPTION, START_AT_DESCRIPTION, FillWithOption, StartAtOption
from cogs.table.messages.attach import board_file
from cogs.table.messages.hub import TableBot
from engine.indus import GAME
from engine.indus.generator import generate_layout
from engine.indus.layout import layout_to_text
from engine.session import SessionError
from engine.session.absence import TAKEOVER_OPTION
from i18n import t
from pictures.drawing import drawn

__all__ = ["Indus", "layout_options", "setup"]

RULE_SECTIONS = 7  # indus.rules1 ... indus.rules7 in the catalogue (7: the bot levels)
RULES = tuple(f"indus.rules{n}" for n in range(1, RULE_SECTIONS + 1))
"""The catalogue ids of the rules' sections, in order (each with its ``_title``)."""
MAX_LAYOUT_SEED = 2**31 - 1


def layout_options(layout: str, seed: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return (game options, table options) for the lobby's layout choice.

    ``random`` without a seed draws a new board from each game's own seed (a rematch gets a new
    board); with a seed the generated board is pinned as a layout text, so every game of the
    table (and a rematch) uses that very board, and the lobby can name the seed.
    """
    if seed is None:
        return ({"layout": layout} if layout != "default" else {}), {}
    if layout != "random":
        raise ValueError(t("indus.seed_needs_random"))
    return {"layout": layout_to_text(generate_layout(seed))}, {"layout_seed": seed}


class Indus(TableCog, group_name="indus", group_description="Play Indus (2-4 players)"):
    """Indus tables: open one with /indus new, then use the buttons."""

    renderer: IndusRenderer

    def __init__(self, bot: TableBot) -> None:
        super().__init__(bot, IndusRenderer())

    @app_commands.command(name="new", description="Open an Indus table in this channel")
    @app_commands.describe(layout="The board: the default layout or a random one",
                           seed="With layout random: the board's seed (the same seed, the same board)",
                           timeout="Time per decision before the Easy bot plays the turn: 90s, 10m, 8h, 3d "
                                   "(30 s to 7 days)",
                           away_after=AWAY_AFTER_DESCRIPTION, start_at=START_AT_DESCRIPTION,
                           fill_with=FILL_WITH_DESCRIPTION)
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, layout: Literal["default", "random"] = "default",
                  seed: app_commands.Range[int, 0, MAX_LAYOUT_SEED] | None = None,
                  timeout: DurationOption | None = None,
                  away_after: AwayAfterOption | None = None,
                  start_at: StartAtOption | None = None, fill_with: FillWithOption | None = None) -> None:
        """Open a table; the lobby message has Join / Leave / Add bot / Start buttons."""
        assert interaction.channel is not None
        seconds = None if timeout is None else await read_decision_time(interaction, timeout)
        if timeout is not None and seconds is None:
            return  # refused privately: nothing is opened
        try:
            options, table_options = layout_options(layout, seed)
        except ValueError as exc:
            await refuse(interaction, SessionError("bad_option", detail=str(exc)))
            return
        if seconds:
            table_options["decision_timeout_s"] = seconds
        if away_after is not None:
            table_options[TAKEOVER_OPTION] = away_after
        await self.open_table(interaction, options, table_options,
                              t("indus.dm_ok", channel=f"<#{interaction.channel.id}>"), t("indus.dm_closed"),
                              start_at=start_at, fill_with=fill_with)

    @app_commands.command(name="status", description="Show the board privately, with a link to the game")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the board (image or text) and whose turn it is, privately."""
        try:
            table = await self.table_here(interaction)
        except SessionError as exc:
            await refuse(interaction, exc, "indus")
            return
        if table.status == "lobby":
            await interaction.response.send_message(embed=lobby_embed(self.bot.hub, table), ephemeral=True)
            return
        png = await drawn(board_png, GAME.view(table.state, None), [seat.display_name for seat in table.seats])
        embed = self.renderer.board_embed(table, png is not None, self.bot.hub)
        ref = await self.bot.hub.message_ref(table, "board")
        if ref is not None:
            link = f"https://discord.com/channels/{table.guild_id}/{ref[0]}/{ref[1]}"
            embed.add_field(name=t("indus.status_link_title"), value=t("indus.status_link", url=link), inline=False)
        if png is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, file=board_file(png), ephemeral=True)

    @app_commands.command(name="rules", description="How to play Indus")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Show the rules in a few embeds."""
        await self.show_rules(interaction, RULES, discord.Colour.dark_teal())


async def setup(bot: commands.Bot) -> None:
    """Load the cog and its placement buttons (discord.py extension entry point)."""
    assert isinstance(bot, TableBot)
    bot.add_dynamic_items(PieceButton)
    await bot.add_cog(Indus(bot))
