"""Helpers for Indus bot tests: open a table through its lobby, find a move's control on the board
(or on a DM prompt that carries the same controls), and play people's moves through them."""

from __future__ import annotations

import base64
import json
from typing import Any

from incan_kit import buttons, lobby_id

from bot import Bot
from engine.indus import GAME
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
"""A 1x1 picture: stands in for the board image where only the messages are tested (speed)."""


def first_choice(message: FakeMessage, action: Any = None) -> tuple[str, str | None]:
    """Return (custom_id, select value or None) of the control of ``action`` on the board message
    (default: the first move control)."""
    for cid in message.custom_ids:
        if cid.startswith("pick:"):
            comp = message.component(cid)
            assert comp is not None
            for option in comp["options"]:
                if action is None or json.loads(option["value"]) == action:
                    return cid, option["value"]
        if cid.startswith("act:") and (action is None or json.loads(cid.split(":", 3)[3]) == action):
            return cid, None
    raise AssertionError(f"no control for {action} on the board: {message.custom_ids}")


def lobby_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def open_table(fake: FakeDiscord, bot: Bot, channel: FakeChannel, humans: list[FakeUser],
                     bots: tuple[str, ...] = (), options: dict[str, Any] | None = None) -> Table:
    host, *others = humans
    rec = await fake.slash(host, channel, "indus new", options or {})
    assert rec.ephemeral and "table is open" in rec.replies[-1].render()
    lobby = lobby_message(fake, channel)
    for user in others:
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    for level in bots:
        await fake.click(host, lobby, lobby_id(lobby, f"ai-{level}"))
    await fake.click(host, lobby, lobby_id(lobby, "start"))
    return await bot.sessions.table_in(channel.id)


async def board(fake: FakeDiscord, bot: Bot, table: Table) -> FakeMessage:
    ref = await bot.hub.message_ref(table, "board")
    assert ref is not None
    return fake.messages[ref[1]]


def mover(table: Table, users: list[FakeUser]) -> FakeUser:
    seat = table.humans_owing()[0]
    return next(u for u in users if u.id == table.seats[seat].user_id)


def check_controls(message: FakeMessage, legal: list[Any]) -> None:
    """The board offers exactly the legal actions: every move and reroll, or every space of the
    chosen piece (the other pieces behind their buttons); never anything else."""
    shown = [json.loads(cid.split(":", 3)[3]) for cid in buttons(message, "act:")]
    for cid in buttons(message, "pick:"):
        comp = message.component(cid)
        assert comp is not None and len(comp["options"]) <= 25
        shown += [json.loads(o["value"]) for o in comp["options"]]
    if legal[0]["do"] != "place":
        assert shown == legal
        return
    groups = sorted({f"{a['colour']}{a['rank']}" for a in legal})
    pieces = [cid.rsplit(":", 1)[1] for cid in buttons(message, "indus:pc:")]

    def clockwise(piece: str) -> list[Any]:  # a piece's spaces, clockwise from the top edge (N-A first)
        return sorted((a for a in legal if f"{a['colour']}{a['rank']}" == piece),
                      key=lambda a: ("NESW".index(a["space"][0]), a["space"]))

    if len(groups) <= 5:  # a start-space menu per piece: one click places
        assert not pieces
        assert shown == [a for piece in dict.fromkeys(f"{a['colour']}{a['rank']}" for a in shown)
                         for a in clockwise(piece)]
        assert sorted(json.dumps(a, sort_keys=True) for a in shown) == sorted(json.dumps(a, sort_keys=True)
                                                                                for a in legal)
        return
    assert sorted(pieces) == groups  # more pieces than menus: a button per piece, the chosen one's menu
    assert shown == clockwise(f"{shown[0]['colour']}{shown[0]['rank']}")


def action_of(cid: str, value: str | None) -> Any:
    return json.loads(value if value is not None else cid.split(":", 3)[3])


async def take(fake: FakeDiscord, user: FakeUser, message: FakeMessage, cid: str, value: str | None) -> Any:
    if value is None:
        rec = await fake.click(user, message, cid)
    else:
        rec = await fake.select(user, message, cid, [value])
    assert not [r for r in rec.replies if r.ephemeral], [r.render() for r in rec.replies]
    return action_of(cid, value)


async def play_step(fake: FakeDiscord, bot: Bot, table: Table, users: list[FakeUser]) -> Any:
    """The human to move takes the first option on the board message; return the action."""
    user = mover(table, users)
    message = await board(fake, bot, table)
    legal = GAME.legal_actions(table.state, table.humans_owing()[0])
    check_controls(message, legal)
    cid, value = first_choice(message, legal[0])  # the engine's first legal action, wherever it is listed
    return await take(fake, user, message, cid, value)


async def play_to_the_end(fake: FakeDiscord, bot: Bot, table: Table, users: list[FakeUser]) -> list[Any]:
    taken = []
    while table.status == "playing":
        taken.append(await play_step(fake, bot, table, users))
    return taken


def dm_prompt(fake: FakeDiscord, user: FakeUser) -> FakeMessage | None:
    """The user's latest DM that still carries move controls (their turn's prompt)."""
    prompts = [m for m in fake.dm_messages(user) if buttons(m, "pick:") or buttons(m, "act:")]
    return prompts[-1] if prompts else None
