"""An offline Discord for driving the real discord.py 2.7 client in tests (and later the demo).

Seam A (in-process, the default): `discord.http.HTTPClient.request` (REST) and
`discord.webhook.async_.AsyncWebhookAdapter.request` (interaction callbacks, followups,
`@original` edits) are patched to call this module's REST router; gateway events are injected by
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
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import json
import logging
import re
import time
import traceback
from collections.abc import Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import discord.webhook.async_

# tests/bot is on sys.path (pytest rootdir-style imports); the one import to change when this module
# moves into a runtime package for the demo.
from fakediscord import payloads as p

Json = dict[str, Any]
Reply = tuple[int, Any]

# Discord's 3-second window to acknowledge an interaction, and the token lifetime for followups.
ACK_WINDOW_S = 3.0
TOKEN_LIFETIME_S = 15 * 60.0

# Limits Discord enforces server-side (https://discord.com/developers/docs/resources/message,
# .../interactions/message-components, embed limits); discord.py does not check these locally.
MAX_CONTENT = 2000
MAX_ACTION_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_V2_COMPONENTS = 40
MAX_EMBEDS = 10
MAX_EMBED_TITLE = 256
MAX_EMBED_DESCRIPTION = 4096
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER_TEXT = 2048
MAX_AUTHOR_NAME = 256
MAX_EMBED_TOTAL = 6000
MAX_MODAL_TITLE = 45
MAX_MODAL_COMPONENTS = 5
MAX_AUTOCOMPLETE_CHOICES = 25

PERM_SEND_MESSAGES = 1 << 11
PERM_VIEW_CHANNEL = 1 << 10

# Coroutines that legitimately outlive the event that started them: awaiting them would hang.
DEFAULT_IGNORED_COROUTINES = (
    "__timeout_task_impl",  # discord.ui.View / Modal timeout sleeper
    "send_message.<locals>.inner_call",  # delete_after on interaction responses
    "edit_message.<locals>.inner_call",
    "delete.<locals>.delete",  # Message.delete(delay=...)
    "Loop._loop",  # discord.ext.tasks background loops
)

_COLLECTOR: contextvars.ContextVar[list[asyncio.Task[Any]] | None] = contextvars.ContextVar(
    "fake_discord_collector", default=None
)
_ACTIVE: FakeDiscord | None = None


class FakeDiscordError(AssertionError):
    """The bot did something the fake cannot emulate, or a test drove the fake incorrectly."""


class _FakeResponse:
    """Just enough of an aiohttp response for `discord.HTTPException.__init__`."""

    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason
        self.headers: dict[str, str] = {}


_REASONS = {
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
}


def http_exception(status: int, body: Any) -> discord.HTTPException:
    """The discord.py exception the real client raises for this status and error body."""
    response = _FakeResponse(status, _REASONS.get(status, "Error"))
    if status == 403:
        return discord.Forbidden(response, body)
    if status == 404:
        return discord.NotFound(response, body)
    return discord.HTTPException(response, body)


class _Fail(Exception):
    """Raised inside a route handler: Discord answers with this status and error body."""

    def __init__(self, status: int, code: int, message: str, errors: Json | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body = p.error_body(code, message, errors)


def _invalid(path: str, code: str, message: str) -> _Fail:
    """400 Invalid Form Body (50035) naming the offending field, as Discord reports it."""
    return _Fail(400, 50035, "Invalid Form Body", p.field_error(path, code, message))


# --------------------------------------------------------------------------------------------
# Records the tests read


@dataclass
class SentFile:
    """A file uploaded with a message (multipart `files[n]`), with its bytes."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"


@dataclass
class RestCall:
    """One REST request the bot made (both seams), with the fake's answer."""

    method: str
    route: str  # template, e.g. "/channels/{channel_id}/messages"
    path: str  # concrete path, e.g. "/channels/123/messages"
    payload: Any
    files: list[SentFile]
    params: dict[str, str]
    status: int = 0
    response: Any = None
    at: float = field(default_factory=time.perf_counter)  # wall clock, for latency benchmarks

    @property
    def file_names(self) -> list[str]:
        """Names of the uploaded files."""
        return [f.filename for f in self.files]


@dataclass
class FakeUser:
    """A Discord user (and, when `in_guild`, a member of the fake guild)."""

    id: int
    name: str
    bot: bool = False
    in_guild: bool = True
    permissions: int = p.EVERYONE_PERMISSIONS
    dms_open: bool = True
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        """`<@id>` as the bot would write it."""
        return f"<@{self.id}>"

    def payload(self) -> Json:
        """The user object."""
        return p.user_payload(self.id, self.name, bot=self.bot)


@dataclass
class FakeChannel:
    """A guild text channel or a DM channel (then `recipient_id` is set)."""

    id: int
    name: str
    guild_id: int | None
    position: int = 0
    recipient_id: int | None = None
    bot_can_send: bool = True
    bot_can_view: bool = True

    @property
    def is_dm(self) -> bool:
        """True for a DM channel."""
        return self.recipient_id is not None


@dataclass
class FakeMessage:
    """A message as Discord stores it; `history` keeps every earlier version (for leak scans)."""

    id: int
    channel_id: int
    data: Json
    files: list[SentFile] = field(default_factory=list)
    ephemeral_to: int | None = None  # the only user who can see it
    interaction_id: int | None = None
    history: list[Json] = field(default_factory=list)
    deleted: bool = False

    @property
    def content(self) -> str:
        """Current text content."""
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[Json]:
        """Current embeds (dicts)."""
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[Json]:
        """Current components (dicts)."""
        return list(self.data.get("components") or [])

    @property
    def flags(self) -> int:
        """Message flags."""
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether only one user can see this message."""
        return self.ephemeral_to is not None

    @property
    def loading(self) -> bool:
        """Whether this is a deferred 'Bot is thinking...' message not yet completed."""
        return bool(self.flags & p.MESSAGE_FLAG_LOADING)

    @property
    def custom_ids(self) -> list[str]:
        """Every custom_id on the message, in layout order."""
        return [c["custom_id"] for c in _walk_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> Json | None:
        """The component with this custom_id, or None."""
        for comp in _walk_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content, embed texts, component labels."""
        return _visible_text(self.data)

    def render(self) -> str:
        """A plain-text picture of the message as a client shows it (for the demo and failure output)."""
        lines: list[str] = []
        if self.ephemeral:
            lines.append("(only you can see this)")
        if self.loading:
            lines.append("(thinking...)")
        if self.content:
            lines.append(self.content)
        for emb in self.embeds:
            lines += [f"| {x}" for x in (emb.get("title"), emb.get("description")) if x]
            lines += [f"| {f['name']}: {f['value']}" for f in emb.get("fields") or []]
            if (emb.get("footer") or {}).get("text"):
                lines.append(f"| {emb['footer']['text']}")
        for row in self.components:
            cells = []
            for comp in _walk_components(row.get("components") or []):
                if comp.get("type") == 2:
                    mark = "~" if comp.get("disabled") else ""
                    cells.append(
                        f"[{mark}{comp.get('label') or comp.get('emoji', {}).get('name', '?')}{mark}]"
                    )
                elif comp.get("type") in (3, 5, 6, 7, 8):
                    cells.append(f"<{comp.get('placeholder') or 'select'}>")
            if cells:
                lines.append(" ".join(cells))
        lines += [f"(file: {f.filename}, {len(f.data)} bytes)" for f in self.files]
        return "\n".join(lines)

    def all_texts(self) -> list[str]:
        """The visible text of every version of the message, oldest first."""
        return [_visible_text(v) for v in [*self.history, self.data]]


@dataclass
class InteractionRecord:
    """One interaction the fake sent, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    created_at: float
    payload: Json = field(repr=False)
    message_id: int | None = None  # the message a component was clicked on
    callbacks: list[int] = field(default_factory=list)  # callback types, in order (incl. refused)
    ack_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    modal: Json | None = None
    autocomplete_choices: list[Json] | None = None
    errors: list[Json] = field(default_factory=list)  # error bodies the fake returned for it
    sent_at: float = field(default_factory=time.perf_counter)  # wall clock when the event was built
    acked_at: float | None = None  # wall clock of the accepted callback
    _fake: FakeDiscord | None = field(default=None, repr=False)

    @property
    def ack_latency(self) -> float | None:
        """Seconds from the interaction being sent to the bot until its acknowledgement arrived."""
        return None if self.acked_at is None else self.acked_at - self.sent_at

    @property
    def acknowledged(self) -> bool:
        """Whether the bot acknowledged the interaction (any accepted callback)."""
        return self.ack_type is not None

    @property
    def error_codes(self) -> list[int]:
        """Discord error codes the fake returned for requests on this interaction."""
        return [int(e.get("code", 0)) for e in self.errors]

    @property
    def original(self) -> FakeMessage | None:
        """The response message (type 4/5), or the updated component message (type 6/7)."""
        if self._fake is None or self.original_message_id is None:
            return None
        return self._fake.messages.get(self.original_message_id)

    @property
    def followups(self) -> list[FakeMessage]:
        """Followup messages (a followup that completed a deferred response is the original)."""
        assert self._fake is not None
        return [self._fake.messages[m] for m in self.followup_ids]

    @property
    def replies(self) -> list[FakeMessage]:
        """The original response (if it is a message) and the followups, in order."""
        out: list[FakeMessage] = []
        orig = self.original
        if orig is not None and orig.interaction_id == self.id:
            out.append(orig)
        out.extend(m for m in self.followups if m not in out)
        return out

    @property
    def ephemeral(self) -> bool:
        """Whether the original response was private to the user."""
        orig = self.original
        return orig is not None and orig.ephemeral and orig.interaction_id == self.id


# --------------------------------------------------------------------------------------------
# Component, embed and message validation (Discord-side rules)


def _walk_components(components: Sequence[Json]) -> Iterator[Json]:
    for comp in components:
        yield comp
        if isinstance(comp.get("components"), list):
            yield from _walk_components(comp["components"])
        if isinstance(comp.get("component"), dict):
            yield from _walk_components([comp["component"]])
        if isinstance(comp.get("accessory"), dict):
            yield from _walk_components([comp["accessory"]])


def _visible_text(data: Json) -> str:
    parts: list[str] = [str(data.get("content") or "")]
    for emb in data.get("embeds") or []:
        parts += [str(emb.get(k) or "") for k in ("title", "description")]
        parts += [
            str((emb.get(k) or {}).get(sub) or "") for k, sub in (("author", "name"), ("footer", "text"))
        ]
        for fld in emb.get("fields") or []:
            parts += [str(fld.get("name") or ""), str(fld.get("value") or "")]
    for comp in _walk_components(data.get("components") or []):
        for key in ("label", "content", "placeholder"):
            if comp.get(key):
                parts.append(str(comp[key]))
        for opt in comp.get("options") or []:
            parts += [str(opt.get("label") or ""), str(opt.get("description") or "")]
    return "\n".join(x for x in parts if x)


def validate_embeds(embeds: Sequence[Json]) -> None:
    """Discord's embed limits: 10 embeds, per-field lengths, 25 fields, 6000 characters in all."""
    if len(embeds) > MAX_EMBEDS:
        raise _invalid("embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
    total = 0
    for i, emb in enumerate(embeds):
        checks = [
            ("title", emb.get("title"), MAX_EMBED_TITLE),
            ("description", emb.get("description"), MAX_EMBED_DESCRIPTION),
            ("footer.text", (emb.get("footer") or {}).get("text"), MAX_FOOTER_TEXT),
            ("author.name", (emb.get("author") or {}).get("name"), MAX_AUTHOR_NAME),
        ]
        fields = emb.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            raise _invalid(
                f"embeds.{i}.fields",
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_EMBED_FIELDS} or fewer in length.",
            )
        for j, fld in enumerate(fields):
            if not fld.get("name") or not fld.get("value"):
                raise _invalid(f"embeds.{i}.fields.{j}", "BASE_TYPE_REQUIRED", "This field is required")
            checks.append((f"fields.{j}.name", fld.get("name"), MAX_FIELD_NAME))
            checks.append((f"fields.{j}.value", fld.get("value"), MAX_FIELD_VALUE))
        for path, value, limit in checks:
            if value is None:
                continue
            total += len(str(value))
            if len(str(value)) > limit:
                raise _invalid(
                    f"embeds.{i}.{path}", "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
                )
    if total > MAX_EMBED_TOTAL:
        raise _invalid(
            "embeds", "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"
        )


def _check_custom_id(path: str, comp: Json, seen: set[str]) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        raise _invalid(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
    if not 1 <= len(cid) <= MAX_CUSTOM_ID:
        raise _invalid(
            f"{path}.custom_id", "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_CUSTOM_ID} in length."
        )
    if cid in seen:
        raise _invalid(
            f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
        )
    seen.add(cid)


def _check_interactive(path: str, comp: Json, seen: set[str]) -> None:
    ctype = comp.get("type")
    if ctype == 2:  # button
        if comp.get("style") == 5:  # link
            if "custom_id" in comp or not comp.get("url"):
                raise _invalid(
                    path, "BUTTON_COMPONENT_INVALID_URL", "Link buttons need a url and no custom_id"
                )
        elif comp.get("style") != 6:  # premium buttons carry a sku_id instead
            _check_custom_id(path, comp, seen)
        if len(comp.get("label") or "") > MAX_BUTTON_LABEL:
            raise _invalid(
                f"{path}.label", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_BUTTON_LABEL} or fewer in length."
            )
    elif ctype in (3, 5, 6, 7, 8):  # selects
        _check_custom_id(path, comp, seen)
        options = comp.get("options") or []
        if ctype == 3 and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            raise _invalid(
                f"{path}.options",
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
            )
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= lo <= hi <= MAX_SELECT_OPTIONS or (ctype == 3 and hi > len(options)):
            raise _invalid(path, "SELECT_COMPONENT_BAD_VALUES", "Invalid min_values/max_values")
    elif ctype == 4:  # text input (modals only)
        _check_custom_id(path, comp, seen)


def _check_action_row(path: str, row: Json, seen: set[str]) -> None:
    children = row.get("components") or []
    if not children:
        raise _invalid(f"{path}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    kinds = {c.get("type") for c in children}
    if kinds <= {2}:
        if len(children) > MAX_BUTTONS_PER_ROW:
            raise _invalid(
                f"{path}.components",
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_BUTTONS_PER_ROW} in length.",
            )
    elif len(children) != 1:
        raise _invalid(
            f"{path}.components",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "A select menu must be alone in its action row",
        )
    for j, child in enumerate(children):
        _check_interactive(f"{path}.components.{j}", child, seen)


def validate_components(components: Sequence[Json], *, v2: bool) -> None:
    """Action rows (5 max, 5 buttons or 1 select each), custom_id rules, v2 layout size."""
    seen: set[str] = set()
    if not v2:
        if len(components) > MAX_ACTION_ROWS:
            raise _invalid(
                "components", "BASE_TYPE_BAD_LENGTH", f"Must be {MAX_ACTION_ROWS} or fewer in length."
            )
        for i, row in enumerate(components):
            if row.get("type") != 1:
                raise _invalid(
                    f"components.{i}", "UNION_TYPE_CHOICES", "Top-level components must be action rows"
                )
            _check_action_row(f"components.{i}", row, seen)
        return
    everything = list(_walk_components(components))
    if len(everything) > MAX_V2_COMPONENTS:
        raise _invalid(
            "components", "BASE_TYPE_BAD_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in total."
        )
    for i, comp in enumerate(everything):
        # Interactive components live in action rows (checked with their row) or as section accessories.
        if comp.get("type") == 1:
            _check_action_row(f"components.{i}", comp, seen)
        acc = comp.get("accessory")
        if isinstance(acc, dict) and acc.get("type") == 2:
            _check_interactive(f"components.{i}.accessory", acc, seen)


def validate_message_body(body: Json, *, has_files: bool, creating: bool) -> None:
    """Content, embeds and components rules for a message create or edit."""
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & p.MESSAGE_FLAG_COMPONENTS_V2)
    content = body.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        raise _invalid("content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length.")
    if v2 and (content or body.get("embeds")):
        raise _invalid(
            "content",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used with components v2",
        )
    if body.get("embeds"):
        validate_embeds(body["embeds"])
    if body.get("components"):
        validate_components(body["components"], v2=v2)
    if creating and not (
        content
        or body.get("embeds")
        or body.get("components")
        or has_files
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        raise _Fail(400, 50006, "Cannot send an empty message")


# --------------------------------------------------------------------------------------------
# Request parsing helpers shared by both seams


def _wire(value: Any) -> Any:
    """A JSON round trip: what crossing the network does to a payload (fast deep copy, JSON only)."""
    return None if value is None else json.loads(json.dumps(value))


def _read_file_value(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    if isinstance(value, str):
        return value.encode()
    if hasattr(value, "read"):
        pos = value.tell() if hasattr(value, "tell") else None
        data = value.read()
        if pos is not None and hasattr(value, "seek"):
            value.seek(pos)
        return data if isinstance(data, bytes) else str(data).encode()
    raise FakeDiscordError(f"cannot read multipart value {value!r}")


def _parse_multipart(form: Sequence[Json]) -> tuple[Any, list[SentFile]]:
    payload: Any = None
    files: list[SentFile] = []
    for part in form:
        if part.get("name") == "payload_json":
            payload = json.loads(part["value"])
        elif str(part.get("name", "")).startswith("files["):
            files.append(
                SentFile(
                    part.get("filename") or "file",
                    _read_file_value(part["value"]),
                    part.get("content_type") or "application/octet-stream",
                )
            )
    return payload, files


def _template_regex(template: str) -> re.Pattern[str]:
    out = ""
    for piece in re.split(r"(\{[a-z_]+\})", template):
        if piece.startswith("{") and piece.endswith("}"):
            out += f"(?P<{piece[1:-1]}>[^/]+)"
        else:
            out += re.escape(piece)
    return re.compile(out + "$")


@dataclass
class _Request:
    method: str
    route: str
    path: str
    params: dict[str, str]  # path parameters
    query: dict[str, str]
    payload: Any
    files: list[SentFile]


Handler = Callable[[_Request], Reply]


# --------------------------------------------------------------------------------------------
# The stand-in gateway socket of an in-process bot


class _FakeGatewaySocket:
    """What `Client.ws` needs in-process: presence updates are recorded, nothing is sent."""

    def __init__(self, fake: FakeDiscord) -> None:
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


class _ErrorRecorder(logging.Handler):
    """Collects ERROR records from the `discord` logger (discord.py logs and swallows handler errors)."""

    def __init__(self, fake: FakeDiscord) -> None:
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


# --------------------------------------------------------------------------------------------
# The fake


class FakeDiscord:
    """Discord's side of the conversation: state, REST router, validations, event injection.

    Use as a context manager (installs the patches and the error recorder, restores on exit),
    or through the `fake` fixture in tests/bot/conftest.py.
    """

    def __init__(
        self,
        *,
        guild_name: str = "Fake Guild",
        bot_name: str = "TempleTable",
        patch_http: bool = True,
        real_time: bool = True,
        settle_timeout: float = 10.0,
        error_loggers: tuple[str, ...] = ("discord",),
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
        self.guild_name = guild_name
        self.manager_role_id = self.ids.next()
        self.bot_role_id = self.ids.next()
        self.users: dict[int, FakeUser] = {}
        self.bots: list[discord.Client] = []
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channel_ids: dict[int, int] = {}  # user id -> DM channel id
        self.messages: dict[int, FakeMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self.rest_calls: list[RestCall] = []
        self.commands: dict[int | None, list[Json]] = {}  # synced commands by guild id (None: global)
        self.presences: list[Json] = []
        self.open_modals: dict[int, InteractionRecord] = {}  # user id -> interaction that opened it
        self.errors: list[str] = []
        self.ignored_coroutines: list[str] = list(DEFAULT_IGNORED_COROUTINES)
        self._expected: list[tuple[re.Pattern[str], list[str]]] = []
        self._recorder = _ErrorRecorder(self)
        # Loggers whose ERROR records fail the test; add the bot's own (e.g. "temple_table").
        self.error_loggers = error_loggers
        self._saved: list[tuple[Any, str, Any]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._prev_factory: Any = None
        self._routes: dict[tuple[str, str], Handler] = {}
        self._route_list: list[tuple[str, str, re.Pattern[str], Handler]] = []
        self._register_routes()
        self._listeners: list[Callable[[RestCall], None]] = []
        self._message_listeners: list[Callable[[str, FakeMessage], None]] = []
        self._schemas: dict[tuple[int, int], tuple[Any, Json]] = {}
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
        global _ACTIVE
        if self.patch_http:
            if _ACTIVE is not None and _ACTIVE is not self:
                raise FakeDiscordError("another FakeDiscord is already installed")
            _ACTIVE = self
            self._patch(discord.http.HTTPClient, "request", _patched_http_request)
            self._patch(discord.webhook.async_.AsyncWebhookAdapter, "request", _patched_webhook_request)
        for name in self.error_loggers:
            logging.getLogger(name).addHandler(self._recorder)

    def uninstall(self) -> None:
        """Restore everything `install` changed."""
        global _ACTIVE
        for name in self.error_loggers:
            logging.getLogger(name).removeHandler(self._recorder)
        for owner, name, old in reversed(self._saved):
            setattr(owner, name, old)
        self._saved.clear()
        if _ACTIVE is self:
            _ACTIVE = None
        self._restore_task_factory()

    def _patch(self, owner: Any, name: str, new: Any) -> None:
        self._saved.append((owner, name, owner.__dict__[name]))
        setattr(owner, name, new)

    # ---------------------------------------------------------------- clock

    def now(self) -> float:
        """The fake's notion of time in seconds: real elapsed time (if real_time) plus `advance`s."""
        real = time.monotonic() - self._t0 if self.real_time else 0.0
        return real + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock forward (e.g. to make an acknowledgement late)."""
        self._clock_offset += seconds

    # ---------------------------------------------------------------- world building

    def user(
        self,
        name: str,
        *,
        in_guild: bool = True,
        dms_open: bool = True,
        manage_guild: bool = False,
        permissions: int | None = None,
        locale: str = "en-US",
    ) -> FakeUser:
        """Create a user (a guild member unless in_guild=False); ids are deterministic."""
        perms = p.EVERYONE_PERMISSIONS if permissions is None else permissions
        if manage_guild:
            perms |= p.PERM_MANAGE_GUILD
        u = FakeUser(
            self.ids.next(), name, in_guild=in_guild, permissions=perms, dms_open=dms_open, locale=locale
        )
        self.users[u.id] = u
        if in_guild:
            for bot in self.bots:
                data = {**self._member_payload(u), "guild_id": str(self.guild_id)}
                bot._connection.parsers["GUILD_MEMBER_ADD"](data)
        return u

    def text_channel(self, name: str) -> FakeChannel:
        """Create a guild text channel."""
        ch = FakeChannel(self.ids.next(), name, self.guild_id, position=len(self.channels))
        self.channels[ch.id] = ch
        for bot in self.bots:
            bot._connection.parsers["CHANNEL_CREATE"](self._channel_payload(ch))
        return ch

    def close_dms(self, user: FakeUser) -> None:
        """The user does not accept DMs from the bot: sending to them fails with 403/50007."""
        user.dms_open = False

    def open_dms(self, user: FakeUser) -> None:
        """The user accepts DMs again."""
        user.dms_open = True

    def set_bot_permissions(self, channel: FakeChannel, *, send: bool = True, view: bool = True) -> None:
        """Deny (or grant back) the bot Send Messages / View Channel in a channel (403 50013 / 50001)."""
        channel.bot_can_send = send
        channel.bot_can_view = view
        for bot in self.bots:
            bot._connection.parsers["CHANNEL_UPDATE"](self._channel_payload(channel))

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and this user (created on first use, as Discord does)."""
        cid = self.dm_channel_ids.get(user.id)
        if cid is None:
            ch = FakeChannel(self.ids.next(), f"dm-{user.name}", None, recipient_id=user.id)
            self.channels[ch.id] = ch
            self.dm_channel_ids[user.id] = ch.id
            return ch
        return self.channels[cid]

    # ---------------------------------------------------------------- payload assembly

    def _roles_of(self, u: FakeUser) -> list[int]:
        if u.bot:
            return [self.bot_role_id]
        return [self.manager_role_id] if u.permissions & p.PERM_MANAGE_GUILD else []

    def _joined_at(self) -> str:
        return p.snowflake_time_iso(self.guild_id)

    def _member_payload(
        self, u: FakeUser, *, with_permissions: bool = False, channel: FakeChannel | None = None
    ) -> Json:
        perms = None
        if with_permissions:
            perms = p.ALL_PERMISSIONS if u.id == self.owner.id else u.permissions
        return p.member_payload(
            u.payload(), joined_at=self._joined_at(), roles=self._roles_of(u), permissions=perms
        )

    def _channel_payload(self, ch: FakeChannel) -> Json:
        if ch.is_dm:
            assert ch.recipient_id is not None
            return p.dm_channel_payload(ch.id, self.users[ch.recipient_id].payload())
        deny = (0 if ch.bot_can_send else PERM_SEND_MESSAGES) | (0 if ch.bot_can_view else PERM_VIEW_CHANNEL)
        overwrites = (
            [p.permission_overwrite_payload(self.bot_user.id, allow=0, deny=deny, member=True)]
            if deny
            else []
        )
        return p.text_channel_payload(ch.id, self.guild_id, ch.name, ch.position, overwrites)

    def guild_payload(self) -> Json:
        """GUILD_CREATE for the fake guild as it is now."""
        members = [self._member_payload(u) for u in self.users.values() if u.in_guild]
        roles = [
            p.role_payload(self.guild_id, "@everyone", p.EVERYONE_PERMISSIONS),
            p.role_payload(self.manager_role_id, "Managers", p.EVERYONE_PERMISSIONS | p.PERM_MANAGE_GUILD, 1),
            p.role_payload(self.bot_role_id, self.bot_user.name, p.BOT_PERMISSIONS, 2),
        ]
        channels = [self._channel_payload(c) for c in self.channels.values() if not c.is_dm]
        return p.guild_payload(
            self.guild_id,
            self.guild_name,
            owner_id=self.owner.id,
            channels=channels,
            members=members,
            roles=roles,
            joined_at=self._joined_at(),
        )

    def _app_permissions(self, ch: FakeChannel) -> int:
        perms = p.BOT_PERMISSIONS
        if not ch.bot_can_send:
            perms &= ~PERM_SEND_MESSAGES
        if not ch.bot_can_view:
            perms &= ~PERM_VIEW_CHANNEL
        return perms

    def _new_interaction(
        self,
        user: FakeUser,
        channel: FakeChannel,
        itype: int,
        data: Json | None,
        message: FakeMessage | None = None,
    ) -> tuple[InteractionRecord, Json]:
        iid = self.ids.next()
        token = f"itok{iid}"
        guild_id = None if channel.is_dm else self.guild_id
        if guild_id is not None and not user.in_guild:
            raise FakeDiscordError(f"{user.name} is not a member of the guild")
        if channel.is_dm and channel.recipient_id != user.id:
            raise FakeDiscordError(f"{user.name} cannot act in another user's DM channel")
        payload = p.interaction_payload(
            interaction_id=iid,
            application_id=self.application_id,
            token=token,
            interaction_type=itype,
            data=data,
            channel=self._channel_payload(channel),
            guild_id=guild_id,
            member=self._member_payload(user, with_permissions=True) if guild_id else None,
            user=user.payload() if guild_id is None else None,
            message=_wire(message.data) if message is not None else None,
            locale=user.locale,
            app_permissions=self._app_permissions(channel),
        )
        rec = InteractionRecord(
            iid,
            token,
            itype,
            user.id,
            channel.id,
            guild_id,
            self.now(),
            payload,
            message_id=message.id if message else None,
            _fake=self,
        )
        self.interactions[iid] = rec
        self._by_token[token] = rec
        return rec, payload

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
        bucket = _COLLECTOR.get()  # the creating code's context: set only inside an injected event
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

    # ---------------------------------------------------------------- interactions (test API)

    def _resolve_command(
        self, bot: discord.Client, command: str, channel: FakeChannel
    ) -> tuple[Json, list[str]]:
        tree = getattr(bot, "tree", None)
        if tree is None:
            raise FakeDiscordError("the bot has no CommandTree")
        names = command.split()
        guild = None if channel.is_dm else discord.Object(self.guild_id)
        root = tree.get_command(names[0], guild=guild) if guild else None
        scope_guild = root is not None
        if root is None:
            root = tree.get_command(names[0])
        if root is None:
            raise FakeDiscordError(
                f"/{names[0]} is not registered in the bot's tree (Discord would not offer it)"
            )
        key = (id(tree), id(root))
        cached = self._schemas.get(key)
        if cached is None or cached[0] is not root:
            cached = (root, root.to_dict(tree))  # keeps `root` alive so its id cannot be reused
            self._schemas[key] = cached
        schema: Json = dict(cached[1])
        if scope_guild:
            schema["guild_id"] = str(self.guild_id)
        return schema, names

    def _check_command_access(self, schema: Json, user: FakeUser, channel: FakeChannel) -> None:
        contexts = schema.get("contexts")
        if channel.is_dm and (
            schema.get("dm_permission") is False or (contexts is not None and 1 not in contexts)
        ):
            raise FakeDiscordError(f"/{schema['name']} is guild-only; Discord does not offer it in DMs")
        needed = schema.get("default_member_permissions")
        if needed is not None and not channel.is_dm and user.id != self.owner.id:
            have = user.permissions
            if not have & p.PERM_ADMINISTRATOR and int(needed) & ~have:
                raise FakeDiscordError(
                    f"{user.name} lacks the permissions /{schema['name']} requires; Discord hides it"
                )

    def _option_value(self, opt: Json, value: Any, resolved: Json) -> Any:
        otype = opt["type"]
        name = opt["name"]
        if otype == p.OPTION_USER:
            if not isinstance(value, FakeUser):
                raise FakeDiscordError(f"option {name}: pass a FakeUser")
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            if value.in_guild:
                member = self._member_payload(value, with_permissions=True)
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if otype == p.OPTION_CHANNEL:
            if not isinstance(value, FakeChannel):
                raise FakeDiscordError(f"option {name}: pass a FakeChannel")
            ch = self._channel_payload(value)
            ch["permissions"] = str(self._app_permissions(value))
            resolved.setdefault("channels", {})[str(value.id)] = ch
            return str(value.id)
        if otype == p.OPTION_INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise FakeDiscordError(f"option {name}: Discord only sends integers here, got {value!r}")
        elif otype == p.OPTION_NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise FakeDiscordError(f"option {name}: Discord only sends numbers here, got {value!r}")
        elif otype == p.OPTION_BOOLEAN:
            if not isinstance(value, bool):
                raise FakeDiscordError(f"option {name}: Discord only sends booleans here, got {value!r}")
        elif otype == p.OPTION_STRING:
            if not isinstance(value, str):
                raise FakeDiscordError(f"option {name}: Discord only sends strings here, got {value!r}")
            if ("min_length" in opt and len(value) < opt["min_length"]) or len(value) > opt.get(
                "max_length", 6000
            ):
                raise FakeDiscordError(f"option {name}: length outside what Discord's client allows")
        else:
            raise FakeDiscordError(f"option {name}: option type {otype} is not emulated")
        if otype in (p.OPTION_INTEGER, p.OPTION_NUMBER):
            if opt.get("min_value") is not None and value < opt["min_value"]:
                raise FakeDiscordError(f"option {name}: {value} is below min_value {opt['min_value']}")
            if opt.get("max_value") is not None and value > opt["max_value"]:
                raise FakeDiscordError(f"option {name}: {value} is above max_value {opt['max_value']}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise FakeDiscordError(f"option {name}: {value!r} is not one of the choices")
        return value

    def _command_options(
        self, schema: Json, names: list[str], options: dict[str, Any], focused: str | None = None
    ) -> tuple[list[Json], Json]:
        level = schema
        path: list[Json] = []
        for sub in names[1:]:
            found = next(
                (o for o in level.get("options", []) if o["name"] == sub and o["type"] in (1, 2)), None
            )
            if found is None:
                raise FakeDiscordError(f"/{' '.join(names)}: no subcommand {sub!r}")
            path.append(found)
            level = found
        if any(o["type"] in (1, 2) for o in level.get("options", [])):
            raise FakeDiscordError(f"/{' '.join(names)} is a group; name a subcommand")
        resolved: Json = {}
        leaf: list[Json] = []
        declared = {o["name"]: o for o in level.get("options", [])}
        unknown = set(options) - set(declared)
        if unknown:
            raise FakeDiscordError(f"/{' '.join(names)} has no option(s) {sorted(unknown)}")
        for name, opt in declared.items():
            if name not in options:
                if opt.get("required") and name != focused:
                    raise FakeDiscordError(f"/{' '.join(names)}: required option {name!r} missing")
                continue
            if name == focused:
                leaf.append(p.option_payload(name, opt["type"], options[name], focused=True))
            else:
                leaf.append(
                    p.option_payload(name, opt["type"], self._option_value(opt, options[name], resolved))
                )
        for node in reversed(path):
            leaf = [p.option_payload(node["name"], node["type"], options=leaf)]
        return leaf, resolved

    def _slash_payload(
        self,
        bot: discord.Client,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any] | None,
        *,
        focused: str | None = None,
    ) -> tuple[InteractionRecord, Json]:
        schema, names = self._resolve_command(bot, command, channel)
        self._check_command_access(schema, user, channel)
        opts, resolved = self._command_options(schema, names, options or {}, focused)
        cmd_id = self._command_id(schema)
        guild_id = int(schema["guild_id"]) if "guild_id" in schema else None
        data = p.command_data(cmd_id, names[0], opts, guild_id=guild_id, resolved=resolved)
        itype = p.INTERACTION_AUTOCOMPLETE if focused else p.INTERACTION_APPLICATION_COMMAND
        return self._new_interaction(user, channel, itype, data)

    def _command_id(self, schema: Json) -> int:
        scope = int(schema["guild_id"]) if "guild_id" in schema else None
        for cmd in self.commands.get(scope, []):
            if cmd["name"] == schema["name"]:
                return int(cmd["id"])
        # Not synced in this test: a stable made-up id per name is what Discord would have assigned.
        return (self.application_id + sum(map(ord, schema["name"]))) & ((1 << 63) - 1)

    async def _run_interaction(
        self, rec: InteractionRecord, payload: Json, bot: discord.Client | None, expect_ack: bool
    ) -> InteractionRecord:
        target = self._current_bot(bot)
        bucket: list[asyncio.Task[Any]] = []
        self._parse_in(bucket, target, "INTERACTION_CREATE", payload)
        await self._drain(bucket)
        self.check_errors()
        if expect_ack and not rec.acknowledged:
            raise AssertionError(
                f"interaction {rec.id} ({_describe(payload)}) was never acknowledged: the user sees "
                f"'This interaction failed'. Refused callbacks: {rec.errors}"
            )
        return rec

    async def slash(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any] | None = None,
        *,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Run a slash command ("incan new" = subcommand `new` of group `incan`) and wait until handled.

        Options are checked against the command's schema (types, required, choices, min/max) as
        Discord's client would; USER/CHANNEL options take FakeUser/FakeChannel and fill `resolved`.
        """
        rec, payload = self._slash_payload(self._current_bot(bot), user, channel, command, options)
        return await self._run_interaction(rec, payload, bot, expect_ack)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        options: dict[str, Any],
        focused: str,
        *,
        bot: discord.Client | None = None,
    ) -> list[Json]:
        """Ask for autocomplete choices of the `focused` option; returns the choices the bot sent."""
        rec, payload = self._slash_payload(
            self._current_bot(bot), user, channel, command, options, focused=focused
        )
        await self._run_interaction(rec, payload, bot, expect_ack=True)
        return rec.autocomplete_choices or []

    def _visible_message(self, user: FakeUser, message: FakeMessage | int) -> FakeMessage:
        msg = self.messages.get(message if isinstance(message, int) else message.id)
        if msg is None or msg.deleted:
            raise FakeDiscordError("that message does not exist (deleted or never sent)")
        if msg.ephemeral_to is not None and msg.ephemeral_to != user.id:
            raise FakeDiscordError(f"{user.name} cannot see an ephemeral message meant for someone else")
        ch = self.channels[msg.channel_id]
        if ch.is_dm and ch.recipient_id != user.id:
            raise FakeDiscordError(f"{user.name} cannot see another user's DMs")
        return msg

    def _component_interaction(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        kinds: tuple[int, ...],
        values: list[str] | None,
    ) -> tuple[InteractionRecord, Json]:
        msg = self._visible_message(user, message)
        comp = msg.component(custom_id)
        if comp is None or comp.get("type") not in kinds:
            raise FakeDiscordError(
                f"no component {custom_id!r} of type {kinds} on message {msg.id}; it has {msg.custom_ids} "
                "(Discord only lets users use components that are on the message)"
            )
        if comp.get("disabled"):
            raise FakeDiscordError(f"component {custom_id!r} is disabled; Discord does not let users use it")
        if values is not None and comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
            if (
                any(v not in allowed for v in values)
                or not lo <= len(values) <= hi
                or len(set(values)) != len(values)
            ):
                raise FakeDiscordError(
                    f"select {custom_id!r} cannot send {values}: options {allowed}, {lo}..{hi}"
                )
        data = p.component_data(custom_id, comp["type"], values)
        if values is not None and comp["type"] in (5, 6):
            # user/member selects: resolve the picked users as Discord does
            data["resolved"] = {"users": {v: self.users[int(v)].payload() for v in values}}
        return self._new_interaction(user, self.channels[msg.channel_id], p.INTERACTION_COMPONENT, data, msg)

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        *,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Click a button; it must be on the message (channel, DM or the user's ephemeral) and enabled."""
        rec, payload = self._component_interaction(user, message, custom_id, (2,), None)
        return await self._run_interaction(rec, payload, bot, expect_ack)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: list[str],
        *,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Pick values in a select menu on the message (values checked against its options)."""
        rec, payload = self._component_interaction(user, message, custom_id, (3, 5, 6, 7, 8), values)
        return await self._run_interaction(rec, payload, bot, expect_ack)

    async def submit_modal(
        self,
        user: FakeUser,
        values: dict[str, str],
        *,
        custom_id: str | None = None,
        bot: discord.Client | None = None,
        expect_ack: bool = True,
    ) -> InteractionRecord:
        """Submit the modal the bot last opened for this user, with text values by custom_id."""
        opener = self.open_modals.get(user.id)
        if opener is None or opener.modal is None:
            raise FakeDiscordError(f"no modal is open for {user.name}")
        modal = opener.modal
        if custom_id is not None and modal["custom_id"] != custom_id:
            raise FakeDiscordError(f"the open modal is {modal['custom_id']!r}, not {custom_id!r}")
        inputs = [c for c in _walk_components(modal.get("components", [])) if c.get("type") == 4]
        known = {c["custom_id"] for c in inputs}
        if set(values) - known:
            raise FakeDiscordError(f"the modal has no text inputs {sorted(set(values) - known)}")
        for c in inputs:
            val = values.get(c["custom_id"], "")
            if c.get("required", True) and not val:
                raise FakeDiscordError(f"text input {c['custom_id']!r} is required")
            if len(val) > c.get("max_length", 4000) or (val and len(val) < c.get("min_length", 0)):
                raise FakeDiscordError(f"text input {c['custom_id']!r}: length outside its limits")

        def submitted(comp: Json) -> Json:
            if comp["type"] == 1:
                return {"type": 1, "components": [submitted(c) for c in comp["components"]]}
            if comp["type"] == 18:
                return {"type": 18, "component": submitted(comp["component"])}
            if comp["type"] == 4:
                return {"type": 4, "custom_id": comp["custom_id"], "value": values.get(comp["custom_id"], "")}
            return {k: v for k, v in comp.items() if k in ("type", "custom_id")}

        data = p.modal_submit_data(modal["custom_id"], [submitted(c) for c in modal.get("components", [])])
        del self.open_modals[user.id]
        msg = self.messages.get(opener.message_id) if opener.message_id else None
        rec, payload = self._new_interaction(
            user, self.channels[opener.channel_id], p.INTERACTION_MODAL_SUBMIT, data, msg
        )
        return await self._run_interaction(rec, payload, bot, expect_ack)

    async def say(
        self, user: FakeUser, channel: FakeChannel, content: str, *, bot: discord.Client | None = None
    ) -> FakeMessage:
        """A user posts a plain message (MESSAGE_CREATE), e.g. for prefix commands."""
        msg = self._store_message(
            channel, user, {"content": content}, [], ephemeral_to=None, interaction=None
        )
        data = _wire(msg.data)
        if not channel.is_dm:
            member = self._member_payload(user)
            member.pop("user")
            data["member"] = member
        await self.dispatch("MESSAGE_CREATE", data, bot=bot)
        return msg

    # ---------------------------------------------------------------- accessors

    def channel_messages(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Messages currently in a channel, oldest first (ephemeral ones only if asked)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.deleted and (include_ephemeral or m.ephemeral_to is None)
        ]

    def dm_messages(self, user: FakeUser | int) -> list[FakeMessage]:
        """Messages in the bot's DM channel with this user, oldest first."""
        uid = user if isinstance(user, int) else user.id
        cid = self.dm_channel_ids.get(uid)
        return [] if cid is None else self.channel_messages(cid, include_ephemeral=True)

    def ephemeral_replies(self, user: FakeUser | int) -> list[FakeMessage]:
        """Every ephemeral message only this user could see, oldest first."""
        uid = user if isinstance(user, int) else user.id
        return [m for m in self.messages.values() if m.ephemeral_to == uid and not m.deleted]

    def public_messages(self) -> list[FakeMessage]:
        """Every non-ephemeral guild channel message, including deleted ones (for leak scans)."""
        return [
            m
            for m in self.messages.values()
            if m.ephemeral_to is None and not self.channels[m.channel_id].is_dm
        ]

    def public_texts(self) -> list[str]:
        """The visible text of every version of every public guild message (what must never leak)."""
        return [text for m in self.public_messages() for text in m.all_texts()]

    def last_interaction_response(self, user: FakeUser | int | None = None) -> InteractionRecord:
        """The most recent interaction (of this user, if given), with what the bot answered."""
        uid = user if isinstance(user, int) or user is None else user.id
        for rec in reversed(self.interactions.values()):
            if uid is None or rec.user_id == uid:
                return rec
        raise FakeDiscordError("no interaction yet")

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
        candidates = [(route, _template_regex(route), self._routes.get((method, route)))] if route else []
        if not candidates or candidates[0][2] is None:
            candidates = [(t, rx, h) for m, t, rx, h in self._route_list if m == method]
        for template, rx, h in candidates:
            match = rx.match(path)
            if match and h is not None:
                route, handler, params = template, h, match.groupdict()
                break
        # Serialize once at the boundary, as the real client does: catches non-JSON payloads, and the
        # fake never shares objects with the bot.
        payload = _wire(payload)
        call = RestCall(method, route or path, path, payload, files or [], dict(query or {}))
        self.rest_calls.append(call)
        if handler is None:
            call.status = 404
            call.response = p.error_body(0, f"404: Not Found (route not emulated: {method} {path})")
            raise FakeDiscordError(
                f"the fake does not emulate {method} {path}; add a route in fakediscord/actions.py"
            )
        req = _Request(method, call.route, path, params, call.params, payload, call.files)
        try:
            call.status, call.response = handler(req)
        except _Fail as fail:
            call.status, call.response = fail.status, fail.body
            rec = self._interaction_for(req)
            if rec is not None:
                rec.errors.append(fail.body)
        for listener in self._listeners:
            listener(call)
        return call

    def _interaction_for(self, req: _Request) -> InteractionRecord | None:
        token = req.params.get("interaction_token") or req.params.get("webhook_token")
        return self._by_token.get(token) if token else None

    def _register_routes(self) -> None:
        table: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", lambda r: (200, self.bot_user.payload())),
            (
                "GET",
                "/oauth2/applications/@me",
                lambda r: (
                    200,
                    p.application_payload(self.application_id, self.bot_user.name, self.owner.payload()),
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
            ("POST", "/channels/{channel_id}/typing", lambda r: (204, None)),
            (
                "PUT",
                "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                lambda r: (204, None),
            ),
            ("POST", "/interactions/{interaction_id}/{interaction_token}/callback", self._r_callback),
            ("GET", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", self._r_get_original),
            ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", self._r_edit_original),
            ("DELETE", "/webhooks/{webhook_id}/{webhook_token}/messages/@original", self._r_delete_original),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self._r_followup),
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._r_get_webhook_message,
            ),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._r_edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._r_delete_webhook_message,
            ),
        ]
        for method, template, handler in table:
            self._routes[(method, template)] = handler
            self._route_list.append((method, template, _template_regex(template), handler))

    # ---------------------------------------------------------------- route handlers: bot REST

    def _r_sync_commands(self, r: _Request) -> Reply:
        scope = int(r.params["guild_id"]) if "guild_id" in r.params else None
        stored = []
        for cmd in r.payload or []:
            if not re.fullmatch(r"[-_\w]{1,32}", cmd["name"]) or cmd["name"] != cmd["name"].lower():
                raise _invalid("name", "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
            stored.append(
                {
                    **cmd,
                    "id": str(self.ids.next()),
                    "application_id": str(self.application_id),
                    "version": str(self.ids.next()),
                    **({"guild_id": str(scope)} if scope else {}),
                }
            )
        self.commands[scope] = stored
        return 200, stored

    def _r_get_commands(self, r: _Request) -> Reply:
        scope = int(r.params["guild_id"]) if "guild_id" in r.params else None
        return 200, self.commands.get(scope, [])

    def _r_create_dm(self, r: _Request) -> Reply:
        uid = int(r.payload["recipient_id"])
        if uid not in self.users:
            raise _Fail(400, 50033, "Invalid Recipient(s)")
        return 200, self._channel_payload(self.dm_channel(self.users[uid]))

    def _r_get_user(self, r: _Request) -> Reply:
        u = self.users.get(int(r.params["user_id"]))
        if u is None:
            raise _Fail(404, 10013, "Unknown User")
        return 200, u.payload()

    def _r_get_member(self, r: _Request) -> Reply:
        u = self.users.get(int(r.params["user_id"]))
        if u is None or not u.in_guild:
            raise _Fail(404, 10007, "Unknown Member")
        return 200, self._member_payload(u)

    def _channel(self, r: _Request) -> FakeChannel:
        ch = self.channels.get(int(r.params["channel_id"]))
        if ch is None:
            raise _Fail(404, 10003, "Unknown Channel")
        if not ch.bot_can_view:
            raise _Fail(403, 50001, "Missing Access")
        return ch

    def _r_get_channel(self, r: _Request) -> Reply:
        return 200, self._channel_payload(self._channel(r))

    def _r_create_message(self, r: _Request) -> Reply:
        ch = self._channel(r)
        if ch.is_dm:
            assert ch.recipient_id is not None
            if not self.users[ch.recipient_id].dms_open:
                raise _Fail(403, 50007, "Cannot send messages to this user")
            if not self.users[ch.recipient_id].in_guild:
                # Discord only lets a bot DM users it shares a server with.
                raise _Fail(403, 50007, "Cannot send messages to this user")
        elif not ch.bot_can_send:
            raise _Fail(403, 50013, "Missing Permissions")
        body = r.payload or {}
        validate_message_body(body, has_files=bool(r.files), creating=True)
        msg = self._store_message(ch, self.bot_user, body, r.files, ephemeral_to=None, interaction=None)
        return 200, msg.data

    def _message(self, r: _Request, ch: FakeChannel) -> FakeMessage:
        msg = self.messages.get(int(r.params["message_id"]))
        if msg is None or msg.deleted or msg.channel_id != ch.id or msg.ephemeral_to is not None:
            raise _Fail(404, 10008, "Unknown Message")
        return msg

    def _r_get_message(self, r: _Request) -> Reply:
        ch = self._channel(r)
        return 200, self._message(r, ch).data

    def _r_history(self, r: _Request) -> Reply:
        ch = self._channel(r)
        msgs = sorted(self.channel_messages(ch), key=lambda m: m.id, reverse=True)
        if "before" in r.query:
            msgs = [m for m in msgs if m.id < int(r.query["before"])]
        if "after" in r.query:
            msgs = [m for m in msgs if m.id > int(r.query["after"])]
        limit = int(r.query.get("limit", 50))
        return 200, [m.data for m in msgs[:limit]]

    def _r_edit_message(self, r: _Request) -> Reply:
        ch = self._channel(r)
        msg = self._message(r, ch)
        if int(msg.data["author"]["id"]) != self.bot_user.id:
            raise _Fail(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, r.payload or {}, r.files)
        return 200, msg.data

    def _r_delete_message(self, r: _Request) -> Reply:
        ch = self._channel(r)
        msg = self._message(r, ch)
        if int(msg.data["author"]["id"]) != self.bot_user.id and not ch.is_dm:
            pass  # bots with Manage Messages may delete others' messages; the fake allows it
        self._message_event("delete", msg)
        return 204, None

    # ---------------------------------------------------------------- messages

    def _store_message(
        self,
        ch: FakeChannel,
        author: FakeUser,
        body: Json,
        files: list[SentFile],
        *,
        ephemeral_to: int | None,
        interaction: InteractionRecord | None,
        extra_flags: int = 0,
    ) -> FakeMessage:
        mid = self.ids.next()
        flags = int(body.get("flags") or 0) | extra_flags
        if ephemeral_to is not None:
            flags |= p.MESSAGE_FLAG_EPHEMERAL
        else:
            flags &= ~p.MESSAGE_FLAG_EPHEMERAL
        flags &= ~(1 << 12)  # SUPPRESS_NOTIFICATIONS is a send option, not shown on the message
        metadata = None
        if interaction is not None:
            metadata = p.interaction_metadata_payload(
                interaction.id, interaction.type, self.users[interaction.user_id].payload()
            )
        attachments = self._attachments(body, files, [])
        data = p.message_payload(
            mid,
            ch.id,
            author.payload(),
            content=str(body.get("content") or ""),
            guild_id=ch.guild_id,
            embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=attachments[0],
            flags=flags,
            interaction_metadata=metadata,
            message_type=20 if interaction is not None and interaction.type == 2 else 0,
        )
        msg = FakeMessage(
            mid,
            ch.id,
            data,
            attachments[1],
            ephemeral_to=ephemeral_to,
            interaction_id=interaction.id if interaction else None,
        )
        self.messages[mid] = msg
        self._message_event("create", msg)
        return msg

    def _attachments(
        self, body: Json, files: list[SentFile], old: list[tuple[Json, SentFile]]
    ) -> tuple[list[Json], list[SentFile]]:
        """Keep the listed existing attachments, add the uploaded files (ids in `attachments` index them)."""
        out: list[Json] = []
        out_files: list[SentFile] = []
        listed = body.get("attachments")
        if listed is None:
            listed = [{"id": i, "filename": f.filename} for i, f in enumerate(files)]
            for att, f in old:
                out.append(att)
                out_files.append(f)
        old_by_id = {str(att["id"]): (att, f) for att, f in old}
        for entry in listed:
            key = str(entry.get("id"))
            if key in old_by_id:
                att, f = old_by_id[key]
                out.append(att)
                out_files.append(f)
                continue
            idx = int(entry.get("id", 0))
            if not 0 <= idx < len(files):
                raise _invalid("attachments", "ATTACHMENT_NOT_FOUND", f"Unknown attachment {entry.get('id')}")
            f = files[idx]
            out.append(
                p.attachment_payload(
                    self.ids.next(),
                    entry.get("filename") or f.filename,
                    len(f.data),
                    description=entry.get("description"),
                )
            )
            out_files.append(f)
        return out, out_files

    def _edit_message(self, msg: FakeMessage, body: Json, files: list[SentFile]) -> None:
        new = dict(msg.data)  # nested values are replaced, never mutated, so history stays intact
        for key in ("content", "embeds", "components"):
            if key in body:
                new[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & (p.MESSAGE_FLAG_EPHEMERAL | p.MESSAGE_FLAG_COMPONENTS_V2)
            new["flags"] = (int(body["flags"]) & ~p.MESSAGE_FLAG_EPHEMERAL) | keep
        new["flags"] = int(new.get("flags") or 0) & ~p.MESSAGE_FLAG_LOADING
        check = {k: new.get(k) for k in ("content", "embeds", "components", "flags")}
        validate_message_body(check, has_files=True, creating=False)
        old = list(zip(msg.data.get("attachments") or [], msg.files, strict=False))
        if "attachments" in body or files:
            new["attachments"], msg.files = self._attachments(body, files, old)
        if not (new.get("content") or new.get("embeds") or new.get("components") or new.get("attachments")):
            raise _Fail(400, 50006, "Cannot send an empty message")
        new["edited_timestamp"] = p.snowflake_time_iso(self.ids.next())
        msg.history.append(msg.data)
        msg.data = new
        self._message_event("edit", msg)

    # ---------------------------------------------------------------- route handlers: interactions

    def _live_interaction(self, r: _Request) -> InteractionRecord:
        rec = self._by_token.get(r.params["interaction_token"])
        if rec is None or str(rec.id) != r.params["interaction_id"]:
            raise _Fail(404, 10062, "Unknown interaction")
        return rec

    def _r_callback(self, r: _Request) -> Reply:
        rec = self._live_interaction(r)
        body = r.payload or {}
        ctype = int(body.get("type", 0))
        rec.callbacks.append(ctype)
        if rec.acknowledged:
            raise _Fail(400, 40060, "Interaction has already been acknowledged.")
        if self.now() - rec.created_at > ACK_WINDOW_S:
            raise _Fail(404, 10062, "Unknown interaction")
        data = body.get("data") or {}
        allowed = {
            p.INTERACTION_APPLICATION_COMMAND: {4, 5, 9},
            p.INTERACTION_COMPONENT: {4, 5, 6, 7, 9},
            p.INTERACTION_AUTOCOMPLETE: {8},
            p.INTERACTION_MODAL_SUBMIT: {4, 5, 6, 7} if rec.message_id else {4, 5},
        }[rec.type]
        if ctype not in allowed:
            raise _invalid(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Callback type {ctype} is not valid for interaction type {rec.type}",
            )
        ch = self.channels[rec.channel_id]
        user = self.users[rec.user_id]
        message: FakeMessage | None = None
        if ctype == p.CALLBACK_MESSAGE:
            validate_message_body(data, has_files=bool(r.files), creating=True)
            eph = rec.user_id if int(data.get("flags") or 0) & p.MESSAGE_FLAG_EPHEMERAL else None
            message = self._store_message(ch, self.bot_user, data, r.files, ephemeral_to=eph, interaction=rec)
            rec.original_message_id = message.id
        elif ctype == p.CALLBACK_DEFERRED_MESSAGE:
            eph = rec.user_id if int(data.get("flags") or 0) & p.MESSAGE_FLAG_EPHEMERAL else None
            message = self._store_message(
                ch,
                self.bot_user,
                {"content": ""},
                [],
                ephemeral_to=eph,
                interaction=rec,
                extra_flags=p.MESSAGE_FLAG_LOADING,
            )
            rec.original_message_id = message.id
        elif ctype in (p.CALLBACK_DEFERRED_UPDATE, p.CALLBACK_UPDATE_MESSAGE):
            assert rec.message_id is not None
            target = self.messages[rec.message_id]
            if ctype == p.CALLBACK_UPDATE_MESSAGE:
                self._edit_message(target, data, r.files)
                message = target
            rec.original_message_id = target.id
        elif ctype == p.CALLBACK_AUTOCOMPLETE:
            choices = data.get("choices") or []
            if len(choices) > MAX_AUTOCOMPLETE_CHOICES:
                raise _invalid("data.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            rec.autocomplete_choices = choices
        elif ctype == p.CALLBACK_MODAL:
            self._validate_modal(data)
            rec.modal = data
            self.open_modals[user.id] = rec
        rec.ack_type = ctype
        rec.acked_at = time.perf_counter()
        if "with_response" not in r.query:
            return 204, None
        msg_json = message.data if message is not None else None
        return 200, p.callback_response(
            rec.id,
            ctype,
            message=msg_json,
            loading=ctype == p.CALLBACK_DEFERRED_MESSAGE,
            ephemeral=bool(message and message.ephemeral),
        )

    def _validate_modal(self, data: Json) -> None:
        if not 1 <= len(data.get("title") or "") <= MAX_MODAL_TITLE:
            raise _invalid(
                "data.title", "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_MODAL_TITLE} in length."
            )
        comps = data.get("components") or []
        if not 1 <= len(comps) <= MAX_MODAL_COMPONENTS:
            raise _invalid(
                "data.components",
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_MODAL_COMPONENTS} in length.",
            )
        seen: set[str] = set()
        _check_custom_id("data", data, set())
        for comp in _walk_components(comps):
            if comp.get("type") in (3, 4, 5, 6, 7, 8):
                _check_interactive("data.components", comp, seen)

    def _webhook_interaction(self, r: _Request) -> InteractionRecord:
        rec = self._by_token.get(r.params["webhook_token"])
        if rec is None or int(r.params["webhook_id"]) != self.application_id:
            raise _Fail(404, 10015, "Unknown Webhook")
        if self.now() - rec.created_at > TOKEN_LIFETIME_S:
            raise _Fail(401, 50027, "Invalid Webhook Token")
        if not rec.acknowledged:
            raise _Fail(404, 10015, "Unknown Webhook")
        return rec

    def _original(self, rec: InteractionRecord) -> FakeMessage:
        if rec.original_message_id is None or self.messages[rec.original_message_id].deleted:
            raise _Fail(404, 10008, "Unknown Message")
        return self.messages[rec.original_message_id]

    def _r_get_original(self, r: _Request) -> Reply:
        return 200, self._original(self._webhook_interaction(r)).data

    def _r_edit_original(self, r: _Request) -> Reply:
        msg = self._original(self._webhook_interaction(r))
        self._edit_message(msg, r.payload or {}, r.files)
        return 200, msg.data

    def _r_delete_original(self, r: _Request) -> Reply:
        self._message_event("delete", self._original(self._webhook_interaction(r)))
        return 204, None

    def _r_followup(self, r: _Request) -> Reply:
        rec = self._webhook_interaction(r)
        body = r.payload or {}
        validate_message_body(body, has_files=bool(r.files), creating=True)
        orig = self.messages.get(rec.original_message_id) if rec.original_message_id else None
        if orig is not None and orig.loading and orig.interaction_id == rec.id:
            # Discord: the first followup after a deferred response completes the "thinking" message,
            # which keeps the defer's ephemerality.
            self._edit_message(orig, {**body, "flags": orig.flags}, r.files)
            rec.followup_ids.append(orig.id)
            return 200, orig.data
        eph = rec.user_id if int(body.get("flags") or 0) & p.MESSAGE_FLAG_EPHEMERAL else None
        msg = self._store_message(
            self.channels[rec.channel_id], self.bot_user, body, r.files, ephemeral_to=eph, interaction=rec
        )
        rec.followup_ids.append(msg.id)
        return 200, msg.data

    def _webhook_message(self, r: _Request) -> FakeMessage:
        rec = self._webhook_interaction(r)
        mid = int(r.params["message_id"])
        if (mid not in rec.followup_ids and mid != rec.original_message_id) or self.messages[mid].deleted:
            raise _Fail(404, 10008, "Unknown Message")
        return self.messages[mid]

    def _r_get_webhook_message(self, r: _Request) -> Reply:
        return 200, self._webhook_message(r).data

    def _r_edit_webhook_message(self, r: _Request) -> Reply:
        msg = self._webhook_message(r)
        self._edit_message(msg, r.payload or {}, r.files)
        return 200, msg.data

    def _r_delete_webhook_message(self, r: _Request) -> Reply:
        self._message_event("delete", self._webhook_message(r))
        return 204, None


def _describe(payload: Json) -> str:
    data = payload.get("data") or {}
    if payload["type"] == p.INTERACTION_COMPONENT:
        return f"component {data.get('custom_id')!r}"
    if payload["type"] == p.INTERACTION_MODAL_SUBMIT:
        return f"modal {data.get('custom_id')!r}"
    names = [data.get("name", "?")]
    opts = data.get("options") or []
    while opts and opts[0].get("type") in (1, 2):
        names.append(opts[0]["name"])
        opts = opts[0].get("options") or []
    return "/" + " ".join(names)


# --------------------------------------------------------------------------------------------
# Seam A: the two patched discord.py methods


def _active() -> FakeDiscord:
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


# --------------------------------------------------------------------------------------------
# Seam B: a loopback Discord (HTTP + websocket gateway on 127.0.0.1) for end-to-end smoke tests


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
        self.fake.add_listener(lambda call: self._activity.set())
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
            call = self.fake.handle_rest(
                request.method, path, payload=payload, files=files, query=dict(request.query)
            )
        except FakeDiscordError as exc:
            self.fake.errors.append(str(exc))
            return web.Response(
                status=404,
                body=json.dumps(p.error_body(0, str(exc))).encode(),
                headers={"Content-Type": "application/json"},
            )
        if call.status == 204:
            return web.Response(status=204)
        # Exactly "application/json": discord.http.json_or_text compares the header verbatim, and
        # aiohttp's json_response would append "; charset=utf-8" (login then gets a str and crashes).
        return web.Response(
            status=call.status,
            body=json.dumps(call.response).encode(),
            headers={"Content-Type": "application/json"},
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
                    ready = p.ready_payload(
                        self.fake.bot_user.payload(),
                        self.fake.application_id,
                        [self.fake.guild_id],
                        session_id="loopback",
                        resume_gateway_url=f"ws://127.0.0.1:{self.port}/gateway",
                    )
                    await self._send(ws, "READY", ready)
                    await self._send(ws, "GUILD_CREATE", self.fake.guild_payload())
                    self.ready_sent.set()
        finally:
            self._sockets.remove(ws)
        return ws

    async def _send(self, ws: Any, event: str, data: Json) -> None:
        self._seq += 1
        await ws.send_json({"op": 0, "s": self._seq, "t": event, "d": data})

    async def dispatch(self, event: str, data: Json) -> None:
        """Push a gateway event to every connected bot."""
        for ws in list(self._sockets):
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
        rec, payload = self.fake._slash_payload(bot, user, channel, command, options)
        await self.dispatch("INTERACTION_CREATE", payload)
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


__all__ = [
    "ACK_WINDOW_S",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeMessage",
    "FakeUser",
    "InteractionRecord",
    "LoopbackServer",
    "RestCall",
    "SentFile",
    "http_exception",
]
