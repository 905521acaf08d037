"""The fake Discord's own tests: a started sample bot (tests/bot/fakediscord/sample_cog.py) on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from sample_cog import SampleBot

from fakediscord import FakeChannel, FakeDiscord


@pytest.fixture
async def bot(fake: FakeDiscord, table: FakeChannel) -> AsyncIterator[SampleBot]:
    """The sample bot, logged in and READY against the fake."""
    b = SampleBot()
    await fake.start(b)
    yield b
    if b in fake.bots:
        await fake.stop(b)
