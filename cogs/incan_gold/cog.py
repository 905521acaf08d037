"""Incan Gold on Discord: the ``/incan`` commands (the drawing lives in ``cogs.incan_gold.render``).

``/incan new`` opens a lobby in the channel (Join / Leave / Add bot / Start buttons); the game is
then played through the Torch / Camp buttons of each explorer's DM prompt. ``status`` shows the
expedition and, privately, your tent; ``rules`` explains the game. No rule lives here.
"""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.incan_gold.render import IncanRenderer
from cogs.table.commands.cog import TableCog
from cogs.table.commands.translator import localised_name
from cogs.table.controls.buttons import refuse
from cogs.table.controls.duration import AWAY_AFTER_DESCRIPTION, AwayAfterOption, DurationOption, read_decision_time
from cogs.table.controls.lobby import lobby_embed
from cogs.table.controls.schedule import FILL_WITH_DESCRIPTION, START_AT_DESCRIPTION, FillWithOption, StartAtOption
from cogs.table.messages.hub import TableBot
from engine.session import SessionError
from engine.session.absence import TAKEOVER_OPTION
from i18n import t

__all__ = ["IncanGold", "setup"]

RULE_SECTIONS = 8  # incan.rules1 ... incan.rules8 in the catalogue (8: the bot levels)
RULES = tuple(f"incan.rules{n}" for n in range(1, RULE_SECTIONS + 1))
"""The catalogue ids of the rules' sections, in order (each with its ``_title``)."""
RULE_OPTIONS = {"preset": "preset", "scoring": "artifact_scoring", "open_tents": "open_tents",
                "one_change": "one_change", "timeout": "timeout"}
"""The rules' placeholders for the options of ``/incan new`` they explain."""
RULE_CHOICES = {"incan_gold": "incan-gold", "modern": "incan-gold-modern", "diamant": "diamant",
                "forsvunna": "forsvunna-diamanten", "claim_order": "claim-order", "entry_order": "entry-order",
                "printed": "printed", "pickup_round": "pickup-round"}
"""The rules' placeholders for the editions and artifact scorings, as the option menus name them."""


class IncanGold(TableCog, group_name="incan", group_description="Play Incan Gold / Diamant"):
    """Incan Gold tables: open one with /incan new, then use the buttons."""

    renderer: IncanRenderer

    def __init__(self, bot: TableBot) -> None:
        super().__init__(bot, IncanRenderer())

    @app_commands.command(name="new", description="Open an Incan Gold table in this channel")
    @app_commands.describe(preset="Edition of the game", artifact_scoring="How artifacts score",
                           timeout="Time to decide before returning to camp: 90s, 10m, 8h, 3d (30 s to 7 days)",
                           away_after=AWAY_AFTER_DESCRIPTION, start_at=START_AT_DESCRIPTION,
                           fill_with=FILL_WITH_DESCRIPTION,
                           open_tents="Show everyone's banked gems", one_change="Allow one change of mind per game")
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction,
                  preset: Literal["incan-gold", "incan-gold-modern", "diamant", "forsvunna-diamanten"] = "incan-gold",
                  artifact_scoring: Literal["claim-order", "entry-order", "printed", "pickup-round"] | None = None,
                  timeout: DurationOption | None = None,
                  away_after: AwayAfterOption | None = None,
                  start_at: StartAtOption | None = None, fill_with: FillWithOption | None = None,
                  open_tents: bool = False, one_change: bool = False) -> None:
        """Open a table; the lobby message has Join / Leave / Add bot / Start buttons."""
        assert interaction.channel is not None and interaction.guild is not None
        seconds = None if timeout is None else await read_decision_time(interaction, timeout)
        if timeout is not None and seconds is None:
            return  # refused privately: nothing is opened
        options: dict[str, Any] = {"preset": preset}
        if artifact_scoring:
            options["artifact_scoring"] = artifact_scoring
        if open_tents:
            options["open_tents"] = True
        if one_change:
            options["one_change_per_game"] = True
        table_options: dict[str, Any] = {"decision_timeout_s": seconds} if seconds else {}
        if away_after is not None:
            table_options[TAKEOVER_OPTION] = away_after
        dm_ok = t("lobby.dm_ok", game=self.renderer.title(), channel=f"<#{interaction.channel.id}>")
        await self.open_table(interaction, options, table_options, dm_ok, t("lobby.dm_closed"),
                              start_at=start_at, fill_with=fill_with)

    @app_commands.command(name="status", description="Show the table, and your own tent privately")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show the public state and, if seated, the private prompt."""
        try:
            table = await self.table_here(interaction)
        except SessionError as exc:
            await refuse(interaction, exc, "incan")
            return
        if table.status == "lobby":
            await interaction.response.send_message(embed=lobby_embed(self.bot.hub, table), ephemeral=True)
            return
        embeds = [self.renderer.round_embed(table, self.bot.hub)]
        view: discord.ui.View | None = None
        seat = table.seat_of(interaction.user.id)
        if seat is not None:
            mine, view = self.renderer.prompt(self.bot.hub, table, seat)
            embeds.append(mine)
        if view is None:
            await interaction.response.send_message(embeds=embeds, ephemeral=True)
        else:
            await interaction.response.send_message(embeds=embeds, view=view, ephemeral=True)

    @app_commands.command(name="rules", description="How to play Incan Gold")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Show the rules; the editions and table options are named as the reader's Discord shows them."""
        locale = interaction.locale.value
        options = {name: localised_name(f"incan new {option}", locale).split()[-1]
                   for name, option in RULE_OPTIONS.items()}
        choices = {name: t(f"choice.{value}", locale) for name, value in RULE_CHOICES.items()}
        await self.show_rules(interaction, RULES, discord.Colour.dark_gold(),
                              new=localised_name("incan new", locale), **options, **choices)


async def setup(bot: commands.Bot) -> None:
    """Load the cog (discord.py extension entry point)."""
    assert isinstance(bot, TableBot)
    await bot.add_cog(IncanGold(bot))
