"""Edits that wait for a channel's bucket coalesce: a burst of moves is one edit, never a stale one.

The bot's outbox (cogs/table/messages/outbox.py) and the fake's rate limiter both enforce a channel's
edit bucket. A test that needs "a burst" must not depend on how fast the machine plays it, so the
outbox's clock is held still while the burst is played (every move then falls in one window of
the bucket, however long it really takes) and let go afterwards.
"""

from __future__ import annotations

import random
import time
from typing import Any

from incan_kit import lobby_id, start_bot
from sakkara_bot_kit import last_prompt, perform

from cogs.table.messages.outbox import RestBudget
from engine.sakkara import GAME
from engine.sakkara import ai as sakkara_ai
from fakediscord import FakeDiscord, FakeUser
from fakediscord.ratelimits import Limit, RateLimits
from pictures.sakkara import board as sakkara_board

EDIT = "/channels/{channel_id}/messages/{message_id}"
WINDOW_S = 1.0  # the channel's edit bucket: 5 per second here (Discord's is 5 per 5 s)


def board_edits(fake: FakeDiscord, channel_id: int) -> list[Any]:
    """Return the bot's REST edits of messages in the channel (the board's, in Sakkara)."""
    return [c for c in fake.calls("PATCH", EDIT) if c.path.startswith(f"/channels/{channel_id}/")]


async def test_a_burst_of_moves_is_one_edit_of_the_board_with_the_newest_content(fake, table, store, clock,
                                                                                   monkeypatch):
    pictures: list[int] = []  # the board pictures drawn (the public one; the prompts' are apart)
    real_board = sakkara_board.board_image
    monkeypatch.setattr(sakkara_board, "board_image", lambda *a, **k: pictures.append(1) or real_board(*a, **k))
    fake.limit(RateLimits(message_edit=Limit(5, WINDOW_S)))
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock, rate_limited=True)
    outbox = bot.hub.outbox
    outbox.budget = RestBudget(channel_edits=(5, WINDOW_S))
    await fake.slash(ann, table, "sakkara new", {})
    lobby = next(m for m in fake.channel_messages(table) if any(c.startswith("lobby:") for c in m.custom_ids))
    await fake.click(bo, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    users = {ann.id: ann, bo.id: bo}
    rng = random.Random(5)
    await bot.hub.outbox.drained()
    await fake.run(clock.advance, 1)  # nothing of the start still in the bucket's window
    time.sleep(WINDOW_S + 0.2)

    held = time.monotonic()
    outbox.now = lambda: held  # the burst: every move inside one window of the bucket
    before = len(board_edits(fake, table.id))
    drawn_before = len(pictures)
    coalesced = outbox.coalesced
    moves = 0
    while moves < 10 and game.status == "playing":
        await play_move(fake, game, users, rng)
        moves += 1
    assert moves == 10
    burst = board_edits(fake, table.id)[before:]
    # Four edits (one token of the five kept spare) went at once; the six moves after them wait
    # as ONE edit of the board, each newer board replacing the one before it in the queue.
    assert len(burst) == 4
    assert outbox.backlog() == 1 and outbox.coalesced - coalesced == 5
    # ... and the moves after the first waiting one drew no picture (4 sent, 1 queued): the
    # waiting edit draws its picture when it goes, from the newest table
    assert len(pictures) - drawn_before == 5
    assert fake.limiter is not None and fake.limiter.rate_limited == 0

    outbox.now = time.monotonic  # the window passes: the waiting edit goes out, once
    await outbox.drained()
    sent = board_edits(fake, table.id)[before:]
    assert len(sent) == 5
    assert len(pictures) - drawn_before == 6
    board = next(m for m in fake.channel_messages(table) if m.id == int(sent[-1].path.split("/")[-1]))
    newest = bot.hub.renderer(game).public_embed(game, True).to_dict()  # what the board must show now
    assert board.embeds[0]["title"] == newest["title"]
    assert board.embeds[0]["description"] == newest["description"]
    # No stale board: every field as the newest board shows it, and as its log every line since the
    # last batch posted to the game's thread (the story supplies the log, not the renderer).
    log_name = "What happened"
    assert [f for f in board.embeds[0]["fields"] if f["name"] != log_name] == \
        [f for f in newest["fields"] if f["name"] != log_name]
    shown = [line for f in board.embeds[0]["fields"] if f["name"] == log_name for line in f["value"].splitlines()]
    assert shown == bot.hub.story.lines(game)
    assert fake.limiter.rate_limited == 0 and fake.invalid_requests == 0
    await fake.stop(bot)


async def play_move(fake: FakeDiscord, game, users: dict[int, FakeUser], rng: random.Random) -> None:
    """The player who owes a move plays a legal one through their prompt's controls."""
    seat = game.humans_owing()[0]
    user = users[game.seats[seat].user_id]
    action = sakkara_ai.easy(GAME.view(game.state, seat), GAME.legal_actions(game.state, seat), rng)
    prompt = last_prompt(fake, user)
    assert prompt is not None
    await perform(fake, user, prompt, action)
