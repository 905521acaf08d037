"""Sakkara benchmarks: random playouts, game length, AI match results, Hard decision time.

Tables printed:

- ``playouts``: uniformly random legal play (deal resolved from the seed) to the end: games/s,
  actions/s, mean turns per player and how games end (apex / 200-turn cap / repetition);
- ``matches``: AI A against AI B over N games, A taking seat 0 in even games and seat 1 in odd
  ones (alternating first player); A's win rate with a 95 % Wilson interval (draws count half);
- ``hard turn``: time of a Hard turn (all its decisions in one turn, summed), mean / p95 / max, as
  CPU time of the deciding process (what the AI costs) and as wall time (inflated when other jobs
  share the cores).

Run: ``.venv/bin/python bench/sakkara_bench.py [--games 200] [--procs 2] [--playouts 200]
[--matches medium:easy,hard:medium]``.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from engine.core import CHANCE, agent_rng, resolve_chance
from engine.sakkara import GAME
from engine.sakkara.ai import AGENTS


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def random_game(seed: int) -> tuple[int, int, str, float]:
    """Play one random game; return (actions, turns of seat 1, how it ended, seconds)."""
    rng = random.Random(seed)
    t0 = time.perf_counter()
    state = GAME.setup(2, seed)
    actions = 0
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        if seat == CHANCE:
            action = resolve_chance(GAME, state)
        else:
            legal = GAME.legal_actions(state, seat)
            action = legal[rng.randrange(len(legal))]
        state, _ = GAME.apply(state, seat, action)
        actions += 1
    return actions, state.turns[1], state.ended, time.perf_counter() - t0


def match_game(job: tuple[str, str, int]) -> dict[str, Any]:
    """Play one AI game: A is seat 0 on even game numbers; return the outcome and Hard timings."""
    a, b, g = job
    names = [a, b] if g % 2 == 0 else [b, a]
    seed = 10_000 + g
    state = GAME.setup(2, seed)
    rngs = [agent_rng(seed, s) for s in (0, 1)]
    turn_times: list[tuple[float, float]] = []
    current: tuple[int, int] | None = None
    spent, spent_cpu = 0.0, 0.0
    while not GAME.is_over(state):
        seat = GAME.to_move(state)[0]
        if seat == CHANCE:
            state, _ = GAME.apply(state, CHANCE, resolve_chance(GAME, state))
            continue
        legal = GAME.legal_actions(state, seat)
        t0, c0 = time.perf_counter(), time.process_time()
        action = AGENTS[names[seat]](GAME.observe(state, seat), legal, rngs[seat])
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        if names[seat] == "hard" and state.phase in ("before", "after", "steal", "discard"):
            key = (state.turn, state.turns[state.turn])
            if key != current:
                if current is not None:
                    turn_times.append((spent_cpu, spent))
                current, spent, spent_cpu = key, 0.0, 0.0
            spent += dt
            spent_cpu += dc
        state, _ = GAME.apply(state, seat, action)
    if current is not None:
        turn_times.append((spent_cpu, spent))
    a_seat = 0 if g % 2 == 0 else 1
    winners = GAME.result(state)["winners"]
    score = 0.5 if len(winners) == 2 else float(winners == [a_seat])
    return {"score": score, "turns": state.turns[1], "ended": state.ended, "hard": turn_times}


def main() -> None:
    """Run the benchmarks and print the tables."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--procs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--matches", default="medium:easy,hard:medium")
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
          f"python {platform.python_version()}, {args.procs} worker processes")

    if args.playouts:
        t0 = time.perf_counter()
        with ProcessPoolExecutor(args.procs) as pool:
            rows = list(pool.map(random_game, range(args.playouts)))
        wall = time.perf_counter() - t0
        cpu = sum(r[3] for r in rows)
        ends = Counter(r[2] for r in rows)
        print("\n## playouts (uniformly random legal actions)")
        print("| games | games/s (1 core) | actions/s (1 core) | mean turns/player | ended apex/cap/rep. |")
        print("|---|---|---|---|---|")
        print(f"| {len(rows)} | {len(rows) / cpu:.1f} | {sum(r[0] for r in rows) / cpu:.0f} | "
              f"{sum(r[1] for r in rows) / len(rows):.1f} | "
              f"{ends['apex']}/{ends['cap']}/{ends['repetition']} |  (wall {wall:.1f} s)")

    hard_times: list[tuple[float, float]] = []
    table = []
    for pair in filter(None, args.matches.split(",")):
        a, b = pair.split(":")
        t0 = time.perf_counter()
        with ProcessPoolExecutor(args.procs) as pool:
            rows2 = list(pool.map(match_game, [(a, b, g) for g in range(args.games)]))
        wall = time.perf_counter() - t0
        score = sum(r["score"] for r in rows2)
        draws = sum(1 for r in rows2 if r["score"] == 0.5)
        lo, hi = wilson(score, len(rows2))
        turns = sum(r["turns"] for r in rows2) / len(rows2)
        for r in rows2:
            hard_times += r["hard"]
        table.append(f"| {a} vs {b} | {len(rows2)} | {score:g} | {draws} | {score / len(rows2):.1%} | "
                     f"[{lo:.1%}, {hi:.1%}] | {turns:.1f} | {wall:.0f} s |")
    if table:
        print("\n## matches (A vs B, first player alternating; draws count 1/2)")
        print("| A vs B | games | A's points | draws | A's rate | 95 % interval | mean turns/player | wall |")
        print("|---|---|---|---|---|---|---|---|")
        print("\n".join(table))
    if hard_times:
        print("\n## hard turn (all decisions of one turn)")
        print("| clock | turns timed | mean | p95 | max |")
        print("|---|---|---|---|---|")
        for label, col in (("CPU", 0), ("wall", 1)):
            times = sorted(t[col] for t in hard_times)
            p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"| {label} | {len(times)} | {sum(times) / len(times):.3f} s | {p95:.3f} s | {times[-1]:.3f} s |")

if __name__ == "__main__":
    main()
