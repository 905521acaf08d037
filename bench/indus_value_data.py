"""Positions for Indus's learned value (engine/indus/ai/value.py): self-play games, pickled.

Usage: python bench/indus_value_data.py --games 2000 [--players 2] [--seed 100000] [--procs 2]
       [--out /tmp/indus_positions.pkl]

Each game is played by a mix of players (mostly the expectimax player, Medium; some the greedy
player; some the expectimax player that plays a random legal action one time in ten; with
``--value-share``, Hard itself), so the data also holds positions other players steer into.
Three games in four use the default layout, one in four a random layout (so the value learns
ruins, not one board). Every position at the start of a turn is kept with the final
position, from which bench/indus_value_train.py reads the targets.
"""

from __future__ import annotations

import argparse
import pickle
import random
from typing import Any

from kit_ai import parallel

from engine.core import play
from engine.indus import GAME, ai
from engine.indus.ai import heuristics
from engine.indus.rules import State


def _noisy(agent: Any, share: float) -> Any:
    """Return ``agent`` playing a random legal action ``share`` of the time."""

    def act(view: dict[str, Any], legal: list[Any], rng: random.Random) -> Any:
        if len(legal) > 1 and rng.random() < share:
            return rng.choice(legal)
        return agent(view, legal, rng)

    return act


def game(job: tuple[int, int, float]) -> tuple[list[State], State]:
    """Play one game; return its turn-start positions and its final position."""
    seed, players, value_share = job
    pick = random.Random(seed * 7919)
    agents = []
    for _ in range(players):
        r = pick.random()
        agents.append(heuristics.medium if r < 0.15 else _noisy(heuristics.hard, 0.1) if r < 0.3
                      else ai.hard if r < 0.3 + value_share else heuristics.hard)
    layout = "random" if pick.random() < 0.25 else "default"
    seen: list[State] = []

    def observe(state: State, seat: int) -> dict[str, Any]:
        if state.phase in ("place", "roll") and state.roll == 0 and (not seen or seen[-1].turn != state.turn):
            seen.append(state)
        return GAME.observe(state, seat)

    final = play(GAME, agents, seed, {"layout": layout}, observe=observe).state
    return seen, final


def main() -> None:
    """Play the games and pickle their positions."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=100_000)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--out", default="/tmp/indus_positions.pkl")
    ap.add_argument("--value-share", type=float, default=0.0,
                    help="share of the seats played by the learned-value player (its shipped weights)")
    args = ap.parse_args()
    jobs = [(args.seed + i, args.players, args.value_share) for i in range(args.games)]
    games = parallel(game, jobs, args.procs)
    with open(args.out, "wb") as fh:
        pickle.dump(games, fh)
    print(f"games={len(games)} positions={sum(len(g[0]) for g in games)} out={args.out}")


if __name__ == "__main__":
    main()
