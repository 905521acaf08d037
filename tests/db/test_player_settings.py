"""A player's own settings (migration 0012) and a player's running tables on every server (/games):
on both stores."""

from __future__ import annotations

from pathlib import Path

import pytest
from db_kit import ANN, BO, FakeClock, PlayingGame

from db import NewSeat, Store


async def test_a_notify_choice_is_kept_replaced_and_cleared(store: Store):
    assert await store.notify_choice(101) is None  # never chosen: the default
    await store.set_notify_choice(101, "mention")
    await store.set_notify_choice(102, "off")
    await store.set_notify_choice(101, "dm")
    assert (await store.notify_choice(101), await store.notify_choice(102)) == ("dm", "off")
    await store.set_notify_choice(102, None)  # back to the default
    assert await store.notify_choice(102) is None and await store.notify_choice(101) == "dm"


async def test_bad_choices_and_user_ids_are_refused_and_write_nothing(store: Store):
    for how in ("DM", "loud", "", "dm "):
        with pytest.raises(ValueError):
            await store.set_notify_choice(101, how)
    for user in (True, 2**63, -(2**63) - 1, "101"):
        with pytest.raises(ValueError):
            await store.set_notify_choice(user, "dm")  # type: ignore[arg-type]
    assert await store.notify_choice(101) is None


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_notify_choice_survives_a_reopen(request: pytest.FixtureRequest, db_path: Path, backend: str):
    url = f"sqlite:///{db_path}" if backend == "sqlite" else request.getfixturevalue("pg_server").new_database()
    first = await Store.connect(url)
    await first.set_notify_choice(70, "mention")
    await first.close()
    second = await Store.connect(url)  # a restart: a new process reads what the last one kept
    assert await second.notify_choice(70) == "mention" and await second.notify_choice(71) is None
    await second.close()


async def test_a_players_running_tables_on_every_server_and_no_others(store: Store, playing: PlayingGame):
    playing_here = await playing(channel_id=501)  # Ann, Bo and a bot, server 1
    elsewhere = await store.create_game("sakkara", guild_id=2, channel_id=601, host_id=102, seats=[BO])
    await store.add_seat(elsewhere.id, ANN)  # a lobby on server 2
    ended = await playing(channel_id=502)
    await store.cancel_game(ended)
    others = await store.create_game("indus", guild_id=3, channel_id=701, host_id=103,
                                     seats=[NewSeat.human(103, "Cy")])
    assert await store.active_games_of(101) == [playing_here, elsewhere.id]  # oldest first, not the ended one
    assert await store.active_games_of(102) == [playing_here, elsewhere.id]
    assert await store.active_games_of(103) == [others.id]
    assert await store.active_games_of(104) == []
    await store.remove_seat(elsewhere.id, 1)  # Ann leaves the lobby
    assert await store.active_games_of(101) == [playing_here]


@pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # SQLite's query plan (PostgreSQL: same index)
async def test_a_players_tables_are_found_through_the_index_of_seats_by_user(store: Store):
    query = ("SELECT g.id FROM seats AS s JOIN games AS g ON g.id = s.game_id"
             " WHERE s.user_id = 5 AND g.status IN ('lobby', 'playing') ORDER BY g.id")
    async with store._read() as db:
        plan = [str(r[3]) for r in await store._fetch(db, "EXPLAIN QUERY PLAN " + query)]
    assert any("seats_by_user" in step for step in plan), plan
    assert not any(step.startswith("SCAN") for step in plan), plan


async def test_new_tables_is_per_server_kept_in_the_order_asked_and_dropped(store: Store, clock: FakeClock):
    assert await store.new_table_watchers(1) == [] and not await store.watches_new_tables(1, 101)
    await store.set_watches_new_tables(1, 103, True)
    clock.advance(1)
    await store.set_watches_new_tables(1, 101, True)
    await store.set_watches_new_tables(2, 102, True)
    await store.set_watches_new_tables(1, 103, True)  # asked again: keeps its place, not a second row
    assert await store.new_table_watchers(1) == [103, 101] and await store.new_table_watchers(2) == [102]
    assert await store.new_table_watchers(1, limit=1) == [103]
    assert await store.watches_new_tables(1, 101) and not await store.watches_new_tables(2, 101)
    await store.set_watches_new_tables(1, 103, False)
    await store.set_watches_new_tables(1, 104, False)  # never asked: nothing to drop, nothing kept
    assert await store.new_table_watchers(1) == [101] and await store.new_table_watchers(2) == [102]
    with pytest.raises(ValueError):
        await store.set_watches_new_tables(2**63, 101, True)
