"""Test tiers by folder: tests/engine (pure rules), tests/db (storage), tests/bot (fake Discord),
tests/house (the layout: layers and import circles), tests/chaos (kills, faults and fuzz, small)."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_kit import PgServer, throwaway_postgres

_TIERS = ("engine", "db", "bot", "house", "chaos")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with the tier named by its folder, so `-m engine` selects a tier."""
    for item in items:
        parts = item.path.parts
        for tier in _TIERS:
            if tier in parts:
                item.add_marker(getattr(pytest.mark, tier))


def pytest_configure(config: pytest.Config) -> None:
    """Refuse two helper modules with one name: pytest puts each test folder on sys.path, so a
    second ``kit.py`` would silently shadow the first."""
    root = Path(__file__).parent
    helpers = [p.name for p in root.rglob("*.py")
               if not p.name.startswith(("test_", "conftest", "__init__")) and "golden" not in p.parts]
    clashes = [name for name, n in Counter(helpers).items() if n > 1]
    if clashes:
        raise pytest.UsageError(f"test helper modules share a name (rename one): {clashes}")


def _postgres() -> Iterator[PgServer]:
    """Without PostgreSQL installed the PostgreSQL variants are skipped, except in CI (CI=true), where
    .ci/run installs it and a missing server is a failure."""
    try:
        with throwaway_postgres() as server:
            yield server
    except LookupError as exc:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI must run the PostgreSQL tests: {exc}")
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL for the whole run (started once; each test takes a fresh database)."""
    yield from _postgres()


@pytest.fixture
def pg_outage_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL of the test's own, which it may stop and start again (an outage)
    without breaking the other tests' shared server."""
    yield from _postgres()
