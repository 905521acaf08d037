"""A game registry for the AI pool's worker processes whose levels answer with their thinking time
or their process's CPU priority."""

from __future__ import annotations

import os
import random
from typing import Any

from engine.core import thinking_seconds
from engine.session.contract import GameSpec
from engine.session.games import SPECS as GAMES


def says_its_thinking_time(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Answer the thinking time it was given (not an action: the pool passes answers through)."""
    return thinking_seconds()


def says_its_niceness(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
    """Answer the niceness of the process it runs in."""
    return os.nice(0)


SPECS: dict[str, GameSpec] = {
    "incan_gold": GameSpec(GAMES["incan_gold"].game, {"probe": says_its_thinking_time, "nice": says_its_niceness},
                           says_its_thinking_time,
                           "probe", min_players=2, max_players=8),
}
