"""A private panel clicked 20 minutes after it was opened (issue 41, item 6).

Discord's interaction tokens last 15 minutes: a response, a followup or an edit through an older
click's token answers 401 (the fake Discord expires them on its clock, as Discord does:
tests/bot/fakediscord/test_harness.py). A click on
a component of an old ephemeral message is a new interaction with a fresh token, so the bot answers
that click with a fresh panel — never an error, and never through the old token.
"""

from __future__ import annotations

import random

from incan_kit import act_id, buttons, lobby_id, start_bot
from sakkara_bot_kit import perform, press, prompt_ids
from table_kit import choose, incan_table, lobby_message

from cogs.sakkara import words as sakkara_words
from engine.sakkara import GAME as SAKKARA
from engine.sakkara import ai as sakkara_ai
from engine.session import Table
from fakediscord import FakeDiscord, FakeMessage

TWENTY_MINUTES = 20 * 60.0


async def later(fake: FakeDiscord, clock, seconds: float) -> None:
    """Let time pass for Discord (tokens expire) and for the bot (its timers)."""
    fake.advance(seconds)
    await fake.run(clock.advance, seconds)


def peek(fake: FakeDiscord, channel_id: int) -> FakeMessage:
    return [m for m in fake.channel_messages(channel_id) if buttons(m, "peek:")][-1]


async def test_an_incan_gold_panel_clicked_20_minutes_later_is_answered_with_a_fresh_one(fake, table, store, clock):
    ann, bo, cy = fake.user("Ann"), fake.user("Bo"), fake.user("Cy")
    fake.close_dms(cy)  # Cy decides through private panels in the channel
    bot = await start_bot(fake, store, clock, decision_timeout_s=3600.0)
    game = await incan_table(fake, bot, table, [ann, bo, cy])
    rec = await fake.click(cy, peek(fake, table.id), buttons(peek(fake, table.id), "peek:")[0])
    [panel] = rec.replies
    assert panel.ephemeral and act_id(panel, "camp")
    await later(fake, clock, TWENTY_MINUTES)
    version, drawn = game.version, len(panel.history)
    rec = await fake.click(cy, panel, act_id(panel, "camp"))  # a new click: a fresh token
    assert rec.acknowledged and rec.errors == []
    assert game.version == version + 1  # the choice counted
    assert rec.ack_type == 7 and len(panel.history) > drawn  # answered by redrawing the panel it pressed
    assert "You chose **⛺ Camp (leave)**" in panel.render()  # a fresh panel: what Cy chose, now
    for user in (ann, bo):  # the others choose; Cy goes home and is told what he banked
        await choose(fake, game, user, "torch")
    assert not game.state.inside[game.seat_of(cy.id)]
    assert "You returned to camp" in panel.render()  # told through his latest click, not the old one
    assert fake.invalid_requests == 0  # nothing was tried through the 20-minute-old token
    assert all(not r.errors for r in fake.store.interactions.values())
    await fake.stop(bot)


def windows(panel: FakeMessage) -> set[int]:
    """Return the decision windows the panel's move controls name."""
    return {int(c.split(":")[2]) for c in prompt_ids(panel) if c.split(":")[0] in ("act", "pick")}


async def sakkara_alone(fake: FakeDiscord, bot, table, ann) -> Table:
    """Ann (DMs closed) against the Easy bot, her turn first (seed 2)."""
    await fake.slash(ann, table, "sakkara new", {})
    lobby = lobby_message(fake, table)
    await fake.click(ann, lobby, lobby_id(lobby, "ai-easy"))
    game = await bot.sessions.table_in(table.id)
    await fake.run(bot.sessions.start, game.id, ann.id, 2)
    assert game.humans_owing() == [game.seat_of(ann.id)]
    return game


async def test_a_sakkara_panel_clicked_20_minutes_later_is_answered_with_a_fresh_one(fake, table, store, clock,
                                                                                      monkeypatch):
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann = fake.user("Ann")
    fake.close_dms(ann)
    bot = await start_bot(fake, store, clock, decision_timeout_s=3600.0)
    game = await sakkara_alone(fake, bot, table, ann)
    seat = game.seat_of(ann.id)
    rec = await fake.click(ann, peek(fake, table.id), buttons(peek(fake, table.id), "peek:")[0])
    [panel] = rec.replies
    await later(fake, clock, TWENTY_MINUTES)
    rng = random.Random(2)
    for _ in range(3):  # three of Ann's moves on the same old panel, each a new click with a fresh token
        assert seat in game.humans_owing()
        version = game.version
        action = sakkara_ai.greedy(SAKKARA.view(game.state, seat), SAKKARA.legal_actions(game.state, seat), rng)
        rec = await perform(fake, ann, panel, action)
        assert rec.acknowledged and rec.errors == [] and rec.callbacks == [7] and game.version > version
        assert windows(panel) == {game.window} and "Your rack" in panel.render()  # fresh: as the game is now
    # No call through any token was refused (an expired one answers 401 50027, an unanswered one 404).
    assert all(not r.errors for r in fake.store.interactions.values())
    await fake.stop(bot)


async def test_a_stale_panel_clicked_20_minutes_later_becomes_a_fresh_one(fake, table, store, clock, monkeypatch):
    """The game moved on while the panel was open (Ann's time ran out, the Easy bot played her turn,
    and it is hers again): her click on it is refused, on the panel itself, redrawn as it is now."""
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann = fake.user("Ann")
    fake.close_dms(ann)
    bot = await start_bot(fake, store, clock, decision_timeout_s=600.0)
    game = await sakkara_alone(fake, bot, table, ann)
    rec = await fake.click(ann, peek(fake, table.id), buttons(peek(fake, table.id), "peek:")[0])
    [panel] = rec.replies
    old_window, version = game.window, game.version
    await later(fake, clock, TWENTY_MINUTES)
    assert game.version > version and game.humans_owing() == [game.seat_of(ann.id)] and game.window != old_window
    assert windows(panel) == {old_window}
    stale = prompt_ids(panel)[0]
    options = (panel.component(stale) or {}).get("options") or [{}]
    version = game.version
    rec = await press(fake, ann, panel, stale, options[0].get("value"))  # a button, or a menu's first option
    assert rec.acknowledged and rec.errors == [] and rec.callbacks == [7] and game.version == version
    assert "That choice is over" in panel.render() and windows(panel) == {game.window}  # a fresh panel
    action = sakkara_ai.greedy(SAKKARA.view(game.state, game.seat_of(ann.id)),
                               SAKKARA.legal_actions(game.state, game.seat_of(ann.id)), random.Random(1))
    await perform(fake, ann, panel, action)  # and it works
    assert game.version > version
    # No call through any token was refused (an expired one answers 401 50027, an unanswered one 404).
    assert all(not r.errors for r in fake.store.interactions.values())
    await fake.stop(bot)
