"""Discord API payload factories for the fake Discord: ids, errors, users, guilds, channels, messages.

discord.py parses raw gateway and REST JSON; every key it reads without a default must be present
here. Upgrades of discord.py add required keys (2.5: the `with_response` callback body, 2.7:
`attachment_size_limit` and `member.flags`), so when the pinned version moves, this module and
`interactions` (the interaction payloads and the callback body) are the two to update. Shapes
follow the Discord API v10 documentation; ids are deterministic snowflakes so runs are reproducible.
"""

from __future__ import annotations

import datetime
from typing import Any

Json = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000
# 2025-01-01T00:00:00Z: the fake's ids and timestamps start here, one millisecond apart.
BASE_TIME_MS = 1_735_689_600_000

# Permission bits used by the fake (see the Discord permissions table).
PERM_MANAGE_GUILD = 1 << 5
PERM_ADMINISTRATOR = 1 << 3
PERM_VIEW_CHANNEL = 1 << 10
PERM_MENTION_EVERYONE = 1 << 17  # mention @everyone and every role, mentionable or not
PERM_SEND_MESSAGES = 1 << 11
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_MESSAGE_HISTORY = 1 << 16
PERM_USE_EXTERNAL_EMOJIS = 1 << 18
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 51) - 1
# What @everyone may do in a fresh guild: view, send, embed, attach, history, reactions, slash...
EVERYONE_PERMISSIONS = (
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18) | (1 << 31)
)
# What the bot's role grants unless a test says otherwise: more than the bot asks for (a generous
# server), threads included.
BOT_PERMISSIONS = EVERYONE_PERMISSIONS | (1 << 13) | PERM_CREATE_PUBLIC_THREADS | PERM_SEND_MESSAGES_IN_THREADS

# Gateway channel types.
CHANNEL_TEXT = 0
CHANNEL_DM = 1
CHANNEL_PUBLIC_THREAD = 11

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7
MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15


class Snowflakes:
    """Deterministic snowflake ids: one fake millisecond per id, so ids sort by creation."""

    def __init__(self, start_ms: int = BASE_TIME_MS) -> None:
        self._ms = start_ms
        self._n = 0

    def next(self) -> int:
        """Return a fresh snowflake id."""
        self._n += 1
        self._ms += 1
        return ((self._ms - DISCORD_EPOCH_MS) << 22) | (self._n & 0xFFF)


def snowflake_time_iso(snowflake: int) -> str:
    """ISO-8601 timestamp encoded in a snowflake (what Discord puts in `timestamp`)."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC).isoformat()


def error_body(code: int, message: str, errors: Json | None = None) -> Json:
    """JSON error body as Discord returns it (`code`, `message`, optional nested `errors`)."""
    body: Json = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    return body


def field_error(path: str, code: str, message: str) -> Json:
    """Nested `errors` object for one invalid form field, e.g. path 'components.0.components'."""
    node: Json = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path.split(".")):
        node = {part: node}
    return node


def user_payload(user_id: int, name: str, *, bot: bool = False, username: str | None = None) -> Json:
    """A user object: ``name`` is the display (global) name, the username defaults to it in lower case."""
    return {
        "id": str(user_id),
        "username": name.lower() if username is None else username,
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


def member_payload(
    user: Json, *, joined_at: str, roles: list[int] | None = None, permissions: int | None = None
) -> Json:
    """A guild member; `permissions` is only present in interaction payloads."""
    data: Json = {
        "user": user,
        "nick": None,
        "avatar": None,
        "roles": [str(r) for r in roles or []],
        "joined_at": joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,  # required since discord.py 2.7 (KeyError otherwise)
        "communication_disabled_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role_id: int, name: str, permissions: int, position: int = 0, *, mentionable: bool = False,
                 bot_id: int | None = None) -> Json:
    """A guild role (the @everyone role has the guild's id; a bot's own role is managed, tagged with it)."""
    data: Json = {
        "id": str(role_id),
        "name": name,
        "permissions": str(permissions),
        "position": position,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": bot_id is not None,
        "mentionable": mentionable,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }
    if bot_id is not None:
        data["tags"] = {"bot_id": str(bot_id)}
    return data


def permission_overwrite_payload(target_id: int, *, allow: int, deny: int, member: bool) -> Json:
    """A channel permission overwrite for a role (type 0) or a member (type 1)."""
    return {"id": str(target_id), "type": 1 if member else 0, "allow": str(allow), "deny": str(deny)}


def text_channel_payload(
    channel_id: int, guild_id: int, name: str, position: int, overwrites: list[Json] | None = None
) -> Json:
    """A guild text channel."""
    return {
        "id": str(channel_id),
        "type": CHANNEL_TEXT,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": overwrites or [],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
    }


def thread_channel_payload(
    thread_id: int, guild_id: int, parent_id: int, name: str, owner_id: int, auto_archive_duration: int
) -> Json:
    """A public thread started from a message of a text channel."""
    return {
        "id": str(thread_id),
        "type": CHANNEL_PUBLIC_THREAD,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": snowflake_time_iso(thread_id),
            "locked": False,
        },
    }


def dm_channel_payload(channel_id: int, recipient: Json) -> Json:
    """A DM channel between the bot and one user."""
    return {
        "id": str(channel_id),
        "type": CHANNEL_DM,
        "recipients": [recipient],
        "last_message_id": None,
        "flags": 0,
    }


def guild_payload(
    guild_id: int,
    name: str,
    *,
    owner_id: int,
    channels: list[Json],
    members: list[Json],
    roles: list[Json],
    joined_at: str,
    preferred_locale: str = "en-US",
) -> Json:
    """A full GUILD_CREATE guild object."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": preferred_locale,
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": joined_at,
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def application_payload(application_id: int, name: str, owner: Json) -> Json:
    """GET /oauth2/applications/@me, read by `Client.login`."""
    return {
        "id": str(application_id),
        "name": name,
        "description": "",
        "icon": None,
        "bot_public": True,
        "bot_require_code_grant": False,
        "owner": owner,
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "summary": "",
        "interactions_endpoint_url": None,
    }


def ready_payload(
    bot_user: Json, application_id: int, guild_ids: list[int], *, session_id: str, resume_gateway_url: str
) -> Json:
    """READY: guilds are listed unavailable; a GUILD_CREATE per guild follows."""
    return {
        "v": 10,
        "user": bot_user,
        "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
        "session_id": session_id,
        "resume_gateway_url": resume_gateway_url,
        "application": {"id": str(application_id), "flags": 0},
        "private_channels": [],
        "relationships": [],
    }


def attachment_payload(
    attachment_id: int,
    filename: str,
    size: int,
    *,
    description: str | None = None,
    content_type: str | None = None,
) -> Json:
    """An attachment object as stored on a message."""
    url = f"https://cdn.fake.invalid/attachments/{attachment_id}/{filename}"
    data: Json = {
        "id": str(attachment_id),
        "filename": filename,
        "size": size,
        "url": url,
        "proxy_url": url,
        "content_type": content_type or "application/octet-stream",
    }
    if description is not None:
        data["description"] = description
    return data


def message_payload(
    message_id: int,
    channel_id: int,
    author: Json,
    *,
    content: str = "",
    guild_id: int | None = None,
    embeds: list[Json] | None = None,
    components: list[Json] | None = None,
    attachments: list[Json] | None = None,
    flags: int = 0,
    interaction_metadata: Json | None = None,
    edited_timestamp: str | None = None,
    message_type: int = 0,
) -> Json:
    """A message object (also the `message` of a component interaction)."""
    data: Json = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author,
        "content": content,
        "timestamp": snowflake_time_iso(message_id),
        "edited_timestamp": edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments or [],
        "embeds": embeds or [],
        "components": components or [],
        "pinned": False,
        "type": message_type,
        "flags": flags,
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if interaction_metadata is not None:
        data["interaction_metadata"] = interaction_metadata
    return data


def interaction_metadata_payload(interaction_id: int, interaction_type: int, user: Json) -> Json:
    """`message.interaction_metadata` of a message created by an interaction response."""
    return {
        "id": str(interaction_id),
        "type": interaction_type,
        "user": user,
        "authorizing_integration_owners": {"0": "0"},
    }
