"""Indus AI seats: legal choices only, exact state rebuild from views, and greedy sanity scenarios."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core import play
from engine.indus import GAME
from engine.indus.ai import AGENTS, heuristics, state_from_view
from tests.engine.indus.indus_helpers import mk, pc, roll


class Checked:
    """Wrap an agent: assert every choice it makes is one of the legal actions."""

    def __init__(self, agent):
        self.agent = agent

    def __call__(self, view, legal, rng):
        choice = self.agent(view, legal, rng)
        assert choice in legal
        return choice


@pytest.mark.parametrize(("players", "names"), [(2, ["hard", "medium"]), (3, ["medium", "easy", "hard"]),
                                               (4, ["easy", "medium", "hard", "medium"])])
def test_agents_only_choose_legal_actions_through_a_whole_game(players, names):
    out = play(GAME, [Checked(AGENTS[n]) for n in names], seed=players * 31, options={"layout": "random"})
    assert GAME.is_over(out.state)


def test_state_from_view_rebuilds_the_state_exactly():
    rng = random.Random(3)
    state = GAME.setup(2, 77, {"layout": "random"})
    seen = 0
    while not GAME.is_over(state):
        [seat] = GAME.to_move(state)
        if seat >= 0:
            rebuilt = state_from_view(GAME.view(state, seat))
            assert rebuilt == replace(state, seed=0, draws=0)
            seen += 1
            action = rng.choice(GAME.legal_actions(state, seat))
        else:
            action = rng.randint(1, 6)
        state, _ = GAME.apply(state, seat, action)
    assert seen > 50


@pytest.mark.parametrize("name", ["medium", "hard"])
def test_prefers_securing_with_a_capture(name):
    # N0 with die 2 lands on (1,0) where colour 0 has a piece under colour 1's professor.
    state = mk(4, frame={"N0": pc(0, "W"), "N4": pc(0, "W"), "S2": pc(1, "W")},
               stacks={(1, 0): [pc(0, "W"), pc(1, "P")]}, phase="roll")
    state = roll(state, 2)
    choice = AGENTS[name](GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(0))
    assert choice["space"] == "N0"


@pytest.mark.parametrize("name", ["medium", "hard"])
def test_avoids_landing_on_an_opponent_secured_square(name):
    state = mk(4, frame={"N0": pc(0, "W"), "N5": pc(0, "W"), "S2": pc(1, "W")},
               stacks={(0, 0): [pc(1, "W"), pc(1, "W")]}, owners={(0, 0): 1}, phase="roll")
    state = roll(state, 1)
    choice = AGENTS[name](GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(0))
    assert choice["space"] == "N5"


@pytest.mark.parametrize("name", ["medium", "hard"])
def test_rerolls_when_every_move_now_is_a_capture(name):
    state = mk(4, frame={"N0": pc(0, "W"), "N1": pc(0, "A"), "S2": pc(1, "W")},
               stacks={(0, 0): [pc(1, "W"), pc(1, "W")], (0, 1): [pc(1, "A"), pc(1, "A")]},
               owners={(0, 0): 1, (0, 1): 1}, phase="roll")
    state = roll(state, 1)
    legal = GAME.legal_actions(state, 0)
    assert AGENTS[name](GAME.view(state, 0), legal, random.Random(0)) == {"do": "reroll"}
    # with only workers there is no reroll and the agent still picks a move
    workers = roll(replace(state, phase="roll", roll=0, die=0, frame=tuple(
        pc(0, "W") if p == pc(0, "A") else p for p in state.frame)), 1)
    legal = GAME.legal_actions(workers, 0)
    assert {"do": "reroll"} not in legal
    assert AGENTS[name](GAME.view(workers, 0), legal, random.Random(0)) in legal


def test_the_greedy_player_keeps_a_professor_and_returns_a_worker():
    for rank, answer in (("P", "keep"), ("W", "return")):
        stack = [pc(2, rank), pc(0, "W")]
        state = mk(2, frame={"N4": pc(0, "A"), "S0": pc(1, "W")}, stacks={(0, 4): stack}, phase="roll")
        state, _ = GAME.apply(roll(state, 1), 0, GAME.legal_actions(roll(state, 1), 0)[0])
        assert state.phase == "keep"
        choice = heuristics.medium(GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(0))
        assert choice["do"] == answer


def test_easy_plays_like_a_beginner():
    # it places its lowest rank first, never rerolls and keeps every prisoner
    state = GAME.setup(2, 2)
    while state.phase == "setup":
        state, _ = GAME.apply(state, state.seat, GAME.legal_actions(state, state.seat)[0])
    choice = AGENTS["easy"](GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(0))
    assert choice["rank"] == "W"
    state = mk(4, frame={"N0": pc(0, "W"), "N1": pc(0, "A"), "S2": pc(1, "W")},
               stacks={(0, 0): [pc(1, "W"), pc(1, "W")], (0, 1): [pc(1, "A"), pc(1, "A")]},
               owners={(0, 0): 1, (0, 1): 1}, phase="roll")
    state = roll(state, 1)
    legal = GAME.legal_actions(state, 0)
    assert {"do": "reroll"} in legal
    assert AGENTS["easy"](GAME.view(state, 0), legal, random.Random(0))["do"] == "move"
