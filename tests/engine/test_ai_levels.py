"""Every AI level of every game: only legal actions, from any reachable position; deterministic.

Positions come from seeded random playouts (random play reaches odd corners no AI game visits:
full racks, 90 Bird targets, a lone explorer deep in a temple). The searches run on a small
budget here (the lobby's budget plays the same code longer).
"""

from __future__ import annotations

import importlib
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import CHANCE, agent_rng, resolve_chance

GAMES = {"incan_gold": (3, 6), "sakkara": (2, 2), "indus": (2, 4)}
LEVELS = ("easy", "medium", "hard")
TRIALS = {"indus": "bench.research.indus", "sakkara": "bench.research.sakkara"}
"""Where each game's players under trial live (outside the shipped engine)."""


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch: pytest.MonkeyPatch) -> None:
    """Searches on a few rollouts (Indus: nodes) and no clock (so a slow test machine changes nothing)."""
    for name, rollouts in (("incan_gold", 64), ("sakkara", 4)):
        mod = importlib.import_module(f"engine.{name}.ai")
        monkeypatch.setattr(mod, "BUDGET", replace(mod.BUDGET, rollouts=rollouts, seconds=1e9))
    indus = importlib.import_module("bench.research.indus.search")
    monkeypatch.setattr(indus, "BUDGET", replace(indus.BUDGET, nodes=60, seconds=1e9))
    mcts = importlib.import_module("bench.research.indus.mcts")
    monkeypatch.setattr(mcts, "BUDGET", replace(mcts.BUDGET, rollouts=24, seconds=1e9))


def _experiments(name: str) -> dict[str, Any]:
    """Return a game's players under trial, tested beside its lobby levels."""
    return dict(importlib.import_module(TRIALS[name]).EXPERIMENTS) if name in TRIALS else {}


def _position(name: str, players: int, seed: int, steps: int) -> tuple[Any, Any, int]:
    """Return (game, state, seat) after ``steps`` random actions: a seat owing a decision."""
    game = importlib.import_module(f"engine.{name}").GAME
    rng = random.Random(seed)
    state = game.setup(players, seed)
    seat = CHANCE
    for i in range(steps + 10_000):
        movers = game.to_move(state)
        assert movers, "the playout ended before reaching a decision"
        seat = movers[0] if movers[0] == CHANCE else rng.choice(movers)
        if seat != CHANCE and i >= steps:
            return game, state, seat
        action = resolve_chance(game, state) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        if game.is_over(state):
            state = game.setup(players, seed + i + 1)  # start another game: positions, not games
    raise AssertionError("no decision reached")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**6), steps=st.integers(0, 400),
       players=st.integers(2, 6))
def test_every_level_returns_a_legal_action_from_random_positions(name, seed, steps, players):
    low, high = GAMES[name]
    players = min(max(players, low), high)
    game, state, seat = _position(name, players, seed, steps)
    legal = game.legal_actions(state, seat)
    mod = importlib.import_module(f"engine.{name}.ai")
    agents = {**mod.AGENTS, **_experiments(name)}
    for level in agents:
        action = agents[level](game.observe(state, seat), legal, agent_rng(seed, seat))
        assert action in legal, (name, level, action)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_same_position_and_seed_give_the_same_move(name):
    low, _ = GAMES[name]
    mod = importlib.import_module(f"engine.{name}.ai")
    agents = {**mod.AGENTS, **_experiments(name)}
    assert set(LEVELS) <= set(agents)
    for seed in range(3):
        game, state, seat = _position(name, max(low, 3) if name == "incan_gold" else low, seed, 40 + 29 * seed)
        legal = game.legal_actions(state, seat)
        for level in agents:
            first = agents[level](game.observe(state, seat), legal, agent_rng(seed, seat))
            again = agents[level](game.observe(state, seat), list(legal), agent_rng(seed, seat))
            assert first == again, (name, level, seed)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 10**6), steps=st.integers(0, 300),
       players=st.integers(2, 6))
def test_a_move_does_not_depend_on_what_the_seat_cannot_see(name, seed, steps, players):
    """Same view, different hidden state (opponents' racks, covered tiles, the deck's order), same
    seed: every level, the searches on trial included, makes the same move."""
    low, high = GAMES[name]
    players = min(max(players, low), high)
    game, state, seat = _position(name, players, seed, steps)
    legal = game.legal_actions(state, seat)
    mod = importlib.import_module(f"engine.{name}.ai")
    agents = {**mod.AGENTS, **_experiments(name)}
    others = [game.resample_hidden(state, seat, random.Random(seed + k)) for k in range(2)]
    for other in others:
        assert game.observe(other, seat) == game.observe(state, seat)
        assert game.legal_actions(other, seat) == legal
    for level, agent in agents.items():
        moves = [agent(game.observe(s, seat), legal, agent_rng(seed, seat)) for s in (state, *others)]
        assert moves == [moves[0]] * len(moves), (name, level, moves)


@pytest.mark.parametrize("seed", range(3))
def test_the_sakkara_search_sees_only_its_own_view(seed):
    """Sakkara's Hard (the search), at the start of a turn, in worlds that really differ where the seat cannot
    see (the opponent's rack, covered tiles): the same move every time."""
    game, state, seat = _position("sakkara", 2, seed, 30 + 17 * seed)
    for extra in range(200):  # on to a turn's start, where the search (not the planner) decides
        if state.phase == "before" and seat in game.to_move(state):
            break
        game, state, seat = _position("sakkara", 2, seed, 31 + 17 * seed + extra)
    assert state.phase == "before"
    legal = game.legal_actions(state, seat)
    agent = importlib.import_module("engine.sakkara.ai").AGENTS["hard"]
    others = [game.resample_hidden(state, seat, random.Random(1000 + k)) for k in range(3)]
    assert all(game.dumps(o) != game.dumps(state) for o in others)
    moves = {str(agent(game.observe(s, seat), legal, agent_rng(seed, seat))) for s in (state, *others)}
    assert len(moves) == 1, moves
