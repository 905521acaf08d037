"""The AI load (``--ai-load N``): N more tables of the game, every seat a Hard bot, playing flat out.

They run on the same bot process as the measured tables, through the same session layer, AI pool,
database and outbox, so their cost lands where a real server's bot-only traffic would. Their bots
act without delay (``--ai-load-delay``, 0 by default: the lowest ``/settings bot_delay`` allows);
with no delay a game is played in one go, each decision in the AI pool, and drawn when it ends.
A finished table opens the next game in its channel, so the load lasts the whole run.

A lobby cannot start without a person (its host), so each lobby is opened by a host who then
gives up the seat: it is handed to a Hard bot just before Start, and the game has no person at it.
Nothing these tables do is counted in the people's figures: their moves (AI decisions, counted as
the pool is asked for them), and their rate-limited calls (their channels and threads) are
reported apart.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.session import SeatSpec

if TYPE_CHECKING:
    from bench.latency.games import GameSetup
    from bot import Bot
    from fakediscord import FakeDiscord

LEVEL = "hard"
SEED_BASE = 10**12  # the load's seeds: apart from the people's tables' (args.seed + table id)


class AiLoad:
    """N bot-only tables kept playing until the run stops."""

    def __init__(self, fake: FakeDiscord, setup: GameSetup, tables: int, delay: float) -> None:
        self.fake, self.setup, self.n_tables, self.delay = fake, setup, tables, delay
        self.seats = setup.humans + len(setup.ai)  # as many seats as the people's tables
        self.channels: dict[int, int] = {}  # channel id -> its host's user id
        self.seeds: set[int] = set()
        self.games = 0  # games started
        self.finished = 0
        self.decisions = 0  # Hard decisions asked of the pool while measuring
        self.limited: Counter[str] = Counter()  # their rate-limited calls while measuring, by kind
        self.measuring = False
        self._tasks: list[asyncio.Task[None]] = []
        self._stop = False
        self._bot: Bot | None = None
        self._pool_over0 = 0

    def prepare(self) -> None:
        """Make the load's channels and hosts in the fake (before the bot starts)."""
        for n in range(self.n_tables):
            channel = self.fake.text_channel(f"ai-load-{n}")
            self.channels[channel.id] = self.fake.user(f"AI-host-{n}").id

    def owns(self, channel_id: int | None) -> bool:
        """Return True for a channel (or thread) of the load's tables."""
        if channel_id is None:
            return False
        if channel_id in self.channels:
            return True
        channel = self.fake.channels.get(channel_id)
        return channel is not None and channel.parent_id in self.channels

    def instrument(self, bot: Bot) -> None:
        """Count the Hard decisions the load's tables ask of the AI pool."""
        self._bot = bot
        pool = bot.sessions.ai
        decide = pool.decide

        async def counting_decide(game: str, state: Any, seed: int, decisions: Any) -> Any:
            if self.measuring and seed in self.seeds:
                self.decisions += len(decisions)
            return await decide(game, state, seed, decisions)

        pool.decide = counting_decide  # type: ignore[method-assign]
        # Each decision past its budget logs a warning: under this load that is a flood; they are counted.
        logging.getLogger("engine.session.ai_pool").setLevel(logging.ERROR)

    def count_call(self, kind: str) -> None:
        """Note one of the load's rate-limited calls."""
        if self.measuring:
            self.limited[kind] += 1

    def start(self) -> None:
        """Start every table's games (after the lobbies of the people's tables are open)."""
        self._tasks = [asyncio.create_task(self._keep_playing(n, channel_id, host))
                       for n, (channel_id, host) in enumerate(self.channels.items())]

    def begin_measuring(self) -> None:
        """Count from now."""
        assert self._bot is not None
        self.measuring, self.decisions = True, 0
        self.limited.clear()
        self._pool_over0 = self._bot.sessions.ai.over_budget

    async def stop(self) -> None:
        """Stop the games (a game in its middle is abandoned with the run)."""
        self.measuring = False
        self._stop = True
        for task in self._tasks:
            task.cancel()
        outcomes = await asyncio.gather(*self._tasks, return_exceptions=True)
        failed = [o for o in outcomes if isinstance(o, Exception)]
        if failed:
            raise failed[0]  # a table that could not be opened or started: the figures would lie

    async def _keep_playing(self, n: int, channel_id: int, host: int) -> None:
        assert self._bot is not None
        sessions = self._bot.sessions
        channel = self.fake.channels[channel_id]
        while not self._stop:
            table = await sessions.create(self.setup.name, channel.guild_id or 0, channel_id,
                                          SeatSpec(f"AI host {n}", user_id=host),
                                          table_options={"ai_delay_s": self.delay})
            for _ in range(self.seats - 1):
                await sessions.add_ai(table.id, host, LEVEL)
            # The host gives the seat up to a Hard bot: start() stores the seats as they are now.
            table.seats[0] = SeatSpec(sessions.settings.ai_name(LEVEL, self.seats), ai_level=LEVEL)
            seed = SEED_BASE + n * 1000 + self.games
            self.seeds.add(seed)
            self.games += 1
            await sessions.start(table.id, host, seed)  # with no delay: the whole game
            while table.status == "playing" and not self._stop:
                await asyncio.sleep(0.5)  # with a delay, the game goes on in its timers
            if table.status == "finished":
                self.finished += 1

    def figures(self, elapsed: float) -> dict[str, Any]:
        """Return the load's figures over the measured ``elapsed`` seconds."""
        assert self._bot is not None
        pool = self._bot.sessions.ai
        return {"tables": self.n_tables, "decisions": self.decisions, "per_s": self.decisions / elapsed,
                "over_budget": pool.over_budget - self._pool_over0, "workers": pool.workers,
                "games": self.games, "finished": self.finished, "limited": sum(self.limited.values())}
