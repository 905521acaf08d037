"""Sakkara AI strength: head-to-head matchups of the levels, and Hard's decision time.

Usage: python bench/sakkara_ai.py [--games 400] [--matchups hard:medium,medium:easy]
       [--procs 2] [--seed 20000[,900000,...]] [--rollouts R] [--seconds S]

Paired seeds: games 2k and 2k+1 share the deal (seed + k) with the seats swapped, so both sides
play both sides of every deal. A draw (safety end with equal pyramids and grain) counts 1/2.
Levels: easy, medium, hard (the lobby's) and any player under trial (research/sakkara.py).
``--rollouts``/``--seconds`` set Hard's search budget per decision (default: ai.BUDGET).
Prints one ``matchup=`` line per pair (see kit_ai.py) and one ``timing=`` line per level.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from kit_ai import Timed, blocks, machine_line, parallel, report, seed_starts, timing_line
from research import sakkara as trials

from engine.core import play
from engine.sakkara import GAME, ai


def game(job: tuple[str, str, int, int]) -> tuple[float, dict[str, list[float]]]:
    """Play one game of A against B; return A's points and each level's decision times."""
    a, b, seed, a_seat = job
    names = [a, b] if a_seat == 0 else [b, a]
    agents = [Timed({**ai.AGENTS, **trials.EXPERIMENTS}[n]) for n in names]
    final = play(GAME, agents, seed).state
    winners = GAME.result(final)["winners"]
    points = 0.5 if len(winners) == 2 else float(winners == [a_seat])
    times: dict[str, list[float]] = {}
    for n, agent in zip(names, agents, strict=True):
        times.setdefault(n, []).extend(agent.times)
    return points, times


def main() -> None:
    """Run the matchups and print their lines."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--matchups", default="hard:medium,medium:easy")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=seed_starts, default=[20_000], help="a start, or several: a,b,c (kit_ai.py)")
    ap.add_argument("--rollouts", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    args = ap.parse_args()
    if args.rollouts is not None:
        ai.BUDGET = replace(ai.BUDGET, rollouts=args.rollouts)
    if args.seconds is not None:
        ai.BUDGET = replace(ai.BUDGET, seconds=args.seconds)
    print(machine_line(args.procs))
    print(f"# sakkara: hard's search budget {ai.BUDGET.rollouts} rollouts, cap {ai.BUDGET.seconds:g} s; "
          f"paired seeds from {','.join(map(str, args.seed))}", flush=True)
    times: dict[str, list[float]] = {}
    for pair in filter(None, args.matchups.split(",")):
        a, b = pair.split(":")
        jobs = [(a, b, start + g // 2, g % 2) for start, g in blocks(args.seed, args.games)]
        rows = parallel(game, jobs, args.procs)
        report(a, b, [p for p, _ in rows], args.seed)
        for _, t in rows:
            for n, ts in t.items():
                times.setdefault(n, []).extend(ts)
    for n, ts in sorted(times.items()):
        print(timing_line(n, ts, ai.BUDGET.seconds if n == "hard" else None))


if __name__ == "__main__":
    main()
