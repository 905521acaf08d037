"""An in-process fake Discord that drives the real discord.py client with no network.

Used by the bot tests (tests/bot) and by the offline demo (``python bot.py --demo``); it patches
discord.py's two HTTP entry points only while installed (``with FakeDiscord() as fake:``).
"""

from __future__ import annotations

from cogs.fake.harness import (
    FakeChannel,
    FakeDiscord,
    FakeDiscordError,
    FakeMessage,
    FakeUser,
    LoopbackServer,
)

__all__ = ["FakeChannel", "FakeDiscord", "FakeDiscordError", "FakeMessage", "FakeUser", "LoopbackServer"]
