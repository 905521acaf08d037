"""What a table records beside its log: seat events, the story cursor, open messages, server settings."""

from __future__ import annotations

import pytest
from db_kit import ANN, BO, HARD, PlayingGame

from db import NoSuchSeat, Store, WrongStatus


async def test_seat_events_are_kept_in_order_and_a_timeout_is_recorded_once(store: Store):
    game = await PlayingGame(store)()
    assert await store.add_seat_event(game, 3, 0, "timeout")
    assert not await store.add_seat_event(game, 3, 0, "timeout")  # the same timeout again: one event
    assert await store.add_seat_event(game, 3, 1, "resign", {"level": "hard"})
    assert await store.add_seat_event(game, 5, 0, "timeout")
    events = await store.seat_events(game)
    assert [(e.version, e.seat, e.kind) for e in events] == [(3, 0, "timeout"), (3, 1, "resign"), (5, 0, "timeout")]
    assert events[1].detail == {"level": "hard"}


async def test_only_a_person_resigns_and_only_once(store: Store):
    game = await PlayingGame(store)(seats=(ANN, BO, HARD))
    with pytest.raises(ValueError, match="bot"):
        await store.add_seat_event(game, 0, 2, "resign", {"level": "easy"})
    await store.add_seat_event(game, 0, 1, "resign", {"level": "easy"})
    with pytest.raises(ValueError, match="already"):
        await store.add_seat_event(game, 4, 1, "resign", {"level": "hard"})
    with pytest.raises(NoSuchSeat):
        await store.add_seat_event(game, 0, 7, "timeout")
    with pytest.raises(ValueError):
        await store.add_seat_event(game, 0, 0, "explode")
    await store.cancel_game(game)
    with pytest.raises(WrongStatus):
        await store.add_seat_event(game, 0, 0, "timeout")


async def test_the_story_cursor_and_the_thread_are_kept(store: Store):
    game = await PlayingGame(store)()
    assert await store.story(game) is None
    await store.set_story(game, 777, 0, 0)
    await store.set_story(game, 777, 12, 1)
    row = await store.story(game)
    assert row is not None and (row.thread_id, row.actions_written, row.notes_written) == (777, 12, 1)
    await store.set_story(game, None, 15, 1)  # the thread went away: the channel from now on
    assert (await store.story(game)).thread_id is None
    with pytest.raises(ValueError):
        await store.set_story(game, None, -1, 0)


async def test_messages_are_closed_once_and_ended_games_report_their_open_ones(store: Store):
    game = await PlayingGame(store)()
    await store.set_message(game, "board", 500, 41, open=True)
    await store.set_message(game, "dm", 600, 42, seat=0, open=True)
    await store.set_message(game, "summary", 500, 43)
    assert {(m.kind, m.open) for m in await store.messages(game)} == {("board", True), ("dm", True),
                                                                      ("summary", False)}
    assert await store.close_message(game, "dm", seat=0)
    assert not await store.close_message(game, "dm", seat=0)  # already closed
    assert await store.open_messages_of_ended_games() == []  # the game still runs
    await store.cancel_game(game)
    assert [(m.kind, m.message_id) for m in await store.open_messages_of_ended_games()] == [("board", 41)]


async def test_server_settings_and_active_tables(store: Store):
    assert await store.guild_settings(1) == {}
    await store.set_guild_setting(1, "decision_timeout_s", 60)
    await store.set_guild_setting(1, "threads", False)
    await store.set_guild_setting(2, "threads", True)
    assert await store.guild_settings(1) == {"decision_timeout_s": 60, "threads": False}
    await store.set_guild_setting(1, "threads", None)  # back to the default
    assert await store.guild_settings(1) == {"decision_timeout_s": 60}
    with pytest.raises(ValueError):
        await store.set_guild_setting(1, "", 1)
    game = await PlayingGame(store)(channel_id=501)
    lobby = await store.create_game("sakkara", guild_id=1, channel_id=502, host_id=101)
    assert [row[0] for row in await store.active_games_in(1)] == [game, lobby.id]
    assert await store.active_games_in(2) == []
