"""Helpers for the tests of what every game shares on Discord: tables played through the real
buttons, the game's thread, and the controls left on any message."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from incan_kit import act_id, buttons, lobby_id

from bot import Bot
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser


def lobby_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    """Return the channel's lobby message."""
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def incan_table(fake: FakeDiscord, bot: Bot, channel: FakeChannel, users: Sequence[FakeUser],
                      bots: Sequence[str] = (), seed: int | None = 42,
                      options: dict[str, object] | None = None) -> Table:
    """Open an Incan Gold table with ``users`` (the first hosts) and ``bots``, started on ``seed``."""
    await fake.slash(users[0], channel, "incan new", dict(options or {}))
    lobby = lobby_message(fake, channel)
    for user in users[1:]:
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    for level in bots:
        await fake.click(users[0], lobby, lobby_id(lobby, f"ai-{level}"))
    table = await bot.sessions.table_in(channel.id)
    if seed is None:
        await fake.click(users[0], lobby, lobby_id(lobby, "start"))
    else:
        await fake.run(bot.sessions.start, table.id, users[0].id, seed)
    return table


async def choose(fake: FakeDiscord, table: Table, user: FakeUser, action: str) -> None:
    """Choose with Torch / Camp on the expedition's public message (as everyone does)."""
    public = [m for m in fake.channel_messages(table.channel_id) if buttons(m, "act:")][-1]
    await fake.click(user, public, act_id(public, action))


def act_id_or_none(message: FakeMessage, action: str) -> str | None:
    """Return the move button for ``action`` on a message, if it has one."""
    try:
        return act_id(message, action)
    except AssertionError:
        return None


async def incan_to_the_end(fake: FakeDiscord, table: Table, users: Sequence[FakeUser], *,
                           camp_at: int = 8, rounds: int | None = None) -> None:
    """Everyone presses on until carrying ``camp_at`` gems, then camps (until ``rounds`` are done)."""
    by_id = {u.id: u for u in users}
    while table.status == "playing" and (rounds is None or table.state.round <= rounds):
        for seat in table.humans_owing():
            action = "camp" if table.state.carried[seat] >= camp_at else "torch"
            await choose(fake, table, by_id[table.seats[seat].user_id or 0], action)


def thread_of(fake: FakeDiscord, channel: FakeChannel) -> FakeChannel:
    """Return the one thread started in the channel."""
    [thread] = fake.threads(channel)
    return thread


def thread_lines(fake: FakeDiscord, channel: FakeChannel) -> list[str]:
    """Return every line posted in a channel (or thread), oldest first."""
    return [line for m in fake.channel_messages(channel) for line in m.content.splitlines()]


def live_controls(fake: FakeDiscord, channel: FakeChannel, users: Sequence[FakeUser],
                  table_id: int | None = None) -> list[str]:
    """Return every enabled control (other than Rematch and Replay, which a finished game's summary
    keeps) on the channel's messages and the users' DMs (only those of table ``table_id`` when given:
    a DM channel holds every table's prompts)."""
    messages = [*fake.channel_messages(channel), *(m for u in users for m in fake.dm_messages(u))]
    out = []
    for message in messages:
        for cid in message.custom_ids:
            component = message.component(cid) or {}
            if table_id is not None and str(table_id) not in cid.split(":"):
                continue
            if not cid.startswith(("rematch:", "replay-open:")) and not component.get("disabled"):
                out.append(f"{message.id}:{cid}")
    return out


def describe_controls(fake: FakeDiscord, found: list[str]) -> str:
    """Return the messages holding ``found`` controls, rendered (for an assertion's message)."""
    ids = {int(item.split(":", 1)[0]) for item in found}
    return "\n---\n".join(fake.messages[i].render() for i in sorted(ids))


def loop_is_free(loop: asyncio.AbstractEventLoop) -> bool:
    """Return True when ``loop`` runs a trifle within 2 s of being asked from this thread.

    Called from code the bot runs: on the loop's own thread the loop is busy with that very call,
    so the trifle cannot run and this returns False (after 2 s). Elsewhere (the AI pool, the
    drawing thread) it returns True at once.
    """

    async def nothing() -> None:
        return None

    try:
        asyncio.run_coroutine_threadsafe(nothing(), loop).result(timeout=2.0)
    except TimeoutError:
        return False
    return True
