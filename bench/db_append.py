"""Append throughput and commit latency of the store on a file database (WAL) on this machine.

Each scenario appends to playing tables through ``Store.append_action`` / ``append_actions`` (the
call the bot awaits before it replies) and records the latency of every call, i.e. until the
commit returned. Scenarios:

- ``sequential``: one table, one append after another (pure commit cost);
- ``batch=4``: a human action plus three chance/AI actions in one atomic ``append_actions``;
- ``saturate N``: N tables appending as fast as they can at once (closed loop): the ceiling of the
  one connection; latency here is mostly the wait behind the other N-1 tables;
- ``1000 @ R/s``: 1,000 tables each acting at random (Poisson) moments, R appends/s in total:
  the bot under a given load; latency includes queueing behind other tables' commits.

Run: ``.venv/bin/python bench/db_append.py [--appends 2000] [--dir PATH]``. The database file is
created in a fresh temporary directory (under ``--dir`` if given) and deleted afterwards.

``--postgresql`` runs the same scenarios on PostgreSQL instead (``fsync=on``, one pool of 10
connections, as the bot opens it): a throwaway server started from the local binaries
(``tests/pg_kit.py``), or the database at ``--url`` (its tables must be empty: they are used as is).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from typing import Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from db import NewSeat, Store

SEATS = [NewSeat.human(1000 + n, f"P{n}") for n in range(4)]


def _pct(samples: list[float], q: float) -> float:
    """Return the q-quantile of samples (nearest rank), in milliseconds."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def _tables(store: Store, count: int, first_channel: int) -> list[int]:
    """Start ``count`` tables and return their ids."""
    ids = []
    for n in range(count):
        game = await store.create_game("incan_gold", guild_id=1, channel_id=first_channel + n, host_id=1000)
        await store.start_game(game.id, SEATS, seed=n)
        ids.append(game.id)
    return ids


async def _drive(store: Store, game_id: int, appends: int, batch: int, samples: list[float]) -> None:
    """Append ``appends`` calls of ``batch`` actions to one table, recording each call's latency."""
    version = (await store.get_game(game_id)).version
    for n in range(appends):
        started = time.perf_counter()
        if batch == 1:
            version = await store.append_action(game_id, version, n % 4, "torch")
        else:
            actions: list[tuple[int, object]] = [(0, "torch")] + [(-1, f"T{k}") for k in range(batch - 1)]
            version = await store.append_actions(game_id, version, actions)
        samples.append(time.perf_counter() - started)


async def _open_loop(store: Store, ids: list[int], rate: float, seconds: float, samples: list[float]) -> None:
    """Fire appends as a Poisson stream of ``rate`` per second for ``seconds``, each on a random idle
    table (a table never has two appends in flight, as the session's per-table lock ensures)."""
    rng = random.Random(1)
    versions = dict.fromkeys(ids, 0)
    busy: set[int] = set()
    tasks: list[asyncio.Task[None]] = []

    async def one(game_id: int, started: float) -> None:
        versions[game_id] = await store.append_action(game_id, versions[game_id], 0, "torch")
        samples.append(time.perf_counter() - started)
        busy.discard(game_id)

    start = time.perf_counter()
    next_at = start
    while True:
        next_at += rng.expovariate(rate)
        if next_at > start + seconds:
            break
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        while len(busy) == len(ids):  # every table is waiting on the store: the load is too high
            await asyncio.sleep(0.001)
        game_id = rng.choice(ids)
        while game_id in busy:
            game_id = rng.choice(ids)
        busy.add(game_id)
        # Latency counts from the arrival, so time spent waiting for the event loop is included.
        tasks.append(asyncio.create_task(one(game_id, time.perf_counter())))
    await asyncio.gather(*tasks)


async def _scenario(
    open_store: Callable[[], AsyncIterator[Store]],
    tables: int,
    calls: int,
    batch: int,
    channel: int,
    rate: float = 0.0,
    seconds: float = 0.0,
) -> tuple[float, float, float, float]:
    """Return (calls/s, actions/s, p50 ms, p99 ms) for one scenario on a fresh store; ``rate`` > 0
    offers a Poisson stream of that many calls per second for ``seconds`` instead."""
    async with asynccontextmanager(open_store)() as store:
        ids = await _tables(store, tables, channel)
        samples: list[float] = []
        started = time.perf_counter()
        if rate:
            await _open_loop(store, ids, rate, seconds, samples)
        else:
            per_table = max(1, calls // tables)
            await asyncio.gather(*(_drive(store, game_id, per_table, batch, samples) for game_id in ids))
        elapsed = time.perf_counter() - started
    done = len(samples)
    return done / elapsed, done * batch / elapsed, _pct(samples, 0.50), _pct(samples, 0.99)


def _sqlite(path: Path, synchronous: Literal["FULL", "NORMAL"]) -> Callable[[], AsyncIterator[Store]]:
    async def open_store() -> AsyncIterator[Store]:
        store = await Store.open(path, synchronous=synchronous)
        try:
            yield store
        finally:
            await store.close()
    return open_store


def _postgresql(url: str) -> Callable[[], AsyncIterator[Store]]:
    async def open_store() -> AsyncIterator[Store]:
        store = await Store.connect(url)
        try:
            yield store
        finally:
            await store.close()
    return open_store


def _server(args: argparse.Namespace) -> AbstractContextManager[object]:
    """The throwaway PostgreSQL server for ``--postgresql`` without ``--url`` (else nothing)."""
    if not args.postgresql or args.url:
        return nullcontext()
    from tests.pg_kit import throwaway_postgres

    return throwaway_postgres()


async def main() -> None:
    """Run every scenario for both synchronous modes and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=2000, help="append calls per scenario")
    parser.add_argument("--seconds", type=float, default=4.0, help="length of each open-loop scenario")
    parser.add_argument("--dir", type=Path, default=None, help="directory for the temporary database")
    parser.add_argument("--postgresql", action="store_true", help="PostgreSQL instead of a SQLite file")
    parser.add_argument("--url", default=None, help="with --postgresql: an existing, empty database")
    args = parser.parse_args()
    engine = "PostgreSQL (a pool of 10, fsync=on)" if args.postgresql else f"SQLite {sqlite3.sqlite_version}"
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()},"
          f" {engine}, load average {os.getloadavg()[0]:.1f}")
    print(f"{args.appends} append calls per scenario; latency = call until its commit returned\n")
    header = f"{'store':<14}{'scenario':<16}{'calls/s':>10}{'actions/s':>11}{'p50 ms':>9}{'p99 ms':>9}"
    print(header)
    print("-" * len(header))
    # (label, tables, batch, offered calls/s or 0 for as fast as possible)
    scenarios = [
        ("sequential", 1, 1, 0.0),
        ("batch=4", 1, 4, 0.0),
        ("saturate 100", 100, 1, 0.0),
        ("1000 @ 250/s", 1000, 1, 250.0),
        ("1000 @ 500/s", 1000, 1, 500.0),
        ("1000 @ 1000/s", 1000, 1, 1000.0),
    ]
    with tempfile.TemporaryDirectory(dir=args.dir) as folder, _server(args) as server:
        stores: list[tuple[str, Callable[[], AsyncIterator[Store]]]]
        if args.postgresql:
            url = args.url or server.new_database("bench")  # type: ignore[attr-defined]
            stores = [("postgresql", _postgresql(url))]
        else:
            stores = [(f"sqlite {mode}", _sqlite(Path(folder) / f"bench_{mode.lower()}.sqlite3", mode))
                      for mode in ("FULL", "NORMAL")]
        channel = 1
        for label, open_store in stores:
            for name, tables, batch, offered in scenarios:
                calls = max(args.appends, tables)
                rate, actions, p50, p99 = await _scenario(
                    open_store, tables, calls, batch, channel, offered, args.seconds
                )
                channel += tables
                row = f"{label:<14}{name:<16}{rate:>10.0f}{actions:>11.0f}{p50:>9.2f}{p99:>9.2f}"
                print(row, flush=True)


if __name__ == "__main__":
    asyncio.run(main())
