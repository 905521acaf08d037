"""Running bots against the fake: start, stop, restart, event injection, and knowing when they are done.

`Bots` logs a bot in (real `login` + `setup_hook`) and feeds it READY and GUILD_CREATE (one READY
per shard for an `AutoShardedClient`), with `_FakeGatewaySocket` standing in for its websocket.
Every injected event runs in a fresh `contextvars` context whose collector (`_COLLECTOR`) a loop
task factory fills with every task the event causes, transitively; `_drain` awaits exactly those
(`DEFAULT_IGNORED_COROUTINES` excluded). `ErrorRecorder` collects the ERROR records
discord.py logs and swallows, so `check_errors` can fail the test (`expect_error` allows some).
The REST and message listeners (`add_listener`, `add_message_listener`) are kept here too.
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
from fakediscord.objects import FakeDiscordError, FakeMessage, RestCall
from fakediscord.payloads import Json
from fakediscord.state import FakeDiscordState
from fakediscord.world import World

__all__ = ["DEFAULT_IGNORED_COROUTINES", "Bots", "ErrorRecorder"]

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

    def __init__(self, fake: FakeDiscordState) -> None:
        self._fake = fake
        self.open = True
        self.latency = 0.0
        self.shard_id: int | None = None
        self.session_id = "fake-session"
        self.sequence = 0

    async def change_presence(self, *, activity: Any = None, status: Any = None, since: float = 0.0) -> None:
        """Record the presence the bot set."""
        self._fake.presences.append({"activity": activity, "status": status})

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

    def __init__(self, fake: Bots) -> None:
        super().__init__(logging.ERROR)
        self._fake = fake
        self._seen: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record; expected ones are matched against `expect_error` patterns."""
        if record in self._seen:  # reached through two watched loggers (a child propagates)
            return
        self._seen.append(record)
        del self._seen[:-64]
        self._fake._record_error(self.format(record) if record.exc_info else record.getMessage(), record)


class Bots(World):
    """Bot lifecycle, event injection, task tracking and errors (layer 3 of FakeDiscord)."""

    # ---------------------------------------------------------------- bots

    def _current_bot(self, bot: discord.Client | None) -> discord.Client:
        if bot is not None:
            return bot
        if not self.bots:
            raise FakeDiscordError("no bot is running: call `await fake.start(bot)` first")
        return self.bots[-1]

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
        bot.ws = _FakeGatewaySocket(self)  # type: ignore[assignment]
        self.bots.append(bot)
        if isinstance(bot, discord.AutoShardedClient):
            # What AutoShardedClient.launch_shards does, minus the websockets: one READY per shard
            # (carrying the gateway's internal `__shard_id__`), GUILD_CREATE on the guild's shard.
            count = bot.shard_count or 1
            bot.shard_count = count
            shard_ids = list(bot.shard_ids) if bot.shard_ids is not None else list(range(count))
            state.shard_count = count
            state.shard_ids = shard_ids  # type: ignore[attr-defined]
            guild_shard = (self.guild_id >> 22) % count
            for shard in shard_ids:
                guilds = [self.guild_id] if shard == guild_shard else []
                ready = self._ready(guilds, shard=[shard, count])
                self._parse_in(bucket, bot, "READY", {**ready, "__shard_id__": shard})
            if guild_shard in shard_ids:
                guild_create = {**self.guild_payload(), "__shard_id__": guild_shard}
                self._parse_in(bucket, bot, "GUILD_CREATE", guild_create)
        else:
            self._parse_in(bucket, bot, "READY", self._ready([self.guild_id]))
            self._parse_in(bucket, bot, "GUILD_CREATE", self.guild_payload())
        await asyncio.wait_for(bot.wait_until_ready(), timeout=self.settle_timeout)
        await self._drain(bucket)
        self.check_errors()

    def _ready(self, guild_ids: list[int], shard: list[int] | None = None) -> Json:
        ready = p.ready_payload(
            self.bot_user.payload(),
            self.application_id,
            guild_ids,
            session_id=f"session-{len(self.bots)}",
            resume_gateway_url="wss://fake.invalid",
        )
        if shard is not None:
            ready["shard"] = shard
        return ready

    async def stop(self, bot: discord.Client) -> None:
        """Close the bot (as on shutdown); the fake keeps every message, so a new bot can `start`."""
        await bot.close()
        if bot in self.bots:
            self.bots.remove(bot)
        if not self.bots:
            self._restore_task_factory()

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

    def _restore_task_factory(self) -> None:
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
                self._record_error(f"unhandled exception in task {t.get_name()}:\n{text}", None)

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call `fn(*args)` (awaiting it if async) and every task it starts, then check for logged errors.

        For work that does not arrive as a gateway event, e.g. advancing the game's fake clock so
        timers fire: `await fake.run(clock.advance, 120)`.
        """
        bucket: list[asyncio.Task[Any]] = []
        result = await self._in_context(bucket, fn, *args)
        await self._drain(bucket)
        self.check_errors()
        return result

    def add_listener(self, listener: Callable[[RestCall], None]) -> None:
        """Call `listener(call)` after every REST request is answered."""
        self._listeners.append(listener)

    def add_message_listener(self, listener: Callable[[str, FakeMessage], None]) -> None:
        """Call `listener(kind, message)` on each "create", "edit", "delete" (the demo prints from here)."""
        self._message_listeners.append(listener)

    def _message_event(self, kind: str, msg: FakeMessage) -> None:
        if kind == "delete":
            msg.deleted = True
        for listener in self._message_listeners:
            listener(kind, msg)

    async def dispatch(self, event: str, data: Json, *, bot: discord.Client | None = None) -> None:
        """Inject any gateway event and wait until everything it caused has finished."""
        target = self._current_bot(bot)
        bucket: list[asyncio.Task[Any]] = []
        self._parse_in(bucket, target, event, data)
        await self._drain(bucket)
        self.check_errors()

    # ---------------------------------------------------------------- errors

    def _record_error(self, text: str, record: logging.LogRecord | None) -> None:
        for pattern, hits in self._expected:
            if pattern.search(text):
                hits.append(text)
                return
        self.errors.append(text)

    def check_errors(self) -> None:
        """Fail if discord.py logged an unexpected ERROR (an exception a handler swallowed)."""
        if self.errors:
            errors, self.errors = self.errors, []
            raise AssertionError("the bot logged errors:\n\n" + "\n\n".join(errors))

    @contextlib.contextmanager
    def expect_error(self, pattern: str) -> Iterator[list[str]]:
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
