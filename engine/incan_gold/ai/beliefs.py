"""What Hard believes about the way each other explorer plays, from the game's public story.

Every reveal announces who returned to camp; a careful player remembers it, and so does the
observation (``obs["story"]``: each expedition's cards in order and the number of cards on the
path when each seat left). Replaying that story with the rules gives every earlier decision of
every seat, with the table as it stood then. Each policy of the opponent model's prior
(:data:`models.PRIOR`) is scored on all of them: a policy that would have done what the seat did
keeps its weight, one that would not is all but ruled out (a small tremble keeps a human who
plays by feel from ruling out everything). The result, one posterior per seat, is what Hard's
copies of the game draw each opponent's policy from: the published bots, which always play the
same way, are recognised within an expedition or two.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from engine.core import CHANCE
from engine.incan_gold import effects, rules
from engine.incan_gold.ai import batch as B
from engine.incan_gold.ai import models as M

__all__ = ["TREMBLE", "draw", "log_likelihood", "posterior"]

TREMBLE = 0.05
"""The chance that a seat does what its policy would not have done (a misclick, a whim)."""

Story = tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]

_KINDS = np.array([k for k, _ in M.PRIOR], dtype=np.int64)
_PARAMS = np.array([p for _, p in M.PRIOR], dtype=np.int64)


Decision = tuple[dict[str, Any], list[int], list[bool]]
"""One past decision: the table as it stood (an observation), the seats deciding, who left."""


def _chapter(state: rules.State, cards: tuple[str, ...], exits: tuple[int, ...], running: bool,
             out: list[Decision]) -> rules.State | None:
    """Replay one expedition from ``state`` (``running``: the current one, whose last card awaits
    its decision), appending its decisions to ``out``; return the state after it (None when the
    story does not fit the rules, which a real game never does)."""
    for k, card in enumerate(cards, start=1):
        if state.phase != "chance" or card not in state.deck:
            return None
        state, _ = effects.apply(state, CHANCE, card)
        if state.phase != "decide" or (running and k == len(cards)):
            break
        deciding = [s for s in range(state.players) if state.inside[s]]
        left = [exits[s] == k for s in deciding]
        out.append((rules.observe(state, deciding[0]), deciding, left))
        for s, leave in zip(deciding, left, strict=True):
            state, _ = effects.apply(state, s, rules.CAMP if leave else rules.TORCH)
    return state


def _stack(parts: list[B.Batch]) -> B.Batch:
    """Return one batch holding the rows of ``parts`` (games of the same table) in order."""
    first = parts[0]
    out = dataclasses.replace(first)
    for f in dataclasses.fields(B.Batch):
        if isinstance(getattr(first, f.name), np.ndarray):
            setattr(out, f.name, np.concatenate([getattr(p, f.name) for p in parts]))
    return out


def _score(decisions: list[Decision], players: int) -> B.FloatArray:
    """Return the (players, len(PRIOR)) log-likelihood of every seat's choices under each policy:
    one batch row per (decision, policy), each seat's policies evaluated at once."""
    j = len(M.PRIOR)
    total = np.zeros((players, j), dtype=np.float64)
    if not decisions:
        return total
    b = _stack([B.from_observation(obs, j) for obs, _, _ in decisions])
    b.kinds = np.tile(np.repeat(_KINDS[:, None], players, axis=1), (len(decisions), 1))
    b.limits = np.tile(np.repeat(_PARAMS[:, None], players, axis=1), (len(decisions), 1))
    deciding = np.zeros((len(decisions), players), dtype=np.bool_)
    left = np.zeros((len(decisions), players), dtype=np.bool_)
    for t, (_, seats, leaves) in enumerate(decisions):
        deciding[t, seats] = True
        left[t, seats] = leaves
    still = np.random.default_rng(0)  # unused: random policies are weighed, not drawn
    is_random = _KINDS == M.RANDOM
    p_random = _PARAMS / 100.0
    for seat in range(players):
        points = np.flatnonzero(deciding[:, seat])
        if points.size == 0:
            continue
        rows = (points[:, None] * j + np.arange(j)[None, :]).ravel()
        would = M.policy_leaves(b, seat, rows, still).reshape(points.size, j)
        did = left[points, seat][:, None]
        fits = np.where(would == did, 1.0 - TREMBLE, TREMBLE)
        chance = np.where(is_random[None, :], np.where(did, p_random[None, :], 1.0 - p_random[None, :]), fits)
        total[seat] = np.log(chance).sum(axis=0)
    return total


@functools.lru_cache(maxsize=64)
def _finished(players: int, options: tuple[tuple[str, Any], ...],
              story: Story) -> tuple[B.FloatArray, rules.State | None]:
    """The log-likelihood of the ended expeditions and the state after them (memoised: both
    change once per expedition)."""
    state: rules.State | None = rules.setup(players, 0, dict(options))
    decisions: list[Decision] = []
    for cards, exits in story:
        if state is None:
            break
        state = _chapter(state, cards, exits, False, decisions)
    out = _score(decisions, players)
    out.setflags(write=False)
    return out, state


def log_likelihood(obs: dict[str, Any]) -> B.FloatArray:
    """Return the (players, len(PRIOR)) log-likelihood of every seat's public choices this game
    (ended expeditions and this one so far) under each policy of the prior."""
    players = int(obs["players"])
    options: tuple[tuple[str, Any], ...] = (("preset", str(obs["preset"])),)
    if obs["artifact_scoring"] is not None:
        options += (("artifact_scoring", str(obs["artifact_scoring"])),)
    memory = obs.get("story") or {"expeditions": [], "exits": [0] * players}
    story: Story = tuple((tuple(e["cards"]), tuple(int(x) for x in e["exits"])) for e in memory["expeditions"])
    done, state = _finished(players, options, story)
    if state is None:
        return done
    ongoing: list[Decision] = []
    cards = tuple(str(c["card"]) for c in obs["path"])
    _chapter(state, cards, tuple(int(x) for x in memory["exits"]), True, ongoing)
    result: B.FloatArray = done + _score(ongoing, players)
    return result


def posterior(obs: dict[str, Any]) -> B.FloatArray:
    """Return, per seat, the probability of each policy of the prior given the game so far."""
    logp = np.log(M.PRIOR_WEIGHTS)[None, :] + log_likelihood(obs)
    logp -= logp.max(axis=1, keepdims=True)
    p = np.exp(logp)
    out: B.FloatArray = p / p.sum(axis=1, keepdims=True)
    return out


def draw(post: B.FloatArray, n: int, rng: np.random.Generator) -> tuple[B.IntArray, B.IntArray]:
    """Return (kinds, limits), each (n, players): every seat's policy drawn from its posterior."""
    players = int(post.shape[0])
    pick = np.column_stack([rng.choice(post.shape[1], size=n, p=post[s]) for s in range(players)])
    return _KINDS[pick], _PARAMS[pick]
