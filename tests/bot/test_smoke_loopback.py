"""One end-to-end smoke test over a loopback gateway/REST server: ``bot.start()`` unchanged."""

from __future__ import annotations

import asyncio

import discord
from incan_kit import config, lobby_id

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from fakediscord import FakeDiscord, LoopbackServer


async def test_bot_start_over_loopback_opens_a_table(tmp_path):
    fake = FakeDiscord(patch_http=False)
    channel = fake.text_channel("table")
    ann, bo = fake.user("Ann"), fake.user("Bo")
    store = await Store.open(str(tmp_path / "bot.sqlite3"))
    async with LoopbackServer(fake) as server:
        bot = Bot(store, config(), ManualClock())
        runner = asyncio.create_task(bot.start("loopback-token"))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), timeout=10)
            assert server.identify_payload is not None and server.identify_payload["token"] == "loopback-token"
            # Servers and their messages (an @mention is answered), nothing more.
            assert server.identify_payload["intents"] == discord.Intents(guilds=True, guild_messages=True).value
            assert any(c["name"] == "incan" for c in fake.commands[None])  # synced globally
            rec = await server.slash(bot, ann, channel, "incan new", {"preset": "diamant"})
            assert rec.ephemeral
            [lobby] = fake.channel_messages(channel)
            assert "Incan Gold" in lobby.render() and "diamant" in lobby.render()
            assert lobby_id(lobby, "join")
            rec = await server.slash(bot, bo, channel, "incan join", {})
            assert rec.acknowledged
            assert [s.display_name for s in (await bot.sessions.table_in(channel.id)).seats] == ["Ann", "Bo"]
        finally:
            await bot.close()
            await runner
            await store.close()
