"""Players wanted: whom the message that a table opened on a server names.

A member asks per server (``/notify new_tables:on``, ``db.player_settings``, migration 0013). The
message names at most :data:`WANTED_MAX` of them, the longest-waiting first (the order they asked:
someone who asked long ago is not crowded out by a crowd that asked later). Left out: the people
already seated, and a member the bot's cache shows cannot see the channel. The bot asks Discord for
no member list (``bot.INTENTS``), so its cache rarely holds members: one it does not hold is named,
and Discord notifies nobody of a message they cannot see, so such a member costs at most a place
among the 20.

A server's managers may also give the bot a role to ping (``/settings wanted_role``, the server
setting :data:`ROLE_SETTING`): the "game night" role members give themselves in many communities.
It is named once, in the same message. A role deleted since is not named (the bot's cache holds
every role of its servers: roles come with the guilds intent). :meth:`Wanted.allowed` lets Discord
notify exactly these users and this role: never @everyone, never another role.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from engine.session import Table

__all__ = ["ROLE_SETTING", "WANTED_MAX", "Wanted", "WantedStore", "notifies", "wanted"]

log = logging.getLogger(__name__)

WANTED_MAX = 20
"""The most members one players-wanted message names."""

ROLE_SETTING = "wanted_role"
"""The server setting holding the id of the role a new table pings (none by default)."""


class WantedStore(Protocol):
    """Where the wishes are kept: the store (:mod:`db.player_settings`, :mod:`db.settings`)."""

    async def new_table_watchers(self, guild_id: int, limit: int = ...) -> list[int]:
        """Return who asked to be told of new tables on the server, the longest-waiting first."""
        ...

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Return the server's settings (only the keys that were set)."""
        ...


@dataclass(frozen=True)
class Wanted:
    """Whom one players-wanted message names: members who asked, and the server's role."""

    users: list[int]
    role: int | None = None

    def __bool__(self) -> bool:
        """True when the message names anybody (else it is not sent)."""
        return bool(self.users) or self.role is not None

    def mentions(self) -> str:
        """The message's line of mentions: the role first, then the members."""
        role = [] if self.role is None else [f"<@&{self.role}>"]
        return " ".join([*role, *(f"<@{user}>" for user in self.users)])

    def allowed(self) -> discord.AllowedMentions:
        """What Discord may notify: exactly these members and this role."""
        return discord.AllowedMentions(everyone=False, replied_user=False,
                                       users=[discord.Object(user) for user in self.users],
                                       roles=False if self.role is None else [discord.Object(self.role)])


def notifies(role: discord.Role) -> bool:
    """Whether Discord notifies a role's members when the bot mentions it: the role lets anyone
    mention it, or the bot may mention every role (Mention Everyone, server-wide)."""
    me = role.guild.me
    return role.mentionable or (me is not None and me.guild_permissions.mention_everyone)


def _may_see(bot: discord.Client, table: Table, user_id: int) -> bool:
    """False only when the cache shows the member cannot see the table's channel."""
    guild = bot.get_guild(table.guild_id)
    channel = guild.get_channel(table.channel_id) if guild is not None else None
    member = guild.get_member(user_id) if guild is not None else None
    if channel is None or member is None:
        return True
    return channel.permissions_for(member).view_channel


async def _members(bot: discord.Client, store: WantedStore, table: Table) -> list[int]:
    """The members who asked and are named (a store out of reach: none)."""
    try:
        watchers = await store.new_table_watchers(table.guild_id)
    except Exception:
        log.warning("table %s: could not read who asked to hear of new tables", table.id, exc_info=True)
        return []
    seated = {seat.user_id for seat in table.seats}
    return [user for user in watchers if user not in seated and _may_see(bot, table, user)][:WANTED_MAX]


async def _role(bot: discord.Client, store: WantedStore, table: Table) -> int | None:
    """The server's role to ping, if it still exists (a store out of reach: none)."""
    try:
        role_id = (await store.guild_settings(table.guild_id)).get(ROLE_SETTING)
    except Exception:
        log.warning("table %s: could not read the server's role to ping", table.id, exc_info=True)
        return None
    guild = bot.get_guild(table.guild_id)
    role = guild.get_role(role_id) if isinstance(role_id, int) and guild is not None else None
    # Set through /settings, it was never @everyone; checked again as this is the one place it is sent.
    return None if role is None or role.is_default() else role.id


async def wanted(bot: discord.Client, store: WantedStore, table: Table) -> Wanted:
    """Return whom the opening of ``table`` names (the table opened all the same if the store is
    out of reach: then nobody)."""
    return Wanted(await _members(bot, store, table), await _role(bot, store, table))
