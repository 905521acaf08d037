"""The REST router of both seams, its route table, and the bot's own REST routes.

`RestRouter.handle_rest` matches a request to a route (the template discord.py names, else every
template of the method), logs it as a `RestCall`, passes it through Discord's rate limits when they
are on (`limit`), runs the handler and turns a `Fail` into Discord's error answer. `_routes_table`
is the table of the bot's REST routes (add a route there; the interaction routes are listed by
`InteractionCallbacks.routes` in fakediscord/callbacks.py); the handlers here serve commands,
users, members, channels and messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fakediscord import payloads as p
from fakediscord.callbacks import InteractionCallbacks
from fakediscord.objects import (
    Fail,
    FakeChannel,
    FakeDiscordError,
    FakeMessage,
    InteractionRecord,
    RestCall,
    SentFile,
    invalid,
)
from fakediscord.ratelimits import INVALID_STATUSES, RateLimiter, RateLimits, Verdict
from fakediscord.store import MessageStore
from fakediscord.timekeeping import FakeClock
from fakediscord.validate import validate_message_body
from fakediscord.wire import Handler, Reply, Request, round_trip, template_regex
from fakediscord.world import World

__all__ = ["RestRouter"]


class RestRouter:
    """The REST entry point of both seams, the route table and the bot REST routes."""

    def __init__(self, world: World, store: MessageStore, clock: FakeClock) -> None:
        self.world = world
        self.store = store
        self.clock = clock
        self.callbacks = InteractionCallbacks(world, store, clock.now)
        self.rest_calls: list[RestCall] = []
        self.limiter: RateLimiter | None = None  # Discord's rate limits, when turned on (`limit`)
        self.invalid_requests = 0  # answers of 401, 403 and 429: Discord bans at 10,000 in 10 minutes
        self.forbidden: list[RestCall] = []  # the calls answered 403 (each counts toward that limit)
        self._listeners: list[Callable[[RestCall], None]] = []
        self._routes: dict[tuple[str, str], Handler] = {}
        self._route_list: list[tuple[str, str, re.Pattern[str], Handler]] = []
        for method, template, handler in [*self._routes_table(), *self.callbacks.routes()]:
            self._routes[(method, template)] = handler
            self._route_list.append((method, template, template_regex(template), handler))

    def limit(self, limits: RateLimits | None) -> RateLimiter | None:
        """Turn Discord's rate limits on (with these figures) or off (None); return the limiter.

        While on, the bot's REST calls go through discord.py's real `HTTPClient.request` (its
        buckets, its pre-emptive waits, its 429 retries and global lock) over a stand-in session.
        """
        self.limiter = None if limits is None else RateLimiter(limits, self.clock.limit_clock)
        return self.limiter

    def add_listener(self, listener: Callable[[RestCall], None]) -> None:
        """Call `listener(call)` after every REST request is answered."""
        self._listeners.append(listener)

    def calls(self, method: str | None = None, route: str | None = None) -> list[RestCall]:
        """REST calls filtered by method and/or route template."""
        return [
            c
            for c in self.rest_calls
            if (method is None or c.method == method) and (route is None or c.route == route)
        ]

    # ---------------------------------------------------------------- REST entry point (both seams)

    def handle_rest(
        self,
        method: str,
        path: str,
        *,
        route: str | None = None,
        payload: Any = None,
        files: list[SentFile] | None = None,
        query: dict[str, str] | None = None,
    ) -> RestCall:
        """Route one REST request; returns the logged call with `status` and `response` set."""
        path = path.split("?", 1)[0]
        handler: Handler | None = None
        params: dict[str, str] = {}
        candidates = [(route, template_regex(route), self._routes.get((method, route)))] if route else []
        if not candidates or candidates[0][2] is None:
            candidates = [(t, rx, h) for m, t, rx, h in self._route_list if m == method]
        for template, rx, h in candidates:
            match = rx.match(path)
            if match and h is not None:
                route, handler, params = template, h, match.groupdict()
                break
        # Serialize once at the boundary, as the real client does: catches non-JSON payloads, and the
        # fake never shares objects with the bot.
        payload = round_trip(payload)
        call = RestCall(method, route or path, path, payload, files or [], dict(query or {}))
        self.rest_calls.append(call)
        if handler is None:
            call.status = 404
            call.response = p.error_body(0, f"404: Not Found (route not emulated: {method} {path})")
            raise FakeDiscordError(
                f"the fake does not emulate {method} {path}; add a route in fakediscord/router.py"
            )
        verdict = self.limiter.admit(method, call.route, params) if self.limiter is not None else None
        if verdict is not None:
            call.headers = verdict.headers
        if verdict is not None and verdict.refused is not None:
            call.status, call.response = 429, verdict.refused  # refused before Discord looks at it
        else:
            req = Request(method, call.route, path, params, call.params, payload, call.files)
            try:
                call.status, call.response = handler(req)
            except Fail as fail:
                call.status, call.response = fail.status, fail.body
                rec = self._interaction_for(req)
                if rec is not None:
                    rec.errors.append(fail.body)
        self._count_answer(call, verdict)
        for listener in self._listeners:
            listener(call)
        return call

    def _count_answer(self, call: RestCall, verdict: Verdict | None) -> None:
        """Count an invalid answer (401/403/429, as Discord counts them) and tell the limiter."""
        if call.status in INVALID_STATUSES and not (verdict is not None and verdict.scope == "shared"):
            self.invalid_requests += 1
        if call.status == 403:
            self.forbidden.append(call)
        if self.limiter is not None:
            created = None
            if call.status == 200 and call.method == "POST" and call.route == "/channels/{channel_id}/messages":
                created = int(call.response["id"])
            self.limiter.answered(call.status, verdict, created)

    def _interaction_for(self, req: Request) -> InteractionRecord | None:
        token = req.params.get("interaction_token") or req.params.get("webhook_token")
        return self.store.interaction_by_token(token) if token else None

    def _routes_table(self) -> list[tuple[str, str, Handler]]:
        return [
            ("GET", "/users/@me", lambda r: (200, self.world.bot_user.payload())),
            (
                "GET",
                "/oauth2/applications/@me",
                lambda r: (
                    200,
                    p.application_payload(
                        self.world.application_id, self.world.bot_user.name, self.world.owner.payload()
                    ),
                ),
            ),
            ("GET", "/gateway", lambda r: (200, {"url": "wss://fake.invalid"})),
            (
                "GET",
                "/gateway/bot",
                lambda r: (
                    200,
                    {
                        "url": "wss://fake.invalid",
                        "shards": 1,
                        "session_start_limit": {
                            "total": 1000,
                            "remaining": 1000,
                            "reset_after": 0,
                            "max_concurrency": 1,
                        },
                    },
                ),
            ),
            ("PUT", "/applications/{application_id}/commands", self._r_sync_commands),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", self._r_sync_commands),
            ("GET", "/applications/{application_id}/commands", self._r_get_commands),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", self._r_get_commands),
            ("POST", "/users/@me/channels", self._r_create_dm),
            ("GET", "/users/{user_id}", self._r_get_user),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._r_get_member),
            ("GET", "/channels/{channel_id}", self._r_get_channel),
            ("POST", "/channels/{channel_id}/messages", self._r_create_message),
            ("GET", "/channels/{channel_id}/messages", self._r_history),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._r_get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._r_edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._r_delete_message),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self._r_thread_from_message),
            ("POST", "/channels/{channel_id}/typing", lambda r: (204, None)),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                lambda r: (204, None),
            ),
        ]

    # ---------------------------------------------------------------- route handlers: bot REST

    def _r_sync_commands(self, r: Request) -> Reply:
        scope = int(r.params["guild_id"]) if "guild_id" in r.params else None
        stored = []
        for cmd in r.payload or []:
            if not re.fullmatch(r"[-_\w]{1,32}", cmd["name"]) or cmd["name"] != cmd["name"].lower():
                raise invalid("name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            stored.append(
                {
                    **cmd,
                    "id": str(self.world.ids.next()),
                    "application_id": str(self.world.application_id),
                    "version": str(self.world.ids.next()),
                    **({"guild_id": str(scope)} if scope else {}),
                }
            )
        self.world.commands[scope] = stored
        return 200, stored

    def _r_get_commands(self, r: Request) -> Reply:
        scope = int(r.params["guild_id"]) if "guild_id" in r.params else None
        return 200, self.world.commands.get(scope, [])

    def _r_create_dm(self, r: Request) -> Reply:
        uid = int(r.payload["recipient_id"])
        if uid not in self.world.users:
            raise Fail(400, 50033, "Invalid Recipient(s)")
        return 200, self.world.channel_payload(self.world.dm_channel(self.world.users[uid]))

    def _r_get_user(self, r: Request) -> Reply:
        u = self.world.users.get(int(r.params["user_id"]))
        if u is None:
            raise Fail(404, 10013, "Unknown User")
        return 200, u.payload()

    def _r_get_member(self, r: Request) -> Reply:
        u = self.world.users.get(int(r.params["user_id"]))
        if u is None or not u.in_guild:
            raise Fail(404, 10007, "Unknown Member")
        return 200, self.world.member_payload(u)

    def _channel(self, r: Request) -> FakeChannel:
        ch = self.world.channels.get(int(r.params["channel_id"]))
        if ch is None:
            raise Fail(404, 10003, "Unknown Channel")
        if not ch.is_dm and not self.world.bot_permissions_in(ch) & p.PERM_VIEW_CHANNEL:
            raise Fail(403, 50001, "Missing Access")
        return ch

    def _require(self, ch: FakeChannel, bit: int) -> None:
        """403 50013 unless the bot has permission ``bit`` in the channel (a thread: its channel)."""
        if not self.world.bot_permissions_in(ch) & bit:
            raise Fail(403, 50013, "Missing Permissions")

    def _require_content(self, ch: FakeChannel, body: Any, files: list[SentFile]) -> None:
        """What a message's content needs in a server channel: Attach Files for files, Embed Links
        for embeds (Discord refuses the request without them)."""
        if ch.is_dm:
            return
        if files:
            self._require(ch, p.PERM_ATTACH_FILES)
        if isinstance(body, dict) and body.get("embeds"):
            self._require(ch, p.PERM_EMBED_LINKS)

    def _r_get_channel(self, r: Request) -> Reply:
        return 200, self.world.channel_payload(self._channel(r))

    def _r_create_message(self, r: Request) -> Reply:
        ch = self._channel(r)
        if ch.is_dm:
            assert ch.recipient_id is not None
            if not self.world.users[ch.recipient_id].dms_open:
                raise Fail(403, 50007, "Cannot send messages to this user")
            if not self.world.users[ch.recipient_id].in_guild:
                # Discord only lets a bot DM users it shares a server with.
                raise Fail(403, 50007, "Cannot send messages to this user")
        elif ch.parent_id is not None:
            self._require(ch, p.PERM_SEND_MESSAGES_IN_THREADS)  # Send Messages has no effect in a thread
        else:
            self._require(ch, p.PERM_SEND_MESSAGES)
        body = r.payload or {}
        self._require_content(ch, body, r.files)
        validate_message_body(body, has_files=bool(r.files), creating=True)
        msg = self.store.create(ch, self.world.bot_user, body, r.files, ephemeral_to=None, interaction=None)
        return 200, msg.data

    def _message(self, r: Request, ch: FakeChannel) -> FakeMessage:
        msg = self.store.messages.get(int(r.params["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != ch.id or msg.ephemeral_to is not None:
            raise Fail(404, 10008, "Unknown Message")
        return msg

    def _r_get_message(self, r: Request) -> Reply:
        ch = self._channel(r)
        return 200, self._message(r, ch).data

    def _r_history(self, r: Request) -> Reply:
        ch = self._channel(r)
        msgs = sorted(self.store.channel_messages(ch), key=lambda m: m.id, reverse=True)
        if "before" in r.query:
            msgs = [m for m in msgs if m.id < int(r.query["before"])]
        if "after" in r.query:
            msgs = [m for m in msgs if m.id > int(r.query["after"])]
        limit = int(r.query.get("limit", 50))
        return 200, [m.data for m in msgs[:limit]]

    def _r_edit_message(self, r: Request) -> Reply:
        ch = self._channel(r)
        msg = self._message(r, ch)
        if int(msg.data["author"]["id"]) != self.world.bot_user.id:
            raise Fail(403, 50005, "Cannot edit a message authored by another user")
        self._require_content(ch, r.payload, r.files)
        self.store.edit(msg, r.payload or {}, r.files)
        return 200, msg.data

    def _r_thread_from_message(self, r: Request) -> Reply:
        ch = self._channel(r)
        if ch.is_dm or ch.is_thread:
            raise Fail(400, 50024, "Cannot execute action on this channel type")
        msg = self._message(r, ch)
        self._require(ch, p.PERM_CREATE_PUBLIC_THREADS)
        if any(c.starter_message_id == msg.id for c in self.world.channels.values()):
            raise Fail(400, 160004, "A thread has already been created for this message")
        body = r.payload or {}
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            raise invalid("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        archive = int(body.get("auto_archive_duration") or 1440)
        if archive not in (60, 1440, 4320, 10080):
            raise invalid("auto_archive_duration", "BASE_TYPE_CHOICES", "Value must be one of 60, 1440, 4320, 10080.")
        thread = FakeChannel(
            self.world.ids.next(), name, ch.guild_id, parent_id=ch.id, starter_message_id=msg.id,
            auto_archive_duration=archive,
        )
        self.world.channels[thread.id] = thread
        return 201, self.world.channel_payload(thread)

    def _r_delete_message(self, r: Request) -> Reply:
        ch = self._channel(r)
        msg = self._message(r, ch)
        if int(msg.data["author"]["id"]) != self.world.bot_user.id and not ch.is_dm:
            pass  # bots with Manage Messages may delete others' messages; the fake allows it
        self.store.delete(msg)
        return 204, None
