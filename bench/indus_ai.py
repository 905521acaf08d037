"""Indus AI benchmark: head-to-head win rates with 95 % Wilson intervals, and Hard decision time.

Usage: python bench/indus_ai.py [games] [pairs] [first seed] [player counts]
(defaults: 200 games, medium:easy,hard:medium, seed 1000, 2,4). Hard was tuned on seeds
1000–1199; use another first seed (e.g. 5000) for unbiased figures.

2 players: the two agents alternate seat 0 / seat 1 game by game. 4 players: two seats each,
alternating A B A B and B A B A game by game. A game's win is shared equally among tied winners;
a side's win rate is its share of the wins (50 % = equal strength).
"""

from __future__ import annotations

import math
import sys
import time

from engine.core import play
from engine.indus import GAME
from engine.indus.ai import AGENTS


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return centre - half, centre + half


def match(a: str, b: str, players: int, games: int, seed0: int = 1000) -> tuple[float, int, float]:
    """Return (wins of a, games, seconds) for ``games`` games of a against b."""
    wins = 0.0
    start = time.perf_counter()
    for g in range(games):
        if players == 2:
            names = [a, b] if g % 2 == 0 else [b, a]
        else:
            names = [a, b, a, b] if g % 2 == 0 else [b, a, b, a]
        out = play(GAME, [AGENTS[n] for n in names], seed0 + g)
        winners = GAME.result(out.state)["winners"]
        wins += sum(1 for s in winners if names[s] == a) / len(winners)
    return wins, games, time.perf_counter() - start


def decision_times(players: int, games: int = 3) -> tuple[float, float, int]:
    """Return mean and max seconds of Hard decisions over a few Hard-vs-Medium games."""
    times: list[float] = []
    hard = AGENTS["hard"]

    def timed(view, legal, rng):
        t = time.perf_counter()
        out = hard(view, legal, rng)
        times.append(time.perf_counter() - t)
        return out

    for g in range(games):
        agents = [timed, AGENTS["medium"]] * (players // 2)
        play(GAME, agents, 5000 + g)
    return sum(times) / len(times), max(times), len(times)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    pairs = sys.argv[2].split(",") if len(sys.argv) > 2 else ["medium:easy", "hard:medium"]
    seed0 = int(sys.argv[3]) if len(sys.argv) > 3 else 1000
    counts = [int(n) for n in sys.argv[4].split(",")] if len(sys.argv) > 4 else [2, 4]
    print(f"Indus AI head-to-head, {games} games per row, rotating seats, seeds {seed0}–{seed0 + games - 1}")
    print(f"{'pair':<16}{'players':>8}{'win rate':>10}{'95% interval':>18}{'s/game':>9}")
    for pair in pairs:
        a, b = pair.split(":")
        for players in counts:
            wins, n, secs = match(a, b, players, games, seed0)
            lo, hi = wilson(wins, n)
            print(f"{a + ' vs ' + b:<16}{players:>8}{wins / n:>10.1%}{f'[{lo:.1%}, {hi:.1%}]':>18}"
                  f"{secs / n:>9.2f}", flush=True)
    print()
    print("Hard decision time (seconds)")
    print(f"{'players':>8}{'mean':>10}{'max':>10}{'decisions':>11}")
    for players in counts:
        mean, worst, n = decision_times(players)
        print(f"{players:>8}{mean:>10.4f}{worst:>10.4f}{n:>11}")


if __name__ == "__main__":
    main()
