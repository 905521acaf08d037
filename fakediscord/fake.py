"""An offline Discord for driving the real discord.py 2.7 client in tests (and later the demo).

Seam A (in-process, the default): `discord.http.HTTPClient.request` (REST) and
`discord.webhook.async_.AsyncWebhookAdapter.request` (interaction callbacks, followups,
`@original` edits) are patched to call the fake's REST router; gateway events are injected by
calling `bot._connection.parsers[EVENT](data)`. The real `login()`, `setup_hook`, `CommandTree`,
`ViewStore`, `DynamicItem` and modal dispatch all run. Seam B (`LoopbackServer`) serves the very
same router over HTTP and a websocket gateway on 127.0.0.1 so `bot.start()` runs unchanged.

The fake keeps Discord's side of the world (users, one guild, its roles, channels, DM channels, messages
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

`FakeDiscord` is built from parts, each a small object with its own state, given what it needs
(the arrows: what each is handed when it is made):

  clock      FakeClock (timekeeping.py): the fake's time, `advance`d by tests
  world      World (world.py): ids, users, the guild, channels, synced commands, connected bots
  store      MessageStore (store.py) <- world: messages and their versions, interactions, modals
  router     RestRouter (router.py) <- world, store, clock: the REST entry point of both seams,
             the route table, the bot's REST routes, rate limits; its `callbacks`
             (InteractionCallbacks, callbacks.py) serve the interaction callback and webhook routes
  error_log  ErrorLog (bots.py): the ERRORs discord.py logged and swallowed, expected or not
  runner     BotRunner (bots.py) <- world, error_log: start/stop bots, inject events, settle
  actions    UserActions (actions.py) <- world, store, runner, clock: what a test's users do
  crafted    CraftedActions (crafted.py) <- actions: what an attacker's client sends

`FakeDiscord` constructs them, installs the seam-A patches (patches.py), and offers what tests
use as its own methods and attributes, each handing the call to the part that holds it; what
tests rarely need (`fake.world.ids`, `fake.router.handle_rest`, ...) is reached through the part.
Beside them: `objects` (what tests read), `validate` (Discord-side rules), `wire` (request
parsing), `payloads` (the JSON discord.py parses) and `interactions` (its interaction side),
`ratelimits` (Discord's rate limits, when turned on), `loopback` (seam B) and `transcript`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

import discord
import discord.http
import discord.webhook.async_

from fakediscord import patches
from fakediscord.actions import UserActions
from fakediscord.bots import BotRunner, ErrorLog
from fakediscord.crafted import CraftedActions
from fakediscord.objects import FakeChannel, FakeMessage, FakeRole, FakeUser, InteractionRecord, RestCall
from fakediscord.payloads import Json
from fakediscord.ratelimits import RateLimiter, RateLimits
from fakediscord.router import RestRouter
from fakediscord.store import MessageStore
from fakediscord.timekeeping import FakeClock
from fakediscord.world import World

__all__ = ["FakeDiscord"]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


class _Part(Generic[T]):
    """An attribute of FakeDiscord that is one of a part's: ``fake.guild_id`` is ``fake.world.guild_id``
    (read and written there), ``fake.slash`` is ``fake.actions.slash``."""

    def __init__(self, part: str, name: str = "") -> None:
        self._part = part
        self._name = name  # "": the same name as on FakeDiscord

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self._name = self._name or name

    @overload
    def __get__(self, fake: None, owner: type[Any]) -> _Part[T]: ...

    @overload
    def __get__(self, fake: object, owner: type[Any]) -> T: ...

    def __get__(self, fake: object | None, owner: type[Any]) -> _Part[T] | T:
        if fake is None:
            return self
        value: T = getattr(getattr(fake, self._part), self._name)
        return value

    def __set__(self, fake: object, value: T) -> None:
        setattr(getattr(fake, self._part), self._name, value)


def _method(part: str, method: Callable[Concatenate[Any, P], R]) -> _Part[Callable[P, R]]:
    """A part's method as FakeDiscord's, typed as the part defines it (its signature is written once)."""
    return _Part(part, method.__name__)


class FakeDiscord:
    """Discord's side of the conversation: state, REST router, validations, event injection.

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
        self.patch_http = patch_http
        # Loggers whose ERROR records fail the test; add the bot's own (e.g. "temple_table").
        self.error_loggers = error_loggers
        self.clock = FakeClock(real_time=real_time)
        self.world = World(guild_name=guild_name, guild_locale=guild_locale, bot_name=bot_name)
        self.store = MessageStore(self.world)
        self.router = RestRouter(self.world, self.store, self.clock)
        self.router.limit(rate_limits)
        self.error_log = ErrorLog()
        self.runner = BotRunner(self.world, self.error_log, patch_http=patch_http, settle_timeout=settle_timeout)
        self.actions = UserActions(self.world, self.store, self.runner, self.clock.now)
        self.crafted = CraftedActions(self.actions)
        self._saved: list[tuple[Any, str, Any]] = []

    # ---------------------------------------------------------------- lifecycle

    def __enter__(self) -> FakeDiscord:
        self.install()
        return self

    def __exit__(self, *exc: object) -> None:
        self.uninstall()

    def install(self) -> None:
        """Patch discord.py's two HTTP entry points (seam A) and attach the error recorder."""
        if self.patch_http:
            patches.activate(self.router)
            self._patch(discord.http.HTTPClient, "request", patches.patched_http_request)
            self._patch(discord.webhook.async_.AsyncWebhookAdapter, "request", patches.patched_webhook_request)
        for name in self.error_loggers:
            logging.getLogger(name).addHandler(self.error_log.recorder)

    def uninstall(self) -> None:
        """Restore everything `install` changed."""
        for name in self.error_loggers:
            logging.getLogger(name).removeHandler(self.error_log.recorder)
        for owner, name, old in reversed(self._saved):
            setattr(owner, name, old)
        self._saved.clear()
        patches.deactivate(self.router)
        self.runner.restore_task_factory()

    def _patch(self, owner: Any, name: str, new: Any) -> None:
        self._saved.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, new)

    # ---------------------------------------------------------------- the world (World)

    guild_id = _Part[int]("world")
    guild_ids = _Part[list[int]]("world")  # the fake guild's, then those of `other_guild`
    guild_locale = _Part[str]("world")  # a Community guild's language; tests may change it
    application_id = _Part[int]("world")
    bot_user = _Part[FakeUser]("world")
    owner = _Part[FakeUser]("world")  # the guild's owner (every permission)
    users = _Part[dict[int, FakeUser]]("world")  # by id, the bot's own included
    channels = _Part[dict[int, FakeChannel]]("world")  # by id: text channels, threads and DM channels
    roles = _Part[dict[int, FakeRole]]("world")  # by id: the roles a test made (`role`)
    dm_channel_ids = _Part[dict[int, int]]("world")  # user id -> the bot's DM channel with them
    commands = _Part[dict[int | None, list[Json]]]("world")  # synced commands by guild id (None: global)
    bots = _Part[list[discord.Client]]("world")  # the bots running against this fake, oldest first
    user = _method("world", World.user)
    text_channel = _method("world", World.text_channel)
    other_guild = _method("world", World.other_guild)
    role = _method("world", World.role)
    delete_role = _method("world", World.delete_role)
    guild_roles = _method("world", World.guild_roles)
    dm_channel = _method("world", World.dm_channel)
    threads = _method("world", World.threads)
    close_dms = _method("world", World.close_dms)
    open_dms = _method("world", World.open_dms)
    set_bot_permissions = _method("world", World.set_bot_permissions)
    hide_channel = _method("world", World.hide_channel)
    grant_bot = _method("world", World.grant_bot)
    bot_permissions_in = _method("world", World.bot_permissions_in)

    # ---------------------------------------------------------------- time (FakeClock)

    now = _method("clock", FakeClock.now)
    advance = _method("clock", FakeClock.advance)

    # ---------------------------------------------------------------- messages (MessageStore)

    messages = _Part[dict[int, FakeMessage]]("store")  # by id, deleted ones included
    interactions = _Part[dict[int, InteractionRecord]]("store")  # by id
    channel_messages = _method("store", MessageStore.channel_messages)
    dm_messages = _method("store", MessageStore.dm_messages)
    ephemeral_replies = _method("store", MessageStore.ephemeral_replies)
    notifications = _method("store", MessageStore.notifications)
    public_messages = _method("store", MessageStore.public_messages)
    public_texts = _method("store", MessageStore.public_texts)
    last_interaction_response = _method("store", MessageStore.last_interaction_response)
    add_message_listener = _method("store", MessageStore.add_listener)

    # ---------------------------------------------------------------- REST (RestRouter)

    rest_calls = _Part[list[RestCall]]("router")  # every REST request of the bot, with the fake's answer
    limiter = _Part[RateLimiter | None]("router")  # Discord's rate limits, when turned on (`limit`)
    invalid_requests = _Part[int]("router")  # answers of 401, 403 and 429 (Discord bans at 10,000)
    forbidden = _Part[list[RestCall]]("router")  # the calls answered 403 Forbidden, oldest first
    limit = _method("router", RestRouter.limit)
    calls = _method("router", RestRouter.calls)
    add_listener = _method("router", RestRouter.add_listener)
    handle_rest = _method("router", RestRouter.handle_rest)

    # ---------------------------------------------------------------- bots (BotRunner, ErrorLog)

    errors = _Part[list[str]]("error_log")  # unexpected errors logged since the last check
    ignored_coroutines = _Part[list[str]]("runner")  # tasks that outlive their event: never awaited
    start = _method("runner", BotRunner.start)
    stop = _method("runner", BotRunner.stop)
    restart = _method("runner", BotRunner.restart)
    run = _method("runner", BotRunner.run)
    dispatch = _method("runner", BotRunner.dispatch)
    check_errors = _method("error_log", ErrorLog.check)
    expect_error = _method("error_log", ErrorLog.expect)

    # ---------------------------------------------------------------- users' actions (UserActions)

    slash = _method("actions", UserActions.slash)
    autocomplete = _method("actions", UserActions.autocomplete)
    click = _method("actions", UserActions.click)
    select = _method("actions", UserActions.select)
    submit_modal = _method("actions", UserActions.submit_modal)
    say = _method("actions", UserActions.say)

    # ---------------------------------------------------------------- an attacker's client (CraftedActions)

    craft_component = _method("crafted", CraftedActions.craft_component)
    craft_slash = _method("crafted", CraftedActions.craft_slash)
