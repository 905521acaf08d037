"""Indus AI seats (``AGENTS``): the levels offered in the lobby; see heuristics.py for how they play."""

from __future__ import annotations

from engine.core import Agent

from .heuristics import easy, hard, medium, state_from_view

__all__ = ["AGENTS", "easy", "hard", "medium", "state_from_view"]

AGENTS: dict[str, Agent] = {"easy": easy, "medium": medium, "hard": hard}
"""The AI seats by difficulty."""
