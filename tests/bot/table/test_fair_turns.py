"""Another table's first message does not wait behind a backlog (issue 42).

The hub marks a lobby being opened as its table's first message, and the outbox sends it before
the redraws of other tables already waiting for Discord's budget (cogs/table/messages/outbox.py,
"fair turns"); oldest first, it waited behind all of them.
"""

from __future__ import annotations

from incan_kit import start_bot

from fakediscord.ratelimits import RateLimits

SEND = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"


async def test_a_new_lobby_goes_before_the_redraws_waiting_for_the_global_budget(fake, store, clock):
    fake.limit(RateLimits(global_per_s=2))
    bot = await start_bot(fake, store, clock, rate_limited=True, rest_per_second=2)
    fake.advance(1.1)  # the fake's buckets refill: the log-in and the command sync are outside the bot's budget
    busy = [fake.text_channel(f"busy{n}") for n in range(5)]
    for n, channel in enumerate(busy):
        await fake.slash(fake.user(f"P{n}"), channel, "incan new", {})
    await bot.hub.outbox.drained()
    for n, channel in enumerate(busy):  # each lobby redrawn by a command (a plain edit): they wait
        await fake.slash(fake.user(f"Q{n}"), channel, "incan join", {})
    waiting = bot.hub.outbox.backlog()
    assert waiting >= 3
    quiet = fake.text_channel("quiet")
    await fake.slash(fake.user("Quinn"), quiet, "incan new", {})
    await bot.hub.outbox.drained()
    calls = [c for c in fake.rest_calls if c.route in (SEND, EDIT)]
    lobby = next(n for n, c in enumerate(calls) if c.route == SEND and c.path == f"/channels/{quiet.id}/messages")
    later = [c for c in calls[lobby + 1:] if c.route == EDIT]
    assert len(later) >= waiting - 1  # at most the one given the budget meanwhile went before it
    assert len(fake.calls("PATCH", EDIT)) >= 5  # every lobby shows its new player in the end
    await fake.stop(bot)
