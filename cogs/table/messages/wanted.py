"""Players wanted: who is named when a table opens on a server (``/notify new_tables:on``).

A member asks per server (``db.player_settings``, migration 0013). The message that a table opened
names at most :data:`WANTED_MAX` of them, the longest-waiting first (the order they asked: someone
who asked long ago is not crowded out by a crowd that asked later), and lets Discord notify exactly
them (``allowed_mentions``): never @everyone, never a role. Left out: the people already seated,
and a member the bot's cache shows cannot see the channel. The bot asks Discord for no member list
(``bot.INTENTS``), so its cache rarely holds members: one it does not hold is named, and Discord
notifies nobody of a message they cannot see, so such a member costs at most a place among the 20.
"""

from __future__ import annotations

import logging
from typing import Protocol

import discord

from engine.session import Table

__all__ = ["WANTED_MAX", "WantedStore", "wanted"]

log = logging.getLogger(__name__)

WANTED_MAX = 20
"""The most members one players-wanted message names."""


class WantedStore(Protocol):
    """Where the wishes are kept: the store (:mod:`db.player_settings`)."""

    async def new_table_watchers(self, guild_id: int, limit: int = ...) -> list[int]:
        """Return who asked to be told of new tables on the server, the longest-waiting first."""
        ...


def _may_see(bot: discord.Client, table: Table, user_id: int) -> bool:
    """False only when the cache shows the member cannot see the table's channel."""
    guild = bot.get_guild(table.guild_id)
    channel = guild.get_channel(table.channel_id) if guild is not None else None
    member = guild.get_member(user_id) if guild is not None else None
    if channel is None or member is None:
        return True
    return channel.permissions_for(member).view_channel


async def wanted(bot: discord.Client, store: WantedStore, table: Table) -> list[int]:
    """Return whom the opening of ``table`` names (at most :data:`WANTED_MAX`); a store out of reach
    names nobody (the table opened all the same)."""
    try:
        watchers = await store.new_table_watchers(table.guild_id)
    except Exception:
        log.warning("table %s: could not read who asked to hear of new tables", table.id, exc_info=True)
        return []
    seated = {seat.user_id for seat in table.seats}
    return [user for user in watchers if user not in seated and _may_see(bot, table, user)][:WANTED_MAX]
