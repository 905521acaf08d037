"""Leaderboard query times with 100,000 recorded games on one server (issue 7: target < 50 ms).

Seeds a temporary file database through the real schema (the games go lobby -> playing ->
finished, so migration 0002's trigger fills the totals exactly as in production), then times the
reads behind each command through ``db.leaderboard.Leaderboards`` on a ``db.Store``:

    python bench/leaderboard_queries.py [--games 100000] [--players 400] [--repeat 30] [--seed 1]
    python bench/leaderboard_queries.py --postgresql [--url postgresql://...]

With ``--postgresql`` the seeded history is moved into PostgreSQL by ``db.transfer`` (what
``python -m db.copy`` does), analysed, and the same reads are timed there: a throwaway server
from the local binaries (``tests/pg_kit.py``), or the empty database at ``--url``.

Worst case on purpose: every game is on the same server, over the last 365 days. Prints p50 /
p95 / max per query, the one-off cold rating recomputation of the busiest game type, and the
incremental refresh after one more finished game (what a /leaderboard after a game pays).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from cogs.leaderboard.cog import PERIOD_DAYS, RatingBook
from db import NewResult, NewSeat, Store
from db.leaderboard import DAY_MS, Leaderboards, user_key
from db.transfer import transfer

GUILD = 1
GAMES = (("incan_gold", 0.5, ("incan-gold", "diamant", "incan-gold-modern")), ("sakkara", 0.3, (None,)),
         ("indus", 0.2, (None,)))
LEVELS = ("easy", "medium", "hard")
NOW_MS = 1_800_000_000_000


def seed_database(path: Path, games: int, players: int, rng: random.Random) -> int:
    """Write ``games`` finished games (plus 2 % cancelled) through plain SQL; return the busiest user id."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    weights = [1 / (rank + 1) ** 0.8 for rank in range(players)]  # a few regulars, many occasionals
    users = list(range(10_000, 10_000 + players))
    names = [g for g, _, _ in GAMES]
    shares = [w for _, w, _ in GAMES]
    presets = {g: p for g, _, p in GAMES}
    start = NOW_MS - 365 * DAY_MS
    times = sorted(rng.randrange(start, NOW_MS) for _ in range(games))
    for number, finished in enumerate(times, start=1):
        game = rng.choices(names, shares)[0]
        size = rng.randint(2, 6) if game != "sakkara" else 2
        bots = rng.choice((0, 0, 0, 1, 2)) if size > 2 else rng.choice((0, 0, 1))
        humans = list(dict.fromkeys(rng.choices(users, weights, k=size - bots)))
        seats: list[tuple[int | None, str | None, str]] = [(u, None, f"Player {u}") for u in humans]
        seats += [(None, level, f"{level} bot") for level in rng.choices(LEVELS, k=size - len(humans))]
        if len(seats) < 2:
            seats.append((None, "easy", "easy bot"))
        conn.execute("INSERT INTO games (id, game, preset, guild_id, channel_id, host_id, created_at)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (number, game, rng.choice(presets[game]), GUILD, 500 + number % 50, 1, finished - 1_800_000))
        conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                         [(number, i, u, a, n) for i, (u, a, n) in enumerate(seats)])
        conn.execute("UPDATE games SET status = 'playing', seed = ?, started_at = ? WHERE id = ?",
                     (number, finished - 1_500_000, number))
        if rng.random() < 0.02:
            conn.execute("UPDATE games SET status = 'cancelled', finished_at = ? WHERE id = ?", (finished, number))
            continue
        scores = [rng.randint(0, 60) for _ in seats]
        conn.executemany(
            "INSERT INTO results (game_id, seat, user_id, ai_level, score, placement, is_winner)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(number, i, u, a, s, 1 + sum(o > s for o in scores), int(s == max(scores)))
             for i, ((u, a, _), s) in enumerate(zip(seats, scores, strict=True))])
        conn.execute("INSERT INTO messages VALUES (?, 'summary', NULL, ?, ?, ?, 0)",  # a closed summary
                     (number, 500 + number % 50, 9_000_000 + number, finished))
        conn.execute("UPDATE games SET status = 'finished', finished_at = ? WHERE id = ?", (finished, number))
    conn.execute("COMMIT")
    busiest = conn.execute("SELECT user_id FROM player_totals WHERE ai_level = '' ORDER BY games DESC LIMIT 1")
    user = int(busiest.fetchone()[0])
    conn.execute("ANALYZE")
    conn.close()
    return user


async def timed(repeat: int, call: Callable[[], Awaitable[Any]]) -> list[float]:
    """Return the wall times in ms of ``repeat`` awaits of ``call()`` (after one warm-up)."""
    await call()
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        await call()
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def main(args: argparse.Namespace) -> None:
    """Seed, then print the table."""
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await (await Store.open(path)).close()  # the schema, migrated
        t0 = time.perf_counter()
        busiest = seed_database(path, args.games, args.players, rng)
        seeding = time.perf_counter() - t0
        size = path.stat().st_size / 1e6
        with _postgresql(args) as url:
            store = await _open(path, url)
            where = "PostgreSQL" if url else "SQLite"
            print(f"{args.games:,} games on one server, {args.players} players: seeded in {seeding:.1f} s, "
                  f"{size:.0f} MB as SQLite; timed on {where} ({platform.machine()}, {os.cpu_count()} cores, "
                  f"load average {os.getloadavg()[0]:.1f})\n")
            await _time(args, store, busiest)
            print(f"load average {os.getloadavg()[0]:.1f} at the end")


@contextlib.contextmanager
def _postgresql(args: argparse.Namespace) -> Iterator[str | None]:
    """The URL of the PostgreSQL database to time on (None: the SQLite file itself)."""
    if not args.postgresql or args.url:
        yield args.url if args.postgresql else None
        return
    from tests.pg_kit import throwaway_postgres

    with throwaway_postgres() as server:
        yield server.new_database("leaderboards")


async def _open(path: Path, url: str | None) -> Store:
    """Open the store to time: the seeded file, or PostgreSQL holding a transfer of it (analysed)."""
    if url is None:
        return await Store.open(path, clock=lambda: NOW_MS / 1000)
    target = await Store.connect(url, clock=lambda: NOW_MS / 1000)
    source = await Store.open(path)
    try:
        t0 = time.perf_counter()
        await transfer(source, target)
        print(f"moved to PostgreSQL in {time.perf_counter() - t0:.1f} s")
    finally:
        await source.close()
    async with target.backend.write() as db:
        await db.execute("ANALYZE")  # the planner's statistics, as autovacuum would gather them
    return target


async def _time(args: argparse.Namespace, store: Store, busiest: int) -> None:
    """Print the table of query times on ``store``."""
    boards, book = Leaderboards(store), RatingBook(Leaderboards(store))
    t0 = time.perf_counter()
    await book.refresh(GUILD, "incan_gold")
    cold = time.perf_counter() - t0
    for game in ("sakkara", "indus"):
        await book.refresh(GUILD, game)
    since = NOW_MS // DAY_MS - (PERIOD_DAYS - 1)
    me = user_key(busiest)
    runs: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
        ("/leaderboard (wins, all games, all time)", lambda: boards.standings(GUILD, None, "wins")),
        ("/leaderboard (wins, page 20)", lambda: boards.standings(GUILD, None, "wins", page=20)),
        ("/leaderboard (win rate >= 5, incan_gold)",
         lambda: boards.standings(GUILD, "incan_gold", "win_rate", min_games=5)),
        ("/leaderboard (games, 30 days)", lambda: boards.standings(GUILD, None, "games", since_day=since)),
        ("/leaderboard (rating, incan_gold)", lambda: boards.rating_standings(GUILD, "incan_gold")),
        ("/leaderboard (rating, indus, 30 days)",
         lambda: boards.rating_standings(GUILD, "indus", since_day=since)),
        ("  rating refresh, nothing new (every call)", lambda: book.refresh(GUILD, "incan_gold")),
        ("/stats: totals (all games)", lambda: boards.totals(GUILD, me)),
        ("/stats: rating + trend (incan_gold)",
         lambda: asyncio.gather(boards.rating(GUILD, "incan_gold", me),
                                boards.rating_trend(GUILD, "incan_gold", me))),
        ("/stats: favourite preset", lambda: boards.favourite_preset(GUILD, busiest)),
        ("/stats: record against AI levels", lambda: boards.ai_record(GUILD, busiest)),
        ("/history (busiest player)", lambda: boards.history(GUILD, busiest)),
        ("/game log: load game + results",
         lambda: asyncio.gather(store.load_game(args.games // 2), store.results(args.games // 2))),
    ]
    print(f"| {'query':<46} | p50 ms | p95 ms | max ms |")
    print(f"|{'-' * 48}|-------:|-------:|-------:|")
    for label, call in runs:
        ms = sorted(await timed(args.repeat, call))
        p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
        print(f"| {label:<46} | {statistics.median(ms):6.2f} | {p95:6.2f} | {ms[-1]:6.2f} |")
    # One more finished game, then the refresh a /leaderboard pays right after it.
    row = await store.create_game("incan_gold", guild_id=GUILD, channel_id=1, host_id=1)
    await store.start_game(row.id, [NewSeat.human(busiest, "Busy"), NewSeat.ai("hard", "Hard bot")], seed=1)
    await store.finish_game(row.id, [NewResult(0, 10, 1, True), NewResult(1, 5, 2, False)])
    t0 = time.perf_counter()
    await book.refresh(GUILD, "incan_gold")
    incremental = (time.perf_counter() - t0) * 1000
    games = (await boards.rating(GUILD, "incan_gold", me))
    print(f"\nrating refresh after one new game: {incremental:.1f} ms")
    print(f"cold rating recomputation of incan_gold (~{args.games // 2:,} games, once per server after "
          f"the upgrade or a back-dated finish): {cold:.1f} s")
    print(f"busiest player: {busiest}, {games.games if games else 0} rated incan_gold games")
    await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgresql", action="store_true", help="time the reads on PostgreSQL")
    parser.add_argument("--url", default=None, help="with --postgresql: an existing, empty database")
    asyncio.run(main(parser.parse_args()))
