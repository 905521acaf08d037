"""Temple Table, a Discord board-game bot: the composition root, and only that.

Reads the configuration from the environment (``.env`` via python-dotenv), opens the store
(SQLite by default, PostgreSQL with ``DATABASE_URL``) and migrates it, builds the bot (one shard,
or the shards ``SHARD_IDS`` of ``SHARD_COUNT``) with its session layer and hub, loads the cogs from
one list, registers the persistent buttons and syncs the slash commands. Tables are not loaded at
start-up: while the gateway connects, the session restores every timer with one query, and a table
is loaded by its first click, command or timer.

    python bot.py            run the bot (needs DISCORD_TOKEN)
    python bot.py --sync     run the bot, syncing the slash commands to Discord even if unchanged
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import logging
import os
import signal
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import discord
from discord.ext import commands
from dotenv import find_dotenv, load_dotenv

from cogs import drawing
from cogs.i18n import t
from cogs.i18n.commands import CatalogueTranslator
from cogs.table import buttons, lobby, resign
from cogs.table.coordination import coordinator_for
from cogs.table.gate import Tree, answer_unclaimed
from cogs.table.hub import TableBot, TableHub
from cogs.table.listener import TableListener
from cogs.table.outbox import Budget
from cogs.table.storage import StoreRepository
from cogs.table.sync import place_commands, sync_commands
from db.startup import CannotOpen, open_store
from db.store import Store
from db.urls import URL_SCHEMES
from engine.clock import Clock, SystemClock
from engine.core import THINKING_S
from engine.session import AiPool, Sessions, Settings, default_workers
from engine.session.games import SPECS

EXTENSIONS: tuple[str, ...] = ("cogs.incan_gold.cog", "cogs.sakkara.cog", "cogs.indus.cog", "cogs.leaderboard.cog",
                              "cogs.settings.cog", "cogs.help.cog", "cogs.tables.cog")
"""Every cog the bot loads, in order."""

log = logging.getLogger("temple_table")


@dataclass(frozen=True)
class Config:
    """The bot's configuration; every value comes from the environment (see .env.example)."""

    token: str | None
    database_path: str = "data/temple_table.sqlite3"
    database_url: str | None = None  # postgresql://... (or sqlite:///path); overrides database_path
    shard_ids: tuple[int, ...] | None = None  # this process's shards (None: discord.py's single shard)
    shard_count: int | None = None
    ai_workers: int = 0  # from the environment: one per core beyond the first (AI_WORKERS)
    ai_budget_s: float = 10.0
    ai_think_s: float = THINKING_S
    draw_workers: int = 0  # from the environment: 1 (DRAW_WORKERS; 0: the drawing thread, as tests do)
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    sync_commands: bool = True  # when the command tree changed (a hash in the database says)
    force_sync: bool = False  # python bot.py --sync: sync now, changed or not
    decision_timeout_s: float = 120.0
    reminder_before_s: float = 30.0
    ai_delay_s: float = 1.5
    rest_per_second: float = 50.0  # this process's share of the bot token's 50 requests/s
    rate_limited: bool = True  # keep within Discord's budgets (off only for tests and the offline demo)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        """Return the configuration from ``env``; a malformed value raises ValueError naming it."""
        env = os.environ if env is None else env

        def number(name: str, default: float, low: float, high: float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(f"{name} must be a number, got {raw!r}") from None
            if not low <= value <= high:
                raise ValueError(f"{name} must be between {low:g} and {high:g}, got {raw}")
            return value

        budget = number("AI_BUDGET_S", cls.ai_budget_s, 0.5, 120)
        shard_ids, shard_count = _shards(env.get("SHARD_IDS", ""), env.get("SHARD_COUNT", ""))
        url = env.get("DATABASE_URL", "").strip() or None
        if url is not None:
            _check_url(url)
        workers = env.get("AI_WORKERS", "").strip()
        if workers and not workers.isdigit():
            raise ValueError(f"AI_WORKERS must be a whole number (0: no worker processes), got {workers!r}")
        drawers = env.get("DRAW_WORKERS", "").strip()
        if drawers and not drawers.isdigit():
            raise ValueError(f"DRAW_WORKERS must be a whole number (0: a thread of the bot's process), got {drawers!r}")
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise ValueError(f"DEV_GUILD_ID must be a server id (digits), got {guild!r}")
        level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise ValueError(f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, got {level!r}")
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_path=env.get("DATABASE_PATH", "").strip() or cls.database_path,
            database_url=url,
            shard_ids=shard_ids,
            shard_count=shard_count,
            ai_workers=int(workers) if workers else default_workers(),
            ai_budget_s=budget,
            ai_think_s=_think_s(number("AI_THINK_S", 0, 0.1, 30), budget),
            draw_workers=int(drawers) if drawers else 1,
            log_level=level,
            dev_guild_id=int(guild) if guild else None,
            sync_commands=env.get("SYNC_COMMANDS", "true").strip().lower() not in ("0", "false", "no"),
            decision_timeout_s=number("DECISION_TIMEOUT_S", cls.decision_timeout_s, 10, 3600),
            reminder_before_s=number("REMINDER_BEFORE_S", cls.reminder_before_s, 0, 600),
            ai_delay_s=number("AI_DELAY_S", cls.ai_delay_s, 0, 30),
            rest_per_second=number("REST_PER_SECOND", cls.rest_per_second, 1, 50),
        )


def _check_url(url: str) -> None:
    """Raise ValueError when DATABASE_URL is not a URL the store can open; the message never shows
    the URL itself (it may carry a password)."""
    if not url.startswith(URL_SCHEMES):
        raise ValueError(f"DATABASE_URL must start with postgresql:// or sqlite://, got {url.split(':')[0]!r}")
    if url.startswith("sqlite://"):
        return
    try:
        urlsplit(url).port  # noqa: B018 - reading it checks it: asyncpg would fail on it with a traceback
    except ValueError as exc:
        raise ValueError(f"DATABASE_URL is not a valid URL ({exc}): the form is "
                         "postgresql://user:password@host:port/database") from None


def _think_s(think_s: float, budget_s: float) -> float:
    """Return the thinking time of a searching bot: AI_THINK_S (0: unset), within AI_BUDGET_S.

    Past AI_BUDGET_S a seat's move is replaced by the game's safe default, so thinking must leave
    room for a busy worker: at most half of it. Unset, it is 1 s, or half a smaller budget.
    """
    if not think_s:
        return min(THINKING_S, budget_s / 2)
    if think_s * 2 > budget_s:
        raise ValueError(f"AI_THINK_S ({think_s:g}) must be at most half of AI_BUDGET_S ({budget_s:g})")
    return think_s


def _shards(ids: str, count: str) -> tuple[tuple[int, ...] | None, int | None]:
    """Return (shard ids, shard count) from SHARD_IDS ("0,1") and SHARD_COUNT ("4"); both or neither."""
    ids, count = ids.strip(), count.strip()
    if not ids and not count:
        return None, None
    if not count.isdigit() or int(count) < 1:
        raise ValueError(f"SHARD_COUNT must be a positive whole number, got {count!r}")
    total = int(count)
    if not ids:
        return tuple(range(total)), total  # every shard in this one process (AutoShardedBot)
    try:
        found = tuple(sorted({int(part) for part in ids.split(",") if part.strip()}))
    except ValueError:
        raise ValueError(f"SHARD_IDS must be shard numbers separated by commas, got {ids!r}") from None
    if not found or any(not 0 <= shard < total for shard in found):
        raise ValueError(f"SHARD_IDS must name shards 0 to {total - 1}, got {ids!r}")
    return found, total


# Libraries whose DEBUG lines carry payloads (SQL parameters, request bodies, gateway events):
# a secret choice or a private prompt would reach the log before the reveal, so they stay quieter.
QUIET_LOGGERS: dict[str, int] = {
    "aiosqlite": logging.WARNING,
    "asyncpg": logging.WARNING,
    "discord.http": logging.INFO,
    "discord.webhook": logging.INFO,
    "discord.gateway": logging.INFO,
    "discord.client": logging.INFO,
}


def configure_logging(level: str) -> None:
    """Log to stderr at ``level``, never below INFO for loggers that would print secrets."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for name, floor in QUIET_LOGGERS.items():
        logging.getLogger(name).setLevel(max(floor, logging.getLevelName(level)))


GC_THRESHOLDS = (700, 10, 1000)
"""Python's defaults are (700, 10, 10). A full collection walks every live object and, measured
with 1,000 live tables (bench/bot_latency.py), took 0.3-0.6 s every few seconds: the whole p99.
Young collections stay as frequent as by default; full ones become a hundred times rarer."""


def configure_gc() -> None:
    """Freeze what start-up built (never garbage) and make full collections rare (see GC_THRESHOLDS)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


SHUTDOWN_GRACE_S = 5.0
"""How long a clean shutdown waits for clicks and timers being handled. Docker's `docker stop`
waits 10 s after SIGTERM before it kills: closing the gateway and the store fits in the rest."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""What stops the bot cleanly: `docker stop` (SIGTERM, the Dockerfile's STOPSIGNAL) and Ctrl+C."""

INTENTS = discord.Intents(guilds=True, guild_messages=True)
"""What the bot asks Discord for. Slash commands and button clicks arrive with every intent off;
the guilds intent keeps servers and channels in discord.py's cache (channel permissions, a
command's guild). Server messages (not privileged; without the message content intent Discord
sends a message's text only when it mentions the bot) are there so an @mention gets an answer
pointing to /help. No reaction, typing, voice, presence, member or DM-message events are needed:
Intents.default() would stream all of those to the bot and have them parsed for nothing."""


class Bot(TableBot):
    """The bot with its setup hook: cogs, persistent buttons, command sync; timers once connected."""

    def __init__(self, store: Store, config: Config, clock: Clock | None = None, **options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=INTENTS,
                         tree_cls=Tree, help_command=None, chunk_guilds_at_startup=False, **options)
        self.config = config
        self.store = store
        repo = StoreRepository(store)
        self.hub = TableHub(self, store, Budget(per_second=config.rest_per_second) if config.rate_limited else None,
                            repo)
        self.add_listener(self.hub.on_interaction, "on_interaction")
        settings = Settings(config.decision_timeout_s, config.reminder_before_s, config.ai_delay_s,
                            ai_budget_s=config.ai_budget_s,
                            ai_name=lambda level, number: t("lobby.ai_name", level=t(f"level.{level}").capitalize(),
                                                                     number=number))
        self.sessions = Sessions(repo, SPECS, TableListener(self.hub), clock or SystemClock(),
                                 settings, coordinator=coordinator_for(store, config.shard_ids, config.shard_count),
                                 ai=AiPool(SPECS, workers=config.ai_workers, budget_s=config.ai_budget_s,
                                          think_s=config.ai_think_s))
        self._opening: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        """Load cogs, register buttons, start restoring the timers, sync commands (see the module doc)."""
        drawing.draw_apart(self.config.draw_workers)  # board pictures in their own process(es)
        for extension in EXTENSIONS:
            try:
                await self.load_extension(extension)
            except commands.ExtensionError:
                log.exception("cog %s failed to load", extension)
                raise
        self.add_dynamic_items(*buttons.DYNAMIC_ITEMS, *lobby.DYNAMIC_ITEMS, *resign.DYNAMIC_ITEMS)
        self._opening = asyncio.create_task(self._open_sessions())
        await self.tree.set_translator(CatalogueTranslator())  # command names in fi, sv-SE, it
        wanted = place_commands(self.tree, self.config.dev_guild_id)
        if self.config.sync_commands or self.config.force_sync:
            await sync_commands(self.tree, self.store, wanted, force=self.config.force_sync)

    async def on_message(self, message: discord.Message) -> None:
        """Nothing: the bot has no text commands (an @mention is answered by cogs/help). commands.Bot
        would look every mention up as a prefix command and log "help" as an unknown command."""

    async def on_interaction(self, interaction: discord.Interaction[TableBot]) -> None:
        """Answer privately a click no button of the bot took (see cogs.table.gate.answer_unclaimed)."""
        await answer_unclaimed(interaction)

    async def shutdown(self, grace_s: float = SHUTDOWN_GRACE_S) -> None:
        """Stop cleanly: take no more clicks or commands (they are answered "restarting"), let the
        ones being handled and the timers running now finish (their writes, then their answers),
        for at most ``grace_s``; then close (timers, outbox, gateway). The store is the caller's."""
        self.stopping = True
        drained = asyncio.ensure_future(self.sessions.clock.drain())
        pending = {drained, *self.in_flight}
        log.info("shutting down: %d click(s) or command(s) in flight", len(pending) - 1)
        _, late = await asyncio.wait(pending, timeout=grace_s)
        if late:
            # Cut short: a write handed to the store is either committed or not, and a restart
            # replays exactly what was; nothing acknowledged depends on these tasks.
            log.warning("shutting down: %d task(s) still running after %gs are stopped", len(late), grace_s)
            for task in late:
                task.cancel()
            await asyncio.wait(late)
        await self.close()

    async def _open_sessions(self) -> None:
        """Restore every timer from the store (one query) while the gateway connects; tables load on
        demand. Not after READY: discord.py holds READY back while guilds stream in (seconds), and a
        timer's work needs only REST."""
        await self.hub.closed_dms.load()  # before any timer's reminder tries a DM
        await self.sessions.open()
        log.info("timers restored; tables load on their first click, command or timer")
        closed = await self.hub.sweep()  # a running table's leftovers close when it is loaded
        if closed:
            log.info("closed %d message(s) of games that ended while the bot was down", closed)

    async def close(self) -> None:
        """Stop timers and give up their leases, then disconnect (the store is closed by the caller)."""
        if self._opening is not None and not self._opening.done():
            self._opening.cancel()
        await self.sessions.close()
        await self.hub.outbox.close()  # what waits for Discord's budget goes out first
        await self.hub.readers.flush()  # the players' last locales, before the store closes
        await self.hub.closed_dms.flush()  # and who has closed DMs
        drawing.stop_apart()
        await super().close()


class ShardedBot(Bot, commands.AutoShardedBot):
    """The bot running several shards in this process (``SHARD_IDS`` of ``SHARD_COUNT``)."""


def make_bot(store: Store, config: Config, clock: Clock | None = None) -> Bot:
    """Return the bot for ``config``: one shard, or discord.py's AutoShardedBot for the shards named."""
    if config.shard_ids is None:
        return Bot(store, config, clock)
    return ShardedBot(store, config, clock, shard_ids=list(config.shard_ids), shard_count=config.shard_count)


def offline_bot(store: Store, clock: Clock) -> Bot:
    """Return the bot for the offline demo: no token, bot seats act at once."""
    return Bot(store, Config(token=None, ai_delay_s=0.0, rate_limited=False), clock)  # the fake does not limit


async def serve(bot: Bot, token: str) -> None:
    """Run ``bot`` until Discord ends the session or SIGTERM / SIGINT asks it to stop, then shut it
    down cleanly (see :meth:`Bot.shutdown`); a second signal cuts the grace period short."""
    loop = asyncio.get_running_loop()
    stop, hurry = asyncio.Event(), asyncio.Event()

    def signalled() -> None:
        (hurry if stop.is_set() else stop).set()

    for sig in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError):  # Windows: Ctrl+C stays KeyboardInterrupt
            loop.add_signal_handler(sig, signalled)
    runner = asyncio.ensure_future(bot.start(token))
    waiter = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({runner, waiter}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            log.info("stop signal received")
            shutdown = asyncio.ensure_future(bot.shutdown())
            cut = asyncio.ensure_future(hurry.wait())
            await asyncio.wait({shutdown, cut}, return_when=asyncio.FIRST_COMPLETED)
            if not shutdown.done():
                log.warning("second stop signal: closing without waiting")
                shutdown.cancel()
                await bot.close()
            cut.cancel()
        await runner
    finally:
        waiter.cancel()
        for sig in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError):
                loop.remove_signal_handler(sig)


async def run(config: Config) -> int:
    """Run the bot until it is stopped; return the process's exit code."""
    try:
        store = await open_store(config.database_url or config.database_path)
    except CannotOpen as exc:
        print(f"Database error: {exc}", file=sys.stderr)
        return 2
    try:
        async with make_bot(store, config) as bot:
            await serve(bot, config.token or "")
    except discord.LoginFailure:
        print("DISCORD_TOKEN was refused by Discord: check the token in your .env file.", file=sys.stderr)
        return 2
    finally:
        await store.close()  # after the bot: waits for a write still running, then closes the file
    log.info("stopped")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, then run the bot (the offline demo is ``demo.py``, above the bot)."""
    parser = argparse.ArgumentParser(description="Temple Table: board games on Discord.",
                                     epilog="Offline demo without a token: python demo.py (or ./run.sh --demo).")
    parser.add_argument("--sync", action="store_true",
                        help="sync the slash commands to Discord at this start, changed or not")
    args = parser.parse_args(argv)
    load_dotenv(find_dotenv(usecwd=True))  # the .env of the folder the bot is started from
    try:
        config = Config.from_env()
    except ValueError as exc:
        print(f"Configuration error: {exc} (see .env.example)", file=sys.stderr)
        return 2
    if not config.token:
        print("DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token in it.",
              file=sys.stderr)
        return 2
    if args.sync:
        config = dataclasses.replace(config, force_sync=True)
    configure_logging(config.log_level)
    configure_gc()
    return asyncio.run(run(config))


if __name__ == "__main__":
    sys.exit(main())
