"""An idle correspondence table leaves the bot's memory and plays on as if it had stayed (issue 41:
a process holding many correspondence tables, each loaded a few times a day by its timers, keeps
only the ones in use). Through the real client and the fake Discord: the next person's click on
their DM prompt loads the table again and plays, the board shows the move, and the turn's notice
reaches the person after them once."""

from __future__ import annotations

from incan_kit import start_bot
from indus_kit import board, dm_prompt, first_choice, mover, open_table, play_step, take
from test_indus_absence import CORRESPONDENCE

from db.store import Store
from engine.clock import ManualClock
from engine.indus import GAME
from engine.session.cache import IDLE_S, SWEEP_EVERY_S
from fakediscord import FakeChannel, FakeDiscord


async def test_an_unloaded_table_is_played_from_a_dm_prompt_as_if_it_had_stayed(
        fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock) -> None:
    people = [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]
    bot = await start_bot(fake, store, clock, **CORRESPONDENCE)
    for person in people:  # told by DM even when they were just here
        assert (await fake.slash(person, table, "notify", {"how": "dm"})).ephemeral
    game = await open_table(fake, bot, table, people)
    await play_step(fake, bot, game, people)  # the first start piece, from the board
    user = mover(game, people)
    prompt = dm_prompt(fake, user)
    assert prompt is not None and prompt is fake.dm_messages(user)[-1]  # told by DM, controls and all
    version = game.version
    public = await board(fake, bot, game)
    happened = _what_happened(public.render())
    assert happened.count("\n") == 0  # the first start piece's line (a correspondence board keeps the log)

    bot.sessions.cache.keep_loaded = 0
    await fake.run(clock.advance, IDLE_S + SWEEP_EVERY_S)  # hours before any reminder of a day's decision
    assert bot.sessions.cache.unload_idle() == [game.id]
    assert bot.sessions.loaded(game.id) is None
    assert bot.hub.book.ref((game.id, "board", None)) is None  # where its messages are: read again when used

    # The state it left with is the stored one: the person's first option on the prompt is legal.
    legal = GAME.legal_actions(game.state, game.humans_owing()[0])
    told_before = {u.id: len(fake.dm_messages(u)) for u in people}
    await take(fake, user, prompt, *first_choice(prompt, legal[0]))

    again = bot.sessions.loaded(game.id)
    assert again is not None and again is not game and again.version == version + 1
    assert (await board(fake, bot, again)) is public  # the same board, edited: found again in the store
    shown = public.render()
    # The log on the board was read again from the store: the line from before, then the new move's.
    assert _what_happened(shown).startswith(happened + "\n") and _what_happened(shown).count("\n") == 1
    assert f"**{again.seats[again.humans_owing()[0]].display_name}**" in shown  # whose turn it is now
    after = mover(again, people)
    new = {u.id: len(fake.dm_messages(u)) - told_before[u.id] for u in people}
    assert new == {p.id: int(p.id == after.id) for p in people}  # one notice, for the next person only
    await fake.stop(bot)


def _what_happened(board: str) -> str:
    """The board's log lines (the "What happened" field)."""
    return board.split("What happened: ", 1)[1].split("\n|", 1)[0]


async def test_an_unloaded_indus_table_stays_unloaded_and_silent_past_its_windows_patience(
        fake: FakeDiscord, table: FakeChannel, store: Store, clock: ManualClock) -> None:
    people = [fake.user("Ann"), fake.user("Bo"), fake.user("Cy")]
    bot = await start_bot(fake, store, clock, **CORRESPONDENCE)
    game = await open_table(fake, bot, table, people)
    await play_step(fake, bot, game, people)
    bot.sessions.cache.keep_loaded = 0
    await fake.run(clock.advance, IDLE_S + SWEEP_EVERY_S)
    assert bot.sessions.cache.unload_idle() == [game.id]
    await bot.hub.outbox.drained()
    calls = len(fake.rest_calls)
    waited = game.opened_at + CORRESPONDENCE["decision_timeout_s"] / 8
    await fake.run(clock.advance, waited + 60.0 - clock.now())
    # One person moves at a time: nobody is "the last few", so the window has no waited moment
    # (Incan Gold's has, and loads its table for it) and the table is not loaded just to do nothing.
    assert bot.sessions.loaded(game.id) is None
    assert fake.rest_calls[calls:] == []
    await fake.stop(bot)
