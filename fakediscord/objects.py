"""What the tests read: the objects of the fake's world, and the errors the fake answers with.

- `FakeUser`, `FakeChannel`, `FakeMessage` (with every earlier version, for leak scans),
  `InteractionRecord` (one interaction and everything the bot answered to it), `RestCall` and
  `SentFile` (one REST request of the bot, with its uploads and the fake's answer);
- `walk_components` and `_visible_text`: how a message's components and visible text are read;
- `FakeDiscordError` (the bot or a test did something the fake cannot emulate), `http_exception`
  (the discord.py exception the real client raises for an error answer) and `Fail` / `invalid`
  (raised by route handlers and validations: Discord answers with that status and error body).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from fakediscord import payloads as p
from fakediscord.payloads import Json

__all__ = [
    "Fail",
    "FakeChannel",
    "FakeDiscordError",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionRecord",
    "RestCall",
    "SentFile",
    "http_exception",
    "invalid",
    "walk_components",
]


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


class Fail(Exception):
    """Raised inside a route handler: Discord answers with this status and error body."""

    def __init__(self, status: int, code: int, message: str, errors: Json | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body = p.error_body(code, message, errors)


def invalid(path: str, code: str, message: str) -> Fail:
    """400 Invalid Form Body (50035) naming the offending field, as Discord reports it."""
    return Fail(400, 50035, "Invalid Form Body", p.field_error(path, code, message))


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
    headers: dict[str, str] = field(default_factory=dict)  # rate-limit headers (when limits are on)

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
    username: str | None = None  # the account's username; None: the display name in lower case

    @property
    def mention(self) -> str:
        """`<@id>` as the bot would write it."""
        return f"<@{self.id}>"

    def payload(self) -> Json:
        """The user object."""
        return p.user_payload(self.id, self.name, bot=self.bot, username=self.username)


@dataclass
class FakeRole:
    """A role of a guild (`World.role`; the @everyone role has the guild's id)."""

    id: int
    name: str
    guild_id: int
    permissions: int = 0
    position: int = 0
    mentionable: bool = False  # anyone may mention it (else only who may Mention Everyone)
    bot_id: int | None = None  # set for a bot's own role: managed by Discord for the bot
    members: frozenset[int] = frozenset()  # who has it (a mention of it notifies them)

    @property
    def mention(self) -> str:
        """`<@&id>` as the bot would write it."""
        return f"<@&{self.id}>"

    def payload(self) -> Json:
        """The role object."""
        return p.role_payload(self.id, self.name, self.permissions, self.position, mentionable=self.mentionable,
                              bot_id=self.bot_id)


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
    bot_can_create_threads: bool = True  # Create Public Threads (in a text channel)
    bot_can_send_in_threads: bool = True  # Send Messages in Threads (in its threads)
    bot_can_attach: bool = True  # Attach Files
    bot_can_embed: bool = True  # Embed Links
    parent_id: int | None = None  # set for a thread: the text channel it belongs to
    starter_message_id: int | None = None  # a thread's starting message
    auto_archive_duration: int = 1440
    hidden_from: frozenset[int] = frozenset()  # members an overwrite denies View Channel (`hide_channel`)

    @property
    def is_dm(self) -> bool:
        """True for a DM channel."""
        return self.recipient_id is not None

    @property
    def is_thread(self) -> bool:
        """True for a thread."""
        return self.parent_id is not None


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
    notified: frozenset[int] = frozenset()  # the users Discord notified when it was created (never by an edit)

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
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def component(self, custom_id: str) -> Json | None:
        """The component with this custom_id, or None."""
        for comp in walk_components(self.components):
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
            for comp in walk_components(row.get("components") or []):
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


class _MessageSource(Protocol):
    """What an `InteractionRecord` reads from the fake that made it: the messages by id."""

    messages: dict[int, FakeMessage]


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
    original_edits: int = 0  # PATCHes of @original (after a deferral: the bot's actual answer)
    update_content: str | None = None  # the content an UPDATE_MESSAGE callback (7) gave the pressed message
    modal: Json | None = None
    autocomplete_choices: list[Json] | None = None
    errors: list[Json] = field(default_factory=list)  # error bodies the fake returned for it
    sent_at: float = field(default_factory=time.perf_counter)  # wall clock when the event was built
    acked_at: float | None = None  # wall clock of the accepted callback
    _fake: _MessageSource | None = field(default=None, repr=False)

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
# Reading components and visible text


def walk_components(components: Sequence[Json]) -> Iterator[Json]:
    for comp in components:
        yield comp
        if isinstance(comp.get("components"), list):
            yield from walk_components(comp["components"])
        if isinstance(comp.get("component"), dict):
            yield from walk_components([comp["component"]])
        if isinstance(comp.get("accessory"), dict):
            yield from walk_components([comp["accessory"]])


def _visible_text(data: Json) -> str:
    parts: list[str] = [str(data.get("content") or "")]
    for emb in data.get("embeds") or []:
        parts += [str(emb.get(k) or "") for k in ("title", "description")]
        parts += [
            str((emb.get(k) or {}).get(sub) or "") for k, sub in (("author", "name"), ("footer", "text"))
        ]
        for fld in emb.get("fields") or []:
            parts += [str(fld.get("name") or ""), str(fld.get("value") or "")]
    for comp in walk_components(data.get("components") or []):
        for key in ("label", "content", "placeholder"):
            if comp.get(key):
                parts.append(str(comp[key]))
        for opt in comp.get("options") or []:
            parts += [str(opt.get("label") or ""), str(opt.get("description") or "")]
    return "\n".join(x for x in parts if x)
