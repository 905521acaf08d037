"""The slash commands last synced, per scope: kept on both backends, refused when malformed."""

from __future__ import annotations

import pytest

from db import Store

DIGEST = "ab" * 32


async def test_the_hash_synced_is_kept_per_scope_and_replaced(store: Store):
    assert await store.synced_commands() == {}
    await store.set_synced_commands("global", DIGEST)
    await store.set_synced_commands("guild:42", "cd" * 32)
    await store.set_synced_commands("global", "ef" * 32)
    assert await store.synced_commands() == {"global": "ef" * 32, "guild:42": "cd" * 32}


@pytest.mark.parametrize(("scope", "digest"), [("everywhere", DIGEST), ("guild:x", DIGEST), ("global", "short"),
                                               ("global", "G" * 64)])
async def test_a_malformed_scope_or_hash_is_refused(store: Store, scope: str, digest: str):
    with pytest.raises(ValueError):
        await store.set_synced_commands(scope, digest)
    assert await store.synced_commands() == {}
