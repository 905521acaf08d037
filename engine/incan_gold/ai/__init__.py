"""Incan Gold AI seats: Easy, Medium, Hard, and the baselines of published simulators.

Every agent is a pure function of one seat's observation (``GAME.observe``: its view plus the
tents a careful player reconstructs from public splits), its legal actions and its own RNG. No
agent ever sees the deck order (it does not exist before a draw) or another seat's pending
choice.

- **Easy** leaves after a random 4-8 cards (uniform, drawn as a hazard rate so no memory is
  needed: at card k it leaves with probability 1 / (9 - k)).
- **Medium** counts cards exactly: bust probability and expected share of the next card, a
  carried-gems threshold, and leaves alone when the path or its artifacts are rich.
- **Hard** is a determinised Monte-Carlo player (:mod:`engine.incan_gold.ai.hard`).

Beside them in this package, all shipped: what Hard needs at run time (:mod:`.hard`, its opponent
model :mod:`.beliefs` and :mod:`.models`, the vectorised rules :mod:`.batch` its copies play on),
the card counting every level shares (:mod:`.counting`), and the published simulator's bots
(:mod:`.published`) that the tests check :mod:`.models` against.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Agent, Budget
from engine.incan_gold.ai.counting import artifact_points_on_path, bust_probability, expected_share
from engine.incan_gold.ai.hard import decide
from engine.incan_gold.rules import CAMP, TORCH

__all__ = [
    "AGENTS",
    "BASELINES",
    "BUDGET",
    "always_torch",
    "bust_probability",
    "easy",
    "expected_share",
    "hard",
    "hard_budget",
    "leave_after_7",
    "leave_at_2_hazards",
    "leave_at_10",
    "medium",
    "random_half",
]


def _choose(leave: bool, legal: list[Any]) -> str:
    want = CAMP if leave else TORCH
    return want if want in legal else str(legal[0])


def _cards(view: dict[str, Any]) -> int:
    return len(view["path"])


def _hazards(view: dict[str, Any]) -> int:
    return sum(1 for c in view["path"] if c["card"].startswith("H-"))


# --------------------------------------------------------------------------- baselines


def random_half(view: dict[str, Any], legal: list[Any], rng: random.Random) -> str:
    """Baseline: camp or torch with equal odds."""
    return _choose(rng.random() < 0.5, legal)


def always_torch(view: dict[str, Any], legal: list[Any], rng: random.Random) -> str:
    """Baseline: never leave (only a collapse or the end of the deck stops it)."""
    return _choose(False, legal)


def leave_after_7(view: dict[str, Any], legal: list[Any], rng: random.Random) -> str:
    """Baseline: leave once 7 cards lie on the path."""
    return _choose(_cards(view) >= 7, legal)


def leave_at_10(view: dict[str, Any], legal: list[Any], rng: random.Random) -> str:
    """Baseline: leave once carrying 10 gems or more."""
    return _choose(view["you"]["carried"] >= 10, legal)


def leave_at_2_hazards(view: dict[str, Any], legal: list[Any], rng: random.Random) -> str:
    """Baseline: leave once two hazards lie on the path."""
    return _choose(_hazards(view) >= 2, legal)


# Medium's parameters: tuned with bench/incan_gold_tournament.py (see docs/benchmarks.md).
_MEDIUM_CARRY_LIMIT = 12
_MEDIUM_RICH_PATH = 6
_MEDIUM_OTHERS_LEAVE = 0.25


def medium(view: dict[str, Any], legal: list[Any], rng: random.Random) -> str:
    """Exact card counting: leave when the next card's expected loss beats its expected gain."""
    you = view["you"]
    carried = you["carried"]
    inside = len(view["inside"])
    bust = bust_probability(view)
    gain = expected_share(view, inside)
    # What leaving now brings home beyond the carried gems: a share of the path, the artifacts
    # if alone (others are assumed to leave with a fixed, modest probability each).
    others = inside - 1
    alone = (1 - _MEDIUM_OTHERS_LEAVE) ** others
    expected_leavers = 1 + others * _MEDIUM_OTHERS_LEAVE
    bonus = view["path_gems"] / expected_leavers + alone * artifact_points_on_path(view)
    stay_value = (1 - bust) * (carried + gain) + (1 - bust) * bonus * 0.8
    leave_value = carried + bonus
    if bust > 0 and carried >= _MEDIUM_CARRY_LIMIT:
        return _choose(True, legal)
    if bonus >= _MEDIUM_RICH_PATH and alone > 0.4:
        return _choose(True, legal)
    return _choose(leave_value > stay_value, legal)


def easy(view: dict[str, Any], legal: list[Any], rng: random.Random) -> str:
    """A beginner: it counts the hazards on the path, not the cards left in the deck. Two
    hazards and something in hand send it home (one time in three it pushes its luck for one
    more card), three always do, and so does a handful of 15 gems; it never thinks about the
    artifacts, the gems left on the path or the score."""
    carried = int(view["you"]["carried"])
    hazards = len(view["hazards_seen"])
    if hazards >= 3 or carried >= 15:
        return _choose(True, legal)
    if hazards == 2 and carried >= 4:
        return _choose(rng.random() >= 1 / 3, legal)
    return _choose(False, legal)


BUDGET = Budget(rollouts=512, seconds=1.0)
"""Hard's budget per decision at the default thinking time (1 s): pairs of simulated copies (the
bound, deterministic), capped by a wall-clock time (only a machine far slower than this one ever
reaches it). Both scale with the bot's thinking time (AI_THINK_S, :func:`hard_budget`)."""


def hard_budget() -> Budget:
    """Return Hard's budget for the decision being made: :data:`BUDGET` scaled by the thinking time."""
    return BUDGET.scaled()


def hard(view: dict[str, Any], legal: list[Any], rng: random.Random) -> str:
    """Determinised Monte-Carlo: the choice with the higher estimated probability of winning."""
    return _choose(decide(view, rng, hard_budget()), legal)


AGENTS: dict[str, Agent] = {"easy": easy, "medium": medium, "hard": hard}
"""The AI levels offered in the lobby."""

BASELINES: dict[str, Agent] = {
    "random-50": random_half,
    "always-torch": always_torch,
    "leave-after-7": leave_after_7,
    "leave-at-10": leave_at_10,
    "leave-at-2-hazards": leave_at_2_hazards,
}
"""Policies of published simulators, for benchmarks."""
