"""Incan Gold's wait at a correspondence table outlives a restart and an unload.

The moment a card's window has been open an eighth of its decision time is derived from the stored
deadline (like the reminders), not kept in memory: when it comes, "k of n have chosen" is redrawn,
whether the bot restarted meanwhile or the table left its memory while idle, and the last few the
table came down to before a restart are told by DM (once each per card). The last few it comes down
to in a running process are told once they have kept it waiting that long (a timer of the process,
which keeps the table in memory meanwhile).
"""

from __future__ import annotations

from typing import Any

from incan_kit import act_id, last_dm, start_bot
from table_kit import incan_table
from test_incan_waiting import DAY, choose_in_dm, expedition, limited_since, prefer_dm

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from engine.session import Table
from engine.session.cache import IDLE_S, SWEEP_EVERY_S
from fakediscord import FakeChannel, FakeDiscord, FakeUser

PATIENCE = DAY / 8
WAITS_FOR_YOU = "waits for you"


async def two_of_three_chose_in_dms(fake: FakeDiscord, store: Store, clock: ManualClock, channel: FakeChannel,
                                    users: list[FakeUser]) -> tuple[Bot, Table]:
    """A table of a day per decision; an hour into its first card, the first two choose in their DM
    prompts (the board is not redrawn for it yet), the third one not."""
    bot = await start_bot(fake, store, clock, decision_timeout_s=DAY)
    await prefer_dm(fake, channel, users[:2])
    game = await incan_table(fake, bot, channel, users)
    await fake.run(clock.advance, 3600.0)
    for user in users[:2]:
        await choose_in_dm(fake, user, "torch")
    return bot, game


def told(fake: FakeDiscord, users: list[FakeUser]) -> dict[str, int]:
    """How many messages notified each person so far."""
    return {user.name: len(fake.notifications(user)) for user in users}


async def the_last_one_is_told_at_the_window_s_patience(fake: FakeDiscord, clock: ManualClock, bot: Bot,
                                                        game: Table, users: list[FakeUser]) -> None:
    """Up to the moment the window has waited its patience, nobody is told; then the last one, by
    one new DM, and the board shows the count; the channel gets no new message (who has chosen
    stays secret)."""
    cy = users[2]
    public = expedition(fake, game)
    before, channel_before = told(fake, users), len(fake.channel_messages(game.channel_id))
    await fake.run(clock.advance, game.opened_at + PATIENCE - 60.0 - clock.now())
    assert told(fake, users) == before and "2 of 3 have chosen" not in public.render()
    await fake.run(clock.advance, 60.0)
    assert told(fake, users) == {**before, "Cy": before["Cy"] + 1}
    nudge = fake.notifications(cy)[-1]
    assert nudge is last_dm(fake, cy) and WAITS_FOR_YOU in nudge.render()  # a new DM, with Torch / Camp
    assert "2 of 3 have chosen" in public.render()  # the count, never who
    assert len(fake.channel_messages(game.channel_id)) == channel_before
    await fake.run(clock.advance, 3600.0)
    assert told(fake, users) == {**before, "Cy": before["Cy"] + 1}  # once
    await fake.stop(bot)


async def test_the_last_one_is_told_after_a_restart(fake, table, store, clock):
    users = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
    bot, game = await two_of_three_chose_in_dms(fake, store, clock, table, users)
    opened = game.opened_at
    await fake.stop(bot)
    await clock.advance(3600.0)  # the bot is down for an hour
    bot = await start_bot(fake, store, clock, decision_timeout_s=DAY)
    again = await bot.sessions.table_in(table.id)
    assert again is not game and again.opened_at == opened  # the window's opening, not the load's time
    await the_last_one_is_told_at_the_window_s_patience(fake, clock, bot, again, users)


async def test_a_table_waiting_for_its_last_one_stays_in_memory_until_they_are_told(fake, table, store, clock):
    users = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
    bot, game = await two_of_three_chose_in_dms(fake, store, clock, table, users)
    down_to_cy = clock.now()
    public = expedition(fake, game)
    before = told(fake, users)
    bot.sessions.cache.keep_loaded = 0
    await fake.run(clock.advance, IDLE_S + SWEEP_EVERY_S)
    assert bot.sessions.cache.unload_idle() == []  # its wait for Cy is timed here: dropping it would lose it
    await fake.run(clock.advance, game.opened_at + PATIENCE - clock.now())
    assert "2 of 3 have chosen" in public.render()  # the window's waited moment redrew the count...
    assert told(fake, users) == before  # ...but Cy has been the last one for less than the patience
    await fake.run(clock.advance, down_to_cy + PATIENCE - 60.0 - clock.now())
    assert told(fake, users) == before
    await fake.run(clock.advance, 60.0)
    assert told(fake, users) == {**before, "Cy": before["Cy"] + 1}
    assert WAITS_FOR_YOU in last_dm(fake, users[2]).render()
    await fake.run(clock.advance, IDLE_S + SWEEP_EVERY_S)
    assert bot.sessions.cache.unload_idle() == [game.id]  # told: nothing of it waits in memory any more
    await fake.stop(bot)


async def test_a_table_down_to_its_last_one_after_the_patience_tells_them_once_they_kept_it_waiting(
        fake, table, store, clock):
    ann, bo, cy = users = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
    bot = await start_bot(fake, store, clock, decision_timeout_s=DAY)
    await prefer_dm(fake, table, [bo])
    game = await incan_table(fake, bot, table, users, options={"one_change": True})
    public = expedition(fake, game)
    before = told(fake, users)
    await fake.run(clock.advance, PATIENCE + 3600.0)
    assert told(fake, users) == before  # nobody chose: the waited moment told nobody
    await fake.click(ann, public, act_id(public, "torch"))
    await choose_in_dm(fake, bo, "torch")
    assert told(fake, users) == before  # the card is old, but Cy has only just become the last one
    await fake.run(clock.advance, PATIENCE - 60.0)
    await fake.click(ann, public, act_id(public, "camp"))  # Ann changes her mind (once a game): still Cy alone
    assert game.state.pending[game.seat_of(ann.id)] == "camp" and told(fake, users) == before
    await fake.run(clock.advance, 60.0)
    assert told(fake, users) == {**before, "Cy": before["Cy"] + 1}
    assert fake.notifications(cy)[-1] is last_dm(fake, cy) and WAITS_FOR_YOU in last_dm(fake, cy).render()
    await fake.run(clock.advance, 3600.0)
    assert told(fake, users) == {**before, "Cy": before["Cy"] + 1}  # once
    await fake.stop(bot)


async def test_the_waited_redraw_of_a_board_showing_the_count_already_costs_no_call(fake, table, store, clock):
    users = [fake.user(name) for name in ("Ann", "Bo", "Cy", "Di", "Ed")]
    bot = await start_bot(fake, store, clock, decision_timeout_s=DAY)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    for user in users[:3]:  # not yet the last few: two still choose
        await fake.click(user, public, act_id(public, "torch"))
    assert "3 of 5 have chosen" in public.render()  # each press redrew it through its own answer
    await fake.run(clock.advance, PATIENCE - 60.0)
    await bot.hub.outbox.drained()
    count = bot.hub.renderers["incan_gold"].count
    redraw, redrawn = count.redraw, []

    async def spied(hub: Any, live: Table) -> None:
        redrawn.append(clock.now())
        await redraw(hub, live)

    count.redraw = spied
    start = len(fake.rest_calls)
    await fake.run(clock.advance, 120.0)
    assert redrawn == [game.opened_at + PATIENCE]  # the board was redrawn at the waited moment...
    assert limited_since(fake, start) == []  # ...to what it shows already: no edit was sent
    await fake.stop(bot)
