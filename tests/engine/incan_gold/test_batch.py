"""The numpy batch simulator agrees with the contract engine game by game on the same seeds."""

from __future__ import annotations

import numpy as np
import pytest

from engine.core import play
from engine.incan_gold import GAME, ai
from engine.incan_gold import editions as ed
from engine.incan_gold.ai import batch as B
from engine.incan_gold.ai import models as M

ENGINE_AGENTS = [ai.leave_at_10, ai.leave_after_7, ai.leave_at_2_hazards, ai.always_torch, ai.leave_at_10]
BATCH_POLICIES = [M.leave_when_carried(10), M.leave_after_cards(7), M.leave_at_hazards(2), M.always_torch,
                  M.leave_when_carried(10)]


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


def _artifact_points_one_by_one(scoring: str, claimed: int, rnd: int, mask: int) -> tuple[int, int]:
    """The rules' reading: the artifacts of ``mask`` claimed one after another, oldest first."""
    points = count = 0
    for r in range(1, B.ARTIFACTS + 1):
        if mask >> (r - 1) & 1:
            if scoring == "claim-order":
                points += 5 if claimed < 3 else 10
            elif scoring == "entry-order":
                points += 5 if r <= 3 else 10
            elif scoring == "printed":
                points += ed.ROUND_VALUES[r - 1]
            else:
                points += ed.ROUND_VALUES[rnd - 1]
            count += 1
            claimed += 1
    return points, count


@pytest.mark.parametrize("scoring", ["claim-order", "entry-order", "printed", "pickup-round"])
def test_artifact_points_match_claiming_them_one_by_one(scoring):
    masks = np.arange(1 << B.ARTIFACTS, dtype=np.int64)
    for claimed in range(6):
        for rnd in range(1, 6):
            b = B.new_batch(3, n=masks.shape[0], options={"artifact_scoring": scoring})
            b.claimed[:] = claimed
            b.round[:] = rnd
            points, count = B.artifact_points(b, np.arange(masks.shape[0]), masks)
            expected = [_artifact_points_one_by_one(scoring, claimed, rnd, int(m)) for m in masks]
            assert list(zip(points.tolist(), count.tolist(), strict=True)) == expected, (claimed, rnd)
