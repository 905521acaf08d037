"""Many started games written in one transaction (benchmarks' seeding): each is stored exactly as
the bot's own three steps (lobby, start, first append) would store it, and a refused batch writes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from db_kit import BO, HARD, T0

from db import NewSeat, StartedGame, Store, StoreError, TableLoad

DUE = T0 + timedelta(days=1)


def _game(channel_id: int, users: tuple[int, int] = (101, 102), seed: int = 7) -> StartedGame:
    return StartedGame(
        game="incan_gold", guild_id=1, channel_id=channel_id, host_id=users[0],
        seats=[NewSeat.human(users[0], "Ann"), NewSeat.human(users[1], "Bo"), HARD], seed=seed,
        actions=[(-1, "T5"), (0, "torch")], deadlines=[("decision", DUE, 2), ("auto", DUE, 2)],
        table_options={"decision_timeout_s": 86400.0},
    )


def _shape(found: TableLoad) -> tuple[object, ...]:
    """What a table is rebuilt from, without its id."""
    g = found.game
    return (g.game, g.status, g.seed, g.version, g.channel_id, g.host_id, g.options, g.table_options,
            g.started_at, [(s.seat, s.user_id, s.ai_level, s.display_name) for s in found.seats],
            [(a.seq, a.seat, a.payload) for a in found.actions],
            sorted((d.kind, d.due_at, d.version) for d in found.deadlines))


async def test_a_seeded_game_is_stored_as_the_three_steps_store_it(store: Store):
    model = _game(channel_id=10)
    stepped = await store.create_game(model.game, guild_id=1, channel_id=11, host_id=101,
                                      table_options=model.table_options, seats=model.seats[:1])
    await store.start_game(stepped.id, model.seats, seed=model.seed)
    await store.append_actions(stepped.id, 0, model.actions, deadlines=model.deadlines)

    [seeded] = await store.add_playing_games([model])

    expected = _shape(await store.load_table(stepped.id))
    got = _shape(await store.load_table(seeded))
    assert got[:4] == expected[:4] and got[5:] == expected[5:]  # all but the channel
    assert got[4] == 10
    assert sorted(d.game_id for d in await store.armed()) == sorted([stepped.id] * 2 + [seeded] * 2)
    assert {d.game for d in await store.armed()} == {"incan_gold"}  # each timer names its game


async def test_a_batch_keeps_its_order_and_one_refusal_writes_none_of_it(store: Store):
    ids = await store.add_playing_games([_game(channel_id=20 + n, users=(200 + 2 * n, 201 + 2 * n), seed=n + 1)
                                         for n in range(3)])
    assert [(await store.get_game(i)).channel_id for i in ids] == [20, 21, 22]
    assert ids == sorted(ids)
    with pytest.raises(StoreError, match="channel"):
        await store.add_playing_games([_game(channel_id=30, users=(300, 301)), _game(channel_id=20)])
    assert await store.active_game(30) is None
    assert sorted(await store.unfinished_game_ids()) == ids


async def test_bad_input_is_refused_before_anything_is_written(store: Store):
    with pytest.raises(ValueError):
        await store.add_playing_games([_game(channel_id=40), StartedGame(
            game="incan_gold", guild_id=1, channel_id=41, host_id=1, seats=[BO], seed=1, actions=[])])
    with pytest.raises(ValueError, match="64-bit"):
        await store.add_playing_games([StartedGame(
            game="incan_gold", guild_id=1, channel_id=42, host_id=1, seats=[BO], seed=2**64, actions=[(-1, "T5")])])
    assert await store.unfinished_game_ids() == []
