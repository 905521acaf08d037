"""A list of tables with links, in the reader's language: ``/tables`` shows a server's, and a member
refused a new table (they host as many as the server allows) is shown theirs."""

from __future__ import annotations

import discord

from cogs.table.commands.translator import localised_name
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import seat_label
from engine.session import Table
from i18n import t

__all__ = ["LISTED", "tables_embed"]

LISTED = 25
"""Tables listed (and offered in the menu) at most: a menu holds 25 options."""


async def tables_embed(hub: TableHub, tables: list[Table]) -> discord.Embed:
    """Return the list of a server's tables, in the reader's language."""
    embed = discord.Embed(title=t("tables.title"), colour=discord.Colour.gold())
    if not tables:
        news = ", ".join(f"`/{localised_name(f'{group} new')}`" for group in ("incan", "sakkara", "indus"))
        embed.description = t("tables.none", commands=news)
        return embed
    lines = []
    for table in tables[:LISTED]:
        players = ", ".join(seat_label(s) for s in table.seats) or "—"
        lines.append(t("tables.line", game=hub.renderer(table).title(), channel=f"<#{table.channel_id}>",
                       state=t(f"tables.state.{table.status}"), players=players,
                       link=f"[{t('tables.link')}]({await hub.link(table)})"))
    embed.description = "\n".join(lines)[:4096]
    if len(tables) > LISTED:
        embed.set_footer(text=t("tables.more", count=len(tables) - LISTED))
    return embed
