"""The numpy batch simulator agrees with the contract engine game by game on the same seeds."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core import play
from engine.incan_gold import GAME, ai
from engine.incan_gold import batch as B

ENGINE_AGENTS = [ai.leave_at_10, ai.leave_after_7, ai.leave_at_2_hazards, ai.always_torch, ai.leave_at_10]
BATCH_POLICIES = [B.leave_when_carried(10), B.leave_after_cards(7), B.leave_at_hazards(2), B.always_torch,
                  B.leave_when_carried(10)]


@pytest.mark.parametrize(
    "options",
    [None, {"preset": "diamant"}, {"preset": "forsvunna-diamanten"}, {"artifact_scoring": "entry-order"},
     {"preset": "incan-gold-modern"}, {"artifact_scoring": "pickup-round"}],
)
def test_batch_agrees_with_engine_game_by_game(options):
    seeds = list(range(0, 4000, 37))  # 109 games per edition
    b = B.run(B.new_batch(5, seeds=seeds, options=options), BATCH_POLICIES)
    scores, winners = B.scores(b), B.winners(b)
    for i, seed in enumerate(seeds):
        final = play(GAME, ENGINE_AGENTS, seed, options).state
        result = GAME.result(final)
        assert list(scores[i]) == result["scores"], seed
        assert list(np.flatnonzero(winners[i])) == result["winners"], seed
        assert list(b.art_count[i]) == [len(a) for a in final.artifacts], seed


def test_rollout_mode_draws_like_keyed_mode():
    # Rollout mode (numpy Generator) must play the same game as keyed mode, statistically.
    n = 4000
    keyed = B.scores(B.run(B.new_batch(5, seeds=list(range(n))), BATCH_POLICIES))
    rolled = B.scores(B.run(B.new_batch(5, n=n), BATCH_POLICIES, np.random.default_rng(11)))
    for seat in range(5):
        a, b = keyed[:, seat], rolled[:, seat]
        se = np.sqrt(a.var() / n + b.var() / n)
        assert abs(a.mean() - b.mean()) <= 4 * se, seat


def test_rollout_mode_is_reproducible_from_its_generator_seed():
    one = B.scores(B.run(B.new_batch(4, n=200), BATCH_POLICIES[:4], np.random.default_rng(3)))
    two = B.scores(B.run(B.new_batch(4, n=200), BATCH_POLICIES[:4], np.random.default_rng(3)))
    assert (one == two).all()
