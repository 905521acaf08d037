"""Leaving a running game (issue 13, item 6): ``/<game> resign`` asks to confirm, a bot of the
player's choice plays the seat to the end, labelled as such, and the player ranks last among the
people at the table. Refusals are private and change nothing."""

from __future__ import annotations

import pytest
from incan_kit import lobby_id, start_bot
from table_kit import incan_table, incan_to_the_end, lobby_message, thread_lines, thread_of

from fakediscord import FakeDiscord, FakeUser


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


def confirmation(fake: FakeDiscord, user: FakeUser):
    """Return the user's newest private reply (the confirmation) and its custom_ids."""
    reply = fake.ephemeral_replies(user)[-1]
    return reply, list(reply.custom_ids)


async def test_a_player_resigns_after_confirming_and_their_bot_plays_to_the_end(fake, table, store, clock, players):
    ann, bo, cy = players
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    seat = game.seat_of(cy.id)

    await fake.slash(cy, table, "incan resign", {"level": "hard"})
    ask, ids = confirmation(fake, cy)
    assert "hard bot plays your seat" in ask.render() and "rank last" in ask.render()
    assert ids == [f"resign:{game.id}:hard", f"resign:{game.id}:keep"]
    assert not game.seats[seat].resigned  # asking changes nothing

    await fake.click(cy, ask, f"resign:{game.id}:hard")
    assert game.seats[seat].stand_in == "hard" and game.seats[seat].is_ai
    done, ids = confirmation(fake, cy)
    assert done.id == ask.id and ids == []  # the confirmation itself says what happened, its buttons gone
    assert "You left Incan Gold" in done.render()
    public = [m for m in fake.channel_messages(table) if m.embeds][-1].render()
    assert "Hard bot (for Cy)" in public  # labelled as such where everyone looks

    await incan_to_the_end(fake, game, [ann, bo])  # nobody has to act for Cy any more
    assert game.status == "finished" and game.results is not None
    places = {r.seat: r.placement for r in game.results}
    people = [game.seat_of(u.id) for u in (ann, bo)]
    assert places[seat] > max(places[s] for s in people)  # last among the people, whatever the bot scored
    assert not any(r.is_winner for r in game.results if r.seat == seat)
    assert any("Cy resigned" in line for line in thread_lines(fake, thread_of(fake, table)))
    await fake.stop(bot)


async def test_keep_playing_changes_nothing(fake, table, store, clock, players):
    cy = players[2]
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, players)
    await fake.slash(cy, table, "incan resign", {})
    ask, ids = confirmation(fake, cy)
    assert ids == [f"resign:{game.id}:medium", f"resign:{game.id}:keep"]  # Medium unless chosen
    await fake.click(cy, ask, f"resign:{game.id}:keep")
    kept, ids = confirmation(fake, cy)
    assert kept.id == ask.id and ids == [] and "still in the game" in kept.render()
    assert game.people() == [0, 1, 2] and game.seat_events == []
    await fake.stop(bot)


async def test_refusals_are_private_and_change_nothing(fake, table, store, clock, players, caplog):
    ann, _bo, cy = players
    stranger = fake.user("Dee")
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan resign", {})  # no table here
    assert fake.ephemeral_replies(ann)[-1].custom_ids == []

    game = await incan_table(fake, bot, table, players)
    await fake.slash(stranger, table, "incan resign", {})
    assert "not seated" in fake.ephemeral_replies(stranger)[-1].render().lower()
    assert fake.ephemeral_replies(stranger)[-1].custom_ids == []

    await fake.slash(cy, table, "incan resign", {})
    first, _ = confirmation(fake, cy)
    await fake.slash(cy, table, "incan resign", {"level": "hard"})  # asked twice: two confirmations
    second, _ = confirmation(fake, cy)
    await fake.click(cy, first, f"resign:{game.id}:medium")
    before = list(game.seat_events)
    assert len(before) == 1
    await fake.click(cy, second, f"resign:{game.id}:hard")  # the stale one
    assert "resigned from this game" in fake.ephemeral_replies(cy)[-1].render()
    await fake.slash(cy, table, "incan resign", {})  # asking again
    assert "resigned from this game" in fake.ephemeral_replies(cy)[-1].render()
    assert game.seat_events == before and game.seats[game.seat_of(cy.id)].stand_in == "medium"

    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    await fake.stop(bot)


async def test_the_last_person_resigning_cancels_the_game_and_tells_everyone(fake, table, store, clock):
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, [ann], bots=("easy", "easy"))
    await fake.slash(ann, table, "incan resign", {})
    ask, _ = confirmation(fake, ann)
    await fake.click(ann, ask, f"resign:{game.id}:medium")
    assert game.status == "cancelled"  # nobody left to rank against: no result is recorded
    ended = fake.channel_messages(table)[-1].render()
    assert f"<@{ann.id}>" in ended and "Everyone left" in ended
    await fake.stop(bot)


@pytest.mark.parametrize(("game_name", "command"), [("sakkara", "sakkara"), ("indus", "indus")])
async def test_in_the_turn_games_the_bot_takes_the_turn_the_player_owed(fake, table, store, clock, game_name, command):
    """Sakkara and Indus resign through the same command: the bot plays the turn the player owed."""
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, f"{command} new", {})
    lobby = lobby_message(fake, table)
    await fake.click(bo, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    assert game.spec.name == game_name and len(game.humans_owing()) == 1
    owing = game.humans_owing()[0]
    leaver = ann if game.seats[owing].user_id == ann.id else bo
    await fake.slash(leaver, table, f"{command} resign", {"level": "easy"})
    ask, _ = confirmation(fake, leaver)
    version = game.version
    await fake.click(leaver, ask, f"resign:{game.id}:easy")
    assert game.seats[owing].stand_in == "easy"
    await fake.run(clock.advance, 10)  # the bot's pause before it acts
    assert game.version > version and owing not in game.humans_owing()
    public = [m for m in fake.channel_messages(table) if m.embeds][-1].render()
    assert f"Easy bot (for {leaver.name})" in public
    await fake.stop(bot)
