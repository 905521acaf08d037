"""Cold start with many unfinished tables: time to gateway-connected and to the first click answered.

Seeds an SQLite file with ``--tables`` Incan Gold tables in play (three people and two bot seats
each, the first card revealed, the decision timer and the bots' turn stored as on a live bot),
then starts the real bot on the in-process fake Discord against it, the way ``python bot.py``
starts: cogs, setup hook, gateway. It prints when the bot was connected (READY handled: it can
take clicks), when the first click (``/incan status`` at one of the tables, which loads that
table on demand) was answered, and the process's resident memory then. The timers of every table
are restored with one query in the background; no table is loaded until it is needed.

Run: ``.venv/bin/python bench/cold_start.py --tables 10000``. The last line is
``cold_start tables=N connected_s=<s> first_answer_s=<s> rss_mib=<MiB>`` (other tools read it).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import Bot
from db import NewSeat, Store
from engine.clock import SystemClock
from engine.core import CHANCE, resolve_chance
from engine.incan_gold import GAME
from fakediscord import FakeDiscord
from wiring.config import Config

SEATS = 5


async def seed(path: Path, tables: int, channel_id: int, users: list[int]) -> int:
    """Write ``tables`` playing tables; the first one sits in ``channel_id`` with ``users``. Return its id."""
    store = await Store.open(path, synchronous="NORMAL")
    now = datetime.now(UTC)
    first = 0
    for n in range(tables):
        channel = channel_id if n == 0 else 10**15 + n
        people = users if n == 0 else [10**16 + 3 * n + k for k in range(3)]
        seats = [NewSeat.human(user, f"P{k}") for k, user in enumerate(people)]
        seats += [NewSeat.ai("easy", "Easy 1"), NewSeat.ai("hard", "Hard 1")]
        game = await store.create_game("incan_gold", guild_id=1, channel_id=channel, host_id=people[0],
                                       options={}, table_options={"decision_timeout_s": 120.0}, seats=seats[:1])
        await store.start_game(game.id, seats, seed=n + 1)
        state = GAME.setup(SEATS, n + 1, {})
        card = resolve_chance(GAME, state)
        due = now + timedelta(seconds=3600 + n % 600)  # due after the run: the start is measured, not a backlog
        await store.append_actions(game.id, 0, [(CHANCE, card)],
                                   deadlines=[("decision", due, 1), ("auto", due, 1)])
        first = first or game.id
    await store.close()
    return first


def rss_mib() -> float:
    """Return the resident memory now (MiB), from /proc; the peak where /proc is missing."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--dir", type=Path, default=None, help="where the database goes (default: a temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder, FakeDiscord() as fake:
        channel = fake.text_channel("table")
        people = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
        path = Path(folder) / "cold.sqlite3"
        began = time.perf_counter()
        table_id = await seed(path, args.tables, channel.id, [u.id for u in people])
        print(f"seeded {args.tables} playing tables in {time.perf_counter() - began:.1f} s")

        start = time.perf_counter()
        store = await Store.open(path)
        bot = Bot(store, Config(token=None, ai_delay_s=1.5, rate_limited=False, sync_commands=False),
                  SystemClock())
        ready_at: list[float] = []
        answers: list[float] = []
        clicking: list[asyncio.Future[None]] = []

        async def click() -> None:
            # A player's first click, sent the moment the gateway is up (timers may still be restoring).
            record = await fake.slash(people[0], channel, "incan status", {})
            assert record.acknowledged
            answers.append(time.perf_counter() - start)

        async def note_ready() -> None:
            ready_at.append(time.perf_counter() - start)
            clicking.append(asyncio.ensure_future(click()))

        bot.add_listener(note_ready, "on_ready")
        await fake.start(bot)  # returns once everything the start set going has finished (the click too)
        restored = time.perf_counter() - start
        connected, answered = ready_at[0], answers[0]
        assert bot.sessions.loaded(table_id) is not None
        loaded = len(bot.sessions.tables)
        memory = rss_mib()
        print(f"connected after {connected:.2f} s; timers restored after {restored:.2f} s; "
              f"first click answered after {answered:.2f} s; "
              f"{loaded} table(s) loaded; {len(bot.sessions.timers.tables())} tables with armed timers")
        await fake.stop(bot)
        await store.close()
    print(f"cold_start tables={args.tables} connected_s={connected:.2f} first_answer_s={answered:.2f} "
          f"rss_mib={memory:.0f}")


if __name__ == "__main__":
    asyncio.run(main())
