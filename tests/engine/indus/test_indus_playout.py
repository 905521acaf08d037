"""The search's fast playout position (engine/indus/ai/playout.py) follows rules.py exactly.

Random games (any player count, both layouts, every keep / return choice) run through the rules
engine; after every placement, move and keep / return the same action on a :class:`Sim` must
give the same frame, stacks, owners, reserves, prisoner points, seat to move and game end.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, resolve_chance
from engine.indus import GAME
from engine.indus.ai.playout import Sim
from engine.indus.rules import RANK_OF, SPACE_INDEX, State
from engine.indus.scoring import prisoner_points, standing


def _same(sim: Sim, state: State) -> None:
    """Assert the Sim holds the rules engine's position."""
    assert sim.frame == list(state.frame)
    assert sim.stacks == [list(s) for s in state.stacks]
    assert sim.owners == list(state.owners)
    assert sim.reserve == [list(r) for r in state.reserve]
    assert sim.prison == prisoner_points(state)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 2**32), st.sampled_from(["default", "random"]))
def test_a_sim_follows_the_rules_through_random_games(players, seed, layout):
    rng = random.Random(seed)
    state = GAME.setup(players, seed, {"layout": layout})
    sim: Sim | None = None
    pending = -1
    while not GAME.is_over(state):
        [seat] = GAME.to_move(state)
        if seat == CHANCE:
            state, _ = GAME.apply(state, seat, resolve_chance(GAME, state))
            continue
        action = rng.choice(GAME.legal_actions(state, seat))
        before = state
        state, _ = GAME.apply(state, seat, action)
        if before.phase == "setup":
            continue
        if sim is None:
            sim = Sim(before)
        _same(sim, before)
        assert sim.seat == before.seat
        do = action["do"]
        if do == "place":
            sim.place(action["colour"], RANK_OF[action["rank"]], SPACE_INDEX[action["space"]])
        elif do == "move":
            pending = sim.land(SPACE_INDEX[action["space"]], before.die)
            assert (pending != -1) == (state.phase == "keep")
            if state.phase != "keep":
                assert sim.next_seat() == (state.phase != "over")
        elif do in ("keep", "return"):
            sim.settle(pending, do == "keep")
            assert sim.next_seat() == (state.phase != "over")
        if state.phase != "over":
            _same(sim, state)
            if state.phase in ("place", "roll"):
                assert sim.seat == state.seat
    assert sim is not None
    _same(sim, state)
    assert sim.over()
    assert sim.scores(0.0) == [float(v) for v in standing(state)["scores"]]


def test_a_copy_is_independent():
    state = GAME.setup(2, 5)
    rng = random.Random(5)
    while state.phase != "place":
        [seat] = GAME.to_move(state)
        action = resolve_chance(GAME, state) if seat == CHANCE else rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
    sim = Sim(state)
    twin = sim.copy()
    slot = next(i for i, p in enumerate(sim.frame) if p != -1)
    twin.land(slot, 3)
    _same(sim, state)
