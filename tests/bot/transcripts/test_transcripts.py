"""Golden transcripts: a scripted game of each kind, as every participant saw it, compared on every run.

Each game runs the real bot against the fake Discord on a pinned seed, played only through the
controls a player has (slash commands, lobby buttons, the public message's buttons, DM prompts,
menus), and is written as chat logs by :class:`fakediscord.transcript.Transcript` into ``golden/<game>/``:

- ``channel.txt``: the game's channel as anyone there sees it (and its thread, when there is one);
- ``<name>.txt``: what only that player saw and did: their DMs, the private replies only they
  saw, and every button they pressed or command they typed (tagged with where).

A reviewer reads them like a chat log. The test fails on any difference and shows it; after an
intended change, regenerate and read the diff before committing:

    UPDATE_TRANSCRIPTS=1 .venv/bin/python -m pytest tests/bot/transcripts
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from incan_kit import start_bot

from bot import Bot
from cogs.indus.controls import controls as indus_controls
from cogs.sakkara.controls import route
from cogs.table.controls.buttons import control_for
from db.store import Store
from engine.clock import ManualClock
from engine.incan_gold import ai as incan_ai
from engine.indus.ai import heuristics as indus_heuristics
from engine.sakkara import ai as sakkara_ai
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from fakediscord.transcript import Transcript

GOLDEN = Path(__file__).parent / "golden"
UPDATE = bool(os.environ.get("UPDATE_TRANSCRIPTS"))


# --------------------------------------------------------------------------- pressing, as a player


def _component(message: FakeMessage, custom_id: str) -> dict[str, Any]:
    found = message.component(custom_id)
    assert found is not None, f"{custom_id} is not on message {message.id}"
    return found


async def press(fake: FakeDiscord, log: Transcript, user: FakeUser, message: FakeMessage, custom_id: str,
                value: str | None = None) -> None:
    """Click a button or choose a menu option, and write it down as the player did it."""
    comp = _component(message, custom_id)
    if value is None:
        emoji = (comp.get("emoji") or {}).get("name") or ""
        log.act(user, f"presses [{' '.join(x for x in (emoji, str(comp.get('label') or '')) if x)}]", message)
        await fake.click(user, message, custom_id)
    else:
        label = next(str(o.get("label")) for o in comp.get("options") or [] if o.get("value") == value)
        log.act(user, f"chooses <{label}>", message)
        await fake.select(user, message, custom_id, [value])


async def slash(fake: FakeDiscord, log: Transcript, user: FakeUser, channel: FakeChannel, command: str) -> None:
    log.act(user, f"types /{command}")
    await fake.slash(user, channel, command, {})


def lobby(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if any(c.startswith("lobby:") for c in m.custom_ids))


def lobby_button(message: FakeMessage, op: str) -> str:
    return next(c for c in message.custom_ids if c.startswith("lobby:") and c.endswith(f":{op}"))


async def open_table(fake: FakeDiscord, log: Transcript, bot: Bot, channel: FakeChannel, command: str,
                     host: FakeUser, others: list[FakeUser], bots: tuple[str, ...], seed: int,
                     monkeypatch: pytest.MonkeyPatch) -> Table:
    monkeypatch.setattr("engine.session.opening.secrets.randbits", lambda bits: seed)  # the Start button's seed
    await slash(fake, log, host, channel, f"{command} new")
    for user in others:
        await press(fake, log, user, lobby(fake, channel), lobby_button(lobby(fake, channel), "join"))
    for level in bots:
        await press(fake, log, host, lobby(fake, channel), lobby_button(lobby(fake, channel), f"ai-{level}"))
    await press(fake, log, host, lobby(fake, channel), lobby_button(lobby(fake, channel), "start"))
    return await bot.sessions.table_in(channel.id)


def last_prompt(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    prompts = [m for m in fake.dm_messages(user)
               if any(c.startswith(("act:", "pick:", "skn:", "sks:")) for c in m.custom_ids)]
    assert prompts, f"{user.name} has no prompt"
    return prompts[-1]


def user_of(table: Table, users: list[FakeUser], seat: int) -> FakeUser:
    return next(u for u in users if u.id == table.seats[seat].user_id)


# --------------------------------------------------------------------------- the scripted games


async def incan_gold(fake: FakeDiscord, store: Store, channel: FakeChannel, monkeypatch: pytest.MonkeyPatch,
                     log: Transcript) -> list[FakeUser]:
    """Ann, Bo and Cy with an Easy bot; everyone plays the Medium AI's choice, except that Cy lets
    the timer run out once (expedition 2)."""
    ann, bo, cy = fake.user("Ann"), fake.user("Bo"), fake.user("Cy")
    users = [ann, bo, cy]
    clock = ManualClock()
    bot = await start_bot(fake, store, clock)
    table = await open_table(fake, log, bot, channel, "incan", ann, [bo, cy], ("easy",), 4242, monkeypatch)
    rng = random.Random(7)
    game = table.spec.game
    waited = False
    while table.status == "playing":
        for seat in table.humans_owing():
            user = user_of(table, users, seat)
            if user is cy and table.state.round == 2 and not waited:
                waited = True
                log.note("Cy does not answer: two minutes pass")
                await clock.advance(120)
                break
            action = incan_ai.medium(game.observe(table.state, seat), game.legal_actions(table.state, seat), rng)
            prompt = next(m for m in reversed(fake.channel_messages(channel))  # the expedition's Torch / Camp
                          if any(c.startswith(f"act:{table.id}:{table.window}:") for c in m.custom_ids))
            cid = next(c for c in prompt.custom_ids
                       if c.startswith("act:") and json.loads(c.split(":", 3)[3]) == action)
            await press(fake, log, user, prompt, cid)
    await fake.stop(bot)
    return users


async def sakkara(fake: FakeDiscord, store: Store, channel: FakeChannel, monkeypatch: pytest.MonkeyPatch,
                  log: Transcript) -> list[FakeUser]:
    """Ann and Bo, each playing the greedy planner's choice (the first Medium) through their DM
    prompt's shortest path."""
    ann, bo = fake.user("Ann"), fake.user("Bo")
    users = [ann, bo]
    bot = await start_bot(fake, store, ManualClock())
    table = await open_table(fake, log, bot, channel, "sakkara", ann, [bo], (), 2024, monkeypatch)
    rng = random.Random(11)
    game = table.spec.game
    while table.status == "playing":
        seat = table.humans_owing()[0]
        action = sakkara_ai.greedy(game.view(table.state, seat), game.legal_actions(table.state, seat), rng)
        user = user_of(table, users, seat)
        for cid, value in route(table, seat, action):
            await press(fake, log, user, last_prompt(fake, user), cid, value)
    await fake.stop(bot)
    return users


async def indus(fake: FakeDiscord, store: Store, channel: FakeChannel, monkeypatch: pytest.MonkeyPatch,
                log: Transcript) -> list[FakeUser]:
    """Ann and Bo with a Medium bot, on the default board, through the public board's controls."""
    ann, bo = fake.user("Ann"), fake.user("Bo")
    users = [ann, bo]
    bot = await start_bot(fake, store, ManualClock())
    table = await open_table(fake, log, bot, channel, "indus", ann, [bo], ("medium",), 99, monkeypatch)
    rng = random.Random(5)
    game = table.spec.game
    while table.status == "playing":
        seat = table.humans_owing()[0]
        action = indus_heuristics.medium(game.view(table.state, seat), game.legal_actions(table.state, seat), rng)
        user = user_of(table, users, seat)
        ref = await bot.hub.message_ref(table, "board")
        assert ref is not None
        board = fake.messages[ref[1]]
        hit = control_for(indus_controls(table), action)
        if hit is None:  # more pieces than menus: the piece's button first
            piece = f"{action['colour']}{action['rank']}"
            button = next(c for c in board.custom_ids if c.startswith("indus:pc:") and c.endswith(piece))
            await press(fake, log, user, board, button)
            hit = control_for(indus_controls(table, chosen=piece), action)
        assert hit is not None, action
        await press(fake, log, user, board, *hit)
    await fake.stop(bot)
    return users


GAMES = {"incan_gold": incan_gold, "sakkara": sakkara, "indus": indus}


@pytest.mark.parametrize("name", sorted(GAMES))
async def test_golden_transcript(name, fake, table, store, monkeypatch):
    log = Transcript(fake)
    users = await GAMES[name](fake, store, table, monkeypatch, log)
    files = {"channel.txt": log.for_place(f"#{table.name}")}
    files.update({f"{user.name}.txt": log.for_user_private(user) for user in users})
    folder = GOLDEN / name
    if UPDATE:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.txt"):
            old.unlink()
        for file, text in files.items():
            (folder / file).write_text(text, encoding="utf-8")
    missing = [f for f in files if not (folder / f).exists()]
    assert not missing, f"no golden {missing} in {folder}: run with UPDATE_TRANSCRIPTS=1"
    for file, text in files.items():
        assert text == (folder / file).read_text(encoding="utf-8"), (
            f"{name}/{file} differs from the golden transcript; if intended, regenerate with "
            "UPDATE_TRANSCRIPTS=1 and read the diff")
