"""Seam B: a loopback Discord (HTTP + websocket gateway on 127.0.0.1) for end-to-end smoke tests.

`LoopbackServer` serves a FakeDiscord's router over real HTTP and a real gateway socket so
`bot.start(token)` runs unchanged. Several bot processes may connect, each with its shards (the
``shard`` of their IDENTIFY): every socket gets the guilds of its shard, and an event reaches the
socket of its guild's shard, ``(guild_id >> 22) % shard_count``, as on Discord; an event without a
guild (a DM interaction) reaches shard 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

import discord
import discord.gateway
import discord.http

from fakediscord import payloads as p
from fakediscord.fake import FakeDiscord
from fakediscord.objects import FakeChannel, FakeDiscordError, FakeMessage, FakeUser, InteractionRecord, SentFile
from fakediscord.payloads import Json


class LoopbackServer:
    """Serves a FakeDiscord (built with patch_http=False) over real HTTP and a real gateway socket.

    `Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY` point at it while it runs, so
    `bot.start(token)` runs unchanged: login over HTTP, HELLO, IDENTIFY, READY, GUILD_CREATE,
    heartbeats and ACKs, then gateway events pushed by `slash()`.
    """

    def __init__(self, fake: FakeDiscord, *, heartbeat_interval_ms: int = 200) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.heartbeats = 0
        self.identified = asyncio.Event()
        self.ready_sent = asyncio.Event()
        self.identify_payload: Json | None = None
        self._sockets: list[Any] = []
        self._shard_of: dict[Any, tuple[int, int]] = {}  # socket -> (shard, shard count) from IDENTIFY
        self._seq = 0
        self._runner: Any = None
        self._saved: list[tuple[Any, str, Any]] = []
        self._activity = asyncio.Event()
        self.port = 0

    async def __aenter__(self) -> LoopbackServer:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        import yarl

        self._save(discord.http.Route, "BASE", f"http://127.0.0.1:{self.port}/api/v10")
        self._save(
            discord.gateway.DiscordWebSocket,
            "DEFAULT_GATEWAY",
            yarl.URL(f"ws://127.0.0.1:{self.port}/gateway"),
        )
        self.fake.install()
        self.fake.router.add_listener(lambda call: self._activity.set())
        return self

    async def __aexit__(self, *exc: object) -> None:
        for ws in list(self._sockets):
            await ws.close()
        await self._runner.cleanup()
        for owner, name, old in reversed(self._saved):
            setattr(owner, name, old)
        self.fake.uninstall()

    def _save(self, owner: Any, name: str, value: Any) -> None:
        self._saved.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, value)

    async def _rest(self, request: Any) -> Any:
        from aiohttp import web

        path = "/" + request.match_info["tail"]
        payload: Any = None
        files: list[SentFile] = []
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            for name, value in form.items():
                if name == "payload_json":
                    payload = json.loads(value)
                elif name.startswith("files["):
                    files.append(SentFile(value.filename, value.file.read(), value.content_type))
        elif request.can_read_body:
            raw = await request.read()
            payload = json.loads(raw) if raw else None
        try:
            call = self.fake.router.handle_rest(
                request.method, path, payload=payload, files=files, query=dict(request.query)
            )
        except FakeDiscordError as exc:
            self.fake.error_log.errors.append(str(exc))
            return web.Response(
                status=404,
                body=json.dumps(p.error_body(0, str(exc))).encode(),
                headers={"Content-Type": "application/json"},
            )
        if call.status == 204:
            return web.Response(status=204, headers=call.headers)
        # Exactly "application/json": discord.http.json_or_text compares the header verbatim, and
        # aiohttp's json_response would append "; charset=utf-8" (login then gets a str and crashes).
        return web.Response(
            status=call.status,
            body=json.dumps(call.response).encode(),
            headers={**call.headers, "Content-Type": "application/json"},  # rate-limit headers when on
        )

    async def _gateway(self, request: Any) -> Any:
        from aiohttp import WSMsgType, web

        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                if frame["op"] == 1:
                    self.heartbeats += 1
                    await ws.send_json({"op": 11})
                elif frame["op"] == 2:
                    self.identify_payload = frame["d"]
                    self.identified.set()
                    sharded = frame["d"].get("shard")
                    shard, count = sharded or (0, 1)
                    guilds = [g for g in self.fake.world.guild_ids if self.shard_of(g, count) == shard]
                    ready = p.ready_payload(
                        self.fake.world.bot_user.payload(),
                        self.fake.world.application_id,
                        guilds,
                        session_id="loopback",
                        resume_gateway_url=f"ws://127.0.0.1:{self.port}/gateway",
                    )
                    if sharded:
                        ready["shard"] = [shard, count]  # AutoShardedClient reads it
                    await self._send(ws, "READY", ready)
                    for guild_id in guilds:
                        await self._send(ws, "GUILD_CREATE", self.fake.world.guild_payload(guild_id))
                    self._shard_of[ws] = (shard, count)  # events reach it from now on
                    self.ready_sent.set()
        finally:
            self._sockets.remove(ws)
            self._shard_of.pop(ws, None)
        return ws

    @staticmethod
    def shard_of(guild_id: int | None, shard_count: int) -> int:
        """Return the shard Discord delivers a guild's events on (DMs: shard 0)."""
        return 0 if guild_id is None else (guild_id >> 22) % shard_count

    def shard_up(self, shard: int) -> bool:
        """Return True when a connected, ready bot has this shard."""
        return any(s == shard for s, _ in self._shard_of.values())

    def serves(self, guild_id: int | None) -> bool:
        """Return True when a connected bot has the shard of this guild (None: of DMs) and is ready."""
        return any(self.shard_of(guild_id, count) == shard for shard, count in self._shard_of.values())

    async def _send(self, ws: Any, event: str, data: Json) -> None:
        self._seq += 1
        await ws.send_json({"op": 0, "s": self._seq, "t": event, "d": data})

    async def dispatch(self, event: str, data: Json) -> None:
        """Push a gateway event to the bots on its guild's shard (see the module's docstring)."""
        guild = data.get("guild_id")
        guild_id = None if guild is None else int(guild)
        for ws, (shard, count) in list(self._shard_of.items()):
            if self.shard_of(guild_id, count) == shard:
                with contextlib.suppress(ConnectionError):  # that bot was killed this instant
                    await self._send(ws, event, data)

    async def slash(
        self,
        bot: discord.Client,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        quiet_s: float = 0.05,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Send a slash command over the gateway; return once it is acknowledged and REST traffic is quiet."""
        rec, payload = self.fake.actions.slash_interaction(bot, user, channel, command, options)
        await self.dispatch("INTERACTION_CREATE", payload)
        await self._settle(lambda: rec.acknowledged, quiet_s, timeout)
        return rec

    async def click(
        self,
        bot: discord.Client,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        *,
        wait: bool = True,
        quiet_s: float = 0.05,
        timeout: float = 5.0,
    ) -> InteractionRecord:
        """Click a button on a message over the gateway; with ``wait``, return once it is
        acknowledged and REST traffic is quiet, else as soon as the event is sent."""
        rec, payload = self.fake.actions.component_interaction(user, message, custom_id, (2,), None)
        await self.dispatch("INTERACTION_CREATE", payload)
        if wait:
            await self._settle(lambda: rec.acknowledged, quiet_s, timeout)
        return rec

    async def _settle(self, done: Callable[[], bool], quiet_s: float, timeout: float) -> None:
        # Over a real socket there is no task tree to await: wait for the condition, then for
        # `quiet_s` without any REST call (global quiescence).
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            self._activity.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._activity.wait(), timeout=quiet_s)
                continue
            if done():
                return
        raise AssertionError("the bot did not settle over the loopback gateway")
