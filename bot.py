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
import signal
import sys
from typing import Any

import discord
from discord.ext import commands
from dotenv import find_dotenv, load_dotenv

from cogs.table.commands.sync import place_commands, sync_commands
from cogs.table.commands.translator import CatalogueTranslator
from cogs.table.controls import buttons, lobby, resign
from cogs.table.controls.gate import Tree, answer_unclaimed
from cogs.table.listener import TableListener
from cogs.table.messages.hub import TableBot, TableHub
from cogs.table.messages.outbox import RestBudget
from db import CannotOpen, Store, open_store
from engine.clock import Clock, SystemClock
from engine.session import AiPool, Sessions, SessionSettings
from engine.session.games import SPECS
from i18n import t
from pictures import drawing
from wiring.config import Config
from wiring.coordination import coordinator_for
from wiring.storage import StoreRepository

EXTENSIONS: tuple[str, ...] = ("cogs.incan_gold.cog", "cogs.sakkara.cog", "cogs.indus.cog", "cogs.leaderboard.cog",
                              "cogs.settings.cog", "cogs.help.cog", "cogs.server_tables.cog", "cogs.notify.cog",
                              "cogs.my_games.cog", "cogs.replay.cog")
"""Every cog the bot loads, in order."""

log = logging.getLogger("temple_table")


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
        repo = StoreRepository(store)
        settings = SessionSettings(config.decision_timeout_s, config.reminder_before_s, config.ai_delay_s,
                                   ai_budget_s=config.ai_budget_s,
                                   ai_name=lambda level, number: t("lobby.ai_name",
                                                                   level=t(f"level.{level}").capitalize(),
                                                                   number=number))

        def hub(bot: TableBot) -> TableHub:
            return TableHub(bot, store, repo,
                            RestBudget(per_second=config.rest_per_second) if config.rate_limited else None)

        def sessions(hub: TableHub) -> Sessions:
            return Sessions(repo, SPECS, TableListener(hub), clock or SystemClock(), settings,
                            coordinator=coordinator_for(store, config.shard_ids, config.shard_count),
                            ai=AiPool(SPECS, workers=config.ai_workers, budget_s=config.ai_budget_s,
                                      think_s=config.ai_think_s))

        # Nothing pings unless its message names exactly whom (a board line naming a player, a
        # display name that looks like a mention): the messages that must notify say so themselves.
        super().__init__(store, hub, sessions, command_prefix=commands.when_mentioned, intents=INTENTS,
                         tree_cls=Tree, help_command=None, chunk_guilds_at_startup=False,
                         allowed_mentions=discord.AllowedMentions.none(), **options)
        self.config = config
        self.add_listener(self.hub.private.on_interaction, "on_interaction")
        # What the bot may do in each channel: told by every interaction, renewed by channel and role changes.
        permissions = self.hub.permissions
        self.add_listener(permissions.on_interaction, "on_interaction")
        self.add_listener(permissions.on_guild_channel_update, "on_guild_channel_update")
        self.add_listener(permissions.on_guild_role_update, "on_guild_role_update")
        self.add_listener(permissions.on_guild_role_delete, "on_guild_role_delete")
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
        """Answer privately a click no button of the bot took (see cogs.table.controls.gate.answer_unclaimed)."""
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
        await self.hub.private.closed_dms.load()  # before any timer's reminder tries a DM
        await self.sessions.open()
        log.info("timers restored; tables load on their first click, command or timer")
        closed = await self.hub.closer.sweep()  # a running table's leftovers close when it is loaded
        if closed:
            log.info("closed %d message(s) of games that ended while the bot was down", closed)

    async def close(self) -> None:
        """Stop timers and give up their leases, then disconnect (the store is closed by the caller)."""
        if self._opening is not None and not self._opening.done():
            self._opening.cancel()
        await self.sessions.close()
        await self.hub.outbox.close()  # what waits for Discord's budget goes out first
        await self.hub.readers.flush()  # the players' last locales, before the store closes
        await self.hub.private.closed_dms.flush()  # and who has closed DMs
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
