"""The session's listener on Discord: routes every committed change to the lobby or the game's renderer."""

from __future__ import annotations

from typing import Any

import discord

from cogs.i18n import t
from cogs.table.hub import TableHub
from cogs.table.lobby import lobby_embed, lobby_view
from engine.session import Table, Update

__all__ = ["TableListener"]


class TableListener:
    """Implements the session's ``Listener``: lobby changes, play, reminders, the end of a table."""

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub

    async def lobby_changed(self, table: Table) -> None:
        """Redraw the lobby message."""
        await self.hub.readers.load(table)
        with self.hub.readers.publicly(table):
            await self.hub.post(table, "lobby", embed=lobby_embed(self.hub, table), view=lobby_view(table))

    async def started(self, table: Table) -> None:
        """Freeze the lobby message: the seats are final."""
        await self.hub.readers.load(table)
        with self.hub.readers.publicly(table):
            embed = lobby_embed(self.hub, table)
            embed.description = t("lobby.started")
            await self.hub.post(table, "lobby", embed=embed, view=None)

    async def played(self, update: Update) -> None:
        """Let the game's renderer draw the update."""
        await self.hub.readers.load(update.table)
        with self.hub.readers.publicly(update.table):
            await self.hub.renderer(update.table).played(self.hub, update)

    async def reminded(self, table: Table, seats: list[int]) -> None:
        """Let the game's renderer remind the seats privately."""
        await self.hub.readers.load(table)
        with self.hub.readers.publicly(table):
            await self.hub.renderer(table).reminded(self.hub, table, seats)

    async def resigned(self, table: Table, seat: int) -> None:
        """Redraw the table: the seat is played by its bot now."""
        await self.hub.readers.load(table)
        with self.hub.readers.publicly(table):
            await self.hub.renderer(table).refresh(self.hub, table)

    async def finished(self, table: Table, result: dict[str, Any]) -> None:
        """Let the game's renderer draw the summary."""
        self.hub.forget(table)
        await self.hub.readers.load(table)
        with self.hub.readers.publicly(table):
            await self.hub.renderer(table).finished(self.hub, table, result)

    async def ended(self, table: Table, reason: str) -> None:
        """Close the table's messages after a cancel or an unreadable save."""
        self.hub.forget(table)
        key = {"cancelled": "lobby.cancelled", "empty": "lobby.closed_empty"}.get(reason, "lobby.abandoned")
        await self.hub.readers.load(table)
        with self.hub.readers.publicly(table):
            embed = discord.Embed(title=self.hub.renderer(table).title(), description=t(key),
                                  colour=discord.Colour.dark_grey())
            await self.hub.post(table, "lobby", embed=embed, view=None)
