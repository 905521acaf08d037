"""An in-process fake Discord that drives the real discord.py client with no network.

Test support, not part of the bot: used by the bot tests (tests/bot), the benchmarks (bench/)
and the offline demo (``python demo.py``), never installed with the product. It patches
discord.py's two HTTP entry points only while installed (``with FakeDiscord() as fake:``).
"""

from __future__ import annotations

from fakediscord.fake import FakeDiscord
from fakediscord.loopback import LoopbackServer
from fakediscord.objects import FakeChannel, FakeDiscordError, FakeMessage, FakeUser, InteractionRecord, RestCall

__all__ = [
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeMessage",
    "FakeUser",
    "InteractionRecord",
    "LoopbackServer",
    "RestCall",
]
