"""Incan Gold / Diamant: 3-8 explorers, five expeditions, simultaneous secret Torch/Camp choices.

``GAME`` is the engine contract object (see ``engine.core.Game``). This package holds the rules:
:mod:`engine.incan_gold.rules` (what an action does in :mod:`engine.incan_gold.effects`), the
editions as data in :mod:`engine.incan_gold.editions`, and each expedition's story for the final
chart in :mod:`engine.incan_gold.history`. The AI players live apart in
:mod:`engine.incan_gold.ai` (the lobby's levels, Hard's simulator and opponent model).
Hidden information: pending choices before the reveal, and banked totals unless ``open_tents``.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Event
from engine.incan_gold import effects, rules
from engine.incan_gold.rules import CAMP, TORCH, State

__all__ = ["CAMP", "GAME", "TORCH", "IncanGold", "State"]


class IncanGold:
    """The Incan Gold contract object: thin named access to :mod:`engine.incan_gold.rules` and
    :mod:`engine.incan_gold.effects`."""

    name = "incan_gold"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    recommended_players = (3, 8)

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """Return a new game at the start of round 1."""
        return rules.setup(players, seed, options)

    def to_move(self, state: State) -> list[int]:
        """Return seats still to choose, ``[CHANCE]`` or ``[]``."""
        return rules.to_move(state)

    def chance_outcomes(self, state: State) -> list[tuple[str, float]]:
        """Return the next card's labels with probabilities."""
        return rules.chance_outcomes(state)

    def sample_chance(self, state: State, key: int) -> str:
        """Return the card a chance key selects."""
        return rules.sample_chance(state, key)

    def legal_actions(self, state: State, seat: int) -> list[str]:
        """Return the sorted choices open to ``seat``."""
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[Event]]:
        """Return the next state and its events."""
        return effects.apply(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """Return the public view or a seat's view."""
        return rules.view(state, seat)

    def observe(self, state: State, seat: int) -> dict[str, Any]:
        """Return what an AI seat perceives."""
        return rules.observe(state, seat)

    def resample_hidden(self, state: State, seat: int, rng: random.Random) -> State:
        """Return the state with what ``seat`` cannot see redrawn."""
        return rules.resample_hidden(state, seat, rng)

    def is_over(self, state: State) -> bool:
        """Return True after the fifth expedition."""
        return rules.is_over(state)

    def result(self, state: State) -> dict[str, Any]:
        """Return scores and winners."""
        return rules.result(state)

    def dumps(self, state: State) -> str:
        """Return the state as JSON."""
        return rules.dumps(state)

    def loads(self, data: str) -> State:
        """Return the state encoded in ``data``."""
        return rules.loads(data)


GAME = IncanGold()
