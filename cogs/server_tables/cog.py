"""``/tables``: the server's active tables (game, channel, players, state, a link to the table's
message), privately. A member who can manage the server also gets a menu to end one: a private
confirmation, then the session's cancel (the same path as ``/<game> cancel``: every control of the
table closes, the channel is told and every seated player mentioned).

The menu and the confirmation are ``DynamicItem``s (they work after a restart). What they name is
checked again at the press: the table must belong to the server the press comes from (a crafted id
of another server's table is refused), still be running, and the presser must manage the server.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.answer import answering_click
from cogs.table.controls.buttons import can_manage, guarded, hub_of, refuse, reply
from cogs.table.messages.hub import TableBot, TableHub
from cogs.table.messages.listing import LISTED, tables_embed
from engine.session import SessionError, Table
from i18n import t

__all__ = ["DYNAMIC_ITEMS", "EndButton", "EndSelect", "Tables", "setup"]

def end_view(hub: TableHub, guild_id: int, tables: list[Table]) -> discord.ui.View:
    """Return the manager's menu: which table to end."""
    view = discord.ui.View(timeout=None)
    select = EndSelect(guild_id)
    for table in tables[:LISTED]:
        channel = hub.bot.get_channel(table.channel_id)
        where = f"#{getattr(channel, 'name', table.channel_id)}"
        select.item.add_option(label=f"{hub.renderer(table).title()} — {where}"[:100], value=str(table.id))
    view.add_item(select)
    return view


async def server_table(interaction: discord.Interaction, table_id: int) -> Table:
    """Return a running table of the interaction's server, for a member who manages it; else refuse."""
    if interaction.guild_id is None:
        raise SessionError("guild_only")
    if not can_manage(interaction):
        raise SessionError("manager_only")
    table = await hub_of(interaction).bot.sessions.table(table_id)
    if table.guild_id != interaction.guild_id:
        raise SessionError("not_valid")  # a crafted id: another server's table
    if table.status not in ("lobby", "playing"):
        raise SessionError("gone")
    return table


class EndSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tables:menu:(?P<guild>\d{1,20})"):
    """The manager's menu of the server's tables: choosing one asks to confirm ending it."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(discord.ui.Select(placeholder=t("tables.end_placeholder"), custom_id=f"tables:menu:{guild_id}",
                                           min_values=1, max_values=1))
        self.guild_id = guild_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EndSelect:
        """Rebuild the menu from its custom_id."""
        return cls(int(match["guild"]))

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Ask privately to confirm ending the chosen table."""
        data: dict[str, Any] = dict(interaction.data or {})
        values = list(data.get("values") or [])
        try:
            if len(values) != 1 or not str(values[0]).isdigit() or len(str(values[0])) > 18:
                raise SessionError("not_valid")
            table = await server_table(interaction, int(values[0]))
        except SessionError as exc:
            await refuse(interaction, exc)
            return
        hub = hub_of(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(EndButton(table.id, "end", t("tables.end_confirm"), discord.ButtonStyle.danger))
        view.add_item(EndButton(table.id, "keep", t("tables.keep"), discord.ButtonStyle.secondary))
        await reply(interaction, t("tables.end_ask", game=hub.renderer(table).title(),
                                   channel=f"<#{table.channel_id}>"), view=view)


class EndButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                template=r"tables:(?P<op>end|keep):(?P<table>\d{1,18})"):
    """End the table (through the session's cancel), or keep it, on the private confirmation."""

    def __init__(self, table_id: int, op: str, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or op, style=style, custom_id=f"tables:{op}:{table_id}"))
        self.table_id, self.op = table_id, op

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> EndButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["table"]), match["op"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """End the table or keep it; the confirmation is closed by its own answer."""
        hub = hub_of(interaction)
        async with answering_click(interaction) as answer:
            if self.op == "keep":
                await answer.edit(content=t("tables.kept"), view=None)
                return
            try:
                table = await server_table(interaction, self.table_id)
                # The click goes with the call, like a lobby's Cancel (its answer closes the confirmation).
                await hub.bot.sessions.cancel(table.id, interaction.user.id, True, origin=answer)
            except SessionError as exc:
                answer.stop_guard()
                await answer.settled()
                await refuse(interaction, exc)
                return
            await answer.edit(content=t("tables.ended", game=hub.renderer(table).title(),
                                        channel=f"<#{table.channel_id}>"), view=None)


class Tables(commands.Cog):
    """``/tables``."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="tables", description="This server's tables: where, who, and a link to each")
    @app_commands.guild_only()
    async def tables(self, interaction: discord.Interaction) -> None:
        """List the server's active tables privately; managers also get the menu to end one."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply(interaction, t("error.guild_only"))
            return
        try:
            tables = await self.bot.sessions.active_in_guild(guild_id)
        except SessionError as exc:
            await refuse(interaction, exc)
            return
        embed = await tables_embed(self.bot.hub, tables)
        if tables and can_manage(interaction):
            await reply(interaction, None, embed=embed, view=end_view(self.bot.hub, guild_id, tables))
        else:
            await reply(interaction, None, embed=embed)


DYNAMIC_ITEMS = (EndSelect, EndButton)
"""The menu's and the confirmation's custom_id templates."""


async def setup(bot: TableBot) -> None:
    """Load the cog and register its components (discord.py extension entry point)."""
    await bot.add_cog(Tables(bot))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
