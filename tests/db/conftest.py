"""Fixtures for the storage tier: a pinned clock, and the store on SQLite (:memory:) and on a
throwaway PostgreSQL: ``store`` runs each test on both (a test marked for one passes ``indirect``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from db_kit import FakeClock, PlayingGame

from db import Store


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, clock: FakeClock) -> AsyncIterator[Store]:
    """The store on each backend: the same suite must pass on both."""
    if request.param == "sqlite":
        s = await Store.open(":memory:", clock=clock)
    else:
        s = await Store.connect(await request.getfixturevalue("pg_server").migrated_database(), clock=clock)
    yield s
    await s.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
def playing(store: Store) -> PlayingGame:
    return PlayingGame(store)

