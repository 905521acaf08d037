"""Indus on Discord: the ``/indus`` commands (2-4 seats; default or seeded random board).

The drawing of a table (board message with the mover's controls, DM nudges, summary ruin by
ruin) is :class:`cogs.indus_render.IndusRenderer`; this module holds the slash commands only.
Everything goes through the shared path: command -> ``Sessions`` -> engine -> store -> render.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.i18n import t
from cogs.indus_render import IndusRenderer, PieceButton, board_file, board_png
from cogs.tables import TableBot, as_seat, lobby_op, refuse
from engine.indus import GAME
from engine.indus.layout import generate_layout, layout_to_text
from engine.session import SessionError, Table

__all__ = ["Indus", "layout_options", "setup"]

RULE_SECTIONS = 5  # indus.rules1 ... indus.rules5 in the catalogue
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


class Indus(commands.GroupCog, group_name="indus", group_description="Play Indus (2-4 players)"):
    """Indus tables: open one with /indus new, then use the buttons."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.renderer = IndusRenderer()
        bot.hub.register(self.renderer)

    async def _table(self, interaction: discord.Interaction) -> Table:
        if interaction.guild is None or interaction.channel is None:
            raise SessionError("guild_only")
        table = self.bot.sessions.table_in(interaction.channel.id)
        if table.spec.name != self.renderer.name:
            raise SessionError("wrong_game", game=table.spec.name)
        return table

    async def _lobby(self, interaction: discord.Interaction, op: str) -> None:
        try:
            table = await self._table(interaction)
        except SessionError as exc:
            await refuse(interaction, exc, "indus")
            return
        await lobby_op(self.bot.hub, interaction, table.id, op)

    @app_commands.command(name="new", description="Open an Indus table in this channel")
    @app_commands.describe(layout="The board: the default layout or a random one",
                           seed="With layout random: the board's seed (the same seed, the same board)",
                           timeout="Seconds per decision before the Easy bot plays the turn (30-600)")
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction, layout: Literal["default", "random"] = "default",
                  seed: app_commands.Range[int, 0, MAX_LAYOUT_SEED] | None = None,
                  timeout: app_commands.Range[int, 30, 600] | None = None) -> None:
        """Open a table; the lobby message has Join / Leave / Add bot / Start buttons."""
        assert interaction.channel is not None and interaction.guild is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            options, table_options = layout_options(layout, seed)
            if timeout:
                table_options["decision_timeout_s"] = timeout
            await self.bot.sessions.create("indus", interaction.guild.id, interaction.channel.id,
                                           as_seat(interaction.user), options, table_options)
        except SessionError as exc:
            await refuse(interaction, exc, "indus")
            return
        except ValueError as exc:
            await refuse(interaction, SessionError("bad_option", detail=str(exc)))
            return
        ok = await self.bot.hub.check_dm(interaction.user, t("indus.dm_ok", channel=f"<#{interaction.channel.id}>"))
        await interaction.followup.send(t("lobby.opened") + ("" if ok else "\n" + t("indus.dm_closed")),
                                        ephemeral=True)

    @app_commands.command(name="join", description="Sit down at this channel's table")
    async def join(self, interaction: discord.Interaction) -> None:
        """Join the lobby."""
        await self._lobby(interaction, "join")

    @app_commands.command(name="leave", description="Leave this channel's table before it starts")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Leave the lobby."""
        await self._lobby(interaction, "leave")

    @app_commands.command(name="addbot", description="Add a bot player")
    async def addbot(self, interaction: discord.Interaction,
                     level: Literal["easy", "medium", "hard"] = "medium") -> None:
        """Seat an AI player."""
        await self._lobby(interaction, f"ai-{level}")

    @app_commands.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game."""
        await self._lobby(interaction, "start")

    @app_commands.command(name="cancel", description="Cancel this channel's table (host or server manager)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        """Cancel the table."""
        await self._lobby(interaction, "cancel")

    @app_commands.command(name="status", description="Show the board privately, with a link to the game")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the board (image or text) and whose turn it is, privately."""
        try:
            table = await self._table(interaction)
        except SessionError as exc:
            await refuse(interaction, exc, "indus")
            return
        if table.status == "lobby":
            await interaction.response.send_message(embed=self.bot.hub.lobby_embed(table), ephemeral=True)
            return
        png = board_png(GAME.view(table.state, None), [seat.display_name for seat in table.seats])
        embed = self.renderer.board_embed(table, png is not None)
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
        locale = interaction.locale.value
        embeds = [discord.Embed(title=t(f"indus.rules{n}_title", locale), description=t(f"indus.rules{n}", locale),
                                colour=discord.Colour.dark_teal()) for n in range(1, RULE_SECTIONS + 1)]
        await interaction.response.send_message(embeds=embeds, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the cog and its placement buttons (discord.py extension entry point)."""
    assert isinstance(bot, TableBot)
    bot.add_dynamic_items(PieceButton)
    await bot.add_cog(Indus(bot))
