"""The state every layer of `FakeDiscord` shares, declared (typed) in one base, and the fake's clock.

`FakeDiscord` is one class built from layers, one module each, every layer building on the one
below it (the order is the order of their dependencies, so none needs to know an upper one):

  state     FakeDiscordState: the shared attributes, the clock (`now`, `advance`)
  world     World: users, the guild, channels, DM channels, and their discord.py payloads
  bots      Bots: running bots (start/stop/restart), event injection, task tracking, logged errors
  store     MessageStore: messages as Discord stores them, and the accessors tests read them by
  callbacks InteractionCallbacks: the interaction callback and webhook (followup, @original) routes
  router    RestRouter: the REST entry point of both seams, the route table, the bot REST routes
  actions   UserActions: what a test's users do (slash, autocomplete, click, select, modal, say)
  crafted   CraftedActions: what an attacker's client sends (any custom_id, any option value)
  fake      FakeDiscord: construction (assigns every attribute declared here), install/uninstall

Beside them: `objects` (what tests read), `validate` (Discord-side rules), `wire` (request
parsing), `payloads` (the JSON discord.py parses) and `interactions` (its interaction side),
`ratelimits` (Discord's rate limits, when turned on), `patches` (seam A) and `loopback` (seam B).
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from typing import Any

import discord

from fakediscord import payloads as p
from fakediscord.objects import FakeChannel, FakeMessage, FakeUser, InteractionRecord, RestCall
from fakediscord.payloads import Json
from fakediscord.ratelimits import RateLimiter, RateLimits
from fakediscord.wire import Handler


class FakeDiscordState:
    """The attributes of a FakeDiscord, assigned in `FakeDiscord.__init__` (fakediscord/fake.py)."""

    ids: p.Snowflakes
    patch_http: bool
    real_time: bool
    settle_timeout: float
    _clock_offset: float
    _t0: float
    application_id: int
    bot_user: FakeUser
    guild_id: int
    guild_ids: list[int]  # the fake guild, then those of `other_guild`
    guild_name: str
    guild_locale: str
    manager_role_id: int
    bot_role_id: int
    owner: FakeUser
    users: dict[int, FakeUser]
    bots: list[discord.Client]
    channels: dict[int, FakeChannel]
    dm_channel_ids: dict[int, int]  # user id -> DM channel id
    messages: dict[int, FakeMessage]
    interactions: dict[int, InteractionRecord]
    _by_token: dict[str, InteractionRecord]
    rest_calls: list[RestCall]
    commands: dict[int | None, list[Json]]  # synced commands by guild id (None: global)
    presences: list[Json]
    open_modals: dict[int, InteractionRecord]  # user id -> interaction that opened it
    errors: list[str]
    ignored_coroutines: list[str]
    _expected: list[tuple[re.Pattern[str], list[str]]]
    _recorder: logging.Handler
    # Loggers whose ERROR records fail the test; add the bot's own (e.g. "temple_table").
    error_loggers: tuple[str, ...]
    _saved: list[tuple[Any, str, Any]]
    _loop: asyncio.AbstractEventLoop | None
    _prev_factory: Any
    _routes: dict[tuple[str, str], Handler]
    _route_list: list[tuple[str, str, re.Pattern[str], Handler]]
    _listeners: list[Callable[[RestCall], None]]
    _message_listeners: list[Callable[[str, FakeMessage], None]]
    _schemas: dict[tuple[int, int], tuple[Any, Json]]
    limiter: RateLimiter | None  # Discord's rate limits, when turned on (`FakeDiscord.limit`)
    invalid_requests: int  # answers of 401, 403 and 429: Discord bans at 10,000 in 10 minutes

    # ---------------------------------------------------------------- clock

    def now(self) -> float:
        """The fake's notion of time in seconds: real elapsed time (if real_time) plus `advance`s."""
        real = time.monotonic() - self._t0 if self.real_time else 0.0
        return real + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (e.g. to make an acknowledgement late, or to refill a rate limit)."""
        self._clock_offset += seconds

    def limit_clock(self) -> float:
        """The rate limits' clock: real monotonic time plus `advance`s, whatever `real_time` says.

        discord.py sleeps on the loop's real clock before it retries a 429, so the buckets must
        refill in real time; an `advance` refills them without a sleep.
        """
        return time.monotonic() - self._t0 + self._clock_offset

    def limit(self, limits: RateLimits | None) -> RateLimiter | None:
        """Turn Discord's rate limits on (with these figures) or off (None); return the limiter.

        While on, the bot's REST calls go through discord.py's real `HTTPClient.request` (its
        buckets, its pre-emptive waits, its 429 retries and global lock) over a stand-in session.
        """
        self.limiter = None if limits is None else RateLimiter(limits, self.limit_clock)
        return self.limiter
