"""Helpers for Sakkara bot tests: reach a legal action through the real prompt's buttons and menus.

:func:`perform` looks for the action on the prompt (a move button or a menu option); when it is
not there it opens the prompt's sub-menus (specials and spells, the split choice, pages) one by
one, exactly as a player would, and comes back. A test therefore proves that every action it
plays is reachable through the controls the cog drew from ``legal_actions``.
"""

from __future__ import annotations

import json
import random
from typing import Any

from incan_kit import buttons, lobby_id

from bot import Bot
from cogs.table.controls.buttons import encode_action
from engine.sakkara import GAME
from engine.sakkara import ai as sakkara_ai
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionRecord


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


def lobby_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def open_table(fake: FakeDiscord, bot: Bot, channel: FakeChannel, host: FakeUser, other: FakeUser | None = None,
                     level: str = "medium", seed: int | None = None) -> Table:
    await fake.slash(host, channel, "sakkara new", {})
    lobby = lobby_message(fake, channel)
    if other is None:
        await fake.click(host, lobby, lobby_id(lobby, f"ai-{level}"))
    else:
        await fake.click(other, lobby, lobby_id(lobby, "join"))
    table = await bot.sessions.table_in(channel.id)
    if seed is None:
        await fake.click(host, lobby, lobby_id(lobby, "start"))
    else:
        await bot.sessions.start(table.id, host.id, seed=seed)
    return table


def choice(table: Table, seat: int, rng: random.Random) -> dict:
    """The scripted human: the greedy planner's choice (the first Medium) from the seat's own view."""
    legal = GAME.legal_actions(table.state, seat)
    return sakkara_ai.greedy(GAME.view(table.state, seat), legal, rng)


async def prompt_for(fake: FakeDiscord, table: Table, user: FakeUser) -> FakeMessage:
    """The user's prompt: the DM, or Choose on the board message then the ephemeral prompt."""
    dm = last_prompt(fake, user)
    if dm is not None:
        return dm
    public = [m for m in fake.channel_messages(table.channel_id) if buttons(m, "peek:")][-1]
    await fake.click(user, public, buttons(public, "peek:")[0])
    return fake.ephemeral_replies(user)[-1]


async def play_one(fake: FakeDiscord, table: Table, users: dict[int, FakeUser], rng: random.Random) -> None:
    seat = table.humans_owing()[0]
    user = users[table.seats[seat].user_id]
    action = choice(table, seat, rng)
    version = table.version
    await perform(fake, user, await prompt_for(fake, table, user), action)
    assert table.version > version, action


async def play_to_the_end(fake: FakeDiscord, table: Table, users: list[FakeUser], seed: int = 0) -> None:
    by_id = {u.id: u for u in users}
    rng = random.Random(seed)
    while table.status == "playing":
        await play_one(fake, table, by_id, rng)
