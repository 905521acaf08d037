"""A lobby nobody starts closes in place after its time, controls gone, the channel free (issue 42)."""

from __future__ import annotations

from incan_kit import buttons, lobby_id, start_bot

from engine.session.options import LOBBY_IDLE_S


async def test_a_forgotten_lobby_closes_in_place_and_the_channel_takes_a_new_table(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    bo = fake.user("Bo")
    await fake.slash(ann, table, "incan new", {})
    lobby = next(m for m in fake.channel_messages(table) if buttons(m, "lobby:"))
    await fake.click(bo, lobby, lobby_id(lobby, "join"))
    await fake.run(clock.advance, LOBBY_IDLE_S + 1)
    closed = fake.messages[lobby.id]
    assert "Nobody started this table in time" in closed.text and not buttons(closed, "lobby:")
    rec = await fake.slash(bo, table, "incan new", {})  # the channel is free again
    lobbies = [m.id for m in fake.channel_messages(table) if buttons(m, "lobby:")]
    assert rec.acknowledged and len(lobbies) == 1 and lobbies[0] != lobby.id
    await fake.stop(bot)
