"""Leaderboard storage (issue 7): trigger-kept totals agree with results, rankings, periods, ties,
history with message links, records against AI levels, and the migration's backfill."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db import NewResult, NewSeat, Store
from db.leaderboard import DAY_MS, Leaderboards, ai_key, day_of, user_key
from db.migrate import apply_migrations, load_migrations

G = 7  # guild
T0 = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def human(uid: int, name: str | None = None) -> NewSeat:
    return NewSeat.human(uid, name or f"user{uid}")


async def play(store: Store, seats: list[tuple[NewSeat, int]], at: datetime = T0, *, game: str = "incan_gold",
               guild: int = G, preset: str | None = "incan-gold", channel: int = 1) -> int:
    """Write a finished game through the Store API: placements as the session computes them."""
    specs = [s for s, _ in seats]
    row = await store.create_game(game, guild_id=guild, channel_id=channel, host_id=1, preset=preset)
    await store.start_game(row.id, specs, seed=42, started_at=at - timedelta(minutes=20))
    scores = [score for _, score in seats]
    best = max(scores)
    results = [NewResult(i, sc, 1 + sum(1 for o in scores if o > sc), sc == best) for i, sc in enumerate(scores)]
    await store.finish_game(row.id, results, finished_at=at)
    return row.id


async def test_totals_follow_every_finished_game_and_nothing_else(store):
    boards = Leaderboards(store)
    await play(store, [(human(1, "Ann"), 10), (human(2, "Bo"), 5), (NewSeat.ai("easy", "Easy bot 1"), 5)])
    await play(store, [(human(1, "Ann B."), 3), (human(2, "Bo"), 9)], T0 + timedelta(hours=1))
    cancelled = await store.create_game("incan_gold", guild_id=G, channel_id=2, host_id=1)
    await store.start_game(cancelled.id, [human(1), human(3)], seed=1)
    await store.cancel_game(cancelled.id, "abandoned")
    [ann] = await boards.totals(G, user_key(1))
    assert (ann.games, ann.wins, ann.score_sum, ann.best_score, ann.name) == (2, 1, 13, 10, "Ann B.")
    assert await boards.totals(G, user_key(3)) == []  # an abandoned game is never counted
    [easy] = await boards.totals(G, ai_key("easy"))
    assert (easy.games, easy.wins) == (1, 0)
    assert await boards.totals(G + 1, user_key(1)) == []  # another server


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.lists(st.integers(0, 4), min_size=2, max_size=5, unique=True),
                          st.lists(st.integers(0, 6), min_size=5, max_size=5), st.integers(0, 60),
                          st.sampled_from(["incan_gold", "indus"]), st.sampled_from(["a", "b", None])),
                max_size=12))
async def test_trigger_kept_tables_equal_an_aggregate_of_results(games):
    store = await Store.open(":memory:")
    try:
        for players, scores, days, game, preset in games:
            seats = [(human(10 + p) if p < 4 else NewSeat.ai("hard", "Hard bot"), scores[i])
                     for i, p in enumerate(players)]
            await play(store, seats, T0 + timedelta(days=days), game=game, preset=preset)
        async with store._read() as db:
            totals = await store._fetch(db, "SELECT game, user_id, ai_level, games, wins, score_sum, best_score"
                                            " FROM player_totals ORDER BY 1, 2, 3")
            truth = await store._fetch(db, "SELECT g.game, ifnull(r.user_id, 0), ifnull(r.ai_level, ''), count(*),"
                                           " sum(r.is_winner), sum(r.score), max(r.score) FROM results r JOIN games g"
                                           " ON g.id = r.game_id WHERE g.status = 'finished' GROUP BY 1, 2, 3"
                                           " ORDER BY 1, 2, 3")
            days = await store._fetch(db, "SELECT game, user_id, ai_level, sum(games), sum(wins), sum(score_sum),"
                                          " max(best_score) FROM player_days GROUP BY 1, 2, 3 ORDER BY 1, 2, 3")
            presets = await store._fetch(db, "SELECT guild_id, user_id, game, preset, games FROM preset_totals"
                                             " ORDER BY 1, 2, 3, 4")
            preset_truth = await store._fetch(db, "SELECT g.guild_id, r.user_id, g.game, ifnull(g.preset, ''),"
                                                  " count(*) FROM results r JOIN games g ON g.id = r.game_id"
                                                  " WHERE r.user_id IS NOT NULL GROUP BY 1, 2, 3, 4"
                                                  " ORDER BY 1, 2, 3, 4")
            records = await store._fetch(db, "SELECT game, user_id, ai_level, games, ahead, behind, level_with"
                                             " FROM ai_records ORDER BY 1, 2, 3")
            record_truth = await store._fetch(
                db, "SELECT g.game, u.user_id, a.ai_level, count(DISTINCT u.game_id), sum(u.placement < a.placement),"
                    " sum(u.placement > a.placement), sum(u.placement = a.placement) FROM results u"
                    " JOIN games g ON g.id = u.game_id JOIN results a ON a.game_id = u.game_id"
                    " AND a.ai_level IS NOT NULL WHERE u.user_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 1, 2, 3")
        assert totals == truth == days
        assert presets == preset_truth and records == record_truth
    finally:
        await store.close()


async def test_wins_ranking_shares_ranks_on_ties_and_pages(store):
    boards = Leaderboards(store)
    # 12 people: user u wins u games of 12 (two-player games against user 99, who always loses).
    for uid in range(1, 13):
        for n in range(12):
            await play(store, [(human(uid), 1 if n < uid else 0), (human(99), 0 if n < uid else 1)])
    first = await boards.standings(G, None, "wins", per_page=5)
    assert first.total == 13 and first.pages == 3
    assert [r.key[0] for r in first.rows] == [99, 12, 11, 10, 9]
    # 99 wins the games n >= uid: sum(12 - uid for uid in 1..12) = 66; user 12 won all 12 of theirs.
    assert first.rows[0].wins == 66 and first.rows[1].wins == 12
    last = await boards.standings(G, None, "wins", page=2, per_page=5)
    assert [r.key[0] for r in last.rows] == [3, 2, 1]
    stale = await boards.standings(G, None, "wins", page=9, per_page=5)  # a page that no longer exists
    assert stale.page == 2 and stale.rows == last.rows
    # Ties: two players with the same wins share a rank and the next rank is skipped.
    tied = Leaderboards(await Store.open(":memory:"))
    for a, b in ((1, 2), (2, 1), (3, 4)):
        await play(tied.store, [(human(a), 1), (human(b), 0)])
    ranks = [(r.rank, r.key[0], r.wins) for r in (await tied.standings(G, None, "wins")).rows]
    assert ranks == [(1, 1, 1), (1, 2, 1), (1, 3, 1), (4, 4, 0)]
    await tied.store.close()


async def test_win_rate_needs_a_minimum_of_games(store):
    boards = Leaderboards(store)
    await play(store, [(human(1), 5), (human(2), 0)])  # one lucky game: 100 %
    for n in range(6):
        await play(store, [(human(3), 5 if n < 5 else 0), (human(4), 0 if n < 5 else 5)])
    page = await boards.standings(G, "incan_gold", "win_rate", min_games=5)
    assert [(r.key[0], round(r.win_rate, 2)) for r in page.rows] == [(3, 0.83), (4, 0.17)]
    assert (await boards.standings(G, "incan_gold", "win_rate", min_games=1)).rows[0].key[0] in (1, 2)


async def test_period_counts_only_recent_days_and_game_filter(store):
    boards = Leaderboards(store)
    now = T0 + timedelta(days=100)
    await play(store, [(human(1), 5), (human(2), 0)], now - timedelta(days=40))  # too old
    await play(store, [(human(1), 5), (human(2), 0)], now - timedelta(days=40))
    await play(store, [(human(2), 5), (human(1), 0)], now - timedelta(days=29))  # inside 30 days
    await play(store, [(human(3), 5), (human(1), 0)], now - timedelta(hours=1), game="indus")
    since = day_of(now) - 29
    recent = await boards.standings(G, None, "wins", since_day=since)
    assert [(r.key[0], r.wins, r.games) for r in recent.rows] == [(2, 1, 1), (3, 1, 1), (1, 0, 2)]
    alltime = await boards.standings(G, "incan_gold", "wins")
    assert [(r.key[0], r.wins) for r in alltime.rows] == [(1, 2), (2, 1)]
    assert (await boards.standings(G, "sakkara", "games")).total == 0


async def test_history_lists_started_games_with_links_and_cancelled_ones(store):
    boards = Leaderboards(store)
    g1 = await play(store, [(human(1), 5), (human(2), 3), (NewSeat.ai("easy", "Easy bot 1"), 3)], channel=50)
    await store.set_message(g1, "lobby", 50, 1000)
    await store.set_message(g1, "summary", 50, 1002)
    await store.set_message(g1, "dm", 900, 1003, seat=0)
    g2 = await store.create_game("incan_gold", guild_id=G, channel_id=51, host_id=1)
    await store.start_game(g2.id, [human(1), human(3)], seed=1, started_at=T0 + timedelta(hours=1))
    await store.set_message(g2.id, "round1", 51, 2000)
    await store.cancel_game(g2.id, at=T0 + timedelta(hours=2))
    lobby_only = await store.create_game("incan_gold", guild_id=G, channel_id=52, host_id=1, seats=[human(1)])
    await store.cancel_game(lobby_only.id)  # never started: not history
    entries = await boards.history(G, 1)
    listed = [(e.game_id, e.status, e.message_id) for e in entries]
    assert listed == [(g2.id, "cancelled", 2000), (g1, "finished", 1002)]
    finished = entries[1]
    assert (finished.placement, finished.score, finished.players, finished.is_winner) == (1, 5, 3, True)
    assert finished.duration_ms == 20 * 60 * 1000 and finished.channel_id == 50
    assert await boards.history(G, 42) == []


async def test_record_against_ai_levels_and_favourite_preset(store):
    boards = Leaderboards(store)
    easy, hard = NewSeat.ai("easy", "Easy bot 1"), NewSeat.ai("hard", "Hard bot 1")
    await play(store, [(human(1), 9), (easy, 3), (hard, 12)], preset="diamant")
    await play(store, [(human(1), 9), (easy, 9), (NewSeat.ai("easy", "Easy bot 2"), 1)], preset="diamant")
    await play(store, [(human(1), 2), (hard, 5)], preset="incan-gold")
    record = {r.level: (r.games, r.ahead, r.behind, r.level_with) for r in await boards.ai_record(G, 1)}
    assert record == {"easy": (2, 2, 0, 1), "hard": (2, 0, 2, 0)}
    assert await boards.favourite_preset(G, 1) == ("incan_gold", "diamant", 2)
    assert await boards.ai_record(G, 2) == [] and await boards.favourite_preset(G, 2) is None


async def test_migration_backfills_totals_from_games_finished_before_it(tmp_path: Path):
    path = tmp_path / "old.sqlite3"
    first = [m for m in load_migrations() if m.version == 1]
    import aiosqlite

    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await apply_migrations(conn, first)
    # A version-1 store: write games with the version-1 schema only (no triggers of 0002 yet).
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO games (id, game, preset, guild_id, channel_id, host_id, created_at)"
                     " VALUES (1, 'incan_gold', 'diamant', 7, 1, 1, 0)")
        conn.executemany("INSERT INTO seats VALUES (1, ?, ?, ?, ?)",
                         [(0, 11, None, "Old name"), (1, None, "easy", "Easy bot 1")])
        conn.execute("UPDATE games SET status = 'playing', seed = 1, started_at = 0 WHERE id = 1")
        conn.executemany("INSERT INTO results VALUES (1, ?, ?, ?, ?, ?, ?)",
                         [(0, 11, None, 8, 1, 1), (1, None, "easy", 3, 2, 0)])
        conn.execute("UPDATE games SET status = 'finished', finished_at = ? WHERE id = 1", (3 * DAY_MS + 5,))
    store = await Store.open(path)
    try:
        boards = Leaderboards(store)
        [row] = await boards.totals(7, user_key(11))
        assert (row.games, row.wins, row.best_score, row.name) == (1, 1, 8, "Old name")
        assert (await boards.standings(7, None, "wins", since_day=3)).total == 1
        assert (await boards.standings(7, None, "wins", since_day=4)).total == 0
    finally:
        await store.close()


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # SQLite's query plans (PostgreSQL: bench)
@pytest.mark.parametrize("query", [
    "SELECT * FROM player_totals WHERE guild_id = 7 AND game = 'incan_gold' AND ai_level = ''",
    "SELECT * FROM player_days WHERE guild_id = 7 AND day >= 100",
    "SELECT * FROM ratings WHERE guild_id = 7 AND game = 'indus' ORDER BY ordinal DESC",
    "SELECT * FROM seats WHERE user_id = 5 ORDER BY game_id",
    "SELECT * FROM rating_history WHERE guild_id = 7 AND game = 'x' AND user_id = 1 AND ai_level = ''"
    " ORDER BY finished_at DESC",
])
async def test_leaderboard_reads_use_an_index(store, query):
    async with store._read() as db:
        plan = " ".join(str(r[3]) for r in await store._fetch(db, "EXPLAIN QUERY PLAN " + query))
    # a SEARCH is an index range; a SCAN would read the whole table (or index)
    assert plan.startswith("SEARCH") and "SCAN" not in plan, plan


def test_day_of_is_the_utc_day_number():
    assert day_of(datetime(1970, 1, 2, 0, 0, tzinfo=UTC)) == 1
    rng = random.Random(3)
    for _ in range(20):
        moment = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=rng.randrange(10**8))
        assert day_of(moment) == (moment - datetime(1970, 1, 1, tzinfo=UTC)).days
