"""What the bot may do in a channel now: the one answer every send path asks before it acts.

Discord answers a request the bot lacks a permission for with 403, and every 403 counts toward
the invalid-request limit (10,000 in 10 minutes, then the bot's IP is banned for a while). So
nothing is tried that is known to fail: each path asks :meth:`ChannelPermissions.may` first and
takes its fallback at once (the log in the channel instead of a thread, a text board instead of a
picture, plain text instead of an embed).

The answer comes, newest first, from

- what Discord said with the last interaction in the channel (``interaction.app_permissions``),
  or what a 403 taught (that need is off until the next word from Discord);
- else the channel as discord.py's cache has it (``channel.permissions_for(guild.me)``: the
  guilds intent keeps roles and overwrites current through CHANNEL_UPDATE and GUILD_ROLE_UPDATE);
- else (the channel is not in the cache) yes: the call is tried, and a 403 teaches.

A channel or role update drops what interactions and 403s taught about that channel (or the
server), so the cache speaks again.

:data:`NEEDS` is the one list of the permissions the code checks for; the invite asks for exactly
their union (:data:`INVITE_PERMISSIONS`, printed in the README and in ``/help`` for managers).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import discord

from i18n import t

__all__ = ["BY_KEY", "INVITE_PERMISSIONS", "NEEDS", "ChannelPermissions", "Need", "invite_text", "invite_url",
           "needs_of", "plain", "shown"]

CONTENT_LIMIT = 2000
"""Characters of a message's content: an embed shown as plain text is cut to it."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Need:
    """One thing the bot does in a server channel, and the permission it takes."""

    key: str  # what the code asks for: "send", "attach", ...
    flag: str  # the discord.Permissions attribute
    name: str  # Discord's English name of the permission (for logs; people read ``shown``)
    required: bool  # without it no table works in the channel (else: a fallback, said in one line)


NEEDS: tuple[Need, ...] = (
    Need("view", "view_channel", "View Channels", True),
    Need("send", "send_messages", "Send Messages", True),
    Need("embed", "embed_links", "Embed Links", True),
    Need("attach", "attach_files", "Attach Files", False),
    Need("threads", "create_public_threads", "Create Public Threads", False),
    Need("thread_send", "send_messages_in_threads", "Send Messages in Threads", False),
)
"""Every permission the bot checks before acting: the invite asks for exactly these. Mentions need
none (the bot mentions only people, never @everyone or roles) and no custom emoji is used, so
neither Mention Everyone nor Use External Emojis is asked for; nothing reads the history."""

BY_KEY = {need.key: need for need in NEEDS}

INVITE_PERMISSIONS = discord.Permissions(**{need.flag: True for need in NEEDS})
"""The invite's permissions (``.value``: the integer of the OAuth2 URL)."""


def invite_url(client_id: int | str = "YOUR_CLIENT_ID") -> str:
    """Return the invite URL asking for :data:`INVITE_PERMISSIONS` and the slash commands."""
    return discord.utils.oauth_url(client_id, permissions=INVITE_PERMISSIONS,
                                   scopes=("bot", "applications.commands"))


def shown(needs: list[Need] | tuple[Need, ...]) -> str:
    """Return the permissions' names as Discord shows them in the reader's language, joined."""
    return ", ".join(f"**{t(f'permissions.name.{need.key}')}**" for need in needs)


def invite_text(client_id: int | str = "YOUR_CLIENT_ID") -> str:
    """Return what the invite asks for, in the reader's language, with its integer and URL."""
    return t("help.invite", required=shown([n for n in NEEDS if n.required]),
             optional=shown([n for n in NEEDS if not n.required]), value=INVITE_PERMISSIONS.value,
             url=f"<{invite_url(client_id)}>")


class ChannelPermissions:
    """What the bot may do in each server channel now (see the module doc); owned by the hub."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._told: dict[int, discord.Permissions] = {}  # channel id -> what an interaction said
        self._refused: dict[int, set[str]] = {}  # channel id -> needs a 403 showed off
        self._guild_of: dict[int, int] = {}  # channel id -> its server, for a role update
        self._skipped: set[tuple[int, str]] = set()  # (channel, need) logged as skipped

    # ------------------------------------------------------------------ asking

    def of(self, channel_id: int) -> discord.Permissions | None:
        """Return the bot's permissions in a channel (its thread's channel for a thread), or None
        when unknown (not in the cache)."""
        told = self._told.get(channel_id)
        if told is not None:
            return told
        channel = self.bot.get_channel(channel_id)
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        if not isinstance(channel, discord.abc.GuildChannel):
            return None  # not cached (or a DM): unknown
        me = channel.guild.me
        if me is None:
            return None
        self._guild_of[channel_id] = channel.guild.id
        return channel.permissions_for(me)

    def may(self, channel_id: int, need: str) -> bool:
        """May the bot do ``need`` (a :data:`NEEDS` key) in the channel now? Unknown: yes."""
        if need in self._refused.get(channel_id, ()):
            return False
        perms = self.of(channel_id)
        return perms is None or bool(getattr(perms, BY_KEY[need].flag))

    def missing(self, channel_id: int) -> list[Need]:
        """Return what the bot lacks in the channel, in :data:`NEEDS` order."""
        return [need for need in NEEDS if not self.may(channel_id, need.key)]

    # ------------------------------------------------------------------ learning

    def learn(self, channel_id: int | None, guild_id: int | None, perms: discord.Permissions) -> None:
        """Keep what Discord said the bot may do in a channel (an interaction's ``app_permissions``):
        the freshest word there is, so it replaces what a 403 taught."""
        if channel_id is None or guild_id is None:
            return  # a DM: no server permissions apply
        self._told[channel_id] = perms
        self._guild_of[channel_id] = guild_id
        self._refused.pop(channel_id, None)

    def refused(self, channel_id: int, needs: set[str] | list[str], what: str) -> None:
        """A request needing ``needs`` got 403 anyway (a permission changed after the check): they
        are off in the channel until Discord says otherwise, so nothing retries it; logged once
        per channel."""
        known = self._refused.setdefault(channel_id, set())
        if not known:
            log.warning("channel %s: Discord refused %s (403): no longer tried there until its "
                        "permissions change", channel_id, what)
        known.update(needs)

    def skipped(self, channel_id: int, need: str, what: str) -> None:
        """Log, once per channel and need, that something was not tried for lack of ``need``."""
        if (channel_id, need) not in self._skipped:
            self._skipped.add((channel_id, need))
            log.info("channel %s: %s off; %s is not tried there", channel_id, BY_KEY[need].name, what)

    def forget(self, channel_id: int) -> None:
        """The channel changed (its overwrites): the cache speaks for it again."""
        self._told.pop(channel_id, None)
        self._refused.pop(channel_id, None)

    def forget_guild(self, guild_id: int) -> None:
        """A role of the server changed: the cache speaks for all its channels again."""
        for channel_id in [c for c, g in self._guild_of.items() if g == guild_id]:
            self.forget(channel_id)

    # ------------------------------------------------------------------ Discord's events

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction says what the bot may do in its channel."""
        self.learn(interaction.channel_id, interaction.guild_id, interaction.app_permissions)

    async def on_guild_channel_update(self, before: discord.abc.GuildChannel,
                                      after: discord.abc.GuildChannel) -> None:
        """A channel's overwrites may have changed."""
        self.forget(after.id)

    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        """A role's permissions may have changed (the bot's own, or @everyone's)."""
        self.forget_guild(after.guild.id)

    async def on_guild_role_delete(self, role: discord.Role) -> None:
        """A role the bot may have had is gone."""
        self.forget_guild(role.guild.id)


def needs_of(fields: dict[str, Any]) -> set[str]:
    """Return what sending or editing a message with ``fields`` needs in a server channel."""
    needs = {"send"}
    if fields.get("files") or any(isinstance(a, discord.File) for a in fields.get("attachments") or []):
        needs.add("attach")
    if fields.get("embed") is not None or fields.get("embeds"):
        needs.add("embed")
    return needs


def plain(fields: dict[str, Any]) -> dict[str, Any]:
    """Return ``fields`` with their embeds written into the content (Embed Links is off): title,
    text and fields, cut to a message's length; an embed's picture cannot be shown that way."""
    embeds = [e for e in [fields.get("embed"), *(fields.get("embeds") or [])] if isinstance(e, discord.Embed)]
    parts = [fields["content"]] if fields.get("content") else []
    for embed in embeds:
        if embed.title:
            parts.append(f"**{embed.title}**")
        if embed.description:
            parts.append(embed.description)
        parts += [f"**{f.name}**\n{f.value}" for f in embed.fields]
        if embed.footer.text:
            parts.append(embed.footer.text)
    out = {k: v for k, v in fields.items() if k not in ("embed", "embeds")}
    out["content"] = "\n".join(parts)[:CONTENT_LIMIT]
    if "embed" in fields or "embeds" in fields:
        out["embeds"] = []  # an edit removes the embed the message had
    return out
