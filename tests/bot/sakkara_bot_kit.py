"""Helpers for Sakkara bot tests: reach a legal action through the real prompt's buttons and menus.

:func:`perform` looks for the action on the prompt (a move button or a menu option); when it is
not there it opens the prompt's sub-menus (specials and spells, the split choice, pages) one by
one, exactly as a player would, and comes back. A test therefore proves that every action it
plays is reachable through the controls the cog drew from ``legal_actions``.
"""

from __future__ import annotations

import json
from typing import Any

from cogs.table.controls.buttons import encode_action
from fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionRecord


def _components(message: FakeMessage) -> list[dict[str, Any]]:
    out = []
    for row in message.components:
        out.extend(row.get("components") or [])
    return out


def prompt_ids(message: FakeMessage) -> list[str]:
    """Return the custom_ids of the move and menu controls on a message."""
    return [c for c in message.custom_ids if c.split(":", 1)[0] in ("act", "pick", "skn", "sks")]


def find(message: FakeMessage, action: Any) -> tuple[str, str | None] | None:
    """Return (custom_id, select value or None) of the control for ``action`` on the message."""
    code = encode_action(action)
    for comp in _components(message):
        cid = str(comp.get("custom_id", ""))
        if comp.get("type") == 2 and cid.startswith("act:") and json.loads(cid.split(":", 3)[3]) == action:
            return cid, None
        options = comp.get("options", []) if comp.get("type") == 3 and cid.startswith("pick:") else []
        if any(opt["value"] == code for opt in options):
            return cid, code
    return None


def nav_entries(message: FakeMessage) -> list[tuple[str, str | None]]:
    """Return the sub-menu openers on a message: (custom_id, select value or None); Back excluded."""
    out: list[tuple[str, str | None]] = []
    for comp in _components(message):
        cid = str(comp.get("custom_id", ""))
        if cid.startswith("skn:") and not cid.endswith(":"):
            out.append((cid, None))
        elif cid.startswith("sks:"):
            out.extend((cid, opt["value"]) for opt in comp.get("options", []))
    return out


async def press(fake: FakeDiscord, user: FakeUser, message: FakeMessage, cid: str,
                value: str | None) -> InteractionRecord:
    """Click a button or pick a menu value."""
    if value is None:
        return await fake.click(user, message, cid)
    return await fake.select(user, message, cid, [value])


async def home(fake: FakeDiscord, user: FakeUser, message: FakeMessage) -> None:
    """Go back to the prompt's main controls if a sub-menu is open."""
    back = [c for c in message.custom_ids if c.startswith("skn:") and c.endswith(":")]
    if back:
        await fake.click(user, message, back[0])


async def perform(fake: FakeDiscord, user: FakeUser, message: FakeMessage, action: Any) -> InteractionRecord:
    """Play ``action`` through the prompt ``message``, opening sub-menus (breadth first) as needed."""
    hit = find(message, action)
    if hit is not None:
        return await press(fake, user, message, *hit)
    queue: list[list[tuple[str, str | None]]] = [[]]
    seen: set[tuple[str, str | None]] = set()
    while queue:
        path = queue.pop(0)
        await home(fake, user, message)
        for cid, value in path:
            await press(fake, user, message, cid, value)
        hit = find(message, action)
        if hit is not None:
            return await press(fake, user, message, *hit)
        if len(path) < 3:
            for entry in nav_entries(message):
                if entry not in seen:
                    seen.add(entry)
                    queue.append([*path, entry])
    raise LookupError(f"{action} is not reachable from {message.render()}")


def last_prompt(fake: FakeDiscord, user: FakeUser) -> FakeMessage | None:
    """Return the user's latest DM that carries move controls."""
    prompts = [m for m in fake.dm_messages(user) if prompt_ids(m)]
    return prompts[-1] if prompts else None
