"""The bot under Discord's rate limits: the fake enforces them, the hub keeps within them.

Both sides use Discord's figures (50 requests/s, 5 edits and 5 sends per 5 s per channel): the
hub's outbox coalesces what waits, answers clicks through their (exempt) responses, and never
retries a closed DM before its user interacts again.
"""

from __future__ import annotations

import random

import pytest
from incan_kit import act_id, buttons, lobby_id, start_bot
from sakkara_bot_kit import last_prompt, perform

from cogs.table.messages import closed_dms as closed_dms_module
from engine.sakkara import GAME
from engine.sakkara import ai as sakkara_ai
from fakediscord import FakeDiscord, FakeUser
from fakediscord.ratelimits import RateLimits

EDIT = "/channels/{channel_id}/messages/{message_id}"


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


def lobby_of(fake: FakeDiscord, channel) -> object:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def test_a_waiting_edit_is_dropped_when_a_click_shows_newer_content(fake, table, store, clock, players):
    fake.limit(RateLimits())
    bot = await start_bot(fake, store, clock, rate_limited=True)
    ann, bo, _ = players
    await fake.slash(ann, table, "incan new", {})
    lobby = lobby_of(fake, table)
    # Four lobby redraws by command (no message pressed: plain edits) use the channel's edit budget
    # (five per five seconds, one kept spare); the fifth waits in the outbox.
    for level in ("easy", "medium", "hard", "easy", "medium"):
        await fake.slash(ann, table, "incan addbot", {"level": level})
    edits = fake.calls("PATCH", EDIT)
    assert len(edits) == 4 and bot.hub.outbox.backlog() == 1
    assert "Medium bot 2" not in lobby.render()  # the fifth bot is not shown yet
    # Bo presses Join on the lobby: its redraw (newest content: five bots and Bo) answers the click.
    rec = await fake.click(bo, lobby, lobby_id(lobby, "join"))
    assert rec.callbacks == [7] and "Bo" in lobby.render() and "Medium bot 2" in lobby.render()
    await bot.hub.outbox.drained()
    assert len(fake.calls("PATCH", EDIT)) == 4  # the waiting (stale) edit was never sent
    assert fake.limiter is not None and fake.limiter.rate_limited == 0 and fake.invalid_requests == 0
    await fake.stop(bot)


async def test_closed_dms_are_not_tried_again_until_the_user_interacts(fake, table, store, clock, players,
                                                                       monkeypatch):
    fake.limit(RateLimits())
    bot = await start_bot(fake, store, clock, rate_limited=True)
    hub = bot.hub
    ann, _, cy = players
    fake.close_dms(cy)
    await fake.slash(ann, table, "sakkara new", {})  # Sakkara's prompts come by DM: joining checks DMs
    lobby = lobby_of(fake, table)
    rec = await fake.click(cy, lobby, lobby_id(lobby, "join"))  # the DM check fails: one 403
    assert "could not send you a direct message" in rec.replies[-1].render()
    assert fake.invalid_requests == 1 and cy.id in hub.private.no_dm
    for n in range(3):  # reminders and notices: not even tried
        await hub.private.send(cy.id, ("notice", n), content="hello")
    await hub.outbox.drained()
    rec = await fake.slash(cy, table, "sakkara status", {})  # interacting soon after: still not tried
    await hub.private.send(cy.id, ("notice", 9), content="hello")
    await hub.outbox.drained()
    assert fake.invalid_requests == 1 and fake.dm_messages(cy) == []
    # A while later Cy has opened their DMs and interacts: the next DM is tried, and arrives.
    monkeypatch.setattr(closed_dms_module, "DM_RETRY_AFTER_S", 0.0)
    fake.open_dms(cy)
    await fake.slash(cy, table, "sakkara status", {})
    assert cy.id not in hub.private.no_dm
    await hub.private.send(cy.id, ("notice", 10), content="welcome back")
    await hub.outbox.drained()
    assert [m.content for m in fake.dm_messages(cy)] == ["welcome back"] and fake.invalid_requests == 1
    await fake.stop(bot)


async def test_closed_dms_are_remembered_across_a_restart(fake, table, store, clock, players):
    """A restart does not pay a 403 per closed-DM user to learn it again; interacting later still
    lets them be tried (they may have opened their DMs), and that is remembered too."""
    fake.limit(RateLimits())
    bot = await start_bot(fake, store, clock, rate_limited=True)
    ann, _, cy = players
    fake.close_dms(cy)
    await fake.slash(ann, table, "sakkara new", {})
    lobby = lobby_of(fake, table)
    await fake.click(cy, lobby, lobby_id(lobby, "join"))  # the DM check fails: one 403
    assert fake.invalid_requests == 1
    again = await restart(fake, bot, store, clock)
    assert cy.id in again.hub.private.no_dm
    for n in range(3):  # reminders and notices after the restart: not even tried
        await again.hub.private.send(cy.id, ("notice", n), content="hello")
    await again.hub.outbox.drained()
    assert fake.invalid_requests == 1 and fake.dm_messages(cy) == []
    # Ten minutes later Cy has opened their DMs and runs a command: tried again, and that is kept.
    fake.open_dms(cy)
    await fake.run(clock.advance, closed_dms_module.DM_RETRY_AFTER_S + 1)
    await fake.slash(cy, table, "sakkara status", {})
    await again.hub.private.send(cy.id, ("notice", 9), content="welcome back")
    await again.hub.outbox.drained()
    assert [m.content for m in fake.dm_messages(cy)] == ["welcome back"]
    third = await restart(fake, again, store, clock)
    assert cy.id not in third.hub.private.no_dm
    await third.hub.private.send(cy.id, ("notice", 10), content="still here")
    await third.hub.outbox.drained()
    assert [m.content for m in fake.dm_messages(cy)] == ["welcome back", "still here"]
    assert fake.invalid_requests == 1
    await fake.stop(third)


async def restart(fake: FakeDiscord, old, store, clock):
    """Stop the bot and start a new process on the same store (what it remembers is in the store)."""
    await fake.stop(old)
    return await start_bot(fake, store, clock, rate_limited=True)


async def test_a_user_who_keeps_dms_closed_costs_one_invalid_request_per_retry(fake, table, store, clock,
                                                                                players, monkeypatch):
    fake.limit(RateLimits())
    bot = await start_bot(fake, store, clock, rate_limited=True)
    cy = players[2]
    fake.close_dms(cy)
    monkeypatch.setattr(closed_dms_module, "DM_RETRY_AFTER_S", 0.0)
    for n in range(3):
        await fake.slash(cy, table, "incan status", {})  # interacts: may be tried once more
        for k in range(3):
            await bot.hub.private.send(cy.id, ("notice", n, k), content="hello")
        await bot.hub.outbox.drained()
    assert fake.invalid_requests == 3  # one per interaction, not one per DM
    await fake.stop(bot)


async def test_a_private_prompt_is_one_dm_redrawn_through_its_players_clicks(fake, table, store, clock):
    """Sakkara: each player's prompt is one DM for the game; every hand-over redraws it through that
    player's latest click on it (an interaction endpoint), never by a rate-limited edit or a new DM.
    Rate-limited calls go only to the board and, in batches, to the game's log thread."""
    fake.limit(RateLimits())
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock, rate_limited=True)
    await fake.slash(ann, table, "sakkara new", {})
    lobby = lobby_of(fake, table)
    await fake.click(bo, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    users = {ann.id: ann, bo.id: bo}
    rng = random.Random(3)
    for _ in range(2):  # each player's first prompt is a new DM (nothing to redraw yet)
        await play_move(fake, game, users, rng)
    start = len(fake.rest_calls)
    moves = 0
    while moves < 12 and game.status == "playing":
        await play_move(fake, game, users, rng)
        moves += 1
    await bot.hub.outbox.drained()
    dm_channels = {fake.dm_channel(u).id for u in (ann, bo)}
    limited = [c for c in fake.rest_calls[start:] if not c.route.startswith(("/interactions/", "/webhooks/"))]
    assert [c for c in limited if int(c.path.split("/")[2]) in dm_channels] == []  # no DM sent or edited
    # Only the board, once a move, and the game's log posted in batches to its thread.
    public = {table.id} | {t.id for t in fake.threads(table)}
    assert fake.threads(table)
    assert all(int(c.path.split("/")[2]) in public for c in limited)
    assert len(limited) <= moves
    assert any(c.method == "PATCH" and "@original" in c.path for c in fake.rest_calls[start:])
    await fake.stop(bot)


async def play_move(fake: FakeDiscord, game, users: dict[int, FakeUser], rng: random.Random) -> None:
    seat = game.humans_owing()[0]
    user = users[game.seats[seat].user_id]
    action = sakkara_ai.easy(GAME.view(game.state, seat), GAME.legal_actions(game.state, seat), rng)
    prompt = last_prompt(fake, user)
    assert prompt is not None
    await perform(fake, user, prompt, action)


async def test_an_indus_player_who_is_playing_gets_no_dm_for_their_turn_one_away_does(fake, table, store, clock):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "indus new", {})
    lobby = lobby_of(fake, table)
    await fake.click(bo, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    users = {ann.id: ann, bo.id: bo}
    first = users[game.seats[game.humans_owing()[0]].user_id]
    second = bo if first is ann else ann
    dms = {u.id: len(fake.dm_messages(u)) for u in (ann, bo)}  # the DM checks at Join
    await fake.run(clock.advance, 10)
    while game.seats[game.humans_owing()[0]].user_id == first.id:  # the first player plays their turn
        board = [m for m in fake.channel_messages(table) if buttons(m, "pick:") or buttons(m, "act:")][-1]
        control = (buttons(board, "act:") or buttons(board, "pick:"))[0]
        if control.startswith("pick:"):
            await fake.select(first, board, control, [board.component(control)["options"][0]["value"]])
        else:
            await fake.click(first, board, control)
    assert len(fake.dm_messages(second)) == dms[second.id]  # they joined moments ago: playing, no DM
    await fake.run(clock.advance, 121)  # the second player's time runs out; the first looked away
    assert game.seats[game.humans_owing()[0]].user_id == first.id
    nudges = fake.dm_messages(first)[dms[first.id]:]
    assert nudges and f"/{table.id}/" in nudges[-1].render()  # a DM with a link to the board
    await fake.stop(bot)


async def test_an_incan_gold_game_played_flat_out_under_discords_limits_gets_no_429(fake, table, store, clock):
    """Presses far faster than a channel's bucket: nothing is refused, the end is shown."""
    fake.limit(RateLimits())
    ann, bo, cy = fake.user("Ann"), fake.user("Bo"), fake.user("Cy")
    bot = await start_bot(fake, store, clock, rate_limited=True)
    await fake.slash(ann, table, "incan new", {})
    lobby = lobby_of(fake, table)
    for user in (bo, cy):
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "ai-easy"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    by_id = {u.id: u for u in (ann, bo, cy)}
    start = len(fake.rest_calls)
    while game.status == "playing":
        for seat in game.humans_owing():
            await bot.hub.outbox.drained()  # a new expedition's message may wait for the channel's bucket
            public = [m for m in fake.channel_messages(table) if buttons(m, "act:")][-1]
            choice = "camp" if game.state.carried[seat] >= 5 else "torch"
            await fake.click(by_id[game.seats[seat].user_id], public, act_id(public, choice))
    await bot.hub.outbox.drained()
    assert fake.limiter is not None and fake.limiter.rate_limited == 0 and fake.invalid_requests == 0
    limited = [c for c in fake.rest_calls[start:] if not c.route.startswith(("/interactions/", "/webhooks/"))]
    # A message per expedition, the summary, and the log's batch per expedition in the game's thread:
    # the cards themselves cost nothing (answered through the clicks).
    assert len(limited) <= 12
    summary = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert summary and "final scores" in summary[-1].render()
    await fake.stop(bot)
