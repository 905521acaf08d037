"""A bot process for the stop-signal test (tests/bot/test_stopping.py): the real ``bot.run`` against
a loopback Discord in this process, with a move whose write is slow.

    python tests/bot/stopping_bot.py DB_PATH

It opens a table (Ann and two bot seats) and starts it, makes the store's next append take
``SLOW_WRITE_S``, sends Ann's Torch click and prints ``WRITING`` once that write has begun: the
test sends the stop signal then. On ``STOPPING`` (printed once the bot turns clicks away) it
sends another click. When ``bot.run`` returns it prints one JSON line of what Discord saw and
exits with run's exit code.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bot as app
from db.store import Store
from fakediscord import FakeDiscord, LoopbackServer

SLOW_WRITE_S = 1.5


def say(line: str) -> None:
    print(line, flush=True)


async def main(db_path: str) -> int:
    fake = FakeDiscord(patch_http=False)
    channel, ann = fake.text_channel("table"), fake.user("Ann")
    bots: list[app.Bot] = []

    class Recorded(app.Bot):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            bots.append(self)

    app.Bot = Recorded  # type: ignore[misc]
    async with LoopbackServer(fake) as server:
        config = app.Config(token="loopback-token", database_path=db_path, ai_delay_s=0.0)
        running = asyncio.ensure_future(app.run(config))
        while not bots:
            await asyncio.sleep(0.01)
        bot = bots[0]
        await asyncio.wait_for(bot.wait_until_ready(), timeout=20)
        await server.slash(bot, ann, channel, "incan new", {})
        lobby = fake.channel_messages(channel)[0]
        for op in ("ai-easy", "ai-easy", "start"):
            await server.click(bot, ann, lobby, next(c for c in lobby.custom_ids if c.endswith(op)))
        prompt = [m for m in fake.channel_messages(channel) if any(c.startswith("act:") for c in m.custom_ids)][-1]
        torch = next(c for c in prompt.custom_ids if c.endswith('"torch"'))

        original = Store.append_actions

        async def slow(self: Store, *args: Any, **kwargs: Any) -> Any:
            say("WRITING")
            await asyncio.sleep(SLOW_WRITE_S)
            return await original(self, *args, **kwargs)

        Store.append_actions = slow  # type: ignore[method-assign]
        in_flight = await server.click(bot, ann, prompt, torch, wait=False)
        while not bot.stopping:
            await asyncio.sleep(0.005)
        say("STOPPING")
        public = [m for m in fake.channel_messages(channel) if any(c.startswith("peek:") for c in m.custom_ids)]
        late = await server.click(bot, ann, public[-1], next(c for c in public[-1].custom_ids if c.startswith("peek:")))
        code = await running
        say(json.dumps({
            "code": code,
            "in_flight_acknowledged": in_flight.acknowledged,
            "late_answer": [m.render() for m in late.replies],
            "sockets_open": sum(1 for ws in server._sockets if not ws.closed),
        }))
        return int(code)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
