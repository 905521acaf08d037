"""The public story (who returned to camp when) and what Hard infers from it about each opponent."""

from __future__ import annotations

import json

import numpy as np

from engine.core import play
from engine.incan_gold import GAME
from engine.incan_gold.ai import beliefs
from engine.incan_gold.ai import models as M
from engine.incan_gold.ai.published import PUBLISHED, hazard_count
from tests.engine.incan_gold.helpers import run

CAMP = "camp"


def test_the_observation_remembers_who_left_when_in_every_expedition():
    state, _ = run(3, ["T5", {1: CAMP}, "T7", {2: CAMP}, "H-fire", {}, "H-fire", "T3", {0: CAMP}])
    story = GAME.observe(state, 0)["story"]
    # round 1: seat 1 left with 1 card on the path, seat 2 with 2, seat 0 was caught by the fire
    assert story["expeditions"] == [{"cards": ["T5", "T7", "H-fire", "H-fire"], "exits": [0, 1, 2]}]
    # round 2 is running: seat 0 has left after its first card
    assert story["exits"] == [1, 0, 0]
    assert "story" not in GAME.view(state, 0)  # the rendered views do not change


def test_a_state_stored_before_the_story_existed_still_loads():
    state, _ = run(3, ["T5", {1: CAMP}, "T7"])
    raw = json.loads(GAME.dumps(state))
    del raw["exits"], raw["story"]
    old = GAME.loads(json.dumps(raw))
    assert old.exits == (0, 0, 0) and old.story == ()
    assert GAME.observe(old, 0)["story"] == {"expeditions": [], "exits": [0, 0, 0]}


def _last_observation(agents, seed, seat=0):
    seen = []

    def spy(view, legal, rng):
        seen.append(view)
        return "torch"

    play(GAME, [spy if s == seat else a for s, a in enumerate(agents)], seed)
    return seen[-1]


def test_the_published_bots_are_recognised_from_the_story():
    field = [None, hazard_count(2), PUBLISHED["ev"], hazard_count(1)]
    hits = {1: 0, 2: 0, 3: 0}
    for seed in range(6):
        post = beliefs.posterior(_last_observation(field, seed))
        for seat, want in ((1, (M.HAZARDS, 2)), (2, (M.EV, 0)), (3, (M.HAZARDS, 1))):
            hits[seat] += M.PRIOR[int(np.argmax(post[seat]))] == want
        assert np.allclose(post.sum(axis=1), 1.0)
    assert hits == {1: 6, 2: 6, 3: 6}


def test_a_seat_that_breaks_its_pattern_once_is_not_ruled_out_entirely():
    # seat 1 leaves at 1 card in round 1, then stays through three hazards in round 2
    state, _ = run(3, ["T5", {1: CAMP, 2: CAMP}, "T7", {0: CAMP},
                       "H-fire", {}, "H-snakes", {}, "H-spiders", {}, "T3"])
    post = beliefs.posterior(GAME.observe(state, 0))
    assert np.all(np.isfinite(post)) and np.allclose(post.sum(axis=1), 1.0)
    assert post[1].max() < 0.99


def test_hard_draws_each_opponent_from_its_own_posterior():
    post = np.zeros((3, len(M.PRIOR)))
    post[:, 0] = 1.0
    post[1] = 0.0
    post[1, M.PRIOR.index((M.HAZARDS, 2))] = 1.0
    kinds, limits = beliefs.draw(post, 50, np.random.default_rng(1))
    assert kinds.shape == (50, 3)
    assert set(kinds[:, 1]) == {M.HAZARDS} and set(limits[:, 1]) == {2}
    assert set(kinds[:, 2]) == {M.PRIOR[0][0]}
