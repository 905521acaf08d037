"""The fake's world: the application, its bot user, the guild, users and channels, as discord.py sees them.

`World` holds what Discord knows besides messages: the ids it hands out, the users (guild members
or not), text channels, threads and DM channels, the commands the bot synced, and the bots
connected to it. It creates users and channels, opens and closes DMs, grants the bot's role its
permissions and denies the bot permissions per channel (telling connected bots through gateway
events), computes what the bot may do in a channel as Discord does (`bot_permissions_in`: roles,
then the channel's overwrite; a thread follows its channel), and assembles the payloads
discord.py parses for them: members, channels, the guild (GUILD_CREATE), app permissions, and a
new interaction (`interaction_payload`).
"""

from __future__ import annotations

import discord

from fakediscord import interactions as ix
from fakediscord import payloads as p
from fakediscord.objects import FakeChannel, FakeDiscordError, FakeMessage, FakeRole, FakeUser
from fakediscord.payloads import Json
from fakediscord.wire import round_trip

__all__ = ["PERM_SEND_MESSAGES", "PERM_VIEW_CHANNEL", "World"]

PERM_SEND_MESSAGES = p.PERM_SEND_MESSAGES
PERM_VIEW_CHANNEL = p.PERM_VIEW_CHANNEL


class World:
    """Users, the guild, channels and connected bots, and their payloads."""

    def __init__(self, *, guild_name: str, guild_locale: str, bot_name: str) -> None:
        # The order ids are handed out in is part of what tests see (ids are deterministic).
        self.ids = p.Snowflakes()
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self.ids.next(), bot_name, bot=True, permissions=p.BOT_PERMISSIONS)
        self.guild_id = self.ids.next()
        self.guild_ids = [self.guild_id]  # the fake guild, then those of `other_guild`
        self.guild_name = guild_name
        self.guild_locale = guild_locale  # the guild's preferred locale (a Community guild's language)
        self.manager_role_id = self.ids.next()
        self.bot_role_id = self.ids.next()
        self.everyone_permissions = p.EVERYONE_PERMISSIONS  # the @everyone role's (the bot has them too)
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.roles: dict[int, FakeRole] = {}  # the fake guild's roles a test made (`role`), by id
        self.dm_channel_ids: dict[int, int] = {}  # user id -> DM channel id
        self.commands: dict[int | None, list[Json]] = {}  # synced commands by guild id (None: global)
        # The bots connected to this Discord (started by `BotRunner`): they hear of every change here.
        self.bots: list[discord.Client] = []
        self.owner = self.user("Guild Owner", permissions=p.ALL_PERMISSIONS)
        self.users[self.bot_user.id] = self.bot_user

    # ---------------------------------------------------------------- world building

    def user(
        self,
        name: str,
        *,
        in_guild: bool = True,
        dms_open: bool = True,
        manage_guild: bool = False,
        permissions: int | None = None,
        locale: str = "en-US",
        username: str | None = None,
    ) -> FakeUser:
        """Create a user (a guild member unless in_guild=False) shown as ``name`` (its username: ``username``,
        else ``name`` in lower case); ids are deterministic."""
        perms = p.EVERYONE_PERMISSIONS if permissions is None else permissions
        if manage_guild:
            perms |= p.PERM_MANAGE_GUILD
        u = FakeUser(
            self.ids.next(), name, in_guild=in_guild, permissions=perms, dms_open=dms_open, locale=locale,
            username=username,
        )
        self.users[u.id] = u
        if in_guild:
            for bot in self.bots:
                data = {**self.member_payload(u), "guild_id": str(self.guild_id)}
                bot._connection.parsers["GUILD_MEMBER_ADD"](data)
        return u

    def text_channel(self, name: str, *, guild_id: int | None = None) -> FakeChannel:
        """Create a text channel in the fake guild, or in another server made by `other_guild`."""
        ch = FakeChannel(self.ids.next(), name, guild_id or self.guild_id, position=len(self.channels))
        self.channels[ch.id] = ch
        for bot in self.bots:
            bot._connection.parsers["CHANNEL_CREATE"](self.channel_payload(ch))
        return ch

    def role(self, name: str, *, members: tuple[FakeUser, ...] = (), mentionable: bool = False) -> FakeRole:
        """Create a role in the fake guild (as a server's admin would: no permissions) held by
        ``members``; the running bots get its GUILD_ROLE_CREATE. Discord notifies its members of a
        mention when it is ``mentionable`` or the author may Mention Everyone."""
        role = FakeRole(self.ids.next(), name, self.guild_id, position=3 + len(self.roles), mentionable=mentionable,
                        members=frozenset(u.id for u in members))
        self.roles[role.id] = role
        for bot in self.bots:
            bot._connection.parsers["GUILD_ROLE_CREATE"]({"guild_id": str(self.guild_id), "role": role.payload()})
        return role

    def delete_role(self, role: FakeRole) -> None:
        """Delete a role made by `role`; the running bots get the GUILD_ROLE_DELETE."""
        del self.roles[role.id]
        for bot in self.bots:
            bot._connection.parsers["GUILD_ROLE_DELETE"]({"guild_id": str(role.guild_id), "role_id": str(role.id)})

    def guild_roles(self, guild_id: int | None = None) -> list[FakeRole]:
        """A guild's roles: @everyone (the guild's id), Managers (Manage Server), the bot's own
        (managed by Discord for the bot), then those a test made in it."""
        gid = guild_id or self.guild_id
        members = [u.id for u in self.users.values() if u.in_guild or gid != self.guild_id]
        return [
            FakeRole(gid, "@everyone", gid, self.everyone_permissions, members=frozenset(members)),
            FakeRole(self.manager_role_id, "Managers", gid, p.EVERYONE_PERMISSIONS | p.PERM_MANAGE_GUILD, 1,
                     members=frozenset(u for u in members if self.users[u].permissions & p.PERM_MANAGE_GUILD)),
            FakeRole(self.bot_role_id, self.bot_user.name, gid, self.bot_user.permissions, 2, bot_id=self.bot_user.id,
                     members=frozenset({self.bot_user.id})),
            *(r for r in self.roles.values() if r.guild_id == gid),
        ]

    def other_guild(self) -> int:
        """Create another server the bot is in (for cross-server tests) and return its id.

        Running bots get its GUILD_CREATE (start them first). Every user is its member, with the
        permissions the user was created with; the owner is the fake guild's owner.
        """
        guild_id = self.ids.next()
        self.guild_ids.append(guild_id)
        for bot in self.bots:
            bot._connection.parsers["GUILD_CREATE"](self.guild_payload(guild_id))
        return guild_id

    def close_dms(self, user: FakeUser) -> None:
        """The user does not accept DMs from the bot: sending to them fails with 403/50007."""
        user.dms_open = False

    def open_dms(self, user: FakeUser) -> None:
        """The user accepts DMs again."""
        user.dms_open = True

    def set_bot_permissions(
        self, channel: FakeChannel, *, send: bool = True, view: bool = True, create_threads: bool = True,
        send_in_threads: bool = True, attach: bool = True, embed: bool = True, tell: bool = True,
    ) -> None:
        """Deny (or grant back) the bot Send Messages / View Channel / Create Public Threads / Send
        Messages in Threads / Attach Files / Embed Links in a channel, by an overwrite for the bot
        (a request that needs one gets 403 50013 / 50001). ``tell=False``: the running bots are not
        sent the CHANNEL_UPDATE yet (a change between the bot's check and its call)."""
        channel.bot_can_send = send
        channel.bot_can_view = view
        channel.bot_can_create_threads = create_threads
        channel.bot_can_send_in_threads = send_in_threads
        channel.bot_can_attach = attach
        channel.bot_can_embed = embed
        if tell:
            for bot in self.bots:
                bot._connection.parsers["CHANNEL_UPDATE"](self.channel_payload(channel))

    def hide_channel(self, channel: FakeChannel, user: FakeUser) -> None:
        """Deny a member View Channel in a channel (a member overwrite); the running bots get the
        CHANNEL_UPDATE. Discord notifies nobody of a message they cannot see."""
        channel.hidden_from = channel.hidden_from | {user.id}
        for bot in self.bots:
            bot._connection.parsers["CHANNEL_UPDATE"](self.channel_payload(channel))

    def grant_bot(self, permissions: int, *, everyone: int | None = None) -> None:
        """Give the bot's role exactly ``permissions`` (what an invite with that integer grants) and,
        with ``everyone``, the @everyone role those (a server whose @everyone may do little); the
        running bots get the GUILD_ROLE_UPDATEs."""
        self.bot_user.permissions = permissions
        if everyone is not None:
            self.everyone_permissions = everyone
        for bot in self.bots:
            for gid in self.guild_ids:
                for role in self._roles(gid):
                    bot._connection.parsers["GUILD_ROLE_UPDATE"]({"guild_id": str(gid), "role": role})

    def bot_permissions_in(self, ch: FakeChannel) -> int:
        """What the bot may do in a channel (a thread: in its channel), as Discord computes it: the
        @everyone role's and the bot role's permissions, less the channel's overwrite for the bot."""
        if ch.parent_id is not None:
            ch = self.channels[ch.parent_id]
        base = self.everyone_permissions | self.bot_user.permissions
        if ch.is_dm:
            return self.bot_user.permissions
        if base & p.PERM_ADMINISTRATOR:
            return p.ALL_PERMISSIONS
        perms = base & ~self._denied(ch)
        return perms if perms & PERM_VIEW_CHANNEL else 0

    @staticmethod
    def _denied(ch: FakeChannel) -> int:
        """The bits the channel's overwrite denies the bot."""
        flags = (
            (ch.bot_can_send, PERM_SEND_MESSAGES), (ch.bot_can_view, PERM_VIEW_CHANNEL),
            (ch.bot_can_create_threads, p.PERM_CREATE_PUBLIC_THREADS),
            (ch.bot_can_send_in_threads, p.PERM_SEND_MESSAGES_IN_THREADS),
            (ch.bot_can_attach, p.PERM_ATTACH_FILES), (ch.bot_can_embed, p.PERM_EMBED_LINKS),
        )
        deny = 0
        for allowed, bit in flags:
            if not allowed:
                deny |= bit
        return deny

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and this user (created on first use, as Discord does)."""
        cid = self.dm_channel_ids.get(user.id)
        if cid is None:
            ch = FakeChannel(self.ids.next(), f"dm-{user.name}", None, recipient_id=user.id)
            self.channels[ch.id] = ch
            self.dm_channel_ids[user.id] = ch.id
            return ch
        return self.channels[cid]

    # ---------------------------------------------------------------- payload assembly

    def _roles_of(self, u: FakeUser) -> list[int]:
        if u.bot:
            return [self.bot_role_id]
        made = [r.id for r in self.roles.values() if u.id in r.members]
        return ([self.manager_role_id] if u.permissions & p.PERM_MANAGE_GUILD else []) + made

    def _joined_at(self) -> str:
        return p.snowflake_time_iso(self.guild_id)

    def member_payload(
        self, u: FakeUser, *, with_permissions: bool = False, channel: FakeChannel | None = None
    ) -> Json:
        perms = None
        if with_permissions:
            perms = p.ALL_PERMISSIONS if u.id == self.owner.id else u.permissions
        return p.member_payload(
            u.payload(), joined_at=self._joined_at(), roles=self._roles_of(u), permissions=perms
        )

    def threads(self, channel: FakeChannel | int) -> list[FakeChannel]:
        """The threads started in a text channel, oldest first."""
        cid = channel if isinstance(channel, int) else channel.id
        return [c for c in self.channels.values() if c.parent_id == cid]

    def channel_payload(self, ch: FakeChannel) -> Json:
        if ch.parent_id is not None:
            assert ch.guild_id is not None
            return p.thread_channel_payload(
                ch.id, ch.guild_id, ch.parent_id, ch.name, self.bot_user.id, ch.auto_archive_duration
            )
        if ch.is_dm:
            assert ch.recipient_id is not None
            return p.dm_channel_payload(ch.id, self.users[ch.recipient_id].payload())
        deny = self._denied(ch)
        overwrites = (
            [p.permission_overwrite_payload(self.bot_user.id, allow=0, deny=deny, member=True)]
            if deny
            else []
        ) + [p.permission_overwrite_payload(user_id, allow=0, deny=p.PERM_VIEW_CHANNEL, member=True)
             for user_id in sorted(ch.hidden_from)]
        assert ch.guild_id is not None
        return p.text_channel_payload(ch.id, ch.guild_id, ch.name, ch.position, overwrites)

    def guild_payload(self, guild_id: int | None = None) -> Json:
        """GUILD_CREATE for the fake guild (or another one of `other_guild`) as it is now."""
        guild_id = guild_id or self.guild_id
        members = [self.member_payload(u) for u in self.users.values() if u.in_guild or guild_id != self.guild_id]
        roles = self._roles(guild_id)
        channels = [
            self.channel_payload(c) for c in self.channels.values() if c.guild_id == guild_id and not c.is_thread
        ]
        return p.guild_payload(
            guild_id,
            self.guild_name if guild_id == self.guild_id else f"Other Guild {guild_id}",
            owner_id=self.owner.id,
            channels=channels,
            members=members,
            roles=roles,
            joined_at=self._joined_at(),
            preferred_locale=self.guild_locale if guild_id == self.guild_id else "en-US",
        )

    def _roles(self, guild_id: int) -> list[Json]:
        return [role.payload() for role in self.guild_roles(guild_id)]

    def app_permissions(self, ch: FakeChannel) -> int:
        """What an interaction in this channel says the bot may do there (``app_permissions``)."""
        return self.bot_permissions_in(ch)

    def interaction_payload(
        self,
        interaction_id: int,
        token: str,
        user: FakeUser,
        channel: FakeChannel,
        itype: int,
        data: Json | None,
        message: FakeMessage | None = None,
    ) -> Json:
        """The INTERACTION_CREATE Discord sends when this user acts in this channel (refused where
        Discord's client would not let them act)."""
        guild_id = None if channel.is_dm else channel.guild_id
        if guild_id == self.guild_id and not user.in_guild:
            raise FakeDiscordError(f"{user.name} is not a member of the guild")
        if channel.is_dm and channel.recipient_id != user.id:
            raise FakeDiscordError(f"{user.name} cannot act in another user's DM channel")
        return ix.interaction_payload(
            interaction_id=interaction_id,
            application_id=self.application_id,
            token=token,
            interaction_type=itype,
            data=data,
            channel=self.channel_payload(channel),
            guild_id=guild_id,
            member=self.member_payload(user, with_permissions=True) if guild_id else None,
            user=user.payload() if guild_id is None else None,
            message=round_trip(message.data) if message is not None else None,
            locale=user.locale,
            guild_locale=self.guild_locale if guild_id == self.guild_id else "en-US",
            app_permissions=self.app_permissions(channel),
        )
