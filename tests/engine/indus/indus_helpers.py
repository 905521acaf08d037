"""Builders for pinned Indus positions (scenario tests place pieces directly, then pin dice)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import CHANCE
from engine.indus import GAME
from engine.indus.rules import EMPTY, NOBODY, SPACE_INDEX, State, colours_in_play

RANK = {"W": 1, "A": 2, "P": 3}


def pc(colour: int, letter: str) -> int:
    """Return the piece code of a colour and rank letter."""
    return 4 * colour + RANK[letter]


def sq(row: int, col: int) -> int:
    """Return the square index of (row, col)."""
    return 6 * row + col


def mk(
    players: int,
    *,
    frame: dict[str, int] | None = None,
    stacks: dict[tuple[int, int], list[int]] | None = None,
    owners: dict[tuple[int, int], int] | None = None,
    reserve: dict[int, tuple[int, int, int]] | None = None,
    prisoners: dict[int, list[int]] | None = None,
    seat: int = 0,
    phase: str = "place",
    layout: Any = None,
) -> State:
    """Return a mid-game state: start pieces all placed, empty reserves unless given."""
    base = GAME.setup(players, 7, {"layout": layout} if layout is not None else None)
    ncol = colours_in_play(players)
    fr = [EMPTY] * 24
    for name, piece in (frame or {}).items():
        fr[SPACE_INDEX[name]] = piece
    st = [()] * 36
    for (r, c), pieces in (stacks or {}).items():
        st[sq(r, c)] = tuple(pieces)
    ow = [NOBODY] * 36
    for (r, c), colour in (owners or {}).items():
        ow[sq(r, c)] = colour
    res = [(0, 0, 0)] * ncol
    for colour, counts in (reserve or {}).items():
        res[colour] = counts
    pri = [()] * players
    for s, pieces in (prisoners or {}).items():
        pri[s] = tuple(pieces)
    return replace(
        base,
        phase=phase,
        seat=seat,
        frame=tuple(fr),
        stacks=tuple(st),
        owners=tuple(ow),
        start=((0, 0, 0),) * ncol,
        reserve=tuple(res),
        prisoners=tuple(pri),
        turn=5,
    )


def roll(state: State, die: int) -> State:
    """Return the state after the pinned die ``die``."""
    return GAME.apply(state, CHANCE, die)[0]


def move(state: State, space: str) -> tuple[State, list[dict[str, Any]]]:
    """Apply the legal move of the frame piece on ``space``; return state and events."""
    [action] = [a for a in GAME.legal_actions(state, state.seat) if a.get("space") == space and
                a["do"] == "move"]
    return GAME.apply(state, state.seat, action)
