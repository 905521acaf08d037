"""Sakkara AI players: legal choices, determinisation from the view only, sensible greed."""

from __future__ import annotations

import random

import pytest
from sakkara_kit import make, sp

from engine.core import play
from engine.sakkara import GAME
from engine.sakkara.ai import AGENTS, evaluate, state_from_view
from engine.sakkara.rules import tiles_everywhere
from engine.sakkara.tiles import TILES

TABLE = [t.count for t in TILES]


def decide(name, state, seat, seed=0):
    legal = GAME.legal_actions(state, seat)
    action = AGENTS[name](GAME.observe(state, seat), legal, random.Random(seed))
    assert action in legal
    return action


def test_agents_table():
    assert set(AGENTS) == {"easy", "medium", "hard"}


@pytest.mark.parametrize("pair", [("medium", "easy"), ("easy", "medium")])
def test_whole_games_between_agents_finish_with_legal_actions(pair):
    pt = play(GAME, [AGENTS[pair[0]], AGENTS[pair[1]]], 5)
    assert GAME.is_over(pt.state)
    assert tiles_everywhere(pt.state) == TABLE


def test_hard_decides_legally_along_a_game():
    pt = play(GAME, [AGENTS["medium"], AGENTS["medium"]], 11)
    state = GAME.setup(2, 11)
    for i, (seat, action) in enumerate(pt.log):
        if i % 9 == 0 and seat >= 0 and state.phase in ("before", "after", "return", "discard", "place"):
            decide("hard", state, seat, seed=i)
        state, _ = GAME.apply(state, seat, action)


@pytest.mark.parametrize("steps", [6, 40, 90])
def test_state_from_view_rebuilds_a_state_with_the_same_view(steps):
    pt = play(GAME, [AGENTS["easy"], AGENTS["easy"]], 3, max_steps=10**6)
    state = GAME.setup(2, 3)
    for seat, action in pt.log[:steps]:
        state, _ = GAME.apply(state, seat, action)
    for seat in (0, 1):
        view = GAME.view(state, seat)
        rebuilt = state_from_view(view, random.Random(1))
        assert GAME.view(rebuilt, seat) == view
        assert tiles_everywhere(rebuilt) == TABLE


def test_builders_build_and_the_apex_is_taken_when_it_wins():
    both = {"corner_stone": 4, "stairs": 2, "moon": 3, "cross": 4}
    s = make(racks=({"apex": 1, "helping_hand": 2}, {}), ships=(1, 0), grains=(3, 0), pyramids=(both, {}))
    for name in ("easy", "medium", "hard"):
        if name == "easy":
            continue  # Easy builds only half of the time
        assert decide(name, s, 0) == {"do": "build", "motif": "apex"}


def test_medium_steps_onto_the_needed_tile():
    board = {sp(3, 3): [], sp(3, 4): ["ship"], sp(3, 2): ["ox"], sp(2, 3): ["snake"], sp(4, 3): ["bird"]}
    s = make(
        board=board, workers=(sp(3, 3), sp(6, 3), sp(0, 0), sp(0, 6)), racks=({"horse": 1, "bird": 1}, {})
    )
    moves = []
    state = s
    while state.turn == 0 and state.phase in ("before", "after"):
        a = decide("medium", state, 0)
        moves.append(a)
        state, _ = GAME.apply(state, 0, a)
    assert state.ships[0] == 1 or state.racks[0][0] == 1, moves  # it went for the ship


def test_medium_discards_what_it_needs_least():
    rk = {"corner_stone": 4, "helping_hand": 4, "ox": 2, "snake": 1}
    s = make(racks=(rk, {}), phase="discard")
    a = decide("medium", s, 0)
    assert a["motif"] in ("ox", "snake")  # corner stones and hands are all still needed
    loss = {}
    for m in rk:
        after, _ = GAME.apply(s, 0, {"do": "discard", "motif": m})
        loss[m] = evaluate(s, 0) - evaluate(after, 0)
    assert loss[a["motif"]] == min(loss.values())


def test_medium_steals_a_needed_tile():
    s = make(racks=({"snake": 1}, {"ship": 1, "ox": 1}), phase="steal", resume="before")
    assert decide("medium", s, 0) == {"do": "steal", "motif": "ship"}


def test_agents_see_only_their_view():
    # the same view and rng give the same decision whatever the hidden tiles are
    s = make(racks=({"bird": 1, "snake": 1}, {"apex": 2, "moon": 1}))
    other = GAME.resample_hidden(s, 0, random.Random(4))
    assert other.racks[1] != s.racks[1] or other.board != s.board
    for name in ("medium", "hard"):
        assert decide(name, s, 0, seed=2) == decide(name, other, 0, seed=2)
