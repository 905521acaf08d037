"""Indus AI strength: head-to-head matchups of the levels, and Hard's decision time.

Usage: python bench/indus_ai.py [--games 400] [--players 2|4] [--matchups hard:medium,medium:easy]
       [--procs 2] [--seed 30000[,70000,...]] [--layout default|random] [--nodes N] [--seconds S]
       [--rollouts N] [--set place_k=3,horizon=3]

2 players: paired seeds, games 2k and 2k+1 share the seed with the seats swapped.
4 players: one seat of level A against three of level B (the issue's "against three of today's
Hard"; a fair share is 25 %); A's seat rotates 0, 1, 2, 3 over four games of one seed.
Levels: easy, medium, hard (the lobby's) and search, mcts (research/indus, under trial).
A shared win counts as a fraction. Prints one ``matchup=`` line per pair (kit_ai.py) and one
``timing=`` line per level (the search player's against its budget's seconds, the 1.2 × cap of
the issue). ``--nodes``/``--seconds`` set the search player's budget per decision (default:
search.BUDGET); ``--rollouts`` and ``--set`` (mcts.MctsSettings fields) set the Monte-Carlo player's.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from kit_ai import Timed, blocks, machine_line, parallel, report, seed_starts, timing_line
from research import indus as trials
from research.indus import mcts, search

from engine.core import play
from engine.indus import GAME, ai


def game(job: tuple[str, str, int, int, int, str]) -> tuple[float, dict[str, list[float]]]:
    """Play one game with level A in seat ``a_seat`` and B in the others; return A's wins."""
    a, b, players, seed, a_seat, layout = job
    names = [b] * players
    names[a_seat] = a
    agents = [Timed({**ai.AGENTS, **trials.EXPERIMENTS}[n]) for n in names]
    final = play(GAME, agents, seed, {"layout": layout}).state
    won = GAME.result(final)["winners"]
    times: dict[str, list[float]] = {}
    for n, agent in zip(names, agents, strict=True):
        times.setdefault(n, []).extend(agent.times)
    return (1.0 / len(won) if a_seat in won else 0.0), times


def main() -> None:
    """Run the matchups and print their lines."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--matchups", default="hard:medium,medium:easy")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=seed_starts, default=[30_000], help="a start, or several: a,b,c (kit_ai.py)")
    ap.add_argument("--layout", default="default", choices=("default", "random"))
    ap.add_argument("--nodes", type=int, default=None)
    ap.add_argument("--seconds", type=float, default=None)
    ap.add_argument("--rollouts", type=int, default=None)
    ap.add_argument("--set", default="", help="mcts settings, e.g. place_k=3,horizon=3")
    args = ap.parse_args()
    if args.nodes is not None:
        search.BUDGET = replace(search.BUDGET, nodes=args.nodes)
    if args.seconds is not None:
        search.BUDGET = replace(search.BUDGET, seconds=args.seconds)
    if args.rollouts is not None:
        mcts.BUDGET = replace(mcts.BUDGET, rollouts=args.rollouts)
    if args.set:
        pairs = dict(item.split("=") for item in args.set.split(","))
        mcts.SETTINGS = replace(mcts.SETTINGS, **{k: type(getattr(mcts.SETTINGS, k))(v) for k, v in pairs.items()})
    print(machine_line(args.procs))
    seeds = ",".join(map(str, args.seed))
    print(f"# indus: {args.players} players, layout {args.layout}, seeds from {seeds}; search budget "
          f"{search.BUDGET.nodes} nodes, cap {search.BUDGET.seconds:g} s; mcts {mcts.BUDGET.rollouts} rollouts, "
          f"cap {mcts.BUDGET.seconds:g} s, {mcts.SETTINGS}", flush=True)
    times: dict[str, list[float]] = {}
    p = args.players
    for pair in filter(None, args.matchups.split(",")):
        a, b = pair.split(":")
        jobs = [(a, b, p, start + g // p, g % p, args.layout) for start, g in blocks(args.seed, args.games)]
        rows = parallel(game, jobs, args.procs)
        suffix = "" if p == 2 else f"x{p - 1}"
        report(a, b + suffix, [w for w, _ in rows], args.seed)
        for _, t in rows:
            for n, ts in t.items():
                times.setdefault(n, []).extend(ts)
    for n, ts in sorted(times.items()):
        agent = {**ai.AGENTS, **trials.EXPERIMENTS}[n]
        cap = {trials.search_player: search.BUDGET.seconds, trials.mcts_player: mcts.BUDGET.seconds}.get(agent)
        print(timing_line(n, ts, cap))


if __name__ == "__main__":
    main()
