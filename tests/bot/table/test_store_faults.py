"""A result that cannot be written: the click that made the last move is answered as accepted, and
the summary comes once a retry writes the result (issue 15, item 2; the session's side is in
tests/chaos/test_faults.py). Before, the player read "nothing was changed" about a move that was
committed, and the table stayed "playing" until the next restart."""

from __future__ import annotations

import sqlite3

from incan_kit import act_id, buttons, lobby_id, moves_message, start_bot


async def test_the_last_move_counts_when_the_result_write_fails(fake, table, store, clock, ann):
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "incan new", {})
    lobby = next(m for m in fake.channel_messages(table) if buttons(m, "lobby:"))
    for op in ("ai-easy", "ai-easy", "start"):
        await fake.click(ann, lobby, lobby_id(lobby, op))
    game = await bot.sessions.table_in(table.id)
    repo = bot.sessions.repo
    finish, failures = repo.finish, []

    async def failing_once(*args, **kwargs):
        if not failures:
            failures.append(args)
            raise sqlite3.OperationalError("disk I/O error")
        return await finish(*args, **kwargs)

    repo.finish = failing_once  # type: ignore[method-assign]
    answers = []
    while not game.spec.game.is_over(game.state):
        public = moves_message(fake, table.id)  # Torch / Camp on the expedition's message
        rec = await fake.click(ann, public, act_id(public, "camp"))
        answers += [m.render() for m in rec.replies]
        assert rec.acknowledged
    assert failures  # the result write failed once
    assert not any("nothing was changed" in text or "went wrong" in text for text in answers)
    assert not [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]  # no result yet
    await clock.advance(5.0)  # the retry writes it
    summary = [m for m in fake.channel_messages(table) if buttons(m, "rematch:")]
    assert len(summary) == 1 and "Incan Gold — final scores" in summary[0].render()
    assert (await store.load_game(game.id)).game.status == "finished"
    await fake.stop(bot)
