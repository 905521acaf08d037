"""Vectorised Incan Gold policies: the published bots on batch rows, and Hard's model of opponents.

Hard cannot see how the other explorers decide, so in its rollouts every other seat follows a
policy drawn from a broad prior of the ways people and published bots play (:data:`PRIOR`):
leave at a carried-gems target, at a number of hazards, after a number of cards, by card
counting (the simulator's "EV" bot and this project's counting rule), by "Risky"'s lead-aware
target, or at random. What the table has seen this game picks among them, seat by seat
(:mod:`engine.incan_gold.ai.beliefs`).

Each vectorised published bot takes exactly the decision of its engine agent in
:mod:`engine.incan_gold.ai.published` (a test plays both side by side).
"""

from __future__ import annotations

import numpy as np

from engine.incan_gold.ai import batch as B

__all__ = [
    "CARDS",
    "CARRIED",
    "COUNTING",
    "EV",
    "HAZARDS",
    "PRIOR",
    "RANDOM",
    "RISKY",
    "always_torch",
    "batch_ev",
    "batch_risky",
    "careful",
    "counting",
    "leave_after_cards",
    "leave_at_hazards",
    "leave_when_carried",
    "mixture",
    "policy_leaves",
]

CARRIED, HAZARDS, CARDS, EV, RISKY, COUNTING, RANDOM = range(7)
"""Policy kinds of the opponent model (``Batch.kinds``); the parameter is in ``Batch.limits``."""

PRIOR: tuple[tuple[int, int], ...] = (
    *((CARRIED, limit) for limit in range(5, 16)),
    *((HAZARDS, h) for h in (1, 2, 3)),
    *((CARDS, k) for k in range(4, 10)),
    (EV, 0),
    *((RISKY, base) for base in (7, 9, 11)),
    (COUNTING, 0),
    *((RANDOM, pct) for pct in (10, 25, 50)),
)
"""(kind, parameter) of every modelled policy; RANDOM's parameter is a percentage."""

# Each kind gets the same prior weight, shared among its parameters.
_KIND_WEIGHT = {kind: 1.0 / sum(1 for k, _ in PRIOR if k == kind) for kind, _ in PRIOR}
PRIOR_WEIGHTS = np.array([_KIND_WEIGHT[k] for k, _ in PRIOR]) / sum(_KIND_WEIGHT[k] for k, _ in PRIOR)


def _deck_artifacts(b: B.Batch, rows: B.IntArray) -> B.IntArray:
    """Return the bit mask of the artifacts still in the deck of ``rows``."""
    present = b.counts[rows, B.T_KINDS + B.HAZARDS:] > 0
    weights = np.left_shift(1, np.arange(B.ARTIFACTS, dtype=np.int64))
    mask: B.IntArray = (present * weights).sum(axis=1)
    return mask


def batch_ev(b: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
    """The published "EV" bot on batch rows (same float operations as ``published.ev``)."""
    counts = b.counts[rows]
    total = counts.sum(axis=1)
    active = b.inside[rows].sum(axis=1)
    treasures = counts[:, :B.T_KINDS]
    good = treasures.sum(axis=1) + counts[:, B.T_KINDS + B.HAZARDS:].sum(axis=1)
    value = (treasures * B.VALUES[None, :B.T_KINDS]).sum(axis=1).astype(np.float64)
    value += B.artifact_points(b, rows, _deck_artifacts(b, rows))[0]
    bad = (counts[:, B.T_KINDS:B.T_KINDS + B.HAZARDS] * b.seen[rows]).sum(axis=1)
    safe_total = np.maximum(total, 1)
    safe_good = np.maximum(good, 1)
    upside = np.where(good > 0, (value / safe_good) * (good / safe_total) / np.maximum(active, 1), 0.0)
    downside = b.carried[rows, seat] * (bad / safe_total)
    leave: B.BoolArray = (upside - downside <= 0) | (total == 0) | (active == 0)
    return leave


def batch_risky(b: B.Batch, seat: int, rows: B.IntArray, base: B.IntArray | int = 9,
                lead_margin: int = 2, s1: int = 4, s2: int = 2) -> B.BoolArray:
    """The published "Risky" bot with artifact EV on batch rows (``published.risky``)."""
    totals = b.banked[rows] + b.art_points[rows] + b.carried[rows]
    others = np.delete(totals, seat, axis=1)
    best_other = np.maximum(others.max(axis=1), 0) if others.shape[1] else np.zeros(rows.shape[0], np.int64)
    lead = totals[:, seat] - best_other
    target = base + np.where(lead >= lead_margin, s1, s2)
    active = np.maximum(b.inside[rows].sum(axis=1), 1)
    relics = b.relics[rows]
    bonus = np.where(relics != 0, B.artifact_points(b, rows, relics)[0] // active, 0)
    leave: B.BoolArray = b.carried[rows, seat] + bonus >= target
    return leave


def counting(b: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
    """Card counting: leave when the next card's expected loss beats its expected gain."""
    counts = b.counts[rows]
    total = np.maximum(counts.sum(axis=1), 1)
    hazards = counts[:, B.T_KINDS:B.T_KINDS + B.HAZARDS]
    bust = (hazards * b.seen[rows]).sum(axis=1) / total
    n_inside = np.maximum(b.inside[rows].sum(axis=1), 1)
    gain = (counts[:, :B.T_KINDS] * (B.VALUES[None, :B.T_KINDS] // n_inside[:, None])).sum(axis=1) / total
    carried = b.carried[rows, seat]
    bonus = b.path_gems[rows] / n_inside + np.where(b.relics[rows] != 0, 5.0 / n_inside, 0.0)
    leave: B.BoolArray = (1 - bust) * (carried + gain + bonus * 0.8) < carried + bonus
    return leave


def careful(risk: B.FloatArray) -> B.Policy:
    """Return card counting with each row's bust chance weighed by ``risk[row]`` (1: neutral)."""

    def policy(b: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
        counts = b.counts[rows]
        total = np.maximum(counts.sum(axis=1), 1)
        hazards = counts[:, B.T_KINDS:B.T_KINDS + B.HAZARDS]
        bust = np.minimum(1.0, risk[rows] * (hazards * b.seen[rows]).sum(axis=1) / total)
        n_inside = np.maximum(b.inside[rows].sum(axis=1), 1)
        values = B.VALUES[None, :B.T_KINDS] // n_inside[:, None]
        gain = (counts[:, :B.T_KINDS] * values).sum(axis=1) / total
        carried = b.carried[rows, seat]
        bonus = b.path_gems[rows] / n_inside + np.where(b.relics[rows] != 0, 5.0 / n_inside, 0.0)
        leave: B.BoolArray = (1 - bust) * (carried + gain + bonus * 0.8) < carried + bonus
        return leave

    return policy


def policy_leaves(b: B.Batch, seat: int, rows: B.IntArray, noise: np.random.Generator) -> B.BoolArray:
    """Return where each modelled seat's own policy (``b.kinds``/``b.limits``) leaves."""
    assert b.kinds is not None and b.limits is not None
    kind = b.kinds[rows, seat]
    param = b.limits[rows, seat]
    out = np.zeros(rows.shape[0], dtype=np.bool_)
    for k in np.unique(kind):
        sel = kind == k
        sub = rows[sel]
        p = param[sel]
        if k == CARRIED:
            out[sel] = b.carried[sub, seat] >= p
        elif k == HAZARDS:
            out[sel] = b.hazards_on_path[sub] >= p
        elif k == CARDS:
            out[sel] = b.revealed[sub] >= p
        elif k == EV:
            out[sel] = batch_ev(b, seat, sub)
        elif k == RISKY:
            out[sel] = batch_risky(b, seat, sub, base=p)
        elif k == COUNTING:
            out[sel] = counting(b, seat, sub)
        else:
            out[sel] = noise.random(int(sub.shape[0])) * 100 < p
    return out


def mixture(noise: np.random.Generator) -> B.Policy:
    """Return the policy of a modelled opponent: each row follows its own drawn (kind, parameter)."""

    def policy(b: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
        return policy_leaves(b, seat, rows, noise)

    return policy


# --- fixed-threshold baselines (the tournament's simple fields, the tests' reference seats)


def leave_when_carried(threshold: int) -> B.Policy:
    """Return the policy "return to camp once carrying at least ``threshold`` gems"."""
    def policy(b: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
        out: B.BoolArray = b.carried[rows, seat] >= threshold
        return out
    return policy


def leave_after_cards(cards: int) -> B.Policy:
    """Return the policy "return to camp once ``cards`` cards are on the path"."""
    def policy(b: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
        out: B.BoolArray = b.revealed[rows] >= cards
        return out
    return policy


def leave_at_hazards(hazards: int) -> B.Policy:
    """Return the policy "return to camp once ``hazards`` hazards are on the path"."""
    def policy(b: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
        out: B.BoolArray = b.hazards_on_path[rows] >= hazards
        return out
    return policy


def always_torch(b: B.Batch, seat: int, rows: B.IntArray) -> B.BoolArray:
    """Never return to camp voluntarily."""
    out: B.BoolArray = np.zeros(rows.shape[0], dtype=np.bool_)
    return out
