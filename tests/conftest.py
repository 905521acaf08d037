"""Test tiers by folder: tests/engine (pure rules), tests/db (storage), tests/bot (fake Discord)."""

from __future__ import annotations

import pytest

_TIERS = ("engine", "db", "bot")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test with the tier named by its folder, so `-m engine` selects a tier."""
    for item in items:
        parts = item.path.parts
        for tier in _TIERS:
            if tier in parts:
                item.add_marker(getattr(pytest.mark, tier))
