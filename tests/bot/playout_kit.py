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
