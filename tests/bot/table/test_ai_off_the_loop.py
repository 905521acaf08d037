"""Bot seats that act at once (bot delay 0) still think off the event loop.

With ``/settings bot_delay 0`` a bot's move is played in the same step as the click or draw before
it. It used to be decided right there on the event loop: a Hard search (up to a second) then held
every other table's clicks. It goes through the AI pool like a delayed bot turn does.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from incan_kit import act_id, buttons, lobby_id, start_bot

from engine.session.games import SPECS
from fakediscord import FakeDiscord, FakeUser


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


async def test_a_bot_without_delay_decides_while_the_event_loop_serves_others(fake, table, store, clock, players,
                                                                            monkeypatch):
    loop = asyncio.get_running_loop()
    loop_free: list[bool] = []  # one per bot decision: could the event loop run something meanwhile?
    medium = SPECS["incan_gold"].agents["medium"]

    async def nothing() -> None:
        return None

    def probing_medium(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
        # Ask the event loop to run a trifle while this decision is being made. On the loop's own
        # thread that cannot happen (the loop is busy with this very call): the wait times out.
        try:
            asyncio.run_coroutine_threadsafe(nothing(), loop).result(timeout=2.0)
            loop_free.append(True)
        except TimeoutError:
            loop_free.append(False)
        return medium(view, legal, rng)

    monkeypatch.setitem(SPECS["incan_gold"].agents, "medium", probing_medium)  # type: ignore[index]
    bot = await start_bot(fake, store, clock, ai_delay_s=0.0)
    ann, bo, cy = players
    await fake.slash(ann, table, "incan new", {})
    lobby = next(m for m in fake.channel_messages(table) if buttons(m, "lobby:"))
    for user in (bo, cy):
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "ai-medium"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    by_id = {u.id: u for u in players}
    window = game.window
    for seat in game.humans_owing():  # the first card's decision: the bot chooses with the people
        public = [m for m in fake.channel_messages(table) if buttons(m, "peek:")][-1]
        await fake.click(by_id[game.seats[seat].user_id], public, act_id(public, "torch"))
    assert game.window > window  # everyone chose: the next card is out
    assert loop_free and all(loop_free)
    await fake.stop(bot)
