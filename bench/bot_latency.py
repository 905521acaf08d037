"""Latency and REST cost of live Incan Gold tables: the real bot on the in-process fake Discord.

N tables (``--tables 100 1000``) play at once in one process, as the bot would host them: the
real :class:`bot.Bot` with its cogs and session layer, a real file database (WAL, fsync per
commit as in production) in a temporary directory, and :class:`fakediscord.FakeDiscord`
standing in for Discord. Every table is opened through the UI (``/incan new``, two players press
Join, two AI seats are added with the lobby buttons) and has 3 humans + 2 AI seats; the hosts press
Start at random moments of the first ``--stagger`` seconds, and measuring begins after ``--warmup``
seconds, so the tables' cards and timers are spread out as on a real server. Each
human waits for the DM prompt, "thinks" for a random ``--think`` time, then clicks Torch or Camp
(camp when carrying 8+ gems or facing 2 hazards, else torch). AI seats act after ``--ai-delay``
seconds, "k of n have chosen" redraws come from the cog's timer (windows open 30 s or more): both run on the
session clock, a :class:`ManualClock` this script advances in step with the wall clock
(``--tick``), running the timers that came due together, as the real clock would.

Measured per click (from the moment the interaction is injected):

- ack: the interaction's first response (normally the redraw of the pressed prompt itself, after
  the commit; a deferral only when the move takes longer than the bot's 1.5 s guard);
- commit: the action is durably in the database;
- reply: the first message the bot sends or edits after that commit for this click (the
  clicker's prompt, the channel message or the DMs of the next card): "received to reply sent,
  including the database commit";
- settled: every task the click caused has finished (all edits done).

REST calls are classified by route and by what caused them, per revealed card: public edits
(excluding the "k of n" refresh), the refresh edits counted separately, DM edits per human seat
still inside after the card, new messages, and interaction responses (callbacks, @original edits).

Run: ``.venv/bin/python bench/bot_latency.py [--tables 100 1000] [--duration 60] [--think 1 6]``.
Each size is measured for ``--duration`` seconds after the warm-up (tables still playing then are
simply stopped), so a run's length does not depend on how long games last.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import datetime as dt
import gc
import heapq
import json
import os
import platform
import random
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bot import Bot, Config, configure_gc
from db.store import Store
from engine.clock import ManualClock
from engine.incan_gold import GAME
from engine.session import Update
from fakediscord import FakeDiscord, FakeMessage, FakeUser, RestCall

HUMANS = 3
CARRY_ENOUGH, HAZARDS_ENOUGH = 8, 2  # the humans' rule (as in the demo)
TARGET_P99_MS = 50.0
REFRESH_KIND = "public edit, 'k of n' refresh"
DEFER_KIND = "ack only (deferred callback)"
DM_ANSWER_KIND = "DM edit as the click's response (callback)"
STORE_CALLS = ("append_actions", "set_deadline", "set_message", "messages", "deadline", "finish_game", "results",
               "load_game")
"""The store methods whose calls are counted and timed during play."""


# --------------------------------------------------------------------------- bookkeeping


@dataclass
class Click:
    """One button press and the moments that matter, in perf_counter seconds."""

    table: int
    sent: float = 0.0
    acked: float | None = None
    appending: float | None = None  # the session called the store (the table's lock is held)
    committed: float | None = None
    replied: float | None = None
    settled: float | None = None


CLICK: contextvars.ContextVar[Click | None] = contextvars.ContextVar("bench_click", default=None)
"""Set by a human's task before it clicks: every task the click causes inherits it."""

STORE_CALL: contextvars.ContextVar[str] = contextvars.ContextVar("bench_store_call", default="(other)")
"""The store method being awaited (for counting round trips to the SQLite thread)."""

IN_PLAYED: contextvars.ContextVar[bool] = contextvars.ContextVar("bench_played", default=False)
"""True inside the renderer's drawing of an update (a reveal's fan-out of edits)."""

IN_REFRESH: contextvars.ContextVar[bool] = contextvars.ContextVar("bench_refresh", default=False)
"""True inside the cog's "k of n have chosen" redraw."""

_PATH_IDS = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")


@dataclass
class Counts:
    """REST calls by kind, and what they are divided by."""

    calls: Counter[str] = field(default_factory=Counter)
    cards: int = 0
    inside_after_card: int = 0  # sum over revealed cards of human seats still inside (DM prompts owed)
    clicks: int = 0
    store: dict[str, list[float]] = field(default_factory=dict)  # store method -> call durations (s)
    loop_lag: list[float] = field(default_factory=list)  # how late the clock ticker woke up (s)
    round_trips: Counter[str] = field(default_factory=Counter)  # store method -> SQLite thread round trips


class Prompt:
    """A human's current DM prompt: message, decision window and the move buttons."""

    __slots__ = ("buttons", "message_id", "window")

    def __init__(self, message_id: int, window: int, buttons: dict[str, str]) -> None:
        self.message_id, self.window, self.buttons = message_id, window, buttons


class Run:
    """One benchmark run: the fake, the bot, the tables and everything measured."""

    def __init__(self, args: argparse.Namespace, tables: int, workdir: Path) -> None:
        self.args = args
        self.n_tables = tables
        self.workdir = workdir
        self.fake = FakeDiscord(real_time=False, settle_timeout=600.0)
        self.clock = BenchClock()
        self.counts = Counts()
        self.clicks: list[Click] = []
        self.prompts: dict[int, Prompt] = {}
        self.wake: dict[int, asyncio.Event] = {}
        self.dm_owner: dict[int, int] = {}  # DM channel id -> user id
        self.guild_channels: set[int] = set()
        self.finished_channels: set[int] = set()
        self.stop = False
        self.measuring = False  # set after the warm-up
        self.stopping = asyncio.Event()
        self.table_of_channel: dict[int, list[int]] = {}  # channel id -> the table's human user ids
        self.bot: Bot | None = None

    # ------------------------------------------------------------------ fake listeners

    def on_message(self, kind: str, message: FakeMessage) -> None:
        """Track DM prompts (to wake the human), finished tables and edits that change nothing."""
        if kind == "edit" and message.history and _same(message.history[-1], message.data):
            self.counts.calls["  of which unchanged (" + ("refresh" if IN_REFRESH.get() else "other") + ")"] += 1
        message.history.clear()  # only the last version is needed: keeps memory flat
        if kind == "delete":
            return
        owner = self.dm_owner.get(message.channel_id)
        if owner is None:
            if message.channel_id in self.guild_channels and any(
                    c.startswith("rematch:") for c in message.custom_ids):
                self.finished_channels.add(message.channel_id)
                table = self.table_of_channel.get(message.channel_id)
                if table is not None:
                    for user_id in table:
                        self.wake[user_id].set()
            return
        buttons = {}
        window = -1
        for custom_id in message.custom_ids:
            if custom_id.startswith("act:"):
                _, _, win, code = custom_id.split(":", 3)
                buttons[json.loads(code)] = custom_id
                window = int(win)
        if buttons:
            self.prompts[owner] = Prompt(message.id, window, buttons)
            self.wake[owner].set()

    def on_call(self, call: RestCall) -> None:
        """Classify a REST call and stamp the click that caused it."""
        kind = self.kind_of(call)
        self.counts.calls[kind] += 1
        click = CLICK.get()
        if click is not None and click.committed is not None and click.replied is None \
                and kind != DEFER_KIND:
            click.replied = call.at

    def kind_of(self, call: RestCall) -> str:
        """Return the call's category for the table of REST costs."""
        route, method = call.route, call.method
        if route.endswith("/callback"):
            deferred = isinstance(call.payload, dict) and call.payload.get("type") in (5, 6)
            if deferred:
                return DEFER_KIND
            # Inside the renderer's reveal: the clicker's next-card prompt, sent as the click's answer.
            return DM_ANSWER_KIND if IN_PLAYED.get() else "interaction response (callback with the redraw)"
        if "/webhooks/" in route:
            return "interaction reply (followup / @original edit)"
        match = _PATH_IDS.match(call.path)
        if match is None:
            return f"other {method} {route}"
        dm = int(match[1]) in self.dm_owner or int(match[1]) not in self.guild_channels
        where = "DM" if dm else "public"
        if method == "POST":
            return f"{where} new message"
        if method == "PATCH":
            if not dm and IN_REFRESH.get():
                return REFRESH_KIND
            return f"{where} edit"
        return f"{where} {method}"

    # ------------------------------------------------------------------ wrappers around the bot

    def instrument(self, bot: Bot) -> None:
        """Stamp commits, time the store, count revealed cards, mark refresh redraws (instances only)."""
        for name in STORE_CALLS:
            setattr(bot.store, name, self.timed(name, getattr(bot.store, name)))
        # Every statement is one hop to aiosqlite's thread and back (Connection._execute): count them
        # per store method, since the store's lock is held across all hops of a call.
        connection = bot.store._db
        execute: Callable[..., Awaitable[Any]] = connection._execute

        async def counted_execute(fn: Any, *a: Any, **k: Any) -> Any:
            self.counts.round_trips[STORE_CALL.get()] += 1
            return await execute(fn, *a, **k)

        connection._execute = counted_execute  # type: ignore[method-assign]
        store_append = bot.store.append_actions

        async def append_actions(*a: Any, **k: Any) -> int:
            click = CLICK.get()
            if click is not None and click.appending is None:
                click.appending = time.perf_counter()
            result = await store_append(*a, **k)
            if click is not None and click.committed is None:
                click.committed = time.perf_counter()
            return result

        bot.store.append_actions = append_actions  # type: ignore[method-assign]

        hub = bot.hub
        listener = bot.sessions.listener
        played = listener.played

        async def counting_played(update: Update) -> None:
            cards = sum(1 for e in update.events if e["type"] == "card")
            self.counts.cards += cards
            if cards:
                self.counts.inside_after_card += len(update.table.humans_owing())
            token = IN_PLAYED.set(True)
            try:
                await played(update)
            finally:
                IN_PLAYED.reset(token)

        listener.played = counting_played  # type: ignore[method-assign]

        renderer = hub.renderers["incan_gold"]
        refresh = renderer.refresh

        async def marked_refresh(*a: Any) -> None:
            token = IN_REFRESH.set(True)
            try:
                await refresh(*a)
            finally:
                IN_REFRESH.reset(token)

        renderer.refresh = marked_refresh  # type: ignore[method-assign, assignment]

        start = bot.sessions.start

        async def seeded_start(table_id: int, user_id: int, seed: int | None = None) -> Any:
            return await start(table_id, user_id, self.args.seed + table_id if seed is None else seed)

        bot.sessions.start = seeded_start  # type: ignore[method-assign]

        if self.args.skip_deadline_writes:
            async def no_deadline(*a: Any, **k: Any) -> None:
                return None

            bot.sessions.repo.set_deadline = no_deadline  # type: ignore[method-assign]

    def timed(self, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        """Return ``method`` recording how long each call took (waiting for the store's lock included)."""

        async def call(*a: Any, **k: Any) -> Any:
            started = time.perf_counter()
            token = STORE_CALL.set(name)
            try:
                return await method(*a, **k)
            finally:
                STORE_CALL.reset(token)
                self.counts.store.setdefault(name, []).append(time.perf_counter() - started)

        return call

    # ------------------------------------------------------------------ the run

    async def main(self) -> dict[str, Any]:
        """Open the tables, play for --duration seconds, and return the measurements."""
        args = self.args
        fake = self.fake
        with fake:
            fake.add_message_listener(self.on_message)
            fake.add_listener(self.on_call)
            channels = [fake.text_channel(f"table-{n}") for n in range(self.n_tables)]
            self.guild_channels = {c.id for c in channels}
            seats = [[fake.user(f"P{n}-{k}") for k in range(HUMANS)] for n in range(self.n_tables)]
            self.table_of_channel = {c.id: [u.id for u in us] for c, us in zip(channels, seats, strict=True)}
            for users in seats:
                for user in users:
                    self.wake[user.id] = asyncio.Event()
                    self.dm_owner[fake.dm_channel(user).id] = user.id
            path = ":memory:" if args.memory else str(self.workdir / f"bench-{self.n_tables}.sqlite3")
            store = await Store.open(path, synchronous=args.synchronous)
            config = Config(token=None, sync_commands=False, ai_delay_s=args.ai_delay,
                            decision_timeout_s=3600.0, reminder_before_s=0.0)
            bot = Bot(store, config, self.clock)
            self.bot = bot
            try:
                await fake.start(bot)
                self.instrument(bot)  # after start: the cog registers its renderer in setup_hook
                return await self.play(seats, channels)
            finally:
                if bot in fake.bots:
                    await fake.stop(bot)
                await store.close()
                gc.unfreeze()

    async def play(self, seats: list[list[FakeUser]], channels: list[Any]) -> dict[str, Any]:
        """Open every table, then let the humans and the clock play for --duration seconds."""
        args, fake = self.args, self.fake
        opened = time.perf_counter()
        sem = asyncio.Semaphore(50)

        async def open_one(channel: Any, users: list[FakeUser]) -> Callable[[], Awaitable[Any]]:
            async with sem:
                return await self.open_table(channel, users)

        starts = await asyncio.gather(*(open_one(c, us) for c, us in zip(channels, seats, strict=True)))
        setup_s = time.perf_counter() - opened
        fake.rest_calls.clear()
        configure_gc()  # as bot.main does at start-up (here after the fake's world and the lobbies exist)
        ticker = asyncio.create_task(self.tick())
        # Tables start at random moments of the warm-up, as tables on a real server do: started all
        # at once, their AI turns and timers would come due together, card after card.
        rng = random.Random(args.seed)
        starters = [asyncio.create_task(self.start_after(rng.uniform(0, args.stagger), start)) for start in starts]
        humans = [asyncio.create_task(self.human(user, random.Random(args.seed * 7919 + user.id)))
                  for users in seats for user in users]
        began, cpu0 = time.perf_counter(), time.process_time()
        try:
            await asyncio.sleep(args.warmup)
            self.counts = Counts()  # lobby traffic and the warm-up are not measured
            self.measuring = True
            began = time.perf_counter()
            cpu0 = time.process_time()
            await asyncio.sleep(args.duration)
        finally:
            self.stop = True
            elapsed = time.perf_counter() - began
            cpu = time.process_time() - cpu0
            self.stopping.set()
            for event in self.wake.values():
                event.set()
            await asyncio.gather(*humans, *starters, ticker, return_exceptions=True)
        for task in [*humans, *starters, ticker]:
            if task.exception() is not None:
                raise task.exception()  # type: ignore[misc]
        return {"setup_s": setup_s, "elapsed": elapsed, "cpu": cpu, "finished": len(self.finished_channels)}

    async def start_after(self, delay: float, start: Callable[[], Awaitable[Any]]) -> None:
        """Press a table's Start button after ``delay`` seconds (unless the run is over by then)."""
        try:
            await asyncio.wait_for(self.stopping.wait(), delay)
        except TimeoutError:
            await start()

    async def open_table(self, channel: Any, users: list[FakeUser]) -> Callable[[], Awaitable[Any]]:
        """Open a table through the UI: /incan new, Join x2, Add bot x2; return its Start press."""
        fake = self.fake
        host, *others = users
        await fake.slash(host, channel, "incan new")
        lobby = next(m for m in fake.channel_messages(channel) if any(c.startswith("lobby:") for c in m.custom_ids))

        def button(op: str) -> str:
            return next(c for c in lobby.custom_ids if c.startswith("lobby:") and c.endswith(f":{op}"))

        for user in others:
            await fake.click(user, lobby, button("join"))
        for level in self.args.ai:
            await fake.click(host, lobby, button(f"ai-{level}"))
        start = button("start")
        return lambda: fake.click(host, lobby, start)

    async def tick(self) -> None:
        """Advance the session clock with the wall clock, running the timers that came due."""
        last = time.perf_counter()
        while not self.stop:
            slept = time.perf_counter()
            await asyncio.sleep(self.args.tick)
            now = time.perf_counter()
            self.counts.loop_lag.append(now - slept - self.args.tick)
            await self.fake.run(self.clock.advance_together, now - last)
            last = now
            self.fake.rest_calls.clear()  # counted by the listener already

    async def human(self, user: FakeUser, rng: random.Random) -> None:
        """Wait for a prompt, think, click; until the run stops or the table is finished."""
        assert self.bot is not None
        fake, wake = self.fake, self.wake[user.id]
        sessions = self.bot.sessions
        done_window = -1
        while not self.stop:
            prompt = self.prompts.get(user.id)
            if prompt is None or prompt.window <= done_window:
                wake.clear()
                await wake.wait()
                continue
            try:
                await asyncio.wait_for(self.stopping.wait(), rng.uniform(*self.args.think))
                return  # the run is over
            except TimeoutError:
                pass  # thought long enough: click
            prompt = self.prompts[user.id]
            table_id = int(next(iter(prompt.buttons.values())).split(":")[1])
            table = sessions.tables.get(table_id)
            if table is None:
                return  # finished
            seat = table.seat_of(user.id)
            view = GAME.view(table.state, seat)
            hazards = len(view["hazards_seen"])
            choice = "camp" if view["you"]["carried"] >= CARRY_ENOUGH or hazards >= HAZARDS_ENOUGH else "torch"
            click = Click(table_id)
            measured = self.measuring  # a click sent during the warm-up is not measured
            CLICK.set(click)
            click.sent = time.perf_counter()
            record = await fake.click(user, prompt.message_id, prompt.buttons[choice])
            click.settled = time.perf_counter()
            click.acked = record.acked_at
            CLICK.set(None)
            if measured:
                self.clicks.append(click)
                self.counts.clicks += 1
            done_window = prompt.window


def _same(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Return True when an edit left what a reader sees unchanged."""
    return all(before.get(k) == after.get(k) for k in ("content", "embeds", "components", "attachments"))


class BenchClock(ManualClock):
    """A ManualClock whose timers that come due in one step run together (as on a real loop)."""

    async def advance_together(self, seconds: float) -> None:
        """Move time forward and run every timer due by then concurrently; repeat for timers they arm."""
        target = self.time + seconds
        self.time = target
        while self._queue and self._queue[0][0] <= target:
            due: list[Callable[[], Awaitable[None]]] = []
            while self._queue and self._queue[0][0] <= target:
                _, _, handle, callback = heapq.heappop(self._queue)
                if not handle.cancelled:
                    due.append(callback)
            await asyncio.gather(*(c() for c in due))


# --------------------------------------------------------------------------- report


def pct(samples: list[float], q: float) -> float:
    """Return the q-quantile (nearest rank) of samples in milliseconds; nan when empty."""
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def report(tables: int, run: Run, meta: dict[str, Any]) -> None:
    """Print the latency table and the REST cost per revealed card for one size."""
    clicks = [c for c in run.clicks if c.settled is not None]
    rows = {
        "ack (the click's callback)": [c.acked - c.sent for c in clicks if c.acked is not None],
        "store called (table lock held)": [c.appending - c.sent for c in clicks if c.appending is not None],
        "commit": [c.committed - c.sent for c in clicks if c.committed is not None],
        "reply after commit": [c.replied - c.sent for c in clicks if c.replied is not None],
        "settled (all edits done)": [c.settled - c.sent for c in clicks if c.settled is not None],
    }
    counts = run.counts
    print(f"\n## {tables} tables ({HUMANS} humans + {len(run.args.ai)} AI seats: {', '.join(run.args.ai)})")
    print(f"opened in {meta['setup_s']:.1f} s; started over {run.args.stagger:g} s; after {run.args.warmup:g} s of "
          f"warm-up, measured {meta['elapsed']:.1f} s (CPU {meta['cpu']:.1f} s); "
          f"{len(clicks)} clicks ({len(clicks) / meta['elapsed']:.0f}/s), {counts.cards} cards revealed "
          f"({counts.cards / meta['elapsed']:.0f}/s), {meta['finished']} games finished")
    print(f"\n{'per click, from injection':<30} {'n':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, samples in rows.items():
        print(f"{name:<30} {len(samples):>7} {pct(samples, 0.5):>8.1f} {pct(samples, 0.99):>8.1f} "
              f"{pct(samples, 1.0):>8.1f}")
    reply = rows["reply after commit"]
    p99 = pct(reply, 0.99)
    verdict = "met" if p99 < TARGET_P99_MS else "MISSED"
    print(f"target p99 reply < {TARGET_P99_MS:.0f} ms: {verdict} ({p99:.1f} ms)")
    late = sum(1 for s in rows["ack (the click's callback)"] if s > 3.0)
    if late:
        print(f"WARNING: {late} acknowledgements later than Discord's 3 s window (the user would see a failure)")
    cards = max(counts.cards, 1)
    inside = max(counts.inside_after_card, 1)
    print(f"\n{'REST calls':<48} {'total':>8} {'per card':>9} {'per seat-card':>14}")
    for kind, total in sorted(counts.calls.items()):
        per_seat = f"{total / inside:>14.2f}" if kind.startswith("DM") else " " * 14
        if kind.startswith("ack") or kind.startswith("interaction"):
            per_seat = f"{total / max(counts.clicks, 1):>10.2f}/click"
        print(f"{kind:<48} {total:>8} {total / cards:>9.2f} {per_seat}")
    print(f"\n{'database calls (lock wait included)':<38} {'n':>7} {'per card':>9} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'hops/call':>10}")
    for name, samples in sorted(counts.store.items()):
        hops = counts.round_trips[name] / max(len(samples), 1)
        print(f"{name:<38} {len(samples):>7} {len(samples) / cards:>9.2f} {pct(samples, 0.5):>8.1f} "
              f"{pct(samples, 0.99):>8.1f} {hops:>10.1f}")
    total_hops = sum(counts.round_trips.values())
    print(f"round trips to the SQLite thread: {total_hops} ({total_hops / cards:.1f} per card, "
          f"{total_hops / meta['elapsed']:.0f}/s), each holding the store's lock")
    lag = counts.loop_lag
    print(f"event loop lag (clock ticker woke late by): p50 {pct(lag, 0.5):.1f} ms, p99 {pct(lag, 0.99):.1f} ms, "
          f"max {pct(lag, 1.0):.1f} ms")
    print(f"(cards: {counts.cards}; human seats still inside after a card, summed: {counts.inside_after_card}; "
          f"clicks: {counts.clicks})")
    public = counts.calls["public edit"]
    dm = counts.calls["DM edit"] + counts.calls[DM_ANSWER_KIND]
    refreshes = counts.calls[REFRESH_KIND]
    print(f"target per card: <= 1 public edit (got {public / cards:.2f}, plus {refreshes / cards:.2f} "
          f"'k of n' refreshes) and <= 1 DM edit per seat inside (got {dm / inside:.2f}, "
          f"answers to clicks included)")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Return the command-line options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 1000], help="table counts to run")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play per size")
    parser.add_argument("--think", type=float, nargs=2, default=[1.0, 6.0], metavar=("MIN", "MAX"),
                        help="a human's decision time, uniform in [MIN, MAX] seconds")
    parser.add_argument("--stagger", type=float, default=20.0,
                        help="tables start at uniform random moments in the first S seconds")
    parser.add_argument("--warmup", type=float, default=30.0,
                        help="seconds of play before measuring starts (lets the tables drift apart)")
    parser.add_argument("--ai", nargs="+", default=["medium", "easy"], help="the AI seats' levels")
    parser.add_argument("--ai-delay", type=float, default=1.5, help="seconds before an AI seat acts")
    parser.add_argument("--tick", type=float, default=0.02, help="session clock step, seconds")
    parser.add_argument("--synchronous", choices=["FULL", "NORMAL"], default="FULL",
                        help="the database's fsync policy (the bot uses FULL)")
    parser.add_argument("--memory", action="store_true",
                        help="diagnosis only: an in-memory database instead of the file (no disk at all)")
    parser.add_argument("--switch-interval", type=float, default=None, metavar="S",
                        help="sys.setswitchinterval for the run (Python's default is 0.005 s)")
    parser.add_argument("--skip-deadline-writes", action="store_true",
                        help="diagnosis only: do not persist decision deadlines (what folding them into the "
                             "append's transaction would save)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="where the temporary database goes")
    return parser.parse_args(argv)


async def amain(argv: list[str] | None = None) -> int:
    """Run every size and print the tables."""
    args = parse_args(argv)
    if len(args.ai) + HUMANS > 8:
        raise SystemExit("at most 8 seats")
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval)
    print(f"# bot latency: {platform.node()} ({os.cpu_count()} cores, {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}), {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC")
    database = ("an IN-MEMORY database (diagnosis only)" if args.memory
                else f"a file database (WAL, synchronous={args.synchronous})")
    if args.skip_deadline_writes:
        database += ", decision deadlines NOT persisted (diagnosis only)"
    print(f"think {args.think[0]:g}-{args.think[1]:g} s, AI delay {args.ai_delay:g} s, {args.duration:g} s of play "
          f"per size, GIL switch interval {sys.getswitchinterval() * 1000:g} ms, {database}")
    for tables in args.tables:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            run = Run(args, tables, Path(tmp))
            meta = await run.main()
            report(tables, run, meta)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(amain()))
