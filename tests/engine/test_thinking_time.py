"""The searching levels spend a budget that scales with the bot's thinking time (AI_THINK_S)."""

from __future__ import annotations

import random

from engine.core import CHANCE, resolve_chance, thinking_for
from engine.incan_gold import GAME
from engine.incan_gold import ai as incan_ai
from engine.incan_gold.hard import Budget as IncanBudget
from engine.indus import search as indus_search


def test_incan_gold_hard_searches_its_count_per_second_of_thinking():
    assert incan_ai.hard_budget() == incan_ai.BUDGET == IncanBudget(rollouts=512, seconds=1.0)
    with thinking_for(2.5):
        assert incan_ai.hard_budget() == IncanBudget(rollouts=1280, seconds=2.5)
    with thinking_for(0.1):
        assert incan_ai.hard_budget() == IncanBudget(rollouts=51, seconds=0.1)


def test_the_indus_search_on_trial_scales_its_nodes_too():
    assert indus_search.budget_now() == indus_search.BUDGET
    with thinking_for(3.0):
        assert indus_search.budget_now() == indus_search.Budget(nodes=300, seconds=3.0)


def test_the_hard_agent_decides_with_the_scaled_budget(monkeypatch):
    seen: list[IncanBudget] = []

    def spy(view, rng, budget):
        seen.append(budget)
        return False

    monkeypatch.setattr(incan_ai, "decide", spy)
    state = GAME.setup(4, 3)
    while GAME.to_move(state) == [CHANCE]:
        state, _ = GAME.apply(state, CHANCE, resolve_chance(GAME, state))
    with thinking_for(2.0):
        incan_ai.hard(GAME.observe(state, 0), GAME.legal_actions(state, 0), random.Random(1))
    assert seen == [IncanBudget(rollouts=1024, seconds=2.0)]
