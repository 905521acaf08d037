"""Sakkara's state: the 7x7 board of stacks, the workers, the racks, displays and pyramids.

Plain immutable data (frozen dataclass of ints, strings and tuples) plus the board geometry,
the opening deal and a lossless JSON round trip. Hidden information lives in two fields: the
racks (private to their owner) and every tile below the top of a stack (covered).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, fields
from typing import Any

from .tiles import BOARD_SIDE, DIRECTIONS, MOTIF_INDEX, MOTIFS, SPACES, TILES

__all__ = [
    "DELTA",
    "LINES",
    "NEIGHBOURS",
    "RING",
    "State",
    "deal",
    "digest",
    "dumps",
    "loads",
    "table_counts",
    "validate_layout",
]

Counts = tuple[int, ...]
Stack = tuple[str, ...]

PHASES = ("deal", "place", "before", "after", "steal", "discard", "return", "over")


@dataclass(frozen=True)
class State:
    """A Sakkara position. Seats 0 and 1; worker ``w`` of seat ``s`` is ``workers[2*s + w]``."""

    seed: int
    draws: int
    phase: str  # one of PHASES
    board: tuple[Stack, ...]  # 49 stacks, row-major, bottom to top
    workers: tuple[int, int, int, int]  # space of each worker, -1 before placement
    racks: tuple[Counts, Counts]  # motif counts in MOTIFS order
    ships: tuple[int, int]  # displayed ships (0 or 1)
    grains: tuple[int, int]  # displayed grain (0..3)
    pyramids: tuple[Counts, Counts]  # built motif counts in MOTIFS order
    turn: int  # the seat whose turn it is (or who places a worker)
    stepped: int  # the worker (0/1) that made this turn's step, -1 before it
    step_dir: str  # direction of this turn's step, "" before it
    birded: int  # bit mask of this seat's workers moved by a Bird this turn
    horse_used: bool
    level: int  # the pyramid level built on this turn, 0 if none yet
    resume: str  # the phase a Snake's steal returns to
    pending: Stack  # this turn's used tiles (bottom to top); in "return": the stack to place
    destroyed: Stack  # grain/ship removed by this turn's spells, joined on top at the end
    turns: tuple[int, int]  # completed turns per seat
    history: tuple[int, ...]  # position digests at the start of each turn (repetition rule)
    ended: str  # "", "apex", "cap" or "repetition"


def _neighbours() -> tuple[dict[str, int], ...]:
    out = []
    for sp in range(SPACES):
        r, c = divmod(sp, BOARD_SIDE)
        nb: dict[str, int] = {}
        for d, (dr, dc) in zip(DIRECTIONS, ((0, 1), (-1, 0), (1, 0), (0, -1)), strict=True):
            rr, cc = r + dr, c + dc
            nb[d] = rr * BOARD_SIDE + cc if 0 <= rr < BOARD_SIDE and 0 <= cc < BOARD_SIDE else -1
        out.append(nb)
    return tuple(out)


NEIGHBOURS: tuple[dict[str, int], ...] = _neighbours()
"""``NEIGHBOURS[space][dir]``: the orthogonal neighbour in that direction, -1 off the board."""

DELTA: dict[str, tuple[int, int]] = {"E": (0, 1), "N": (-1, 0), "S": (1, 0), "W": (0, -1)}

RING: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r + dr) * BOARD_SIDE + (c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < BOARD_SIDE and 0 <= c + dc < BOARD_SIDE
    )
    for r, c in (divmod(sp, BOARD_SIDE) for sp in range(SPACES))
)
"""``RING[space]``: the up to 8 surrounding spaces, diagonals included (Whirlwind)."""

LINES: tuple[dict[str, tuple[int, ...]], ...] = tuple(
    {
        "row": tuple(r * BOARD_SIDE + cc for cc in range(BOARD_SIDE) if cc != c),
        "col": tuple(rr * BOARD_SIDE + c for rr in range(BOARD_SIDE) if rr != r),
    }
    for r, c in (divmod(sp, BOARD_SIDE) for sp in range(SPACES))
)
"""``LINES[space][line]``: the other 6 spaces of the row or column through ``space`` (Firestorm)."""


def table_counts() -> Counts:
    """Return the box's tile counts per motif, in MOTIFS order."""
    return tuple(t.count for t in TILES)


def validate_layout(layout: Any) -> tuple[Stack, ...]:
    """Return ``layout`` as board stacks, or raise ValueError naming ``layout`` if it breaks a rule."""
    if not isinstance(layout, list | tuple) or len(layout) != SPACES:
        raise ValueError(f"layout: expected {SPACES} stacks")
    seen = [0] * len(MOTIFS)
    board: list[Stack] = []
    for i, stack in enumerate(layout):
        if not isinstance(stack, list | tuple) or not 1 <= len(stack) <= 2:
            raise ValueError(f"layout: stack {i} must hold 1 or 2 tiles")
        for m in stack:
            if not isinstance(m, str) or m not in MOTIF_INDEX:
                raise ValueError(f"layout: unknown motif {m!r} in stack {i}")
            seen[MOTIF_INDEX[m]] += 1
        board.append(tuple(stack))
    if tuple(seen) != table_counts():
        raise ValueError("layout: the stacks must hold exactly the 75 tiles of the table")
    if sum(1 for s in board if s[-1] == "ship") < 2:
        raise ValueError("layout: at least 2 ships must be on top")
    return tuple(board)


def deal(key: int) -> list[list[str]]:
    """Return the opening deal chosen by a 64-bit chance key (49 stacks, bottom to top).

    Binding procedure (rules, answer 13): shuffle the 75 tiles; the first 49 are the bottoms in
    row-major order; the other 26 go on a uniformly random set of 26 spaces; while fewer than 2
    ships are on top, swap the two tiles of the first 2-stack with a ship under a non-ship.
    """
    rng = random.Random(key)  # a local generator: the deal space is far too big to enumerate
    tiles = [t.motif for t in TILES for _ in range(t.count)]
    rng.shuffle(tiles)
    stacks = [[m] for m in tiles[:SPACES]]
    for sp, m in zip(rng.sample(range(SPACES), len(tiles) - SPACES), tiles[SPACES:], strict=True):
        stacks[sp].append(m)
    while sum(1 for s in stacks if s[-1] == "ship") < 2:
        s = next(s for s in stacks if len(s) == 2 and s[0] == "ship" and s[1] != "ship")
        s.reverse()
    return stacks


def digest(state: State, turn: int | None = None) -> int:
    """Return a process-independent 64-bit digest of the position (the repetition rule's key);
    ``turn`` names the seat to move when it is not yet ``state.turn`` (a turn being handed over)."""
    seat = state.turn if turn is None else turn
    key = (state.board, state.workers, state.racks, state.ships, state.grains, state.pyramids, seat)
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "big")


def dumps(state: State) -> str:
    """Return the state as a JSON string (lossless)."""
    return json.dumps({f.name: getattr(state, f.name) for f in fields(State)}, separators=(",", ":"))


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    return value


def loads(data: str) -> State:
    """Return the state that ``dumps`` turned into ``data``."""
    raw = json.loads(data)
    return State(**{f.name: _tuples(raw[f.name]) for f in fields(State)})
