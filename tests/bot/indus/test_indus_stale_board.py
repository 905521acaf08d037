"""A turn played from the DM leaves the Indus board's controls behind (the board waits for the
turn's end: one rate-limited edit a turn, not one a step). A press on those stale controls is
answered with the board as it stands, through that press (an interaction call, exempt from the
rate limits): the presser sees the decision the table waits for now and can act at once; the
game is unchanged, and the press is told privately that the game had moved on."""

from __future__ import annotations

import pytest
from incan_kit import buttons, start_bot
from indus_kit import TINY_PNG, board, check_controls, dm_prompt, first_choice, open_table, play_step, take

from engine.indus import GAME
from fakediscord import FakeDiscord


def limited_since(fake: FakeDiscord, start: int) -> list[str]:
    """The rate-limited REST calls (everything but the interaction endpoints) made since ``start``."""
    return [f"{c.method} {c.path}" for c in fake.rest_calls[start:]
            if not c.route.startswith(("/interactions/", "/webhooks/"))]


@pytest.mark.parametrize("control", ["space", "piece"])
async def test_a_press_on_the_board_left_behind_by_a_dm_turn_redraws_it_as_it_stands(fake, table, store, clock,
                                                                                      monkeypatch, control):
    """``space``: the start-space menu (a move: refused by the session as stale); ``piece``: a piece
    button (two players have more pieces than menus), which only redraws the controls."""
    monkeypatch.setattr("cogs.indus.render.board_png", lambda view, names=None: TINY_PNG)  # speed only
    monkeypatch.setattr("engine.session.opening.secrets.randbits", lambda bits: 11)
    people = [fake.user("Ann"), fake.user("Bo")]
    ann = people[0]
    bot = await start_bot(fake, store, clock)
    assert (await fake.slash(ann, table, "notify", {"how": "dm"})).ephemeral  # Ann is told by DM
    game = await open_table(fake, bot, table, people)
    ann_seat = game.seat_of(ann.id)
    # Both play on the board until a turn of the main game (place, roll, move) passes to Ann.
    while not (GAME.view(game.state, None)["phase"] == "place" and game.humans_owing() == [ann_seat]):
        await play_step(fake, bot, game, people)
    prompt = dm_prompt(fake, ann)
    assert prompt is not None and prompt is fake.dm_messages(ann)[-1]  # told by DM, with the controls
    public = await board(fake, bot, game)
    placement = GAME.legal_actions(game.state, ann_seat)[0]
    stale_cid, stale_value = first_choice(public, placement)
    if control == "piece":
        stale_cid, stale_value = buttons(public, "indus:pc:")[-1], None
    left_behind = public.custom_ids

    # Her turn's first decision, made in the DM: the turn goes on, and the board waits for its end.
    await take(fake, ann, prompt, *first_choice(prompt, placement))
    assert game.humans_owing() == [ann_seat] and GAME.view(game.state, None)["phase"] != "place"
    assert public.custom_ids == left_behind

    # A press on the board's placement control, left behind.
    version, window, state = game.version, game.window, game.state
    await bot.hub.outbox.drained()
    start = len(fake.rest_calls)
    rec = await (fake.click(ann, public, stale_cid) if stale_value is None
                 else fake.select(ann, public, stale_cid, [stale_value]))
    assert game.version == version and game.window == window and game.state is state  # nothing played
    assert public.custom_ids != left_behind
    check_controls(public, GAME.legal_actions(game.state, ann_seat))  # the decision she owes now
    assert limited_since(fake, start) == []  # the redraw was the press's own answer
    assert [m.ephemeral and m.content for m in rec.followups] == ["That choice is over: the game has moved on."]

    # She acts on the board at once.
    await play_step(fake, bot, game, people)
    assert game.version > version
    await fake.stop(bot)
