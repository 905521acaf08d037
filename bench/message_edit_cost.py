"""What editing a channel message through discord.py's public API costs over the internal shortcut.

The hub edits its recorded messages (the public board, the lobby, DM prompts) when no click's own
response can carry the redraw. The public way, ``PartialMessage.edit``, also builds a ``Message``
from Discord's reply and registers the view; the hub used to skip both by calling the internal
``discord.http.handle_message_parameters`` and ``HTTPClient.edit_message`` itself. This script
edits real messages of a real bot on the in-process fake Discord both ways, alternating, and prints
the CPU time per edit and the difference.

Every channel-message edit counts toward Discord's global limit of 50 requests per second per bot
(only interaction responses are exempt), so the difference times 50 bounds what the public API can
cost the bot per second, whatever the load.

Run: ``.venv/bin/python bench/message_edit_cost.py [--edits 3000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

import discord
from discord.http import handle_message_parameters  # the shortcut measured against, here only

from bot import Bot
from cogs.table.controls.buttons import ActButton, PeekButton
from db import Store
from engine.clock import ManualClock
from fakediscord import FakeDiscord
from wiring.config import Config

GLOBAL_LIMIT_PER_S = 50


async def internal(bot: Bot, channel_id: int, message_id: int, fields: dict[str, Any]) -> None:
    """The old path: the REST call only (no Message built, no view registered)."""
    mentions = bot.allowed_mentions if "content" in fields else None
    with handle_message_parameters(previous_allowed_mentions=mentions, **fields) as params:
        await bot.http.edit_message(channel_id, message_id, params=params)


async def public(bot: Bot, channel_id: int, message_id: int, fields: dict[str, Any]) -> None:
    """The public path the hub takes now."""
    await bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(**fields)


async def measure(edits: int) -> None:
    with FakeDiscord() as fake, tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.sqlite3"))
        bot = Bot(store, Config(token=None, ai_delay_s=0.0), ManualClock())
        await fake.start(bot)
        channel, ann = fake.text_channel("table"), fake.user("Ann")
        await fake.slash(ann, channel, "incan new", {})
        table = await bot.sessions.table_in(channel.id)
        lobby = fake.channel_messages(channel)[0]
        for op in ("ai-easy", "ai-medium", "ai-hard", "start"):
            await fake.click(ann, lobby, next(c for c in lobby.custom_ids if c.endswith(op)))
        board = [m for m in fake.channel_messages(channel) if any(c.startswith("peek:") for c in m.custom_ids)][-1]
        renderer = bot.hub.renderer(table)
        small = discord.ui.View(timeout=None)
        small.add_item(PeekButton(table.id, "Choose"))
        full = discord.ui.View(timeout=None)
        for number in range(25):  # Discord's most: 5 rows of 5 buttons
            full.add_item(ActButton(table.id, table.window, {"n": number}, f"move {number}", row=number // 5))
        cases = {"a board: embed + 1 button": {"embed": renderer.round_embed(table), "view": small},  # type: ignore[attr-defined]
                 "a prompt: embed + 25 buttons": {"embed": renderer.round_embed(table), "view": full}}  # type: ignore[attr-defined]
        rows = []
        for case, fields in cases.items():
            samples: dict[str, list[float]] = {"internal": [], "public": []}
            for number in range(edits):
                for name, path in (("internal", internal), ("public", public))[:: 1 if number % 2 else -1]:
                    start = time.process_time()
                    await path(bot, channel.id, board.id, fields)
                    samples[name].append(time.process_time() - start)
            cost = {name: statistics.mean(values) * 1e6 for name, values in samples.items()}
            rows.append((case, cost["internal"], cost["public"], cost["public"] - cost["internal"]))
        await fake.stop(bot)
        await store.close()
    print(f"machine: {platform.machine()}, {platform.python_implementation()} {platform.python_version()}, "
          f"discord.py {discord.__version__}; {edits} edits each way per message")
    print("| message | internal path, CPU µs per edit | public path | difference | at 50 edits/s, share of one core |")
    print("|---|---:|---:|---:|---:|")
    for case, old, new, extra in rows:
        print(f"| {case} | {old:.0f} | {new:.0f} | {extra:.0f} | {extra * GLOBAL_LIMIT_PER_S / 1e4:.2f}% |")
    print(f"(CPU includes the fake Discord's own handling, the same both ways; {GLOBAL_LIMIT_PER_S}/s is Discord's "
          "global limit per bot, which every channel-message edit counts toward)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=3000)
    args = parser.parse_args()
    asyncio.run(measure(args.edits))


if __name__ == "__main__":
    main()
