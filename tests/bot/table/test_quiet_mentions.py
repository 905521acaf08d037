"""The client's default ``allowed_mentions`` is none (issue 43): a message that names someone
without meaning to ping them notifies nobody, while the messages that must ping name exactly whom."""

from __future__ import annotations

from incan_kit import start_bot
from table_kit import incan_table


async def test_a_board_line_naming_a_player_notifies_nobody(fake, table, store, clock):
    ann, bo = fake.user("Ann"), fake.user("Bo")
    bot = await start_bot(fake, store, clock)
    game = await incan_table(fake, bot, table, [ann, bo])
    opening = [m for m in fake.channel_messages(table) if m.content and f"<@{bo.id}>" in m.content][-1]
    assert opening.notified == {ann.id, bo.id}  # the expedition's message pings exactly those inside
    # A line of the table that names Bo (as a log or board line may) without saying it pings him.
    await fake.run(lambda: bot.hub.post(game, "probe", new=True,
                                        content=f"<@{bo.id}> pressed on; @everyone cheered"))
    line = [m for m in fake.channel_messages(table) if m.content and "pressed on" in m.content][-1]
    assert line.notified == frozenset()
    await fake.stop(bot)
