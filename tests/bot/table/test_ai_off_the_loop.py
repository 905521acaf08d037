"""Bots think without holding anyone up: not the event loop, not the people at their own table.

With ``/settings bot_delay 0`` a bot's move is played in the same step as the click or draw before
it. It used to be decided right there on the event loop: a Hard search (up to a second) then held
every other table's clicks. It goes through the AI pool like a delayed bot turn does.

A delayed bot turn used to hold its table's lock while the AI pool worked on it; with the pool
busy with other tables' bots, that is seconds, and the people choosing beside the bot (Incan
Gold) had their clicks deferred until then.
"""

from __future__ import annotations

import asyncio
import random
import threading
from typing import Any

import pytest
from incan_kit import act_id, buttons, lobby_id, start_bot
from table_kit import loop_is_free

from engine.session import Table
from engine.session.games import SPECS
from fakediscord import FakeDiscord, FakeUser


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


async def three_and_a_medium_bot(fake: FakeDiscord, bot: Any, table: Any, players: list[FakeUser]) -> Table:
    """Open and start an Incan Gold table of the three players and a Medium bot (the first card is out)."""
    ann, bo, cy = players
    await fake.slash(ann, table, "incan new", {})
    lobby = next(m for m in fake.channel_messages(table) if buttons(m, "lobby:"))
    for user in (bo, cy):
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    await fake.click(ann, lobby, lobby_id(lobby, "ai-medium"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    return await bot.sessions.table_in(table.id)


async def test_a_bot_without_delay_decides_while_the_event_loop_serves_others(fake, table, store, clock, players,
                                                                            monkeypatch):
    loop = asyncio.get_running_loop()
    loop_free: list[bool] = []  # one per bot decision: could the event loop run something meanwhile?
    medium = SPECS["incan_gold"].agents["medium"]

    def probing_medium(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
        loop_free.append(loop_is_free(loop))
        return medium(view, legal, rng)

    monkeypatch.setitem(SPECS["incan_gold"].agents, "medium", probing_medium)  # type: ignore[index]
    bot = await start_bot(fake, store, clock, ai_delay_s=0.0)
    game = await three_and_a_medium_bot(fake, bot, table, players)
    by_id = {u.id: u for u in players}
    window = game.window
    for seat in game.humans_owing():  # the first card's decision: the bot chooses with the people
        public = [m for m in fake.channel_messages(table) if buttons(m, "peek:")][-1]
        await fake.click(by_id[game.seats[seat].user_id], public, act_id(public, "torch"))
    assert game.window > window  # everyone chose: the next card is out
    assert loop_free and all(loop_free)
    await fake.stop(bot)


async def test_a_click_is_answered_while_a_bot_at_the_same_table_is_thinking(fake, table, store, clock, players,
                                                                            monkeypatch):
    started, release = threading.Event(), threading.Event()
    medium = SPECS["incan_gold"].agents["medium"]

    def slow_medium(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
        started.set()
        release.wait(timeout=10.0)  # as if the pool were busy with other tables' bots
        return medium(view, legal, rng)

    monkeypatch.setitem(SPECS["incan_gold"].agents, "medium", slow_medium)  # type: ignore[index]
    bot = await start_bot(fake, store, clock, ai_delay_s=1.0)
    game = await three_and_a_medium_bot(fake, bot, table, players)
    ann = players[0]
    bot_seat = next(s for s, spec in enumerate(game.seats) if spec.is_ai)
    ann_seat = game.seat_of(ann.id)
    thinking = asyncio.create_task(fake.run(clock.advance, 1.0))  # the bot's delay is over: it thinks
    try:
        assert await asyncio.to_thread(started.wait, 5.0)
        public = [m for m in fake.channel_messages(table) if buttons(m, "peek:")][-1]
        await asyncio.wait_for(fake.click(ann, public, act_id(public, "torch")), timeout=5.0)
        assert ann_seat not in game.owing() and bot_seat in game.owing()  # hers is taken; the bot still thinks
    finally:
        release.set()
        await thinking
    assert bot_seat not in game.owing()  # and the bot's choice is taken when it comes
    await fake.stop(bot)
