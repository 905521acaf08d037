"""A finished (or running) game's story by expedition: each tent after every expedition.

The end-of-game chart (each player's total after every expedition, with the artifacts they took)
needs what the final state no longer holds. It is rebuilt by replaying the game's actions from its
setup, the same way a restart does, and read at each expedition's end. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.incan_gold import effects, rules

__all__ = ["ExpeditionEnd", "expeditions"]


@dataclass(frozen=True, slots=True)
class ExpeditionEnd:
    """The tents once an expedition ended."""

    round: int
    reason: str  # "all-left", "collapse" or "deck-out"
    banked: tuple[int, ...]  # gems in each tent
    points: tuple[int, ...]  # each seat's score so far: gems and the points of its artifacts
    artifacts: tuple[tuple[tuple[str, int], ...], ...]  # per seat: (artifact, points) taken in this expedition


def expeditions(players: int, seed: int, options: dict[str, Any] | None,
                actions: Iterable[tuple[int, Any]]) -> list[ExpeditionEnd]:
    """Return every ended expedition of the game with these seats, seed, options and actions."""
    state = rules.setup(players, seed, options)
    ends: list[ExpeditionEnd] = []
    held: list[tuple[tuple[str, int], ...]] = [() for _ in range(players)]
    for seat, action in actions:
        state, events = effects.apply(state, seat, action)
        for event in events:
            if event["type"] != "round_end":
                continue
            # The round's end clears carried gems and the path; tents and artifacts are final here.
            taken = tuple(arts[len(held[s]):] for s, arts in enumerate(state.artifacts))
            held = list(state.artifacts)
            points = tuple(b + sum(p for _, p in arts) for b, arts in zip(state.banked, state.artifacts, strict=True))
            ends.append(ExpeditionEnd(int(event["round"]), str(event["reason"]), tuple(state.banked), points, taken))
    return ends
