"""Seam A: the two discord.py HTTP entry points, replaced while a FakeDiscord is installed.

`patched_http_request` stands in for `discord.http.HTTPClient.request` (the bot's REST calls) and
`patched_webhook_request` for `discord.webhook.async_.AsyncWebhookAdapter.request` (interaction
responses, followups, `@original` edits); both hand the request to the installed fake's router
(`_ACTIVE`, set by `activate` when a FakeDiscord is installed) and answer as the real client
would, or raise its exception.

With Discord's rate limits turned on (`FakeDiscord.limit`), the bot's REST calls instead run
through discord.py's own `HTTPClient.request` (its per-bucket locks, pre-emptive waits on
`X-RateLimit-Remaining: 0`, 429 retries and global lock all real) over `_FakeSession`, a stand-in
for its aiohttp session that answers from the router with the fake's status, headers and body.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import discord
import discord.http
import discord.webhook.async_
from multidict import CIMultiDict

from fakediscord.objects import FakeDiscordError, RestCall, SentFile, http_exception
from fakediscord.payloads import Json
from fakediscord.router import RestRouter
from fakediscord.wire import parse_multipart, round_trip

__all__ = ["activate", "deactivate", "patched_http_request", "patched_webhook_request"]

# The router of the installed fake (at most one at a time); `activate` and `deactivate` set it.
_ACTIVE: RestRouter | None = None


def activate(router: RestRouter) -> None:
    """Send the patched requests to this router (`FakeDiscord.install`); one fake at a time."""
    global _ACTIVE
    if _ACTIVE is not None and _ACTIVE is not router:
        raise FakeDiscordError("another FakeDiscord is already installed")
    _ACTIVE = router


def deactivate(router: RestRouter) -> None:
    """Stop sending requests to this router, if it is the active one (`FakeDiscord.uninstall`)."""
    global _ACTIVE
    if _ACTIVE is router:
        _ACTIVE = None


def _active() -> RestRouter:
    if _ACTIVE is None:
        raise FakeDiscordError("no FakeDiscord installed")
    return _ACTIVE


def _route_path(route: discord.http.Route) -> str:
    return route.url[len(route.BASE) :] if route.url.startswith(route.BASE) else route.url


def _answer(call: RestCall) -> Any:
    if 200 <= call.status < 300:
        return None if call.status == 204 else round_trip(call.response)
    raise http_exception(call.status, call.response)


_REAL_HTTP_REQUEST = discord.http.HTTPClient.request
_SESSION_ATTR = "_HTTPClient__session"  # HTTPClient's (name-mangled) aiohttp session

# The request `_FakeSession` is answering: (route template, multipart form); set by the wrapper
# around the real `HTTPClient.request`, which builds an aiohttp FormData the fake need not parse.
_IN_FLIGHT: contextvars.ContextVar[tuple[str, Any] | None] = contextvars.ContextVar("fake_in_flight", default=None)


class _FakeResponse:
    """What `HTTPClient.request` reads of an aiohttp response: status, reason, headers, text."""

    def __init__(self, call: RestCall) -> None:
        self.status = call.status
        self.reason = "Too Many Requests" if call.status == 429 else "OK" if call.status < 300 else "Error"
        self.headers: CIMultiDict[str] = CIMultiDict(call.headers)
        self._text = ""
        if call.status != 204:
            self.headers["content-type"] = "application/json"
            self._text = json.dumps(call.response)

    async def text(self, encoding: str = "utf-8") -> str:
        return self._text

    async def __aenter__(self) -> _FakeResponse:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _FakeRequest:
    """`session.request(...)`: awaitable as an async context manager, answered by the router."""

    def __init__(self, fake: RestRouter, method: str, url: str, kwargs: dict[str, Any]) -> None:
        self.fake, self.method, self.url, self.kwargs = fake, method, url, kwargs

    async def __aenter__(self) -> _FakeResponse:
        await asyncio.sleep(0)  # a real request yields to the loop
        template, form = _IN_FLIGHT.get() or (None, None)
        data = self.kwargs.get("data")
        sent: list[SentFile] = []
        payload: Any = None
        if form:
            payload, sent = parse_multipart(form)
        elif isinstance(data, str | bytes):
            payload = json.loads(data)
        base = discord.http.Route.BASE
        path = self.url[len(base):] if self.url.startswith(base) else self.url
        query = {k: str(v) for k, v in (self.kwargs.get("params") or {}).items()}
        call = self.fake.handle_rest(self.method, path, route=template, payload=payload, files=sent, query=query)
        return _FakeResponse(call)

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        return None


class _FakeSession:
    """Stands in for the bot's aiohttp session while rate limits are on."""

    closed = False

    def __init__(self, fake: RestRouter) -> None:
        self.fake = fake

    def request(self, method: str, url: str, **kwargs: Any) -> _FakeRequest:
        return _FakeRequest(self.fake, method, url, kwargs)

    async def close(self) -> None:
        self.closed = True


async def _real_client_request(
    fake: RestRouter,
    client: discord.http.HTTPClient,
    route: discord.http.Route,
    files: Sequence[discord.File] | None,
    form: Any,
    kwargs: dict[str, Any],
) -> Any:
    """Run discord.py's own `HTTPClient.request` (rate-limit handling and all) over `_FakeSession`."""
    session = getattr(client, _SESSION_ATTR, None)
    if not isinstance(session, _FakeSession):
        setattr(client, _SESSION_ATTR, _FakeSession(fake))
        if session is not None and hasattr(session, "close"):
            await session.close()  # the real aiohttp session login opened: never used
    token = _IN_FLIGHT.set((route.path, form))
    try:
        return await _REAL_HTTP_REQUEST(client, route, files=files, form=form, **kwargs)
    finally:
        _IN_FLIGHT.reset(token)


async def patched_http_request(
    self: discord.http.HTTPClient,
    route: discord.http.Route,
    *,
    files: Sequence[discord.File] | None = None,
    form: Any = None,
    **kwargs: Any,
) -> Any:
    """Replacement for `HTTPClient.request`: REST calls of the bot go to the fake's router."""
    fake = _active()
    if fake.limiter is not None:
        return await _real_client_request(fake, self, route, files, form, kwargs)
    await asyncio.sleep(0)  # a real request yields to the loop; keeps concurrency realistic
    payload = kwargs.get("json")
    sent: list[SentFile] = []
    if form:
        payload, sent = parse_multipart(form)
    query = {k: str(v) for k, v in (kwargs.get("params") or {}).items()}
    call = fake.handle_rest(
        route.method, _route_path(route), route=route.path, payload=payload, files=sent, query=query
    )
    return _answer(call)


async def patched_webhook_request(
    self: discord.webhook.async_.AsyncWebhookAdapter,
    route: discord.http.Route,
    session: Any,
    *,
    payload: Json | None = None,
    multipart: Any = None,
    files: Sequence[discord.File] | None = None,
    params: Json | None = None,
    **kwargs: Any,
) -> Any:
    """Replacement for `AsyncWebhookAdapter.request`: interaction responses go to the fake's router."""
    fake = _active()
    await asyncio.sleep(0)
    sent: list[SentFile] = []
    if multipart:
        payload, sent = parse_multipart(multipart)
    query = {k: str(v) for k, v in (params or {}).items()}
    call = fake.handle_rest(
        route.method, _route_path(route), route=route.path, payload=payload, files=sent, query=query
    )
    return _answer(call)
