"""A message that is no longer the place to act is closed, and says what became of it (issue 13, item 3):
after an expedition, at the end, after a cancel, and after a restart."""

from __future__ import annotations

import pytest
from incan_kit import buttons, start_bot
from table_kit import choose, describe_controls, incan_table, incan_to_the_end, live_controls

from fakediscord import FakeDiscord, FakeUser


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


async def test_no_control_of_a_finished_game_is_left_but_rematch(fake, table, store, clock, players):
    fake.close_dms(players[2])  # Cy plays through Choose and private prompts
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players, bots=("medium",))
    await incan_to_the_end(fake, game, players)
    left = live_controls(fake, table, players)
    assert left == [], describe_controls(fake, left)
    rounds = [m for m in fake.channel_messages(table) if "expedition" in m.render().lower() and m.embeds]
    assert len(rounds) == 5
    last = rounds[-1].render()
    # The last expedition keeps its path (it used to be redrawn empty: "(no card yet)").
    path = rounds[-1].embeds[0]["description"].splitlines()[0]
    assert "(no card yet)" not in last and " · " in path and "Expedition 5 ended" in last
    await fake.stop(bot)


async def test_every_expedition_closes_its_message_and_the_prompts_of_it(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    await incan_to_the_end(fake, game, players, rounds=2)
    assert game.state.round == 3
    current = [m for m in fake.channel_messages(table) if buttons(m, "peek:")]
    assert len(current) == 1 and "expedition 3/5" in current[0].render().lower()
    assert [m for m in fake.channel_messages(table) if buttons(m, "act:")] == current  # only this one takes moves
    await fake.stop(bot)


async def test_a_camper_reads_what_they_banked_and_their_tent(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    ann = game.seat_of(players[0].id)
    while game.state.carried[ann] == 0:
        for seat in game.humans_owing():
            await choose(fake, game, user_of(game, seat, players), "torch")
    carried = game.state.carried[ann]
    await choose(fake, game, players[0], "camp")
    for seat in game.humans_owing():
        await choose(fake, game, user_of(game, seat, players), "torch")
    banked = game.state.banked[ann]
    assert banked >= carried > 0
    # Ann's private answer to her Camp press is redrawn once the choices are revealed.
    note = fake.ephemeral_replies(players[0])[-1].content
    assert f"with **{banked}** gems" in note and f"your tent now holds **{banked}**" in note
    assert not any(f"**{banked}**" in text for text in fake.public_texts())  # her tent stays hers
    await fake.stop(bot)


def user_of(game, seat: int, players: list[FakeUser]) -> FakeUser:
    return next(u for u in players if u.id == game.seats[seat].user_id)


async def test_cancel_mid_game_closes_every_control_and_tells_everyone(fake, table, store, clock, players):
    fake.close_dms(players[1])
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players, bots=("easy",))
    await incan_to_the_end(fake, game, players, rounds=1)
    before = len(fake.channel_messages(table))
    await fake.slash(players[0], table, "incan cancel", {})
    assert game.status == "cancelled"
    assert live_controls(fake, table, players) == []
    notice = fake.channel_messages(table)[before:]
    assert len(notice) == 1 and "cancelled" in notice[0].content.lower()
    assert all(user.mention in notice[0].content for user in players)  # every seated person is told
    sent = next(c for c in fake.rest_calls if c.method == "POST" and c.response and c.response.get("id") ==
                str(notice[0].id))
    allowed = sent.payload["allowed_mentions"]  # ... and nobody else can be pinged by it
    assert sorted(map(int, allowed["users"])) == sorted(u.id for u in players) and not allowed.get("parse")
    await fake.stop(bot)


async def test_a_restart_closes_what_the_bot_could_not_close_before_it_stopped(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    await incan_to_the_end(fake, game, players, rounds=1)
    first = next(m for m in fake.channel_messages(table) if "expedition 1/5" in m.render().lower())
    # As if the bot had stopped right after committing expedition 1's end, before closing its message:
    await store.set_message(game.id, "round1", table.id, first.id, open=True)
    other = fake.text_channel("other")
    ended = await incan_table(fake, bot, other, players)
    await fake.stop(bot)
    await store.cancel_game(ended.id)  # ... and another game ended while it was down
    again = await start_bot(fake, store, clock)
    assert live_controls(fake, other, players, ended.id) == []  # closed at start-up
    # The running table is loaded by its next click: what it left open is closed then.
    revived = await again.sessions.table(game.id)
    await choose(fake, revived, user_of(revived, revived.humans_owing()[0], players), "torch")
    assert not first.custom_ids and first.content.startswith("This question is over")
    assert live_controls(fake, other, players, ended.id) == []
    assert [m for m in fake.channel_messages(table) if buttons(m, "peek:")]  # the current one stays
    await fake.stop(again)
