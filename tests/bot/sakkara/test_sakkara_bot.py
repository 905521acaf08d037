"""Sakkara through the real discord.py client against the in-process fake Discord.

Covers issue 6 (items 2, 4, 5 for Sakkara): a full game of a scripted human against an AI seat,
played only through the prompt's buttons and menus; the rack never public; refusals; restart
mid-turn; the timeout (the Easy bot plays the absent player's turn).
"""

from __future__ import annotations

import io
import random

import pytest
from incan_kit import buttons, lobby_id, start_bot
from PIL import Image
from sakkara_bot_kit import (
    choice,
    last_prompt,
    lobby_message,
    open_table,
    perform,
    play_one,
    play_to_the_end,
    prompt_for,
    prompt_ids,
)
from table_kit import live_controls

from cogs.sakkara import words as sakkara_words
from cogs.sakkara.controls import prompt_at
from cogs.table.controls.buttons import encode_action
from db.store import Store
from engine.clock import ManualClock
from engine.core import CHANCE, replay, resolve_chance
from engine.sakkara import GAME
from engine.session import SeatSpec, Table
from engine.session.games import SPECS
from fakediscord import FakeChannel, FakeDiscord, FakeMessage
from pictures.sakkara import board as sakkara_board


async def test_full_game_human_against_a_bot(fake, table, store, clock, monkeypatch):
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)  # the text board (images: other tests)
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann)
    assert game.status == "playing" and sum(s.is_ai for s in game.seats) == 1
    await play_to_the_end(fake, game, [ann])
    summary = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert len(summary) == 1
    text = summary[0].render()
    assert "Ann" in text and "Medium bot 1" in text and ("Winner" in text or "Shared win" in text)
    board = [m for m in fake.channel_messages(table) if m.all_texts() and "Sakkara — placing" in m.all_texts()[0]]
    assert len(board) == 1 and "```" in board[0].text and not board[0].files  # one message, edited
    assert "Sakkara — round" in board[0].text
    assert not summary[0].files  # without the image module the standings go alone
    log = await store.load_game(game.id)
    final = replay(GAME, 2, log.game.seed, [(a.seat, a.payload) for a in log.actions])
    assert GAME.is_over(final)
    assert [r.score for r in await store.results(game.id)] == GAME.result(final)["scores"]
    # every DM prompt lost its controls at the end; the board message lost its Choose button
    assert all(not prompt_ids(m) for m in fake.dm_messages(ann))
    assert live_controls(fake, table, [ann]) == []
    # the whole story is in the game's thread, in batches of rounds
    [thread] = fake.threads(table)
    posted = [line for m in fake.channel_messages(thread) for line in m.content.splitlines()]
    ends = sum(1 for a in log.actions if a.payload == {"do": "end"})
    assert posted[-1].startswith("🏁") and sum("ends the turn" in line for line in posted) == ends > 0
    await fake.click(ann, summary[0], buttons(summary[0], "rematch:")[0])
    again = await bot.sessions.table_in(table.id)
    assert again.status == "lobby" and len(again.seats) == 2
    await fake.stop(bot)


async def test_the_summary_carries_the_final_board_with_the_scoring(fake, table, store, clock, monkeypatch):
    """Issue 13, item 8: the standings come with the final board, the winner's panel marked."""
    tiny = sakkara_board.board_image(GAME.view(GAME.setup(2, 0), None))
    monkeypatch.setattr(sakkara_board, "board_image", lambda view, names=None: tiny)  # the moves' boards: speed only
    monkeypatch.setattr(sakkara_board, "private_pictures", lambda view, names=None: (tiny, tiny))
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann)
    await play_to_the_end(fake, game, [ann])
    await bot.hub.outbox.drained()
    [summary] = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert [f.filename for f in summary.files] == ["results.png"]
    assert summary.embeds[0]["image"]["url"] == "attachment://results.png"
    picture = Image.open(io.BytesIO(summary.files[0].data))
    assert picture.size == sakkara_board.SIZE and summary.files[0].data != tiny
    await fake.stop(bot)


async def test_no_prompt_waits_for_a_click_on_end_turn_alone(fake, table, store, clock, monkeypatch):
    """Rules answer 2: when End turn is the only legal action the turn ends without a click; the
    player's DM says so. (In a measured game 95 of 263 prompts offered nothing but End turn.)"""
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann, seed=5)
    await play_to_the_end(fake, game, [ann], seed=5)
    versions = [v for m in fake.dm_messages(ann) for v in [*m.history, m.data]]
    only_end = [v for v in versions if _act_ids(v) and all('"end"' in c for c in _act_ids(v))
                and not any(c.startswith(("pick:", "sks:", "skn:")) for c in _ids(v))]
    assert versions and not only_end
    told = [v for v in versions if "your turn ended by itself" in str(v.get("embeds"))]
    assert told  # a step after which nothing else was possible ended the turn, and Ann read why
    log = await store.load_game(game.id)
    final = replay(GAME, 2, log.game.seed, [(a.seat, a.payload) for a in log.actions])
    assert GAME.dumps(final) == GAME.dumps(game.state)  # the automatic End turn is in the log
    await fake.stop(bot)


def _ids(data: dict) -> list[str]:
    return [c.get("custom_id", "") for row in data.get("components") or [] for c in row.get("components") or []]


def _act_ids(data: dict) -> list[str]:
    return [c for c in _ids(data) if c.startswith("act:")]


# --------------------------------------------------------------------------- the controls, exhaustively


def _reachable(table: Table, seat: int) -> set[str]:
    """Every action the prompt offers, over the main controls and every sub-menu and page."""
    found: set[str] = set()
    todo, seen = [""], {""}
    while todo:
        group = todo.pop()
        _, view = prompt_at(table, seat, group)
        assert view is not None
        rows: dict[int, int] = {}
        for item in view.children:
            rows[item._rendered_row or 0] = rows.get(item._rendered_row or 0, 0) + 1
            cid = item.custom_id  # type: ignore[attr-defined]
            assert cid is not None and len(cid) <= 100
            kind = cid.split(":", 1)[0]
            if kind == "act":
                found.add(cid.split(":", 3)[3])
            elif kind == "pick":
                options = item.item.options  # type: ignore[attr-defined]
                assert 0 < len(options) <= 25
                found.update(o.value for o in options)
                assert all(len(o.value) <= 100 and len(o.label) <= 100 for o in options)
            elif kind == "sks":
                options = item.item.options  # type: ignore[attr-defined]
                nxt = [o.value for o in options]
            else:
                nxt = [cid.split(":", 3)[3]]
            if kind in ("sks", "skn"):
                for g in nxt:
                    if g not in seen:
                        seen.add(g)
                        todo.append(g)
        assert len(rows) <= 5 and all(n <= 5 for n in rows.values())
    return found


def test_every_legal_action_is_reachable_and_nothing_else():
    """Random positions of AI games: the prompt (all menus) offers exactly the legal actions."""
    rng = random.Random(7)
    checked = set()
    for seed in range(4):
        state = GAME.setup(2, seed)
        table = Table(1, SPECS["sakkara"], 1, 1, 1, {}, {}, "playing",
                      [SeatSpec("A", user_id=1), SeatSpec("B", user_id=2)], seed, state)
        while not GAME.is_over(state):
            seat = GAME.to_move(state)[0]
            if seat == CHANCE:
                state, _ = GAME.apply(state, CHANCE, resolve_chance(GAME, state))
                continue
            legal = GAME.legal_actions(state, seat)
            table.state = state
            if rng.random() < 0.2 or len(legal) > 25:
                assert _reachable(table, seat) == {encode_action(a) for a in legal}
                checked.update(a["do"] for a in legal)
            # random play picked by kind first (a Bird's 90 targets would drown the rest): it reaches
            # every kind of action, which the beginner-like Easy does not (it rarely displays)
            kinds = sorted({a["do"] for a in legal})
            kind = kinds[rng.randrange(len(kinds))]
            state, _ = GAME.apply(state, seat, rng.choice([a for a in legal if a["do"] == kind]))
    assert {"place", "step", "end", "return", "build", "display", "bird", "ox", "cast", "snake", "steal",
            "discard", "horse"} <= checked


# --------------------------------------------------------------------------- restart, secrecy, refusals, timers


def board_message(fake: FakeDiscord, channel: FakeChannel | int) -> FakeMessage:
    return [m for m in fake.channel_messages(channel) if buttons(m, "peek:")][-1]


async def test_restart_mid_turn_then_the_old_dm_controls_still_work(fake, table, store, clock, monkeypatch):
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann, seed=5)
    rng = random.Random(5)
    while not (game.humans_owing() and game.state.phase == "after"):  # Ann has stepped: mid-turn
        await play_one(fake, game, {ann.id: ann}, rng)
    dm = last_prompt(fake, ann)
    assert dm is not None
    window, last_line = game.window, board_message(fake, table).text.strip().splitlines()[-2]
    await fake.stop(bot)

    bot2 = await start_bot(fake, store, clock)
    revived = await bot2.sessions.table_in(table.id)
    assert revived is not game and revived.window == window and revived.version == game.version
    seat = revived.humans_owing()[0]
    await perform(fake, ann, dm, choice(revived, seat, rng))  # the DM from before the restart
    assert revived.version > game.version
    # The public log was rebuilt from the store: the line from before the restart is on the board
    # or, if the round ended with this move, in the game's thread -- once.
    [thread] = fake.threads(table)
    told = [line for m in fake.channel_messages(thread) for line in m.content.splitlines()]
    told += board_message(fake, table).text.splitlines()
    assert told.count(last_line) == 1
    await play_to_the_end(fake, revived, [ann], seed=6)
    log = await store.load_game(revived.id)
    final = replay(GAME, 2, log.game.seed, [(a.seat, a.payload) for a in log.actions])
    assert GAME.dumps(final) == GAME.dumps(revived.state)
    assert [r.score for r in await store.results(revived.id)] == GAME.result(final)["scores"]
    await fake.stop(bot2)


def sneaky(table: Table, seat: int, rng: random.Random, steal_last: bool) -> dict:
    """A human who grabs a Snake, plays it at once and steals the first or the last motif offered."""
    legal = GAME.legal_actions(table.state, seat)
    board = GAME.view(table.state, None)["board"]
    snakes = [a for a in legal if a["do"] == "place" and board[a["space"]]["top"] == "snake"]
    if snakes:
        return snakes[0]
    if {"do": "snake"} in legal:
        return {"do": "snake"}
    if legal[0]["do"] == "steal":
        assert len(legal) >= 2  # the two runs really steal different tiles
        return legal[-1] if steal_last else legal[0]
    return choice(table, seat, rng)


async def test_the_rack_and_the_snakes_reveal_never_reach_a_public_message():
    """Two runs with the same seed differ only in the tile Ann steals with her Snake: every public
    message version and every public image must be identical, and no rack text is ever public."""
    runs: dict[bool, tuple[list[str], list[bytes]]] = {}
    for steal_last in (False, True):
        with FakeDiscord() as fake:
            ann = fake.user("Ann")
            channel = fake.text_channel("table")
            s = await Store.open(":memory:")
            clock = ManualClock()
            bot = await start_bot(fake, s, clock)
            game = await open_table(fake, bot, channel, ann, seed=2)  # two Snakes on top of the deal
            rng, images, stolen = random.Random(2), [], False
            while not stolen:
                seat = game.humans_owing()[0]
                action = sneaky(game, seat, rng, steal_last)
                await perform(fake, ann, await prompt_for(fake, game, ann), action)
                images += [f.data for m in fake.public_messages() for f in m.files]
                stolen = action["do"] == "steal"
                if action["do"] == "snake":
                    revealed = last_prompt(fake, ann)
                    assert revealed is not None and "Medium bot 1's rack:" in revealed.text
            texts = fake.public_texts()
            assert images and [x for x in texts if "Your rack" in x or "Medium bot 1's rack:" in x] == []
            mine = sakkara_words.counts_text(GAME.view(game.state, seat)["rack"])
            assert not any(mine in x for x in texts)
            runs[steal_last] = (texts, images)
            await fake.stop(bot)
            await s.close()
    assert runs[False] == runs[True]


async def test_refusals_are_private_and_change_nothing(fake, table, store, clock, monkeypatch):
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann, bo, stranger = fake.user("Ann"), fake.user("Bo"), fake.user("Stranger")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann, other=bo, seed=11)
    users = {ann.id: ann, bo.id: bo}
    public = board_message(fake, table)
    rec = await fake.click(stranger, public, buttons(public, "peek:")[0])
    assert rec.ephemeral and "not seated" in rec.replies[-1].render()
    rec = await fake.slash(stranger, table, "sakkara status", {})
    shown = rec.replies[-1].render()
    assert rec.ephemeral and "Sakkara — placing the workers" in shown and "Your rack" not in shown
    rec = await fake.slash(ann, table, "incan join", {})
    assert rec.ephemeral and "game of sakkara" in rec.replies[-1].render()

    mover = users[game.seats[game.humans_owing()[0]].user_id]
    waiter = ann if mover is bo else bo
    await fake.click(waiter, public, buttons(public, "peek:")[0])  # not their turn: no controls
    assert not prompt_ids(fake.ephemeral_replies(waiter)[-1])
    for _ in range(2):  # two private prompts: the first click counts, the second is a double click
        await fake.click(mover, public, buttons(public, "peek:")[0])
    first, second = fake.ephemeral_replies(mover)[-2:]
    action = GAME.legal_actions(game.state, game.humans_owing()[0])[0]
    version = game.version
    await perform(fake, mover, first, action)
    assert game.version == version + 1
    rec = await perform(fake, mover, second, action)
    # Refused on the stale prompt itself, redrawn as the game stands now (a fresh one to act on).
    assert rec.callbacks == [7] and second.ephemeral and "That choice is over" in second.render()
    assert game.version == version + 1 and len(await store.actions(game.id)) == version + 1
    await fake.stop(bot)


async def test_timeout_reminds_privately_then_the_easy_bot_plays_the_turn(fake, table, store, clock, monkeypatch):
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann, seed=4)
    seat = game.seat_of(ann.id)
    assert game.humans_owing() == [seat]
    before = len(await store.actions(game.id))
    due = f"<t:{int(game.deadline)}:R>"
    assert any(due in x for x in fake.public_texts()) and due in fake.dm_messages(ann)[-1].render()
    await fake.run(clock.advance, 90)
    assert any("decision is due" in m.render() and "Sakkara" in m.render() for m in fake.dm_messages(ann))
    assert not any("decision is due" in x for x in fake.public_texts())
    await fake.run(clock.advance, 30)
    rows = (await store.actions(game.id))[before:]
    assert rows and rows[0].seat == seat  # the Easy bot played Ann's turn, then the game went on
    text = "Ann did not decide in time: the Easy bot played the turn for them."
    assert any(text in x for x in fake.public_texts())
    assert any("your time ran out" in m.content for m in fake.dm_messages(ann))
    assert game.status == "playing"
    await fake.stop(bot)


async def test_closed_dms_play_through_ephemeral_prompts(fake, table, store, clock, monkeypatch):
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann = fake.user("Ann")
    fake.close_dms(ann)
    bot = await start_bot(fake, store, clock)
    rec = await fake.slash(ann, table, "sakkara new", {})
    assert "could not send you a direct message" in rec.replies[-1].render()
    lobby = lobby_message(fake, table)
    await fake.click(ann, lobby, lobby_id(lobby, "ai-easy"))
    game = await bot.sessions.table_in(table.id)
    await bot.sessions.start(game.id, ann.id, seed=8)
    rng = random.Random(8)
    for _ in range(12):
        if game.humans_owing():
            assert f"<@{ann.id}>" in board_message(fake, table).content  # told to press Choose
        await play_one(fake, game, {ann.id: ann}, rng)
    assert fake.dm_messages(ann) == []
    assert sum("Your rack" in m.render() for m in fake.ephemeral_replies(ann)) >= 12
    await fake.stop(bot)


async def test_status_shows_the_board_and_only_your_own_rack_image(fake, table, store, clock):
    ann, stranger = fake.user("Ann"), fake.user("Stranger")
    bot = await start_bot(fake, store, clock)
    await open_table(fake, bot, table, ann, seed=3)
    public = board_message(fake, table)
    assert [f.filename for f in public.files] == ["board.png"]
    assert public.embeds[0]["image"]["url"] == "attachment://board.png"
    rec = await fake.slash(ann, table, "sakkara status", {})
    assert sorted(f.filename for f in rec.replies[-1].files) == ["board.png", "rack.png"]
    assert rec.replies[-1].ephemeral and "Your rack" in rec.replies[-1].render()
    rec = await fake.slash(stranger, table, "sakkara status", {})
    assert [f.filename for f in rec.replies[-1].files] == ["board.png"]
    rec = await fake.slash(stranger, table, "sakkara rules", {})
    assert rec.ephemeral and "Apex" in rec.replies[-1].render()  # tile names as on the buttons
    await fake.stop(bot)


async def test_the_dm_picture_shows_board_and_rack_and_a_deleted_board_is_posted_again(fake, table, store, clock):
    """The private prompt shows the board the moves are made on, and the rack in its embed: two pictures,
    each shown whole in Discord's 400 x 300 px box."""
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann, seed=3)
    rng, racks = random.Random(3), []
    for _ in range(4):
        dm = last_prompt(fake, ann)
        assert dm is not None and [f.filename for f in dm.files] == ["board.png", "you.png"]
        assert Image.open(io.BytesIO(dm.files[0].data)).size == sakkara_board.SIZE
        assert Image.open(io.BytesIO(dm.files[1].data)).width == sakkara_board.RACK_WIDTH
        assert dm.embeds[0]["image"]["url"] == "attachment://you.png"
        racks.append(dm.files[1].data)
        await play_one(fake, game, {ann.id: ann}, rng)
    assert len(set(racks)) > 1  # Ann took tiles: her picture changed
    old = board_message(fake, table)
    old.deleted = True  # someone deleted the board message: the next redraw posts a new one
    await play_one(fake, game, {ann.id: ann}, rng)
    new = board_message(fake, table)
    assert new.id != old.id and [f.filename for f in new.files] == ["board.png"]
    await fake.stop(bot)


async def test_a_stale_sub_menu_is_refused_privately(fake, table, store, clock, monkeypatch):
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann, seed=9)
    rng = random.Random(9)
    for _ in range(200):  # play on until Ann's prompt has a sub-menu (specials, spells or a split)
        dm = last_prompt(fake, ann)
        if game.humans_owing() and dm is not None and any(c[:4] in ("sks:", "skn:") for c in dm.custom_ids):
            break
        await play_one(fake, game, {ann.id: ann}, rng)
    else:
        pytest.fail("no sub-menu came up")
    public = board_message(fake, table)
    await fake.click(ann, public, buttons(public, "peek:")[0])
    stale = fake.ephemeral_replies(ann)[-1]
    opener = next(c for c in stale.custom_ids if c[:4] in ("sks:", "skn:"))
    await play_one(fake, game, {ann.id: ann}, rng)  # through the DM: the window moves on
    version = game.version
    value = stale.component(opener).get("options", [{}])[0].get("value")
    rec = await (fake.click(ann, stale, opener) if value is None else fake.select(ann, stale, opener, [value]))
    # Refused on the stale prompt itself, redrawn as the game stands now (a fresh one to act on).
    assert rec.callbacks == [7] and "That choice is over" in stale.render()
    assert game.version == version
    await fake.stop(bot)


async def test_a_turn_that_ended_by_itself_is_told_apart_from_the_next_one(fake, table, store, clock, monkeypatch):
    """Issue 43: "Your turn: … Nothing else was possible, so your turn ended by itself." mixed two
    turns. When the bot's whole turn follows in the same update and the turn is the person's again,
    the ended turn is told first, in the past; the present-tense line only stands on a prompt whose
    turn is over."""
    monkeypatch.setattr(sakkara_words, "boards", lambda: None)
    ann = fake.user("Ann")
    bot = await start_bot(fake, store, clock)
    game = await open_table(fake, bot, table, ann, level="easy", seed=8)
    rng = random.Random(8)
    while game.status == "playing":
        await play_one(fake, game, {ann.id: ann}, rng)
    texts = [text for m in fake.dm_messages(ann) for text in m.all_texts()]
    ended_now = [x for x in texts if "so your turn ended by itself" in x]
    ended_before = [x for x in texts if "Your last turn ended by itself" in x]
    assert ended_before, "the game never ended a turn by itself before the next: pick another seed"
    assert not [x for x in ended_now if "Your turn:" in x]  # never beside the next turn
    assert all(x.index("Your last turn ended by itself") < x.index("Your turn") for x in ended_before
               if "Your turn" in x)
    await fake.stop(bot)
