"""AI players for Sakkara: Easy, Medium and Hard (``AGENTS``).

Each agent is a pure function of one seat's view (its own rack; the opponent's rack size only;
stack heights and tops only), its legal actions and its own RNG. To plan, an agent rebuilds a
full state from the view by *determinisation*: the tiles it cannot see (the covered tiles and the
opponent's rack) are drawn from the unseen pool, the same distribution as
``GAME.resample_hidden``.

- **Easy**: a random legal action, picked by kind first (so a Bird's 90 targets do not drown the
  step), building or displaying when it can with probability 1/2.
- **Medium**: a greedy one-turn planner. Builds and displays are always made at once (they never
  hurt: one level per turn is kept by the rules); the rest of the turn (Bird, step, Horse, Ox,
  spells, Snake, end) is a beam search over whole turns, scored by pyramid progress, rack value
  (tiles still needed by the pyramid), position (useful tiles within a step) and denial (the
  opponent's progress and rack size count against).
- **Hard**: Medium's planner with a wider beam and a longer view of position (each still-needed
  motif valued by walking distance to its nearest visible copy), then a determinised 2-ply check
  before the step: each of the 5 best turns is replayed on the same 5 samples of the hidden tiles
  (common random numbers: with independent samples per turn the noise hid the differences), the
  opponent's greedy reply is simulated, and the turn with the best mean outcome is played.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..core import Agent
from . import rules
from .game import GAME
from .state import NEIGHBOURS, State
from .tiles import LEVEL_OF, MOTIF_INDEX, MOTIFS, RACK_LIMIT, TILES

__all__ = ["AGENTS", "easy", "evaluate", "hard", "medium", "state_from_view"]

Action = dict[str, Any]
Counts = tuple[int, ...]

_N = len(MOTIFS)
_I = MOTIF_INDEX
SHIP, GRAIN, APEX, CORNER, STAIRS = _I["ship"], _I["grain"], _I["apex"], _I["corner_stone"], _I["stairs"]
HAND = _I["helping_hand"]
PLAIN = (_I["moon"], _I["circle"], _I["double_line"])
RED = (_I["cross"], _I["braid"], _I["eye"])
SPECIAL = (_I["snake"], _I["horse"], _I["bird"], _I["ox"])
TABLE: Counts = tuple(t.count for t in TILES)
WIN = 10_000.0


# ---------------------------------------------------------------------------------------------
# determinisation


def state_from_view(view: dict[str, Any], rng: random.Random) -> State:
    """Return a full state consistent with a seat's view; unseen tiles drawn at random."""
    seat = int(view["seat"])
    own = [0] * _N
    for m, c in view["rack"].items():
        own[_I[m]] += c
    revealed = view.get("revealed_rack")
    known = list(own)
    pyramids = []
    for p in view["pyramids"]:
        counts = [0] * _N
        for m, c in p.items():
            counts[_I[m]] += c
            known[_I[m]] += c
        pyramids.append(tuple(counts))
    for cell in view["board"]:
        if cell["top"] is not None:
            known[_I[cell["top"]]] += 1
    for m in view["pending"] + view["destroyed"]:
        known[_I[m]] += 1
    known[SHIP] += sum(view["ships"])
    known[GRAIN] += sum(view["grains"])
    opp_rack = [0] * _N
    if revealed is not None:
        for m, c in revealed.items():
            opp_rack[_I[m]] += c
            known[_I[m]] += c
    pool = [MOTIFS[i] for i in range(_N) for _ in range(TABLE[i] - known[i])]
    rng.shuffle(pool)
    board: list[tuple[str, ...]] = []
    for cell in view["board"]:
        h = cell["height"]
        if h == 0:
            board.append(())
            continue
        covered = pool[: h - 1]
        del pool[: h - 1]
        board.append((*covered, cell["top"]))
    if revealed is None:
        for m in pool:
            opp_rack[_I[m]] += 1
    racks = [tuple(own), tuple(opp_rack)] if seat == 0 else [tuple(opp_rack), tuple(own)]
    w = view["workers"]
    return State(
        seed=0,
        draws=1,
        phase=view["phase"],
        board=tuple(board),
        workers=(w[0][0], w[0][1], w[1][0], w[1][1]),
        racks=(racks[0], racks[1]),
        ships=(view["ships"][0], view["ships"][1]),
        grains=(view["grains"][0], view["grains"][1]),
        pyramids=(pyramids[0], pyramids[1]),
        turn=int(view["turn"]),
        stepped=int(view["stepped"]),
        step_dir=str(view["step_dir"]),
        birded=int(view["birded"]),
        horse_used=bool(view["horse_used"]),
        level=int(view["level_this_turn"]),
        resume=str(view["resume"]),
        pending=tuple(view["pending"]),
        destroyed=tuple(view["destroyed"]),
        turns=(view["turns"][0], view["turns"][1]),
        history=(),
        ended=str(view["ended"]),
    )


def _resample(state: State, seat: int, rng: random.Random) -> State:
    """Return ``state`` with what ``seat`` cannot see redrawn (as GAME.resample_hidden)."""
    return GAME.resample_hidden(state, seat, rng)


# ---------------------------------------------------------------------------------------------
# evaluation


def rack_value(rack: Counts, pyr: Counts, ship: int, grains: int) -> float:
    """Return how much a rack is worth to a builder: needed tiles high, spares a little."""
    levels = rules.completed_levels(pyr)
    v = 0.0
    corner_need = 4 - pyr[CORNER]
    stairs_need = 2 - pyr[STAIRS]
    plain_need = 3 - sum(pyr[i] for i in PLAIN)
    red_need = 4 - sum(pyr[i] for i in RED)
    apex_need = 1 - pyr[APEX]
    hand_need = corner_need + 2 * apex_need
    v += 4.0 * min(rack[CORNER], corner_need)
    v += 4.0 * min(rack[STAIRS], stairs_need) + 1.5 * min(max(0, rack[STAIRS] - stairs_need), 2)
    plain = sum(rack[i] for i in PLAIN)
    v += 4.0 * min(plain, plain_need) + 0.6 * max(0, plain - plain_need)
    red = sum(rack[i] for i in RED)
    v += (4.0 if levels >= 1 else 2.8) * min(red, red_need) + 0.6 * max(0, red - red_need)
    v += (4.0 if levels >= 2 else 2.5) * min(rack[APEX], apex_need) + 0.7 * max(0, rack[APEX] - apex_need)
    v += 3.5 * min(rack[HAND], hand_need)
    ship_need = 1 - ship
    v += 5.0 * min(rack[SHIP], ship_need) + 1.0 * min(max(0, rack[SHIP] - ship_need), 1)
    grain_need = 3 - grains
    v += 3.5 * min(rack[GRAIN], grain_need)
    v += sum(1.5 * min(rack[i], 2) for i in SPECIAL)
    return v


def marginals(rack: Counts, pyr: Counts, ship: int, grains: int) -> list[float]:
    """Return the value of one more tile of each motif for this rack."""
    base = rack_value(rack, pyr, ship, grains)
    out = []
    for i in range(_N):
        more = list(rack)
        more[i] += 1
        out.append(rack_value(tuple(more), pyr, ship, grains) - base)
    return out


def _progress(state: State, seat: int) -> float:
    pyr = state.pyramids[seat]
    if pyr[APEX]:
        return WIN
    levels = rules.completed_levels(pyr)
    return 10.0 * sum(pyr) + 3.0 * levels + 7.0 * state.ships[seat] + 5.0 * state.grains[seat]


def _reach(state: State, seat: int, marg: list[float]) -> float:
    """Return the best tile value one step away from either of ``seat``'s workers."""
    best = 0.0
    stairs = state.racks[seat][STAIRS] > 0
    for w in (0, 1):
        pos = state.workers[2 * seat + w]
        h = len(state.board[pos])
        for to in NEIGHBOURS[pos].values():
            if to < 0 or to in state.workers or not state.board[to]:
                continue
            if len(state.board[to]) - h > 2 and not stairs:
                continue
            best = max(best, marg[_I[state.board[to][-1]]])
    return best


def _potential(state: State, seat: int, marg: list[float], decay: float) -> float:
    """Return the needed tiles within walking distance: for each motif, its value in this rack
    discounted by ``decay`` per step from the nearer worker to its nearest visible copy."""
    workers = (state.workers[2 * seat], state.workers[2 * seat + 1])
    wr = [(w // 7, w % 7) for w in workers]
    nearest: dict[int, int] = {}
    for sp, stack in enumerate(state.board):
        if not stack or sp in state.workers:
            continue
        i = _I[stack[-1]]
        if marg[i] <= 0.05:
            continue
        r, c = divmod(sp, 7)
        d = min(abs(r - a) + abs(c - b) for a, b in wr)
        if d < nearest.get(i, 99):
            nearest[i] = d
    return sum(marg[i] * decay ** (d - 1) for i, d in nearest.items())


@dataclass(frozen=True)
class Style:
    """An AI's search settings and how much it weighs the opponent."""

    width: int
    depth: int
    birds: int  # Bird targets kept per worker
    denial: float  # weight of the opponent's standing
    reach: float  # weight of the best tile a step away
    replies: int  # Hard: turns checked against a simulated reply (0: none)
    samples: int  # Hard: determinisations per checked turn
    far: float = 0.0  # Hard: per-step discount of needed tiles further away (0: one step only)


MEDIUM = Style(width=3, depth=4, birds=3, denial=0.5, reach=0.3, replies=0, samples=0)
HARD = Style(width=5, depth=5, birds=5, denial=0.8, reach=0.45, replies=5, samples=5, far=0.5)


def evaluate(state: State, seat: int, style: Style = MEDIUM) -> float:
    """Return ``seat``'s standing: progress + rack value + reach, minus the opponent's (weighted)."""
    opp = 1 - seat
    mine = _progress(state, seat)
    theirs = _progress(state, opp)
    if mine >= WIN or theirs >= WIN:
        return mine - theirs
    pyr, rack = state.pyramids[seat], state.racks[seat]
    value = mine + rack_value(rack, pyr, state.ships[seat], state.grains[seat])
    if style.reach:
        marg = marginals(rack, pyr, state.ships[seat], state.grains[seat])
        if style.far:
            value += style.reach * _potential(state, seat, marg, style.far)
        else:
            value += style.reach * _reach(state, seat, marg)
    # the opponent's rack is unknown: count its size, valued like an average useful tile
    other = theirs + 2.2 * min(sum(state.racks[opp]), RACK_LIMIT)
    return value - style.denial * other


# ---------------------------------------------------------------------------------------------
# turn planning


def _normalise(state: State, seat: int) -> tuple[State, list[Action]]:
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
        state, _ = rules.do(state, seat, action)
        done.append(action)
    return state, done


def _discard_choice(state: State, seat: int) -> Action:
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


def _steal_choice(state: State, seat: int) -> Action:
    opp_rack = state.racks[1 - seat]
    marg = marginals(state.racks[seat], state.pyramids[seat], state.ships[seat], state.grains[seat])
    opp = 1 - seat
    less = tuple(max(0, c - 1) for c in opp_rack)
    their = marginals(less, state.pyramids[opp], state.ships[opp], state.grains[opp])
    i = max((i for i in range(_N) if opp_rack[i]), key=lambda i: marg[i] + 0.5 * their[i])
    return {"do": "steal", "motif": MOTIFS[i]}


def _finish(state: State, seat: int) -> State:
    """Play this seat's discards greedily (after ``end``)."""
    while state.phase == "discard" and state.turn == seat:
        state, _ = rules.do(state, seat, _discard_choice(state, seat))
    return state


def _candidates(state: State, seat: int, style: Style, marg: list[float]) -> list[Action]:
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
    root, pre = _normalise(state, seat)
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
                child, _ = rules.do(node, seat, a)
                steps = [*path, a]
                if a["do"] == "end":
                    child = _finish(child, seat)
                    finished.append((score(child), steps, child))
                    continue
                if child.phase == "steal":
                    steal = _steal_choice(child, seat)
                    child, _ = rules.do(child, seat, steal)
                    steps.append(steal)
                child, more = _normalise(child, seat)
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
            child = _finish(rules.do(node, seat, {"do": "end"})[0], seat)
            finished.append((score(child), [*path, {"do": "end"}], child))
    finished.sort(key=lambda p: -p[0])
    return finished


def _place_worker(state: State, seat: int, legal: list[Action]) -> Action:
    marg = marginals(state.racks[seat], state.pyramids[seat], state.ships[seat], state.grains[seat])

    def worth(a: Action) -> float:
        sp = int(a["space"])
        near = [marg[_I[state.board[n][-1]]] for n in NEIGHBOURS[sp].values() if n >= 0 and state.board[n]]
        return marg[_I[state.board[sp][-1]]] + 0.5 * max(near, default=0.0)

    return max(legal, key=worth)


def _dist(a: int, b: int) -> int:
    return abs(a // 7 - b // 7) + abs(a % 7 - b % 7)


def _place_stack(state: State, seat: int, legal: list[Action]) -> Action:
    """As placer: the biggest piece, near own workers and far from the opponent's."""
    biggest = max(int(a["count"]) for a in legal)
    mine = [state.workers[2 * seat], state.workers[2 * seat + 1]]
    theirs = [state.workers[2 * (1 - seat)], state.workers[2 * (1 - seat) + 1]]

    def worth(a: Action) -> float:
        sp = int(a["space"])
        return min(_dist(sp, t) for t in theirs) - min(_dist(sp, m) for m in mine)

    return max((a for a in legal if a["count"] == biggest), key=worth)


def _simulate_turn(state: State, style: Style) -> State:
    """Play the current mover's whole turn with the planner (used to guess the opponent's reply)."""
    seat = state.turn
    if state.phase == "return":
        placer = 1 - seat
        while state.phase == "return":
            state, _ = rules.do(state, placer, _place_stack(state, placer, rules.legal(state, placer)))
        return state
    plans = plan_turn(state, seat, style, lambda s: evaluate(s, seat, style))
    if not plans:
        return state
    end = plans[0][2]
    if end.phase == "return":
        placer = 1 - seat
        while end.phase == "return":
            end, _ = rules.do(end, placer, _place_stack(end, placer, rules.legal(end, placer)))
    return end


def _replay_plan(state: State, seat: int, plan: list[Action]) -> State:
    """Replay a plan on another determinisation; stop where it stops being legal, then end greedily."""
    for a in plan:
        if a not in rules.legal(state, seat, ordered=False):
            break
        state, _ = rules.do(state, seat, a)
    state = _finish(state, seat)
    while state.phase in ("before", "after", "steal") and state.turn == seat:
        legal = rules.legal(state, seat, ordered=False)
        if state.phase == "steal":
            state, _ = rules.do(state, seat, _steal_choice(state, seat))
        elif {"do": "end"} in legal:
            state = _finish(rules.do(state, seat, {"do": "end"})[0], seat)
        else:
            state, _ = rules.do(state, seat, next(a for a in legal if a["do"] == "step"))
    return state


_REPLY = Style(width=2, depth=3, birds=2, denial=0.5, reach=0.3, replies=0, samples=0)


def _decide(view: dict[str, Any], legal: list[Action], rng: random.Random, style: Style) -> Action:
    if len(legal) == 1:
        return legal[0]
    seat = int(view["seat"])
    state = state_from_view(view, rng)
    phase = state.phase
    if phase == "place":
        return _place_worker(state, seat, legal)
    if phase == "return":
        return _place_stack(state, seat, legal)
    if phase == "discard":
        return _discard_choice(state, seat)
    if phase == "steal":
        return _steal_choice(state, seat)
    for a in legal:
        if a["do"] in ("build", "display"):
            return a  # always make them at once (see the module docstring)
    plans = plan_turn(state, seat, style, lambda s: evaluate(s, seat, style))
    if style.replies and phase == "before" and len(plans) > 1:
        plans = _check_replies(state, seat, plans, style, rng)
    for _, path, _ in plans:
        if path and path[0] in legal:
            return path[0]
    # no whole turn found within the search depth: make progress towards ending the turn
    for kind in ("step", "end"):
        fallback = [a for a in legal if a["do"] == kind]
        if fallback:
            return fallback[rng.randrange(len(fallback))]
    return legal[rng.randrange(len(legal))]


def _check_replies(
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
    # common random numbers: every plan meets the same samples of the hidden tiles
    worlds = [_resample(state, seat, rng) for _ in range(style.samples)]
    ranked: list[Plan] = []
    for plan in firsts:
        total = 0.0
        for world in worlds:
            after = _replay_plan(world, seat, plan[1])
            for _ in range(3):  # the return of my stack, the opponent's turn, the return of its stack
                if after.phase == "over" or (after.turn == seat and after.phase == "before"):
                    break
                after = _simulate_turn(after, _REPLY)
            total += evaluate(after, seat, style)
        ranked.append((total / style.samples, plan[1], plan[2]))
    ranked.sort(key=lambda p: -p[0])
    return ranked


def easy(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Return a random legal action (by kind first), building or displaying half the time it can."""
    useful = [a for a in legal if isinstance(a, dict) and a.get("do") in ("build", "display")]
    if useful and rng.random() < 0.5:
        return useful[rng.randrange(len(useful))]
    kinds = sorted({a["do"] for a in legal})
    kind = kinds[rng.randrange(len(kinds))]
    of_kind = [a for a in legal if a["do"] == kind]
    return of_kind[rng.randrange(len(of_kind))]


def medium(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Return the first action of the best whole turn a greedy beam search finds."""
    return _decide(view, legal, rng, MEDIUM)


def hard(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Return the first action of the best turn after a determinised check of the opponent's reply."""
    return _decide(view, legal, rng, HARD)


AGENTS: dict[str, Agent] = {
    "easy": easy,
    "medium": medium,
    "hard": hard,
}
