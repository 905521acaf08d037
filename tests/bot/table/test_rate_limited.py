"""The bot under Discord's rate limits: the fake enforces them, the hub keeps within them.

Both sides use Discord's figures (50 requests/s, 5 edits and 5 sends per 5 s per channel): the
hub's outbox coalesces what waits, answers clicks through their (exempt) responses, and never
retries a closed DM before its user interacts again.
"""

from __future__ import annotations

import pytest
from incan_kit import buttons, lobby_id, start_bot

from cogs.table import hub as hub_module
from fakediscord import FakeDiscord, FakeUser
from fakediscord.ratelimits import RateLimits

EDIT = "/channels/{channel_id}/messages/{message_id}"


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


def lobby_of(fake: FakeDiscord, channel) -> object:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def test_a_waiting_edit_is_dropped_when_a_click_shows_newer_content(fake, table, store, clock, players):
    fake.limit(RateLimits())
    bot = await start_bot(fake, store, clock, rate_limited=True)
    ann, bo, _ = players
    await fake.slash(ann, table, "incan new", {})
    lobby = lobby_of(fake, table)
    # Four lobby redraws by command (no message pressed: plain edits) use the channel's edit budget
    # (five per five seconds, one kept spare); the fifth waits in the outbox.
    for level in ("easy", "medium", "hard", "easy", "medium"):
        await fake.slash(ann, table, "incan addbot", {"level": level})
    edits = fake.calls("PATCH", EDIT)
    assert len(edits) == 4 and bot.hub.outbox.backlog() == 1
    assert "Medium bot 2" not in lobby.render()  # the fifth bot is not shown yet
    # Bo presses Join on the lobby: its redraw (newest content: five bots and Bo) answers the click.
    rec = await fake.click(bo, lobby, lobby_id(lobby, "join"))
    assert rec.callbacks == [7] and "Bo" in lobby.render() and "Medium bot 2" in lobby.render()
    await bot.hub.outbox.drained()
    assert len(fake.calls("PATCH", EDIT)) == 4  # the waiting (stale) edit was never sent
    assert fake.limiter is not None and fake.limiter.rate_limited == 0 and fake.invalid_requests == 0
    await fake.stop(bot)


async def test_closed_dms_are_not_tried_again_until_the_user_interacts(fake, table, store, clock, players,
                                                                       monkeypatch):
    fake.limit(RateLimits())
    bot = await start_bot(fake, store, clock, rate_limited=True)
    hub = bot.hub
    ann, _, cy = players
    fake.close_dms(cy)
    await fake.slash(ann, table, "sakkara new", {})  # Sakkara's prompts come by DM: joining checks DMs
    lobby = lobby_of(fake, table)
    rec = await fake.click(cy, lobby, lobby_id(lobby, "join"))  # the DM check fails: one 403
    assert "could not send you a direct message" in rec.replies[-1].render()
    assert fake.invalid_requests == 1 and cy.id in hub.no_dm
    for n in range(3):  # reminders and notices: not even tried
        await hub.send_dm(cy.id, ("notice", n), content="hello")
    await hub.outbox.drained()
    rec = await fake.slash(cy, table, "sakkara status", {})  # interacting soon after: still not tried
    await hub.send_dm(cy.id, ("notice", 9), content="hello")
    await hub.outbox.drained()
    assert fake.invalid_requests == 1 and fake.dm_messages(cy) == []
    # A while later Cy has opened their DMs and interacts: the next DM is tried, and arrives.
    monkeypatch.setattr(hub_module, "DM_RETRY_AFTER_S", 0.0)
    fake.open_dms(cy)
    await fake.slash(cy, table, "sakkara status", {})
    assert cy.id not in hub.no_dm
    await hub.send_dm(cy.id, ("notice", 10), content="welcome back")
    await hub.outbox.drained()
    assert [m.content for m in fake.dm_messages(cy)] == ["welcome back"] and fake.invalid_requests == 1
    await fake.stop(bot)


async def test_a_user_who_keeps_dms_closed_costs_one_invalid_request_per_retry(fake, table, store, clock,
                                                                                players, monkeypatch):
    fake.limit(RateLimits())
    bot = await start_bot(fake, store, clock, rate_limited=True)
    cy = players[2]
    fake.close_dms(cy)
    monkeypatch.setattr(hub_module, "DM_RETRY_AFTER_S", 0.0)
    for n in range(3):
        await fake.slash(cy, table, "incan status", {})  # interacts: may be tried once more
        for k in range(3):
            await bot.hub.send_dm(cy.id, ("notice", n, k), content="hello")
        await bot.hub.outbox.drained()
    assert fake.invalid_requests == 3  # one per interaction, not one per DM
    await fake.stop(bot)
