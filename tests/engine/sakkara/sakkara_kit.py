"""Scenario helpers for the Sakkara tests: hand-built, tile-conserving positions."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.sakkara import GAME
from engine.sakkara.rules import tiles_everywhere
from engine.sakkara.state import State
from engine.sakkara.tiles import MOTIF_INDEX, MOTIFS, SPACES, TILES


def sp(row: int, col: int) -> int:
    """Return the space index of (row, col)."""
    return row * 7 + col


def counts(d: dict[str, int] | None) -> tuple[int, ...]:
    """Return a motif-count tuple from a {motif: count} dict."""
    out = [0] * len(MOTIFS)
    for m, c in (d or {}).items():
        out[MOTIF_INDEX[m]] += c
    return tuple(out)


def make(
    board: dict[int, list[str]] | None = None,
    workers: tuple[int, int, int, int] = (0, 6, 42, 48),
    racks: tuple[dict[str, int], dict[str, int]] = ({}, {}),
    ships: tuple[int, int] = (0, 0),
    grains: tuple[int, int] = (0, 0),
    pyramids: tuple[dict[str, int], dict[str, int]] = ({}, {}),
    pending: tuple[str, ...] = (),
    dump: list[int] | None = None,
    **fields: Any,
) -> State:
    """Return a mid-game state (seat 0 to move, before its step by default).

    ``board`` pins some stacks (bottom to top); every tile not placed anywhere else is spread
    round-robin, one layer at a time, over ``dump`` (default: the unpinned spaces without a
    worker), so the 75 tiles are always all somewhere.
    """
    board = dict(board or {})
    used = [0] * len(MOTIFS)
    for stack in board.values():
        for m in stack:
            used[MOTIF_INDEX[m]] += 1
    for part in (*racks, *pyramids):
        for m, c in part.items():
            used[MOTIF_INDEX[m]] += c
    for m in pending:
        used[MOTIF_INDEX[m]] += 1
    used[MOTIF_INDEX["ship"]] += sum(ships)
    used[MOTIF_INDEX["grain"]] += sum(grains)
    rest = [t.motif for t in TILES for _ in range(t.count - used[MOTIF_INDEX[t.motif]])]
    assert all(t.count >= used[MOTIF_INDEX[t.motif]] for t in TILES), "more tiles than the box holds"
    if dump is None:
        dump = [s for s in range(SPACES) if s not in board and s not in workers]
    stacks: list[list[str]] = [list(board.get(s, [])) for s in range(SPACES)]
    for i, m in enumerate(rest):
        stacks[dump[i % len(dump)]].append(m)
    base = GAME.setup(2, 0, None)
    fields.setdefault("phase", "before")
    state = replace(
        base,
        board=tuple(tuple(s) for s in stacks),
        workers=workers,
        racks=(counts(racks[0]), counts(racks[1])),
        ships=ships,
        grains=grains,
        pyramids=(counts(pyramids[0]), counts(pyramids[1])),
        pending=pending,
        draws=1,
        **fields,
    )
    assert tiles_everywhere(state) == [t.count for t in TILES]
    return state


def act(state: State, seat: int, action: Any) -> tuple[State, list[dict[str, Any]]]:
    """Apply through the checked contract entry point (so legality is exercised too)."""
    return GAME.apply(state, seat, action)


def rack(state: State, seat: int) -> dict[str, int]:
    """Return a seat's rack as a {motif: count} dict."""
    return {m: c for m, c in zip(MOTIFS, state.racks[seat], strict=True) if c}


def kinds(state: State, seat: int) -> set[str]:
    """Return the set of action kinds legal for a seat."""
    return {a["do"] for a in GAME.legal_actions(state, seat)}
