"""Sakkara through the real discord.py client against the in-process fake Discord.

Covers issue 6 (items 2, 4, 5 for Sakkara): a full game of a scripted human against an AI seat,
played only through the prompt's buttons and menus; the rack never public; refusals; restart
mid-turn; the timeout (the Easy bot plays the absent player's turn).
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from incan_kit import buttons, lobby_id, start_bot
from sakkara_kit import last_prompt, perform, prompt_ids

from bot import Bot
from cogs.fake.harness import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from db.store import Store
from engine.clock import ManualClock
from engine.core import replay
from engine.sakkara import GAME
from engine.sakkara import ai as sakkara_ai
from engine.session import Table


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    s = await Store.open(str(tmp_path / "bot.sqlite3"))
    yield s
    await s.close()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def lobby_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def open_table(fake: FakeDiscord, bot: Bot, channel: FakeChannel, host: FakeUser, other: FakeUser | None = None,
                     level: str = "medium", seed: int | None = None) -> Table:
    await fake.slash(host, channel, "sakkara new", {})
    lobby = lobby_message(fake, channel)
    if other is None:
        await fake.click(host, lobby, lobby_id(lobby, f"ai-{level}"))
    else:
        await fake.click(other, lobby, lobby_id(lobby, "join"))
    table = bot.sessions.table_in(channel.id)
    if seed is None:
        await fake.click(host, lobby, lobby_id(lobby, "start"))
    else:
        await bot.sessions.start(table.id, host.id, seed=seed)
    return table


def choice(table: Table, seat: int, rng: random.Random) -> dict:
    """The scripted human: the Medium AI's choice from the seat's own view."""
    legal = GAME.legal_actions(table.state, seat)
    return sakkara_ai.medium(GAME.view(table.state, seat), legal, rng)


async def prompt_for(fake: FakeDiscord, table: Table, user: FakeUser) -> FakeMessage:
    """The user's prompt: the DM, or Choose on the board message then the ephemeral prompt."""
    dm = last_prompt(fake, user)
    if dm is not None:
        return dm
    public = [m for m in fake.channel_messages(table.channel_id) if buttons(m, "peek:")][-1]
    await fake.click(user, public, buttons(public, "peek:")[0])
    return fake.ephemeral_replies(user)[-1]


async def play_one(fake: FakeDiscord, table: Table, users: dict[int, FakeUser], rng: random.Random) -> None:
    seat = table.humans_owing()[0]
    user = users[table.seats[seat].user_id]
    action = choice(table, seat, rng)
    version = table.version
    await perform(fake, user, await prompt_for(fake, table, user), action)
    assert table.version > version, action


async def play_to_the_end(fake: FakeDiscord, table: Table, users: list[FakeUser], seed: int = 0) -> None:
    by_id = {u.id: u for u in users}
    rng = random.Random(seed)
    while table.status == "playing":
        await play_one(fake, table, by_id, rng)


async def test_full_game_human_against_a_bot(fake, table, store, clock):
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann)
    assert game.status == "playing" and sum(s.is_ai for s in game.seats) == 1
    await play_to_the_end(fake, game, [ann])
    summary = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert len(summary) == 1
    text = summary[0].render()
    assert "Ann" in text and "Medium bot 1" in text and ("Winner" in text or "Shared win" in text)
    log = await store.load_game(game.id)
    final = replay(GAME, 2, log.game.seed, [(a.seat, a.payload) for a in log.actions])
    assert GAME.is_over(final)
    assert [r.score for r in await store.results(game.id)] == GAME.result(final)["scores"]
    # every DM prompt lost its controls at the end; the board message lost its Choose button
    assert all(not prompt_ids(m) for m in fake.dm_messages(ann))
    await fake.click(ann, summary[0], buttons(summary[0], "rematch:")[0])
    again = bot.sessions.table_in(table.id)
    assert again.status == "lobby" and len(again.seats) == 2
    await fake.stop(bot)
