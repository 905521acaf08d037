"""The repository: tables, seats, the append-only log, endings, messages, deadlines, corrupt rows."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from db_kit import ANN, BO, HARD, T0, FakeClock, PlayingGame, count_round_trips
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from db import (
    AlreadySeated,
    ChannelBusy,
    CorruptRow,
    GameNotFound,
    NewResult,
    NewSeat,
    NoSuchSeat,
    StaleVersion,
    Store,
    WrongStatus,
)
from db import sqlite as store_module
from db.backend import Refused

CY = NewSeat.human(103, "Cy")
EASY = NewSeat.ai("easy", "Bot (easy)")
RESULTS = [NewResult(0, 20, 1, True), NewResult(1, 12, 2, False), NewResult(2, 12, 2, False)]


SQLITE_ONLY = pytest.mark.parametrize("store", ["sqlite"], indirect=True)
"""SQLite's own machinery (group commit, the round trips to its thread): not a PostgreSQL concern."""


async def _new(store: Store, channel_id: int = 500, **kwargs: object) -> int:
    game = await store.create_game("incan_gold", guild_id=1, channel_id=channel_id, host_id=101, **kwargs)  # type: ignore[arg-type]
    return game.id


# ---------------------------------------------------------------- tables


async def test_create_game_records_setup_and_clock(store: Store, clock: FakeClock):
    game = await store.create_game(
        "incan_gold", guild_id=1, channel_id=2, host_id=3, preset="diamant",
        options={"artifacts": "classic", "rounds": 5}, table_options={"decision_timeout_s": 120},
    )
    assert (game.game, game.preset, game.status, game.version, game.seed) == (
        "incan_gold", "diamant", "lobby", 0, None
    )
    assert game.options == {"artifacts": "classic", "rounds": 5}
    assert game.table_options == {"decision_timeout_s": 120}
    assert game.created_at == T0 and game.started_at is None and game.duration is None
    assert await store.get_game(game.id) == game
    assert await store.active_game(2) == game


async def test_unknown_game_type_and_bad_options_are_refused(store: Store):
    with pytest.raises(ValueError, match="chess"):
        await store.create_game("chess", guild_id=1, channel_id=2, host_id=3)
    with pytest.raises(ValueError, match="options"):
        await store.create_game("indus", guild_id=1, channel_id=2, host_id=3, options={"x": object()})
    with pytest.raises(ValueError, match="options"):
        await store.create_game("indus", guild_id=1, channel_id=2, host_id=3, options={"x": float("nan")})
    assert await store.active_game(2) is None


async def test_one_active_game_per_channel(store: Store, playing: PlayingGame):
    lobby = await _new(store, channel_id=7)
    with pytest.raises(ChannelBusy) as caught:
        await _new(store, channel_id=7)
    assert (caught.value.channel_id, caught.value.game_id) == (7, lobby)
    await _new(store, channel_id=8)  # another channel is fine
    await store.cancel_game(lobby)
    started = await playing(channel_id=7)  # the cancelled lobby no longer blocks
    with pytest.raises(ChannelBusy):
        await _new(store, channel_id=7)
    await store.finish_game(started, RESULTS)
    assert await store.active_game(7) is None
    await _new(store, channel_id=7)


async def test_create_game_with_seats_is_all_or_nothing(store: Store):
    game = await store.create_game("sakkara", guild_id=1, channel_id=3, host_id=101, seats=[ANN, HARD])
    assert [s.display_name for s in await store.seats(game.id)] == ["Ann", "Bot (hard)"]
    with pytest.raises(AlreadySeated):
        await store.create_game("sakkara", guild_id=1, channel_id=4, host_id=101, seats=[ANN, ANN])
    assert await store.active_game(4) is None


async def test_get_game_of_unknown_id(store: Store):
    with pytest.raises(GameNotFound):
        await store.get_game(99)
    assert await store.actions(99) == []


async def test_unfinished_games_lists_lobbies_and_playing_tables(store: Store, playing: PlayingGame):
    lobby = await _new(store, channel_id=1)
    started = await playing(channel_id=2)
    done = await playing(channel_id=3)
    await store.finish_game(done, RESULTS)
    cancelled = await _new(store, channel_id=4)
    await store.cancel_game(cancelled, "abandoned")
    assert [g.id for g in await store.unfinished_games()] == [lobby, started]
    assert await store.unfinished_game_ids() == [lobby, started]


# ---------------------------------------------------------------- seats


async def test_lobby_seats_in_join_order_with_renumbering(store: Store):
    game_id = await _new(store, seats=[ANN])
    assert (await store.add_seat(game_id, BO)).seat == 1
    assert (await store.add_seat(game_id, HARD)).seat == 2
    assert (await store.add_seat(game_id, CY)).seat == 3
    removed = await store.remove_seat(game_id, 1)
    assert removed.user_id == BO.user_id
    seats = await store.seats(game_id)
    assert [(s.seat, s.display_name, s.is_ai) for s in seats] == [
        (0, "Ann", False), (1, "Bot (hard)", True), (2, "Cy", False)
    ]
    assert (await store.add_seat(game_id, BO)).seat == 3
    with pytest.raises(NoSuchSeat):
        await store.remove_seat(game_id, 9)


async def test_a_user_sits_once_per_table_but_at_many_tables(store: Store):
    first = await _new(store, channel_id=1, seats=[ANN])
    with pytest.raises(AlreadySeated):
        await store.add_seat(first, ANN)
    with pytest.raises(AlreadySeated):
        await store.set_seats(first, [ANN, BO, ANN])
    assert [s.user_id for s in await store.seats(first)] == [101]
    second = await _new(store, channel_id=2)
    await store.add_seat(second, ANN)
    await store.add_seat(second, HARD)
    await store.add_seat(second, HARD)  # several AI seats of one level are fine


def test_a_seat_is_exactly_one_of_user_or_ai():
    with pytest.raises(ValueError):
        NewSeat("Nobody")
    with pytest.raises(ValueError):
        NewSeat("Both", user_id=1, ai_level="easy")
    with pytest.raises(ValueError):
        NewSeat("", user_id=1)


async def test_start_game_renumbers_seats_and_freezes_them(store: Store, clock: FakeClock):
    game_id = await _new(store, seats=[ANN])
    await store.add_seat(game_id, BO)
    await store.add_seat(game_id, EASY)
    clock.advance(30)
    game = await store.start_game(game_id, [EASY, BO, ANN], seed=2**63 - 1)
    assert (game.status, game.seed, game.started_at) == ("playing", 2**63 - 1, T0 + timedelta(seconds=30))
    assert [s.display_name for s in await store.seats(game_id)] == ["Bot (easy)", "Bo", "Ann"]
    with pytest.raises(WrongStatus):
        await store.add_seat(game_id, CY)
    with pytest.raises(WrongStatus):
        await store.remove_seat(game_id, 0)
    with pytest.raises(WrongStatus):
        await store.start_game(game_id, [ANN], seed=1)


async def test_start_game_refuses_bad_input_and_writes_nothing(store: Store):
    game_id = await _new(store, seats=[ANN])
    with pytest.raises(ValueError):
        await store.start_game(game_id, [], seed=1)
    with pytest.raises(ValueError, match="64-bit"):
        await store.start_game(game_id, [ANN], seed=2**64 - 1)
    with pytest.raises(AlreadySeated):
        await store.start_game(game_id, [ANN, BO, ANN], seed=1)
    assert (await store.get_game(game_id)).status == "lobby"
    assert [s.user_id for s in await store.seats(game_id)] == [101]
    with pytest.raises(GameNotFound):
        await store.start_game(12345, [ANN], seed=1)


# ---------------------------------------------------------------- the action log


async def test_append_and_read_back_the_log(store: Store, playing: PlayingGame, clock: FakeClock):
    game_id = await playing()
    assert await store.append_action(game_id, 0, -1, "T5") == 1
    clock.advance(2)
    batch: list[tuple[int, object]] = [(0, "torch"), (1, "camp"), (2, "torch"), (-1, "H-snakes")]
    assert await store.append_actions(game_id, 1, batch) == 5
    assert await store.append_action(game_id, 5, 0, {"b": 1, "a": "x"}) == 6
    log = await store.load_game(game_id)
    assert log.game.version == 6
    assert log.moves() == [
        (-1, "T5"), (0, "torch"), (1, "camp"), (2, "torch"), (-1, "H-snakes"), (0, {"a": "x", "b": 1})
    ]
    assert [a.seq for a in log.actions] == list(range(6))
    assert log.actions[0].created_at == T0 and log.actions[1].created_at == T0 + timedelta(seconds=2)
    assert [a.seq for a in await store.actions(game_id, since=4)] == [4, 5]


async def test_stale_append_is_refused_and_writes_nothing(store: Store, playing: PlayingGame):
    game_id = await playing()
    await store.append_actions(game_id, 0, [(-1, "T5"), (0, "torch")])
    for expected in (0, 1, 3):
        with pytest.raises(StaleVersion) as caught:
            await store.append_action(game_id, expected, 1, "camp")
        assert (caught.value.expected, caught.value.actual) == (expected, 2)
        with pytest.raises(StaleVersion):
            await store.append_actions(game_id, expected, [(1, "camp"), (-1, "T7")])
    assert (await store.get_game(game_id)).version == 2
    assert [a.payload for a in await store.actions(game_id)] == ["T5", "torch"]


async def test_a_double_click_race_accepts_exactly_one(store: Store, playing: PlayingGame):
    game_id = await playing()
    outcomes = await asyncio.gather(
        *(store.append_action(game_id, 0, 0, "torch") for _ in range(5)), return_exceptions=True
    )
    assert sum(o == 1 for o in outcomes) == 1
    assert sum(isinstance(o, StaleVersion) for o in outcomes) == 4
    assert len(await store.actions(game_id)) == 1


@pytest.mark.parametrize("batch_size", [3, 1200])  # one multi-row INSERT, and the chunked transaction
async def test_a_batch_failing_in_the_middle_writes_nothing(
    store: Store, playing: PlayingGame, batch_size: int
):
    game_id = await playing()
    await store.append_action(game_id, 0, -1, "T1")
    batch: list[tuple[int, object]] = [(-1, f"T{i}") for i in range(batch_size)]
    batch[batch_size * 2 // 3] = (7, "torch")  # seat 7 does not exist: the schema refuses that row
    with pytest.raises(NoSuchSeat) as caught:
        await store.append_actions(game_id, 1, batch)
    assert caught.value.seat == 7
    assert (await store.get_game(game_id)).version == 1
    assert [a.payload for a in await store.actions(game_id)] == ["T1"]
    # The same batch without the bad row goes through whole.
    batch[batch_size * 2 // 3] = (0, "torch")
    assert await store.append_actions(game_id, 1, batch) == 1 + batch_size
    assert len(await store.actions(game_id)) == 1 + batch_size


async def test_append_refusals_are_typed(store: Store, playing: PlayingGame):
    lobby = await _new(store, channel_id=1, seats=[ANN])
    with pytest.raises(WrongStatus):
        await store.append_action(lobby, 0, 0, "torch")
    with pytest.raises(GameNotFound):
        await store.append_action(424242, 0, 0, "torch")
    game_id = await playing(channel_id=2)
    with pytest.raises(ValueError, match="payload"):
        await store.append_actions(game_id, 0, [(0, "torch"), (1, {1, 2})])
    with pytest.raises(ValueError, match="seat"):
        await store.append_action(game_id, 0, -2, "torch")
    with pytest.raises(ValueError):
        await store.append_actions(game_id, 0, [])
    assert await store.actions(game_id) == []
    await store.finish_game(game_id, RESULTS)
    with pytest.raises(WrongStatus):
        await store.append_action(game_id, 0, 0, "torch")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payloads=st.lists(json_values, min_size=1, max_size=5))
async def test_payloads_round_trip(payloads: list[object]):
    async with await Store.open(":memory:") as store:
        game_id = await PlayingGame(store)()
        await store.append_actions(game_id, 0, [(0, p) for p in payloads])
        assert [a.payload for a in await store.actions(game_id)] == payloads


async def test_tuples_come_back_as_lists(store: Store, playing: PlayingGame):
    game_id = await playing()
    await store.append_action(game_id, 0, -1, ((1, 2), ("a",)))
    assert (await store.actions(game_id))[0].payload == [[1, 2], ["a"]]


# ---------------------------------------------------------------- ending a game


async def test_finish_writes_results_with_the_status(store: Store, playing: PlayingGame, clock: FakeClock):
    game_id = await playing()
    await store.append_action(game_id, 0, -1, "T5")
    await store.set_deadline(game_id, "decision", T0 + timedelta(minutes=2), version=1)
    clock.advance(600)
    game = await store.finish_game(game_id, RESULTS, expected_version=1)
    assert (game.status, game.finished_at, game.duration) == ("finished", T0 + timedelta(seconds=600),
                                                              timedelta(seconds=600))
    results = await store.results(game_id)
    assert [(r.seat, r.user_id, r.ai_level, r.score, r.placement, r.is_winner) for r in results] == [
        (0, 101, None, 20, 1, True), (1, 102, None, 12, 2, False), (2, None, "hard", 12, 2, False)
    ]
    assert await store.deadlines(game_id) == []
    with pytest.raises(WrongStatus):
        await store.finish_game(game_id, RESULTS)


async def test_finish_refuses_inconsistent_results_and_writes_nothing(store: Store, playing: PlayingGame):
    game_id = await playing()
    bad = [
        RESULTS[:2],  # a seat missing
        [*RESULTS, NewResult(0, 1, 3, False)],  # a seat twice
        [NewResult(0, 20, 1, True), NewResult(1, 12, 0, False), NewResult(2, 1, 3, False)],  # placement 0
        [NewResult(0, 20, 1, True), NewResult(1, 12, 2, True), NewResult(2, 1, 3, False)],  # winner not first
    ]
    for results in bad:
        with pytest.raises(ValueError):
            await store.finish_game(game_id, results)
    with pytest.raises(StaleVersion):
        await store.finish_game(game_id, RESULTS, expected_version=3)
    assert (await store.get_game(game_id)).status == "playing"
    assert await store.results(game_id) == []


async def test_finish_is_one_transaction(db_path: Path, clock: FakeClock):
    store = await Store.open(db_path, clock=clock)
    game_id = await PlayingGame(store)()
    # Make the last statement of finish_game (the status update) fail, after the results were inserted.
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "CREATE TRIGGER test_boom BEFORE UPDATE OF status ON games WHEN NEW.status = 'finished'"
            " BEGIN SELECT RAISE(ABORT, 'boom'); END"
        )
    with pytest.raises(Refused, match="boom"):
        await store.finish_game(game_id, RESULTS)
    assert await store.results(game_id) == []
    assert (await store.get_game(game_id)).status == "playing"
    await store.close()


async def test_cancel_and_abandon(store: Store, playing: PlayingGame, clock: FakeClock):
    lobby = await _new(store, channel_id=1)
    await store.set_deadline(lobby, "lobby_expiry", T0 + timedelta(hours=1))
    clock.advance(5)
    await store.cancel_game(lobby)
    game = await store.get_game(lobby)
    assert (game.status, game.finished_at, game.duration) == ("cancelled", T0 + timedelta(seconds=5), None)
    assert await store.deadlines() == []
    started = await playing(channel_id=2)
    await store.cancel_game(started, "abandoned")
    assert (await store.get_game(started)).status == "abandoned"
    for game_id in (lobby, started):
        with pytest.raises(WrongStatus):
            await store.cancel_game(game_id)
    with pytest.raises(ValueError):
        await store.cancel_game(started, "finished")  # type: ignore[arg-type]
    assert await store.results(started) == []


# ---------------------------------------------------------------- messages and deadlines


async def test_messages_are_recorded_per_kind_and_seat(store: Store, playing: PlayingGame):
    game_id = await playing()
    await store.set_message(game_id, "lobby", 500, 1)
    await store.set_message(game_id, "round", 500, 2)
    await store.set_message(game_id, "round", 500, 3)  # a new round message replaces the old one
    await store.set_message(game_id, "dm", 9001, 4, seat=0)
    await store.set_message(game_id, "dm", 9002, 5, seat=1)
    await store.set_message(game_id, "dm", 9001, 6, seat=0)
    assert [(m.kind, m.seat, m.channel_id, m.message_id) for m in await store.messages(game_id)] == [
        ("dm", 0, 9001, 6), ("dm", 1, 9002, 5), ("lobby", None, 500, 1), ("round", None, 500, 3)
    ]
    with pytest.raises(ValueError, match="bad message record"):
        await store.set_message(game_id, "k" * 33, 500, 7)  # the schema refuses the kind
    assert await store.delete_message(game_id, "dm", seat=1)
    assert not await store.delete_message(game_id, "dm", seat=1)
    assert await store.delete_message(game_id, "lobby")
    assert len(await store.messages(game_id)) == 2
    with pytest.raises(GameNotFound):
        await store.set_message(777, "lobby", 1, 2)
    await store.finish_game(game_id, RESULTS)
    await store.set_message(game_id, "summary", 500, 8)  # an ended game still gets its summary
    assert (await store.messages(game_id))[-1].message_id == 8


async def test_deadlines_survive_in_the_store(store: Store, playing: PlayingGame):
    first = await playing(channel_id=1)
    second = await playing(channel_id=2)
    due = T0 + timedelta(seconds=120)
    await store.set_deadline(first, "decision", due, version=0)
    await store.set_deadline(second, "decision", due - timedelta(seconds=60), version=0)
    row = await store.set_deadline(first, "decision", due + timedelta(seconds=5), version=3)  # re-armed
    assert (row.due_at, row.version) == (due + timedelta(seconds=5), 3)
    await store.set_deadline(first, "reminder", due - timedelta(seconds=30))
    assert [(d.game_id, d.kind) for d in await store.deadlines()] == [
        (second, "decision"), (first, "reminder"), (first, "decision")
    ]
    assert await store.deadline(first, "decision") == row
    assert await store.clear_deadline(first, "reminder")
    assert not await store.clear_deadline(first, "reminder")
    assert await store.deadline(first, "reminder") is None
    with pytest.raises(ValueError, match="naive"):
        await store.set_deadline(first, "decision", datetime(2026, 1, 1))
    await store.finish_game(second, RESULTS)
    with pytest.raises(WrongStatus):
        await store.set_deadline(second, "decision", due)


# ---------------------------------------------------------------- corrupt rows


async def test_corrupt_json_raises_corrupt_row(db_path: Path, clock: FakeClock):
    store = await Store.open(db_path, clock=clock)
    broken = await PlayingGame(store)(channel_id=1)
    shape = await PlayingGame(store)(channel_id=2)
    healthy = await PlayingGame(store)(channel_id=3)
    await store.append_action(broken, 0, 0, "torch")
    # Damage the rows behind the store's back, as a bad disk or a hand edit would.
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")
        conn.execute("UPDATE games SET options = '{\"artifacts\": ' WHERE id = ?", (broken,))
        conn.execute("INSERT INTO actions VALUES (?, 1, 1, '[1, 2', 0)", (broken,))
        conn.execute("UPDATE games SET table_options = '[1, 2]' WHERE id = ?", (shape,))
    with pytest.raises(CorruptRow) as caught:
        await store.get_game(broken)
    assert caught.value.game_id == broken and "options" in caught.value.detail
    with pytest.raises(CorruptRow) as caught:
        await store.actions(broken)
    assert caught.value.game_id == broken and "actions[1]" in caught.value.detail
    with pytest.raises(CorruptRow, match="JSON object"):
        await store.load_game(shape)
    with pytest.raises(CorruptRow):
        await store.unfinished_games()
    # Recovery can still list the ids, load the healthy game and abandon the broken ones.
    assert await store.unfinished_game_ids() == [broken, shape, healthy]
    assert (await store.load_game(healthy)).game.seed == 7
    await store.cancel_game(broken, "abandoned")
    await store.cancel_game(shape, "abandoned")
    assert await store.unfinished_game_ids() == [healthy]
    await store.close()


async def test_non_finite_numbers_count_as_corrupt(db_path: Path):
    store = await Store.open(db_path)
    game_id = await PlayingGame(store)()
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA ignore_check_constraints = ON")  # SQLite's json_valid refuses NaN itself
        conn.execute("INSERT INTO actions VALUES (?, 0, 0, '{\"x\": NaN}', 0)", (game_id,))
    with pytest.raises(CorruptRow, match="non-finite"):
        await store.actions(game_id)
    await store.close()


# ---------------------------------------------------------------- the schema's own guards


async def test_the_schema_guards_the_log_without_the_store(db_path: Path):
    store = await Store.open(db_path)
    game_id = await PlayingGame(store)()
    await store.append_action(game_id, 0, 0, "torch")
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA foreign_keys = ON")
        refused = [
            ("UPDATE actions SET payload = '\"camp\"' WHERE game_id = ?", "append_only"),
            ("DELETE FROM actions WHERE game_id = ?", "append_only"),
            ("INSERT INTO actions VALUES (?, 0, 1, '\"camp\"', 0)", "stale_version"),
            ("INSERT INTO actions VALUES (?, 5, 1, '\"camp\"', 0)", "stale_version"),
            ("INSERT INTO action_appends VALUES (?, 0, 1, '\"camp\"', 0, 'decision', 0, 1, NULL, NULL, NULL)",
             "stale_version"),
            ("INSERT INTO action_appends VALUES (?, 1, 7, '\"camp\"', 0, 'decision', 0, 2, NULL, NULL, NULL)",
             "no_such_seat"),
            ("INSERT INTO seats VALUES (?, 3, 104, NULL, 'Dee')", "seats_frozen"),
            ("UPDATE games SET status = 'lobby' WHERE id = ?", "bad_status_transition"),
        ]
        for sql, reason in refused:
            with pytest.raises(sqlite3.IntegrityError, match=reason):
                conn.execute(sql, (game_id,))
        assert conn.execute("SELECT count(*) FROM deadlines").fetchone()[0] == 0  # undone with the refusal
        conn.execute("INSERT INTO actions VALUES (?, 1, 1, '\"camp\"', 0)", (game_id,))
        assert conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0] == 2


# ---------------------------------------------------------------- durability and the clock


async def test_a_file_database_survives_close_and_reopen(db_path: Path, clock: FakeClock):
    store = await Store.open(db_path, clock=clock)
    game_id = await PlayingGame(store)()
    await store.append_actions(game_id, 0, [(-1, "T5"), (0, "torch"), (1, "camp"), (2, "torch")])
    await store.set_message(game_id, "round", 500, 42)
    await store.set_deadline(game_id, "decision", T0 + timedelta(minutes=2), version=4)
    before = await store.load_game(game_id)
    await store.close()

    reopened = await Store.open(db_path, clock=clock)
    after = await reopened.load_game(game_id)
    assert after == before
    assert [m.message_id for m in await reopened.messages(game_id)] == [42]
    assert (await reopened.deadline(game_id, "decision")) is not None
    assert await reopened.append_action(game_id, 4, -1, "H-snakes") == 5
    await reopened.close()


async def test_an_epoch_seconds_clock_works_too():
    async with await Store.open(":memory:", clock=lambda: 1_767_268_800.5) as store:
        game = await store.create_game("indus", guild_id=1, channel_id=2, host_id=3)
    assert game.created_at == datetime(2026, 1, 1, 12, 0, 0, 500000, tzinfo=UTC)


async def test_a_naive_clock_is_refused():
    async with await Store.open(":memory:", clock=lambda: datetime(2026, 1, 1)) as store:
        with pytest.raises(ValueError, match="naive"):
            await store.create_game("indus", guild_id=1, channel_id=2, host_id=3)


# ---------------------------------------------------------------- group commit


@SQLITE_ONLY
async def test_concurrent_appends_share_commits_and_keep_their_outcomes(
    store: Store, playing: PlayingGame, monkeypatch: pytest.MonkeyPatch
):
    tables = [await playing(channel_id=1000 + n) for n in range(20)]
    extra = await playing(channel_id=999)
    flushed: list[int] = []
    original = store._backend._flush

    async def spy(batch):  # white-box: record how many appends each flush wrote together
        flushed.append(len(batch))
        await original(batch)

    monkeypatch.setattr(store._backend, "_flush", spy)
    calls = [store.append_action(game_id, 0, 0, "torch") for game_id in tables]
    calls.append(store.append_action(tables[3], 0, 1, "camp"))  # a double click on table 3...
    calls.append(store.append_action(extra, 0, 9, "camp"))  # ...and a seat that does not exist
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert outcomes[:20] == [1] * 20
    assert isinstance(outcomes[20], StaleVersion) and isinstance(outcomes[21], NoSuchSeat)
    assert max(flushed) > 1  # several appends went into one transaction
    for game_id in tables:
        log = await store.load_game(game_id)
        assert (log.game.version, log.moves()) == (1, [(0, "torch")])
    assert (await store.get_game(extra)).version == 0


@SQLITE_ONLY
async def test_an_append_cancelled_while_queued_is_not_written(store: Store, playing: PlayingGame):
    game_id = await playing()
    async with store._backend._lock:  # white-box: keep the store busy so the append stays queued
        task = asyncio.create_task(store.append_action(game_id, 0, 0, "torch"))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert await store.append_action(game_id, 0, 1, "camp") == 1
    assert (await store.load_game(game_id)).moves() == [(1, "camp")]


@SQLITE_ONLY
async def test_cancelling_the_flushing_caller_still_settles_the_others(store: Store, playing: PlayingGame):
    first, second = await playing(channel_id=1), await playing(channel_id=2)
    async with store._backend._lock:  # queue both, so the first one's turn writes both
        flusher = asyncio.create_task(store.append_action(first, 0, 0, "torch"))
        rider = asyncio.create_task(store.append_action(second, 0, 0, "torch"))
        await asyncio.sleep(0.01)
    await asyncio.sleep(0)  # the flusher takes the lock and starts writing
    flusher.cancel()
    assert await rider == 1
    with pytest.raises(asyncio.CancelledError):
        await flusher
    # The flush was finished, not torn: the cancelled caller's append is durable too.
    assert (await store.get_game(first)).version == 1
    assert (await store.get_game(second)).version == 1


# ---------------------------------------------------------------- appends that re-arm the decision timer

DUE = T0 + timedelta(minutes=2)


async def _timer(store: Store, game_id: int) -> tuple[datetime, int | None] | None:
    row = await store.deadline(game_id, "decision")
    return None if row is None else (row.due_at, row.version)


async def test_a_deadline_is_written_with_the_actions_and_only_then(store: Store, playing: PlayingGame):
    game_id = await playing()
    assert await store.append_actions(game_id, 0, [(-1, "T5"), (0, "torch")]) == 2
    assert await _timer(store, game_id) is None  # no deadline asked, none written
    await store.append_actions(game_id, 2, [(1, "camp"), (-1, "T7")], deadline=("decision", DUE, 4))
    assert await _timer(store, game_id) == (DUE, 4)
    assert await store.deadlines(game_id) == [await store.deadline(game_id, "decision")]  # once, not per row
    # An append without one leaves the armed timer alone; the next with one replaces it.
    await store.append_action(game_id, 4, 2, "torch")
    assert await _timer(store, game_id) == (DUE, 4)
    later = DUE + timedelta(seconds=30)
    assert await store.append_actions(game_id, 5, [(-1, "H-snakes")], deadline=("decision", later, 6)) == 6
    assert await _timer(store, game_id) == (later, 6)
    # It also replaces a timer armed by set_deadline, and leaves the game's other timers alone.
    await store.set_deadline(game_id, "reminder", DUE, version=6)
    await store.append_actions(game_id, 6, [(0, "camp")], deadline=("decision", DUE, 7))
    assert [(d.kind, d.due_at, d.version) for d in await store.deadlines(game_id)] == [
        ("decision", DUE, 7), ("reminder", DUE, 6)
    ]


async def test_a_long_append_carries_its_deadline_through_the_chunked_transaction(
    store: Store, playing: PlayingGame
):
    game_id = await playing()
    batch: list[tuple[int, object]] = [(-1, f"T{i}") for i in range(1200)]
    batch[1100] = (7, "torch")  # refused in the last chunk, after the first ones were inserted
    with pytest.raises(NoSuchSeat):
        await store.append_actions(game_id, 0, batch, deadline=("decision", DUE, 1200))
    assert (await store.get_game(game_id)).version == 0 and await _timer(store, game_id) is None
    batch[1100] = (0, "torch")
    assert await store.append_actions(game_id, 0, batch, deadline=("decision", DUE, 1200)) == 1200
    assert await _timer(store, game_id) == (DUE, 1200)


async def test_a_refused_append_writes_neither_actions_nor_deadline(store: Store, playing: PlayingGame):
    game_id = await playing()
    await store.append_actions(game_id, 0, [(-1, "T5")], deadline=("decision", DUE, 1))
    later = DUE + timedelta(minutes=1)
    with pytest.raises(StaleVersion):
        await store.append_actions(game_id, 0, [(0, "torch")], deadline=("decision", later, 2))
    with pytest.raises(NoSuchSeat):
        await store.append_actions(game_id, 1, [(0, "torch"), (9, "camp")], deadline=("decision", later, 3))
    lobby = await _new(store, channel_id=1, seats=[ANN])
    with pytest.raises(WrongStatus):
        await store.append_actions(lobby, 0, [(0, "torch")], deadline=("decision", later, 1))
    with pytest.raises(GameNotFound):
        await store.append_actions(424242, 0, [(0, "torch")], deadline=("decision", later, 1))
    # A deadline the schema would refuse is refused before anything is written.
    bad: list[tuple[str, datetime, int]] = [
        ("", later, 2), ("k" * 33, later, 2), ("decision", datetime(2026, 1, 1), 2), ("decision", later, -1)
    ]
    for deadline in bad:
        with pytest.raises(ValueError):
            await store.append_actions(game_id, 1, [(0, "torch")], deadline=deadline)
    assert (await store.get_game(game_id)).version == 1
    assert await _timer(store, game_id) == (DUE, 1)
    assert await store.deadlines() == await store.deadlines(game_id)  # nothing armed for the others


@SQLITE_ONLY
async def test_a_batch_with_a_refused_append_keeps_each_callers_deadline(store: Store, playing: PlayingGame):
    good, clicked, missing_seat = [await playing(channel_id=n) for n in (1, 2, 3)]
    first, second, third = (DUE + timedelta(seconds=n) for n in (1, 2, 3))
    async with store._backend._lock:  # white-box: queue them all, so one flush writes them together
        calls = [
            asyncio.create_task(store.append_action(good, 0, 0, "torch")),
            asyncio.create_task(store.append_actions(clicked, 0, [(0, "torch")], deadline=("decision", first, 1))),
            # a double click on the same decision: stale once the first is in
            asyncio.create_task(store.append_actions(clicked, 0, [(0, "camp")], deadline=("decision", second, 9))),
            asyncio.create_task(store.append_actions(missing_seat, 0, [(8, "x")], deadline=("decision", third, 1))),
            asyncio.create_task(store.append_actions(good, 1, [(1, "camp")], deadline=("decision", third, 2))),
        ]
        await asyncio.sleep(0.01)
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert outcomes[:2] == [1, 1] and outcomes[4] == 2
    assert isinstance(outcomes[2], StaleVersion) and isinstance(outcomes[3], NoSuchSeat)
    assert await _timer(store, good) == (third, 2)
    assert await _timer(store, clicked) == (first, 1)
    assert (await store.load_game(clicked)).moves() == [(0, "torch")]
    assert await _timer(store, missing_seat) is None and (await store.get_game(missing_seat)).version == 0


@SQLITE_ONLY
async def test_round_trips_to_the_database_thread(
    store: Store, playing: PlayingGame, monkeypatch: pytest.MonkeyPatch
):
    tables = [await playing(channel_id=n) for n in range(6)]
    hops = count_round_trips(store, monkeypatch)
    # One append that re-arms its timer: one statement, no separate set_deadline.
    await store.append_actions(tables[0], 0, [(-1, "T5"), (0, "torch")], deadline=("decision", DUE, 2))
    assert hops == ["INSERT INTO action_appends"]
    # k appends queued while the store is busy: one statement for all of them, timers included.
    hops.clear()
    async with store._backend._lock:
        calls = [
            asyncio.create_task(store.append_actions(game_id, 0, [(0, "torch")], deadline=("decision", DUE, 1)))
            for game_id in tables[1:]
        ]
        await asyncio.sleep(0.01)
    assert await asyncio.gather(*calls) == [1] * 5
    assert hops == ["INSERT INTO action_appends"]
    assert [await _timer(store, game_id) for game_id in tables[1:]] == [(DUE, 1)] * 5
    # Recording a new message: one upsert, no BEGIN / COMMIT around it.
    hops.clear()
    await store.set_message(tables[0], "round", 500, 1)
    await store.set_message(tables[0], "round", 500, 2)
    assert hops == ["INSERT INTO messages"] * 2


@SQLITE_ONLY
async def test_a_queue_bigger_than_one_statement_is_written_in_few_statements(
    store: Store, playing: PlayingGame, monkeypatch: pytest.MonkeyPatch
):
    """Hundreds of tables appending at once: the queue is cut into statements that fit, not one per table."""
    monkeypatch.setattr(store_module, "ROWS_PER_INSERT", 10)  # white-box: a small statement size
    tables = [await playing(channel_id=2000 + n) for n in range(7)]
    hops = count_round_trips(store, monkeypatch)
    async with store._backend._lock:
        calls = [asyncio.create_task(store.append_actions(game_id, 0, [(-1, "T5"), (0, "torch"), (1, "camp")]))
                 for game_id in tables]
        await asyncio.sleep(0.01)
    assert await asyncio.gather(*calls) == [3] * 7
    assert hops == ["INSERT INTO action_appends"] * 3  # 21 rows: 9 + 9 + 3
    for game_id in tables:
        assert (await store.load_game(game_id)).moves() == [(-1, "T5"), (0, "torch"), (1, "camp")]


# ---------------------------------------------------------------- indexes the leaderboards will rely on


@pytest.mark.parametrize(
    ("query", "index"),
    [
        # a server's standings for one game over a period (issue 7): must name status = 'finished'
        (
            "SELECT r.user_id, count(*) FROM games g JOIN results r ON r.game_id = g.id"
            " WHERE g.status = 'finished' AND g.guild_id = 1 AND g.game = 'indus' AND g.finished_at >= 0"
            " GROUP BY r.user_id",
            "games_finished_by_guild",
        ),
        ("SELECT game_id FROM results WHERE user_id = 101 ORDER BY game_id DESC LIMIT 10", "results_by_user"),
        ("SELECT count(*) FROM results WHERE ai_level = 'hard'", "results_by_ai"),
        ("SELECT id FROM games WHERE status IN ('lobby', 'playing')", "games_"),
        ("SELECT id FROM games WHERE channel_id = 5 AND status IN ('lobby', 'playing')", "games_"),
    ],
)
async def test_reads_use_an_index(db_path: Path, query: str, index: str):
    await (await Store.open(db_path)).close()
    with sqlite3.connect(db_path) as conn:
        plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {query}")]
    assert any(index in step for step in plan), plan
    # No full scan of a table: every step searches an index (or scans a covering one).
    assert all("SEARCH" in step or "USING COVERING INDEX" in step or "TEMP B-TREE" in step for step in plan), plan
