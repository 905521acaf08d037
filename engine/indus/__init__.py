"""Indus (Queen Games, 2004) for 2–4 players: the rules engine and its board layouts.

Nothing is hidden in Indus except the future dice (chance events), so every seat's view is the
public view and ``GAME.resample_hidden`` returns the state unchanged. See ``rules`` for the
engine's rules, ``game`` for its game object, ``scoring`` for the end scoring, ``layout`` and
``generator`` for the board data (default layout, text format, seeded generator). The AI players
live apart in :mod:`engine.indus.ai` (Easy / Medium / Hard, with Hard's learned value and its
weights); the players under trial are not shipped (bench/research/indus).
"""

from __future__ import annotations

from .game import GAME, IndusGame
from .rules import State

__all__ = ["GAME", "IndusGame", "State"]
