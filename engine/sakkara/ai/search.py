"""Sakkara's Hard AI: determinised Monte-Carlo search over whole turns.

A decision on one's own turn is a choice among whole-turn plans: the planner
(:mod:`engine.sakkara.ai.planner`) proposes the best few plans, one per distinct first action. Each
plan is then tried in many *determinisations* of the position: the tiles the seat cannot see
(every covered tile; the opponent's rack too unless the style has ``memory``) are drawn from
the unseen pool, from the seat's own observation only. Hard has memory: the opponent's rack is
known from public events (``GAME.observe``), so its worlds differ in the covered tiles only.
In each world the plan is replayed (it stops where it stops being legal: a covered tile may
differ), then the game is played on by the planner for both seats for a few whole
turns (Hard: the opponent's reply, then one's own next turn; used tiles placed in between), and
the position reached is scored by the value function (:func:`evaluation.evaluate`, squashed to a
win probability). Plans share their worlds (common random numbers), and the budget is spent by
*sequential halving*: every plan gets a few worlds, the better half gets more, and so on.

The search is bounded by a count of plan-world rollouts, so the same view and RNG give the same
move on any machine; a wall-clock cap stops it early only when the machine is far slower than
the count was set for (the move is then the best found so far).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from engine.core import Budget

from .. import rules
from ..state import State
from .evaluation import WIN, Style, evaluate, state_from_view
from .planner import REPLY, Plan, plan_turn, replay_plan, simulate_turn

__all__ = ["SearchStyle", "search_turn"]

Action = dict[str, Any]


@dataclass(frozen=True)
class SearchStyle:
    """The search's settings: candidate plans, look-ahead and the value function's weights."""

    plans: Style  # the planner that proposes candidates
    arms: int  # candidate plans (distinct first actions) searched
    turns: int  # whole turns simulated after the plan (the opponent's, one's own, ...)
    rollout: Style  # the planner that plays those turns
    value: Style  # the weights of the value function at the cut-off
    scale: float  # value difference that moves the win probability from 50 % to 73 %
    phases: tuple[str, ...] = ("before",)  # the turn phases searched (others: the planner decides)
    memory: bool = False  # worlds keep the opponent's rack known from public events (observe)


def _squash(value: float, scale: float) -> float:
    """Return a win-probability-like figure in [0, 1] for a value (the apex is 0 or 1)."""
    if value >= WIN / 2:
        return 1.0
    if value <= -WIN / 2:
        return 0.0
    return 1.0 / (1.0 + math.exp(-value / scale))


def _candidates(state: State, seat: int, style: SearchStyle) -> list[Plan]:
    """Return the planner's best plan for each of the best ``style.arms`` first actions."""
    plans = plan_turn(state, seat, style.plans, lambda s: evaluate(s, seat, style.plans))
    firsts: list[Plan] = []
    seen: set[str] = set()
    for p in plans:
        if not p[1]:
            continue
        key = rules.action_key(p[1][0])
        if key not in seen:
            seen.add(key)
            firsts.append(p)
        if len(firsts) == style.arms:
            break
    return firsts


def rollout(world: State, seat: int, plan: list[Action], style: SearchStyle,
            deadline: float = math.inf) -> float | None:
    """Return the squashed value for ``seat`` of playing ``plan`` in ``world`` and then
    ``style.turns`` whole turns (the opponent's, one's own, ...), scored at the start of the
    next turn; None when the clock passes ``deadline`` first. Every plan is scored at the same
    depth whether or not it left used tiles to return."""
    after = replay_plan(world, seat, plan)
    starts = 0
    while after.phase != "over":
        if after.phase == "before":
            if starts == style.turns:
                break
            starts += 1
        if time.perf_counter() > deadline:
            return None
        after = simulate_turn(after, style.rollout)
    return _squash(evaluate(after, seat, style.value), style.scale)


def search_turn(view: dict[str, Any], legal: list[Action], rng: random.Random, style: SearchStyle,
                budget: Budget) -> Action | None:
    """Return the first action of the plan the search rates best, or None without candidates."""
    seat = int(view["seat"])
    deadline = time.perf_counter() + budget.seconds
    state = state_from_view(view, rng, memory=style.memory)
    arms = [p for p in _candidates(state, seat, style) if p[1][0] in legal]
    if not arms:
        return None
    if len(arms) == 1:
        return arms[0][1][0]
    totals = [0.0] * len(arms)
    counts = [0] * len(arms)
    alive = list(range(len(arms)))
    rounds = max(1, math.ceil(math.log2(len(arms))))
    spent = 0
    for r in range(rounds):
        per_arm = max(1, (budget.rollouts - spent) // ((rounds - r) * len(alive)))
        for _ in range(per_arm):
            world = state_from_view(view, rng, memory=style.memory)  # one world for every plan alive
            for i in alive:
                value = rollout(world, seat, arms[i][1], style, deadline)
                if value is None:  # the clock cap: only on a machine far slower than planned
                    return _best(arms, totals, counts, alive)
                totals[i] += value
                counts[i] += 1
                spent += 1
        if len(alive) > 1:
            alive.sort(key=lambda i: -totals[i] / counts[i])
            alive = sorted(alive[: max(1, (len(alive) + 1) // 2)])
    return _best(arms, totals, counts, alive)


def _best(arms: list[Plan], totals: list[float], counts: list[int], alive: list[int]) -> Action:
    """Return the first action of the best surviving plan (most rollouts first, then mean)."""
    most = max(counts[i] for i in alive)
    if most == 0:
        return arms[0][1][0]  # no rollout finished: the planner's own first choice
    best = max((i for i in alive if counts[i] == most), key=lambda i: (totals[i] / counts[i], -i))
    return arms[best][1][0]


HARD = SearchStyle(
    plans=Style(width=5, depth=5, birds=5, denial=0.8, reach=0.45, replies=0, samples=0, far=0.5),
    arms=6,
    turns=2,
    rollout=REPLY,
    value=Style(width=5, depth=5, birds=5, denial=0.8, reach=0.45, replies=0, samples=0, far=0.5, mirror=True),
    scale=30.0,
    phases=("before", "after"),
    memory=True,
)
"""Hard's search settings: two whole turns after the plan (the opponent's reply and one's own
next turn), searched before and after the step (the Horse, the spells after a step). In 60-game
trials (± 12 %) against the planner with the reply check: one turn 56.7 %, two 66.7 %, three
58.3 % (and too slow), two searched after the step too 68.3 %; over 400 games (paired seeds from
20000) 68.2 % [63.5, 72.6]. With ``memory`` (the opponent's rack as known from public events,
issue 18), the same 400 games: 72.3 % [67.7, 76.4] (``bench/sakkara_ai.py --games 400
--matchups hard:medium``); on 400 fresh games (``--seed 900000``) 71.8 % [67.1, 75.9]."""
