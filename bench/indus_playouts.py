"""Indus engine speed: random playouts per second per player count (engine API, no views).

Usage: python bench/indus_playouts.py [seconds per row]   (default 5)

A playout is a whole game from setup to the end: uniform random legal actions, dice from the
game's own seeded chance keys. Rows for the default and the random layout.
"""

from __future__ import annotations

import random
import sys
import time

from engine.core import CHANCE, resolve_chance
from engine.indus import GAME


def playout(players: int, seed: int, layout: str) -> int:
    """Play one random game; return the number of actions applied (chance included)."""
    rng = random.Random(seed)
    state = GAME.setup(players, seed, {"layout": layout})
    steps = 0
    while True:
        movers = GAME.to_move(state)
        if not movers:
            return steps
        seat = movers[0]
        if seat == CHANCE:
            action = resolve_chance(GAME, state)
        else:
            action = rng.choice(GAME.legal_actions(state, seat))
        state, _ = GAME.apply(state, seat, action)
        steps += 1


def main() -> None:
    budget = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    print(f"Indus random playouts ({budget:.0f} s per row, one core)")
    print(f"{'players':>8}{'layout':>9}{'playouts/s':>12}{'actions/s':>11}{'actions/game':>14}")
    for layout in ("default", "random"):
        for players in (2, 3, 4):
            games = steps = 0
            start = time.perf_counter()
            while time.perf_counter() - start < budget:
                steps += playout(players, 10_000 + games, layout)
                games += 1
            secs = time.perf_counter() - start
            print(f"{players:>8}{layout:>9}{games / secs:>12.1f}{steps / secs:>11.0f}{steps / games:>14.1f}")


if __name__ == "__main__":
    main()
