"""Start-up recovery cost: reading every unfinished table and its action log from a file database.

At start-up the bot lists the unfinished games and loads each one (game row, seats, whole log) to
rebuild it by replay. This builds ``--tables`` playing tables with ``--actions`` actions each (a
whole Incan Gold game is roughly 100-200 log entries), reopens the file (cold connection, warm OS
cache) and times ``unfinished_game_ids`` plus one ``load_game`` per table. Engine replay time is
not included (that is the engine's benchmark).

Run: ``.venv/bin/python bench/db_recovery.py [--tables 1000] [--actions 150] [--dir PATH]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sqlite3
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from db import NewSeat, Store

SEATS = [NewSeat.human(1000 + n, f"P{n}") for n in range(4)] + [NewSeat.ai("hard", "Bot")]


def _pct(samples: list[float], q: float) -> float:
    """Return the q-quantile of samples (nearest rank), in milliseconds."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def _build(path: Path, tables: int, actions: int) -> None:
    """Create ``tables`` playing tables with ``actions`` logged actions each."""
    store = await Store.open(path, synchronous="NORMAL")
    try:
        for n in range(tables):
            game = await store.create_game(
                "incan_gold", guild_id=1, channel_id=n + 1, host_id=1000, preset="base",
                options={"artifacts": "base"}, table_options={"decision_timeout_s": 120},
            )
            await store.start_game(game.id, SEATS, seed=n)
            log: list[tuple[int, object]] = [
                (-1, f"T{k % 17}") if k % 6 == 0 else (k % 5, "torch" if k % 3 else "camp")
                for k in range(actions)
            ]
            await store.append_actions(game.id, 0, log)
            await store.set_message(game.id, "round", n + 1, 10_000 + n)
            await store.set_deadline(game.id, "decision", datetime.now(UTC), version=actions)
    finally:
        await store.close()


async def _recover(path: Path) -> tuple[float, float, float, float, int]:
    """Return (open s, list s, p50 ms, p99 ms, actions read) for a full recovery pass."""
    started = time.perf_counter()
    store = await Store.open(path)
    opened = time.perf_counter() - started
    try:
        started = time.perf_counter()
        ids = await store.unfinished_game_ids()
        deadlines = await store.deadlines()
        listed = time.perf_counter() - started
        samples: list[float] = []
        read = 0
        for game_id in ids:
            started = time.perf_counter()
            log = await store.load_game(game_id)
            await store.messages(game_id)
            samples.append(time.perf_counter() - started)
            read += len(log.actions)
        assert len(deadlines) == len(ids)
    finally:
        await store.close()
    return opened, listed, _pct(samples, 0.5), _pct(samples, 0.99), read


async def main() -> None:
    """Build the database, then time one recovery pass and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--dir", type=Path, default=None, help="directory for the temporary database")
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()},"
          f" SQLite {sqlite3.sqlite_version}")
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        path = Path(folder) / "recovery.sqlite3"
        started = time.perf_counter()
        await _build(path, args.tables, args.actions)
        built = time.perf_counter() - started
        wal = Path(f"{path}-wal")
        size = path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
        total = time.perf_counter()
        opened, listed, p50, p99, read = await _recover(path)
        total = time.perf_counter() - total
    print(f"{args.tables} playing tables x {args.actions} actions: built in {built:.1f} s,"
          f" {size / 1e6:.1f} MB")
    print(f"{'open+migrate check':<28}{opened * 1000:>10.1f} ms")
    print(f"{'list ids + deadlines':<28}{listed * 1000:>10.1f} ms")
    print(f"{'load_game+messages p50':<28}{p50:>10.2f} ms")
    print(f"{'load_game+messages p99':<28}{p99:>10.2f} ms")
    print(f"{'whole recovery read':<28}{total * 1000:>10.1f} ms ({read} actions, {read / total:,.0f} actions/s)")


if __name__ == "__main__":
    asyncio.run(main())
