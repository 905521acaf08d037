"""A list of tables with links, in the reader's language: ``/tables`` shows a server's, and a member
refused a new table (they host as many as the server allows) is shown theirs; the parts ``/games``
shares (a table's link, the commands that open one)."""

from __future__ import annotations

import discord

from cogs.table.commands.translator import localised_name
from cogs.table.messages.fields import DESCRIPTION_LIMIT, split_items
from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import seat_label
from engine.session import Table
from i18n import t, tn

__all__ = ["LISTED", "link_text", "new_table_commands", "tables_embed"]

LISTED = 25
"""Tables listed (and offered in the menu) at most: a menu holds 25 options."""


def new_table_commands() -> str:
    """Return the commands that open a table, as the reader's Discord names them."""
    return ", ".join(f"`/{localised_name(f'{group} new')}`" for group in ("incan", "sakkara", "indus"))


async def link_text(hub: TableHub, table: Table, kind: str | None = None) -> str:
    """Return a link to a table's message (its current public one by default); a table with no
    message yet is named by its channel."""
    url = await hub.link(table, kind)
    return f"[{t('tables.link')}]({url})" if url.startswith("https://") else url


async def tables_embed(hub: TableHub, tables: list[Table]) -> discord.Embed:
    """Return the list of a server's tables, in the reader's language."""
    embed = discord.Embed(title=t("tables.title"), colour=discord.Colour.gold())
    if not tables:
        embed.description = t("tables.none", commands=new_table_commands())
        return embed
    lines = []
    for table in tables[:LISTED]:
        players = ", ".join(seat_label(s) for s in table.seats) or "—"
        lines.append(t("tables.line", game=hub.renderer(table).title(), channel=f"<#{table.channel_id}>",
                       state=t(f"tables.state.{table.status}"), players=players,
                       link=await link_text(hub, table)))
    embed.description = split_items(lines, "\n", DESCRIPTION_LIMIT)[0] if lines else ""
    if len(tables) > LISTED:
        embed.set_footer(text=tn("tables.more", len(tables) - LISTED))
    return embed
