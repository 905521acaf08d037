"""Sakkara for two players: the engine (``GAME``), its one tile table and its AI players.

Hidden information: the racks (private to their owner) and the covered tiles of every stack.
"""

from __future__ import annotations

from .game import GAME, Sakkara

__all__ = ["GAME", "Sakkara"]
