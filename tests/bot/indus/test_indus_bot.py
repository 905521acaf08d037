"""Indus through the real discord.py client against the in-process fake Discord (issue 6).

Scripted humans always take the first option the board message offers (the first space of the
first piece, the first move button, Keep before Return), which is the first legal action; AI
seats play with no delay. Covers: 2- and 4-seat games from /indus new to the summary, the
2-player own-colour capture choice, restart mid-turn, refusals, the turn timer, and the layout
option.
"""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from incan_kit import buttons, start_bot
from indus_kit import (
    TINY_PNG,
    action_of,
    board,
    check_controls,
    first_choice,
    mover,
    open_table,
    play_step,
    play_to_the_end,
    take,
)
from PIL import Image
from table_kit import live_controls

from cogs.indus.words import board_png_available
from cogs.table.messages import private as private_module
from db.store import Store
from engine.clock import SystemClock
from engine.core import replay
from engine.indus import GAME
from engine.indus.generator import generate_layout
from engine.session import Table
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from pictures.indus import board as indus_board

KEEP_SEED = 16  # 2 players, both taking the first legal action: an own-colour capture at turn 23


@pytest.fixture
def players(fake: FakeDiscord) -> list[FakeUser]:
    return [fake.user("Ann"), fake.user("Bo")]


def pin_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The Start button draws the game seed with secrets.randbits: pin it."""
    monkeypatch.setattr("engine.session.opening.secrets.randbits", lambda bits: seed)


async def final_checks(fake: FakeDiscord, store: Store, channel: FakeChannel, table: Table,
                       picture: bool = True) -> FakeMessage:
    """The summary is posted once, ruin by ruin, and the stored log replays to the announced scores;
    it carries the final picture unless the image module is away (``picture=False``)."""
    [summary] = [m for m in fake.channel_messages(channel) if buttons(m, "rematch:")]
    text = summary.render()
    for seat in table.seats:
        assert seat.display_name in text
    assert "Winner" in text or "Shared win" in text
    for ruin in GAME.view(table.state, None)["layout"]["ruins"]:
        assert f"**{ruin['id']}**" in text
    log = await store.load_game(table.id)
    final = replay(GAME, len(table.seats), log.game.seed, [(a.seat, a.payload) for a in log.actions],
                   table.options)
    assert GAME.dumps(final) == GAME.dumps(table.state)
    assert [r.score for r in await store.results(table.id)] == GAME.result(final)["scores"]
    # the final board with the winners marked (issue 13, item 8; the ruins are the message's text)
    if not picture:
        assert not summary.files
        return summary
    assert [f.filename for f in summary.files] == ["results.png"]
    assert summary.embeds[0]["image"]["url"] == "attachment://results.png"
    assert Image.open(io.BytesIO(summary.files[0].data)).size == indus_board.SIZE
    return summary


async def test_two_players_full_game_with_own_colour_choice(fake, table, store, clock, players, monkeypatch):
    pin_seed(monkeypatch, KEEP_SEED)
    monkeypatch.setattr(private_module, "AWAY_AFTER_S", 0.0)  # everyone counts as away: every turn is nudged
    monkeypatch.setattr("cogs.indus.render.board_png", lambda view, names=None: TINY_PNG)  # speed only
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players)
    assert len(game.seats) == 2 and game.status == "playing"
    # Setup in 2 players: each player places one of four start pieces of two colours: piece buttons.
    first = await board(fake, bot, game)
    assert len(buttons(first, "pick:")) == 4 and "🔵" in first.render() and "🟢" in first.render()
    taken = []
    offered = None
    while game.status == "playing":
        if game.state.phase == "keep" and offered is None:  # the first time: Return (later: Keep)
            message = await board(fake, bot, game)
            offered = message.render()
            ret = next(c for c in buttons(message, "act:") if json.loads(c.split(":", 3)[3])["do"] == "return")
            taken.append(await take(fake, mover(game, players), message, ret, None))
            continue
        taken.append(await play_step(fake, bot, game, players))
    assert offered is not None and "captured their own" in offered and "Keep the" in offered
    assert any(a["do"] == "return" for a in taken)
    assert any(a["do"] == "move" for a in taken) and any(a["do"] == "place" for a in taken)
    assert any("Reroll" in text for text in (await board(fake, bot, game)).all_texts())
    await final_checks(fake, store, table, game)
    assert live_controls(fake, table, players) == []
    # Every human (away, see above) got turn nudges by DM with a link to the board message.
    ref = await bot.hub.message_ref(game, "board")
    for user in players:
        assert any(f"/{ref[1]}" in m.render() for m in fake.dm_messages(user))
    await fake.stop(bot)


async def test_four_seats_two_humans_two_bots_to_the_summary(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players, bots=("easy", "medium"))
    assert len(game.seats) == 4 and sum(s.is_ai for s in game.seats) == 2
    assert board_png_available()  # the real image is attached and shown in the embed
    first = await board(fake, bot, game)
    assert [f.filename for f in first.files] == ["board.png"] and first.files[0].data[:4] == b"\x89PNG"
    assert first.embeds[0]["image"]["url"] == "attachment://board.png"
    await play_to_the_end(fake, bot, game, players)
    summary = await final_checks(fake, store, table, game)
    assert "🤖" in summary.render()
    # The die was shown to everyone: the board message's versions carry the rolls.
    message = await board(fake, bot, game)
    assert any("rolled 🎲" in text for text in message.all_texts())
    # Rematch opens a new lobby with the same seats.
    await fake.click(players[1], summary, buttons(summary, "rematch:")[0])
    again = await bot.sessions.table_in(table.id)
    assert again.status == "lobby" and len(again.seats) == 4
    await fake.stop(bot)


async def test_restart_mid_turn_continues_from_the_old_buttons(fake, table, store, clock, players):
    players = players[:1]  # 3 seats: one human and two bots (the bots keep the test short)
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players, bots=("easy", "medium"))
    while not (game.state.phase == "move" and game.humans_owing()):
        await play_step(fake, bot, game, players)  # through setup to a human's first roll
    old = await board(fake, bot, game)
    cid, value = first_choice(old)
    window, version = game.window, game.version
    await fake.stop(bot)

    bot2 = await start_bot(fake, store, clock)
    revived = await bot2.sessions.table_in(table.id)
    assert revived is not game and (revived.window, revived.version) == (window, version)
    await take(fake, mover(revived, players), old, cid, value)  # the button from before the restart
    assert revived.version > version
    # The log was rebuilt from the stored actions: every placement is told once, in the game's
    # thread (the rounds before) or on the board (since the last round).
    [thread] = fake.threads(table)
    told = [line for m in fake.channel_messages(thread) for line in m.content.splitlines()]
    told += old.render().splitlines()
    places = sum(1 for a in (await store.load_game(revived.id)).actions if isinstance(a.payload, dict)
                 and a.payload.get("do") == "place")
    assert sum("placed a" in line for line in told) == places > 0
    await play_to_the_end(fake, bot2, revived, players)
    await final_checks(fake, store, table, revived)
    await fake.stop(bot2)


async def test_refusals_are_private_and_change_nothing(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players)
    while game.state.phase == "setup":  # then 2 colours x 3 ranks in reserve: more pieces than menus
        await play_step(fake, bot, game, players)
    stranger = fake.user("Stranger")
    message = await board(fake, bot, game)
    assert len(buttons(message, "indus:pc:")) == 6
    me, other = mover(game, players), next(u for u in players if u is not mover(game, players))
    version = game.version
    cid, value = first_choice(message)

    for user, expected in ((stranger, "not seated"), (other, "nothing for you to decide")):
        rec = await fake.select(user, message, cid, [value])
        assert rec.replies[-1].ephemeral and expected in rec.replies[-1].render()
        piece = buttons(message, "indus:pc:")[-1]
        rec = await fake.click(user, message, piece)
        assert rec.replies[-1].ephemeral and expected in rec.replies[-1].render()
    assert game.version == version

    # The mover picks another piece (step one: applies nothing), then its space (step two).
    piece = buttons(message, "indus:pc:")[-1]
    await fake.click(me, message, piece)
    assert game.version == version
    cid, value = first_choice(message)
    action = action_of(cid, value)
    assert f"{action['colour']}{action['rank']}" == piece.rsplit(":", 1)[1]

    # A double click: both clicks reach the bot; one is applied, the other refused privately.
    recs = await asyncio.gather(fake.select(me, message, cid, [value]), fake.select(me, message, cid, [value]))
    refused = [r for r in recs if r.replies and r.replies[-1].ephemeral]
    assert len(refused) == 1
    assert any(s in refused[0].replies[-1].render() for s in ("That choice is over", "nothing for you"))
    assert game.version == version + 2  # the placement, and the roll of the die it leads to
    assert len(await store.actions(game.id)) == game.version
    frame = GAME.view(game.state, None)["frame"]
    assert frame[action["space"]] == {"colour": action["colour"], "rank": action["rank"]}

    # The die was rolled: the board carries the mover's move buttons, and only the mover's clicks work.
    assert mover(game, players) is me and game.state.phase == "move"
    rec = await fake.click(other, message, buttons(message, "act:")[0])
    assert rec.replies[-1].ephemeral and "nothing for you to decide" in rec.replies[-1].render()
    await fake.stop(bot)


async def test_timeout_reminds_then_the_easy_bot_plays_the_turn(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players)
    while game.state.phase == "setup":
        await play_step(fake, bot, game, players)
    late = mover(game, players)
    seat, turn = game.humans_owing()[0], game.state.turn
    deleted = await board(fake, bot, game)
    deleted.deleted = True  # someone deleted the board message: the next step posts a new one
    due = f"<t:{int(game.deadline)}:R>"
    assert due in (await board(fake, bot, game)).render()  # the board shows the deadline, live
    await fake.run(clock.advance, 90)
    reminders = [m for m in fake.dm_messages(late) if "decision is due" in m.content]
    assert len(reminders) == 1 and "Indus" in reminders[0].content and due in reminders[0].content
    assert "the Easy bot plays what you owe" in reminders[0].content  # what the deadline does
    await fake.run(clock.advance, 30)
    # One timer: the Easy bot placed, the die was rolled and it moved -- the whole turn.
    assert game.state.turn == turn + 1 and game.state.seat != seat
    message = await board(fake, bot, game)
    assert message is not deleted and not message.deleted and buttons(message, "act:") + buttons(message, "pick:")
    if board_png_available():
        assert [f.filename for f in message.files] == ["board.png"]
    text = message.render()
    assert late.name in text and "did not decide in time: the Easy bot played for them" in text
    told = [m for m in fake.dm_messages(late) if "your time ran out" in m.content]
    assert len(told) == 1 and "the Easy bot played your turn" in told[0].content
    await fake.stop(bot)


async def test_text_board_without_the_image_module(fake, table, store, clock, players, monkeypatch):
    monkeypatch.setattr("cogs.indus.words._boards", lambda: None)
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, players)
    for _ in range(3):
        await play_step(fake, bot, game, players)
    message = await board(fake, bot, game)
    assert not message.files and "image" not in message.embeds[0]
    assert "```" in message.render() and "A    B    C" in message.render()
    # Play on until a reroll is offered; take it: the new die is shown, the controls narrow to A / P.
    while not any(json.loads(c.split(":", 3)[3]) == {"do": "reroll"} for c in buttons(message, "act:")):
        await play_step(fake, bot, game, players)
    user, roll = mover(game, players), game.state.roll
    await take(fake, user, message, next(c for c in buttons(message, "act:") if c.endswith('{"do":"reroll"}')), None)
    assert game.state.roll == roll + 1 and f"roll {roll + 1} of 3" in message.render()
    check_controls(message, GAME.legal_actions(game.state, game.humans_owing()[0]))
    assert all(json.loads(c.split(":", 3)[3]).get("rank", "A") != "W" for c in buttons(message, "act:"))
    await fake.stop(bot)


async def test_layout_option_and_commands(fake, table, store, clock, players):
    bot = await start_bot(fake, store, clock)
    ann = players[0]
    rec = await fake.slash(ann, table, "indus new", {"layout": "default", "seed": 5})
    assert rec.ephemeral and "only applies to the random layout" in rec.replies[-1].render()
    game = await open_table(fake, bot, table, players, options={"layout": "random", "seed": 7})
    assert any("board: random, seed 7" in m.render() for m in fake.channel_messages(table))
    assert game.state.layout.cells == generate_layout(7).cells
    rec = await fake.slash(ann, table, "indus rules", {})
    assert rec.ephemeral and "straight in" in rec.replies[-1].render()
    rec = await fake.slash(players[1], table, "indus status", {})
    assert rec.ephemeral and "Indus" in rec.replies[-1].render()
    rec = await fake.slash(ann, table, "incan join", {})
    assert rec.ephemeral and "game of indus" in rec.replies[-1].render()
    rec = await fake.slash(ann, table, "indus cancel", {})
    assert bot.sessions.by_channel.get(table.id) is None
    await fake.stop(bot)


async def test_on_the_real_clock_bot_turns_follow_each_other_to_the_summary(fake, table, store, players, monkeypatch):
    """Turn-based bot seats on real timers: each AI turn arms the next; every turn is drawn."""
    monkeypatch.setattr("cogs.indus.words._boards", lambda: None)  # text board: keeps the test quick
    bot = await start_bot(fake, store, SystemClock(), ai_delay_s=0.01)
    game = await open_table(fake, bot, table, players[:2], bots=("easy", "medium"))
    for _ in range(6000):  # real time: at most ~60 s
        summary = any(buttons(m, "rematch:") for m in fake.channel_messages(table))
        if game.status != "playing" and summary and not game.lock.locked():
            break
        if game.humans_owing():
            message = await board(fake, bot, game)
            moves = [c for c in message.custom_ids if c.startswith(("act:", "pick:"))]
            if moves and moves[0].split(":")[2] == str(game.window):  # the board shows this very turn
                await play_step(fake, bot, game, players[:2])
                continue
        await asyncio.sleep(0.01)
    assert game.status == "finished"
    async with game.lock:  # the bot's last turn finished the game on a timer: its summary is drawn under the lock
        pass
    await final_checks(fake, store, table, game, picture=False)
    await fake.stop(bot)
