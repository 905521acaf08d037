"""Discord's rate limits, modelled: the global budget, per-route buckets, 429s and invalid requests.

Off unless a test or benchmark turns it on (``FakeDiscord(rate_limits=RateLimits())`` or
``fake.limit(RateLimits(...))``); then the fake answers every bot-token REST call as Discord does
(see /work/shared/design/discord_platform.md section 1):

- a **global** budget of ``global_per_s`` requests per second per bot for every call made with the
  bot token (sending or editing a channel message, opening a DM, sending to a DM channel,
  creating a thread, syncing commands, ...); over it, a 429 with ``"global": true`` and the
  ``X-RateLimit-Global`` header, which makes discord.py's real HTTP client stop all its requests
  for ``retry_after`` seconds;
- **per-route buckets** keyed like Discord's (a bucket hash plus the top-level resource, the
  channel): message send and message edit per channel (separate counters, as observed), edits of
  messages older than an hour (a stricter sub-limit, per channel), DM channel creation (per bot),
  thread creation (per channel), and every other bot route (per route and channel). Every answer
  carries ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``; over a bucket, a 429 with
  ``retry_after`` and ``X-RateLimit-Scope: user``;
- **interaction endpoints exempt**: the interaction callback and the interaction webhook routes
  (``@original``, followups) count toward no budget here;
- **invalid requests**: every answer with status 401, 403 or 429 (a 429 of scope ``shared``
  excepted) is counted, as Discord counts them toward its ban of 10,000 per 10 minutes.

Windows are fixed and start at a bucket's first request, as Discord's ``Reset-After`` shows. The
limits run on :attr:`RateLimits.clock`, by default real monotonic time plus the fake's
``advance``es: discord.py sleeps on the running loop's (real) clock before it retries, so the
buckets must refill in real time for its retries to be answered as Discord would; ``advance``
additionally lets a test jump past a window without sleeping. A benchmark whose session clock
follows the wall clock in small steps (bench/bot_latency.py) therefore shares the fake's notion
of time.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from fakediscord.payloads import Json

__all__ = ["Limit", "RateLimiter", "RateLimits", "Verdict"]

INVALID_STATUSES = frozenset({401, 403, 429})
INVALID_WINDOW_S = 600.0  # Discord bans an address after 10,000 invalid requests in this window
INVALID_BAN_AT = 10_000
OLD_MESSAGE_S = 3600.0  # edits of messages older than this have their own, stricter limit

# Routes that never count toward the bot's budgets (interaction callbacks and their webhooks).
EXEMPT_PREFIXES = ("/interactions/", "/webhooks/")


@dataclass(frozen=True)
class Limit:
    """At most ``requests`` per window of ``per_s`` seconds."""

    requests: int
    per_s: float


@dataclass
class RateLimits:
    """The figures the fake enforces; every one is a parameter (defaults: issue 17's figures).

    Discord documents only the global budget; the per-route figures are the observed ones
    (discord_platform.md section 1): about 5 per 5 s per channel for sends and, separately, for
    edits; 3 per 6 s for edits of messages older than an hour. DM and thread creation are not
    documented at all; their defaults are as strict as a channel's sends.
    """

    global_per_s: int = 50
    message_send: Limit = Limit(5, 5.0)  # POST /channels/{c}/messages, per channel
    message_edit: Limit = Limit(5, 5.0)  # PATCH /channels/{c}/messages/{m}, per channel
    old_message_edit: Limit | None = Limit(3, 6.0)  # the same route for messages older than an hour
    dm_create: Limit = Limit(5, 5.0)  # POST /users/@me/channels, per bot
    thread_create: Limit = Limit(5, 5.0)  # POST /channels/{c}[/messages/{m}]/threads, per channel
    other: Limit = Limit(50, 1.0)  # every other bot route, per route and channel
    clock: Callable[[], float] | None = None  # None: the fake's limit clock (real time + advances)


@dataclass
class Verdict:
    """What the limiter decided for one request: headers to send, and the 429 body when refused."""

    headers: dict[str, str] = field(default_factory=dict)
    refused: Json | None = None  # the 429 body (None: the request goes through)
    scope: str = ""  # "global", "user" or "shared" when refused


class _Window:
    """A fixed window: ``count`` requests since ``reset_at - per``; opens at the first request."""

    __slots__ = ("count", "reset_at")

    def __init__(self) -> None:
        self.count = 0
        self.reset_at = -math.inf

    def roll(self, now: float, per_s: float) -> None:
        if now >= self.reset_at:
            self.count = 0
            self.reset_at = now + per_s


def _bucket_hash(name: str) -> str:
    return hashlib.md5(name.encode(), usedforsecurity=False).hexdigest()


class RateLimiter:
    """Applies :class:`RateLimits` to the fake's REST calls and counts what Discord would count."""

    def __init__(self, limits: RateLimits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = limits.clock or clock
        self._global = _Window()
        self._buckets: dict[tuple[str, str], _Window] = {}
        self._created: dict[int, float] = {}  # message id -> when the fake created it (limit clock)
        self.requests = 0  # bot-token requests seen (exempt interaction routes not included)
        self.rate_limited = 0  # 429s answered
        self.global_limited = 0  # of which global
        self.invalid = 0  # 401, 403 and 429 answers (not 429s of scope "shared")
        self._invalid_at: deque[float] = deque()

    # ---------------------------------------------------------------- classification

    @staticmethod
    def exempt(route: str) -> bool:
        """Return True for the interaction endpoints, which Discord exempts from the global budget."""
        return route.startswith(EXEMPT_PREFIXES)

    def _route_limit(self, method: str, route: str, params: dict[str, str]) -> tuple[str, str, Limit]:
        """Return (bucket name, major parameter, limit) of a bot route."""
        channel = params.get("channel_id", "")
        limits = self.limits
        if method == "POST" and route == "/channels/{channel_id}/messages":
            return "message-send", channel, limits.message_send
        if method == "PATCH" and route == "/channels/{channel_id}/messages/{message_id}":
            made = self._created.get(int(params.get("message_id", "0") or 0))
            if limits.old_message_edit is not None and made is not None \
                    and self.clock() - made > OLD_MESSAGE_S:
                return "message-edit-old", channel, limits.old_message_edit
            return "message-edit", channel, limits.message_edit
        if method == "POST" and route == "/users/@me/channels":
            return "dm-create", "", limits.dm_create
        if method == "POST" and route.endswith("/threads"):
            return "thread-create", channel, limits.thread_create
        return f"{method} {route}", channel, limits.other

    # ---------------------------------------------------------------- the verdict

    def admit(self, method: str, route: str, params: dict[str, str]) -> Verdict | None:
        """Count one request; return its headers and, if Discord would refuse it, the 429 body.

        None for an exempt (interaction) route: it carries no bot rate-limit headers here.
        """
        if self.exempt(route):
            return None
        now = self.clock()
        self.requests += 1
        glob = self._global
        glob.roll(now, 1.0)
        glob.count += 1
        if glob.count > self.limits.global_per_s:
            retry = glob.reset_at - now
            self.global_limited += 1
            return self._refuse(
                Verdict({"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}), retry, True, "global"
            )
        name, major, limit = self._route_limit(method, route, params)
        window = self._buckets.get((name, major))
        if window is None:
            window = self._buckets[(name, major)] = _Window()
        window.roll(now, limit.per_s)
        reset_after = max(0.0, window.reset_at - now)
        headers = {
            "X-RateLimit-Limit": str(limit.requests),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": _bucket_hash(name),
        }
        if window.count >= limit.requests:
            headers["X-RateLimit-Remaining"] = "0"
            headers["X-RateLimit-Scope"] = "user"
            return self._refuse(Verdict(headers), reset_after, False, "user")
        window.count += 1
        headers["X-RateLimit-Remaining"] = str(limit.requests - window.count)
        return Verdict(headers)

    def _refuse(self, verdict: Verdict, retry_after: float, is_global: bool, scope: str) -> Verdict:
        retry_after = max(retry_after, 0.001)
        self.rate_limited += 1
        verdict.scope = scope
        verdict.headers["Retry-After"] = str(math.ceil(retry_after))
        verdict.headers["Via"] = "1.1 google"  # discord.py treats a 429 without it as a Cloudflare ban
        verdict.refused = {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": is_global,
            "code": 0,
        }
        return verdict

    # ---------------------------------------------------------------- after the answer

    def answered(self, status: int, verdict: Verdict | None, message_id: int | None = None) -> None:
        """Record an answer: count invalid statuses; remember when a message was created."""
        if status in INVALID_STATUSES and not (status == 429 and verdict is not None and verdict.scope == "shared"):
            self.invalid += 1
            now = self.clock()
            self._invalid_at.append(now)
            while self._invalid_at and self._invalid_at[0] <= now - INVALID_WINDOW_S:
                self._invalid_at.popleft()
        if message_id is not None:
            self._created[message_id] = self.clock()

    def invalid_in_window(self) -> int:
        """Invalid requests in the last 10 minutes (Discord bans the address at 10,000)."""
        now = self.clock()
        return sum(1 for at in self._invalid_at if at > now - INVALID_WINDOW_S)

    def exhaust(self, method: str, route: str, params: dict[str, str]) -> None:
        """Use up a route's bucket now (as another process sharing the token would): for tests."""
        name, major, limit = self._route_limit(method, route, params)
        window = self._buckets.setdefault((name, major), _Window())
        window.roll(self.clock(), limit.per_s)
        window.count = limit.requests

    def exhaust_global(self) -> None:
        """Use up the global budget of the current second (another process's burst): for tests."""
        self._global.roll(self.clock(), 1.0)
        self._global.count = self.limits.global_per_s
