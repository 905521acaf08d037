"""Clicks per turn: what a player presses to play, measured on the real bot through the fake Discord.

Every seat is a "human" played by an AI policy through the real controls: the DM prompt's buttons
and menus (Incan Gold, Sakkara) or the public board's (Indus). Before each action the script finds
the shortest way to it on the prompt as drawn (the prompt's own sub-menus and pages, computed from
the same renderer the bot uses) and presses exactly that: an expert player who knows where every
control is. A click is one interaction (button press or menu choice, sub-menu openers included);
actions the session plays unasked (Sakkara's End turn when nothing else is legal) cost none.

Reported per game:
- Incan Gold: clicks per decision (Torch or Camp).
- Sakkara: clicks per turn (the player's own turn, from its first action to its end), clicks per
  return of the opponent's used tiles, and the turns that ended with End turn as the only option
  left: with the automatic End turn (rules answer 2) those cost the step alone; ``--manual-end``
  measures the same games with End turn clicked, as before.
- Indus: clicks per turn (placement, rerolls, the move, a keep/return choice).

Run: ``.venv/bin/python bench/clicks_per_turn.py [--games 3] [--seed 1] [--manual-end]``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bot import Bot
from cogs.indus.controls import controls as indus_controls
from cogs.sakkara.controls import route
from cogs.table.controls.buttons import control_for
from db import Store
from engine.clock import ManualClock
from engine.incan_gold import ai as incan_ai
from engine.indus.ai import heuristics as indus_heuristics
from engine.sakkara import ai as sakkara_ai
from engine.sakkara.rules import turn_key
from engine.session import Table
from engine.session import games as session_games
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from wiring.config import Config

Path_ = list[tuple[str, str | None]]  # (custom_id, select value or None), the last one acts


def config() -> Config:
    return Config(token=None, ai_delay_s=0.0, decision_timeout_s=600.0, reminder_before_s=30.0)  # type: ignore[call-arg]


def summary(name: str, values: list[int]) -> str:
    if not values:
        return f"{name}: none"
    return (f"{name}: n={len(values)}, median {statistics.median(values):g}, mean {statistics.mean(values):.2f}, "
            f"max {max(values)}")


# --------------------------------------------------------------------------- finding a control


def indus_path(table: Table, action: Any) -> Path_:
    """The placement's piece button (when there are more pieces than menus), then the action."""
    hit = control_for(indus_controls(table), action)
    if hit is not None:
        return [hit]
    piece = f"{action['colour']}{action['rank']}"
    hit = control_for(indus_controls(table, chosen=piece), action)
    assert hit is not None, action
    return [(f"indus:pc:{table.id}:{table.window}:{piece}", None), hit]


async def press(fake: FakeDiscord, user: FakeUser, message: FakeMessage, path: Path_) -> None:
    for cid, value in path:
        assert cid in message.custom_ids, (cid, message.custom_ids)
        if value is None:
            await fake.click(user, message, cid)
        else:
            await fake.select(user, message, cid, [value])


def last_prompt(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    prompts = [m for m in fake.dm_messages(user) if any(c.startswith(("act:", "pick:", "skn:", "sks:"))
                                                        for c in m.custom_ids)]
    assert prompts, "no prompt"
    return prompts[-1]


THINK_S = 0.0
"""How long a player takes before each click, on the session's clock (bench/calls_per_game.py sets
it by pace: at a correspondence pace people come back hours later, away from the table)."""


async def think(fake: FakeDiscord, bot: Bot) -> None:
    """Let a player's thinking time pass (the due timers fire, as they would)."""
    if THINK_S > 0:
        clock = bot.sessions.clock
        assert isinstance(clock, ManualClock)
        await fake.run(clock.advance, THINK_S)


def where_told(fake: FakeDiscord, user: FakeUser, fallback: FakeMessage, path: Path_) -> FakeMessage:
    """The message a player acts on: their newest DM when it is a prompt with this move's first
    control (they were told by DM and play from there), else ``fallback`` (the channel's)."""
    dms = fake.dm_messages(user)
    if dms and path and path[0][0] in dms[-1].custom_ids:
        return dms[-1]
    return fallback


def expedition_message(fake: FakeDiscord, table: Table) -> FakeMessage:
    """Return the message that takes Incan Gold's Torch / Camp now (the current expedition's)."""
    live = [m for m in fake.channel_messages(table.channel_id) if any(c.startswith("act:") for c in m.custom_ids)]
    assert live, "no expedition message with Torch / Camp"
    return live[-1]


# --------------------------------------------------------------------------- one game


async def start(fake: FakeDiscord, store: Store, game: str, humans: int,
                seed: int) -> tuple[Bot, Table, list[FakeUser]]:
    bot = Bot(store, config(), ManualClock())
    await fake.start(bot)
    channel = fake.text_channel(f"t{seed}-{game}")
    users = [fake.user(f"P{i}-{seed}") for i in range(humans)]
    command = {"incan_gold": "incan", "sakkara": "sakkara", "indus": "indus"}[game]
    await fake.slash(users[0], channel, f"{command} new", {})
    table = await bot.sessions.table_in(channel.id)
    lobby = next(m for m in fake.channel_messages(channel) if any(c.startswith("lobby:") for c in m.custom_ids))
    join = next(c for c in lobby.custom_ids if c.startswith("lobby:") and c.endswith(":join"))
    for user in users[1:]:
        await fake.click(user, lobby, join)  # as people join: a click (they are at the table now)
    # Through the fake, so what the start sends (through the bot's outbox) has arrived when it returns.
    await fake.run(bot.sessions.start, table.id, users[0].id, seed)
    return bot, table, users


def user_of(table: Table, users: list[FakeUser], seat: int) -> FakeUser:
    return next(u for u in users if u.id == table.seats[seat].user_id)


async def incan_game(fake: FakeDiscord, store: Store, seed: int) -> list[int]:
    bot, table, users = await start(fake, store, "incan_gold", 4, seed)
    rng, clicks = random.Random(seed), []
    game = table.spec.game
    while table.status == "playing":
        for seat in table.humans_owing():
            action = incan_ai.medium(game.observe(table.state, seat), game.legal_actions(table.state, seat), rng)
            user = user_of(table, users, seat)
            # Torch / Camp are on the expedition's public message; each press is answered privately.
            await bot.hub.outbox.drained()  # a new expedition's message may still be on its way
            public = expedition_message(fake, table)
            path = [(c, None) for c in public.custom_ids
                    if c.startswith("act:") and json.loads(c.split(":", 3)[3]) == action]
            await think(fake, bot)
            await press(fake, user, where_told(fake, user, public, path), path)
            clicks.append(len(path))
    await fake.stop(bot)
    return clicks


@dataclasses.dataclass
class SakkaraFigures:
    turns: list[int] = dataclasses.field(default_factory=list)
    returns: list[int] = dataclasses.field(default_factory=list)
    end_only: list[int] = dataclasses.field(default_factory=list)  # turns whose End turn was the only option left
    end_clicks: int = 0  # clicks on End turn when it was the only legal action


async def sakkara_game(fake: FakeDiscord, store: Store, seed: int, out: SakkaraFigures) -> None:
    bot, table, users = await start(fake, store, "sakkara", 2, seed)
    rng = random.Random(seed)
    game = table.spec.game
    current: tuple[Any, str] | None = None
    count = 0
    only_end_seen = False
    while table.status == "playing":
        seat = table.humans_owing()[0]
        key = (turn_key(table.state), "return" if table.state.phase == "return" else "turn")
        if key != current:
            if current is not None:
                (out.returns if current[1] == "return" else out.turns).append(count)
                if current[1] == "turn" and only_end_seen:
                    out.end_only.append(count)
            current, count, only_end_seen = key, 0, False
        legal = game.legal_actions(table.state, seat)
        if legal == [{"do": "end"}]:
            only_end_seen = True
            out.end_clicks += 1
        action = sakkara_ai.medium(game.view(table.state, seat), legal, rng)
        path = route(table, seat, action)
        user = user_of(table, users, seat)
        version = table.version
        await think(fake, bot)
        await press(fake, user, last_prompt(fake, user), path)
        assert table.version > version, action
        count += len(path)
        # an End turn the session played unasked (the first appended action is the click itself)
        if any(s == seat and a == {"do": "end"} for s, a in _LOGS[table.id][version + 1:]):
            only_end_seen = True
    if current is not None:
        (out.returns if current[1] == "return" else out.turns).append(count)
    await fake.stop(bot)


_LOGS: dict[int, list[tuple[int, Any]]] = {}
"""Every appended (seat, action) per table, in log order (index = the table's version)."""


async def indus_game(fake: FakeDiscord, store: Store, seed: int, players: int) -> list[int]:
    bot, table, users = await start(fake, store, "indus", players, seed)
    rng, clicks = random.Random(seed), []
    game = table.spec.game
    current, count = None, 0
    while table.status == "playing":
        seat = table.humans_owing()[0]
        key = game.view(table.state, None)["turn"], seat
        if key != current:
            if current is not None and current[0] > 0:  # turn 0 is the start pieces' placement
                clicks.append(count)
            current, count = key, 0
        action = indus_heuristics.medium(game.view(table.state, seat), game.legal_actions(table.state, seat), rng)
        path = indus_path(table, action)
        board = await bot.hub.message_ref(table, "board")
        assert board is not None
        user = user_of(table, users, seat)
        await think(fake, bot)
        await press(fake, user, where_told(fake, user, fake.messages[board[1]], path), path)
        count += len(path)
    if current is not None and current[0] > 0:
        clicks.append(count)
    await fake.stop(bot)
    return clicks


# --------------------------------------------------------------------------- main


def _track_logs(store: Store) -> None:
    """Keep every appended action per table (to tell the session's unasked actions from clicks)."""
    original = store.append_actions

    async def append(table_id: int, expected: int, actions: Any, *args: Any, **kw: Any) -> Any:
        _LOGS.setdefault(table_id, []).extend(actions)
        return await original(table_id, expected, actions, *args, **kw)

    store.append_actions = append  # type: ignore[method-assign]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per game kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--manual-end", action="store_true", help="Sakkara without the automatic End turn")
    args = parser.parse_args()
    if args.manual_end:
        spec = session_games.SPECS["sakkara"]
        session_games.SPECS["sakkara"] = dataclasses.replace(spec, forced=session_games.SPECS["indus"].forced)
    started = time.perf_counter()
    with FakeDiscord() as fake:
        store = await Store.open(":memory:")
        _track_logs(store)
        incan: list[int] = []
        sakkara = SakkaraFigures()
        indus: dict[int, list[int]] = {2: [], 4: []}
        for n in range(args.games):
            seed = args.seed + n
            incan += await incan_game(fake, store, seed)
            await sakkara_game(fake, store, seed, sakkara)
            for players in indus:
                indus[players] += await indus_game(fake, store, seed, players)
        await store.close()
    print(f"clicks per turn over {args.games} game(s) of each kind, seeds {args.seed}..{args.seed + args.games - 1}"
          f" ({time.perf_counter() - started:.0f} s)")
    print(summary("Incan Gold, clicks per decision", incan))
    mode = "End turn clicked by hand" if args.manual_end else "automatic End turn (rules answer 2)"
    print(f"Sakkara, {mode}:")
    print("  " + summary("clicks per turn", sakkara.turns))
    print("  " + summary("clicks per turn whose End turn was the only option left", sakkara.end_only))
    print(f"  clicks on an End turn that was the only legal action: {sakkara.end_clicks}")
    print("  " + summary("clicks per return of the used tiles", sakkara.returns))
    for players, values in indus.items():
        print(summary(f"Indus, {players} players, clicks per turn", values))


if __name__ == "__main__":
    asyncio.run(main())
