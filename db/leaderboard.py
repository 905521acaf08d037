"""Leaderboard, stats and history reads, and the rating cache: the SQL of issue 7.

:class:`Leaderboards` wraps a :class:`db.store.Store` and shares its connection and lock, so its
reads never see a half-written transaction. The totals it ranks (``player_totals``,
``player_days``) are kept by a trigger in the transaction that finishes a game (migration 0002),
so they always agree with ``results``. The rating tables are a cache of ``engine/ratings.py``'s
fold: this module stores and reads them, never computes them.

A player is a :data:`PlayerKey`: ``(user_id, "")`` for a person, ``(0, level)`` for an AI level.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from db.codecs import from_ms, to_ms
from db.store import Store

__all__ = [
    "DAY_MS",
    "AiRecord",
    "HistoryEntry",
    "Leaderboards",
    "PlayerKey",
    "PlayerTotals",
    "Ranking",
    "RatedGame",
    "SeasonRow",
    "Standing",
    "StandingsPage",
    "StoredRating",
    "ai_key",
    "day_of",
    "user_key",
]

PlayerKey = tuple[int, str]
"""(Discord user id, "") for a person; (0, AI level) for an AI level."""

Ranking = Literal["rating", "wins", "win_rate", "games"]
DAY_MS = 86_400_000


def user_key(user_id: int) -> PlayerKey:
    """Return the key of a person."""
    return (user_id, "")


def ai_key(level: str) -> PlayerKey:
    """Return the key of an AI level."""
    return (0, level)


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a leaderboard: rank (ties share it), the player and their numbers."""

    rank: int
    key: PlayerKey
    name: str
    games: int
    wins: int
    ordinal: float | None = None  # rating rankings only

    @property
    def win_rate(self) -> float:
        """Return wins / games."""
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class StandingsPage:
    """One page of a ranking and how many lines the whole ranking has."""

    rows: tuple[Standing, ...]
    total: int
    page: int
    per_page: int

    @property
    def pages(self) -> int:
        """Return the number of pages (at least 1)."""
        return max(1, -(-self.total // self.per_page))


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """A player's all-time numbers in one game type on one server."""

    game: str
    name: str
    games: int
    wins: int
    score_sum: int
    best_score: int

    @property
    def average_score(self) -> float:
        """Return the mean final score."""
        return self.score_sum / self.games


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as the rating fold needs it: order key and (player, placement) per seat."""

    game_id: int
    finished_at: int  # ms
    seats: tuple[tuple[PlayerKey, int], ...]


@dataclass(frozen=True, slots=True)
class StoredRating:
    """A cached rating."""

    key: PlayerKey
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One player's line of a season's table in one game (frozen at the season's end)."""

    game: str
    key: PlayerKey
    rank: int
    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """Return the conservative estimate ``mu - 3 sigma`` the table ranks by."""
        return self.mu - 3.0 * self.sigma


@dataclass(frozen=True, slots=True)
class AiRecord:
    """A person's record against one AI level: games shared, and how often they placed above/below it."""

    level: str
    games: int
    ahead: int
    behind: int
    level_with: int


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One started game of a user, with how it ended and where its channel message is."""

    game_id: int
    game: str
    preset: str | None
    status: str
    finished_at: datetime | None
    duration_ms: int | None
    players: int
    score: int | None
    placement: int | None
    is_winner: bool
    channel_id: int
    message_id: int | None


def _key(row: Sequence[Any], at: int = 0) -> PlayerKey:
    return (int(row[at]), str(row[at + 1]))


_ORDER = {
    "wins": "wins DESC",
    "win_rate": "CAST(wins AS REAL) / games DESC",
    "games": "games DESC",
}


class Leaderboards:
    """Issue 7's reads and the rating cache, on the store's connection (every SQL statement here)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------------ rankings

    async def standings(
        self, guild_id: int, game: str | None, by: Literal["wins", "win_rate", "games"], *,
        since_day: int | None = None, until_day: int | None = None, min_games: int = 1, page: int = 0,
        per_page: int = 10,
    ) -> StandingsPage:
        """Return a page of the people of a server ranked by wins, win rate or games played.

        ``game`` None sums every game type; ``since_day`` (UTC day number) limits it to games
        finished on or after that day, ``until_day`` to those before it (a season); players with
        fewer than ``min_games`` games are left out.
        Ties share a rank; within a rank, more games first, then the user id (stable paging).
        """
        source, params = self._source(guild_id, game, since_day, until_day)
        sql = (
            f"WITH agg AS (SELECT user_id, ai_level, sum(games) AS games, sum(wins) AS wins FROM {source}"
            " AND ai_level = '' GROUP BY user_id, ai_level HAVING sum(games) >= ?),"
            f" ranked AS (SELECT *, RANK() OVER (ORDER BY {_ORDER[by]}) AS rank, count(*) OVER () AS total"
            " FROM agg)"
            # The page first, then each of its people's newest name: PostgreSQL evaluates a select
            # list for the rows OFFSET skips too, so a name looked up beside the ranking cost one
            # subquery per skipped row (page 20: 200 of them, 100 ms at 100k games).
            " , paged AS (SELECT * FROM ranked ORDER BY rank, games DESC, user_id LIMIT ? OFFSET ?)"
            " SELECT rank, user_id, ai_level, games, wins, total, "
            " (SELECT t.name FROM player_totals AS t WHERE t.guild_id = ? AND t.user_id = paged.user_id"
            "   AND t.ai_level = paged.ai_level ORDER BY t.last_at DESC LIMIT 1)"
            " FROM paged ORDER BY rank, games DESC, user_id"
        )
        rows = await self._rows(sql, [*params, min_games, per_page, page * per_page, guild_id])
        if not rows and page > 0:  # a stale page button after the ranking shrank: show the last page
            last = (await self.standings(guild_id, game, by, since_day=since_day, until_day=until_day,
                                         min_games=min_games, per_page=per_page)).pages - 1
            return await self.standings(guild_id, game, by, since_day=since_day, until_day=until_day,
                                        min_games=min_games, page=min(page - 1, last), per_page=per_page)
        return self._page(rows, page, per_page, lambda r: Standing(int(r[0]), _key(r, 1), str(r[6]),
                                                                   int(r[3]), int(r[4])))

    async def rating_standings(
        self, guild_id: int, game: str, *, since_day: int | None = None, page: int = 0, per_page: int = 10,
    ) -> StandingsPage:
        """Return a page of a server's cached ratings in one game, best conservative estimate first.

        AI levels are listed too (as yardsticks). ``since_day`` keeps players who finished a game
        on or after that UTC day (their rating is still their whole-history rating).
        """
        active, params = "", list[Any]()
        if since_day is not None:
            # The period's players, from one range of day buckets, then joined (not one EXISTS per player).
            active = (" JOIN (SELECT DISTINCT user_id, ai_level FROM player_days WHERE guild_id = ? AND day >= ?"
                      " AND game = ?) AS d ON d.user_id = r.user_id AND d.ai_level = r.ai_level")
            params += [guild_id, since_day, game]
        params += [guild_id, game]
        sql = (
            "WITH ranked AS (SELECT r.user_id, r.ai_level, r.ordinal,"
            " RANK() OVER (ORDER BY r.ordinal DESC) AS rank, count(*) OVER () AS total"
            f" FROM ratings AS r{active} WHERE r.guild_id = ? AND r.game = ?)"
            " SELECT k.rank, k.user_id, k.ai_level, t.games, t.wins, k.total, t.name, k.ordinal"
            " FROM ranked AS k JOIN player_totals AS t ON t.guild_id = ? AND t.game = ?"
            "  AND t.user_id = k.user_id AND t.ai_level = k.ai_level"
            " ORDER BY k.rank, t.games DESC, k.user_id, k.ai_level LIMIT ? OFFSET ?"
        )
        rows = await self._rows(sql, [*params, guild_id, game, per_page, page * per_page])
        if not rows and page > 0:
            last = (await self.rating_standings(guild_id, game, since_day=since_day, per_page=per_page)).pages - 1
            return await self.rating_standings(guild_id, game, since_day=since_day, page=min(page - 1, last),
                                               per_page=per_page)
        return self._page(rows, page, per_page, lambda r: Standing(int(r[0]), _key(r, 1), str(r[6]), int(r[3]),
                                                                   int(r[4]), float(r[7])))

    @staticmethod
    def _source(guild_id: int, game: str | None, since_day: int | None, until_day: int | None = None
                ) -> tuple[str, list[Any]]:
        """Return the FROM ... WHERE prefix for totals (all time) or day buckets (a period)."""
        table, params = "player_totals WHERE guild_id = ?", list[Any]([guild_id])
        if since_day is not None:
            table = "player_days WHERE guild_id = ? AND day >= ?"
            params.append(since_day)
            if until_day is not None:
                table += " AND day < ?"
                params.append(until_day)
        if game is not None:
            table += " AND game = ?"
            params.append(game)
        return table, params

    @staticmethod
    def _page(rows: list[Any], page: int, per_page: int, make: Any) -> StandingsPage:
        total = int(rows[0][5]) if rows else 0
        return StandingsPage(tuple(make(r) for r in rows), total, page, per_page)

    # ------------------------------------------------------------------ one player

    async def totals(self, guild_id: int, key: PlayerKey, game: str | None = None) -> list[PlayerTotals]:
        """Return a player's all-time numbers per game type on a server, most played first."""
        extra, params = ("", [guild_id, *key]) if game is None else (" AND game = ?", [guild_id, *key, game])
        rows = await self._rows(
            "SELECT game, name, games, wins, score_sum, best_score FROM player_totals"
            f" WHERE guild_id = ? AND user_id = ? AND ai_level = ?{extra} ORDER BY games DESC, game", params)
        return [PlayerTotals(str(r[0]), str(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in rows]

    async def favourite_preset(self, guild_id: int, user_id: int, game: str | None = None
                               ) -> tuple[str, str | None, int] | None:
        """Return (game, preset, games) of the setup a person played most often here (latest wins ties)."""
        extra, params = ("", [guild_id, user_id]) if game is None else (" AND game = ?", [guild_id, user_id, game])
        rows = await self._rows(
            f"SELECT game, preset, games FROM preset_totals WHERE guild_id = ? AND user_id = ?{extra}"
            " ORDER BY games DESC, last_at DESC LIMIT 1", params)
        return (str(rows[0][0]), str(rows[0][1]) or None, int(rows[0][2])) if rows else None

    async def ai_record(self, guild_id: int, user_id: int, game: str | None = None) -> list[AiRecord]:
        """Return a person's record against each AI level they shared a finished game with."""
        extra, params = ("", [guild_id, user_id]) if game is None else (" AND game = ?", [guild_id, user_id, game])
        rows = await self._rows(
            "SELECT ai_level, sum(games), sum(ahead), sum(behind), sum(level_with) FROM ai_records"
            f" WHERE guild_id = ? AND user_id = ?{extra} GROUP BY ai_level ORDER BY ai_level", params)
        return [AiRecord(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4])) for r in rows]

    async def history(self, guild_id: int, user_id: int, *, limit: int = 10, offset: int = 0) -> list[HistoryEntry]:
        """Return a person's started games on a server, latest game number first, with a channel message.

        Finished games carry the person's score and placement; cancelled and abandoned ones are
        listed as such, without a result. The message is the summary if there is one, else the
        lobby, else the latest channel message the bot recorded for the game.
        """
        rows = await self._rows(
            "SELECT g.id, g.game, g.preset, g.status, g.finished_at, g.finished_at - g.started_at,"
            " (SELECT count(*) FROM seats AS n WHERE n.game_id = g.id), r.score, r.placement, r.is_winner,"
            " g.channel_id,"
            " (SELECT m.message_id FROM messages AS m WHERE m.game_id = g.id AND m.seat IS NULL"
            "   ORDER BY m.kind = 'summary' DESC, m.kind = 'lobby' DESC, m.updated_at DESC LIMIT 1)"
            " FROM seats AS s JOIN games AS g ON g.id = s.game_id"
            " LEFT JOIN results AS r ON r.game_id = s.game_id AND r.seat = s.seat"
            " WHERE s.user_id = ? AND g.guild_id = ? AND g.started_at IS NOT NULL"
            " AND g.status IN ('finished', 'cancelled', 'abandoned')"
            # Newest game number first: walks seats_by_user backwards and stops after ``limit``.
            " ORDER BY s.game_id DESC LIMIT ? OFFSET ?",
            [user_id, guild_id, limit, offset])
        return [HistoryEntry(int(r[0]), str(r[1]), r[2], str(r[3]), None if r[4] is None else from_ms(int(r[4])),
                             None if r[5] is None else int(r[5]), int(r[6]), r[7], r[8], bool(r[9]), int(r[10]),
                             r[11]) for r in rows]

    # ------------------------------------------------------------------ the rating cache

    async def rating(self, guild_id: int, game: str, key: PlayerKey) -> StoredRating | None:
        """Return a player's cached rating in one game, if rated."""
        rows = await self._rows("SELECT user_id, ai_level, mu, sigma, games FROM ratings"
                                " WHERE guild_id = ? AND game = ? AND user_id = ? AND ai_level = ?",
                                [guild_id, game, *key])
        return StoredRating(_key(rows[0]), float(rows[0][2]), float(rows[0][3]), int(rows[0][4])) if rows else None

    async def rating_trend(self, guild_id: int, game: str, key: PlayerKey, last: int = 10) -> list[tuple[float, float]]:
        """Return a player's (mu, sigma) after each of their last ``last`` rated games, oldest first."""
        rows = await self._rows(
            "SELECT mu, sigma FROM rating_history WHERE guild_id = ? AND game = ? AND user_id = ? AND ai_level = ?"
            " ORDER BY finished_at DESC, game_id DESC LIMIT ?", [guild_id, game, *key, last])
        return [(float(r[0]), float(r[1])) for r in reversed(rows)]

    async def rating_mark(self, guild_id: int, game: str) -> tuple[int, int] | None:
        """Return (finished_at ms, game id) of the last game folded into the cache, or None (recompute)."""
        rows = await self._rows("SELECT finished_at, game_id FROM rating_marks WHERE guild_id = ? AND game = ?",
                                [guild_id, game])
        return (int(rows[0][0]), int(rows[0][1])) if rows else None

    async def rated_games(self, guild_id: int, game: str, after: tuple[int, int] | None, limit: int, *,
                          within: tuple[int, int] | None = None) -> list[RatedGame]:
        """Return up to ``limit`` finished games after ``after`` in (finished_at, id) order, with placements
        (only those finished in [start, end) ms of ``within``, if given: a season)."""
        mark = "" if after is None else " AND (g.finished_at, g.id) > (?, ?)"
        if within is not None:
            mark += " AND g.finished_at >= ? AND g.finished_at < ?"
        params: list[Any] = [guild_id, game, *(after or ()), *(within or ()), limit]
        rows = await self._rows(
            f"WITH picked AS (SELECT g.id, g.finished_at FROM games AS g{self._indexed_by('games_finished_by_guild')}"
            f" WHERE g.status = 'finished' AND g.guild_id = ? AND g.game = ?{mark}"
            " ORDER BY g.finished_at, g.id LIMIT ?)"
            " SELECT p.id, p.finished_at, coalesce(r.user_id, 0), coalesce(r.ai_level, ''), r.placement"
            " FROM picked AS p JOIN results AS r ON r.game_id = p.id ORDER BY p.finished_at, p.id, r.seat", params)
        games: list[RatedGame] = []
        seats: list[tuple[PlayerKey, int]] = []
        for i, r in enumerate(rows):
            seats.append((_key(r, 2), int(r[4])))
            if i + 1 == len(rows) or rows[i + 1][0] != r[0]:
                games.append(RatedGame(int(r[0]), int(r[1]), tuple(seats)))
                seats = []
        return games

    async def stale_ratings(self) -> list[tuple[int, str]]:
        """Return the (server, game type) pairs whose rating cache misses finished games (for a warm-up)."""
        rows = await self._rows(
            "SELECT t.guild_id, t.game FROM (SELECT guild_id, game, max(last_at) AS last FROM player_totals"
            " GROUP BY guild_id, game) AS t LEFT JOIN rating_marks AS m ON m.guild_id = t.guild_id AND m.game = t.game"
            " WHERE m.finished_at IS NULL OR m.finished_at < t.last ORDER BY t.guild_id, t.game", [])
        return [(int(r[0]), str(r[1])) for r in rows]

    async def load_ratings(self, guild_id: int, game: str) -> list[StoredRating]:
        """Return every cached rating of a server in one game."""
        rows = await self._rows(
            "SELECT user_id, ai_level, mu, sigma, games FROM ratings WHERE guild_id = ? AND game = ?", [guild_id, game])
        return [StoredRating(_key(r), float(r[2]), float(r[3]), int(r[4])) for r in rows]

    async def save_ratings(
        self, guild_id: int, game: str, *, expected: tuple[int, int] | None, mark: tuple[int, int],
        ratings: Sequence[StoredRating], history: Sequence[tuple[int, int, PlayerKey, float, float]],
    ) -> bool:
        """Store a fold's new ratings and history and move the mark from ``expected`` to ``mark``.

        ``expected`` None means the fold started from scratch: the old cache is dropped first.
        ``history`` rows are (finished_at ms, game id, player, mu, sigma). Returns False and writes
        nothing when the mark moved meanwhile (another fold, or a back-dated finish invalidated it).
        """
        async with self.store._write() as db:
            found = await self.store._fetch(
                db, "SELECT finished_at, game_id FROM rating_marks WHERE guild_id = ? AND game = ?", (guild_id, game))
            current = (int(found[0][0]), int(found[0][1])) if found else None
            if current != expected:
                return False
            if expected is None:
                for table in ("ratings", "rating_history"):
                    await db.execute(f"DELETE FROM {table} WHERE guild_id = ? AND game = ?", (guild_id, game))
            await db.executemany(
                "INSERT INTO ratings (guild_id, game, user_id, ai_level, mu, sigma, ordinal, games)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id, ai_level) DO UPDATE SET"
                " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games",
                [(guild_id, game, *r.key, r.mu, r.sigma, r.mu - 3.0 * r.sigma, r.games) for r in ratings])
            await db.executemany(
                "INSERT INTO rating_history (guild_id, game, user_id, ai_level, finished_at, game_id, mu,"
                " sigma) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, user_id, ai_level, finished_at,"
                " game_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma",
                [(guild_id, game, *key, at, game_id, mu, sigma) for at, game_id, key, mu, sigma in history])
            await db.execute(
                "INSERT INTO rating_marks (guild_id, game, finished_at, game_id) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, game) DO UPDATE SET finished_at = excluded.finished_at,"
                " game_id = excluded.game_id", (guild_id, game, *mark))
        return True

    # ------------------------------------------------------------------ seasons (migration 0014)

    async def season_guilds(self, start_ms: int, end_ms: int) -> list[int]:
        """Return the servers with a game finished in [start_ms, end_ms) (a season's)."""
        rows = await self._rows("SELECT DISTINCT guild_id FROM games WHERE status = 'finished'"
                                " AND finished_at >= ? AND finished_at < ? ORDER BY guild_id", [start_ms, end_ms])
        return [int(r[0]) for r in rows]

    async def newest_finish(self, guild_id: int, games: Sequence[str], before_ms: int) -> int | None:
        """Return when the server's newest game of ``games`` finished before ``before_ms`` (ms), else None.

        One index probe per game type (``games_finished_by_guild``), whatever the server's history:
        walked back season by season it lists the seasons that have games in one statement each,
        where a DISTINCT over the quarters of every finished game would read them all."""
        if not games:
            return None
        probe = (f"SELECT (SELECT finished_at FROM games{self._indexed_by('games_finished_by_guild')}"
                 " WHERE status = 'finished' AND guild_id = ? AND game = ? AND finished_at < ?"
                 " ORDER BY finished_at DESC LIMIT 1) AS f")
        rows = await self._rows(f"SELECT max(f) FROM ({' UNION ALL '.join([probe] * len(games))}) AS newest",
                                [value for game in games for value in (guild_id, game, before_ms)])
        return None if not rows or rows[0][0] is None else int(rows[0][0])

    async def season_closing(self, guild_id: int, season: str) -> tuple[int, int | None] | None:
        """Return (closed_at, posted_at) ms of a frozen season, or None while it is not frozen."""
        rows = await self._rows("SELECT closed_at, posted_at FROM season_closings WHERE guild_id = ? AND season = ?",
                                [guild_id, season])
        return (int(rows[0][0]), None if rows[0][1] is None else int(rows[0][1])) if rows else None

    async def close_season(self, guild_id: int, season: str, at_ms: int, lines: Sequence[SeasonRow]) -> bool:
        """Freeze a season's final table (every game's lines) with its closing row, in one transaction.

        Returns False and writes nothing when the season was frozen already: the first freeze wins,
        so a past season's table never changes.
        """
        async with self.store._write() as db:
            # One statement decides, also between two processes on PostgreSQL: the row's inserter freezes.
            won = await self.store._fetch(
                db, "INSERT INTO season_closings (guild_id, season, closed_at, posted_at) VALUES (?, ?, ?, NULL)"
                " ON CONFLICT (guild_id, season) DO NOTHING RETURNING season", (guild_id, season, at_ms))
            if not won:
                return False
            await db.executemany(
                "INSERT INTO season_ratings (guild_id, season, game, user_id, ai_level, rank, mu, sigma, ordinal,"
                " games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(guild_id, season, r.game, *r.key, r.rank, r.mu, r.sigma, r.mu - 3.0 * r.sigma, r.games, r.wins)
                 for r in lines])
        return True

    async def claim_season_post(self, guild_id: int, season: str, at_ms: int) -> bool:
        """Mark a frozen season's champions as announced; True only for the one caller that marked it
        (the post is sent after the mark: at most once, also when two processes or a restart race)."""
        async with self.store._write() as db:
            # A conditional update, not read-then-write: two processes cannot both see it unposted.
            won = await self.store._fetch(
                db, "UPDATE season_closings SET posted_at = ? WHERE guild_id = ? AND season = ? AND posted_at IS NULL"
                " RETURNING season", (at_ms, guild_id, season))
        return bool(won)

    async def season_lines(self, guild_id: int, season: str, game: str, *, limit: int = 10_000
                           ) -> list[tuple[SeasonRow, str]]:
        """Return a frozen season's table in one game, best first, each with the player's newest name."""
        rows = await self._rows(
            "SELECT s.user_id, s.ai_level, s.rank, s.mu, s.sigma, s.games, s.wins, coalesce(t.name, '')"
            " FROM season_ratings AS s LEFT JOIN player_totals AS t ON t.guild_id = s.guild_id AND t.game = s.game"
            "  AND t.user_id = s.user_id AND t.ai_level = s.ai_level"
            " WHERE s.guild_id = ? AND s.season = ? AND s.game = ?"
            " ORDER BY s.rank, s.games DESC, s.user_id, s.ai_level LIMIT ?", [guild_id, season, game, limit])
        return [(SeasonRow(game, _key(r), int(r[2]), float(r[3]), float(r[4]), int(r[5]), int(r[6])), str(r[7]))
                for r in rows]

    async def season_history(self, guild_id: int, key: PlayerKey, game: str | None = None
                             ) -> list[tuple[str, SeasonRow]]:
        """Return a player's lines in every frozen season of a server, newest season first."""
        extra, params = ("", [guild_id, *key]) if game is None else (" AND game = ?", [guild_id, *key, game])
        rows = await self._rows(
            "SELECT season, game, rank, mu, sigma, games, wins FROM season_ratings"
            f" WHERE guild_id = ? AND user_id = ? AND ai_level = ?{extra} ORDER BY season DESC, rank, game", params)
        return [(str(r[0]), SeasonRow(str(r[1]), key, int(r[2]), float(r[3]), float(r[4]), int(r[5]), int(r[6])))
                for r in rows]

    async def names(self, guild_id: int, game: str, keys: Sequence[PlayerKey]) -> dict[PlayerKey, str]:
        """Return the newest name of each of ``keys`` in one game on a server (those who have one)."""
        found: dict[PlayerKey, str] = {}
        for key in keys:  # a page of ten: ten indexed look-ups
            rows = await self._rows("SELECT name FROM player_totals WHERE guild_id = ? AND game = ? AND user_id = ?"
                                    " AND ai_level = ?", [guild_id, game, *key])
            if rows:
                found[key] = str(rows[0][0])
        return found

    # ------------------------------------------------------------------ plumbing

    def _indexed_by(self, index: str) -> str:
        """SQLite's planner is told which index to use where it guessed wrong; PostgreSQL's is not."""
        return f" INDEXED BY {index}" if self.store.dialect == "sqlite" else ""

    async def _rows(self, sql: str, params: Sequence[Any]) -> list[Any]:
        async with self.store._read() as db:
            return await self.store._fetch(db, sql, params)


def day_of(moment: datetime) -> int:
    """Return the UTC day number (days since the epoch) of an aware datetime."""
    return to_ms(moment) // DAY_MS
