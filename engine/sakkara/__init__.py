"""Sakkara for two players: the rules engine (``GAME``) and its one tile table.

The rules: ``game`` (the contract object), ``rules`` (legal actions), ``effects`` (what an action
does), ``state`` (the board and the deal), ``tiles`` (the data). The AI players live apart in
:mod:`engine.sakkara.ai` (the lobby's levels, their evaluation, planner and search).

Hidden information: the racks (private to their owner) and the covered tiles of every stack.
"""

from __future__ import annotations

from .game import GAME, Sakkara

__all__ = ["GAME", "Sakkara"]
