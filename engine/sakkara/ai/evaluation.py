"""What a Sakkara position is worth to a seat: the value function every AI level plans with.

A position is valued by pyramid progress, the rack (tiles the pyramid still needs count high,
spares a little), position (needed tiles within reach of the workers) and denial (the
opponent's progress and rack size count against). The rack value is the hot path of every
search, so the pyramid's needs are computed once per pyramid (cached) and each rack is valued
with a handful of integer comparisons; the sums run in a fixed order, so every figure is
bit-for-bit the same on every machine.

Determinisation lives here too: :func:`state_from_view` rebuilds a full state from a seat's
view, drawing the tiles it cannot see (covered tiles, and the opponent's rack unless the seat
remembers it) from the unseen pool.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .. import rules
from ..state import NEIGHBOURS, State
from ..tiles import MOTIF_INDEX, MOTIFS, RACK_LIMIT, TILES

__all__ = [
    "MEDIUM",
    "WIN",
    "Style",
    "evaluate",
    "marginals",
    "progress",
    "rack_value",
    "state_from_view",
]

Counts = tuple[int, ...]

N = len(MOTIFS)
_I = MOTIF_INDEX
SHIP, GRAIN, APEX, CORNER, STAIRS = _I["ship"], _I["grain"], _I["apex"], _I["corner_stone"], _I["stairs"]
HAND = _I["helping_hand"]
MOON, CIRCLE, DOUBLE = _I["moon"], _I["circle"], _I["double_line"]
CROSS, BRAID, EYE = _I["cross"], _I["braid"], _I["eye"]
SNAKE, HORSE, BIRD, OX = _I["snake"], _I["horse"], _I["bird"], _I["ox"]
PLAIN = (MOON, CIRCLE, DOUBLE)
RED = (CROSS, BRAID, EYE)
SPECIAL = (SNAKE, HORSE, BIRD, OX)
TABLE: Counts = tuple(t.count for t in TILES)
WIN = 10_000.0


# ---------------------------------------------------------------------------------------------
# determinisation


def state_from_view(view: dict[str, Any], rng: random.Random, *, memory: bool = False) -> State:
    """Return a full state consistent with a seat's view; unseen tiles drawn at random.

    ``memory`` False (Easy, Medium): the opponent's rack is unseen too (unless a Snake opened it)
    and is drawn with the covered tiles. ``memory`` True (Hard): the opponent's rack is the
    ``opponent_rack`` that ``GAME.observe`` adds (known from public events), and only the covered
    tiles are drawn; a plain view without that key is read as without memory.
    """
    seat = int(view["seat"])
    own = [0] * N
    for m, c in view["rack"].items():
        own[_I[m]] += c
    revealed = view.get("revealed_rack")
    if memory and revealed is None:
        revealed = view.get("opponent_rack")
    known = list(own)
    pyramids = []
    for p in view["pyramids"]:
        counts = [0] * N
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
    opp_rack = [0] * N
    if revealed is not None:
        for m, c in revealed.items():
            opp_rack[_I[m]] += c
            known[_I[m]] += c
    pool = [MOTIFS[i] for i in range(N) for _ in range(TABLE[i] - known[i])]
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


# ---------------------------------------------------------------------------------------------
# the rack


@lru_cache(maxsize=4096)
def _needs(pyr: Counts, ship: int, grains: int) -> tuple[int, int, int, int, int, int, int, int, float, float]:
    """Return what a pyramid still needs: corners, stairs, plain, red, apex, hands, ship, grain,
    and the weights of a red glyph and of an apex (lower until their level is open)."""
    levels = rules.completed_levels(pyr)
    corner = 4 - pyr[CORNER]
    apex = 1 - pyr[APEX]
    return (
        corner,
        2 - pyr[STAIRS],
        3 - (pyr[MOON] + pyr[CIRCLE] + pyr[DOUBLE]),
        4 - (pyr[CROSS] + pyr[BRAID] + pyr[EYE]),
        apex,
        corner + 2 * apex,
        1 - ship,
        3 - grains,
        4.0 if levels >= 1 else 2.8,
        4.0 if levels >= 2 else 2.5,
    )


def _value(rack: Counts | list[int], needs: tuple[int, int, int, int, int, int, int, int, float, float]) -> float:
    corner_need, stairs_need, plain_need, red_need, apex_need, hand_need, ship_need, grain_need, red_w, apex_w = needs
    # the terms and their order are fixed: planners compare these floats, ties included
    v = 0.0
    v += 4.0 * min(rack[CORNER], corner_need)
    v += 4.0 * min(rack[STAIRS], stairs_need) + 1.5 * min(max(0, rack[STAIRS] - stairs_need), 2)
    plain = rack[MOON] + rack[CIRCLE] + rack[DOUBLE]
    v += 4.0 * min(plain, plain_need) + 0.6 * max(0, plain - plain_need)
    red = rack[CROSS] + rack[BRAID] + rack[EYE]
    v += red_w * min(red, red_need) + 0.6 * max(0, red - red_need)
    v += apex_w * min(rack[APEX], apex_need) + 0.7 * max(0, rack[APEX] - apex_need)
    v += 3.5 * min(rack[HAND], hand_need)
    v += 5.0 * min(rack[SHIP], ship_need) + 1.0 * min(max(0, rack[SHIP] - ship_need), 1)
    v += 3.5 * min(rack[GRAIN], grain_need)
    specials = 0.0
    for i in SPECIAL:
        specials += 1.5 * min(rack[i], 2)
    v += specials
    return v


@lru_cache(maxsize=65536)
def rack_value(rack: Counts, pyr: Counts, ship: int, grains: int) -> float:
    """Return how much a rack is worth to a builder: needed tiles high, spares a little (cached:
    a search values the same few racks over and over)."""
    return _value(rack, _needs(pyr, ship, grains))


@lru_cache(maxsize=16384)
def marginals(rack: Counts, pyr: Counts, ship: int, grains: int) -> tuple[float, ...]:
    """Return the value of one more tile of each motif for this rack."""
    needs = _needs(pyr, ship, grains)
    base = _value(rack, needs)
    out = []
    more = list(rack)
    for i in range(N):
        more[i] += 1
        out.append(_value(more, needs) - base)
        more[i] -= 1
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# the position


def progress(state: State, seat: int) -> float:
    """Return ``seat``'s pyramid progress (WIN once the apex is built)."""
    pyr = state.pyramids[seat]
    if pyr[APEX]:
        return WIN
    levels = rules.completed_levels(pyr)
    return 10.0 * sum(pyr) + 3.0 * levels + 7.0 * state.ships[seat] + 5.0 * state.grains[seat]


def _reach(state: State, seat: int, marg: tuple[float, ...]) -> float:
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


_DIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(abs(a // 7 - b // 7) + abs(a % 7 - b % 7) for b in range(49)) for a in range(49)
)
"""Walking distance (orthogonal steps) between two spaces of the 7 × 7 board."""


def _potential(state: State, seat: int, marg: tuple[float, ...], decay: float) -> float:
    """Return the needed tiles within walking distance: for each motif, its value in this rack
    discounted by ``decay`` per step from the nearer worker to its nearest visible copy."""
    w0, w1 = state.workers[2 * seat], state.workers[2 * seat + 1]
    if w0 < 0 or w1 < 0:  # workers still being placed: no walking yet
        return 0.0
    near0, near1 = _DIST[w0], _DIST[w1]
    occupied = state.workers
    nearest: dict[int, int] = {}
    for sp, stack in enumerate(state.board):
        if not stack:
            continue
        i = _I[stack[-1]]
        if marg[i] <= 0.05 or sp in occupied:
            continue
        d = min(near0[sp], near1[sp])
        if d < nearest.get(i, 99):
            nearest[i] = d
    return sum(marg[i] * decay ** (d - 1) for i, d in nearest.items())


@dataclass(frozen=True)
class Style:
    """A planner's settings and how much it weighs the opponent."""

    width: int
    depth: int
    birds: int  # Bird targets kept per worker
    denial: float  # weight of the opponent's standing
    reach: float  # weight of the best tile a step away
    replies: int  # turns checked against a simulated reply (0: none)
    samples: int  # determinisations per checked turn
    far: float = 0.0  # per-step discount of needed tiles further away (0: one step only)
    mirror: bool = False  # value the opponent as oneself (its rack in full: inside a search's world)


MEDIUM = Style(width=3, depth=4, birds=3, denial=0.5, reach=0.3, replies=0, samples=0)


def evaluate(state: State, seat: int, style: Style = MEDIUM) -> float:
    """Return ``seat``'s standing: progress + rack value + reach, minus the opponent's (weighted)."""
    opp = 1 - seat
    mine = progress(state, seat)
    theirs = progress(state, opp)
    if mine >= WIN or theirs >= WIN:
        return mine - theirs
    value = _holding(state, seat, mine, style)
    if style.mirror:
        # in a determinised world the opponent's rack is one sample of what it may hold
        other = _holding(state, opp, theirs, style)
    else:
        # the opponent's rack is unknown: count its size, valued like an average useful tile
        other = theirs + 2.2 * min(sum(state.racks[opp]), RACK_LIMIT)
    return value - style.denial * other


def _holding(state: State, seat: int, progressed: float, style: Style) -> float:
    """Return ``progressed`` plus what ``seat``'s rack and position are worth (the rack, the
    tiles within reach); summed in this order, which the planners' comparisons depend on."""
    pyr, rack = state.pyramids[seat], state.racks[seat]
    value = progressed + rack_value(rack, pyr, state.ships[seat], state.grains[seat])
    if style.reach:
        marg = marginals(rack, pyr, state.ships[seat], state.grains[seat])
        if style.far:
            value += style.reach * _potential(state, seat, marg, style.far)
        else:
            value += style.reach * _reach(state, seat, marg)
    return value
