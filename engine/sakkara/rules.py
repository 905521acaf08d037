"""Sakkara's rules: the legal actions of a position and what each one does.

Pure functions over :class:`~engine.sakkara.state.State`. A turn is a sequence of small actions
(binding answer 2): *before* (tile uses, or the one mandatory step) -> *after* (tile uses, the
Horse, or ``end``) -> *discard* (down to the rack limit) -> *return* (the **opponent** places the
used-tile stack piece by piece) -> the next turn. Hidden information: the racks and the covered
tiles of every stack; events that would reveal them carry ``private_to``.

Spaces are numbered row-major, ``row * 7 + col``, row 0 at the top ("N"); a seat's workers are
0 and 1. The actions (flat dicts; ``do`` names the kind), each self-describing for a button:

- ``{"do": "place", "space": s}``: put the next worker on ``s`` and take its top tile;
- ``{"do": "step", "worker": w, "dir": "N"|"E"|"S"|"W"}``: the mandatory step (a Stairs is
  spent automatically when, and only when, the climb is above 2);
- ``{"do": "horse", "steps": 1|2}``: after the step, the same worker goes on;
- ``{"do": "bird", "worker": w, "space": s}``; ``{"do": "ox", "worker": w, "dir": d, "count": k}``;
- ``{"do": "snake"}``, then ``{"do": "steal", "motif": m}``;
- ``{"do": "cast", "spell": name, "order": "a,b,c", ...}``: ``order`` lists the three spent tiles
  bottom to top as they join the used-tile stack; Firestorm adds ``worker`` and ``line`` ("row" or
  "col"), Whirlwind adds ``worker``; Shipwreck and Drought have no target;
- ``{"do": "display", "motif": "ship"|"grain"}``; ``{"do": "build", "motif": m}``;
- ``{"do": "end"}``; ``{"do": "discard", "motif": m}`` (rack limit);
- ``{"do": "return", "count": k, "space": s}``: the opponent puts the top ``k`` tiles of the
  used-tile stack on ``s``.

This module holds the legal actions; what each one does (the next state, its events and the
hand-over between turns) is in ``effects.py``.
"""

from __future__ import annotations

import itertools
import json
from functools import lru_cache
from typing import Any

from ..core import is_seat
from .state import LINES, NEIGHBOURS, RING, State
from .tiles import LEVEL_OF, LEVEL_SLOTS, MOTIF_INDEX, MOTIFS, SPACES, SPELLS

__all__ = [
    "MAX_TURNS",
    "SLOT",
    "Action",
    "action_key",
    "build_ok",
    "completed_levels",
    "forced",
    "grain_cap",
    "legal",
    "opponent",
    "pyramid_size",
    "tiles_everywhere",
    "to_move",
    "turn_key",
]

Action = dict[str, Any]

MAX_TURNS = 200  # the safety cap: the game ends after seat 1's 200th turn

SHIP = MOTIF_INDEX["ship"]
GRAIN = MOTIF_INDEX["grain"]
STAIRS = MOTIF_INDEX["stairs"]
HAND = MOTIF_INDEX["helping_hand"]
SNAKE = MOTIF_INDEX["snake"]
HORSE = MOTIF_INDEX["horse"]
BIRD = MOTIF_INDEX["bird"]
OX = MOTIF_INDEX["ox"]

# motif -> (indices sharing its slots, number of slots, hands spent with it), from the table
SLOT: dict[str, tuple[tuple[int, ...], int, int]] = {
    m: (tuple(MOTIF_INDEX[g] for g in group), n, hands)
    for group, n, hands in LEVEL_SLOTS
    for m in group
}
_LEVEL_GROUPS: dict[int, list[tuple[tuple[int, ...], int]]] = {}
for _group, _n, _hands in LEVEL_SLOTS:
    _LEVEL_GROUPS.setdefault(LEVEL_OF[_group[0]], []).append((tuple(MOTIF_INDEX[g] for g in _group), _n))
_TOP_LEVEL = max(_LEVEL_GROUPS)
_ORDERS: dict[str, list[str]] = {
    s.name: sorted(",".join(p) for p in itertools.permutations(s.recipe)) for s in SPELLS
}


def action_key(action: Any) -> str:
    """Return the sort key of an action (its canonical JSON); legal lists are sorted by it."""
    return json.dumps(action, sort_keys=True)


def opponent(seat: int) -> int:
    """Return the other seat."""
    return 1 - seat


@lru_cache(maxsize=4096)
def completed_levels(pyramid: tuple[int, ...]) -> int:
    """Return how many pyramid levels (0..3) are complete, counting built motifs (cached: the
    searches ask it of the same few pyramids hundreds of thousands of times)."""
    done = 0
    for level in range(1, _TOP_LEVEL + 1):
        if all(sum(pyramid[i] for i in group) == n for group, n in _LEVEL_GROUPS[level]):
            done = level
        else:
            break
    return done


def pyramid_size(pyramid: tuple[int, ...]) -> int:
    """Return the number of tiles built into a pyramid (0..14)."""
    return sum(pyramid)


def tiles_everywhere(state: State) -> list[int]:
    """Return the motif counts over board, racks, displays, pyramids and pending (always the table)."""
    counts = [0] * len(MOTIFS)
    for stack in state.board:
        for m in stack:
            counts[MOTIF_INDEX[m]] += 1
    for m in state.pending + state.destroyed:
        counts[MOTIF_INDEX[m]] += 1
    for seat in (0, 1):
        for i in range(len(MOTIFS)):
            counts[i] += state.racks[seat][i] + state.pyramids[seat][i]
        counts[SHIP] += state.ships[seat]
        counts[GRAIN] += state.grains[seat]
    return counts


def to_move(state: State) -> list[int]:
    """Return the seats owing an action: [-1] for the deal, the placer while returning, [] when over."""
    if state.phase == "deal":
        return [-1]
    if state.phase == "over":
        return []
    if state.phase == "return":
        return [opponent(state.turn)]
    return [state.turn]


# ---------------------------------------------------------------------------------------------
# legal actions


def _step_cost(board: tuple[tuple[str, ...], ...], frm: int, to: int) -> int:
    """Return 1 when stepping frm -> to needs a Stairs (climb above 2), else 0."""
    return 1 if len(board[to]) - len(board[frm]) > 2 else 0


def _steps(state: State) -> list[Action]:
    seat = state.turn
    rack = state.racks[seat]
    out: list[Action] = []
    for w in (0, 1):
        if state.birded >> w & 1:
            continue  # a worker moved by a Bird does not make the step (answer 5)
        pos = state.workers[2 * seat + w]
        for d, to in NEIGHBOURS[pos].items():
            if to < 0 or to in state.workers:
                continue
            if _step_cost(state.board, pos, to) and not rack[STAIRS]:
                continue
            out.append({"do": "step", "worker": w, "dir": d})
    return out


def _horse_steps(state: State, n: int) -> bool:
    """Return whether the stepped worker can make ``n`` more steps in the step's direction."""
    seat = state.turn
    pos = state.workers[2 * seat + state.stepped]
    stairs = state.racks[seat][STAIRS]
    heights: dict[int, int] = {}
    for _ in range(n):
        to = NEIGHBOURS[pos][state.step_dir]
        if to < 0 or to in state.workers:
            return False
        h_to = heights.get(to, len(state.board[to]))
        if h_to - heights.get(pos, len(state.board[pos])) > 2:
            if not stairs:
                return False
            stairs -= 1
        if h_to:
            stairs += state.board[to][-1] == "stairs"  # a tile just taken may be used at once
            heights[to] = h_to - 1
        pos = to
    return True


def build_ok(state: State, seat: int, m: str) -> bool:
    """Return whether ``seat`` may build one ``m`` into its pyramid now."""
    level = LEVEL_OF.get(m)
    if level is None:
        return False
    rack, pyr = state.racks[seat], state.pyramids[seat]
    group, n, hands = SLOT[m]
    i = MOTIF_INDEX[m]
    return (
        rack[i] > 0
        and completed_levels(pyr) == level - 1
        and sum(pyr[g] for g in group) < n
        and state.ships[seat] > 0
        and state.grains[seat] >= level
        and state.level in (0, level)
        and rack[HAND] >= hands
    )


def grain_cap(state: State, seat: int) -> int:
    """Return how many grain ``seat`` may have displayed: min(3, completed levels + 1)."""
    return min(3, completed_levels(state.pyramids[seat]) + 1)


def _uses(state: State) -> list[Action]:
    """Return the tile uses open to the player on turn (before or after the step)."""
    seat = state.turn
    rack = state.racks[seat]
    opp = opponent(seat)
    occupied = state.workers
    out: list[Action] = []
    if rack[SHIP] and not state.ships[seat]:
        out.append({"do": "display", "motif": "ship"})
    if rack[GRAIN] and state.grains[seat] < grain_cap(state, seat):
        out.append({"do": "display", "motif": "grain"})
    for m in LEVEL_OF:
        if build_ok(state, seat, m):
            out.append({"do": "build", "motif": m})
    if rack[SNAKE] and sum(state.racks[opp]):
        out.append({"do": "snake"})
    if rack[BIRD]:
        targets = [sp for sp in range(SPACES) if state.board[sp] and sp not in occupied]
        for w in (0, 1):
            if state.stepped != w:
                out.extend({"do": "bird", "worker": w, "space": sp} for sp in targets)
    if rack[OX]:
        for w in (0, 1):
            pos = state.workers[2 * seat + w]
            for d, src in NEIGHBOURS[pos].items():
                if src < 0 or src in occupied or not state.board[src]:
                    continue
                dst = NEIGHBOURS[src][d]
                if dst < 0 or dst in occupied:
                    continue
                h_src, h_dst = len(state.board[src]), len(state.board[dst])
                for k in range(1, h_src - h_dst + 1):  # never uphill: h_dst <= h_src - k
                    out.append({"do": "ox", "worker": w, "dir": d, "count": k})
    for spell in SPELLS:
        if not all(rack[MOTIF_INDEX[m]] for m in spell.recipe):
            continue
        targets2: list[dict[str, Any]] = []
        if spell.name == "firestorm":
            for w in (0, 1):
                pos = state.workers[2 * seat + w]
                for line, spaces in LINES[pos].items():
                    if any(state.board[sp] and sp not in occupied for sp in spaces):
                        targets2.append({"worker": w, "line": line})
        elif spell.name == "whirlwind":
            for w in (0, 1):
                pos = state.workers[2 * seat + w]
                if any(state.board[sp] and sp not in occupied for sp in RING[pos]):
                    targets2.append({"worker": w})
        elif spell.name == "shipwreck":
            if state.ships[opp]:
                targets2.append({})
        elif spell.name == "drought" and state.grains[opp]:
            targets2.append({})
        for target in targets2:
            for order in _ORDERS[spell.name]:
                out.append({"do": "cast", "spell": spell.name, "order": order, **target})
    return out


def _return_actions(state: State) -> list[Action]:
    placer = opponent(state.turn)
    n = len(state.pending)
    sizes = [n] if n <= 9 else []
    if n >= 6:
        sizes += [k for k in range(3, min(9, n - 3) + 1) if k != n]
    own = {state.workers[2 * placer], state.workers[2 * placer + 1]}
    banned = own | {nb for sp in own for nb in NEIGHBOURS[sp].values()}
    eligible = [sp for sp in range(SPACES) if sp not in banned and sp not in state.workers]
    empty = [sp for sp in eligible if not state.board[sp]]
    if not empty:
        low = min(len(state.board[sp]) for sp in eligible)
        empty = [sp for sp in eligible if len(state.board[sp]) == low]
    return [{"do": "return", "count": k, "space": sp} for k in sizes for sp in empty]


def legal(state: State, seat: int, *, ordered: bool = True) -> list[Action]:
    """Return the actions ``seat`` may take now, sorted by :func:`action_key` (AIs may skip that)."""
    if not is_seat(seat) or seat not in to_move(state) or seat < 0:
        return []
    phase = state.phase
    out: list[Action]
    if phase == "place":
        out = [{"do": "place", "space": sp} for sp in range(SPACES) if sp not in state.workers]
    elif phase == "before":
        steps = _steps(state)
        out = _uses(state) + steps
        if not steps:
            out.append({"do": "end"})  # no legal step: the mandatory step is skipped
    elif phase == "after":
        out = _uses(state)
        if state.stepped >= 0 and state.racks[seat][HORSE] and not state.horse_used:
            out.extend({"do": "horse", "steps": n} for n in (1, 2) if _horse_steps(state, n))
        out.append({"do": "end"})
    elif phase == "steal":
        rack = state.racks[opponent(seat)]
        out = [{"do": "steal", "motif": m} for i, m in enumerate(MOTIFS) if rack[i]]
    elif phase == "discard":
        rack = state.racks[seat]
        out = [{"do": "discard", "motif": m} for i, m in enumerate(MOTIFS) if rack[i]]
    elif phase == "return":
        out = _return_actions(state)
    else:
        out = []
    if ordered:
        out.sort(key=action_key)
    return out


def forced(state: State, seat: int) -> Action | None:
    """Return the action ``seat`` cannot avoid, or None: the only legal one (e.g. ``end`` after a
    step when no tile can be used). Binding answer 2 lets the host submit it without asking; the
    engine itself never plays for a player."""
    actions = legal(state, seat, ordered=False)
    return actions[0] if len(actions) == 1 else None


def turn_key(state: State) -> tuple[tuple[int, int], int]:
    """Return what names the turn in progress: completed turns and the seat on turn. The return
    of the used tiles belongs to the turn that used them; the placer's own turn is a new one."""
    return state.turns, state.turn
