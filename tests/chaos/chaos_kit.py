"""Helpers of the chaos tier: the bot's test configuration, finding buttons on messages, and a
session Repository whose writes fail on purpose."""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from fakediscord import FakeMessage
from wiring.config import Config

LOGGERS = ("discord", "temple_table", "cogs", "engine", "db", "pictures", "i18n", "wiring")
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


WRITES = ("create", "add_seat", "remove_seat", "start", "append", "finish", "cancel", "set_deadline", "save_snapshot")
"""The Repository's writes (engine.session.contract.Repository)."""


class InjectedFault(sqlite3.OperationalError):
    """What a failing write raises here: SQLite's error for an I/O failure (it rolls the write back)."""


class FaultyRepository:
    """A session Repository whose writes fail on purpose; everything else passes through.

    ``fail(name, times)`` makes the next ``times`` calls of one write fail. With ``rng`` every write
    fails once, at random: a write (a method and its table, and for an append the version it
    appends at) fails the first time with probability ``p``, and never again once it has failed,
    so a retry of the same write (a click pressed again, a timer's retry) goes through.
    """

    def __init__(self, repo: Any, rng: random.Random | None = None, p: float = 0.5) -> None:
        self.repo, self.rng, self.p = repo, rng, p
        self.scheduled: dict[str, int] = {}
        self.failed: set[tuple[Any, ...]] = set()
        self.faults = 0

    def fail(self, name: str, times: int = 1) -> None:
        """Make the next ``times`` calls of the write ``name`` fail."""
        self.scheduled[name] = self.scheduled.get(name, 0) + times

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.repo, name)
        if name not in WRITES:
            return method

        async def write(*args: Any, **kwargs: Any) -> Any:
            key = (name, *args[:2]) if name == "append" else (name, *args[:1])
            if self.scheduled.get(name, 0) > 0:
                self.scheduled[name] -= 1
                self.faults += 1
                raise InjectedFault(f"disk I/O error (injected into {name})")
            if self.rng is not None and key not in self.failed and self.rng.random() < self.p:
                self.failed.add(key)
                self.faults += 1
                raise InjectedFault(f"disk I/O error (injected into {name})")
            return await method(*args, **kwargs)

        return write
