"""A click whose answer waits for a board picture is acknowledged first (cogs/table/answer.py,
``PICTURE_ACK_S``); the picture follows as an edit of the interaction's response.

Pictures are drawn in another process (or a thread): beside 100 tables of bots they queued for
1.5 s at p99, and every click on a prompt waited for its picture before Discord heard anything.
"""

from __future__ import annotations

import time

from incan_kit import lobby_id, start_bot
from sakkara_bot_kit import last_prompt, perform
from table_kit import lobby_message

from cogs.table import answer as answer_module
from engine.sakkara import GAME
from pictures.sakkara import board as sakkara_board


async def play_first_move(fake, bot, table, ann):
    await fake.slash(ann, table, "sakkara new", {})
    lobby = lobby_message(fake, table)
    await fake.click(ann, lobby, lobby_id(lobby, "ai-easy"))
    game = await bot.sessions.table_in(table.id)
    await bot.sessions.start(game.id, ann.id, seed=3)
    prompt = last_prompt(fake, ann)
    assert prompt is not None and game.humans_owing() == [0]
    before = prompt.files[0].data
    rec = await perform(fake, ann, prompt, GAME.legal_actions(game.state, 0)[0])
    await bot.hub.outbox.drained()
    return rec, before, last_prompt(fake, ann)


async def test_a_click_is_acknowledged_before_a_slow_picture_then_shown_with_it(fake, table, store, clock,
                                                                               monkeypatch):
    real = sakkara_board.private_pictures

    def slow(view, names=None):  # on the drawing thread (tests): the event loop goes on meanwhile
        time.sleep(0.3)
        return real(view, names)

    monkeypatch.setattr(answer_module, "ACK_GUARD_S", 60.0)  # only the picture's own guard may defer
    monkeypatch.setattr(sakkara_board, "private_pictures", slow)
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    rec, before, prompt = await play_first_move(fake, bot, table, ann)
    assert rec.callbacks == [6]  # deferred while the picture was drawn ...
    assert prompt is not None and prompt.files[0].data != before  # ... then the prompt shows the new one
    await fake.stop(bot)


async def test_a_quick_picture_answers_the_click_itself(fake, table, store, clock, monkeypatch):
    monkeypatch.setattr(answer_module, "ACK_GUARD_S", 60.0)
    monkeypatch.setattr(answer_module, "PICTURE_ACK_S", 60.0)  # every picture is "quick"
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    rec, before, prompt = await play_first_move(fake, bot, table, ann)
    assert rec.callbacks == [7]  # the redraw, picture included, is the response: one call
    assert prompt is not None and prompt.files[0].data != before
    await fake.stop(bot)


async def test_the_click_is_answered_before_the_public_board_is_drawn(fake, table, store, clock, monkeypatch):
    """The mover's prompt (the pressed message) is redrawn first: the board's picture comes after
    the click's answer, not before it."""
    seen: list[str] = []
    real = sakkara_board.board_image

    def board(view, names=None):
        seen.append("public board drawn")
        return real(view, names)

    def heard(call):
        if call.route.endswith("/callback"):
            seen.append(f"click answered ({call.payload['type']})")


    monkeypatch.setattr(answer_module, "ACK_GUARD_S", 60.0)
    monkeypatch.setattr(answer_module, "PICTURE_ACK_S", 60.0)  # no deferral: the answer is the redraw
    monkeypatch.setattr(sakkara_board, "board_image", board)
    fake.add_listener(heard)
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    await play_first_move(fake, bot, table, ann)
    start = seen.index("public board drawn")  # the lobby's clicks and the first board come first
    assert seen[start + 1:] == ["click answered (7)", "public board drawn"]
    await fake.stop(bot)
