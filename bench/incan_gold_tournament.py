"""Incan Gold AI strength in fields that mean something: the published bots, mixed tables, ladders.

Usage: python bench/incan_gold_tournament.py [--games 400] [--sections anchor,field5,mixed5,ladder]
       [--procs 2] [--seed 0[,1000,...]] [--rollouts R] [--seconds S] [--ladder hard:medium,medium:easy,...]
       [--levels easy,medium,hard]

The baseline bots are those of the public simulator 2222-42/incangold_strategy, ported decision
for decision (engine/incan_gold/ai/published.py): random 50 % and 10 %, "Cowardly" (leave at 1
hazard), "Normal" (leave at 2 hazards), "Risky" (its best parameters, with artifact EV) and "EV"
(upside - downside card counting). Sections (every game on the default incan-gold preset, seats
rotating with the game number, the same seeds for every level: paired):

- ``anchor``: that simulator's own 6-seat field with one of our levels replacing "Random 50 %"
  (``matchup=<level>_vs_anchor6``; fair share 16.7 %);
- ``field5``: {level, EV, Risky, leave at 2 hazards, random 10 %} (``<level>_vs_field5``; 20 %);
- ``mixed5``: 5 seats drawn at random (without repeats) from every baseline bot and level, one
  line per bot over the games it sat in (``<bot>_vs_mixed5``; 20 %);
- ``ladder``: head to head, 2 seats, paired seeds with the seats swapped (``hard_vs_medium``,
  ``medium_vs_easy``, and Hard against the two strongest published bots).

A shared win counts as a fraction. Each field also prints a comment line with every seat's
share, and every level a ``timing=`` line (see kit_ai.py).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from kit_ai import Timed, blocks, machine_line, parallel, report, seed_starts, timing_line

from engine.core import Agent, play
from engine.incan_gold import GAME, ai
from engine.incan_gold.ai.published import ANCHOR_FIELD, PUBLISHED

LEVELS = ("easy", "medium", "hard")
FIELD5 = ("ev", "risky", "leave-at-2-hazards", "random-10")
LADDER = (("hard", "medium"), ("medium", "easy"), ("hard", "ev"), ("hard", "risky"))
POOL = (*LEVELS, *PUBLISHED)


def agent(name: str) -> Agent:
    """Return the agent of a level or a published bot."""
    return ai.AGENTS[name] if name in ai.AGENTS else PUBLISHED[name]


def table(job: tuple[tuple[str, ...], int, int]) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Play one game of the named seats rotated by ``shift``; return wins and level timings."""
    names, seed, shift = job
    k = shift % len(names)
    order = names[k:] + names[:k]
    agents = [Timed(agent(n)) for n in order]
    won = GAME.result(play(GAME, agents, seed).state)["winners"]
    wins: dict[str, float] = {}
    for s in won:
        wins[order[s]] = wins.get(order[s], 0.0) + 1.0 / len(won)
    times: dict[str, list[float]] = {}
    for n, a in zip(order, agents, strict=True):
        if n in LEVELS:
            times.setdefault(n, []).extend(a.times)
    return wins, times


def field(label: str, opponent: str, jobs: list[tuple[tuple[str, ...], int, int]], names: Iterable[str],
          starts: Sequence[int], procs: int, times: dict[str, list[float]]) -> None:
    """Play the tables of ``jobs`` (:func:`table`'s, laid out per start by ``kit_ai.blocks``); print
    every bot's share of its tables and, for each of ``names``, its matchup line against
    ``opponent`` over the tables it sat at."""
    rows = parallel(table, jobs, procs)
    score: dict[str, tuple[float, int]] = {}
    for (seats, _, _), (wins, t) in zip(jobs, rows, strict=True):
        for n in seats:
            w, g = score.get(n, (0.0, 0))
            score[n] = (w + wins.get(n, 0.0), g + 1)
        for n, ts in t.items():
            times.setdefault(n, []).extend(ts)
    ranked = sorted(score.items(), key=lambda kv: -kv[1][0] / kv[1][1])
    print(f"# {label}: " + ", ".join(f"{n} {w / g:.3f}" for n, (w, g) in ranked), flush=True)
    for n in names:
        report(n, opponent, [wins.get(n, 0.0) if n in seats else None
                             for (seats, _, _), (wins, _) in zip(jobs, rows, strict=True)], starts)


def main() -> None:
    """Run the sections and print their lines."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--sections", default="anchor,field5,mixed5,ladder")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=seed_starts, default=[0], help="a start, or several: a,b,c (kit_ai.py)")
    ap.add_argument("--rollouts", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--levels", default=",".join(LEVELS),
                    help="the levels the anchor and field5 sections seat (each its own games)")
    ap.add_argument("--ladder", default=",".join(f"{a}:{b}" for a, b in LADDER),
                    help="the head-to-head pairs of the ladder section")
    args = ap.parse_args()
    if args.rollouts is not None:
        ai.BUDGET = replace(ai.BUDGET, rollouts=args.rollouts)
    if args.seconds is not None:
        ai.BUDGET = replace(ai.BUDGET, seconds=args.seconds)
    sections = set(args.sections.split(","))
    levels = [name for name in args.levels.split(",") if name]
    n, starts = args.games, args.seed
    print(machine_line(args.procs))
    print(f"# incan gold: hard budget {ai.BUDGET.rollouts} rollout pairs, cap {ai.BUDGET.seconds:g} s; "
          f"seeds from {','.join(map(str, starts))}", flush=True)
    times: dict[str, list[float]] = {}
    if "anchor" in sections:
        for level in levels:
            names = (level, *ANCHOR_FIELD[1:])
            jobs = [(names, start + g, g) for start, g in blocks(starts, n)]
            field(f"anchor6 with {level}", "anchor6", jobs, [level], starts, args.procs, times)
    if "field5" in sections:
        for level in levels:
            jobs = [((level, *FIELD5), start + g, g) for start, g in blocks(starts, n)]
            field(f"field5 with {level}", "field5", jobs, [level], starts, args.procs, times)
    if "mixed5" in sections:
        jobs = []
        for start in starts:  # each start draws its tables as a run from it alone does
            draw = random.Random(start)
            jobs += [(tuple(draw.sample(POOL, 5)), start + g, g) for g in range(n)]
        field("mixed5", "mixed5", jobs, POOL, starts, args.procs, times)
    if "ladder" in sections:
        for a, b in (pair.split(":") for pair in filter(None, args.ladder.split(","))):
            pairs = [((a, b) if g % 2 == 0 else (b, a), start + g // 2, 0) for start, g in blocks(starts, n)]
            rows = parallel(table, pairs, args.procs)
            report(a, b, [w.get(a, 0.0) for w, _ in rows], starts)
            for _, t in rows:
                for name, ts in t.items():
                    times.setdefault(name, []).extend(ts)
    for name, ts in sorted(times.items()):
        print(timing_line(name, ts, ai.BUDGET.seconds if name == "hard" else None))


if __name__ == "__main__":
    main()
