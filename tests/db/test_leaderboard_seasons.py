"""Seasons in the store (issue 44, item 2), on both backends: a season's standings count only its
games, its ratings are the fold of only its games, and once frozen its table never changes."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from test_leaderboard import G, human, play

import cogs.leaderboard.seasons as seasons
from db import NewSeat
from db.leaderboard import DAY_MS, Leaderboards, user_key
from engine.ratings import GameOutcome
from engine.seasons import bounds, season_table

GAMES = ("incan_gold", "sakkara", "indus")
Q2 = datetime(2026, 5, 10, 12, 0, tzinfo=UTC)  # 2026-Q2
Q3 = datetime(2026, 7, 1, 0, 0, tzinfo=UTC)  # the first moment of 2026-Q3
END_Q2 = bounds("2026-Q2")[1]


async def two_seasons(store) -> None:
    """Ann beats Bo twice in Q2 (with a bot at the table); in Q3 Bo beats Ann three times."""
    bot = NewSeat.ai("easy", "Easy bot 1")
    for n in range(2):
        await play(store, [(human(1, "Ann"), 9), (human(2, "Bo"), 3), (bot, 1)], Q2 + timedelta(hours=n))
    await play(store, [(human(1, "Ann"), 5), (human(3, "Cy"), 5)], Q3 - timedelta(milliseconds=1))  # Q2's last ms
    for n in range(3):
        await play(store, [(human(1, "Ann"), 1), (human(2, "Bo"), 8)], Q3 + timedelta(hours=n))


async def test_a_seasons_standings_count_only_games_finished_in_it(store):
    boards = Leaderboards(store)
    await two_seasons(store)
    start, end = (ms // DAY_MS for ms in bounds("2026-Q2"))
    q2 = await boards.standings(G, "incan_gold", "wins", since_day=start, until_day=end)
    assert [(s.name, s.games, s.wins) for s in q2.rows] == [("Ann", 3, 3), ("Cy", 1, 1), ("Bo", 2, 0)]
    start, end = (ms // DAY_MS for ms in bounds("2026-Q3"))
    q3 = await boards.standings(G, None, "wins", since_day=start, until_day=end)
    assert [(s.name, s.games, s.wins) for s in q3.rows] == [("Bo", 3, 3), ("Ann", 3, 0)]
    assert await boards.season_guilds(*bounds("2026-Q2")) == [G]
    assert await boards.season_guilds(*bounds("2026-Q1")) == []


async def test_season_ratings_are_the_fold_of_that_seasons_games_only(store):
    boards = Leaderboards(store)
    await two_seasons(store)
    book = seasons.SeasonBook(boards, GAMES)
    q2 = await book.fold(G, "incan_gold", "2026-Q2")
    games = await boards.rated_games(G, "incan_gold", None, 100, within=bounds("2026-Q2"))
    assert len(games) == 3
    truth = season_table([GameOutcome(g.game_id, g.seats) for g in games], lambda key: key[0] != 0)
    assert [(r.key, r.rank, r.mu, r.sigma, r.wins) for r in q2] == [
        (line.key, line.rank, line.rating.mu, line.rating.sigma, line.wins) for line in truth]
    assert q2[0].key == user_key(1) and all(r.key[0] != 0 for r in q2)  # the bot is an opponent, not listed
    q3 = await book.fold(G, "incan_gold", "2026-Q3")
    assert [r.key for r in q3] == [user_key(2), user_key(1)] and q3[0].games == 3  # Q3 starts level


async def test_a_frozen_season_never_changes(store, monkeypatch: pytest.MonkeyPatch):
    boards = Leaderboards(store)
    await two_seasons(store)
    book = seasons.SeasonBook(boards, GAMES)
    assert await boards.season_closing(G, "2026-Q2") is None
    assert await book.freeze(G, "2026-Q2", END_Q2 + 5)
    frozen = await boards.season_lines(G, "2026-Q2", "incan_gold")
    assert [(row.key, name) for row, name in frozen] == [(user_key(1), "Ann"), (user_key(2), "Bo"), (user_key(3), "Cy")]
    assert await boards.season_closing(G, "2026-Q2") == (END_Q2 + 5, None)
    # A game back-dated into Q2 and new rating rules: the frozen table stays as it was.
    await play(store, [(human(2, "Bo"), 9), (human(1, "Ann"), 0)], Q2 + timedelta(days=3))
    monkeypatch.setattr(seasons, "season_table", lambda games, listed: [])
    assert not await book.freeze(G, "2026-Q2", END_Q2 + 10)
    assert await book.table(G, "incan_gold", "2026-Q2", END_Q2 + 10) == frozen
    assert await boards.season_closing(G, "2026-Q2") == (END_Q2 + 5, None)


async def test_the_champions_post_is_claimed_once(store):
    boards = Leaderboards(store)
    await two_seasons(store)
    assert not await boards.claim_season_post(G, "2026-Q2", END_Q2)  # not frozen yet: nothing to post
    # Two processes (two books, no shared lock) freeze at once: one of them stores the table.
    frozen = await asyncio.gather(*(seasons.SeasonBook(boards, GAMES).freeze(G, "2026-Q2", END_Q2) for _ in range(2)))
    assert sorted(frozen) == [False, True]
    claims = await asyncio.gather(*(boards.claim_season_post(G, "2026-Q2", END_Q2 + 1) for _ in range(4)))
    assert sorted(claims) == [False, False, False, True]
    assert not await boards.claim_season_post(G, "2026-Q2", END_Q2 + 2)
    assert await boards.season_closing(G, "2026-Q2") == (END_Q2, END_Q2 + 1)


async def test_a_players_season_history_lists_frozen_seasons_newest_first(store):
    boards = Leaderboards(store)
    await two_seasons(store)
    book = seasons.SeasonBook(boards, GAMES)
    await book.freeze(G, "2026-Q2", END_Q2)
    await book.freeze(G, "2026-Q3", bounds("2026-Q3")[1])
    ann = await boards.season_history(G, user_key(1))
    assert [(name, row.game, row.rank, row.games, row.wins) for name, row in ann] == [
        ("2026-Q3", "incan_gold", 2, 3, 0), ("2026-Q2", "incan_gold", 1, 3, 3)]
    assert await boards.season_history(G, user_key(1), "indus") == []


async def test_the_seasons_with_games_are_walked_newest_first_one_statement_each(store):
    boards = Leaderboards(store)
    await two_seasons(store)  # incan_gold in 2026-Q2 and 2026-Q3
    await play(store, [(human(1, "Ann"), 2), (human(2, "Bo"), 1)], datetime(2025, 11, 5, tzinfo=UTC), game="indus",
               preset="standard")  # 2025-Q4; 2026-Q1 has no game
    await play(store, [(human(1, "Ann"), 2), (human(2, "Bo"), 1)], datetime(2025, 8, 5, tzinfo=UTC), guild=G + 1)
    cancelled = (await store.create_game("sakkara", guild_id=G, channel_id=5, host_id=1)).id
    await store.start_game(cancelled, [human(1), human(2)], seed=1, started_at=datetime(2025, 2, 1, tzinfo=UTC))
    await store.cancel_game(cancelled, "abandoned")  # never finished: no season's game
    q3_last = int((Q3 + timedelta(hours=2)).timestamp() * 1000)
    assert await boards.newest_finish(G, GAMES, bounds("2026-Q4")[1]) == q3_last
    assert await boards.newest_finish(G, GAMES, q3_last) == q3_last - 3_600_000
    assert await boards.newest_finish(G, ("sakkara",), bounds("2026-Q4")[1]) is None
    assert await boards.newest_finish(G, (), bounds("2026-Q4")[1]) is None
    book = seasons.SeasonBook(boards, GAMES)
    now = bounds("2026-Q4")[0] + DAY_MS  # in 2026-Q4: the current season is not a past one
    assert [s async for s in book.played(G, now)] == ["2026-Q3", "2026-Q2", "2025-Q4"]
    assert [s async for s in book.played(G + 1, now)] == ["2025-Q3"]
    assert [s async for s in book.played(G, bounds("2026-Q3")[0] + 1)] == ["2026-Q2", "2025-Q4"]
    assert [s async for s in book.played(G + 2, now)] == []
