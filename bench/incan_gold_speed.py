"""Incan Gold engine speed: complete games per second on one core (prints a table).

Usage: python bench/incan_gold_speed.py [--games N]
- contract engine (engine.core.play) with 6 threshold bots, Medium seats, Hard seats;
- numpy batch simulator (keyed = engine-exact draws, rollout = numpy Generator draws).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from engine.core import play
from engine.incan_gold import GAME, ai
from engine.incan_gold.ai import batch as B
from engine.incan_gold.ai import models as M

THRESHOLDS = [ai.leave_at_10, ai.leave_after_7, ai.leave_at_2_hazards, ai.leave_at_10, ai.leave_after_7,
              ai.leave_at_2_hazards]
POLICIES = [M.leave_when_carried(10), M.leave_after_cards(7), M.leave_at_hazards(2)] * 2


def engine_rate(agents, games: int) -> float:
    start = time.perf_counter()
    for seed in range(games):
        play(GAME, agents, seed)
    return games / (time.perf_counter() - start)


def batch_rate(games: int, keyed: bool, chunk: int = 50_000) -> float:
    start = time.perf_counter()
    done = 0
    rng = np.random.default_rng(1)
    while done < games:
        n = min(chunk, games - done)
        if keyed:
            B.run(B.new_batch(6, seeds=range(done, done + n)), POLICIES)
        else:
            B.run(B.new_batch(6, n=n), POLICIES, rng)
        done += n
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the target says
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores (pinned to 1), "
          f"Python {platform.python_version()}")
    rows = [
        ("engine, 6 threshold bots", engine_rate(THRESHOLDS, args.games)),
        ("engine, 6 Medium seats", engine_rate([ai.medium] * 6, args.games)),
        ("engine, 1 Hard + 5 threshold bots",
         engine_rate([ai.hard, *THRESHOLDS[1:]], max(args.games // 100, 5))),
        ("batch keyed (engine-exact), 6 threshold bots", batch_rate(args.games * 50, keyed=True)),
        ("batch rollout, 6 threshold bots", batch_rate(args.games * 50, keyed=False)),
    ]
    print(f"{'simulator':48} {'games/s':>10}")
    for name, rate in rows:
        print(f"{name:48} {rate:10,.0f}")


if __name__ == "__main__":
    main()
