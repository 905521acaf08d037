"""The fake's model of Discord's rate limits, driven through discord.py's real HTTP client.

Buckets use real time here (discord.py sleeps on the loop's clock before a retry), so the windows
are made short (a fraction of a second): each test still checks the behaviour, not a duration.
"""

from __future__ import annotations

import asyncio
import time

import discord
import pytest

from fakediscord import FakeDiscord
from fakediscord.ratelimits import Limit, RateLimits

SEND = "/channels/{channel_id}/messages"
EDIT = "/channels/{channel_id}/messages/{message_id}"
CALLBACK = "/interactions/{interaction_id}/{interaction_token}/callback"


def sends(fake: FakeDiscord) -> list:
    return fake.calls("POST", SEND)


async def test_limits_are_off_unless_turned_on(fake, bot, table):
    for n in range(8):
        await bot.get_partial_messageable(table.id).send(f"m{n}")
    assert fake.limiter is None
    assert all(c.status == 200 and not c.headers for c in sends(fake))


async def test_a_send_carries_discords_rate_limit_headers(fake, bot, table):
    fake.limit(RateLimits())
    await bot.get_partial_messageable(table.id).send("hello")
    [call] = sends(fake)
    headers = call.headers
    assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Remaining"] == "4"
    assert 4.9 <= float(headers["X-RateLimit-Reset-After"]) <= 5.0
    assert abs(float(headers["X-RateLimit-Reset"]) - (time.time() + 5.0)) < 1.0
    assert len(headers["X-RateLimit-Bucket"]) == 32
    # Sends and edits are separate counters (as observed on Discord), each per channel.
    await bot.get_partial_messageable(table.id).get_partial_message(int(call.response["id"])).edit(content="x")
    [edit] = fake.calls("PATCH", EDIT)
    assert edit.headers["X-RateLimit-Remaining"] == "4"
    assert edit.headers["X-RateLimit-Bucket"] != headers["X-RateLimit-Bucket"]


async def test_discord_py_waits_on_an_exhausted_bucket_instead_of_getting_429(fake, bot, table):
    fake.limit(RateLimits(message_send=Limit(2, 0.3)))
    channel = bot.get_partial_messageable(table.id)
    started = time.monotonic()
    for n in range(3):
        await channel.send(f"m{n}")
    calls = sends(fake)
    assert [c.status for c in calls] == [200, 200, 200]
    assert calls[1].headers["X-RateLimit-Remaining"] == "0"
    assert time.monotonic() - started >= 0.25  # discord.py slept until the window reset
    assert fake.limiter is not None and fake.limiter.rate_limited == 0 and fake.invalid_requests == 0


async def test_a_429_has_retry_after_and_discord_py_retries_after_it(fake, bot, table):
    limiter = fake.limit(RateLimits(message_send=Limit(5, 0.3)))
    assert limiter is not None
    # Another process sharing the token used the channel's sends: discord.py cannot know.
    limiter.exhaust("POST", SEND, {"channel_id": str(table.id)})
    await bot.get_partial_messageable(table.id).send("late")
    first, retry = sends(fake)
    assert first.status == 429 and retry.status == 200
    assert first.response["global"] is False and 0 < first.response["retry_after"] <= 0.3
    assert first.headers["X-RateLimit-Scope"] == "user" and first.headers["Via"] == "1.1 google"
    assert first.headers["X-RateLimit-Remaining"] == "0" and first.headers["Retry-After"] == "1"
    assert retry.at - first.at >= first.response["retry_after"] * 0.9
    assert [m.content for m in fake.channel_messages(table)] == ["late"]
    assert limiter.rate_limited == 1 and fake.invalid_requests == 1


async def test_a_global_429_stops_every_request_of_the_client(fake, bot, table):
    other = fake.text_channel("other")
    limiter = fake.limit(RateLimits(global_per_s=3))
    assert limiter is not None
    limiter.exhaust_global()
    a = asyncio.ensure_future(bot.get_partial_messageable(table.id).send("a"))
    await asyncio.sleep(0.05)  # the first request got its global 429; discord.py holds the lock
    b = asyncio.ensure_future(bot.get_partial_messageable(other.id).send("b"))
    await asyncio.gather(a, b)
    calls = sends(fake)
    refused = [c for c in calls if c.status == 429]
    assert len(refused) == 1 and refused[0].response["global"] is True
    assert refused[0].headers["X-RateLimit-Global"] == "true" and refused[0].headers["X-RateLimit-Scope"] == "global"
    # The request to the other channel waited for the global lock: sent after the retry window.
    [b_call] = [c for c in calls if c.path.startswith(f"/channels/{other.id}/")]
    assert b_call.status == 200 and b_call.at - refused[0].at >= refused[0].response["retry_after"] * 0.9
    assert limiter.global_limited == 1 and fake.invalid_requests == 1


async def test_more_than_the_global_budget_in_a_second_gets_global_429s(fake, bot):
    channels = [fake.text_channel(f"c{n}") for n in range(8)]
    limiter = fake.limit(RateLimits(global_per_s=5))
    assert limiter is not None
    await asyncio.gather(*(bot.get_partial_messageable(c.id).send("x") for c in channels))
    assert limiter.global_limited >= 1  # discord.py has no proactive global limiter
    assert all(len(fake.channel_messages(c)) == 1 for c in channels)  # all delivered after the retry


async def test_interaction_responses_are_exempt(fake, bot, table, ann):
    limiter = fake.limit(RateLimits(global_per_s=1))
    assert limiter is not None
    limiter.exhaust_global()
    rec = await fake.slash(ann, table, "sample secret")
    [call] = fake.calls("POST", CALLBACK)
    assert call.status == 200 and not call.headers and rec.acknowledged
    assert limiter.requests == 0 and fake.invalid_requests == 0


async def test_closed_dms_count_as_invalid_requests(fake, bot, table):
    shy = fake.user("Shy", dms_open=False)
    fake.limit(RateLimits())
    user = await bot.fetch_user(shy.id)
    with pytest.raises(discord.Forbidden):
        await user.send("hi")
    assert fake.invalid_requests == 1
    with pytest.raises(discord.Forbidden):
        await user.send("hi again")
    assert fake.invalid_requests == 2


async def test_edits_of_messages_older_than_an_hour_have_a_stricter_bucket(fake, bot, table):
    fake.limit(RateLimits())
    channel = bot.get_partial_messageable(table.id)
    message = await channel.send("old")
    fake.advance(3601)
    fresh = await channel.send("fresh")
    await message.edit(content="old, edited")
    await fresh.edit(content="fresh, edited")
    old_edit, new_edit = fake.calls("PATCH", EDIT)
    assert old_edit.headers["X-RateLimit-Limit"] == "3"
    assert new_edit.headers["X-RateLimit-Limit"] == "5"
    assert old_edit.headers["X-RateLimit-Bucket"] != new_edit.headers["X-RateLimit-Bucket"]


async def test_advance_refills_a_bucket_without_a_sleep(fake, table):
    limiter = fake.limit(RateLimits(message_send=Limit(1, 60.0)))
    assert limiter is not None
    where = {"channel_id": str(table.id)}
    limiter.exhaust("POST", SEND, where)
    verdict = limiter.admit("POST", SEND, where)
    assert verdict is not None and verdict.refused is not None and verdict.refused["retry_after"] > 59
    fake.advance(61)
    verdict = limiter.admit("POST", SEND, where)
    assert verdict is not None and verdict.refused is None and verdict.headers["X-RateLimit-Remaining"] == "0"
