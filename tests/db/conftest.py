"""Fixtures for the storage tier: a pinned clock and stores on :memory: and on a file."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from db_kit import FakeClock, PlayingGame

from db import Store


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def store(clock: FakeClock) -> AsyncIterator[Store]:
    s = await Store.open(":memory:", clock=clock)
    yield s
    await s.close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "bot.sqlite3"


@pytest.fixture
def playing(store: Store) -> PlayingGame:
    return PlayingGame(store)
