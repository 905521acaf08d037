"""The players' last Discord locales per server (migration 0004): kept, replaced, survive a reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from db import Store


async def test_a_locale_is_kept_per_server_and_replaced(store: Store):
    await store.set_player_locale(1, 10, "fi")
    await store.set_player_locale(2, 10, "it")
    await store.set_player_locale(1, 11, "sv-SE")
    assert await store.player_locales(1, [10, 11, 12]) == {10: "fi", 11: "sv-SE"}
    assert await store.player_locales(2, [10]) == {10: "it"}
    await store.set_player_locale(1, 10, "en-GB")
    assert await store.player_locales(1, [10]) == {10: "en-GB"}
    assert await store.player_locales(1, []) == {}


async def test_many_users_are_read_in_chunks(store: Store):
    for user in range(1, 1201):
        await store.set_player_locale(5, user, "it")
    found = await store.player_locales(5, list(range(1, 1301)))
    assert len(found) == 1200 and set(found.values()) == {"it"}


async def test_bad_input_is_refused_and_writes_nothing(store: Store):
    for guild, user, locale in ((1, 10, ""), (1, 10, "x" * 17), (True, 10, "fi"), (1, 2**63, "fi"), (1, 10, None)):
        with pytest.raises(ValueError):
            await store.set_player_locale(guild, user, locale)  # type: ignore[arg-type]
    assert await store.player_locales(1, [10]) == {}


async def test_locales_survive_a_reopen(db_path: Path):
    first = await Store.open(db_path)
    await first.set_player_locale(7, 70, "sv-SE")
    await first.close()
    second = await Store.open(db_path)
    assert await second.player_locales(7, [70]) == {70: "sv-SE"}
    await second.close()


async def test_server_settings_are_json_values_per_key(store: Store):
    assert await store.guild_settings(1) == {}
    await store.set_guild_setting(1, "language", "fi")
    await store.set_guild_setting(1, "other", {"a": [1, 2]})
    await store.set_guild_setting(2, "language", "it")
    assert await store.guild_settings(1) == {"language": "fi", "other": {"a": [1, 2]}}
    await store.set_guild_setting(1, "language", None)  # back to the default
    assert await store.guild_settings(1) == {"other": {"a": [1, 2]}}
    for key in ("", "k" * 33, 5):
        with pytest.raises(ValueError):
            await store.set_guild_setting(1, key, "x")  # type: ignore[arg-type]
