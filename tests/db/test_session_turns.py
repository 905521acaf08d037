"""The session in sequential games: a timeout plays exactly what was owed, and an action that
is the only one left is played without a click (Sakkara, rules answer 2), recorded in the log."""

from __future__ import annotations

import random
from typing import Any

from db import Store
from engine.clock import ManualClock
from engine.core import replay
from engine.indus import GAME as INDUS
from engine.indus.rules import EMPTY, seat_colours
from engine.sakkara import GAME as SAKKARA
from engine.sakkara import ai as sakkara_ai
from engine.sakkara import rules as sakkara_rules
from engine.session import SeatSpec, Sessions, SessionSettings, Table, Update
from engine.session.games import SPECS
from wiring.storage import StoreRepository

ANN, BO = SeatSpec("Ann", 1), SeatSpec("Bo", 2)
CHANNEL, GUILD = 501, 901


class Recorder:
    """A listener that keeps the updates (the other calls are not looked at here)."""

    def __init__(self) -> None:
        self.updates: list[Update] = []

    async def opened(self, table: Table) -> None:
        pass

    async def start_soon(self, table: Table) -> None:
        pass

    async def lobby_changed(self, table: Table, *, origin: object | None) -> None:
        pass

    async def started(self, table: Table, *, origin: object | None) -> None:
        pass

    async def played(self, update: Update) -> None:
        self.updates.append(update)

    async def reminded(self, table: Table, seats: list[int]) -> None:
        pass

    async def waited(self, table: Table) -> None:
        pass

    async def finished(self, table: Table, result: dict[str, Any], *, origin: object | None) -> None:
        pass

    async def ended(self, table: Table, reason: str, *, origin: object | None) -> None:
        pass


def make(store: Store, clock: ManualClock) -> tuple[Sessions, Recorder]:
    rec = Recorder()
    sessions = Sessions(StoreRepository(store), SPECS, rec, clock,
                        SessionSettings(decision_timeout_s=120, reminder_before_s=30, ai_delay_s=0.0))
    return sessions, rec


async def two_humans(sessions: Sessions, game: str, seed: int) -> Table:
    table = await sessions.create(game, GUILD, CHANNEL, ANN)
    await sessions.join(table.id, BO)
    await sessions.start(table.id, ANN.user_id or 0, seed=seed)
    return table


async def act(sessions: Sessions, table: Table, rng: random.Random) -> None:
    """The seat that owes plays the Easy AI's choice from its own view."""
    seat = table.humans_owing()[0]
    legal = table.spec.game.legal_actions(table.state, seat)
    action = sakkara_ai.easy(table.spec.game.view(table.state, seat), legal, rng)
    await sessions.act(table.id, table.seats[seat].user_id or 0, table.window, action)


async def expire(store: Store, table: Table, clock: ManualClock) -> tuple[tuple[int, Any], ...]:
    """Let the decision timer run out; return the actions it appended to the log."""
    version = table.version
    await clock.advance(120)
    return (await store.load_game(table.id)).moves()[version:]


async def test_a_timeout_while_returning_the_used_tiles_plays_the_return_only(store: Store):
    """It used to play the placer's whole next turn too (the expiry looped while the seat owed)."""
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await two_humans(sessions, "sakkara", seed=11)
    rng = random.Random(1)
    while table.state.phase != "return":
        await act(sessions, table, rng)
    placer = table.humans_owing()[0]
    turns = table.state.turns
    log = await expire(store, table, clock)
    assert log and all(seat == placer and action["do"] == "return" for seat, action in log)
    assert not table.state.pending  # the whole stack went down: that was owed
    # ... and nothing more: the placer's own turn starts, with its own fresh decision window
    assert (table.state.phase, table.state.turn) == ("before", placer)
    assert table.state.turns == (turns[0] + (placer == 1), turns[1] + (placer == 0))
    assert table.humans_owing() == [placer] and table.window == table.version
    assert rec.updates[-1].timed_out == [placer]
    assert table.deadline == clock.now() + 120


async def test_a_timeout_on_turn_plays_that_turn_and_stops_at_the_return(store: Store):
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await two_humans(sessions, "sakkara", seed=12)
    rng = random.Random(2)
    while table.state.phase != "before":
        await act(sessions, table, rng)
    mover = table.state.turn
    log = await expire(store, table, clock)
    assert {seat for seat, _ in log} == {mover}
    assert log[-1][1]["do"] in ("end", "discard")
    assert table.state.turn != mover or table.state.phase == "return"
    assert rec.updates[-1].timed_out == [mover]


def _pieces_left(state: Any, seat: int) -> int:
    colours = seat_colours(seat, state.players)
    return sum(sum(state.reserve[c]) for c in colours) + sum(
        1 for p in state.frame if p != EMPTY and p >> 2 in colours)


async def test_an_indus_timeout_plays_one_turn_even_when_the_same_seat_moves_next(store: Store):
    """Indus skips seats with no pieces left: the turn, not the seat, bounds what a timeout plays."""
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await two_humans(sessions, "indus", seed=15)
    rng = random.Random(15)  # this game reaches a seat with no pieces left
    while True:
        state = table.state
        seat = state.seat
        if state.phase == "place" and _pieces_left(state, 1 - seat) == 0 and _pieces_left(state, seat) >= 2:
            break  # the other seat has nothing left: this seat's next turn follows its own
        assert table.status == "playing", "the scripted game never reached a skipped seat"
        legal = INDUS.legal_actions(state, seat)
        # random play: this seed's random game runs one seat out of pieces first
        await sessions.act(table.id, table.seats[seat].user_id or 0, table.window, rng.choice(legal))
    turn = table.state.turn
    log = await expire(store, table, clock)
    assert [a["do"] for s, a in log if s == seat and a["do"] in ("place", "move")] == ["place", "move"]
    assert (table.state.turn, table.state.seat, table.humans_owing()) == (turn + 1, seat, [seat])
    log = await store.load_game(table.id)
    assert INDUS.dumps(replay(INDUS, 2, log.game.seed or 0, log.moves())) == INDUS.dumps(table.state)


async def test_end_turn_as_the_only_legal_action_is_played_without_a_click(store: Store):
    """Rules answer 2: the host may submit a single legal action; it is logged, so replay is exact."""
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await two_humans(sessions, "sakkara", seed=13)
    rng = random.Random(3)
    forced_ends = 0
    for _ in range(400):
        if table.status != "playing":
            break
        for seat in table.humans_owing():
            # never a human left with nothing but one action to click
            assert len(SAKKARA.legal_actions(table.state, seat)) > 1
        before = len(rec.updates)
        await act(sessions, table, rng)
        for update in rec.updates[before:]:
            forced_ends += sum(1 for seat, action in update.forced if action == {"do": "end"})
    assert forced_ends > 0
    log = await store.load_game(table.id)
    assert SAKKARA.dumps(replay(SAKKARA, 2, log.game.seed or 0, log.moves())) == SAKKARA.dumps(table.state)


def test_the_forced_action_is_the_only_legal_one_and_nothing_else():
    state = SAKKARA.setup(2, 0)
    rng = random.Random(4)
    seen = 0
    for _ in range(3000):
        movers = SAKKARA.to_move(state)
        if not movers:
            break
        seat = movers[0]
        if seat < 0:
            state, _ = SAKKARA.apply(state, seat, SAKKARA.chance_outcomes(state)[0][0])
            continue
        legal = SAKKARA.legal_actions(state, seat)
        forced = sakkara_rules.forced(state, seat)
        assert forced == (legal[0] if len(legal) == 1 else None)
        seen += forced is not None
        state, _ = SAKKARA.apply(state, seat, sakkara_ai.easy(SAKKARA.view(state, seat), legal, rng))
    assert seen > 0
