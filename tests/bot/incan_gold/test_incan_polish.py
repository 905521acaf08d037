"""Incan Gold as new players found it (issue 43): the count redrawn while the table waits, a word
for the last chooser, one private panel per player, repeated clicks, a lone explorer's texts."""

from __future__ import annotations

from incan_kit import act_id, buttons, start_bot
from table_kit import incan_table

from cogs.incan_gold.count import COUNT_REDRAW_AFTER_S
from engine.session import Table
from fakediscord import FakeDiscord, FakeMessage


def expedition(fake: FakeDiscord, table: Table) -> FakeMessage:
    """The current expedition's public message (the one with My status)."""
    return [m for m in fake.channel_messages(table.channel_id) if buttons(m, "peek:")][-1]


async def test_k_of_n_is_redrawn_while_the_table_waits(fake, table, store, clock):
    users = [fake.user(name) for name in ("Ann", "Bo", "Cy", "Di", "Ed")]
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, users)
    public = expedition(fake, game)
    window = game.window
    for user in users[:4]:
        await fake.click(user, public, act_id(public, "torch"))
    assert "4 of 5 have chosen" not in public.render()  # a burst of choices: no redraw per choice
    await fake.run(clock.advance, COUNT_REDRAW_AFTER_S)
    assert game.window == window and "4 of 5 have chosen" in public.render()
    await fake.stop(bot)
