"""Incan Gold while its table waits: "k of n have chosen" kept true, and the last few told.

A press on the board redraws the count through its own interaction (no rate-limited call); choices
made in DM prompts are shown by a timer, at a live table after 30 s, at a correspondence table
after an eighth of its decision time. At a correspondence table the last few the table waits for
are told by DM only once the wait for them has gone on that long (people who look in every hour
are not pinged for every card); at a live table at once.
"""

from __future__ import annotations

import json

from incan_kit import act_id, buttons, last_dm, start_bot
from table_kit import incan_table

from cogs.table.messages.waiting import COUNT_REDRAW_AFTER_S
from engine.session import Table
from fakediscord import FakeDiscord, FakeMessage, FakeUser

DAY = 86400.0


def expedition(fake: FakeDiscord, table: Table) -> FakeMessage:
    """The current expedition's public message (the one with My status)."""
    return [m for m in fake.channel_messages(table.channel_id) if buttons(m, "peek:")][-1]


def limited_since(fake: FakeDiscord, start: int) -> list[str]:
    """The rate-limited REST calls (everything but the interaction endpoints) made since ``start``."""
    return [f"{c.method} {c.path}" for c in fake.rest_calls[start:]
            if not c.route.startswith(("/interactions/", "/webhooks/"))]


async def prefer_dm(fake: FakeDiscord, channel: object, users: list[FakeUser]) -> None:
    for user in users:
        assert (await fake.slash(user, channel, "notify", {"how": "dm"})).ephemeral


async def choose_in_dm(fake: FakeDiscord, user: FakeUser, action: str) -> None:
    prompt = last_dm(fake, user)
    assert prompt is not None, f"{user.name} has a DM prompt"
    cid = next(c for c in buttons(prompt, "act:") if json.loads(c.split(":", 3)[3]) == action)
    await fake.click(user, prompt, cid)


async def test_each_press_on_the_board_redraws_the_count_at_no_rate_limited_cost(fake, table, store, clock):
    users = [fake.user(name) for name in ("Ann", "Bo", "Cy", "Di", "Ed")]
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    await bot.hub.outbox.drained()
    start = len(fake.rest_calls)
    for n, user in enumerate(users[:4], start=1):
        rec = await fake.click(user, public, act_id(public, "torch"))
        assert rec.callbacks == [7]  # the board redrawn as the press's own answer
        assert f"{n} of 5 ha" in public.render()
        assert any("You chose" in m.render() for m in rec.followups)  # and the presser's private word
    assert limited_since(fake, start) == []
    await fake.stop(bot)


async def test_choices_made_in_dms_show_on_the_board_after_a_wait(fake, table, store, clock):
    users = [fake.user(name) for name in ("Ann", "Bo", "Cy", "Di", "Ed")]
    bot = await start_bot(fake, store, clock)
    await prefer_dm(fake, table, users)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    window = game.window
    for user in users[:4]:
        await choose_in_dm(fake, user, "torch")
    assert "4 of 5 have chosen" not in public.render()  # a burst of choices: no edit per choice
    await fake.run(clock.advance, COUNT_REDRAW_AFTER_S)
    assert game.window == window and "4 of 5 have chosen" in public.render()
    await fake.stop(bot)


async def test_a_correspondence_board_shows_dm_choices_after_an_eighth_of_the_decision_time(fake, table, store,
                                                                                            clock):
    users = [fake.user(name) for name in ("Ann", "Bo", "Cy", "Di", "Ed")]
    bot = await start_bot(fake, store, clock, decision_timeout_s=DAY)
    await prefer_dm(fake, table, users)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    for user in users[:2]:
        await choose_in_dm(fake, user, "torch")
    await fake.run(clock.advance, 3600.0)
    assert "2 of 5 have chosen" not in public.render()  # people an hour apart: no edit for each
    # The redraw waits for the window's waited moment, a timer derived from the stored deadline:
    # nothing in memory beside the table, which may leave memory while idle.
    assert not game.timers
    await fake.run(clock.advance, DAY / 8 - 3600.0)
    assert "2 of 5 have chosen" in public.render()
    await fake.stop(bot)


async def test_a_correspondence_table_tells_its_last_one_after_waiting_an_eighth_of_the_time(fake, table, store,
                                                                                             clock):
    ann, bo, cy = users = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
    bot = await start_bot(fake, store, clock, decision_timeout_s=DAY)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    await fake.run(clock.advance, 7200.0)  # everyone is away from the table now
    before = {user.id: len(fake.notifications(user)) for user in users}
    for user in (ann, bo):
        await fake.click(user, public, act_id(public, "torch"))
    await fake.run(clock.advance, DAY / 8 - 60.0)
    assert len(fake.notifications(cy)) == before[cy.id]  # Cy may well look in on their own
    await fake.run(clock.advance, 60.0)  # the table has waited an eighth of a day for Cy alone
    told = fake.notifications(cy)
    assert len(told) == before[cy.id] + 1 and told[-1] is last_dm(fake, cy)  # a new DM, with Torch / Camp
    assert "waits for you" in told[-1].render()
    assert {u.id: len(fake.notifications(u)) for u in (ann, bo)} == {ann.id: before[ann.id], bo.id: before[bo.id]}
    window = game.window
    await choose_in_dm(fake, cy, "camp")
    assert game.window != window  # the card was decided from the DM
    await fake.stop(bot)


async def test_a_live_table_tells_its_last_one_at_once_when_away(fake, table, store, clock):
    ann, bo, cy = users = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
    bot = await start_bot(fake, store, clock, decision_timeout_s=600.0)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    await fake.run(clock.advance, 120.0)  # nobody has touched the bot for two minutes: away
    before = len(fake.notifications(cy))
    for user in (ann, bo):
        await fake.click(user, public, act_id(public, "torch"))
    told = fake.notifications(cy)
    assert len(told) == before + 1 and told[-1] is last_dm(fake, cy)
    assert game.status == "playing"
    await fake.stop(bot)
