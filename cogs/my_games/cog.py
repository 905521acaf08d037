"""``/games``: every running table (lobby or playing) the player sits at, on every server, privately.

Usable in any server channel and in a DM with the bot. Each line: the game, the server and the
channel, whose turn it is, the player's own deadline (a live timestamp) and a link to the table's
current message; the tables waiting for the player come first (soonest deadline first), then the
other games, then the lobbies. In a game whose choices are secret (Incan Gold) it says only
whether the table waits for *you* and how many decide: never who has chosen. The tables are found
by the store's index of seats by user and drawn from the session's tables (loaded through the
session when not in memory).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.table.controls.buttons import refuse, reply
from cogs.table.messages.hub import TableBot, TableHub
from cogs.table.messages.listing import link_text, new_table_commands
from cogs.table.messages.text import player_name, seat_names, when
from engine.session import SessionError, Table
from i18n import t, tn

__all__ = ["DESCRIPTION_MAX", "MyGames", "games_embed", "order", "setup"]

DESCRIPTION_MAX = 4096
"""Discord's limit on an embed's description."""


def waits_for(table: Table, user_id: int) -> bool:
    """Return True when the table waits for this player's decision now."""
    return table.seat_of(user_id) in table.humans_owing()


def order(tables: list[Table], user_id: int) -> list[Table]:
    """Return the tables as listed: those waiting for the player (soonest deadline first), then the
    other running games, then the lobbies (oldest first within each)."""
    def key(table: Table) -> tuple[int, float, int]:
        if waits_for(table, user_id):
            return 0, table.deadline if table.deadline is not None else float("inf"), table.id
        return (1 if table.status == "playing" else 2), 0.0, table.id
    return sorted(tables, key=key)


def turn_text(table: Table, user_id: int) -> str:
    """Return whose turn it is, as this player may know it (a secret choice names nobody)."""
    if table.status == "lobby":
        return tn("games.lobby", len(table.seats))
    mine = waits_for(table, user_id)
    deciding = table.spec.deciding
    if deciding is not None and table.state is not None:
        count = deciding(table.state)
        return tn("games.you_decide" if mine else "games.others_decide", count)
    if mine:
        return t("games.your_turn")
    owing = table.owing()
    return t("games.turn_of", names=seat_names(table, owing)) if owing else t("games.playing")


async def line(hub: TableHub, table: Table, user_id: int) -> str:
    """Return one table's line in the player's list."""
    guild = hub.bot.get_guild(table.guild_id)
    server = player_name(guild.name) if guild is not None else t("games.unknown_server")
    turn = turn_text(table, user_id)
    if waits_for(table, user_id) and table.deadline is not None:
        turn = f"{turn} — {t('games.deadline', when=when(table.deadline))}"
    link = await link_text(hub, table, "lobby" if table.status == "lobby" else None)
    return t("games.line", game=hub.renderer(table).title(), server=server, channel=f"<#{table.channel_id}>",
             turn=turn, link=link)


async def games_embed(hub: TableHub, tables: list[Table], user_id: int) -> discord.Embed:
    """Return the player's list, within Discord's limit (the rest counted as "and N more")."""
    embed = discord.Embed(title=t("games.title"), colour=discord.Colour.gold())
    if not tables:
        embed.description = t("games.none", commands=new_table_commands())
        return embed
    listed = order(tables, user_id)
    lines: list[str] = []
    for number, table in enumerate(listed):
        text = await line(hub, table, user_id)
        rest = len(listed) - number - 1
        more = "\n" + tn("games.more", rest) if rest else ""
        # Room is kept for the "and N more" line the next table might need.
        room = DESCRIPTION_MAX - len("\n".join(lines)) - len(more) - 1
        if len(text) > room:
            lines.append(tn("games.more", len(listed) - number))
            break
        lines.append(text)
    embed.description = "\n".join(lines)
    return embed


class MyGames(commands.Cog):
    """``/games``."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    @app_commands.command(name="games", description="Your running tables on every server, yours to play first")
    @app_commands.allowed_contexts(guilds=True, dms=True)
    @app_commands.allowed_installs(guilds=True)
    async def games(self, interaction: discord.Interaction) -> None:
        """List the player's running tables privately."""
        try:
            tables = await self.bot.sessions.active_of_player(interaction.user.id)
        except SessionError as exc:
            await refuse(interaction, exc)
            return
        await reply(interaction, None, embed=await games_embed(self.bot.hub, tables, interaction.user.id))


async def setup(bot: TableBot) -> None:
    """Load the cog (discord.py extension entry point)."""
    await bot.add_cog(MyGames(bot))
