"""Incan Gold through the real discord.py client against the in-process fake Discord.

Covers issue 5: a full game of 3 humans + 2 AI seats, secrecy of the choices, the closed-DM
fallback, refusals (stranger, double, stale, wrong channel, second game), restart mid-decision
and timers on a fake clock.
"""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from incan_kit import act_id, buttons, lobby_id, start_bot

from bot import QUIET_LOGGERS, Bot, configure_logging
from cogs.table import answer as answer_module
from db.store import Store
from engine.clock import ManualClock, SystemClock
from engine.core import replay
from engine.incan_gold import GAME
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]


def lobby_message(fake: FakeDiscord, channel: FakeChannel) -> FakeMessage:
    return next(m for m in fake.channel_messages(channel) if buttons(m, "lobby:"))


async def open_table(fake: FakeDiscord, bot: Bot, channel: FakeChannel, players: list[FakeUser],
                     bots: tuple[str, ...] = ("medium", "easy"), start: bool = True) -> Table:
    host, *others = players
    await fake.slash(host, channel, "incan new", {})
    lobby = lobby_message(fake, channel)
    for user in others:
        await fake.click(user, lobby, lobby_id(lobby, "join"))
    for level in bots:
        await fake.click(host, lobby, lobby_id(lobby, f"ai-{level}"))
    if start:
        await fake.click(host, lobby, lobby_id(lobby, "start"))
    return await bot.sessions.table_in(channel.id)


async def open_seeded(fake: FakeDiscord, bot: Bot, channel: FakeChannel, players: list[FakeUser],
                      seed: int = 42) -> Table:
    """Open a table of three humans and start it on a pinned seed (the first cards are known:
    a test counting one card's edits must not meet a collapse that opens a new expedition)."""
    game = await open_table(fake, bot, channel, players, bots=(), start=False)
    await bot.sessions.start(game.id, players[0].id, seed=seed)
    return game


def choice_for(table: Table, seat: int) -> str:
    return "camp" if table.state.carried[seat] >= 8 else "torch"


def expedition(fake: FakeDiscord, table: Table) -> FakeMessage:
    """Return the current expedition's public message (the one with My status)."""
    return [m for m in fake.channel_messages(table.channel_id) if buttons(m, "peek:")][-1]


async def decide(fake: FakeDiscord, table: Table, user: FakeUser, action: str) -> None:
    """Choose with Torch / Camp on the expedition's public message (as everyone does)."""
    public = expedition(fake, table)
    await fake.click(user, public, act_id(public, action))


async def play_to_the_end(fake: FakeDiscord, table: Table, users: list[FakeUser]) -> None:
    by_id = {u.id: u for u in users}
    while table.status == "playing":
        for seat in table.humans_owing():
            await decide(fake, table, by_id[table.seats[seat].user_id], choice_for(table, seat))


async def test_full_game_three_humans_two_bots(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players)
    assert sum(s.is_ai for s in game.seats) == 2 and game.status == "playing"
    await play_to_the_end(fake, game, players)
    summary = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert len(summary) == 1
    text = summary[0].render()
    for seat in game.seats:
        assert seat.display_name in text
    assert "Winner" in text or "Shared win" in text
    # The stored log replays to the same result the bot announced.
    log = await store.load_game(game.id)
    final = replay(GAME, 5, log.game.seed, [(a.seat, a.payload) for a in log.actions])
    results = await store.results(game.id)
    assert [r.score for r in results] == GAME.result(final)["scores"]
    # Rematch opens a new lobby with the same people.
    await fake.click(players[1], summary[0], buttons(summary[0], "rematch:")[0])
    again = await bot.sessions.table_in(table.id)
    assert again.status == "lobby" and len(again.seats) == 5
    await fake.stop(bot)


async def test_a_choice_never_shows_in_public_before_the_reveal(caplog):
    """Two runs with the same seed differ only in Ann's first choice: until the next player
    chooses, every public message version must be identical, and no log line names a choice."""
    configure_logging("DEBUG")  # the most talkative configuration a server owner can choose
    caplog.set_level(logging.DEBUG)
    texts = {}
    for first in ("torch", "camp"):
        with FakeDiscord() as fake:
            users = [fake.user(name) for name in ("Ann", "Bo", "Cy")]
            channel = fake.text_channel("table")
            s = await Store.open(":memory:")
            clock = ManualClock()
            bot = await start_bot(fake, s, clock)
            await fake.slash(users[0], channel, "incan new", {})
            lobby = lobby_message(fake, channel)
            for user in users[1:]:
                await fake.click(user, lobby, lobby_id(lobby, "join"))
            game = await bot.sessions.table_in(channel.id)
            await bot.sessions.start(game.id, users[0].id, seed=42)  # same seats and cards in both runs
            await decide(fake, game, users[0], first)
            await fake.run(clock.advance, 60)
            texts[first] = fake.public_texts()
            assert game.version == 2  # the first card and Ann's choice: no reveal yet
            reply = fake.ephemeral_replies(users[0])[-1]  # her choice, confirmed to her alone
            assert f"You chose **{ {'torch': '🔦', 'camp': '⛺'}[first]} {first.capitalize()}" in reply.render()
            await fake.stop(bot)
            await s.close()
    assert texts["torch"] == texts["camp"]
    for record in caplog.records:
        message = record.getMessage().lower()
        assert "torch" not in message and "camp" not in message, message
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.NOTSET)


async def test_closed_dms_change_nothing_everyone_decides_on_the_public_message(fake, table, store, clock, players):
    cy = players[2]
    fake.close_dms(cy)
    bot = await start_bot(fake, store, clock)
    await fake.slash(players[0], table, "incan new", {})
    lobby = lobby_message(fake, table)
    await fake.click(players[1], lobby, lobby_id(lobby, "join"))
    rec = await fake.click(cy, lobby, lobby_id(lobby, "join"))
    # Answered by the lobby's redraw (exempt from rate limits); no DM is needed to play, none tried.
    assert rec.callbacks == [7] and "Cy" in lobby.render() and rec.replies == []
    await fake.click(players[0], lobby, lobby_id(lobby, "start"))
    game = await bot.sessions.table_in(table.id)
    # The expedition's new message names everyone inside (each owes a choice): nobody is singled
    # out, so who has chosen stays secret; it notifies them, DMs closed or not.
    opening = expedition(fake, game)
    assert opening.notified == {user.id for user in players}
    assert all(f"<@{user.id}>" in opening.content for user in players)
    await play_to_the_end(fake, game, players)
    assert game.status == "finished"
    assert fake.dm_messages(cy) == [] and fake.invalid_requests == 0
    await fake.stop(bot)


async def test_refusals_are_private_and_change_nothing(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    ann, bo, _ = players
    game = await open_table(fake, bot, table, players, bots=())
    version = game.version
    stranger = fake.user("Stranger")
    other = fake.text_channel("elsewhere")

    rec = await fake.slash(ann, table, "incan new", {})  # a second game in the same channel
    assert rec.ephemeral and "already has a table" in rec.replies[-1].render()
    rec = await fake.slash(stranger, other, "incan join", {})  # wrong channel: no table there
    assert rec.ephemeral and "no table" in rec.replies[-1].render()
    public = [m for m in fake.channel_messages(table) if buttons(m, "peek:")][-1]
    rec = await fake.click(stranger, public, buttons(public, "peek:")[0])  # a stranger's click
    assert rec.ephemeral and "not seated" in rec.replies[-1].render()
    rec = await fake.slash(stranger, table, "incan cancel", {})  # not the host, cannot manage
    assert rec.ephemeral and "Only the host" in rec.replies[-1].render()

    # Two private prompts for Ann: the first click counts, the second is a double click.
    for _ in range(2):
        await fake.click(ann, public, buttons(public, "peek:")[0])
    first, second = fake.ephemeral_replies(ann)[-2:]
    await fake.click(ann, first, act_id(first, "torch"))
    rec = await fake.click(ann, second, act_id(second, "torch"))
    # She is told what she chose, on her private panel (redrawn: no new message).
    assert rec.replies == [] and "You already chose **🔦 Torch (stay)** for this card" in second.render()
    assert game.version == version + 1

    # Bo's private prompt goes stale once the reveal moves the game on.
    for _ in range(2):  # his newer panel is the one his press on the board redraws
        await fake.click(bo, public, buttons(public, "peek:")[0])
    stale = fake.ephemeral_replies(bo)[-2]
    for user in players[1:]:
        await decide(fake, game, user, "torch")
    moved = game.version
    rec = await fake.click(bo, stale, act_id(stale, "camp"))
    # Refused on the stale prompt itself, redrawn as the game stands now (the next card's choice).
    assert rec.callbacks == [7] and "That choice is over" in stale.render() and act_id(stale, "camp")
    assert game.version == moved
    assert len(await store.actions(game.id)) == moved
    await fake.stop(bot)


async def test_restart_mid_decision_then_the_public_buttons_still_work(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players)
    await decide(fake, game, players[0], "torch")
    public = expedition(fake, game)
    window = game.window
    await fake.stop(bot)

    bot2 = await start_bot(fake, store, clock)
    revived = await bot2.sessions.table_in(table.id)
    assert revived.window == window and revived is not game
    rec = await fake.click(players[1], public, act_id(public, "torch"))  # a button from before the restart
    assert rec.replies[-1].ephemeral and "You chose **🔦 Torch" in rec.replies[-1].render()
    await play_to_the_end(fake, revived, players)
    log = await store.load_game(revived.id)
    final = replay(GAME, 5, log.game.seed, [(a.seat, a.payload) for a in log.actions])
    assert GAME.dumps(final) == GAME.dumps(revived.state)
    assert [r.score for r in await store.results(revived.id)] == GAME.result(final)["scores"]
    await fake.stop(bot2)


async def test_timers_remind_privately_then_return_to_camp(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players, bots=())
    await decide(fake, game, players[0], "torch")
    late = [players[1], players[2]]
    public_before = len(fake.public_texts())
    due = f"<t:{int(game.deadline)}:R>"
    round_message = next(m for m in fake.channel_messages(table) if buttons(m, "peek:"))
    assert due in round_message.render()  # the public message shows the deadline, live
    await fake.click(players[1], round_message, buttons(round_message, "peek:")[0])
    assert due in fake.ephemeral_replies(players[1])[-1].render()  # and so does each private status
    await fake.run(clock.advance, 90)
    for user in late:
        reminder = [m for m in fake.dm_messages(user) if "the card closes" in m.content]
        assert len(reminder) == 1
        assert "you go back to camp with what you carry" in reminder[0].content  # what the deadline does
        # The reminder names the table and links to its message.
        assert "Incan Gold" in reminder[0].content and f"<#{table.id}>" in reminder[0].content
        assert f"/{table.id}/{round_message.id}" in reminder[0].content and due in reminder[0].content
    assert not any("the card closes" in t for t in fake.public_texts()[public_before:])
    await fake.run(clock.advance, 30)
    reveal = next(e for e in (await _events(store, game)) if e["type"] == "reveal")
    seats = [game.seat_of(u.id) for u in players]
    assert [reveal["choices"][s] for s in seats] == ["torch", "camp", "camp"]
    assert any("Bo did not decide in time" in t for t in fake.public_texts())
    for user in late:
        # The player it happened to is told privately (once per absence).
        told = [m for m in fake.dm_messages(user) if "your time ran out" in m.content]
        assert len(told) == 1 and "you returned to camp" in told[0].content
    # Bo's private status (opened before the timeout, still redrawable) says what he banked.
    assert "your tent now holds" in fake.ephemeral_replies(players[1])[-1].render()
    await fake.stop(bot)


async def _events(store: Store, game: Table) -> list[dict]:
    log = await store.load_game(game.id)
    state = GAME.setup(len(log.seats), log.game.seed, log.game.options)
    events = []
    for row in log.actions:
        state, more = GAME.apply(state, row.seat, row.payload)
        events += more
    return events


async def test_an_unexpected_failure_is_answered_privately_and_logged(fake, table, store, clock, players, caplog):
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players, bots=())
    version = game.version

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    bot.sessions.act = broken  # type: ignore[method-assign]
    public = expedition(fake, game)
    with fake.expect_error("disk on fire"):
        rec = await fake.click(players[0], public, act_id(public, "torch"))
    assert rec.replies[-1].ephemeral and "went wrong" in rec.replies[-1].render()
    assert any("disk on fire" in (r.exc_text or "") or r.exc_info for r in caplog.records if r.levelname == "ERROR")
    assert not [r for r in caplog.records if "torch" in r.getMessage()]  # the log never names the choice
    assert game.version == version
    await fake.stop(bot)


def calls_since(fake: FakeDiscord, start: int, method: str, route_part: str) -> list[str]:
    """Return the paths of REST calls made since index ``start`` with this method and route part."""
    return [c.path for c in fake.rest_calls[start:] if c.method == method and route_part in c.route]


def limited_since(fake: FakeDiscord, start: int) -> list[str]:
    """Return the rate-limited REST calls (everything but interaction endpoints) made since ``start``."""
    return [f"{c.method} {c.path}" for c in fake.rest_calls[start:]
            if not c.route.startswith(("/interactions/", "/webhooks/"))]


async def test_a_press_is_answered_privately_and_the_last_one_by_the_reveal(fake, table, store, clock, players,
                                                                            monkeypatch):
    """A card costs no rate-limited call when a person decides last: each press is answered by its
    own interaction response, the board redrawn with the count of decisions made, and her private
    confirmation follows through the same interaction; the last press is answered by the reveal."""
    monkeypatch.setattr(answer_module, "ACK_GUARD_S", 60.0)  # a busy test machine must not make the move "slow"
    bot = await start_bot(fake, store, clock)
    game = await open_seeded(fake, bot, table, players)
    ann, bo, cy = players
    public = expedition(fake, game)
    start = len(fake.rest_calls)
    rec = await fake.click(ann, public, act_id(public, "torch"))
    assert rec.callbacks == [7]  # UPDATE_MESSAGE: the board, with how many have chosen now
    assert "1 of 3 has chosen" in public.render()
    panel, = rec.followups  # and privately, through the same interaction: her status and choice
    assert panel.flags & 64 and "You chose **🔦 Torch" in panel.render()
    assert "You chose" not in "".join(fake.public_texts())
    await decide(fake, game, bo, "torch")
    window, cards = game.window, len(GAME.view(game.state, None)["path"])
    rec = await fake.click(cy, public, act_id(public, "camp"))  # the last choice: the reveal
    assert game.window != window and rec.callbacks == [7]  # UPDATE_MESSAGE: the next card on this message
    assert len(GAME.view(game.state, None)["path"]) == cards + 1
    assert any(c.startswith(f"act:{game.id}:{game.window}:") for c in public.custom_ids)
    assert limited_since(fake, start) == []  # not one rate-limited call for the whole card
    await fake.stop(bot)


async def test_a_slow_move_is_deferred_in_time_then_drawn(fake, table, store, clock, players, monkeypatch):
    """When the move outlasts the guard, the click is deferred first (never a failed interaction)."""
    monkeypatch.setattr(answer_module, "ACK_GUARD_S", 0.0)  # every move is "slow": the guard always wins
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players, bots=())
    ann = players[0]
    public = [m for m in fake.channel_messages(table) if buttons(m, "peek:")][-1]
    for _ in range(2):  # two private prompts: the second click on them is a double click
        await fake.click(ann, public, buttons(public, "peek:")[0])
    first, second = fake.ephemeral_replies(ann)[-2:]
    start = len(fake.rest_calls)
    rec = await fake.click(ann, first, act_id(first, "torch"))
    assert rec.callbacks == [6]  # deferred ...
    assert len(calls_since(fake, start, "PATCH", "/webhooks/")) == 1  # ... then the prompt edited
    assert "You chose **🔦 Torch" in first.render()
    version = game.version
    rec = await fake.click(ann, second, act_id(second, "torch"))
    assert game.version == version  # refused at once: her panel says what she chose
    assert "You already chose **🔦 Torch (stay)** for this card" in second.render()
    await fake.stop(bot)


async def test_a_card_a_bot_reveals_is_one_edit_and_waiting_costs_nothing(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock, ai_delay_s=5.0)
    # A pinned seed: the card revealed must not end the expedition (that posts the chapter to the
    # game's log thread and opens a new expedition message: more calls, rightly).
    game = await open_table(fake, bot, table, players, bots=("easy",), start=False)
    await fake.run(bot.sessions.start, game.id, players[0].id, 42)
    public = expedition(fake, game)
    window = game.window
    start = len(fake.rest_calls)
    for user in players:
        await decide(fake, game, user, "torch")
    await fake.run(clock.advance, 1)  # people waiting for the bot: no redraw of any counter
    assert game.window == window and limited_since(fake, start) == []
    await fake.run(clock.advance, 5)  # the bot decides last: the reveal is one edit
    assert game.window != window
    assert limited_since(fake, start) == [f"PATCH /channels/{table.id}/messages/{public.id}"]
    await fake.stop(bot)


async def test_a_reveal_whose_answer_fails_still_answers_the_press_and_shows_the_card(fake, table, store, clock,
                                                                                    players, monkeypatch):
    """If the response carrying the reveal fails, the press is still acknowledged (no "interaction
    failed") and the public message gets the reveal by an edit."""
    monkeypatch.setattr(answer_module, "ACK_GUARD_S", 60.0)
    bot = await start_bot(fake, store, clock)
    game = await open_seeded(fake, bot, table, players)
    ann, bo, cy = players
    for user in (ann, bo):
        await decide(fake, game, user, "torch")
    original = discord.InteractionResponse.edit_message
    failures = []

    async def failing_once(self: discord.InteractionResponse, **fields: Any) -> Any:
        if not failures:
            failures.append(fields)
            raise discord.HTTPException(SimpleNamespace(status=500, reason="Server Error"), "Discord hiccup")
        return await original(self, **fields)

    monkeypatch.setattr(discord.InteractionResponse, "edit_message", failing_once)
    public = expedition(fake, game)
    window = game.window
    start = len(fake.rest_calls)
    rec = await fake.click(cy, public, act_id(public, "torch"))  # the reveal: its answer fails
    assert failures and rec.acknowledged and game.window != window
    assert limited_since(fake, start) == [f"PATCH /channels/{table.id}/messages/{public.id}"]
    assert any(c.startswith(f"act:{game.id}:{game.window}:") for c in public.custom_ids)
    await fake.stop(bot)


def test_a_click_answers_only_a_redraw_of_what_it_pressed_and_only_until_it_is_done():
    """A click travels with its session call's update (``origin``) and answers a redraw of the
    message it pressed; a timer's update has no origin, and once the click is done, a redraw drawn
    from its update (e.g. a queued edit) makes a plain edit, never an answer to the old (possibly
    expired) interaction."""
    interaction = SimpleNamespace(message=SimpleNamespace(id=5))
    answer = answer_module.Answer(interaction)  # type: ignore[arg-type]
    assert answer_module.answer_of(answer) is answer
    assert answer_module.answer_of(None) is None and answer_module.answer_of(object()) is None
    assert answer.pressed(5) and not answer.pressed(6)
    answer.closed = True  # what answering_click does when the handler returns
    assert answer_module.answer_of(answer) is None and not answer.pressed(5)


async def test_on_the_real_clock_bot_seats_play_and_every_step_is_drawn(fake, table, store, players):
    """The production clock end to end: AI turns run on real timers and what they commit is shown."""
    bot = await start_bot(fake, store, SystemClock(), ai_delay_s=0.01)
    ann = players[0]
    game = await open_table(fake, bot, table, [ann], bots=("medium", "easy"))
    seat = game.seat_of(ann.id)
    def summary_posted() -> bool:
        return any(buttons(m, "rematch:") for m in fake.channel_messages(table))

    for _ in range(2000):  # real time: at most ~20 s
        if game.status != "playing" and summary_posted() and not game.lock.locked():
            break
        live = [m for m in fake.channel_messages(table) if buttons(m, "peek:")]
        if game.status != "playing" or not live:  # between expeditions, or over: the summary comes
            await asyncio.sleep(0.01)
            continue
        public = live[-1]
        current = any(c.startswith(f"act:{game.id}:{game.window}:") for c in public.custom_ids)
        if seat in game.humans_owing() and current:
            await decide(fake, game, ann, choice_for(game, seat))
        await asyncio.sleep(0.01)
    assert game.status == "finished"
    # The session marks the table finished before its listener posts the summary, both under the
    # table's lock in the AI turn's timer task: the loop above may have seen "finished" in between.
    async with game.lock:
        pass
    summary = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert summary and "Incan Gold — final scores" in summary[-1].render()
    await fake.stop(bot)


async def test_how_an_expedition_ended_stays_on_its_own_message(fake, table, store, clock, players):
    """The card that ends an expedition comes with the next one's start: the collapse is shown on the
    closed message of the expedition it ended, not atop the next one's board (issue 43)."""
    bot = await start_bot(fake, store, clock)
    game = await open_seeded(fake, bot, table, players)
    while game.state.round == 1:
        for seat in game.humans_owing():
            await decide(fake, game, next(u for u in players if u.id == game.seats[seat].user_id), "torch")
    second = [m for m in fake.channel_messages(table) if buttons(m, "peek:")][-1]
    assert "expedition 2/5" in second.render().lower()
    assert "collapsed" not in second.render() and "ended" not in second.render()
    # The first expedition's message is closed: no Choose, its final path and how it ended stay.
    first = next(m for m in fake.channel_messages(table) if "expedition 1/5" in m.render().lower())
    assert not first.custom_ids
    # Everyone pressed on: expedition 1 ended in a collapse.
    assert "the temple collapsed" in first.render() and "🧟" in first.render()
    await fake.stop(bot)
