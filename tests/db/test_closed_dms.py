"""Users whose DMs are closed (migration 0009): remembered with when, forgotten, survive a reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from db import Store


async def test_a_closed_dm_is_kept_with_its_time_replaced_and_cleared(store: Store):
    assert await store.closed_dms() == {}
    await store.set_dms_closed(10, 1_700_000_000.25)
    await store.set_dms_closed(11, 1_700_000_100.0)
    await store.set_dms_closed(10, 1_700_000_600.5)  # found closed again, later
    assert await store.closed_dms() == {10: 1_700_000_600.5, 11: 1_700_000_100.0}
    await store.clear_dms_closed(10)
    await store.clear_dms_closed(12)  # never closed: nothing to do
    assert await store.closed_dms() == {11: 1_700_000_100.0}


async def test_bad_user_ids_are_refused_and_write_nothing(store: Store):
    for user in (True, 2**63, -(2**63) - 1, "10"):
        with pytest.raises(ValueError):
            await store.set_dms_closed(user, 1.0)  # type: ignore[arg-type]
    assert await store.closed_dms() == {}


async def test_closed_dms_survive_a_reopen(db_path: Path):
    first = await Store.open(db_path)
    await first.set_dms_closed(70, 1_700_000_000.0)
    await first.close()
    second = await Store.open(db_path)
    assert await second.closed_dms() == {70: 1_700_000_000.0}
    await second.close()
