"""Whole-turn planning for the Sakkara AIs: a beam search over one turn, and the small choices.

A Sakkara turn is a sequence of small actions (uses, the step, more uses, end). The planner
searches whole turns: builds and displays are made as soon as they are open (they never hurt:
one level per turn is kept by the rules), the rest of the turn (Bird, step, Horse, Ox, spells,
Snake, end) is a beam search scored by a value function (:mod:`engine.sakkara.ai.evaluation`).
The small choices (where to put a worker, where to put the opponent's used tiles, what to
discard or steal) are greedy rules. Every AI level builds on these pieces.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from typing import Any

from .. import effects, rules
from ..game import resample_forgetful
from ..state import NEIGHBOURS, State
from ..tiles import LEVEL_OF, MOTIF_INDEX, MOTIFS
from .evaluation import (
    GRAIN,
    SHIP,
    Style,
    evaluate,
    marginals,
    rack_value,
)

__all__ = [
    "REPLY",
    "Plan",
    "check_replies",
    "discard_choice",
    "finish",
    "normalise",
    "place_stack",
    "place_worker",
    "plan_turn",
    "replay_plan",
    "simulate_turn",
    "steal_choice",
]

Action = dict[str, Any]
_N = len(MOTIFS)
_I = MOTIF_INDEX


def normalise(state: State, seat: int) -> tuple[State, list[Action]]:
    """Make every display and build open now (they never hurt); return the state and the actions."""
    done: list[Action] = []
    while state.phase in ("before", "after") and state.turn == seat:
        rack = state.racks[seat]
        action: Action | None = None
        if rack[SHIP] and not state.ships[seat]:
            action = {"do": "display", "motif": "ship"}
        elif rack[GRAIN] and state.grains[seat] < rules.grain_cap(state, seat):
            action = {"do": "display", "motif": "grain"}
        else:
            for m in LEVEL_OF:
                if rules.build_ok(state, seat, m):
                    action = {"do": "build", "motif": m}
                    break
        if action is None:
            break
        state, _ = effects.do(state, seat, action)
        done.append(action)
    return state, done


def discard_choice(state: State, seat: int) -> Action:
    rack = state.racks[seat]
    pyr = state.pyramids[seat]
    base = rack_value(rack, pyr, state.ships[seat], state.grains[seat])
    best: tuple[float, str] | None = None
    for i in range(_N):
        if rack[i]:
            less = list(rack)
            less[i] -= 1
            loss = base - rack_value(tuple(less), pyr, state.ships[seat], state.grains[seat])
            if best is None or loss < best[0]:
                best = (loss, MOTIFS[i])
    assert best is not None
    return {"do": "discard", "motif": best[1]}


def steal_choice(state: State, seat: int) -> Action:
    opp_rack = state.racks[1 - seat]
    marg = marginals(state.racks[seat], state.pyramids[seat], state.ships[seat], state.grains[seat])
    opp = 1 - seat
    less = tuple(max(0, c - 1) for c in opp_rack)
    their = marginals(less, state.pyramids[opp], state.ships[opp], state.grains[opp])
    i = max((i for i in range(_N) if opp_rack[i]), key=lambda i: marg[i] + 0.5 * their[i])
    return {"do": "steal", "motif": MOTIFS[i]}


def finish(state: State, seat: int) -> State:
    """Play this seat's discards greedily (after ``end``)."""
    while state.phase == "discard" and state.turn == seat:
        state, _ = effects.do(state, seat, discard_choice(state, seat))
    return state


def _candidates(state: State, seat: int, style: Style, marg: tuple[float, ...]) -> list[Action]:
    out: list[Action] = []
    seen_casts: set[tuple[Any, ...]] = set()
    birds: dict[int, list[tuple[float, int, Action]]] = {0: [], 1: []}
    for a in rules.legal(state, seat, ordered=False):
        kind = a["do"]
        if kind in ("build", "display"):
            continue
        if kind == "cast":
            key = (a["spell"], a.get("worker"), a.get("line"))
            if key in seen_casts:
                continue  # the order of the three spent tiles hardly matters to the planner
            seen_casts.add(key)
        elif kind == "bird":
            sp = int(a["space"])
            birds[int(a["worker"])].append((marg[_I[state.board[sp][-1]]], -sp, a))
            continue
        out.append(a)
    for w in (0, 1):
        out.extend(a for _, _, a in heapq.nlargest(style.birds, birds[w], key=lambda t: (t[0], t[1])))
    return out


Plan = tuple[float, list[Action], State]


def _node_key(s: State) -> tuple[Any, ...]:
    return (s.board, s.workers, s.racks, s.phase, s.ships, s.grains, s.stepped, s.birded, s.horse_used)


def plan_turn(state: State, seat: int, style: Style, score: Callable[[State], float]) -> list[Plan]:
    """Return whole-turn plans (score, actions, end state) found by a beam search, best first."""
    root, pre = normalise(state, seat)
    if root.phase not in ("before", "after") or root.turn != seat:
        return [(score(root), pre, root)]
    marg = marginals(root.racks[seat], root.pyramids[seat], root.ships[seat], root.grains[seat])
    frontier: list[Plan] = [(0.0, pre, root)]
    finished: list[Plan] = []
    seen: set[tuple[Any, ...]] = set()
    for _ in range(style.depth):
        children: list[Plan] = []
        for _, path, node in frontier:
            for a in _candidates(node, seat, style, marg):
                child, _ = effects.do(node, seat, a)
                steps = [*path, a]
                if a["do"] == "end":
                    child = finish(child, seat)
                    finished.append((score(child), steps, child))
                    continue
                if child.phase == "steal":
                    steal = steal_choice(child, seat)
                    child, _ = effects.do(child, seat, steal)
                    steps.append(steal)
                child, more = normalise(child, seat)
                steps += more
                if child.phase == "over":
                    finished.append((score(child), steps, child))
                    continue
                key = _node_key(child)
                if key in seen:
                    continue
                seen.add(key)
                children.append((score(child), steps, child))
        if not children:
            break
        frontier = heapq.nlargest(style.width, children, key=lambda p: p[0])
    for _, path, node in frontier:  # out of depth: end where ending is open
        if {"do": "end"} in rules.legal(node, seat, ordered=False):
            child = finish(effects.do(node, seat, {"do": "end"})[0], seat)
            finished.append((score(child), [*path, {"do": "end"}], child))
    finished.sort(key=lambda p: -p[0])
    return finished


def place_worker(state: State, seat: int, legal: list[Action]) -> Action:
    marg = marginals(state.racks[seat], state.pyramids[seat], state.ships[seat], state.grains[seat])

    def worth(a: Action) -> float:
        sp = int(a["space"])
        near = [marg[_I[state.board[n][-1]]] for n in NEIGHBOURS[sp].values() if n >= 0 and state.board[n]]
        return marg[_I[state.board[sp][-1]]] + 0.5 * max(near, default=0.0)

    return max(legal, key=worth)


def _dist(a: int, b: int) -> int:
    return abs(a // 7 - b // 7) + abs(a % 7 - b % 7)


def place_stack(state: State, seat: int, legal: list[Action]) -> Action:
    """As placer: the biggest piece, near own workers and far from the opponent's."""
    biggest = max(int(a["count"]) for a in legal)
    mine = [state.workers[2 * seat], state.workers[2 * seat + 1]]
    theirs = [state.workers[2 * (1 - seat)], state.workers[2 * (1 - seat) + 1]]

    def worth(a: Action) -> float:
        sp = int(a["space"])
        return min(_dist(sp, t) for t in theirs) - min(_dist(sp, m) for m in mine)

    return max((a for a in legal if a["count"] == biggest), key=worth)


def simulate_turn(state: State, style: Style) -> State:
    """Play the current mover's whole turn with the planner (used to guess the opponent's reply)."""
    seat = state.turn
    if state.phase == "return":
        placer = 1 - seat
        while state.phase == "return":
            state, _ = effects.do(state, placer, place_stack(state, placer, rules.legal(state, placer)))
        return state
    plans = plan_turn(state, seat, style, lambda s: evaluate(s, seat, style))
    if not plans:
        return state
    end = plans[0][2]
    if end.phase == "return":
        placer = 1 - seat
        while end.phase == "return":
            end, _ = effects.do(end, placer, place_stack(end, placer, rules.legal(end, placer)))
    return end


def replay_plan(state: State, seat: int, plan: list[Action]) -> State:
    """Replay a plan on another determinisation; stop where it stops being legal, then end greedily."""
    for a in plan:
        if a not in rules.legal(state, seat, ordered=False):
            break
        state, _ = effects.do(state, seat, a)
    state = finish(state, seat)
    while state.phase in ("before", "after", "steal") and state.turn == seat:
        legal = rules.legal(state, seat, ordered=False)
        if state.phase == "steal":
            state, _ = effects.do(state, seat, steal_choice(state, seat))
        elif {"do": "end"} in legal:
            state = finish(effects.do(state, seat, {"do": "end"})[0], seat)
        else:
            state, _ = effects.do(state, seat, next(a for a in legal if a["do"] == "step"))
    return state


REPLY = Style(width=2, depth=3, birds=2, denial=0.5, reach=0.3, replies=0, samples=0)


def check_replies(
    state: State, seat: int, plans: list[Plan], style: Style, rng: random.Random
) -> list[Plan]:
    """Re-rank the best plans (one per first action) by the opponent's simulated reply."""
    firsts: list[Plan] = []
    seen: set[str] = set()
    for p in plans:
        key = rules.action_key(p[1][0]) if p[1] else ""
        if key not in seen:
            seen.add(key)
            firsts.append(p)
        if len(firsts) == style.replies:
            break
    # common random numbers: every plan meets the same samples of the hidden tiles; the opponent's
    # rack is resampled too (Medium, the yardstick of Hard, keeps no memory of the game)
    worlds = [resample_forgetful(state, seat, rng) for _ in range(style.samples)]
    ranked: list[Plan] = []
    for plan in firsts:
        total = 0.0
        for world in worlds:
            after = replay_plan(world, seat, plan[1])
            for _ in range(3):  # the return of my stack, the opponent's turn, the return of its stack
                if after.phase == "over" or (after.turn == seat and after.phase == "before"):
                    break
                after = simulate_turn(after, REPLY)
            total += evaluate(after, seat, style)
        ranked.append((total / style.samples, plan[1], plan[2]))
    ranked.sort(key=lambda p: -p[0])
    return ranked
