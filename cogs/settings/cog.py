"""``/settings``: the server's settings, for people who can manage the server.

``/settings language`` chooses the language of the bot's public messages on this server (lobby,
boards, logs, summaries, leaderboards); left out, it tells the current one. Private texts keep
following each player's own Discord language.

``/settings decision_time``, ``/settings bot_delay`` and ``/settings threads`` set what a new table
of this server starts with (a table opened with its own ``timeout`` keeps it): the time to decide,
how long a bot seat waits before acting, and whether the game's log goes to a thread of its own or
to the channel. Left out, each tells the current value. A running table keeps what it started with.
``/settings host_tables`` sets how many lobbies and games one member may host at once here.
``/settings season_channel`` chooses where the bot posts each game's top three when a quarterly
season ends (none by default: the champions are only remembered). ``/settings wanted_role`` chooses
a role the players-wanted message of a new table pings (:mod:`cogs.table.messages.wanted`); not
@everyone nor a role Discord manages (a bot's, the boosters'); one Discord would not notify (not
mentionable, and the bot may not Mention Everyone) is kept, with a warning each time it is shown,
as the fix is the server's: make the role mentionable. ``/settings permissions``
lists, per channel with a table, what the bot lacks there and so does without (what the bot may
do where is :mod:`cogs.table.messages.permissions`).
"""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from cogs.leaderboard.seasons import CHANNEL_SETTING
from cogs.table.controls.buttons import can_manage, reply
from cogs.table.controls.duration import DurationOption, read_decision_time
from cogs.table.messages.hub import TableBot
from cogs.table.messages.permissions import shown
from cogs.table.messages.text import pace_text
from cogs.table.messages.wanted import ROLE_SETTING, notifies
from engine.session import SessionError
from engine.session.options import DEFAULT_TABLES_PER_HOST, DEFAULT_THREADS
from i18n import NATIVE_NAMES, t

__all__ = ["Settings", "setup"]

AUTO = "auto"
"""The choice that clears the server's language: public messages follow its Discord language."""


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Settings(commands.GroupCog, group_name="settings", group_description="This server's settings (Manage Server)"):
    """The server's settings (Discord shows the group only to members who can manage the server)."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="language", description="The language of the bot's public messages on this server")
    @app_commands.describe(language="Leave out to see the current language")
    @app_commands.choices(language=[
        app_commands.Choice(name="English", value="en"),
        app_commands.Choice(name="suomi (Finnish)", value="fi"),
        app_commands.Choice(name="svenska (Swedish)", value="sv"),
        app_commands.Choice(name="italiano (Italian)", value="it"),
        app_commands.Choice(name="the server's Discord language", value=AUTO),
    ])
    async def language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        """Show or choose the server's language; the answer is private, in the user's language."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply(interaction, t("error.guild_only"))
            return
        readers = self.bot.hub.readers
        await readers.load_guild(guild_id)
        if language is None:
            chosen = readers.chosen(guild_id)
            key = "settings.language_chosen" if chosen else "settings.language_auto"
            await reply(interaction, t(key, language=NATIVE_NAMES[readers.public(guild_id)]))
            return
        if not can_manage(interaction):  # the command is hidden from others; a crafted call lands here
            await reply(interaction, t("error.not_manager"))
            return
        await readers.choose(guild_id, None if language == AUTO else language)
        key = "settings.language_reset" if language == AUTO else "settings.language_set"
        await reply(interaction, t(key, language=NATIVE_NAMES[readers.public(guild_id)]))

    @app_commands.command(name="decision_time", description="Time a player has to decide, for new tables")
    @app_commands.describe(time="90s, 10m, 8h, 3d (30 s to 7 days); leave out to see the current value")
    async def decision_time(self, interaction: discord.Interaction, time: DurationOption | None = None) -> None:
        """Show or set the server's default decision time (shown in words, with the pace it makes)."""
        seconds = None if time is None else await read_decision_time(interaction, time)
        if time is not None and seconds is None:
            return  # refused privately: nothing changes
        await self._server_setting(interaction, "decision_timeout_s", seconds,
                                  float(self.bot.sessions.settings.decision_timeout_s), shown=_decision_time)

    @app_commands.command(name="bot_delay", description="Seconds a bot seat waits before it acts, for new tables")
    @app_commands.describe(seconds="0 to 30; leave out to see the current value")
    async def delay_of_bots(self, interaction: discord.Interaction,
                        seconds: app_commands.Range[float, 0.0, 30.0] | None = None) -> None:
        """Show or set the server's default bot delay."""
        await self._server_setting(interaction, "ai_delay_s", seconds, float(self.bot.sessions.settings.ai_delay_s))

    @app_commands.command(name="threads", description="Whether each game's log goes to a thread of its own")
    @app_commands.describe(on="Leave out to see the current value")
    async def threads(self, interaction: discord.Interaction, on: bool | None = None) -> None:
        """Show or set whether new tables log to a thread (else to the channel)."""
        await self._server_setting(interaction, "threads", on, DEFAULT_THREADS)

    @app_commands.command(name="host_tables", description="How many tables one member may host at once here")
    @app_commands.describe(count="1 to 50; leave out to see the current value")
    async def host_tables(self, interaction: discord.Interaction,
                          count: app_commands.Range[int, 1, 50] | None = None) -> None:
        """Show or set how many lobbies and games one member may host at once on the server."""
        await self._server_setting(interaction, "tables_per_host", count, DEFAULT_TABLES_PER_HOST)

    @app_commands.command(name="season_channel", description="Where a season's champions are announced")
    @app_commands.describe(channel="The channel; leave out to see the current one", off="Announce nowhere")
    async def season_channel(self, interaction: discord.Interaction, channel: discord.TextChannel | None = None,
                             off: bool = False) -> None:
        """Show, set or clear the channel of the season-end posts (the season's top three of each game)."""
        value = None if channel is None else channel.id
        await self._server_setting(interaction, CHANNEL_SETTING, value, None, shown=_channel, clear=off)

    @app_commands.command(name="wanted_role", description="The role pinged when a table opens here")
    @app_commands.describe(role="The role; leave out to see the current one", off="Ping no role")
    async def wanted_role(self, interaction: discord.Interaction, role: discord.Role | None = None,
                          off: bool = False) -> None:
        """Show, set or clear the role the players-wanted message of a new table pings."""
        refused = None if role is None or off else _refused(role)
        if refused is not None:
            await reply(interaction, t(refused, role=role.mention if role is not None else ""))
            return
        guild = interaction.guild

        def shown(value: object) -> str:
            # The option's own role when it is the one set (the cache might not hold it yet).
            found = role if role is not None and role.id == value else None
            if found is None and guild is not None and isinstance(value, int):
                found = guild.get_role(value)
            return _role(found)

        await self._server_setting(interaction, ROLE_SETTING, None if role is None else role.id, None, shown=shown,
                                   clear=off)

    @app_commands.command(name="permissions", description="What the bot lacks in the channels with tables")
    async def permissions(self, interaction: discord.Interaction) -> None:
        """List, per channel with a table here, the permissions the bot uses and lacks there."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply(interaction, t("error.guild_only"))
            return
        if not can_manage(interaction):  # the command is hidden from others; a crafted call lands here
            await reply(interaction, t("error.not_manager"))
            return
        tables = await self.bot.sessions.active_in_guild(guild_id)
        if not tables:
            await reply(interaction, t("settings.permissions_none"))
            return
        known = self.bot.hub.permissions
        lines = [f"<#{channel_id}>: {shown(missing)}"
                 for channel_id in dict.fromkeys(table.channel_id for table in tables)
                 if (missing := known.missing(channel_id))]
        if not lines:
            await reply(interaction, t("settings.permissions_all"))
            return
        await reply(interaction, "\n".join([t("settings.permissions_title"), *lines])[:2000])

    async def _server_setting(self, interaction: discord.Interaction, key: str, value: float | bool | None,
                              default: float | bool | None, shown: Callable[[object], str] | None = None,
                              clear: bool = False) -> None:
        """Show (``value`` None), set or ``clear`` (back to the default) one of the server's settings
        (most of them: what a new table of the server starts with)."""
        guild_id = interaction.guild_id
        if guild_id is None:
            await reply(interaction, t("error.guild_only"))
            return
        sessions = self.bot.sessions
        try:
            if value is None and not clear:
                current = (await sessions.server_settings(guild_id)).get(key, default)
                await reply(interaction, t(f"settings.{key}_now", value=(shown or _shown)(current)))
                return
            if not can_manage(interaction):  # the command is hidden from others; a crafted call lands here
                await reply(interaction, t("error.not_manager"))
                return
            value = None if clear else value
            await sessions.set_server_setting(guild_id, key, value)
        except SessionError as exc:
            await reply(interaction, t(f"error.{exc.code}"))
            return
        await reply(interaction, t(f"settings.{key}_set", value=(shown or _shown)(default if value is None else value)))


def _shown(value: object) -> str:
    """Return a setting's value as the answer shows it (seconds without a needless ``.0``; on/off)."""
    if isinstance(value, bool):
        return t("settings.on") if value else t("settings.off")
    if isinstance(value, int | float):
        return f"{value:g}"
    return str(value)


def _channel(value: object) -> str:
    """Return the season channel as the answer shows it: a channel mention, or nowhere."""
    return f"<#{value}>" if isinstance(value, int) else t("settings.season_channel_nowhere")


def _refused(role: discord.Role) -> str | None:
    """Return why a role may not be the one a new table pings (the text's key), or None."""
    if role.is_default():
        return "settings.wanted_role_everyone"  # every member: what players-wanted must never do
    if role.managed:
        return "settings.wanted_role_managed"  # a bot's or the boosters': members do not choose it
    return None


def _role(role: discord.Role | None) -> str:
    """Return the role a new table pings as the answer shows it, warning when Discord would
    notify nobody (a role deleted since: none, as it is not pinged)."""
    if role is None:
        return t("settings.wanted_role_none")
    return role.mention if notifies(role) else t("settings.wanted_role_silent", role=role.mention)


def _decision_time(value: object) -> str:
    """Return a decision time as the answer shows it: in words, with its pace."""
    return pace_text(float(value) if isinstance(value, int | float) else 0.0)


async def setup(bot: commands.Bot) -> None:
    """Load the cog (discord.py extension entry point)."""
    assert isinstance(bot, TableBot)
    await bot.add_cog(Settings(bot))
