"""Seam A: the two discord.py HTTP entry points, replaced while a FakeDiscord is installed.

`_patched_http_request` stands in for `discord.http.HTTPClient.request` (the bot's REST calls) and
`_patched_webhook_request` for `discord.webhook.async_.AsyncWebhookAdapter.request` (interaction
responses, followups, `@original` edits); both hand the request to the installed fake's router
(`_ACTIVE`, set by `FakeDiscord.install`) and answer as the real client would, or raise its exception.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import discord
import discord.http
import discord.webhook.async_

from fakediscord.payloads import Json
from fakediscord.records import FakeDiscordError, RestCall, SentFile, http_exception
from fakediscord.router import RestRouter
from fakediscord.wire import _parse_multipart, _wire

# The installed fake (at most one at a time); `FakeDiscord.install` and `uninstall` set it.
_ACTIVE: RestRouter | None = None


def _active() -> RestRouter:
    if _ACTIVE is None:
        raise FakeDiscordError("no FakeDiscord installed")
    return _ACTIVE


def _route_path(route: discord.http.Route) -> str:
    return route.url[len(route.BASE) :] if route.url.startswith(route.BASE) else route.url


def _answer(call: RestCall) -> Any:
    if 200 <= call.status < 300:
        return None if call.status == 204 else _wire(call.response)
    raise http_exception(call.status, call.response)


async def _patched_http_request(
    self: discord.http.HTTPClient,
    route: discord.http.Route,
    *,
    files: Sequence[discord.File] | None = None,
    form: Any = None,
    **kwargs: Any,
) -> Any:
    """Replacement for `HTTPClient.request`: REST calls of the bot go to the fake's router."""
    fake = _active()
    await asyncio.sleep(0)  # a real request yields to the loop; keeps concurrency realistic
    payload = kwargs.get("json")
    sent: list[SentFile] = []
    if form:
        payload, sent = _parse_multipart(form)
    query = {k: str(v) for k, v in (kwargs.get("params") or {}).items()}
    call = fake.handle_rest(
        route.method, _route_path(route), route=route.path, payload=payload, files=sent, query=query
    )
    return _answer(call)


async def _patched_webhook_request(
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
        payload, sent = _parse_multipart(multipart)
    query = {k: str(v) for k, v in (params or {}).items()}
    call = fake.handle_rest(
        route.method, _route_path(route), route=route.path, payload=payload, files=sent, query=query
    )
    return _answer(call)
