"""The rating cache: whatever the order games arrive in, chunking or concurrent refreshes, the cached
ratings equal a from-scratch recomputation of the stored results (the recomputation is the truth)."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest
from test_leaderboard import T0, G, human, play

import cogs.leaderboard.cog as lb
from db import NewSeat
from db.leaderboard import Leaderboards
from engine.ratings import GameOutcome, recompute


async def truth(boards: Leaderboards, game: str = "incan_gold") -> dict:
    games = await boards.rated_games(G, game, None, 10**6)
    run = recompute([GameOutcome(g.game_id, g.seats) for g in games])
    return {k: (r.mu, r.sigma, r.games) for k, r in run.book.items()}


async def cached(boards: Leaderboards, game: str = "incan_gold") -> dict:
    return {r.key: (r.mu, r.sigma, r.games) for r in await boards.load_ratings(G, game)}


async def random_game(store, rng: random.Random, at) -> int:
    people = rng.sample(range(1, 7), rng.randint(1, 4))
    seats = [(human(p), rng.randint(0, 9)) for p in people]
    seats += [(NewSeat.ai(rng.choice(["easy", "hard"]), "bot"), rng.randint(0, 9)) for _ in range(rng.randint(0, 2))]
    if len(seats) < 2:
        seats.append((NewSeat.ai("easy", "bot"), 0))
    return await play(store, seats, at)


async def test_incremental_refreshes_equal_the_recomputation(store):
    boards = Leaderboards(store)
    book = lb.RatingBook(boards)
    rng = random.Random(5)
    for n in range(30):
        await random_game(store, rng, T0 + timedelta(hours=n))
        if n % 7 == 0:
            await book.refresh(G, "incan_gold")
    await book.refresh(G, "incan_gold")
    assert await cached(boards) == await truth(boards)
    history = await boards.rating_trend(G, "incan_gold", (1, ""), last=1000)
    assert len(history) == (await cached(boards))[(1, "")][2]


async def test_a_back_dated_finish_invalidates_the_cache_and_the_refresh_recomputes(store):
    boards = Leaderboards(store)
    book = lb.RatingBook(boards)
    rng = random.Random(8)
    for n in range(10):
        await random_game(store, rng, T0 + timedelta(hours=n))
    await book.refresh(G, "incan_gold")
    assert await boards.rating_mark(G, "incan_gold") is not None
    await play(store, [(human(1), 0), (human(2), 9)], T0 + timedelta(minutes=30))  # finished "in the past"
    assert await boards.rating_mark(G, "incan_gold") is None  # the trigger dropped the mark
    await play(store, [(human(3), 5), (human(4), 1)], T0 + timedelta(hours=20))  # a later one: mark unaffected
    await book.refresh(G, "incan_gold")
    assert await cached(boards) == await truth(boards)
    trend = await boards.rating_trend(G, "incan_gold", (2, ""), last=1000)
    assert len(trend) == (await cached(boards))[(2, "")][2]  # the old cache's history was replaced


async def test_small_chunks_and_concurrent_refreshes_agree(store, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(lb, "FOLD_CHUNK", 3)
    boards = Leaderboards(store)
    book = lb.RatingBook(boards)
    rng = random.Random(2)
    for n in range(20):
        await random_game(store, rng, T0 + timedelta(hours=n))
    await asyncio.gather(*(book.refresh(G, "incan_gold") for _ in range(4)),
                         lb.RatingBook(boards).refresh(G, "incan_gold"))  # a second book: the mark check
    assert await cached(boards) == await truth(boards)
    assert await cached(boards, "indus") == {}


async def test_games_of_other_types_servers_and_cancelled_games_are_not_rated(store):
    boards = Leaderboards(store)
    await play(store, [(human(1), 9), (human(2), 0)])
    await play(store, [(human(1), 0), (human(2), 9)], game="indus")
    await play(store, [(human(1), 0), (human(2), 9)], guild=G + 1)
    row = await store.create_game("incan_gold", guild_id=G, channel_id=3, host_id=1)
    await store.start_game(row.id, [human(1), human(2)], seed=1)
    await store.cancel_game(row.id)
    await lb.RatingBook(boards).refresh(G, "incan_gold")
    rated = await cached(boards)
    assert rated[(1, "")][2] == 1 and rated[(1, "")][0] > rated[(2, "")][0]
