"""The PostgreSQL server goes away while a game is played, and comes back (the issue's "Bad input":
"Lost connection while running: retries with backoff, clicks get 'the bot is reconnecting, try
again' privately, nothing acknowledged is lost, and the bot resumes by itself when the database
returns").

A real outage: the test's own server is stopped (``pg_ctl stop -m fast`` ends every session) and
started again on the same port and data, under a bot that keeps running on the real clock. The
decision timer comes due during the outage: the timers run under a lease in the database, whose
renewal retries with backoff; once the server is back the lease is renewed and the stored
deadline plays the timeout, once, with no restart.
The second test runs a command of every kind, a button and an @mention during an outage: each is
answered (privately, but the mention) and nothing logs an ERROR.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Callable

import pytest
from incan_kit import act_id, moves_message, start_bot
from pg_kit import PgServer
from table_kit import incan_table

from bot import Bot
from db.store import Store
from engine.clock import SystemClock
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeUser
from i18n import t

DECISION_S = 8.0
"""Long enough that stopping the server (well under a second, unless the machine is very busy)
ends before the decision timer comes due, short enough to keep the test quick."""
WAIT_S = 40.0
"""The most any step waits for the bot to act by itself (generous: the machine is shared)."""

LEASE_RETRY = re.compile(r"leases: renewal failed \(Unavailable: .*\); retrying")


@pytest.fixture
async def pg_store(pg_outage_server: PgServer) -> AsyncIterator[Store]:
    store = await Store.connect(pg_outage_server.new_database())
    yield store
    await store.close()


async def until(done: Callable[[], bool], what: str) -> None:
    """Wait (real time) until ``done()``; fail naming ``what`` after WAIT_S."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not done():
        assert loop.time() < deadline, f"gave up waiting: {what}"
        await asyncio.sleep(0.05)


async def torch(fake: FakeDiscord, game: Table, ann: FakeUser) -> list[str]:
    """Ann presses on, on the expedition's public message; return the private replies she got
    beyond her word on what she chose (the reveal answers her press; her word follows it)."""
    public = moves_message(fake, game.channel_id)
    rec = await fake.click(ann, public, act_id(public, "torch"))
    assert rec.acknowledged
    word = "You chose **🔦 Torch (stay)**."
    return [m.content for m in rec.replies if m.ephemeral_to == ann.id and m.content != word]


async def test_an_outage_is_ridden_out_and_the_game_goes_on_by_itself(
        fake: FakeDiscord, table: FakeChannel, ann: FakeUser, pg_outage_server: PgServer, pg_store: Store,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    bot: Bot = await start_bot(fake, pg_store, SystemClock(), decision_timeout_s=DECISION_S,  # type: ignore[arg-type]
                               reminder_before_s=600.0)  # no reminder: the decision timer is the one timer
    game = await incan_table(fake, bot, table, [ann], bots=("easy",))
    ann_seat = game.seat_of(ann.id)
    for _ in range(2):  # acknowledged moves (the bot's choice comes with each, at once)
        assert await torch(fake, game, ann) == []
    assert game.humans_owing() == [ann_seat] and game.status == "playing"
    acknowledged = [(a.seat, a.payload) for a in await pg_store.actions(game.id)]
    assert len(acknowledged) == game.version
    window, version = game.window, game.version

    pg_outage_server.stop()
    assert game.window == window, "the decision timer fired before the server was down: machine too busy"

    # (a) a click during the outage: a private "reconnecting", nothing changes
    replies = await torch(fake, game, ann)
    assert replies == [t("error.reconnecting")]
    assert (game.window, game.version) == (window, version)
    assert [m for m in fake.channel_messages(table) if m.ephemeral_to is None][-1] is moves_message(fake, table.id)

    # (c) the decision timer comes due during the outage and nothing is played. On PostgreSQL the
    # timers run under a lease (several processes may share the database): the lease cannot be
    # renewed, so the renewal is retried with backoff (warnings) and the process stops running the
    # table's timers once the lease may have lapsed; the stored deadline re-arms them afterwards.
    def renewal_failures() -> list[str]:
        return [r.getMessage() for r in caplog.records if LEASE_RETRY.search(r.getMessage())]

    await asyncio.sleep(DECISION_S + 2.0)  # the deadline is past: it was set before the stop
    await until(lambda: len(renewal_failures()) >= 1, "the lease renewal to fail and be retried")
    assert (game.window, game.version) == (window, version)  # nothing happened meanwhile

    pg_outage_server.start()
    # The bot, not restarted, goes on by itself: the lease renewed, the timeout is played for Ann, once.
    await until(lambda: game.window != window, "the timeout to be played once the server is back")
    assert game.status == "playing" and game.humans_owing() == [ann_seat]
    await until(lambda: act_id(moves_message(fake, table.id), "torch").split(":")[2] == str(game.window),
                "the expedition's message to offer the new choice")
    assert any(e.seat == ann_seat and e.kind == "timeout" and e.version == version for e in game.seat_events)
    after_timeout = game.version
    assert await torch(fake, game, ann) == []  # and a new click is applied
    assert game.version > after_timeout

    stored = [(a.seat, a.payload) for a in await pg_store.actions(game.id)]
    assert stored[: len(acknowledged)] == acknowledged  # nothing acknowledged is lost
    assert len(stored) == game.version
    rules = game.spec.game
    assert game.seed is not None
    state = rules.setup(len(game.seats), game.seed, game.options)
    for seat, action in stored:
        state, _ = rules.apply(state, seat, action)
    assert rules.dumps(state) == rules.dumps(game.state)  # the store replays to what the players see
    timeouts = [(e.seat, e.version) for e in await pg_store.seat_events(game.id) if e.kind == "timeout"]
    assert timeouts == [(ann_seat, version)]

    # (b) warnings only: nothing logged an ERROR (with or without a traceback)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    await fake.stop(bot)


COMMANDS = [("incan new", {}), ("incan status", {}), ("tables", {}), ("leaderboard", {}), ("stats", {}),
            ("history", {}), ("game log", {"id": 1}), ("settings decision_time", {}), ("settings language", {})]
"""A command of each kind that reads or writes the store (``/help`` and the rules read nothing)."""


@pytest.mark.parametrize("cached", [False, True], ids=["first-use", "language-read"])
async def test_commands_and_buttons_during_an_outage_answer_reconnecting_privately(
        fake: FakeDiscord, table: FakeChannel, pg_outage_server: PgServer, pg_store: Store,
        caplog: pytest.LogCaptureFixture, cached: bool) -> None:
    caplog.set_level(logging.WARNING)
    boss = fake.user("Boss", manage_guild=True)
    bot = await start_bot(fake, pg_store, SystemClock())
    [shown] = (await fake.slash(boss, table, "help", {})).replies  # a message of the bot's to click on
    if cached:  # the server's language is read once: then the commands' own reads meet the outage
        await fake.slash(boss, table, "game log", {"id": 99})

    pg_outage_server.stop()
    answers = {}
    for command, options in COMMANDS:
        rec = await fake.slash(boss, table, command, options)
        answers[command] = [(m.content, m.ephemeral_to == boss.id) for m in rec.replies if not m.deleted]
    # A leaderboard page button (crafted onto that message: what matters is that its callback reads the store)
    rec = await fake.craft_component(boss, shown, "lb:all:wins:all:1:n")
    answers["page button"] = [(m.content, m.ephemeral_to == boss.id) for m in rec.replies if not m.deleted]

    # An @mention still gets its pointer to /help (in Discord's language when the server's is unread)
    await fake.say(boss, table, f"<@{fake.bot_user.id}> help?")
    await bot.hub.outbox.drained()
    [pointer] = [m for m in fake.channel_messages(table) if int(m.data["author"]["id"]) == fake.bot_user.id
                 and "/help" in m.content]
    assert pointer.ephemeral_to is None

    if cached:  # shown from memory, rightly: nothing to read
        assert answers.pop("settings language") == [(t("settings.language_auto", language="English"), True)]
    assert answers == {what: [(t("error.reconnecting"), True)] for what in answers}
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    pg_outage_server.start()  # the bot closes its store cleanly
    await fake.stop(bot)
