"""Discord-side validation: the message, embed and component rules discord.py does not check locally.

The limits Discord enforces server-side, `validate_message_body` (content, embeds and components
of a message create or edit), `validate_embeds`, `validate_components`, and the per-component
checks the modal validation reuses (`check_custom_id`, `check_interactive`). A broken rule
raises `Fail`, answered as Discord's 400 Invalid Form Body naming the offending field.
"""

from __future__ import annotations

from collections.abc import Sequence

from fakediscord import payloads as p
from fakediscord.objects import Fail, invalid, walk_components
from fakediscord.payloads import Json

__all__ = [
    "MAX_ACTION_ROWS",
    "MAX_AUTHOR_NAME",
    "MAX_AUTOCOMPLETE_CHOICES",
    "MAX_BUTTONS_PER_ROW",
    "MAX_BUTTON_LABEL",
    "MAX_CHOICE_NAME",
    "MAX_CHOICE_VALUE",
    "MAX_CONTENT",
    "MAX_CUSTOM_ID",
    "MAX_EMBEDS",
    "MAX_EMBED_DESCRIPTION",
    "MAX_EMBED_FIELDS",
    "MAX_EMBED_TITLE",
    "MAX_EMBED_TOTAL",
    "MAX_FIELD_NAME",
    "MAX_FIELD_VALUE",
    "MAX_FOOTER_TEXT",
    "MAX_MODAL_COMPONENTS",
    "MAX_MODAL_TITLE",
    "MAX_SELECT_OPTIONS",
    "MAX_V2_COMPONENTS",
    "check_custom_id",
    "check_interactive",
    "validate_components",
    "validate_embeds",
    "validate_message_body",
]

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
MAX_CHOICE_NAME = 100
MAX_CHOICE_VALUE = 100  # a string choice's value


def validate_embeds(embeds: Sequence[Json]) -> None:
    """Discord's embed limits: 10 embeds, per-field lengths, 25 fields, 6000 characters in all."""
    if len(embeds) > MAX_EMBEDS:
        raise invalid("embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length.")
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
            raise invalid(
                f"embeds.{i}.fields",
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_EMBED_FIELDS} or fewer in length.",
            )
        for j, fld in enumerate(fields):
            if not fld.get("name") or not fld.get("value"):
                raise invalid(f"embeds.{i}.fields.{j}", "BASE_TYPE_REQUIRED", "This field is required")
            checks.append((f"fields.{j}.name", fld.get("name"), MAX_FIELD_NAME))
            checks.append((f"fields.{j}.value", fld.get("value"), MAX_FIELD_VALUE))
        for path, value, limit in checks:
            if value is None:
                continue
            total += len(str(value))
            if len(str(value)) > limit:
                raise invalid(
                    f"embeds.{i}.{path}", "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
                )
    if total > MAX_EMBED_TOTAL:
        raise invalid(
            "embeds", "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"
        )


def check_custom_id(path: str, comp: Json, seen: set[str]) -> None:
    cid = comp.get("custom_id")
    if cid is None:
        raise invalid(f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required")
    if not 1 <= len(cid) <= MAX_CUSTOM_ID:
        raise invalid(
            f"{path}.custom_id", "BASE_TYPE_BAD_LENGTH", f"Must be between 1 and {MAX_CUSTOM_ID} in length."
        )
    if cid in seen:
        raise invalid(
            f"{path}.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
        )
    seen.add(cid)


def check_interactive(path: str, comp: Json, seen: set[str]) -> None:
    ctype = comp.get("type")
    if ctype == 2:  # button
        if comp.get("style") == 5:  # link
            if "custom_id" in comp or not comp.get("url"):
                raise invalid(
                    path, "BUTTON_COMPONENT_INVALID_URL", "Link buttons need a url and no custom_id"
                )
        elif comp.get("style") != 6:  # premium buttons carry a sku_id instead
            check_custom_id(path, comp, seen)
        if len(comp.get("label") or "") > MAX_BUTTON_LABEL:
            raise invalid(
                f"{path}.label", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_BUTTON_LABEL} or fewer in length."
            )
    elif ctype in (3, 5, 6, 7, 8):  # selects
        check_custom_id(path, comp, seen)
        options = comp.get("options") or []
        if ctype == 3 and not 1 <= len(options) <= MAX_SELECT_OPTIONS:
            raise invalid(
                f"{path}.options",
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_SELECT_OPTIONS} in length.",
            )
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= lo <= hi <= MAX_SELECT_OPTIONS or (ctype == 3 and hi > len(options)):
            raise invalid(path, "SELECT_COMPONENT_BAD_VALUES", "Invalid min_values/max_values")
    elif ctype == 4:  # text input (modals only)
        check_custom_id(path, comp, seen)


def _check_action_row(path: str, row: Json, seen: set[str]) -> None:
    children = row.get("components") or []
    if not children:
        raise invalid(f"{path}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    kinds = {c.get("type") for c in children}
    if kinds <= {2}:
        if len(children) > MAX_BUTTONS_PER_ROW:
            raise invalid(
                f"{path}.components",
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_BUTTONS_PER_ROW} in length.",
            )
    elif len(children) != 1:
        raise invalid(
            f"{path}.components",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "A select menu must be alone in its action row",
        )
    for j, child in enumerate(children):
        check_interactive(f"{path}.components.{j}", child, seen)


def validate_components(components: Sequence[Json], *, v2: bool) -> None:
    """Action rows (5 max, 5 buttons or 1 select each), custom_id rules, v2 layout size."""
    seen: set[str] = set()
    if not v2:
        if len(components) > MAX_ACTION_ROWS:
            raise invalid(
                "components", "BASE_TYPE_BAD_LENGTH", f"Must be {MAX_ACTION_ROWS} or fewer in length."
            )
        for i, row in enumerate(components):
            if row.get("type") != 1:
                raise invalid(
                    f"components.{i}", "UNION_TYPE_CHOICES", "Top-level components must be action rows"
                )
            _check_action_row(f"components.{i}", row, seen)
        return
    everything = list(walk_components(components))
    if len(everything) > MAX_V2_COMPONENTS:
        raise invalid(
            "components", "BASE_TYPE_BAD_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in total."
        )
    for i, comp in enumerate(everything):
        # Interactive components live in action rows (checked with their row) or as section accessories.
        if comp.get("type") == 1:
            _check_action_row(f"components.{i}", comp, seen)
        acc = comp.get("accessory")
        if isinstance(acc, dict) and acc.get("type") == 2:
            check_interactive(f"components.{i}.accessory", acc, seen)


def validate_message_body(body: Json, *, has_files: bool, creating: bool) -> None:
    """Content, embeds and components rules for a message create or edit."""
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & p.MESSAGE_FLAG_COMPONENTS_V2)
    content = body.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        raise invalid("content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length.")
    if v2 and (content or body.get("embeds")):
        raise invalid(
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
        raise Fail(400, 50006, "Cannot send an empty message")
