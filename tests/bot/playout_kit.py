"""A seeded random game, state by state (for picture tests that need many positions)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.core import CHANCE, resolve_chance


def playout(game: Any, players: int, seed: int, options: dict[str, Any] | None = None) -> Iterator[Any]:
    """Yield every state of a seeded random game, the finished one last."""
    state = game.setup(players, seed, options)
    rng = random.Random(seed)
    yield state
    while movers := game.to_move(state):
        seat = movers[0]
        action = resolve_chance(game, state) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        yield state


SAKKARA_MOMENTS = frozenset({"deal", "place", "before", "after", "steal", "discard", "return", "over", "destroyed"})
"""Every phase a Sakkara picture is drawn in, and a destroyed stack (``"destroyed"``)."""


def sakkara_moments(game: Any) -> dict[str, Any]:
    """Return a state of each of :data:`SAKKARA_MOMENTS`, from seeded random 2-player games (seeds are
    walked until all are seen: one game does not reach every phase)."""
    seen: dict[str, Any] = {}
    for seed in range(1, 30):
        for state in playout(game, 2, seed):
            seen.setdefault(state.phase, state)
            if state.destroyed:
                seen.setdefault("destroyed", state)
        if set(seen) >= SAKKARA_MOMENTS:
            break
    assert set(seen) >= SAKKARA_MOMENTS
    return seen
