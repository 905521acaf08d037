"""One member hosts at most the server's number of tables; a refusal lists theirs, with links (issue 42)."""

from __future__ import annotations

import re

from incan_kit import start_bot

from engine.session.options import DEFAULT_TABLES_PER_HOST


async def test_a_member_at_the_cap_is_refused_privately_with_their_tables(fake, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    channels = [fake.text_channel(f"t{n}") for n in range(DEFAULT_TABLES_PER_HOST + 1)]
    for channel in channels[:-1]:
        await fake.slash(ann, channel, "incan new", {})
    rec = await fake.slash(ann, channels[-1], "sakkara new", {})
    refusal = rec.replies[-1]
    text = refusal.render()
    assert refusal.ephemeral and f"as this server allows one member at once ({DEFAULT_TABLES_PER_HOST})" in text
    links = re.findall(r"https://discord\.com/channels/\d+/(\d+)/\d+", text)
    assert sorted(int(c) for c in links) == sorted(c.id for c in channels[:-1])  # every one of hers, linked
    assert not [m for m in fake.channel_messages(channels[-1]) if not m.ephemeral]  # nothing opened there

    manager = fake.user("Mia", manage_guild=True)
    await fake.slash(manager, channels[-1], "settings host_tables", {"count": 1})
    await fake.slash(manager, channels[-1], "incan new", {})  # her first table here: allowed
    second = await fake.slash(manager, fake.text_channel("t-extra"), "incan new", {})
    assert "allows one member at once (1)" in second.replies[-1].render()
    await fake.stop(bot)
