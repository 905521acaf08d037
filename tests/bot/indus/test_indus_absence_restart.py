"""Runs of missed decisions across restarts (issues 41 and 42), on both stores, through the real
client and the fake Discord: a correspondence game lasts days and the bot restarts in between, so
the count of decisions a person let time out in a row is read again from the stored log. A miss
before a restart and one after hand the seat to the bot (everyone told, as without the restart);
a move of the person's own starts the count again; a table nobody plays is abandoned as soon as
its people's misses in a row, before and after the restart, reach the limit."""

from __future__ import annotations

import pytest
from incan_kit import start_bot
from indus_kit import board, open_table, play_step
from test_indus_absence import BOT_DELAY, CORRESPONDENCE, everything_told, until

from bot import Bot
from db.store import Store
from engine.clock import ManualClock
from engine.session import Table
from engine.session.options import AWAY_DECISIONS, TAKEOVER_DECISIONS
from fakediscord import FakeChannel, FakeDiscord, FakeUser

AWAY_LOG = "Bo is away: the Easy bot plays for them until they come back."
ABANDONED = "Nobody was playing any more"


@pytest.fixture
def store(either_store: Store) -> Store:
    """The bot's database on each backend: both keep what the count is read from."""
    return either_store


@pytest.fixture
def people(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


def timeouts(table: Table, seat: int | None = None) -> int:
    return sum(1 for e in table.seat_events if e.kind == "timeout" and seat in (None, e.seat))


async def told(fake: FakeDiscord, bot: Bot, channel: FakeChannel, game: Table) -> str:
    """The game's log as posted to its thread, and what its board shows now."""
    return everything_told(fake, channel, (await board(fake, bot, game)).render())


async def restart(fake: FakeDiscord, bot: Bot, store: Store, clock: ManualClock, channel: FakeChannel,
                  **settings: object) -> tuple[Bot, Table]:
    """Stop the bot, an hour down, start a new one over the same store; return it and the table."""
    await fake.stop(bot)
    await clock.advance(3600)
    bot = await start_bot(fake, store, clock, **settings)
    return bot, await bot.sessions.table_in(channel.id)


async def missed_once_then_restart(fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock,
                                   people: list[FakeUser]) -> tuple[Bot, Table, int]:
    """Open a correspondence table of ``people``, let Bo (the second) miss one decision, restart the
    bot; return the new bot, the table as it loaded it and Bo's seat."""
    bo = people[1]
    bot = await start_bot(fake, store, clock, **CORRESPONDENCE)
    game = await open_table(fake, bot, table, people)
    seat = game.seat_of(bo.id)
    assert seat is not None
    await until(fake, bot, clock, game, people, bo, lambda: timeouts(game, seat) == 1)
    assert game.seats[seat].away is None
    bot, game = await restart(fake, bot, store, clock, table, **CORRESPONDENCE)
    return bot, game, seat


async def test_a_miss_before_a_restart_and_one_after_hand_the_seat_to_the_bot(
        fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock, people: list[FakeUser]) -> None:
    bo = people[1]
    bot, game, seat = await missed_once_then_restart(fake, table, store, clock, people)
    await until(fake, bot, clock, game, people, bo, lambda: timeouts(game, seat) == TAKEOVER_DECISIONS)
    assert game.seats[seat].away == "easy"  # at his second miss in a row, the first one before the restart
    assert [(e.kind, e.seat) for e in await store.seat_events(game.id) if e.kind == "away"] == [("away", seat)]
    assert (await told(fake, bot, table, game)).count(AWAY_LOG) == 1
    dms = [m.content for m in fake.dm_messages(bo) if "plays your seat until you come back" in m.content]
    assert len(dms) == 1 and "Indus" in dms[0]
    await fake.stop(bot)


async def test_a_move_after_a_restart_starts_the_count_again(
        fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock, people: list[FakeUser]) -> None:
    """Bo misses a decision, the bot restarts, Bo plays one himself: that move ends his run, so the
    next miss is his first in a row again (not his second), and the one after it, across a
    second restart, his second."""
    bo = people[1]
    bot, game, seat = await missed_once_then_restart(fake, table, store, clock, people)
    await until(fake, bot, clock, game, people, bo, lambda: seat in game.humans_owing())
    await play_step(fake, bot, game, people)  # Bo's own move
    await until(fake, bot, clock, game, people, bo, lambda: timeouts(game, seat) == 2)
    assert game.seats[seat].away is None and AWAY_LOG not in await told(fake, bot, table, game)

    bot, game = await restart(fake, bot, store, clock, table, **CORRESPONDENCE)
    await until(fake, bot, clock, game, people, bo, lambda: timeouts(game, seat) == 3)
    assert game.seats[seat].away == "easy"  # two in a row since his move, one on each side of a restart
    assert (await told(fake, bot, table, game)).count(AWAY_LOG) == 1
    await fake.stop(bot)


@pytest.mark.parametrize(("settings", "misses"), [
    (CORRESPONDENCE, TAKEOVER_DECISIONS + AWAY_DECISIONS),  # the first to miss twice is taken over
    ({"ai_delay_s": BOT_DELAY}, 2 * AWAY_DECISIONS),  # live: nobody is, both miss three in a row
], ids=["correspondence", "live"])
async def test_a_table_nobody_plays_is_abandoned_counting_the_misses_before_a_restart(
        fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock, people: list[FakeUser],
        settings: dict[str, object], misses: int) -> None:
    """Ann and Bo both stop playing; the bot restarts when they have missed two decisions each. The
    table is abandoned at the miss that makes it three in a row for everyone still playing their
    own seat, as without the restart: not three more each."""
    two = people[:2]
    timeout_s = float(settings.get("decision_timeout_s", 120))  # type: ignore[arg-type]
    bot = await start_bot(fake, store, clock, **settings)
    game = await open_table(fake, bot, table, two)

    async def nobody_plays(done: object) -> None:
        for _ in range(200):
            if done() or game.status != "playing":  # type: ignore[operator]
                return
            await fake.run(clock.advance, timeout_s + 1 if game.humans_owing() else BOT_DELAY)
        raise AssertionError("the game never got there")

    await nobody_plays(lambda: timeouts(game) == 4)
    assert game.status == "playing"
    bot, game = await restart(fake, bot, store, clock, table, **settings)
    await nobody_plays(lambda: False)
    assert game.status == "abandoned" and timeouts(game) == misses
    [ended] = [m for m in fake.channel_messages(table) if ABANDONED in m.content and "<@" in m.content]
    assert all(f"<@{user.id}>" in ended.content for user in two)  # told once, naming everyone seated
    assert (len([e for e in await store.seat_events(game.id) if e.kind == "away"])
            == (1 if "decision_timeout_s" in settings else 0))  # live tables never take a seat over
    await fake.stop(bot)
