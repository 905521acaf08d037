"""Running bots against the fake: start, stop, restart, event injection, and knowing when they are done.

`BotRunner` logs a bot in (real `login` + `setup_hook`) and feeds it READY and GUILD_CREATE (one
READY per shard for an `AutoShardedClient`), with `_FakeGatewaySocket` standing in for its
websocket. Every injected event runs in a fresh `contextvars` context whose collector
(`_COLLECTOR`) a loop task factory fills with every task the event causes, transitively; `_drain`
awaits exactly those (`DEFAULT_IGNORED_COROUTINES` excluded). `ErrorLog` (through its
`ErrorRecorder` handler) collects the ERROR records discord.py logs and swallows, and the
exceptions of tasks nobody awaited, so `check` can fail the test (`expect` allows some).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import logging
import re
import traceback
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import discord

from fakediscord import payloads as p
from fakediscord.objects import FakeDiscordError
from fakediscord.payloads import Json
from fakediscord.world import World

__all__ = ["DEFAULT_IGNORED_COROUTINES", "BotRunner", "ErrorLog", "ErrorRecorder"]

# Coroutines that legitimately outlive the event that started them: awaiting them would hang.
DEFAULT_IGNORED_COROUTINES = (
    "__timeout_task_impl",  # discord.ui.View / Modal timeout sleeper
    "send_message.<locals>.inner_call",  # delete_after on interaction responses
    "edit_message.<locals>.inner_call",
    "delete.<locals>.delete",  # Message.delete(delay=...)
    "Loop._loop",  # discord.ext.tasks background loops
    "Leases._keep",  # the timer leases' renewal loop (several processes on PostgreSQL), lives with the bot
    "Ahead._think",  # a bot's decision started at its turn; its timer (not the click) waits for it
)

_COLLECTOR: contextvars.ContextVar[list[asyncio.Task[Any]] | None] = contextvars.ContextVar(
    "fake_discord_collector", default=None
)


# --------------------------------------------------------------------------------------------
# The stand-in gateway socket of an in-process bot


class _FakeGatewaySocket:
    """What `Client.ws` needs in-process: presence updates are recorded, nothing is sent."""

    def __init__(self, presences: list[Json]) -> None:
        self._presences = presences
        self.open = True
        self.latency = 0.0
        self.shard_id: int | None = None
        self.session_id = "fake-session"
        self.sequence = 0

    async def change_presence(self, *, activity: Any = None, status: Any = None, since: float = 0.0) -> None:
        """Record the presence the bot set."""
        self._presences.append({"activity": activity, "status": status})

    def is_ratelimited(self) -> bool:
        """Never rate limited."""
        return False

    async def close(self, code: int = 1000) -> None:
        """Close the (imaginary) connection."""
        self.open = False

    async def request_chunks(self, *args: Any, **kwargs: Any) -> None:
        """Member chunking needs a real gateway; tests pass chunk_guilds_at_startup=False."""
        raise FakeDiscordError(
            "member chunking is not emulated; build the bot with chunk_guilds_at_startup=False"
        )


class ErrorRecorder(logging.Handler):
    """Collects ERROR records from the `discord` logger (discord.py logs and swallows handler errors)."""

    def __init__(self, log: ErrorLog) -> None:
        super().__init__(logging.ERROR)
        self._log = log
        self._seen: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record; expected ones are matched against `expect_error` patterns."""
        if record in self._seen:  # reached through two watched loggers (a child propagates)
            return
        self._seen.append(record)
        del self._seen[:-64]
        self._log.record(self.format(record) if record.exc_info else record.getMessage())


class ErrorLog:
    """The errors that fail the test: ERROR records discord.py logged and swallowed, and exceptions of
    tasks an event caused; those matching an `expect` pattern are expected instead."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self._expected: list[tuple[re.Pattern[str], list[str]]] = []
        self.recorder = ErrorRecorder(self)  # attached to the watched loggers by `FakeDiscord.install`

    def record(self, text: str) -> None:
        """Keep an error: among the hits of the first `expect` pattern it matches, else as unexpected."""
        for pattern, hits in self._expected:
            if pattern.search(text):
                hits.append(text)
                return
        self.errors.append(text)

    def check(self) -> None:
        """Fail if discord.py logged an unexpected ERROR (an exception a handler swallowed)."""
        if self.errors:
            errors, self.errors = self.errors, []
            raise AssertionError("the bot logged errors:\n\n" + "\n\n".join(errors))

    @contextlib.contextmanager
    def expect(self, pattern: str) -> Iterator[list[str]]:
        """Within the block, errors matching `pattern` are expected (and at least one must occur)."""
        hits: list[str] = []
        entry = (re.compile(pattern), hits)
        self._expected.append(entry)
        try:
            yield hits
        finally:
            self._expected.remove(entry)
        if not hits:
            raise AssertionError(f"expected an error matching {pattern!r}, none was logged")


class BotRunner:
    """Bot lifecycle, event injection and task tracking, against one world; errors go to `errors`."""

    def __init__(self, world: World, errors: ErrorLog, *, patch_http: bool, settle_timeout: float) -> None:
        self.world = world
        self.errors = errors
        self.patch_http = patch_http
        self.settle_timeout = settle_timeout
        self.ignored_coroutines = list(DEFAULT_IGNORED_COROUTINES)
        self.presences: list[Json] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._prev_factory: Any = None

    # ---------------------------------------------------------------- bots

    def current(self, bot: discord.Client | None) -> discord.Client:
        """The bot given, else the last one started."""
        if bot is not None:
            return bot
        if not self.world.bots:
            raise FakeDiscordError("no bot is running: call `await fake.start(bot)` first")
        return self.world.bots[-1]

    async def start(self, bot: discord.Client, *, token: str = "fake-token") -> None:
        """Log the bot in (real `login` + `setup_hook`) and run READY + GUILD_CREATE, without a network."""
        if not self.patch_http:
            raise FakeDiscordError("this FakeDiscord serves a LoopbackServer; use bot.start() there")
        self._install_task_factory()
        state = bot._connection
        # 1 ms instead of 0: the already-queued GUILD_CREATE is consumed, so on_guild_available fires,
        # and no 2-second wait for more guilds happens.
        state.guild_ready_timeout = 0.001
        # Member chunking needs a real websocket.
        state._chunk_guilds = False
        bucket: list[asyncio.Task[Any]] = []
        await self._in_context(bucket, bot.login, token)
        bot.ws = _FakeGatewaySocket(self.presences)  # type: ignore[assignment]
        self.world.bots.append(bot)
        if isinstance(bot, discord.AutoShardedClient):
            # What AutoShardedClient.launch_shards does, minus the websockets: one READY per shard
            # (carrying the gateway's internal `__shard_id__`), GUILD_CREATE on the guild's shard.
            count = bot.shard_count or 1
            bot.shard_count = count
            shard_ids = list(bot.shard_ids) if bot.shard_ids is not None else list(range(count))
            state.shard_count = count
            state.shard_ids = shard_ids  # type: ignore[attr-defined]
            guild_shard = (self.world.guild_id >> 22) % count
            for shard in shard_ids:
                guilds = [self.world.guild_id] if shard == guild_shard else []
                ready = self._ready(guilds, shard=[shard, count])
                self._parse_in(bucket, bot, "READY", {**ready, "__shard_id__": shard})
            if guild_shard in shard_ids:
                guild_create = {**self.world.guild_payload(), "__shard_id__": guild_shard}
                self._parse_in(bucket, bot, "GUILD_CREATE", guild_create)
        else:
            self._parse_in(bucket, bot, "READY", self._ready([self.world.guild_id]))
            self._parse_in(bucket, bot, "GUILD_CREATE", self.world.guild_payload())
        await asyncio.wait_for(bot.wait_until_ready(), timeout=self.settle_timeout)
        await self._drain(bucket)
        self.errors.check()

    def _ready(self, guild_ids: list[int], shard: list[int] | None = None) -> Json:
        ready = p.ready_payload(
            self.world.bot_user.payload(),
            self.world.application_id,
            guild_ids,
            session_id=f"session-{len(self.world.bots)}",
            resume_gateway_url="wss://fake.invalid",
        )
        if shard is not None:
            ready["shard"] = shard
        return ready

    async def stop(self, bot: discord.Client) -> None:
        """Close the bot (as on shutdown); the fake keeps every message, so a new bot can `start`."""
        await bot.close()
        if bot in self.world.bots:
            self.world.bots.remove(bot)
        if not self.world.bots:
            self.restore_task_factory()

    async def restart(self, old: discord.Client, new: discord.Client) -> None:
        """Stop `old` and start `new` against the same fake world (a process restart)."""
        await self.stop(old)
        await self.start(new)

    # ---------------------------------------------------------------- task tracking

    def _install_task_factory(self) -> None:
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        self._loop = loop
        self._prev_factory = loop.get_task_factory()
        loop.set_task_factory(self._task_factory)  # type: ignore[arg-type]

    def restore_task_factory(self) -> None:
        """Give the loop back its own task factory (the last bot stopped, or the fake uninstalled)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.set_task_factory(self._prev_factory)
        self._loop = None
        self._prev_factory = None

    def _task_factory(
        self, loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any
    ) -> asyncio.Task[Any]:
        if self._prev_factory is not None:
            task: asyncio.Task[Any] = self._prev_factory(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        # The creating code's context (set only inside an injected event), unless the task was given a
        # context of its own: then it is deliberately detached from the event (a background sender
        # that outlives it) and is not awaited with it.
        context = kwargs.get("context")
        bucket = context.get(_COLLECTOR) if context is not None else _COLLECTOR.get()
        if bucket is not None:
            qualname = getattr(coro, "__qualname__", "")
            if not any(qualname.endswith(s) for s in self.ignored_coroutines):
                bucket.append(task)
        return task

    def _parse_in(self, bucket: list[asyncio.Task[Any]], bot: discord.Client, event: str, data: Json) -> None:
        def run() -> None:
            _COLLECTOR.set(bucket)
            bot._connection.parsers[event](data)

        contextvars.copy_context().run(run)

    async def _in_context(self, bucket: list[asyncio.Task[Any]], fn: Callable[..., Any], *args: Any) -> Any:
        async def run() -> Any:
            _COLLECTOR.set(bucket)
            result = fn(*args)
            return await result if inspect.isawaitable(result) else result

        # A task of its own: its context (with the collector) is a copy, so nothing leaks out.
        return await asyncio.get_running_loop().create_task(run(), context=contextvars.copy_context())

    async def _drain(self, bucket: list[asyncio.Task[Any]]) -> None:
        """Await every task the event caused, including tasks those tasks created."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.settle_timeout
        while True:
            pending = [t for t in bucket if not t.done()]
            if not pending:
                break
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = ", ".join(sorted({getattr(t.get_coro(), "__qualname__", "?") for t in pending}))
                raise FakeDiscordError(
                    f"event handling did not settle within {self.settle_timeout}s; still running: {names}. "
                    "Long-lived tasks must be listed in fake.ignored_coroutines."
                )
            await asyncio.wait(pending, timeout=remaining)
        for t in bucket:
            if not t.cancelled() and t.exception() is not None:
                exc = t.exception()
                assert exc is not None
                text = "".join(traceback.format_exception(exc))
                self.errors.record(f"unhandled exception in task {t.get_name()}:\n{text}")

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call `fn(*args)` (awaiting it if async) and every task it starts, then check for logged errors.

        For work that does not arrive as a gateway event, e.g. advancing the game's fake clock so
        timers fire: `await fake.run(clock.advance, 120)`.
        """
        bucket: list[asyncio.Task[Any]] = []
        result = await self._in_context(bucket, fn, *args)
        await self._drain(bucket)
        self.errors.check()
        return result

    async def dispatch(self, event: str, data: Json, *, bot: discord.Client | None = None) -> None:
        """Inject any gateway event and wait until everything it caused has finished."""
        target = self.current(bot)
        bucket: list[asyncio.Task[Any]] = []
        self._parse_in(bucket, target, event, data)
        await self._drain(bucket)
        self.errors.check()
