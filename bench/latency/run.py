"""One benchmark run: N tables on the real bot against the fake Discord, people clicking, measured.

The real :class:`bot.Bot` (cogs, session layer, a WAL file database with fsync per commit) hosts
every table in this one process; :class:`fakediscord.FakeDiscord` stands in for Discord. Tables
are opened through the UI (``/<game> new``, Join, Add bot) before anything is measured, with
Discord's limits off (thousands of lobbies would otherwise take minutes at 50 requests/s). Then,
with ``--rate-limited``, the limits go on for the rest of the run, on both sides: the fake
enforces Discord's (50/s global, per-channel buckets, 429s) and the bot's outbox keeps within
its budget. Hosts press Start at random moments of the first ``--stagger`` seconds (by default
20 s, or one second per 20 tables: a server does not start thousands of games at once, and a
start costs a message); measuring begins after ``--warmup`` seconds (the stagger + 10 s) and, with
the limits on, once the start burst has been sent (at most ``--drain`` more seconds: the tables'
starts cost ~6 calls each, 300 tables ~36 s of the 50/s budget, and a minute measured behind that
queue measures the queue, not play); it lasts ``--seconds``.

The session clock is a :class:`BenchClock` moved with the wall clock in small steps (``--tick``);
the rate limits on both sides run on real monotonic time, as discord.py's own sleeps do.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import gc
import random
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.latency.ai_load import AiLoad
from bench.latency.games import GameSetup
from bench.latency.measures import CLICK, HANDED, BenchClock, Click, Tally, cpu_wait_s
from bench.latency.players import Person, Seen
from bot import Bot, configure_gc
from cogs.table.messages.outbox import RestBudget
from db import Store
from engine.core import CHANCE
from engine.session import Table, Update
from fakediscord import FakeDiscord, FakeMessage, FakeUser, RestCall
from fakediscord.ratelimits import RateLimiter, RateLimits
from wiring.config import Config


class Run:
    """One size of one game: the fake, the bot, the tables, the people and everything measured."""

    def __init__(self, args: argparse.Namespace, setup: GameSetup, tables: int, workdir: Path) -> None:
        self.args, self.setup, self.n_tables, self.workdir = args, setup, tables, workdir
        self.stagger = args.stagger if args.stagger is not None else max(20.0, tables / 20)
        self.warmup = args.warmup if args.warmup is not None else self.stagger + 10.0
        self.drained_s = 0.0  # waited after the warm-up for the start burst to be sent
        self.fake = FakeDiscord(real_time=False, settle_timeout=600.0)
        self.clock = BenchClock()
        self.tally = Tally()
        self.clicks: list[Click] = []
        self.seen = Seen()
        self.people: dict[int, Person] = {}
        self.wake: dict[int, asyncio.Event] = {}
        self.users: dict[int, FakeUser] = {}
        self.dm_owner: dict[int, int] = {}  # DM channel id -> user id
        self.table_people: dict[int, list[int]] = {}  # guild channel id -> its people's user ids
        self.awaiting: dict[int, list[Click]] = {}  # channel id -> moves whose public redraw is not out yet
        self.finished: set[int] = set()
        self.stop = False
        self.measuring = False
        self.stopping = asyncio.Event()
        self.limiter: RateLimiter | None = None
        self.invalid_at_start = 0
        self.invalid: Counter[str] = Counter()  # 401/403/429 answers after the tables started, by kind
        self.started = False
        self.bot: Bot | None = None
        self.load = AiLoad(self.fake, setup, args.ai_load, args.ai_load_delay) if args.ai_load else None

    # ------------------------------------------------------------------ what the fake reports

    def on_message(self, kind: str, message: FakeMessage) -> None:
        """Show people their controls, stamp public redraws, notice finished tables."""
        message.history.clear()  # only the last version is needed: keeps memory flat
        if kind == "delete":
            return
        now = time.perf_counter()
        if message.ephemeral_to is not None:
            self._show(("eph", message.ephemeral_to), message, [message.ephemeral_to])
            return
        owner = self.dm_owner.get(message.channel_id)
        if owner is not None:
            self._show(("dm", owner), message, [owner])
            return
        people = self.table_people.get(message.channel_id)
        if people is None:
            return  # a thread or another channel: not the table's public message
        waiting = self.awaiting.get(message.channel_id)
        if waiting:
            handed = HANDED.get() or now
            done = [c for c in waiting if c.posted is not None and c.posted <= handed]
            for click in done:
                click.public = now
            self.awaiting[message.channel_id] = [c for c in waiting if c.public is None]
        if any(c.startswith("rematch:") for c in message.custom_ids):
            self.finished.add(message.channel_id)
        self._show(("board", message.channel_id), message, people)

    def _show(self, place: tuple[str, int], message: FakeMessage, user_ids: list[int]) -> None:
        if message.components:
            self.seen.add(place, message)
        for user_id in user_ids:
            self.wake[user_id].set()

    def on_call(self, call: RestCall) -> None:
        """Count rate-limited calls and 429s; stamp the response of the press that caused a callback."""
        if self.started and call.status in (401, 403, 429):
            code = call.response.get("code") if isinstance(call.response, dict) else None
            self.invalid[f"{call.status} {call.method} {call.route} (code {code})"] += 1
        if call.route.endswith("/callback"):
            click = CLICK.get()
            if click is not None and click.acked is None:
                click.acked = call.at
                click.deferred = isinstance(call.payload, dict) and call.payload.get("type") in (5, 6)
            return
        if not self.measuring or RateLimiter.exempt(call.route):
            return
        if self.load is not None and self.load.owns(self.channel_of(call)):
            self.load.count_call(self.kind_of(call))
            return
        if call.status == 429:
            self.tally.r429 += 1
        self.tally.limited[self.kind_of(call)] += 1

    @staticmethod
    def channel_of(call: RestCall) -> int | None:
        """Return the channel a REST call is about, if its path names one."""
        return int(call.path.split("/")[2]) if call.path.startswith("/channels/") else None

    def kind_of(self, call: RestCall) -> str:
        """Return the call's category for the table of rate-limited calls."""
        channel = self.channel_of(call)
        where = "DM" if channel in self.dm_owner else "public" if channel in self.table_people else "other channel"
        if call.route == "/users/@me/channels":
            return "DM opened"
        if call.route.endswith("/threads"):
            return "thread created"
        if call.route == "/channels/{channel_id}/messages":
            return f"{where} message sent"
        if call.route == "/channels/{channel_id}/messages/{message_id}" and call.method == "PATCH":
            return f"{where} message edited"
        return f"{call.method} {call.route}"

    # ------------------------------------------------------------------ wrappers around the bot

    def instrument(self, bot: Bot) -> None:
        """Count moves, stamp when a move's public redraw is asked for and handed over (instances only)."""
        listener = bot.sessions.listener
        played = listener.played
        unit = self.setup.unit

        async def counting_played(update: Update) -> None:
            if self.measuring and not (self.load is not None and self.load.owns(update.table.channel_id)):
                if unit == "card":
                    self.tally.units += sum(1 for e in update.events if e["type"] == "card")
                else:
                    self.tally.units += sum(1 for seat in update.actors if seat != CHANCE)
            await played(update)

        listener.played = counting_played  # type: ignore[method-assign]

        hub = bot.hub
        post = hub.post

        async def traced_post(table: Table, kind: str, **kwargs: Any) -> None:
            click = CLICK.get()
            if click is not None and click.moves and click.posted is None and click.table == table.id:
                click.posted = time.perf_counter()
                self.awaiting.setdefault(table.channel_id, []).append(click)
            await post(table, kind, **kwargs)

        hub.post = traced_post  # type: ignore[method-assign]

        request = bot.http.request

        async def handed_request(*args: Any, **kwargs: Any) -> Any:
            token = HANDED.set(time.perf_counter())
            try:
                return await request(*args, **kwargs)
            finally:
                HANDED.reset(token)

        bot.http.request = handed_request  # type: ignore[method-assign]

        outbox = bot.hub.outbox
        run_call = outbox._run

        ended = outbox.requests_ended
        began_at: contextvars.ContextVar[float] = contextvars.ContextVar("began_at")

        async def timed_run(call: Any) -> None:
            began = time.perf_counter()
            token = began_at.set(began)
            try:
                await run_call(call)
            finally:
                began_at.reset(token)
                if self.measuring:
                    self.tally.on_wire.append(time.perf_counter() - began)

        def timed_end() -> None:
            began = began_at.get(None)
            if began is not None and self.measuring:
                self.tally.requests.append(time.perf_counter() - began)
            ended()

        outbox._run = timed_run  # type: ignore[method-assign]
        outbox.requests_ended = timed_end  # type: ignore[method-assign]

        start = bot.sessions.start

        async def seeded_start(table_id: int, user_id: int, seed: int | None = None, *,
                               origin: object | None = None) -> Any:
            return await start(table_id, user_id, self.args.seed + table_id if seed is None else seed, origin=origin)

        bot.sessions.start = seeded_start  # type: ignore[method-assign]

    # ------------------------------------------------------------------ the run

    async def main(self) -> dict[str, Any]:
        """Open the tables, play, measure; return the run's meta figures."""
        args, fake, setup = self.args, self.fake, self.setup
        with fake:
            fake.add_message_listener(self.on_message)
            fake.add_listener(self.on_call)
            channels = [fake.text_channel(f"table-{n}") for n in range(self.n_tables)]
            seats = [[fake.user(f"P{n}-{k}") for k in range(setup.humans)] for n in range(self.n_tables)]
            rng = random.Random(args.seed)
            for channel, users in zip(channels, seats, strict=True):
                self.table_people[channel.id] = [u.id for u in users]
                for user in users:
                    self.users[user.id] = user
                    self.wake[user.id] = asyncio.Event()
                    self.dm_owner[fake.dm_channel(user).id] = user.id
                    self.people[user.id] = Person(user.id, channel.id, setup, random.Random(rng.random()))
            path = ":memory:" if args.memory else str(self.workdir / f"bench-{self.n_tables}.sqlite3")
            store = await Store.open(path)
            if self.load is not None:
                self.load.prepare()
            config = Config(token=None, sync_commands=False, ai_delay_s=args.ai_delay, ai_workers=args.ai_workers,
                            draw_workers=args.draw_workers,
                            decision_timeout_s=args.decision_timeout, reminder_before_s=args.reminder_before,
                            rate_limited=False)
            bot = Bot(store, config, self.clock)
            self.bot = bot
            try:
                await fake.start(bot)
                self.instrument(bot)  # after start: the cogs register their renderers in setup_hook
                if self.load is not None:
                    self.load.instrument(bot)
                return await self.play(bot, channels, seats)
            finally:
                self.stop = True
                if bot in fake.bots:
                    await fake.stop(bot)
                await store.close()
                gc.unfreeze()

    async def play(self, bot: Bot, channels: list[Any], seats: list[list[FakeUser]]) -> dict[str, Any]:
        """Open every table, turn the limits on, then let people and clock play."""
        args, fake = self.args, self.fake
        opened = time.perf_counter()
        sem = asyncio.Semaphore(50)

        async def open_one(channel: Any, users: list[FakeUser]) -> Callable[[], Awaitable[Any]]:
            async with sem:
                return await self.open_table(channel, users)

        starts = await asyncio.gather(*(open_one(c, us) for c, us in zip(channels, seats, strict=True)))
        setup_s = time.perf_counter() - opened
        if args.rate_limited:
            self.limiter = fake.limit(RateLimits())
            bot.hub.outbox.budget = RestBudget(per_second=args.rest_per_second)
        self.invalid_at_start = fake.invalid_requests
        self.started = True
        fake.rest_calls.clear()
        configure_gc()  # as bot.main does at start-up (here after the fake's world and the lobbies exist)
        ticker = asyncio.create_task(self.tick())
        if self.load is not None:
            self.load.start()
        rng = random.Random(args.seed)
        starters = [asyncio.create_task(self.start_after(rng.uniform(0, self.stagger), start)) for start in starts]
        people = [asyncio.create_task(self.person(person)) for person in self.people.values()]
        began, cpu0 = time.perf_counter(), time.process_time()
        try:
            await asyncio.sleep(self.warmup)
            drain_until = time.perf_counter() + args.drain
            # Less than a second's budget left queued: play, not the start burst, is what is sent.
            while (args.rate_limited and bot.hub.outbox.backlog() > args.rest_per_second
                   and time.perf_counter() < drain_until):
                await asyncio.sleep(0.5)
            self.drained_s = time.perf_counter() - drain_until + args.drain
            self.tally = Tally()
            self.measuring = True
            if self.load is not None:
                self.load.begin_measuring()
            began, cpu0, waited0 = time.perf_counter(), time.process_time(), cpu_wait_s()
            backlog0 = bot.hub.outbox.coalesced
            await asyncio.sleep(args.seconds)
        finally:
            self.measuring = False
            self.stop = True
            elapsed = time.perf_counter() - began
            cpu = time.process_time() - cpu0
            waited1 = cpu_wait_s()
            cpu_wait = waited1 - waited0 if waited0 is not None and waited1 is not None else None
            load = self.load.figures(elapsed) if self.load is not None else None
            if self.load is not None:
                await self.load.stop()
            self.stopping.set()
            for event in self.wake.values():
                event.set()
            await asyncio.gather(*people, *starters, ticker, return_exceptions=True)
        for task in [*people, *starters, ticker]:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        return {"setup_s": setup_s, "elapsed": elapsed, "cpu": cpu, "cpu_wait": cpu_wait,
                "finished": len(self.finished),
                "invalid": fake.invalid_requests - self.invalid_at_start,
                "coalesced": bot.hub.outbox.coalesced - backlog0, "backlog": bot.hub.outbox.backlog(),
                "limiter_429": self.limiter.rate_limited if self.limiter is not None else 0, "load": load}

    async def open_table(self, channel: Any, users: list[FakeUser]) -> Callable[[], Awaitable[Any]]:
        """Open a table through the UI: /<game> new, Join, Add bot; return its Start press."""
        fake = self.fake
        host, *others = users
        await fake.slash(host, channel, f"{self.setup.command} new")
        lobby = next(m for m in fake.channel_messages(channel) if any(c.startswith("lobby:") for c in m.custom_ids))

        def button(op: str) -> str:
            return next(c for c in lobby.custom_ids if c.startswith("lobby:") and c.endswith(f":{op}"))

        for user in others:
            await fake.click(user, lobby, button("join"))
        for level in self.setup.ai:
            await fake.click(host, lobby, button(f"ai-{level}"))
        start = button("start")
        return lambda: fake.click(host, lobby, start)

    async def start_after(self, delay: float, start: Callable[[], Awaitable[Any]]) -> None:
        """Press a table's Start button after ``delay`` seconds (unless the run is over by then)."""
        try:
            await asyncio.wait_for(self.stopping.wait(), delay)
        except TimeoutError:
            await start()
            for person in self.people.values():
                self.wake[person.user_id].set()

    async def tick(self) -> None:
        """Advance the session clock with the wall clock, running the timers that came due."""
        last = time.perf_counter()
        while not self.stop:
            slept = time.perf_counter()
            await asyncio.sleep(self.args.tick)
            now = time.perf_counter()
            if self.measuring:
                self.tally.loop_lag.append(now - slept - self.args.tick)
            await self.fake.run(self.clock.advance_together, now - last)
            last = now
            self.fake.rest_calls.clear()  # counted by the listener already

    async def pause(self, seconds: float) -> bool:
        """Wait ``seconds`` unless the run stops first; return False when it stopped."""
        try:
            await asyncio.wait_for(self.stopping.wait(), seconds)
            return False
        except TimeoutError:
            return True

    async def person(self, person: Person) -> None:
        """Wait for a decision, think, press; until the run stops."""
        assert self.bot is not None
        sessions, wake, args = self.bot.sessions, self.wake[person.user_id], self.args
        rng = person.rng
        while not self.stop:
            table = sessions.tables.get(person.table_id) if person.table_id is not None else None
            if table is None:
                table = self._find_table(person)
            press = person.next_press(table, self.seen) if table is not None else None
            if table is None or press is None:
                wake.clear()
                await wake.wait()
                continue
            think = rng.uniform(*args.think) if person.presses == 0 else rng.uniform(*args.nav_think)
            if not await self.pause(think):
                return
            press = person.next_press(table, self.seen)  # things may have changed meanwhile
            if press is None:
                continue
            click = Click(table.id, time.perf_counter(), press.moves)
            measured = self.measuring
            person.pressed(press)
            token = CLICK.set(click)
            try:
                user = self.users[person.user_id]
                if press.value is None:
                    await self.fake.click(user, press.message, press.custom_id)
                else:
                    await self.fake.select(user, press.message, press.custom_id, [press.value])
            except AssertionError:
                self.tally.failed_presses += 1
            finally:
                CLICK.reset(token)
            if measured:
                self.clicks.append(click)

    def _find_table(self, person: Person) -> Table | None:
        assert self.bot is not None
        table_id = self.bot.sessions.by_channel.get(person.channel_id)  # tables of this run stay loaded
        table = None if table_id is None else self.bot.sessions.loaded(table_id)
        if table is None or table.status not in ("lobby", "playing"):
            return None
        person.table_id = table.id
        return table
