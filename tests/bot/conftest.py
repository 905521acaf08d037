"""Fixtures for bot tests: a FakeDiscord per test, its #table channel and a member, a store, a clock.

The `fake` fixture fails the test at teardown if discord.py or the bot logged an unexpected ERROR
(an exception a command, view or listener raised and discord.py swallowed, or one the bot caught
and logged); use
`with fake.expect_error("pattern"):` around code that is meant to log one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from db.store import Store
from engine.clock import ManualClock
from fakediscord import FakeChannel, FakeDiscord, FakeUser

BOT_LOGGERS = ("discord", "temple_table", "cogs", "engine", "db", "pictures", "i18n", "wiring")
"""discord.py's logger and the bot's own: an ERROR on any of them is a bug unless a test expects it."""


@pytest.fixture
def fake() -> Iterator[FakeDiscord]:
    """A fresh fake Discord with the HTTP patches installed (restored afterwards); an ERROR logged by
    discord.py or by the bot itself fails the test."""
    with FakeDiscord(error_loggers=BOT_LOGGERS) as f:
        yield f
        f.check_errors()


@pytest.fixture
def table(fake: FakeDiscord) -> FakeChannel:
    """A guild text channel named #table."""
    return fake.text_channel("table")


@pytest.fixture
def ann(fake: FakeDiscord) -> FakeUser:
    """A guild member."""
    return fake.user("Ann")


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """The bot's database as a file (WAL), so a restart test can reopen it."""
    s = await Store.open(str(tmp_path / "bot.sqlite3"))
    yield s
    await s.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def either_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """The bot's database on each backend, for a module whose ``store`` fixture returns this one:
    what it tests reads the same from both."""
    if request.param == "sqlite":
        s = await Store.open(str(tmp_path / "bot.sqlite3"))
    else:
        s = await Store.connect(await request.getfixturevalue("pg_server").migrated_database())
    yield s
    await s.close()


@pytest.fixture
def clock() -> ManualClock:
    """The session clock: tests move it, nothing sleeps."""
    return ManualClock()
