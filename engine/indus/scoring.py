"""Indus: the end scoring (§7, §8) — ruin points per colour, prisoner points, standing, winners.

Separate from ``rules.py`` because scoring only reads a finished (or running) position: the
move rules never need it, while the game object, the evaluation and the tests do.
"""

from __future__ import annotations

from typing import Any

from .rules import State, colours_in_play, seat_colours

__all__ = ["colour_scores", "prisoner_points", "standing", "winners"]


def colour_scores(state: State) -> tuple[list[int], dict[str, dict[str, int]]]:
    """Return each colour's ruin points and, per ruin, the points each colour took (§7, §8).

    Buildings count every piece on their squares (1st and 2nd place); the other ruins count
    the squares whose top piece is the colour's (majority only). Ties follow §7.3: an even split
    rounded down; a tie for first in a building shares first + second and awards no second; a
    colour needs at least one counted piece to place.
    """
    ncol = colours_in_play(state.players)
    points = [0] * ncol
    breakdown: dict[str, dict[str, int]] = {}
    for ruin in state.layout.ruins:
        counts = [0] * ncol
        if ruin.kind == "B":
            for sq in ruin.squares:
                for p in state.stacks[sq]:
                    counts[p >> 2] += 1
        else:
            for sq in ruin.squares:
                stack = state.stacks[sq]
                if stack:
                    counts[stack[-1] >> 2] += 1
        top = max(counts)
        if top == 0:
            continue
        firsts = [c for c in range(ncol) if counts[c] == top]
        got: dict[str, int] = {}
        if ruin.kind == "B" and len(firsts) == 1:
            got[str(firsts[0])] = ruin.first
            rest = [counts[c] for c in range(ncol) if c != firsts[0]]
            runner = max(rest)
            if runner > 0:
                seconds = [c for c in range(ncol) if c != firsts[0] and counts[c] == runner]
                for c in seconds:
                    got[str(c)] = ruin.second // len(seconds)
        else:
            pot = ruin.first + ruin.second if ruin.kind == "B" else ruin.first
            for c in firsts:
                got[str(c)] = pot // len(firsts)
        for key, v in got.items():
            points[int(key)] += v
        breakdown[ruin.id] = got
    return points, breakdown


def prisoner_points(state: State) -> list[int]:
    """Return each seat's prisoner points (Worker 1, Assistant 2, Professor 3)."""
    return [sum(p & 3 for p in taken) for taken in state.prisoners]


def standing(state: State) -> dict[str, Any]:
    """Return scores per seat, prisoner points, per-colour ruin points and the breakdown."""
    ruin_pts, breakdown = colour_scores(state)
    prison = prisoner_points(state)
    scores = [
        prison[s] + sum(ruin_pts[c] for c in seat_colours(s, state.players)) for s in range(state.players)
    ]
    return {"scores": scores, "prisoner_points": prison, "colour_points": ruin_pts, "ruins": breakdown}


def winners(scores: list[int], prison: list[int]) -> list[int]:
    """Return the winning seats: highest score, then highest prisoner points, else shared."""
    best = max(scores)
    tied = [s for s, v in enumerate(scores) if v == best]
    top_prison = max(prison[s] for s in tied)
    return [s for s in tied if prison[s] == top_prison]
