"""The public simulator's bots: their Go formulas on pinned positions, and batch twins that agree."""

from __future__ import annotations

import random

import pytest

from engine.core import play
from engine.incan_gold import GAME
from engine.incan_gold.ai import batch as B
from engine.incan_gold.ai import models as M
from engine.incan_gold.ai.published import ANCHOR_FIELD, PUBLISHED, ev, hazard_count, risky
from tests.engine.incan_gold.helpers import run

CAMP, TORCH = "camp", "torch"
LEGAL = [CAMP, TORCH]


def test_the_anchor_field_is_the_simulators_scenario_all():
    assert ANCHOR_FIELD == ("random-50", "random-10", "cowardly", "leave-at-2-hazards", "risky", "ev")
    assert set(ANCHOR_FIELD) == set(PUBLISHED)


def test_hazard_count_counts_hazard_types_on_the_path():
    one, _ = run(3, ["H-fire", {}, "T5"])
    two, _ = run(3, ["H-fire", {}, "T5", {}, "H-snakes"])
    assert hazard_count(2)(GAME.observe(one, 0), LEGAL, random.Random(0)) == TORCH
    assert hazard_count(2)(GAME.observe(two, 0), LEGAL, random.Random(0)) == CAMP
    assert hazard_count(1)(GAME.observe(one, 0), LEGAL, random.Random(0)) == CAMP


def test_risky_leaves_at_base_plus_s2_when_not_leading_and_s1_when_leading():
    # 3 seats inside: T17 gives 5 each, T15 5 each -> 10 carried; nobody leads: target 9 + 2 = 11
    state, _ = run(3, ["T17", {}, "T15"])
    view = GAME.observe(state, 0)
    assert view["you"]["carried"] == 10
    assert risky()(view, LEGAL, random.Random(0)) == TORCH
    state, _ = run(3, ["T17", {}, "T15", {}, "T4"])  # 11 carried
    assert risky()(GAME.observe(state, 0), LEGAL, random.Random(0)) == CAMP
    # leading by 2 or more (seat 1 and 2 banked nothing, seat 0 banked 14 in round 1): 9 + 4 = 13
    lead, _ = run(3, ["T14", {0: CAMP}, "H-fire", {1: CAMP, 2: CAMP}, "T17", {}, "T15", {}, "T4"])
    view = GAME.observe(lead, 0)
    assert view["round"] == 2 and view["you"]["carried"] == 11
    assert risky()(view, LEGAL, random.Random(0)) == TORCH


def test_risky_adds_the_artifacts_divided_by_the_explorers_inside():
    # 10 carried, A1 on the path: 5 // 3 = 1 more -> 11 >= 11
    state, _ = run(3, ["T17", {}, "T15", {}, "A1"])
    view = GAME.observe(state, 0)
    assert view["artifacts_on_path"] == ["A1"]
    assert risky()(view, LEGAL, random.Random(0)) == CAMP
    assert risky(artifact_ev=False)(view, LEGAL, random.Random(0)) == TORCH


def test_ev_is_upside_minus_downside_of_the_go_code():
    state, _ = run(4, ["T9", {}, "H-fire", {}, "T5"])
    view = GAME.observe(state, 0)
    deck = view["deck"]
    total = sum(deck.values())
    good = sum(n for c, n in deck.items() if c[0] in "TA")
    value = sum(int(c[1:]) * n for c, n in deck.items() if c[0] == "T") + 5  # A1 claimed first: 5
    upside = (value / good) * (good / total) / 4
    downside = view["you"]["carried"] * (deck["H-fire"] / total)
    assert upside - downside > 0
    assert ev(view, LEGAL, random.Random(0)) == TORCH
    rich, _ = run(4, ["T17", {}, "T15", {}, "T14", {}, "T13", {}, "H-fire", {}, "H-snakes", {}, "H-mummies"])
    view = GAME.observe(rich, 0)
    assert view["you"]["carried"] == 13
    assert ev(view, LEGAL, random.Random(0)) == CAMP


@pytest.mark.parametrize("options", [None, {"artifact_scoring": "printed"}])
def test_batch_twins_of_the_bots_play_the_same_games_as_the_engine_agents(options):
    seeds = list(range(0, 3000, 31))
    engine_agents = [PUBLISHED["ev"], PUBLISHED["risky"], hazard_count(1), hazard_count(2), PUBLISHED["ev"]]
    policies = [M.batch_ev, lambda b, s, r: M.batch_risky(b, s, r), M.leave_at_hazards(1), M.leave_at_hazards(2),
                M.batch_ev]
    b = B.run(B.new_batch(5, seeds=seeds, options=options), policies)
    scores = B.scores(b)
    for i, seed in enumerate(seeds):
        result = GAME.result(play(GAME, engine_agents, seed, options).state)
        assert list(scores[i]) == result["scores"], seed
