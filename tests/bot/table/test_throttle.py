"""A member flooding what opens and ends tables is refused privately, never queued (issue 42)."""

from __future__ import annotations

from incan_kit import start_bot

from cogs.table.controls.throttle import PER_CHANNEL, WINDOW_S, Throttle, opens_or_ends

SLOW = "Slow down"


def test_the_budgets_slide_per_channel_and_per_member() -> None:
    now = [1000.0]
    throttle = Throttle(lambda: now[0], per_channel=2, per_member=3, window_s=10)
    assert [throttle.admit(1, 10, 7) for _ in range(2)] == [None, None]
    assert throttle.admit(1, 10, 7) == 1010.0  # the channel's budget is spent until the first one slides out
    assert throttle.admit(1, 11, 7) is None  # another channel: its own budget, the member's third
    assert throttle.admit(1, 12, 7) == 1010.0  # the member's budget on the server is spent too
    assert throttle.admit(1, 10, 8) is None  # another member is not held back
    now[0] = 1010.0
    assert throttle.admit(1, 10, 7) is None


def test_only_what_opens_starts_or_ends_a_table_counts() -> None:
    assert opens_or_ends("incan new", None) and opens_or_ends("sakkara cancel", None)
    assert not opens_or_ends("incan join", None) and not opens_or_ends("leaderboard", None)
    assert opens_or_ends(None, "rematch:12") and not opens_or_ends(None, "lobby:12:start")
    assert opens_or_ends(None, "lobby:12:cancel") and not opens_or_ends(None, "lobby:12:join")
    assert not opens_or_ends(None, "act:12:3:\"torch\"")


async def test_a_burst_of_new_and_cancel_is_refused_privately_and_queues_nothing(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    bo = fake.user("Bo")
    other = fake.text_channel("other")
    answers = []
    for _ in range(20):
        for command in ("incan new", "incan cancel"):
            rec = await fake.slash(ann, table, command, {})
            answers.append(rec.replies[-1])
    refused = [m for m in answers if SLOW in m.render()]
    assert len(refused) == len(answers) - PER_CHANNEL and all(m.ephemeral for m in refused)
    await bot.hub.outbox.drained()
    public = [m for m in fake.channel_messages(table) if not m.ephemeral]
    assert len(public) <= PER_CHANNEL  # the refused ones sent nothing public, and queued nothing
    rec = await fake.slash(bo, other, "incan new", {})  # another member is not held back
    assert "Your table is open" in rec.replies[-1].render()
    await fake.run(clock.advance, WINDOW_S)
    rec = await fake.slash(ann, fake.text_channel("third"), "incan new", {})  # the window slid: she may again
    assert "Your table is open" in rec.replies[-1].render()
    await fake.stop(bot)
