"""The fuzz of the chaos tier: arbitrary custom_ids, select values, option values and strings thrown
at every registered component and every command of the real bot (issue 15, items 3 and 8).

Properties, for every crafted interaction:
- it is answered (never "This interaction failed");
- nothing is logged at ERROR (the fake fails the example on one: a traceback is a bug);
- a stranger (seated nowhere) or a member of another server changes none of the tables in play;
- a command whose options Discord's client could not send (checked here against the synced command
  list, independently of the bot's own check) is answered "That is not valid" and opens nothing.

One bot serves every example (a bot per example would cost seconds each): it holds an Incan Gold,
a Sakkara and an Indus game in play, a finished game with its summary, and a lobby in another server.
"""

from __future__ import annotations

import asyncio
import math
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from chaos_kit import LOGGERS, config, ids, lobby_button
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

NOT_VALID = "That is not valid"
EXAMPLES = int(os.environ.get("CHAOS_FUZZ_EXAMPLES", "150"))
"""Examples per property: 150 in CI (a few seconds); bench/chaos.py runs thousands."""


class World:
    """The bot and its fake Discord, on a loop of their own (hypothesis runs examples synchronously)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.fake = FakeDiscord(error_loggers=LOGGERS)
        self.fake.install()
        self.run(self._setup())

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    async def _setup(self) -> None:
        fake = self.fake
        self.store = await Store.open(":memory:")
        self.clock = ManualClock()
        self.bot = Bot(self.store, config(), self.clock)
        await fake.start(self.bot)
        self.ann = fake.user("Ann")  # seated everywhere
        self.eve = fake.user("Eve")  # seated nowhere
        # Mallory manages another server and is no member of this one.
        self.mallory = fake.user("Mallory", manage_guild=True, in_guild=False)
        self.channels: dict[str, FakeChannel] = {}
        for game in ("incan", "sakkara", "indus", "done"):
            channel = fake.text_channel(game)
            self.channels[game] = channel
            await fake.slash(self.ann, channel, f"{'incan' if game == 'done' else game} new", {})
            lobby = self.lobby(channel)
            await fake.click(self.ann, lobby, lobby_button(lobby, "ai-easy"))
            await fake.click(self.ann, lobby, lobby_button(lobby, "start"))
        done = await self.bot.sessions.table_in(self.channels["done"].id)
        while done.status == "playing":
            await self.clock.advance(600)  # Ann's timeouts play the game out: a summary with Rematch
        self.other = fake.text_channel("theirs", guild_id=fake.other_guild())
        await fake.slash(self.mallory, self.other, "incan new", {})
        # The played-out game queued its DMs (prompts closed, reminders, "your time ran out") faster
        # than a DM channel's budget: the examples start from a bot with nothing left to send.
        await self.bot.hub.outbox.drained()
        self.table_ids = sorted({t.id for t in self.bot.sessions.tables.values()} | {done.id})
        # Fixed pools: hypothesis replays examples, so what it draws from must not grow meanwhile.
        self.pools = {user.id: self.visible(user) for user in (self.ann, self.eve, self.mallory)}
        self.real_ids = sorted({c for m in self.visible(self.ann) for c in m.custom_ids})

    def lobby(self, channel: FakeChannel) -> FakeMessage:
        return next(m for m in self.fake.channel_messages(channel) if ids(m, "lobby:"))

    def visible(self, user: FakeUser) -> list[FakeMessage]:
        """Messages the user can press something on: channel messages, their DMs and ephemerals."""
        main = [m for c in self.channels.values() for m in self.fake.channel_messages(c)]
        theirs = self.fake.channel_messages(self.other)
        private = self.fake.dm_messages(user) + self.fake.ephemeral_replies(user)
        return (theirs if user is self.mallory else main) + private

    def snapshot(self) -> dict[int, tuple[str, int, int]]:
        """The main server's tables of the setup (three games in play, one finished): status, version,
        seats. A stranger may honestly open a table in a free channel, or join one a stranger opened;
        never touch these."""
        return {t.id: (t.status, t.version, len(t.seats)) for t in self.bot.sessions.tables.values()
                if t.guild_id == self.fake.guild_id and t.id in self.table_ids}

    def close(self) -> None:
        self.run(self.fake.stop(self.bot))
        self.run(self.store.close())
        self.fake.uninstall()
        self.run(_cancel_the_rest())
        self.loop.close()


async def _cancel_the_rest() -> None:
    """Cancel what still sleeps (discord.py's timeout sleepers of ephemeral prompts' views)."""
    pending = asyncio.all_tasks() - {asyncio.current_task()}
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    w = World()
    yield w
    w.close()


# --------------------------------------------------------------------------- strategies

def _templates(world: World) -> list[str]:
    return [item.__discord_ui_compiled_template__.pattern for item in world.bot.dynamic_items]  # type: ignore[attr-defined]


def _mutated(ids: list[str]) -> st.SearchStrategy[str]:
    """A real custom_id with one ':'-separated part replaced by something else."""
    def mutate(args: tuple[str, int, str]) -> str:
        custom_id, index, part = args
        parts = custom_id.split(":")
        parts[index % len(parts)] = part
        return ":".join(parts)
    part = st.one_of(st.integers(-2**70, 2**70).map(str), st.text(max_size=20),
                     st.sampled_from(["", "0", "-1", "9" * 19, '"torch"', "null", "{}", "[1]", "ai-x"]))
    return st.tuples(st.sampled_from(ids), st.integers(0, 5), part).map(mutate)


def custom_ids(world: World) -> st.SearchStrategy[str]:
    table = st.sampled_from([str(i) for i in world.table_ids] + ["0", "1", "9" * 18, "9" * 30])
    shaped = st.tuples(st.sampled_from(["act", "pick", "peek", "lobby", "rematch", "skn", "sks", "indus:pc", "lb"]),
                       table, st.lists(st.text(max_size=12), max_size=3)).map(lambda t: ":".join([t[0], t[1], *t[2]]))
    return st.one_of(
        st.one_of(*[st.from_regex(pattern, fullmatch=True) for pattern in _templates(world)]),
        _mutated(world.real_ids),
        st.sampled_from(world.real_ids),
        shaped,
        st.text(max_size=100),
    ).map(lambda s: s[:100])


def users(world: World) -> st.SearchStrategy[FakeUser]:
    return st.sampled_from([world.ann, world.eve, world.mallory])


@st.composite
def clicks(draw: st.DrawFn, world: World) -> tuple[FakeUser, FakeMessage, str, int, list[str] | None, bool]:
    user = draw(users(world))
    message = draw(st.sampled_from(world.pools[user.id]))
    custom_id = draw(custom_ids(world))
    kind = draw(st.sampled_from([2, 3]))
    values = draw(st.lists(st.one_of(st.text(max_size=100), st.sampled_from(['"torch"', '"camp"', "", "step.x"])),
                           max_size=3)) if kind == 3 else None
    return user, message, custom_id, kind, values, draw(st.booleans())


# --------------------------------------------------------------------------- components


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])
@given(data=st.data())
def test_every_crafted_click_is_answered_and_a_stranger_changes_nothing(world, data):
    user, message, custom_id, kind, values, carried = data.draw(clicks(world))
    before = world.snapshot()
    rec = world.run(world.fake.craft_component(user, message, custom_id, component_type=kind, values=values,
                                               carried=carried))
    assert rec.acknowledged
    if user is not world.ann:
        assert world.snapshot() == before, (custom_id, values)


# --------------------------------------------------------------------------- commands


def _commands(world: World) -> list[tuple[str, list[dict[str, Any]]]]:
    """Every command the bot synced: (full name, its options as Discord's schema declares them)."""
    out: list[tuple[str, list[dict[str, Any]]]] = []

    def walk(prefix: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if not subs:
            out.append((prefix, options))
        for sub in subs:
            walk(f"{prefix} {sub['name']}", sub.get("options", []))

    for command in world.fake.commands[None]:
        walk(command["name"], command.get("options", []))
    return out


def honest(option: dict[str, Any], value: Any) -> bool:
    """Whether Discord's client could send ``value`` for ``option`` (the synced schema says)."""
    kind = option["type"]
    if kind == 3:
        ok = isinstance(value, str) and option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000)
    elif kind in (4, 10):
        ok = (isinstance(value, int) or (kind == 10 and isinstance(value, float))) and not isinstance(value, bool)
        ok = ok and math.isfinite(value) and abs(value) <= 2**53
        ok = ok and option.get("min_value", -math.inf) <= value <= option.get("max_value", math.inf)
    elif kind == 5:
        ok = isinstance(value, bool)
    else:
        return False  # users, channels: the fuzz sends no resolved data, so never an honest one
    return ok and ("choices" not in option or value in [c["value"] for c in option["choices"]])


VALUES = st.one_of(st.text(max_size=50), st.text(min_size=6001, max_size=6100), st.integers(-2**64, 2**64),
                   st.floats(allow_nan=True), st.booleans(), st.sampled_from(["incan-gold", "diamant", "random",
                                                                              "wins", "rating", "30d", "easy"]))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                       HealthCheck.too_slow])
@given(data=st.data())
def test_every_crafted_command_is_answered_and_an_impossible_one_is_not_valid(world, data):
    commands = _commands(world)
    name, declared = data.draw(st.sampled_from(commands))
    names = [o["name"] for o in declared] + ["bogus", "id", "preset"]
    options = data.draw(st.dictionaries(st.sampled_from(names), VALUES, max_size=4))
    user = data.draw(users(world))
    ours = [] if user is world.mallory else list(world.channels.values())
    where = data.draw(st.sampled_from([*ours, world.other, world.fake.dm_channel(user)]))
    schema = {o["name"]: o for o in declared}
    possible = all(k in schema and honest(schema[k], v) for k, v in options.items())
    before = world.snapshot()
    opened = len(world.bot.sessions.tables)
    rec = world.run(world.fake.craft_slash(user, where, name, options))
    assert rec.acknowledged
    if not possible:
        assert any(NOT_VALID in m.render() or "server channels" in m.render() for m in rec.replies), (name, options)
        assert len(world.bot.sessions.tables) == opened
    # The fake has one set of permissions per user, so Mallory manages this server too: her honest
    # /<game> cancel here may end a table (as a manager's should); anything else changes nothing.
    manager_cancels = user is world.mallory and name.endswith(" cancel") and where.guild_id == world.fake.guild_id
    if user is not world.ann and not manager_cancels:
        assert world.snapshot() == before


def test_the_fuzz_reaches_every_registered_component(world):
    """Each registered component's template is among the fuzz's sources (a new one cannot be missed)."""
    kinds = {re.match(r"[a-z]+", pattern).group(0) for pattern in _templates(world)}  # type: ignore[union-attr]
    assert kinds >= {"act", "pick", "peek", "lobby", "rematch", "skn", "sks", "indus", "lb"}
    assert len(_commands(world)) >= 20
