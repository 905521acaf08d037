"""Rate-limited calls per move over whole games: every call a game costs, from Start to the summary.

The latency benchmark (bench/bot_latency.py) measures a minute of play at a 5-30 s pace: with
games of 150 moves (Sakkara) that minute sees the first few moves of each game, so it counts each
player's first prompt (a new DM) and none of the game log's batches or the final summary. This
script plays whole games on the real bot through the fake Discord instead, every seat a person
driven by the Medium AI through the real controls (the drivers of bench/clicks_per_turn.py), and
counts every bot-token call (the rate-limited ones: interaction responses are exempt) from the
Start to the end of the game: the board's messages, the DMs, the thread and its log batches, the
summary. The bot's own budget is off, so nothing is coalesced: each redraw the bot asks for is a
call, an upper bound of what the rate-limited bot sends at any pace.

Printed per game kind: moves (actions of seats; Incan Gold: cards revealed), calls by kind and
per move, and one line per game kind that other tools read:

    calls game=sakkara limited_calls_per_move=<x> games=<n> moves=<n> pace=<live|correspondence>

Each game kind is played at both paces (``--pace`` picks one), with the default notification
settings (nobody chose ``/notify how``): a live table's people play as they are told (nobody is
away, so the board is their notice), a correspondence table's people are told by DM and play
from wherever they were told (the drivers click the board's or the prompt's controls).

``--notify dm`` plays as if every player chose ``/notify how:dm`` (the line then ends ``notify=dm``).

Run: ``.venv/bin/python bench/calls_per_game.py [--games 3] [--seed 1] [--pace live] [--notify dm]``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench import clicks_per_turn as drivers
from bot import Bot
from db import Store
from engine.core import CHANCE
from engine.session import Table, Update
from fakediscord import FakeDiscord, FakeUser, RestCall
from fakediscord.ratelimits import RateLimiter
from wiring.config import Config

PER_PROCESS = ("/users/@me", "/oauth2/", "/applications/")  # the bot's start-up, not a game's


class Count:
    """Calls and moves of the games being played."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.moves = 0
        self.games = 0
        self.turns = 0  # a decision became a person's who did not owe one (Sakkara, Indus)
        self.dm_channels: set[int] = set()

    def on_call(self, call: RestCall) -> None:
        if RateLimiter.exempt(call.route) or call.route.startswith(PER_PROCESS):
            return
        channel = int(call.path.split("/")[2]) if call.path.startswith("/channels/") else None
        if call.route == "/users/@me/channels":
            kind = "DM opened"
        elif call.route.endswith("/threads"):
            kind = "thread created"
        else:
            where = "DM" if channel in self.dm_channels else "channel or thread"
            verb = {"POST": "sent", "PATCH": "edited", "DELETE": "deleted"}.get(call.method, call.method)
            kind = f"{where} message {verb}"
        self.calls[kind] += 1

    def instrument(self, bot: Bot, unit: str) -> None:
        """Count moves as the session plays them (cards for Incan Gold)."""
        listener = bot.sessions.listener
        played = listener.played

        owing: dict[int, set[int]] = {}  # table id -> the people who owed a decision after its last step

        async def counting(update: Update) -> None:
            table = update.table
            if unit == "card":
                self.moves += sum(1 for e in update.events if e["type"] == "card")
            else:
                self.moves += sum(1 for seat in update.actors if seat != CHANCE)
                now = set(table.humans_owing()) if table.status == "playing" else set()
                self.turns += len(now - owing.get(table.id, set()))
                owing[table.id] = now
            await played(update)

        listener.played = counting  # type: ignore[method-assign]


PACES = {"live": (600.0, 5.0), "correspondence": (86400.0, 3600.0)}
"""Each pace's decision time (the longest live one; a day) and how long a player takes per click (a
live player is at the table; a correspondence player comes back an hour later)."""


def _unlimited(pace: str) -> Config:
    return Config(token=None, ai_delay_s=0.0, decision_timeout_s=PACES[pace][0],
                  reminder_before_s=30.0, rate_limited=False)


async def play(kind: str, games: int, seed: int, pace: str = "live", notify: str | None = None) -> Count:
    """Play ``games`` whole games of ``kind`` at ``pace`` and count their calls; ``notify``: every
    player's ``/notify how`` choice (None: the default)."""
    count = Count()
    unit = "card" if kind == "incan_gold" else "move"
    start = drivers.start

    async def counted_start(fake: FakeDiscord, store: Store, game: str, humans: int,
                            seed: int) -> tuple[Bot, Table, list[FakeUser]]:
        bot, table, users = await start(fake, store, game, humans, seed)
        if notify is not None:
            for user in users:
                await bot.hub.notify_choices.choose(user.id, notify)  # type: ignore[arg-type]
        count.instrument(bot, unit)
        count.games += 1
        return bot, table, users

    config = drivers.config
    drivers.start = counted_start  # type: ignore[assignment]
    drivers.config = lambda: _unlimited(pace)
    drivers.THINK_S = PACES[pace][1]
    try:
        with FakeDiscord() as fake:
            store = await Store.open(":memory:")
            drivers._track_logs(store)
            original_dm = fake.world.dm_channel  # the router opens DMs through the world

            def dm_channel(user: FakeUser) -> Any:
                channel = original_dm(user)
                count.dm_channels.add(channel.id)
                return channel

            fake.world.dm_channel = dm_channel  # type: ignore[method-assign]
            fake.add_listener(count.on_call)
            for n in range(games):
                if kind == "incan_gold":
                    await drivers.incan_game(fake, store, seed + n)
                elif kind == "sakkara":
                    await drivers.sakkara_game(fake, store, seed + n, drivers.SakkaraFigures())
                else:
                    await drivers.indus_game(fake, store, seed + n, 2)
            await store.close()
    finally:
        drivers.start, drivers.config, drivers.THINK_S = start, config, 0.0
    return count


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games per game kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=["incan_gold", "sakkara", "indus"], nargs="*",
                        default=["incan_gold", "sakkara", "indus"])
    parser.add_argument("--pace", choices=sorted(PACES), nargs="*", default=["live", "correspondence"])
    parser.add_argument("--notify", choices=["dm", "mention", "off"], default=None,
                        help="every player's /notify how choice (default: none made)")
    args = parser.parse_args()
    lines = []
    for kind, pace in ((kind, pace) for pace in args.pace for kind in args.game):
        began = time.perf_counter()
        count = await play(kind, args.games, args.seed, pace, args.notify)
        moves = max(count.moves, 1)
        unit = "card" if kind == "incan_gold" else "move"
        total = sum(count.calls.values())
        print(f"\n## {kind} ({pace}): {count.games} whole games, {count.moves} {unit}s "
              f"({count.moves / max(count.games, 1):.0f} a game), played in {time.perf_counter() - began:.0f} s")
        print(f"{'rate-limited calls (bot token)':<40} {'total':>7} {'per ' + unit:>9} {'per game':>9}")
        for what, n in sorted(count.calls.items()):
            print(f"{what:<40} {n:>7} {n / moves:>9.3f} {n / max(count.games, 1):>9.1f}")
        print(f"{'all':<40} {total:>7} {total / moves:>9.3f} {total / max(count.games, 1):>9.1f}")
        if count.turns:
            # Each turn passing to a person away from the table costs two calls nothing can spare: the
            # notice (only a new message notifies) and the public board's edit (a click in a DM cannot
            # answer through the channel's message). Their sum per move is the floor of this pace.
            print(f"turns passed to a person: {count.turns} ({count.moves / count.turns:.2f} moves a turn); "
                  f"a notice and a board edit each: {2 * count.turns / moves:.3f} calls per move")
        lines.append(f"calls game={kind} limited_calls_per_move={total / moves:.3f} games={count.games} "
                     f"moves={count.moves} pace={pace}" + (f" notify={args.notify}" if args.notify else ""))
    print()
    print("\n".join(lines))


if __name__ == "__main__":
    asyncio.run(main())
