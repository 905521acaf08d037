"""Decisions missed in a row, read from the stored log (:mod:`engine.session.missed`), on both
stores: in games of each kind where people miss decisions and play at random (and, at a
correspondence table, are taken over and come back), what the log tells a restarted process
equals, at every step, the count the running process kept as it went: the one that hands a seat
to the bot and abandons a table nobody plays."""

from __future__ import annotations

import random

import pytest
from test_session_absence import BOT_DELAY, CHANNEL, DAY, GUILD, bo_away, indus, make

from db import Store
from engine.clock import ManualClock
from engine.session import SeatSpec, Table
from engine.session.missed import missed_in_a_row
from engine.session.options import TAKEOVER_DECISIONS

PEOPLE = (SeatSpec("Ann", 1), SeatSpec("Bo", 2), SeatSpec("Cy", 3))


def told_by_the_log(table: Table, actions: list[tuple[int, object]]) -> dict[int, int]:
    assert table.seed is not None
    return missed_in_a_row(table.spec, len(table.seats), table.seed, table.options, actions, table.seat_events)


@pytest.mark.parametrize(("game", "people", "seed"), [("incan_gold", 3, 2), ("sakkara", 2, 11), ("indus", 3, 1)])
@pytest.mark.parametrize("timeout_s", [DAY, 120.0], ids=["correspondence", "live"])
async def test_the_log_tells_the_count_the_process_kept(store: Store, game: str, people: int, seed: int,
                                                        timeout_s: float) -> None:
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await sessions.create(game, GUILD, CHANNEL, PEOPLE[0], table_options={"decision_timeout_s": timeout_s})
    for person in PEOPLE[1:people]:
        await sessions.join(table.id, person)
    if game != "sakkara":
        await sessions.add_ai(table.id, PEOPLE[0].user_id or 0, "easy")
    await sessions.start(table.id, PEOPLE[0].user_id or 0, seed=seed)
    rng = random.Random(seed)
    longest = checks = 0
    for _ in range(400):
        if table.status != "playing":
            break
        for seat in table.people():
            if table.seats[seat].away is not None and rng.random() < 0.05:
                await sessions.seen(table.id, table.seats[seat].user_id or 0)  # back for a while
        owing = table.humans_owing()
        if not owing:
            await clock.advance(BOT_DELAY)
        elif rng.random() < 0.5:
            await clock.advance(timeout_s + 1)  # this decision times out
        else:
            seat = owing[0]
            action = rng.choice(table.spec.game.legal_actions(table.state, seat))
            await sessions.act(table.id, table.seats[seat].user_id or 0, table.window, action)
        if table.status == "playing":
            stored = [(a.seat, a.payload) for a in await store.actions(table.id)]
            kept = {seat: n for seat, n in table.away.items() if n}
            assert told_by_the_log(table, stored) == kept
            checks += 1
            longest = max([longest, *kept.values()])
    assert checks > 20 and longest >= 2  # runs of misses were counted, and moves ended some
    await sessions.close()


async def test_a_log_that_no_longer_replays_leaves_the_count_kept_in_memory(store: Store, monkeypatch, caplog) -> None:
    """A table plays on from its snapshot; should its log not replay from the start (a rules
    change), its timeouts still play and count as this process saw them: two take Bo's seat over."""

    def no_longer_replays(*args: object) -> dict[int, int]:
        raise ValueError("an action the rules no longer allow")

    monkeypatch.setattr("engine.session.absence.missed_in_a_row", no_longer_replays)
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await indus(sessions)
    seat = await bo_away(sessions, table, clock, his_turn=False)
    assert table.seats[seat].away == "easy"
    assert [e.kind for e in table.seat_events].count("timeout") == TAKEOVER_DECISIONS
    assert "could not be read from its log" in caplog.text
    await sessions.close()
