"""Quarterly seasons (issue 44, item 2): a season's table, its freezing, and the rollover post.

A season's table in one game is :func:`engine.seasons.season_table` of the games finished in it.
The current season's is folded on read (it changes with every game). A season that is over is
frozen once (:meth:`db.Leaderboards.close_season`) and read from the store ever after: a stored
snapshot, not a recomputation, so a past season's ratings never change, not even when the rating
rules of a later release do.

:class:`Rollover` notices a season's end: at start-up (the season before the current one) and by
a timer on the session clock at the next quarter's start. For each server with games in the ended
season it freezes the table and, once per server and season (a stored mark claimed before the
message is sent), posts the top three of each game to the channel chosen in ``/settings
season_channel`` (none: the champions are only remembered). A restart at the boundary runs the
same check again and finds the mark: nothing is posted twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator
from typing import Any

import discord

from cogs.table.messages.hub import TableBot
from cogs.table.messages.text import player_name
from db import Leaderboards, PlayerKey, SeasonRow
from engine.ratings import GameOutcome
from engine.seasons import bounds, next_start, previous, season_of, season_table
from i18n import reader_is, t

__all__ = ["CHANNEL_SETTING", "Rollover", "SeasonBook"]

log = logging.getLogger(__name__)

CHANNEL_SETTING = "season_channel"
FOLD_CHUNK = 5000
PODIUM = 3
MEDALS = ("🥇", "🥈", "🥉")


def _person(key: PlayerKey) -> bool:
    return key[0] != 0  # AI levels are opponents, never a season's champions


class SeasonBook:
    """A server's season tables: folded on read while the season runs, frozen once it is over."""

    def __init__(self, boards: Leaderboards, games: tuple[str, ...]) -> None:
        self.boards = boards
        self.games = games
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}

    async def fold(self, guild_id: int, game: str, season: str) -> list[SeasonRow]:
        """Return the season's table in one game, computed from its games (people only)."""
        games, mark, within = [], None, bounds(season)
        while True:
            chunk = await self.boards.rated_games(guild_id, game, mark, FOLD_CHUNK, within=within)
            games += chunk
            if len(chunk) < FOLD_CHUNK:
                break
            mark = (chunk[-1].finished_at, chunk[-1].game_id)
        outcomes = [GameOutcome(g.game_id, g.seats) for g in games]
        lines = await asyncio.to_thread(season_table, outcomes, _person)
        return [SeasonRow(game, line.key, line.rank, line.rating.mu, line.rating.sigma, line.rating.games,
                          line.wins) for line in lines]

    async def freeze(self, guild_id: int, season: str, now_ms: int) -> bool:
        """Store an ended season's tables of every game, unless they are stored already (True if now)."""
        async with self._locks.setdefault((guild_id, season), asyncio.Lock()):
            if await self.boards.season_closing(guild_id, season) is not None:
                return False
            lines = [row for game in self.games for row in await self.fold(guild_id, game, season)]
            return await self.boards.close_season(guild_id, season, now_ms, lines)

    async def played(self, guild_id: int, now_ms: int) -> AsyncGenerator[str, None]:
        """Yield the server's past seasons with a finished game, newest first: one statement per
        season (the newest game before the last one found names the next season down)."""
        before = bounds(season_of(now_ms))[0]
        while (newest := await self.boards.newest_finish(guild_id, self.games, before)) is not None:
            season = season_of(newest)
            yield season
            before = bounds(season)[0]

    async def table(self, guild_id: int, game: str, season: str, now_ms: int) -> list[tuple[SeasonRow, str]]:
        """Return a season's table in one game with names: live for the current season, else frozen."""
        if bounds(season)[1] > now_ms:
            rows = await self.fold(guild_id, game, season)
            names = await self.boards.names(guild_id, game, [row.key for row in rows])
            return [(row, names.get(row.key, "")) for row in rows]
        await self.freeze(guild_id, season, now_ms)  # a season no rollover saw (older than the bot's seasons)
        return await self.boards.season_lines(guild_id, season, game)


class Rollover:
    """Freezes the season that just ended on every server that played in it, and posts its podium once."""

    def __init__(self, bot: TableBot, book: SeasonBook) -> None:
        self.bot, self.book = bot, book
        self._timer: Any = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Check the season that ended last once the bot is ready, then wait for the next boundary."""
        self._task = asyncio.create_task(self._first())

    def stop(self) -> None:
        """Stop waiting (the stored marks make the next process pick up where this one stopped)."""
        if self._timer is not None:
            self._timer.cancel()
        if self._task is not None:
            self._task.cancel()

    async def _first(self) -> None:
        await self.bot.wait_until_ready()
        await self._fire()

    def _now_ms(self) -> int:
        return int(self.bot.sessions.clock.now() * 1000)

    async def _fire(self) -> None:
        try:
            await self.roll()
        except Exception:
            log.exception("season rollover failed; the next start or boundary retries it")
        self._timer = self.bot.sessions.clock.call_at(next_start(self._now_ms()) / 1000, self._fire)

    async def roll(self) -> None:
        """Close the season before the current one on every server with games in it (idempotent)."""
        now = self._now_ms()
        ended = previous(season_of(now))
        for guild_id in await self.book.boards.season_guilds(*bounds(ended)):
            await self.book.freeze(guild_id, ended, now)
            if await self.book.boards.claim_season_post(guild_id, ended, now):
                await self.announce(guild_id, ended)

    async def announce(self, guild_id: int, season: str) -> None:
        """Post a season's top three of each game to the server's season channel, if it chose one."""
        channel_id = (await self.bot.store.guild_settings(guild_id)).get(CHANNEL_SETTING)
        if not isinstance(channel_id, int):
            return
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            log.warning("season channel %s of server %s is gone; %s's champions are not posted",
                        channel_id, guild_id, season)
            return
        await self.bot.hub.readers.load_guild(guild_id)
        reader_is(self.bot.hub.readers.public(guild_id))
        embed = discord.Embed(title=t("season.over_title", season=season), colour=discord.Colour.gold())
        for game in self.book.games:
            podium = [(row, name) for row, name in await self.book.boards.season_lines(guild_id, season, game)
                      if row.rank <= PODIUM]
            if podium:
                embed.add_field(name=t(f"lb.game.{game}"), inline=False, value="\n".join(
                    t("season.podium_line", medal=MEDALS[row.rank - 1], name=player_name(name),
                      rating=row.ordinal, wins=row.wins, games=row.games) for row, name in podium))
        if not embed.fields:
            embed.description = t("season.over_empty")
        try:
            await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as exc:
            log.warning("could not post %s's champions to channel %s: %s", season, channel_id, exc)
