"""The Hard Incan Gold AI: determinised Monte-Carlo that maximises the probability of winning.

From one seat's observation it builds many copies of the game (:func:`batch.from_observation`):
the deck order is unknown, so every copy draws its own; the other explorers' policies are
unknown, so each copy gives every opponent a policy drawn from what the game's public story
says of it (:mod:`engine.incan_gold.ai.beliefs`: a broad prior of ways to play,
:mod:`engine.incan_gold.ai.models`, weighed by how well each explains every choice that seat made so
far: a bot that always plays the same way is soon recognised). The
copies come in pairs that meet the same cards and the same opponents (common random numbers):
one returns to camp now, its twin carries the torch. Each copy is played to the end of the
game, with the seat itself card counting in later decisions, and the choice that wins the larger
share of its copies is taken. Scores (reconstructed tents) are part of the observation,
so the same search plays safe when leading and takes risks when behind in the last expeditions.

The work is a fixed number of copies (``Budget.rollouts``): the same observation and RNG give the same
choice on any machine.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from engine.core import Budget
from engine.incan_gold import editions as ed
from engine.incan_gold.ai import batch as B
from engine.incan_gold.ai import beliefs
from engine.incan_gold.ai import models as M
from engine.incan_gold.ai.counting import artifact_points_on_path, bust_probability

__all__ = ["CHUNK", "HORIZON", "RISKS", "decide", "evaluate"]

FloatArray = B.FloatArray


CHUNK = 256
"""Pairs of copies simulated together; the clock is read between chunks."""

RISKS: tuple[float, ...] = (0.6, 1.0, 1.6)
"""The seat's own continuations in the copies: card counting with the bust chance weighed by
each factor (bolder, neutral, more careful). Each choice is credited with its best one, so
carrying the torch is not undervalued by one fixed way of playing on."""

HORIZON = 5
"""Expeditions played out card by card (this one and the next ones); later ones are estimated."""

# Spread (standard deviation) of one seat's score gain over one expedition, by table size,
# measured with the batch simulator (card-counting and threshold players): expeditions beyond
# the horizon add Normal(0, sigma^2 * rounds) to every seat.
_ROUND_SIGMA = {2: 9.5, 3: 7.6, 4: 6.2, 5: 5.2, 6: 4.5, 7: 4.0, 8: 3.5}


def _chunk(obs: dict[str, Any], rng: np.random.Generator, n: int, horizon: int,
           risks: tuple[float, ...], post: FloatArray) -> FloatArray:
    """Return, for ``n`` pairs of copies and each continuation, the (win share, margin) sums of
    camp then torch: an array (len(risks), 4)."""
    me = int(obs["you"]["seat"])
    k = len(risks)
    b = B.from_observation(obs, 2 * n * k)
    kinds, limits = beliefs.draw(post, n, rng)
    # rows: continuation j, then camp (n rows) and torch (n rows); every block meets the same
    # opponents and, in keyed mode, the same cards (common random numbers)
    b.kinds = np.tile(kinds, (2 * k, 1))
    b.limits = np.tile(limits, (2 * k, 1))
    mix = rng.integers(0, 2**63, size=n, dtype=np.uint64)
    b.seed_mix = np.tile(mix, 2 * k)
    b.exact = False  # keyed for common random numbers, not for agreeing with the engine
    noise = np.random.default_rng(int(rng.integers(0, 2**63)))
    risk = np.repeat(np.array(risks, dtype=np.float64), 2 * n)
    policies: list[B.Policy] = [M.mixture(noise)] * b.players
    policies[me] = M.careful(risk)
    camp_rows = (np.arange(2 * n * k) // n) % 2 == 0

    def now(_: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
        leave: B.BoolArray = camp_rows[rows]
        return leave

    first = list(policies)
    first[me] = now
    B.decide(b, np.arange(b.n, dtype=np.int64), first)
    B.run(b, policies, until_round=int(obs["round"]) + horizon - 1)
    sc = B.scores(b)
    wins = B.winners(b)
    share = wins[:, me] / wins.sum(axis=1)  # a shared win counts as a fraction
    open_rows = b.round <= ed.ROUNDS
    if open_rows.any():
        # Beyond the horizon: the rounds left add the same spread to every seat's score.
        left = (ed.ROUNDS + 1 - b.round[open_rows])[:, None]
        sigma = _ROUND_SIGMA[min(max(b.players, 2), 8)]
        final = sc[open_rows] + rng.normal(0.0, 1.0, size=(int(open_rows.sum()), b.players)) * sigma * np.sqrt(left)
        share[open_rows] = final.argmax(axis=1) == me
    margin = sc[:, me] - (np.delete(sc, me, axis=1).max(axis=1) if b.players > 1 else 0)
    ws = share.reshape(k, 2, n).sum(axis=2)
    wm = margin.reshape(k, 2, n).sum(axis=2)
    out: FloatArray = np.column_stack([ws[:, 0], wm[:, 0], ws[:, 1], wm[:, 1]])
    return out


def evaluate(obs: dict[str, Any], rng: np.random.Generator, budget: Budget, horizon: int = HORIZON,
             risks: tuple[float, ...] = RISKS) -> tuple[float, float, float, float]:
    """Return (win share, margin) for camp, then for torch: means over paired copies,
    simulated ``CHUNK`` pairs at a time until the budget's count (or its clock) runs out; each
    choice is credited with its best continuation."""
    start = time.perf_counter()
    sums = np.zeros((len(risks), 4))
    post = beliefs.posterior(obs)
    done = 0
    while done < budget.rollouts:
        n = min(CHUNK, budget.rollouts - done)
        sums += _chunk(obs, rng, n, horizon, risks, post)
        done += n
        spent = time.perf_counter() - start
        # Stop when one more chunk like the ones so far would run past the cap (only a machine
        # far slower or busier than the one the budget was set on ever gets here).
        if spent * (done + CHUNK) / done > budget.seconds:
            break
    means = sums / done
    camp = int(np.argmax(means[:, 0] + 1e-9 * means[:, 1]))
    torch = int(np.argmax(means[:, 2] + 1e-9 * means[:, 3]))
    return (float(means[camp, 0]), float(means[camp, 1]), float(means[torch, 2]), float(means[torch, 3]))


def decide(obs: dict[str, Any], rng: random.Random, budget: Budget) -> bool:
    """Return True to return to camp: the choice with the higher estimated chance to win."""
    you = obs["you"]
    if bust_probability(obs) == 0 and not obs["path_gems"] and not artifact_points_on_path(obs) \
            and you["carried"] == 0:
        return False  # nothing to bank and nothing at risk: the torch costs nothing
    gen = np.random.default_rng(rng.getrandbits(64))
    camp_win, camp_margin, torch_win, torch_margin = evaluate(obs, gen, budget)
    if abs(camp_win - torch_win) > 1e-9:
        return camp_win > torch_win
    return camp_margin > torch_margin
