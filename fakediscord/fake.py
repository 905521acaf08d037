"""An offline Discord for driving the real discord.py 2.7 client in tests (and later the demo).

Seam A (in-process, the default): `discord.http.HTTPClient.request` (REST) and
`discord.webhook.async_.AsyncWebhookAdapter.request` (interaction callbacks, followups,
`@original` edits) are patched to call the fake's REST router; gateway events are injected by
calling `bot._connection.parsers[EVENT](data)`. The real `login()`, `setup_hook`, `CommandTree`,
`ViewStore`, `DynamicItem` and modal dispatch all run. Seam B (`LoopbackServer`) serves the very
same router over HTTP and a websocket gateway on 127.0.0.1 so `bot.start()` runs unchanged.

The fake keeps Discord's side of the world (users, one guild, channels, DM channels, messages
with their components and every earlier version, uploaded files with their bytes, interactions
and their acknowledgement state) and enforces the server-side rules discord.py does not check
locally: message and embed limits, component layout and `custom_id` rules, the 3-second
acknowledgement window, "already acknowledged", closed DMs and missing channel permissions. It
answers with real `discord.HTTPException` subclasses carrying Discord's error codes.

Knowing when the bot is done: every injected event runs inside a fresh `contextvars` context whose
collector list is filled by a loop task factory with every task the event causes, transitively;
the injecting coroutine awaits exactly those tasks (View timeout sleepers, `delete_after`
sleepers and `ext.tasks` loops excluded). That makes `asyncio.gather` over hundreds of clicks
correct and fast. See /work/shared/design/discord_testing.md for what was verified.

Usage (the `fake` fixture in tests/bot/conftest.py does the `with` part):

    with FakeDiscord() as fake:
        table, ann = fake.text_channel("table"), fake.user("Ann")
        bot = MyBot(...)                      # build it with chunk_guilds_at_startup=False
        await fake.start(bot)                 # login + setup_hook + READY/GUILD_CREATE
        rec = await fake.slash(ann, table, "incan new", {"preset": "classic"})
        [lobby] = fake.channel_messages(table)
        await fake.click(ann, lobby, lobby.custom_ids[0])
        assert fake.dm_messages(ann) and not fake.ephemeral_replies(ann)
        await fake.restart(bot, MyBot(...))   # messages and DMs persist in the fake

This module holds `FakeDiscord` itself (construction, install/uninstall); the layers it is built
from, one module each, are listed in fakediscord/state.py.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord
import discord.http
import discord.webhook.async_

from fakediscord import patches
from fakediscord import payloads as p
from fakediscord.bots import DEFAULT_IGNORED_COROUTINES, ErrorRecorder
from fakediscord.crafted import CraftedActions
from fakediscord.objects import FakeDiscordError, FakeUser
from fakediscord.patches import patched_http_request, patched_webhook_request
from fakediscord.ratelimits import RateLimits


class FakeDiscord(CraftedActions):
    """Discord's side of the conversation: state, REST router, validations, event injection.

    Built from the layers fakediscord/state.py lists; this last one constructs it and installs it.

    Use as a context manager (installs the patches and the error recorder, restores on exit),
    or through the `fake` fixture in tests/bot/conftest.py.
    """

    def __init__(
        self,
        *,
        guild_name: str = "Fake Guild",
        guild_locale: str = "en-US",
        bot_name: str = "TempleTable",
        patch_http: bool = True,
        real_time: bool = True,
        settle_timeout: float = 10.0,
        error_loggers: tuple[str, ...] = ("discord",),
        rate_limits: RateLimits | None = None,
    ) -> None:
        self.ids = p.Snowflakes()
        self.patch_http = patch_http
        self.real_time = real_time
        self.settle_timeout = settle_timeout
        self._clock_offset = 0.0
        self._t0 = time.monotonic()
        self.application_id = self.ids.next()
        self.bot_user = FakeUser(self.ids.next(), bot_name, bot=True, permissions=p.BOT_PERMISSIONS)
        self.guild_id = self.ids.next()
        self.guild_ids = [self.guild_id]
        self.guild_name = guild_name
        self.guild_locale = guild_locale  # the guild's preferred locale (a Community guild's language)
        self.manager_role_id = self.ids.next()
        self.bot_role_id = self.ids.next()
        self.users = {}
        self.bots = []
        self.channels = {}
        self.dm_channel_ids = {}
        self.messages = {}
        self.interactions = {}
        self._by_token = {}
        self.rest_calls = []
        self.commands = {}
        self.presences = []
        self.open_modals = {}
        self.errors = []
        self.ignored_coroutines = list(DEFAULT_IGNORED_COROUTINES)
        self._expected = []
        self._recorder = ErrorRecorder(self)
        self.error_loggers = error_loggers
        self._saved = []
        self._loop = None
        self._prev_factory = None
        self._routes = {}
        self._route_list = []
        self._register_routes()
        self._listeners = []
        self._message_listeners = []
        self._schemas = {}
        self.invalid_requests = 0
        self.limiter = None
        self.limit(rate_limits)
        self.owner = self.user("Guild Owner", permissions=p.ALL_PERMISSIONS)
        self.users[self.bot_user.id] = self.bot_user

    # ---------------------------------------------------------------- lifecycle

    def __enter__(self) -> FakeDiscord:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def install(self) -> None:
        """Patch discord.py's two HTTP entry points (seam A) and attach the error recorder."""
        if self.patch_http:
            if patches._ACTIVE is not None and patches._ACTIVE is not self:
                raise FakeDiscordError("another FakeDiscord is already installed")
            patches._ACTIVE = self
            self._patch(discord.http.HTTPClient, "request", patched_http_request)
            self._patch(discord.webhook.async_.AsyncWebhookAdapter, "request", patched_webhook_request)
        for name in self.error_loggers:
            logging.getLogger(name).addHandler(self._recorder)

    def uninstall(self) -> None:
        """Restore everything `install` changed."""
        for name in self.error_loggers:
            logging.getLogger(name).removeHandler(self._recorder)
        for owner, name, old in reversed(self._saved):
            setattr(owner, name, old)
        self._saved.clear()
        if patches._ACTIVE is self:
            patches._ACTIVE = None
        self._restore_task_factory()

    def _patch(self, owner: Any, name: str, new: Any) -> None:
        self._saved.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, new)
