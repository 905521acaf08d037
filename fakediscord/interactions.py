"""Discord API interaction payloads for the fake Discord: what a user's command, click or modal sends
(INTERACTION_CREATE and its `data`) and the body of the interaction callback.

Separate from `payloads`, which builds the objects Discord stores (users, guilds, channels,
messages): these are the interaction side of the API, with its own type numbers (interaction,
callback and option types). The same rule holds: every key discord.py reads without a default
must be present here.
"""

from __future__ import annotations

from typing import Any

from fakediscord.payloads import BOT_PERMISSIONS, Json

# Interaction types and callback types (Discord API "Interactions" page).
INTERACTION_PING = 1
INTERACTION_APPLICATION_COMMAND = 2
INTERACTION_COMPONENT = 3
INTERACTION_AUTOCOMPLETE = 4
INTERACTION_MODAL_SUBMIT = 5

CALLBACK_MESSAGE = 4
CALLBACK_DEFERRED_MESSAGE = 5
CALLBACK_DEFERRED_UPDATE = 6
CALLBACK_UPDATE_MESSAGE = 7
CALLBACK_AUTOCOMPLETE = 8
CALLBACK_MODAL = 9

# Application command option types.
OPTION_SUB_COMMAND = 1
OPTION_SUB_COMMAND_GROUP = 2
OPTION_STRING = 3
OPTION_INTEGER = 4
OPTION_BOOLEAN = 5
OPTION_USER = 6
OPTION_CHANNEL = 7
OPTION_ROLE = 8
OPTION_NUMBER = 10


def interaction_payload(
    *,
    interaction_id: int,
    application_id: int,
    token: str,
    interaction_type: int,
    data: Json | None,
    channel: Json,
    guild_id: int | None = None,
    member: Json | None = None,
    user: Json | None = None,
    message: Json | None = None,
    locale: str = "en-US",
    guild_locale: str | None = "en-US",
    app_permissions: int = BOT_PERMISSIONS,
) -> Json:
    """INTERACTION_CREATE as discord.py 2.7 reads it.

    Guild context: `guild_id` + `member` (with `flags` and `permissions`). DM context: `user`,
    and `channel` is a DM channel (type 1).
    """
    payload: Json = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "token": token,
        "version": 1,
        "attachment_size_limit": 10 * 1024 * 1024,  # required since 2.7 (KeyError otherwise)
        "channel": channel,
        "channel_id": channel["id"],
        "locale": locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(guild_id) if guild_id else "0"},
        "context": 0 if guild_id else 1,
    }
    if data is not None:
        payload["data"] = data
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
        payload["guild"] = {"id": str(guild_id), "locale": guild_locale or "en-US", "features": []}
        if guild_locale is not None:
            payload["guild_locale"] = guild_locale
        payload["member"] = member
    else:
        payload["user"] = user
    if message is not None:
        payload["message"] = message
    return payload


def command_data(
    command_id: int,
    name: str,
    options: list[Json],
    *,
    guild_id: int | None = None,
    resolved: Json | None = None,
    command_type: int = 1,
) -> Json:
    """`data` of an application command interaction."""
    data: Json = {"id": str(command_id), "name": name, "type": command_type, "options": options}
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if resolved:
        data["resolved"] = resolved
    return data


def option_payload(
    name: str,
    option_type: int,
    value: Any = None,
    *,
    options: list[Json] | None = None,
    focused: bool = False,
) -> Json:
    """One option; subcommands and groups carry nested `options` instead of a value."""
    data: Json = {"name": name, "type": option_type}
    if option_type in (OPTION_SUB_COMMAND, OPTION_SUB_COMMAND_GROUP):
        data["options"] = options or []
    else:
        data["value"] = value
    if focused:
        data["focused"] = True
    return data


def component_data(custom_id: str, component_type: int, values: list[str] | None = None) -> Json:
    """`data` of a component (button/select) interaction."""
    data: Json = {"custom_id": custom_id, "component_type": component_type}
    if values is not None:
        data["values"] = values
    return data


def modal_submit_data(custom_id: str, components: list[Json]) -> Json:
    """`data` of a modal submit interaction."""
    return {"custom_id": custom_id, "components": components}


def callback_response(
    interaction_id: int,
    callback_type: int,
    *,
    message: Json | None = None,
    loading: bool = False,
    ephemeral: bool = False,
) -> Json:
    """Body of POST /interactions/{id}/{token}/callback?with_response=1 (read since discord.py 2.5)."""
    interaction: Json = {
        "id": str(interaction_id),
        "type": callback_type,
        "response_message_loading": loading,
        "response_message_ephemeral": ephemeral,
    }
    body: Json = {"interaction": interaction}
    if message is not None:
        interaction["response_message_id"] = message["id"]
        body["resource"] = {"type": callback_type, "message": message}
    else:
        body["resource"] = {"type": callback_type}
    return body
