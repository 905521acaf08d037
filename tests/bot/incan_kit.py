"""Helpers for Incan Gold bot tests: build the real bot on the fake, find messages and buttons."""

from __future__ import annotations

import json

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from wiring.config import Config


def config(**overrides: object) -> Config:
    """A test configuration: no token, no AI delay, two-minute decisions, no rate limits (the fake has none
    unless a test turns them on)."""
    values: dict[str, object] = {"token": None, "ai_delay_s": 0.0, "decision_timeout_s": 120.0,
                                 "reminder_before_s": 30.0, "rate_limited": False}
    values.update(overrides)
    return Config(**values)  # type: ignore[arg-type]


async def start_bot(fake: FakeDiscord, store: Store, clock: ManualClock, **overrides: object) -> Bot:
    """Start the real bot (setup hook, cogs, recovery, sync) against the fake."""
    bot = Bot(store, config(**overrides), clock)
    await fake.start(bot)
    return bot


def buttons(message: FakeMessage, prefix: str) -> list[str]:
    """Return the custom_ids on a message that start with ``prefix``."""
    return [c for c in message.custom_ids if c.startswith(prefix)]


def act_id(message: FakeMessage, action: str) -> str:
    """Return the custom_id of the move button for ``action`` on a prompt message."""
    for cid in buttons(message, "act:"):
        if json.loads(cid.split(":", 3)[3]) == action:
            return cid
    raise AssertionError(f"no {action} button on {message.custom_ids}")


def last_dm(fake: FakeDiscord, user: FakeUser) -> FakeMessage | None:
    """Return the user's latest DM from the bot that carries move buttons."""
    prompts = [m for m in fake.dm_messages(user) if buttons(m, "act:")]
    return prompts[-1] if prompts else None


def moves_message(fake: FakeDiscord, channel_id: int) -> FakeMessage:
    """Return the channel's newest message carrying Torch / Camp (the expedition's public message)."""
    return [m for m in fake.channel_messages(channel_id) if buttons(m, "act:")][-1]


def lobby_id(message: FakeMessage, op: str) -> str:
    """Return the custom_id of a lobby button (join, leave, start, cancel, ai-medium, ...)."""
    return next(c for c in buttons(message, "lobby:") if c.endswith(f":{op}"))
