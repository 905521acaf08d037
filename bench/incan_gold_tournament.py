"""Incan Gold AI tournament: each AI against a field of baseline bots (prints tables).

Usage: python bench/incan_gold_tournament.py [--games N] [--hard-games N] [--field leave-at-10]

Each candidate takes one seat of a 5-seat game against 4 copies of the field bot; the seat
rotates with the seed, and every candidate plays the same seeds (paired). A shared win counts
as 1/k of a win. Intervals are 95 % Wilson intervals. A second table plays the AI levels against
each other in mixed 5-seat fields.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import time
from typing import Any

from engine.core import Agent, play
from engine.incan_gold import GAME, ai


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95 % Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def timed(agent: Agent, times: list[float]) -> Agent:
    def wrapper(view: dict[str, Any], legal: list[Any], rng: Any) -> Any:
        start = time.perf_counter()
        action = agent(view, legal, rng)
        times.append(time.perf_counter() - start)
        return action
    return wrapper


def match(candidate: Agent, field: Agent, games: int, seats: int = 5) -> tuple[float, list[float]]:
    """Return (win share, decision times) of ``candidate`` against ``seats - 1`` field bots."""
    wins = 0.0
    times: list[float] = []
    probe = timed(candidate, times)
    for seed in range(games):
        seat = seed % seats
        agents: list[Agent] = [field] * seats
        agents[seat] = probe
        winners = GAME.result(play(GAME, agents, seed).state)["winners"]
        if seat in winners:
            wins += 1 / len(winners)
    return wins, times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--hard-games", type=int, default=300)
    parser.add_argument("--field", default="leave-at-10", choices=sorted(ai.BASELINES))
    args = parser.parse_args()
    field = ai.BASELINES[args.field]
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(f"each AI vs 4x {args.field}, 5 seats, paired seeds; fair share 20 %")
    print(f"{'candidate':22} {'games':>6} {'win %':>7} {'95 % interval':>17} {'p50 ms':>8} {'p99 ms':>8}")
    candidates = {**ai.AGENTS, **{f"baseline {k}": v for k, v in ai.BASELINES.items()}}
    for name, agent in candidates.items():
        n = args.hard_games if name == "hard" else args.games
        wins, times = match(agent, field, n)
        lo, hi = wilson(wins, n)
        times.sort()
        p50 = statistics.median(times) * 1e3 if times else 0.0
        p99 = times[int(len(times) * 0.99)] * 1e3 if times else 0.0
        interval = f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]"
        print(f"{name:22} {n:6d} {100 * wins / n:6.1f}% {interval} {p50:8.2f} {p99:8.2f}")

    print()
    print("mixed field: hard, medium, easy, leave-at-10, leave-after-7 (seats rotate)")
    lineup: list[tuple[str, Agent]] = [("hard", ai.hard), ("medium", ai.medium), ("easy", ai.easy),
                                       ("leave-at-10", ai.leave_at_10), ("leave-after-7", ai.leave_after_7)]
    totals = dict.fromkeys((n for n, _ in lineup), 0.0)
    games = args.hard_games
    for seed in range(games):
        order = lineup[seed % 5:] + lineup[: seed % 5]
        winners = GAME.result(play(GAME, [a for _, a in order], seed).state)["winners"]
        for seat in winners:
            totals[order[seat][0]] += 1 / len(winners)
    for name, wins in totals.items():
        lo, hi = wilson(wins, games)
        print(f"{name:22} {games:6d} {100 * wins / games:6.1f}% [{100 * lo:5.1f}%, {100 * hi:5.1f}%]")


if __name__ == "__main__":
    main()
