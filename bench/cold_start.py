"""Cold start with many unfinished tables: time to gateway-connected and to the first click answered.

Seeds an SQLite file with ``--tables`` Incan Gold tables in play (three people and two bot seats
each, the first card revealed, the decision timer and the bots' turn stored as on a live bot),
then starts the real bot on the in-process fake Discord against it, the way ``python bot.py``
starts: cogs, setup hook, gateway. It prints when the bot was connected (READY handled: it can
take clicks), when the first click (``/incan status`` at one of the tables, which loads that
table on demand) was answered, and the process's resident memory then. The timers of every table
are restored with one query in the background; no table is loaded until it is needed.

``--pace correspondence`` seeds two-person Sakkara tables instead, people only, with a decision
time of a day: one person owes one decision at each table (Sakkara is turn-based and has no bot
seat here, so nothing else is pending: no bots' turn, no second person choosing beside the first,
unlike Incan Gold's shared windows). Their deadlines are spread evenly over the next day, so about
1/24 of them fall due within the first hour. After the start is measured the bench lets that hour
pass and checks that its timers fire on time: the bot runs on a :class:`HurriedClock`, whose time
passes as the wall clock's for the first ``--calm`` seconds (the start, measured as it is) and
then ``--speed`` times faster, so the hour takes a few minutes. Each timer due in the hour is
watched (deadlines, and the reminders at half time and an hour before them: about 3 x tables /
24): its lateness (when its work began minus when it was due, on the bot's clock, which is what
players see) and the wall time its work took. The memory after the hour (``rss_end_mib``) is measured once the fake
Discord, which runs in the same process, has dropped its record of the pictures it was sent.

Run: ``.venv/bin/python bench/cold_start.py --tables 10000``. The last line is
``cold_start tables=N connected_s=<s> first_answer_s=<s> rss_mib=<MiB> pace=<pace>`` (other tools
read it), followed for ``correspondence`` by ``timers_due=<n> fired=<n> late_p99_s=<s>
late_max_s=<s> work_p99_s=<s> hour_wall_s=<s> speed=<x> rss_end_mib=<MiB> loaded_end=<n>`` (the tables
still loaded after the hour: those its timers loaded in its last half hour, see
:data:`engine.session.cache.IDLE_S`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ctypes
import gc
import resource
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import Bot
from db import NewSeat, StartedGame, Store
from engine.clock import Clock, Handle, SystemClock
from engine.core import CHANCE, resolve_chance
from engine.incan_gold import GAME
from engine.sakkara import GAME as SAKKARA
from engine.session.pace import CORRESPONDENCE, LIVE, reminder_offsets
from fakediscord import FakeDiscord
from wiring.config import Config

SEATS = 5
DAY_S = 86400.0
HOUR_S = 3600.0
BATCH = 1000  # tables per transaction while seeding
REMINDED_BEFORE = reminder_offsets(DAY_S, Config(token=None).reminder_before_s)  # a day-long decision's reminders


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


async def seed_correspondence(path: Path, tables: int, fake: FakeDiscord, channel_id: int, users: list[int],
                              start: float) -> int:
    """Write ``tables`` two-person Sakkara tables (people only, a decision time of a day) whose
    first person owes the first move, in batches of :data:`BATCH` per transaction. Their deadlines
    are spread evenly over the day after ``start`` (epoch s), the first table's (the one clicked)
    at mid-day. The first table sits in ``channel_id`` with ``users``; the tables with a timer due
    in the first hour (a deadline or a reminder) sit in channels of the fake Discord with its
    users, so their timers' messages are really sent (the others' channels exist nowhere: nothing
    is sent to them during the run). Return the first table's id."""
    store = await Store.open(path, synchronous="NORMAL")
    first = 0
    batch: list[StartedGame] = []
    for n in range(tables):
        slot = (n + tables // 2) % tables
        due = start + DAY_S * (slot + 0.5) / tables
        if n == 0:
            channel, people = channel_id, users[:2]
        elif any(start <= due - before <= start + HOUR_S + 60 for before in (0.0, *REMINDED_BEFORE)):
            channel = fake.text_channel(f"table-{n}").id
            people = [fake.user(f"P{n}-{k}").id for k in range(2)]
        else:
            channel, people = 10**15 + n, [10**16 + 2 * n + k for k in range(2)]
        state = SAKKARA.setup(2, n + 1, {})
        due = start + DAY_S * (((n + tables // 2) % tables) + 0.5) / tables
        batch.append(StartedGame(
            game="sakkara", guild_id=fake.guild_id, channel_id=channel, host_id=people[0],
            seats=[NewSeat.human(user, f"P{k}") for k, user in enumerate(people)], seed=n + 1,
            actions=[(CHANCE, resolve_chance(SAKKARA, state))],  # the deal; then a person owes
            deadlines=[("decision", datetime.fromtimestamp(due, UTC), 1)],
            table_options={"decision_timeout_s": DAY_S}))
        if len(batch) == BATCH or n == tables - 1:
            ids = await store.add_playing_games(batch)
            first = first or ids[0]
            batch = []
    await store.close()
    return first


class _Watched:
    """A timer due in the watched hour: when it was due, when its work began and how long it took."""

    __slots__ = ("began", "cancelled", "due", "handle", "work_s")

    def __init__(self, due: float) -> None:
        self.due = due
        self.began: float | None = None
        self.work_s: float | None = None
        self.cancelled = False
        self.handle: Handle | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self.handle is not None:
            self.handle.cancel()


class HurriedClock:
    """The bot's clock for the hour: from :meth:`begin` on, time passes as the wall clock's for
    ``calm_s`` seconds, then ``speed`` times faster. Timers due before ``watch_until`` are watched
    (:class:`_Watched`); the others go to the real clock untouched (no cost per armed timer)."""

    def __init__(self, origin: float, calm_s: float, speed: float, watch_until: float) -> None:
        self.inner = SystemClock()
        self.origin, self.calm_s, self.speed, self.watch_until = origin, calm_s, speed, watch_until
        self.wall0 = time.time()
        self.watched: list[_Watched] = []

    def begin(self) -> None:
        """The bot starts now: its time is ``origin``."""
        self.wall0 = time.time()

    def now(self) -> float:
        passed = time.time() - self.wall0
        if passed <= self.calm_s:
            return self.origin + passed
        return self.origin + self.calm_s + (passed - self.calm_s) * self.speed

    def wall_of(self, when: float) -> float:
        """Return the wall-clock time at which the bot's clock shows ``when``."""
        ahead = when - self.origin
        if ahead <= self.calm_s:
            return self.wall0 + ahead
        return self.wall0 + self.calm_s + (ahead - self.calm_s) / self.speed

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> Handle:
        if when > self.watch_until:
            return self.inner.call_at(self.wall_of(when), callback)
        watched = _Watched(when)

        async def run() -> None:
            watched.began = self.now()
            began = time.perf_counter()
            await callback()
            watched.work_s = time.perf_counter() - began

        watched.handle = self.inner.call_at(self.wall_of(when), run)
        self.watched.append(watched)
        return watched

    async def drain(self) -> None:
        await self.inner.drain()


def percentile(values: list[float], share: float) -> float:
    """Return the value below which ``share`` of ``values`` lie (nearest rank; 0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


async def watch_hour(clock: HurriedClock, grace_s: float) -> tuple[list[_Watched], float]:
    """Wait until the watched hour is over and every timer due in it has done its work (or
    ``grace_s`` wall seconds more have passed); return the timers due and the wall time it took."""
    began = time.perf_counter()
    while True:
        due = [w for w in clock.watched if not w.cancelled]
        over = clock.now() >= clock.watch_until
        if over and all(w.work_s is not None for w in due):
            return due, time.perf_counter() - began
        if over and time.time() > clock.wall_of(clock.watch_until) + grace_s:
            return due, time.perf_counter() - began
        await asyncio.sleep(0.5)


def forget_the_fakes_record(fake: FakeDiscord) -> float:
    """Drop what the in-process fake Discord keeps of the run (every file sent, with its bytes,
    and its log of REST calls), so the memory measured next is the bot's; return the MiB of
    files dropped. The messages themselves stay (the bot may still edit them)."""
    seen: set[int] = set()
    dropped = 0
    for message in fake.messages.values():
        for sent in message.files:
            if id(sent.data) not in seen:
                seen.add(id(sent.data))
                dropped += len(sent.data)
        message.files, message.history = [], []
    fake.rest_calls.clear()
    gc.collect()
    with contextlib.suppress(OSError, AttributeError):  # hand freed heap pages back (glibc), or RSS counts them
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    return dropped / 2**20


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
    parser.add_argument("--pace", choices=(LIVE, CORRESPONDENCE), default=LIVE,
                        help="live: Incan Gold, 3 people + 2 bots, 120 s; correspondence: Sakkara, 2 people, a day")
    parser.add_argument("--speed", type=float, default=10.0,
                        help="correspondence: how much faster than the wall clock the hour passes after --calm")
    parser.add_argument("--calm", type=float, default=20.0,
                        help="correspondence: seconds after the start during which the bot's time is the wall's")
    parser.add_argument("--dir", type=Path, default=None, help="where the database goes (default: a temp dir)")
    args = parser.parse_args()
    correspondence = args.pace == CORRESPONDENCE
    with tempfile.TemporaryDirectory(dir=args.dir) as folder, FakeDiscord() as fake:
        channel = fake.text_channel("table")
        people = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
        path = Path(folder) / "cold.sqlite3"
        began = time.perf_counter()
        origin = time.time()
        if correspondence:
            table_id = await seed_correspondence(path, args.tables, fake, channel.id, [u.id for u in people], origin)
        else:
            table_id = await seed(path, args.tables, channel.id, [u.id for u in people])
        seeded_s = time.perf_counter() - began
        print(f"seeded {args.tables} playing tables ({args.pace}) in {seeded_s:.1f} s")

        hurried = HurriedClock(origin, args.calm, args.speed, origin + HOUR_S) if correspondence else None
        clock: Clock = hurried if hurried is not None else SystemClock()
        start = time.perf_counter()
        if hurried is not None:
            hurried.begin()
        store = await Store.open(path)
        bot = Bot(store, Config(token=None, ai_delay_s=1.5, rate_limited=False, sync_commands=False), clock)
        ready_at: list[float] = []
        answers: list[float] = []
        clicking: list[asyncio.Future[None]] = []
        command = "sakkara status" if correspondence else "incan status"

        async def click() -> None:
            # A player's first click, sent the moment the gateway is up (timers may still be restoring).
            record = await fake.slash(people[0], channel, command, {})
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
        hour = ""
        if hurried is not None:
            print(f"letting the first hour pass: {args.calm:g} s as the wall clock, then {args.speed:g}x faster")
            due, wall = await watch_hour(hurried, grace_s=120.0)
            fired = [w for w in due if w.work_s is not None]
            late = [w.began - w.due for w in fired if w.began is not None]
            work = [w.work_s for w in fired if w.work_s is not None]
            late_p99, late_max, work_p99 = percentile(late, 0.99), max(late, default=0.0), percentile(work, 0.99)
            print(f"{len(due)} timers due in the first hour, {len(fired)} fired; lateness p50 "
                  f"{percentile(late, 0.5):.2f} s, p99 {late_p99:.2f} s, max {late_max:.2f} s (the bot's clock); "
                  f"work p50 {percentile(work, 0.5) * 1000:.0f} ms, p99 {work_p99 * 1000:.0f} ms (wall); "
                  f"the hour took {wall + args.calm:.0f} s of wall time; "
                  f"{len(bot.sessions.tables)} tables loaded now")
            whole = rss_mib()
            dropped = forget_the_fakes_record(fake)
            end = rss_mib()
            print(f"resident memory after the hour: {whole:.0f} MiB with the fake Discord's record of it "
                  f"({dropped:.0f} MiB of pictures sent), {end:.0f} MiB without")
            hour = (f" timers_due={len(due)} fired={len(fired)} late_p99_s={late_p99:.2f} late_max_s={late_max:.2f}"
                    f" work_p99_s={work_p99:.3f} hour_wall_s={wall + args.calm:.0f} speed={args.speed:g}"
                    f" rss_end_mib={end:.0f} loaded_end={len(bot.sessions.tables)}")
        await fake.stop(bot)
        await store.close()
    print(f"cold_start tables={args.tables} connected_s={connected:.2f} first_answer_s={answered:.2f} "
          f"rss_mib={memory:.0f} pace={args.pace}{hour}")


if __name__ == "__main__":
    asyncio.run(main())
