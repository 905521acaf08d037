"""The offline demo: a whole Incan Gold table played against the in-process fake Discord.

``python demo.py [--interactive] [--seed N]`` (or ``./run.sh --demo``) needs no token and no
network. The real bot (``bot.Bot``, its cogs, the session layer and an in-memory store, built by
``bot.offline_bot``) runs against
:class:`fakediscord.FakeDiscord`, the same fake the tests use: "You" opens a table with
``/incan new``, seats four AI players with the lobby buttons, presses Start and plays five
expeditions by clicking the Torch / Camp buttons on the expedition's message in the channel.
Everything the bot shows is printed as it happens, labelled with where it appears (``#table``,
DMs, private replies), each new or changed message once.

Without ``--interactive`` a readable rule plays for you (:func:`scripted_choice`); with it you
answer ``t`` or ``c`` on stdin. The AI seats act at once (no delay), so a game takes a second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

from bot import offline_bot
from db import Store
from engine.clock import ManualClock
from engine.incan_gold import GAME
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

__all__ = ["AI_LEVELS", "CARRY_ENOUGH", "HAZARDS_ENOUGH", "BotFactory", "parse_answer", "run_demo", "scripted_choice"]

AI_LEVELS = ("easy", "medium", "hard", "medium")
"""The AI seats the demo adds through the lobby buttons, in order."""

CARRY_ENOUGH = 8
"""The scripted player returns to camp once it carries this many gems..."""

HAZARDS_ENOUGH = 2
"""...or once this many different hazards are on the path (the next copy of either collapses it)."""

MAX_DECISIONS = 500  # far above any real game (5 expeditions of at most ~30 cards): a stuck demo stops

RULE = "=" * 72


BOT_LOGGERS = ("discord", "temple_table", "cogs", "engine", "db", "pictures", "i18n", "wiring")
"""The loggers of the bot and the library it drives: an error logged by any of them stops the demo."""


def scripted_choice(view: dict[str, Any]) -> str:
    """Return "camp" when carrying >= CARRY_ENOUGH gems or facing >= HAZARDS_ENOUGH hazards, else "torch"."""
    you = view["you"]
    if you["carried"] >= CARRY_ENOUGH or len(view["hazards_seen"]) >= HAZARDS_ENOUGH:
        return "camp"
    return "torch"


def parse_answer(text: str) -> str | None:
    """Return "torch" or "camp" for an answer such as ``t``, ``Torch``, ``c`` or ``camp``; None otherwise."""
    word = text.strip().lower()
    if word in ("t", "torch", "stay"):
        return "torch"
    if word in ("c", "camp", "leave"):
        return "camp"
    return None


class _Printer:
    """Prints every message the bot creates or edits, labelled, each distinct rendering once."""

    def __init__(self, fake: FakeDiscord, out: TextIO) -> None:
        self.fake = fake
        self.out = out
        self.shown: dict[int, str] = {}

    def label(self, message: FakeMessage) -> str:
        """Return where the message appears, as a reader of the channel or a DM would say it."""
        channel = self.fake.channels[message.channel_id]
        if channel.recipient_id is not None:
            return f"DM to {self.fake.users[channel.recipient_id].name}"
        if message.ephemeral_to is not None:
            return f"#{channel.name}, only {self.fake.users[message.ephemeral_to].name} sees this"
        return f"#{channel.name}"

    def __call__(self, kind: str, message: FakeMessage) -> None:
        """Print a created or edited message unless it is still "thinking" or looks unchanged."""
        if kind == "delete" or message.loading:
            return
        picture = message.render()
        if self.shown.get(message.id) == picture:
            return
        edited = message.id in self.shown
        self.shown[message.id] = picture
        self.out.write(f"\n── {self.label(message)}{' (edited)' if edited else ''} ──\n")
        for line in picture.splitlines():
            self.out.write(f"   {line}\n")


def _move_button(message: FakeMessage, action: str) -> str:
    """Return the custom_id of the move button for ``action`` on the expedition's message."""
    for custom_id in message.custom_ids:
        if custom_id.startswith("act:") and json.loads(custom_id.split(":", 3)[3]) == action:
            return custom_id
    raise RuntimeError(f"the prompt has no {action} button: {message.custom_ids}")


def _latest_prompt(fake: FakeDiscord, channel: FakeChannel, user: FakeUser) -> FakeMessage:
    """Return the channel's newest message that carries move buttons (the expedition's)."""
    prompts = [m for m in fake.channel_messages(channel) if any(c.startswith("act:") for c in m.custom_ids)]
    if not prompts:
        raise RuntimeError(f"{user.name} owes a decision but no message carries Torch / Camp")
    return prompts[-1]


def _interactive_choice(ask: Callable[[str], str], out: TextIO) -> str:
    """Ask on stdin until the answer is Torch or Camp; end of input means Camp (the safe default)."""
    while True:
        try:
            answer = ask("Torch or Camp? [t/c] ")
        except EOFError:
            out.write("(no more input: returning to camp)\n")
            return "camp"
        choice = parse_answer(answer)
        if choice is not None:
            return choice
        out.write(f"Please answer t (torch, go deeper) or c (camp, go home), not {answer!r}.\n")


BotFactory = Callable[[Store, ManualClock], Any]
"""Builds the real bot on a store and a clock, with no token and bot seats that act at once
(``bot.offline_bot``; the tests pass their own)."""


async def run_demo(make_bot: BotFactory, *, interactive: bool = False, seed: int | None = None,
                   out: TextIO = sys.stdout, ask: Callable[[str], str] = input) -> int:
    """Play one Incan Gold table (You + four AI seats) against the fake Discord, printing it; return 0."""
    seed = secrets.randbits(32) if seed is None else seed
    out.write(f"{RULE}\nTemple Table offline demo: Incan Gold against a fake Discord (seed {seed}).\n")
    out.write("You play with four bots. " + (
        "You decide: t = Torch (go deeper), c = Camp (go home)." if interactive else
        f"A simple rule plays for you: camp when carrying {CARRY_ENOUGH}+ gems or facing "
        f"{HAZARDS_ENOUGH} hazards.") + f"\n{RULE}\n")
    # Errors the bot logs (and would otherwise swallow) stop the demo instead of hiding behind it.
    with FakeDiscord(error_loggers=BOT_LOGGERS) as fake:
        channel = fake.text_channel("table")
        you = fake.user("You")
        fake.add_message_listener(_Printer(fake, out))
        store = await Store.open(":memory:")
        clock = ManualClock()
        bot = make_bot(store, clock)
        _pin_seed(bot, seed)
        try:
            await fake.start(bot)
            out.write("\n>>> You: /incan new\n")
            await fake.slash(you, channel, "incan new")
            lobby = next(m for m in fake.channel_messages(channel)
                         if any(c.startswith("lobby:") for c in m.custom_ids))
            for level in AI_LEVELS:
                out.write(f"\n>>> You press [Add {level} bot]\n")
                await fake.click(you, lobby, _lobby_button(lobby, f"ai-{level}"))
            out.write("\n>>> You press [Start]\n")
            await fake.click(you, lobby, _lobby_button(lobby, "start"))
            table = await bot.sessions.table_in(channel.id)
            await _play(fake, bot.sessions.tables, table.id, channel, you, interactive, ask, out)
            await _print_summary(store, table, out)
        finally:
            if bot in fake.bots:
                await fake.stop(bot)
            await store.close()
    return 0


def _pin_seed(bot: Any, seed: int) -> None:
    """Make the lobby's Start button deal the game from ``seed`` (the bot draws a random one)."""
    sessions = bot.sessions
    start: Callable[..., Awaitable[Any]] = sessions.start

    async def start_with_seed(table_id: int, user_id: int, seed_: int | None = None, *,
                              origin: object | None = None) -> Any:
        return await start(table_id, user_id, seed if seed_ is None else seed_, origin=origin)

    sessions.start = start_with_seed


def _lobby_button(lobby: FakeMessage, op: str) -> str:
    return next(c for c in lobby.custom_ids if c.startswith("lobby:") and c.endswith(f":{op}"))


async def _play(fake: FakeDiscord, tables: dict[int, Any], table_id: int, channel: FakeChannel, you: FakeUser,
                interactive: bool, ask: Callable[[str], str], out: TextIO) -> None:
    """Answer every prompt of "You" until the table is finished (the AI seats act in between)."""
    for _ in range(MAX_DECISIONS):
        table = tables.get(table_id)
        if table is None:  # finished: the session forgets the table
            return
        seat = table.seat_of(you.id)
        if seat not in table.humans_owing():
            raise RuntimeError("the game is running but You owe no decision (the AI seats should have acted)")
        prompt = _latest_prompt(fake, channel, you)
        view = GAME.view(table.state, seat)
        if interactive:
            out.write("\n")
            choice = _interactive_choice(ask, out)
        else:
            choice = scripted_choice(view)
        out.write(f"\n>>> You press [{'Torch' if choice == 'torch' else 'Camp'}] "
                  f"(carrying {view['you']['carried']}, hazards on the path: {len(view['hazards_seen'])})\n")
        await fake.click(you, prompt, _move_button(prompt, choice))
    raise RuntimeError(f"the demo did not finish within {MAX_DECISIONS} decisions")


async def _print_summary(store: Store, table: Any, out: TextIO) -> None:
    """Print the stored result: every seat's place and score, and the winner(s)."""
    results = sorted(await store.results(table.id), key=lambda r: (r.placement, r.seat))
    out.write(f"\n{RULE}\nFinal summary (seed {table.seed})\n")
    for row in results:
        seat = table.seats[row.seat]
        who = f"{seat.display_name} ({seat.ai_level} AI)" if seat.is_ai else seat.display_name
        out.write(f"  {row.placement}. {who}: {row.score} points{'  ← winner' if row.is_winner else ''}\n")
    winners = [table.seats[r.seat].display_name for r in results if r.is_winner]
    out.write(f"Winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}\n{RULE}\n")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and play the demo. The demo stands above the bot: it imports the bot
    and the fake Discord, and the bot imports neither."""
    parser = argparse.ArgumentParser(description="Temple Table offline demo: Incan Gold against a fake Discord.")
    parser.add_argument("--interactive", action="store_true", help="you choose Torch or Camp")
    parser.add_argument("--seed", type=int, default=None, help="the game seed")
    args = parser.parse_args(argv)
    return asyncio.run(run_demo(offline_bot, interactive=args.interactive, seed=args.seed))


if __name__ == "__main__":
    sys.exit(main())
