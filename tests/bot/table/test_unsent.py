"""A table that ends before its first message went out leaves nothing to deliver late (issue 42)."""

from __future__ import annotations

from incan_kit import start_bot

from fakediscord.ratelimits import RateLimits


async def test_a_lobby_cancelled_before_it_was_sent_is_never_sent(fake, store, clock):
    fake.limit(RateLimits(global_per_s=2))
    bot = await start_bot(fake, store, clock, rate_limited=True, rest_per_second=2)
    fake.advance(1.1)  # the fake's buckets refill: the log-in and the command sync are outside the bot's budget
    burst = fake.text_channel("burst")
    busy = [fake.text_channel(f"busy{n}") for n in range(3)]
    for n, channel in enumerate(busy):  # others' lobbies spend the global budget
        await fake.slash(fake.user(f"P{n}"), channel, "incan new", {})
    cy = fake.user("Cy")
    await fake.slash(cy, burst, "incan new", {})  # the budget is spent: this lobby waits in the outbox
    assert bot.hub.outbox.backlog() >= 1
    rec = await fake.slash(cy, burst, "incan cancel", {})
    assert rec.acknowledged
    await bot.hub.outbox.drained()
    assert [m for m in fake.channel_messages(burst) if not m.ephemeral] == []  # nothing delivered late
    assert all(any(not m.ephemeral for m in fake.channel_messages(c)) for c in busy)  # the others' went out
    await fake.stop(bot)
