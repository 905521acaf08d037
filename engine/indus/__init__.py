"""Indus (Queen Games, 2004) for 2–4 players: rules engine, board layouts and AI players.

Nothing is hidden in Indus except the future dice (chance events), so every seat's view is the
public view and ``GAME.resample_hidden`` returns the state unchanged. See ``rules`` for the
engine's rules, ``game`` for its game object, ``scoring`` for the end scoring, ``layout`` for the
board data (default layout, text format, seeded generator) and ``ai`` for the Easy / Medium / Hard
agents.
"""

from __future__ import annotations

from .game import GAME, IndusGame
from .rules import State

__all__ = ["GAME", "IndusGame", "State"]
