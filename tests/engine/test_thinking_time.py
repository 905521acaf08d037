"""The searching levels spend a budget that scales with the bot's thinking time (AI_THINK_S)."""

from __future__ import annotations

import random

from bench.research.indus import mcts as indus_mcts
from bench.research.indus import search as indus_search
from engine.core import CHANCE, Budget, resolve_chance, thinking_for
from engine.incan_gold import GAME
from engine.incan_gold import ai as incan_ai
from engine.indus.ai import learned as indus_learned
from engine.sakkara import GAME as SAKKARA
from engine.sakkara import ai as sakkara_ai


def test_incan_gold_hard_searches_its_count_per_second_of_thinking():
    assert incan_ai.hard_budget() == incan_ai.BUDGET == Budget(rollouts=512, seconds=1.0)
    with thinking_for(2.5):
        assert incan_ai.hard_budget() == Budget(rollouts=1280, seconds=2.5)
    with thinking_for(0.1):
        assert incan_ai.hard_budget() == Budget(rollouts=51, seconds=0.1)


def test_the_indus_search_on_trial_scales_its_nodes_too():
    assert indus_search.budget_now() == indus_search.BUDGET
    with thinking_for(3.0):
        assert indus_search.budget_now() == indus_search.SearchBudget(nodes=300, seconds=3.0)


def test_the_indus_monte_carlo_on_trial_scales_its_rollouts():
    assert indus_mcts.budget_now() == indus_mcts.BUDGET
    with thinking_for(3.0):
        assert indus_mcts.budget_now() == Budget(rollouts=3 * indus_mcts.BUDGET.rollouts, seconds=3.0)


def test_the_hard_agent_decides_with_the_scaled_budget(monkeypatch):
    seen: list[Budget] = []

    def spy(view, rng, budget):
        seen.append(budget)
        return False

    monkeypatch.setattr(incan_ai, "decide", spy)
    state = GAME.setup(4, 3)
    while GAME.to_move(state) == [CHANCE]:
        state, _ = GAME.apply(state, CHANCE, resolve_chance(GAME, state))
    with thinking_for(2.0):
        incan_ai.hard(GAME.observe(state, 0), GAME.legal_actions(state, 0), random.Random(1))
    assert seen == [Budget(rollouts=1024, seconds=2.0)]


def test_sakkara_hard_searches_its_rollouts_per_second_of_thinking(monkeypatch):
    assert sakkara_ai.hard_budget() == sakkara_ai.BUDGET
    seen = []

    def spy(view, legal, rng, style, budget):
        seen.append(budget)
        return legal[0]

    monkeypatch.setattr(sakkara_ai, "search_turn", spy)
    state = SAKKARA.setup(2, 5)
    while SAKKARA.to_move(state) == [CHANCE]:
        state, _ = SAKKARA.apply(state, CHANCE, resolve_chance(SAKKARA, state))
    # Play on (Medium for both) until Hard would search: a turn with a choice outside set-up.
    for _ in range(200):
        [seat] = SAKKARA.to_move(state)
        view, legal = SAKKARA.observe(state, seat), SAKKARA.legal_actions(state, seat)
        with thinking_for(2.0):
            sakkara_ai.hard(view, legal, random.Random(1))
        if seen:
            break
        state, _ = SAKKARA.apply(state, seat, sakkara_ai.medium(view, legal, random.Random(2)))
        while SAKKARA.to_move(state) == [CHANCE]:
            state, _ = SAKKARA.apply(state, CHANCE, resolve_chance(SAKKARA, state))
    assert seen[:1] == [Budget(rollouts=96, seconds=2.0)]


def test_indus_hard_searches_more_placements_the_longer_it_may_think():
    assert indus_learned.settings_now().place_k == indus_learned.SETTINGS.place_k == 32
    with thinking_for(0.25):
        assert indus_learned.settings_now().place_k == 8
    with thinking_for(0.01):
        assert indus_learned.settings_now().place_k == 1
