"""Leaderboards, personal stats, game history and game logs: ``/leaderboard``, ``/stats``,
``/history`` and ``/game log`` (and ``/game replay``, drawn by cogs.replay).

Every number comes from ``db.leaderboard`` (all SQL there); ratings come from
``engine.ratings``' deterministic fold of the stored results, cached in the database and brought
up to date (:class:`RatingBook`) before a rating is shown. Leaderboard pages are ``DynamicItem``
buttons whose custom_id holds the whole query and the page, so they keep working after a restart.
Replies are embeds; refusals are private.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from datetime import UTC, datetime
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs.leaderboard.gamelog import render_log
from cogs.leaderboard.seasons import Rollover, SeasonBook
from cogs.replay.cog import open_replay
from cogs.table.controls.buttons import guarded
from cogs.table.messages.hub import TableBot
from cogs.table.messages.text import player_name
from db import (
    DAY_MS,
    GameNotFound,
    Leaderboards,
    PlayerKey,
    Ranking,
    Standing,
    StandingsPage,
    StoredRating,
    StoreError,
    Unavailable,
    user_key,
)
from engine.ratings import GameOutcome, Rating, fold, ordinal, sparkline
from engine.seasons import bounds, parse, season_of
from i18n import NATIVE_NAMES, reader_is, t, tn

log = logging.getLogger(__name__)

GAMES = ("incan_gold", "sakkara", "indus")
RANKINGS: tuple[Ranking, ...] = ("rating", "wins", "win_rate", "games")
PER_PAGE = 10
MIN_WIN_RATE_GAMES = 5  # a win-rate ranking needs this many games: one lucky game cannot top it
PERIOD_DAYS = 30
TREND_GAMES = 10
HISTORY_GAMES = 10
SEASON_LINES = 8  # the newest season lines /stats shows
AUTOCOMPLETE_CHOICES = 25  # Discord's limit of choices an autocomplete offers
FOLD_CHUNK = 5000  # games folded per cache write: short store locks while a big backlog catches up

_COUNTED: dict[str, Literal["wins", "win_rate", "games"]] = {"wins": "wins", "win_rate": "win_rate", "games": "games"}
GAME_CHOICES = [app_commands.Choice(name=t(f"lb.game.{g}"), value=g) for g in GAMES]
BY_CHOICES = [app_commands.Choice(name=t(f"lb.by.{b}"), value=b) for b in RANKINGS]
PERIOD_CHOICES = [app_commands.Choice(name=t("lb.period.all"), value="all"),
                  app_commands.Choice(name=t("lb.period.30d"), value="30d")]


class Refusal(Exception):
    """Raised inside a command to answer privately with the catalogue text ``key``."""

    def __init__(self, key: str, **values: Any) -> None:
        super().__init__(key)
        self.key, self.values = key, values


class RatingBook:
    """Keeps the cached ratings equal to the fold of every finished game (the fold is the truth)."""

    def __init__(self, boards: Leaderboards) -> None:
        self.boards = boards
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}

    async def refresh(self, guild_id: int, game: str) -> None:
        """Fold the games finished since the cache's mark (all of them when there is no mark)."""
        async with self._locks.setdefault((guild_id, game), asyncio.Lock()):
            while True:
                mark = await self.boards.rating_mark(guild_id, game)
                games = await self.boards.rated_games(guild_id, game, mark, FOLD_CHUNK)
                if not games:
                    return
                book = {} if mark is None else {r.key: Rating(r.mu, r.sigma, r.games)
                                                for r in await self.boards.load_ratings(guild_id, game)}
                outcomes = [GameOutcome(g.game_id, g.seats) for g in games]
                run = await asyncio.to_thread(fold, book, outcomes)  # seconds for a cold 100k-game server
                at = {g.game_id: g.finished_at for g in games}
                changed = {key for _, key, _ in run.history}
                saved = await self.boards.save_ratings(
                    guild_id, game, expected=mark, mark=(games[-1].finished_at, games[-1].game_id),
                    ratings=[StoredRating(k, run.book[k].mu, run.book[k].sigma, run.book[k].games) for k in changed],
                    history=[(at[gid], gid, key, r.mu, r.sigma) for gid, key, r in run.history])
                if saved and len(games) < FOLD_CHUNK:
                    return


def _now(bot: TableBot) -> datetime:
    return datetime.fromtimestamp(bot.sessions.clock.now(), UTC)


def _compact(text: str) -> str:
    """Return text as a season is matched: case, spaces and dashes ignored ("2026 q3" finds 2026-Q3)."""
    return "".join(text.casefold().replace("-", " ").split())


def _name(key: PlayerKey, name: str) -> str:
    return t("lb.ai_name", level=t(f"level.{key[1]}").capitalize()) if key[0] == 0 else player_name(name)


async def _refuse(interaction: discord.Interaction, refusal: Refusal) -> None:
    text = t(refusal.key, interaction.locale.value, **refusal.values)
    embed = discord.Embed(description=text, colour=discord.Colour.red())
    if interaction.response.is_done():
        await interaction.followup.send(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, ephemeral=True)


# --------------------------------------------------------------------------- leaderboard pages


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"lb:(?P<game>[a-z_]+):(?P<by>[a-z_]+):(?P<period>all|30d|\d{4}-Q[1-4]):(?P<page>\d{1,6}):(?P<tag>[fpnl])"):
    """A leaderboard page turner: the query and the page to show live in the custom_id (the tag
    keeps the four buttons' ids distinct when they point at the same page)."""

    def __init__(self, game: str, by: str, period: str, page: int, tag: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=_ARROWS.get(tag, tag), style=discord.ButtonStyle.secondary,
                                           disabled=disabled, custom_id=f"lb:{game}:{by}:{period}:{page}:{tag}"))
        self.game, self.by, self.period, self.page = game, by, period, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> PageButton:
        """Rebuild the button from its custom_id."""
        return cls(match["game"], match["by"], match["period"], int(match["page"]), match["tag"])

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        """Redraw the message at this page (clamped to the ranking's current length)."""
        bot = interaction.client
        assert isinstance(bot, TableBot)
        cog = bot.get_cog("Leaderboard")
        assert isinstance(cog, Leaderboard)
        try:
            if interaction.guild_id is None or self.by not in RANKINGS or self.game not in (*GAMES, "all"):
                raise Refusal("lb.error.bad_page")
            game = None if self.game == "all" else self.game
            if self.by == "rating" and game is None:
                raise Refusal("lb.error.rating_needs_game")
        except Refusal as refusal:
            await _refuse(interaction, refusal)
            return
        await interaction.response.defer()
        await bot.hub.readers.load_guild(interaction.guild_id)
        reader_is(bot.hub.readers.public(interaction.guild_id))  # the page is a public message
        embed, view = await cog.board(interaction.guild_id, game, self.by, self.period, self.page)
        await interaction.edit_original_response(embed=embed, view=view)


_ARROWS = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}


def _pager(game: str | None, by: str, period: str, page: StandingsPage) -> discord.ui.View | None:
    if page.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    code, at, last = game or "all", page.page, page.pages - 1
    for tag, target in (("f", 0), ("p", max(at - 1, 0)), ("n", min(at + 1, last)), ("l", last)):
        view.add_item(PageButton(code, by, period, target, tag, disabled=target == at))
    return view


# --------------------------------------------------------------------------- the cog


class Leaderboard(commands.Cog):
    """Standings, personal stats, recent games and full game logs for this server."""

    game_group = app_commands.Group(name="game", description="Finished games", guild_only=True)

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.boards = Leaderboards(bot.store)
        self.ratings = RatingBook(self.boards)
        self.seasons = SeasonBook(self.boards, GAMES)
        self.rollover = Rollover(bot, self.seasons)
        self._warm: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        """Register the page buttons (they outlive restarts) and bring stale rating caches up to date
        in the background (after an upgrade a big server's first fold takes seconds)."""
        self.bot.add_dynamic_items(PageButton)
        self._warm = asyncio.create_task(self._warm_ratings())
        self.rollover.start()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Answer in the server's language: every answer here is public but a refusal (which
        names its own language, the user's)."""
        try:
            await self.bot.hub.readers.load_guild(interaction.guild_id)
        except Unavailable as exc:
            # discord.py lets a check's own exception escape its error handling (no answer, an
            # unretrieved task exception); as a CheckFailure it reaches the tree's on_error.
            raise app_commands.CheckFailure("the database is unreachable") from exc
        reader_is(self.bot.hub.readers.public(interaction.guild_id))
        return True

    async def cog_unload(self) -> None:
        """Unregister the page buttons and stop the warm-up."""
        self.bot.remove_dynamic_items(PageButton)
        self.rollover.stop()
        if self._warm is not None:
            self._warm.cancel()

    async def _warm_ratings(self) -> None:
        try:
            for guild_id, game in await self.boards.stale_ratings():
                await self.ratings.refresh(guild_id, game)
        except Exception:
            log.exception("rating warm-up failed; ratings are folded on first use instead")

    async def board(self, guild_id: int, game: str | None, by: str, period: str, page: int
                    ) -> tuple[discord.Embed, discord.ui.View | None]:
        """Return the embed and page buttons of one leaderboard page (callers refuse rating without a game)."""
        now_ms = int(_now(self.bot).timestamp() * 1000)
        today, until_day, season = now_ms // DAY_MS, None, period not in ("all", "30d")
        since_day = today - (PERIOD_DAYS - 1) if period == "30d" else None  # today and the 29 days before
        if season:
            since_day, until_day = (ms // DAY_MS for ms in bounds(period))  # quarters start at midnight UTC
        if by == "rating" and game is not None and season:
            standings = await self._season_page(guild_id, game, period, now_ms, page)
        elif by == "rating" and game is not None:
            await self.ratings.refresh(guild_id, game)
            standings = await self.boards.rating_standings(guild_id, game, since_day=since_day, page=page,
                                                           per_page=PER_PAGE)
        else:
            minimum = MIN_WIN_RATE_GAMES if by == "win_rate" else 1
            standings = await self.boards.standings(guild_id, game, _COUNTED[by], since_day=since_day,
                                                    until_day=until_day, min_games=minimum, page=page,
                                                    per_page=PER_PAGE)
        title = t("lb.title", game=t(f"lb.game.{game}") if game else t("lb.all_games"), by=t(f"lb.by.{by}"),
                  period=t("lb.period.season", season=period) if season else t(f"lb.period.{period}"))
        embed = discord.Embed(title=title, colour=discord.Colour.gold())
        lines = []
        for row in standings.rows:
            name = _name(row.key, row.name)
            if by == "rating":
                value = t("lb.line.rating", rating=row.ordinal or 0.0, played=tn("lb.played", row.games))
            elif by == "win_rate":
                value = t("lb.line.win_rate", wins=row.wins, games=row.games, rate=row.win_rate)
            else:
                value = t(f"lb.line.{by}", won=tn("lb.won", row.wins), played=tn("lb.played", row.games))
            lines.append(f"**{row.rank}.** {name} — {value}")  # escaped once, by player_name
        embed.description = "\n".join(lines) or t("lb.empty")
        footer = t("lb.footer", page=standings.page + 1, pages=standings.pages)
        if by == "win_rate":
            footer += " · " + tn("lb.min_games", MIN_WIN_RATE_GAMES)
        if by == "rating":
            note = ("lb.rating_season_note" if season else "lb.rating_note" if period == "all"
                    else "lb.rating_period_note")
            footer += " · " + t(note)
        embed.set_footer(text=footer)
        return embed, _pager(game, by, period, standings)

    async def _season_page(self, guild_id: int, game: str, season: str, now_ms: int, page: int) -> StandingsPage:
        """Return a page of a season's rating table (live for the current season, else as frozen)."""
        rows = await self.seasons.table(guild_id, game, season, now_ms)
        last = max(0, -(-len(rows) // PER_PAGE) - 1)
        at = min(page, last)  # a stale page button after the table shrank: its last page
        return StandingsPage(tuple(Standing(row.rank, row.key, name, row.games, row.wins, row.ordinal)
                                   for row, name in rows[at * PER_PAGE:(at + 1) * PER_PAGE]), len(rows), at, PER_PAGE)

    @app_commands.command(name="leaderboard", description="This server's standings")
    @app_commands.describe(game="Which game (all games when left out)", by="How to rank",
                           period="All time or the last 30 days",
                           season="A quarterly season: current, or a past one such as 2026-Q3")
    @app_commands.choices(game=GAME_CHOICES, by=BY_CHOICES, period=PERIOD_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None, by: str | None = None,
                          period: str = "all", season: app_commands.Range[str, 1, 20] | None = None) -> None:
        """Rank the server's players by rating (per game), wins, win rate or games played."""
        assert interaction.guild_id is not None
        ranking = by or ("rating" if game else "wins")
        try:
            if ranking == "rating" and game is None:
                raise Refusal("lb.error.rating_needs_game")
            if season is not None:
                period = self._season_named(season)
            await interaction.response.defer(thinking=True)
            embed, view = await self.board(interaction.guild_id, game, ranking, period, 0)
        except Refusal as refusal:
            await _refuse(interaction, refusal)
            return
        if view is None:
            await interaction.followup.send(embed=embed)
        else:
            await interaction.followup.send(embed=embed, view=view)

    @leaderboard.autocomplete("season")
    async def season_choices(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """Offer the seasons to pick: the current one first, then the server's past seasons with
        games, newest first, those matching what was typed, at most 25 (Discord's limit), labelled
        in the typer's language. Picking one sends its name, as typing it would."""
        language = interaction.locale.value
        wanted = _compact(typed[:20])  # untrusted text: no longer than the option takes
        now_ms = int(_now(self.bot).timestamp() * 1000)
        current = season_of(now_ms)
        label = t("lb.season.current_choice", language, season=current)
        # "current" is understood in every language (as the command takes it), so it finds it too
        words = [label, *(t("lb.season.current", other) for other in NATIVE_NAMES)]
        choices = [app_commands.Choice(name=label, value=current)] if any(wanted in _compact(w) for w in words) else []
        if interaction.guild_id is None:
            return choices
        try:
            async with contextlib.aclosing(self.seasons.played(interaction.guild_id, now_ms)) as seasons:
                async for season in seasons:
                    if len(choices) == AUTOCOMPLETE_CHOICES:
                        break
                    if wanted in _compact(season):
                        choices.append(app_commands.Choice(name=season, value=season))
        except StoreError:  # out of reach: the current season, which needs no store, is still offered
            log.info("season choices without the past seasons: the store is out of reach")
        return choices

    def _season_named(self, text: str) -> str:
        """Return the season a user named (``current`` or ``2026-Q3``), refusing a malformed or future one."""
        current = season_of(int(_now(self.bot).timestamp() * 1000))
        if text.strip().casefold() in {t("lb.season.current", language).casefold() for language in NATIVE_NAMES}:
            return current
        named = parse(text)
        if named is None:
            raise Refusal("lb.error.bad_season", season=text[:20])
        if named > current:  # "2026-Q4" names sort in time order
            raise Refusal("lb.error.future_season", season=named)
        return named

    @app_commands.command(name="stats", description="A player's record on this server")
    @app_commands.describe(user="Whose stats (yours when left out)", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None,
                    game: str | None = None) -> None:
        """Games, wins, win rate, scores, rating with its trend, favourite setup, record against the bots."""
        assert interaction.guild_id is not None
        guild, who = interaction.guild_id, user or interaction.user
        await interaction.response.defer(thinking=True)
        totals = await self.boards.totals(guild, user_key(who.id), game)
        name = player_name(who.display_name, who.name)
        embed = discord.Embed(title=t("lb.stats.title", name=name), colour=discord.Colour.blurple())
        if not totals:
            embed.description = t("lb.stats.never", name=name)
            await interaction.followup.send(embed=embed)
            return
        for row in totals[:10]:
            await self.ratings.refresh(guild, row.game)
            lines = [t("lb.stats.games", games=row.games, wins=row.wins, rate=row.wins / row.games),
                     t("lb.stats.scores", average=row.average_score, best=row.best_score)]
            rating = await self.boards.rating(guild, row.game, user_key(who.id))
            if rating is not None:
                trend = [ordinal(mu, sigma) for mu, sigma in
                         await self.boards.rating_trend(guild, row.game, user_key(who.id), TREND_GAMES)]
                lines.append(t("lb.stats.rating", rating=ordinal(rating.mu, rating.sigma), mu=rating.mu,
                               sigma=rating.sigma))
                if len(trend) >= 2:
                    lines.append(tn("lb.stats.trend", len(trend) - 1, spark=sparkline(trend),
                                    change=trend[-1] - trend[0]))
            embed.add_field(name=t(f"lb.game.{row.game}"), value="\n".join(lines), inline=False)
        favourite = await self.boards.favourite_preset(guild, who.id, game)
        if favourite is not None:
            embed.add_field(name=t("lb.stats.favourite"), value=t("lb.stats.favourite_line",
                            game=t(f"lb.game.{favourite[0]}"), preset=favourite[1] or "-", games=favourite[2]))
        seasons = await self.boards.season_history(guild, user_key(who.id), game)
        if seasons:
            lines = [t("lb.stats.season_line", season=name, game=t(f"lb.game.{row.game}"), rank=row.rank,
                       medal=" 🏆" if row.rank == 1 else "", rating=row.ordinal, played=tn("lb.played", row.games))
                     for name, row in seasons[:SEASON_LINES]]
            titles = [f"{t(f'lb.game.{row.game}')} {name}" for name, row in seasons if row.rank == 1]
            if titles:
                lines.insert(0, tn("lb.stats.titles", len(titles), titles=", ".join(titles)))
            embed.add_field(name=t("lb.stats.seasons"), value="\n".join(lines)[:1024], inline=False)
        record = await self.boards.ai_record(guild, who.id, game)
        embed.add_field(name=t("lb.stats.vs_ai"), inline=False, value="\n".join(
            t("lb.stats.vs_ai_line", level=t(f"level.{r.level}").capitalize(), games=r.games, ahead=r.ahead,
              behind=r.behind, level_with=r.level_with) for r in record) or t("lb.stats.vs_ai_none"))
        await interaction.followup.send(embed=embed)

    @app_commands.command(name="history", description="Recent games on this server, with links")
    @app_commands.describe(user="Whose games (yours when left out)")
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """List a player's latest games: result, when, and a link to the game's message."""
        assert interaction.guild_id is not None
        guild, who = interaction.guild_id, user or interaction.user
        await interaction.response.defer(thinking=True)
        entries = await self.boards.history(guild, who.id, limit=HISTORY_GAMES)
        lines = []
        for e in entries:
            what = t(f"lb.game.{e.game}") + (f" ({e.preset})" if e.preset else "")
            if e.status == "finished" and e.placement is not None:
                outcome = t("lb.hist.result", place=e.placement, players=e.players,
                            points=tn("lb.points", e.score or 0), win=" 🏆" if e.is_winner else "",
                            minutes=round((e.duration_ms or 0) / 60_000))
            else:
                outcome = t(f"lb.hist.{e.status}")
            when = f"<t:{int(e.finished_at.timestamp())}:R>" if e.finished_at else ""
            link = (f" · [{t('lb.hist.jump')}](https://discord.com/channels/{guild}/{e.channel_id}/{e.message_id})"
                    if e.message_id else "")
            lines.append(f"`#{e.game_id}` {what} — {outcome} · {when}{link}")
        name = player_name(who.display_name, who.name)
        embed = discord.Embed(title=t("lb.hist.title", name=name), colour=discord.Colour.blurple(),
                              description="\n".join(lines) or t("lb.hist.none", name=name))
        if lines:
            embed.set_footer(text=t("lb.hist.footer"))
        await interaction.followup.send(embed=embed)

    @game_group.command(name="log", description="The full action log of a finished game, as a text file")
    @app_commands.describe(id="The game's number (see /history)")
    async def log(self, interaction: discord.Interaction, id: app_commands.Range[int, 1]) -> None:
        """Send a finished game's whole log, hidden choices included (only once the game is over)."""
        try:
            try:
                log = await self.bot.store.load_game(id)
            except GameNotFound:
                raise Refusal("lb.error.no_game", id=id) from None
            except Unavailable:
                raise  # an outage, not an unreadable log: the tree answers "reconnecting"
            except StoreError:
                raise Refusal("lb.error.unreadable", id=id) from None
            if log.game.guild_id != interaction.guild_id:
                raise Refusal("lb.error.no_game", id=id)  # another server's game: as if it did not exist
            if log.game.status in ("lobby", "playing"):
                raise Refusal("lb.error.not_over", id=id)
            if log.game.seed is None:
                raise Refusal("lb.error.never_started", id=id)
        except Refusal as refusal:
            await _refuse(interaction, refusal)
            return
        await interaction.response.defer(thinking=True)
        results = await self.bot.store.results(id)
        text = render_log(log, results)
        embed = discord.Embed(title=t("lb.log.embed_title", id=id, game=t(f"lb.game.{log.game.game}")),
                              description=t("lb.log.embed_text", actions=len(log.actions), status=log.game.status),
                              colour=discord.Colour.dark_teal())
        file = discord.File(io.BytesIO(text.encode("utf-8")), filename=f"game-{id}.txt")
        await interaction.followup.send(embed=embed, file=file)

    @game_group.command(name="replay", description="Watch a finished game step by step")
    @app_commands.describe(id="The game's number (see /history)",
                           public="Show it to the channel (else only you see it)")
    async def replay(self, interaction: discord.Interaction, id: app_commands.Range[int, 1],
                     public: bool = False) -> None:
        """Open a finished game's replay (cogs.replay), privately unless asked for the channel."""
        await open_replay(interaction, id, public)


async def setup(bot: commands.Bot) -> None:
    """Load the cog (discord.py extension entry point)."""
    assert isinstance(bot, TableBot)
    await bot.add_cog(Leaderboard(bot))
