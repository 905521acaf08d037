"""How long ``python -m db.copy`` takes to move N finished games from SQLite to PostgreSQL and verify them.

Seeds an SQLite file with N finished games through the store API (real logs of all three games,
played by the engine's easy bots from a small pool of seeds, so seeding stays quick), starts a
throwaway PostgreSQL (``tests/pg_kit.py``), runs the copy and its verification (row counts, every
game's record and replay), and prints one line:

    db_copy games=N actions=A copy_s=.. verify_s=.. total_s=.. load=<1-minute load average>

``total_s`` is the whole command as an operator waits for it (opening both databases included);
seeding is not counted. Run: ``.venv/bin/python bench/db_copy.py --games 10000``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script from anywhere: the repository, tests/ as a package

from db import Store  # noqa: E402
from db.copy import copy  # noqa: E402
from tests.db.history_kit import PLAYERS, T0, played, write_game  # noqa: E402
from tests.pg_kit import throwaway_postgres  # noqa: E402

SEEDS = 20  # distinct logs per game; the copy and the replay do the same work for a repeated log


async def seed(path: Path, games: int) -> int:
    """Write ``games`` finished games into a new SQLite file; return how many actions they hold."""
    kinds = sorted(PLAYERS)
    store = await Store.open(path, synchronous="NORMAL")  # seeding is set-up, not what is measured
    actions = 0
    try:
        for n in range(games):
            game, seed_no = kinds[n % len(kinds)], (n // len(kinds)) % SEEDS
            people = [1000 + (n * 7 + k) % 60 for k in range(2)]
            await write_game(store, game, seed_no, channel=10_000 + n % 500, people=people, guild=1 + n % 3,
                             at=T0 + timedelta(minutes=n))
            actions += len(played(game, seed_no)[0])
    finally:
        await store.close()
    return actions


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="db-copy-") as folder, throwaway_postgres() as server:
        path = Path(folder) / "history.sqlite3"
        actions = await seed(path, args.games)
        started = time.perf_counter()
        report = await copy(f"sqlite:///{path}", server.new_database("bench"))
        total = time.perf_counter() - started
    assert report.copied["games"] == args.games and report.copied["actions"] == actions
    print(f"db_copy games={args.games} actions={actions} copy_s={report.copy_s:.1f} verify_s={report.verify_s:.1f} "
          f"total_s={total:.1f} load={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
