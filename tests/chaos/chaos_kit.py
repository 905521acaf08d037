"""Helpers of the chaos tier: the bot's test configuration and finding buttons on messages."""

from __future__ import annotations

from bot import Config
from fakediscord import FakeMessage

LOGGERS = ("discord", "temple_table", "cogs", "engine", "db")
"""discord.py's logger and the bot's own: an ERROR on any of them fails a chaos test."""


def config(**overrides: object) -> Config:
    """A test configuration: no token, bot seats act at once, two-minute decisions."""
    values: dict[str, object] = {"token": None, "ai_delay_s": 0.0, "decision_timeout_s": 120.0,
                                 "reminder_before_s": 30.0}
    values.update(overrides)
    return Config(**values)  # type: ignore[arg-type]


def ids(message: FakeMessage, prefix: str) -> list[str]:
    """Return the custom_ids on a message that start with ``prefix``."""
    return [c for c in message.custom_ids if c.startswith(prefix)]


def lobby_button(message: FakeMessage, op: str) -> str:
    """Return the custom_id of a lobby button (join, leave, start, cancel, ai-easy, ...)."""
    return next(c for c in ids(message, "lobby:") if c.endswith(f":{op}"))
