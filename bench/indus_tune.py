"""Indus evaluation weights measured against the expectimax player: one line per variant.

"Today's Hard" below is that player (:func:`engine.indus.ai.heuristics.hard`), the lobby's Hard until
2026-12-05 and its Medium since; ``--player hard`` plays it with the variant's weights.

Usage: python bench/indus_tune.py [--games 400] [--players 2|4] [--seed 50000] [--procs 2]
       [--player hard|search] [--base "cover=0;place_flex=0,0,0.5,0.9"] VARIANT ...

Each VARIANT is ``;``-separated ``field=value`` changes of :class:`engine.indus.ai.evaluation.Weights`
applied on top of ``--base`` (a tuple field takes comma-separated numbers; ``-`` is the base
itself). The candidate plays Hard's turn (``--player hard``) or the search player's
(``--player search``) with those weights against today's Hard in the other seats, on the seats and
seeds of ``bench/indus_ai.py``. Each variant prints::

    tune variant=<changes> win_share=<x> ci95=[<lo>,<hi>] margin=<mean score lead> games=<n>

``margin`` is the candidate's score minus the best other seat's, averaged: a lower-variance
signal than the win share for comparing variants. Use a seed range of its own for tuning, and
confirm a choice with ``bench/indus_ai.py`` on its default seeds (tuning to the confirming seeds
would measure the seeds, not the weights).

Measured 2026-12-05 (x86_64, 2 cores, 2 processes; ~2 min per 400 games), 2 players, Hard's turn
with the weights against today's Hard, 300 games on seeds from 50000 (interval ±5.6 points):
soft 0.5 / 2.0 → 50.0 / 47.5 %; threat_future 0.0 / 1.2 / 1.6 → 48.3 / 55.5 / 50.5 %; secure 0.8
→ 49.7 %; secured 0.0 / 1.6 → 47.3 / 53.7 %; arrival 2.0 → 50.7 %; flex and place_flex ×2 → 47.2 %;
reply_top 8 with reply_weight 1.0 → 48.7 %; threat_future 1.2 + secured 1.6 → 51.2 %;
threat_future 1.6 + secured 1.6 → 54.2 %, confirmed on the seeds from 30000: 55.7 % [50.9, 60.5]
(400 games); with 4 players (one against three of today's Hard, fair 25 %) the same pair took
25.8 % [21.7, 30.3] (400 games): no gain. The search player's weights (cover 0, place_flex up)
in Hard's turn: 49.5 % (400). Hard's weights sit near a local optimum: one weight at a time moves it by a few points.
"""

from __future__ import annotations

import argparse
from dataclasses import fields, replace
from typing import Any

from kit_ai import machine_line, parallel, wilson
from research import indus as trials
from research.indus import search

from engine.core import play
from engine.indus import GAME
from engine.indus.ai import heuristics
from engine.indus.ai.evaluation import HARD_WEIGHTS, Weights


def parse(changes: str, base: Weights) -> Weights:
    """Return ``base`` with the ``;``-separated ``field=value`` changes applied."""
    kinds = {f.name: type(getattr(base, f.name)) for f in fields(Weights)}
    out: dict[str, Any] = {}
    for item in filter(None, changes.split(";")):
        if item == "-":
            continue
        name, value = item.split("=")
        kind = kinds[name]
        out[name] = tuple(float(v) for v in value.split(",")) if kind is tuple else kind(value)
    return replace(base, **out)


def game(job: tuple[Weights, str, int, int, int]) -> tuple[float, float]:
    """Play one game with the candidate in seat ``seat``; return its win share and score lead."""
    weights, player, players, seed, seat = job
    candidate: Any
    if player == "hard":
        def candidate(view: dict[str, Any], legal: list[Any], rng: Any) -> Any:
            return heuristics._decide(view, legal, True, weights)
    else:
        # a worker plays its jobs one at a time, so the module's style is this job's
        search.STYLE = replace(search.STYLE, weights=weights, weights_many=weights)
        candidate = trials.search_player
    agents = [heuristics.hard] * players
    agents[seat] = candidate
    final = play(GAME, agents, seed, {"layout": "default"}).state
    res = GAME.result(final)
    scores = res["scores"]
    lead = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
    won = res["winners"]
    return (1.0 / len(won) if seat in won else 0.0), float(lead)


def main() -> None:
    """Measure every variant and print its line."""
    ap = argparse.ArgumentParser()
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--seed", type=int, default=50_000)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--player", default="hard", choices=("hard", "search"))
    ap.add_argument("--base", default="")
    args = ap.parse_args()
    base = parse(args.base, HARD_WEIGHTS)
    print(machine_line(args.procs))
    print(f"# indus tune: {args.players} players, {args.player} player, seeds from {args.seed}, "
          f"base {args.base or '-'}", flush=True)
    p = args.players
    for variant in args.variants:
        weights = parse(variant, base)
        jobs = [(weights, args.player, p, args.seed + g // p, g % p) for g in range(args.games)]
        rows = parallel(game, jobs, args.procs)
        wins = sum(w for w, _ in rows)
        lo, hi = wilson(wins, len(rows))
        margin = sum(m for _, m in rows) / len(rows)
        print(f"tune variant={variant} win_share={wins / len(rows):.3f} ci95=[{lo:.3f},{hi:.3f}] "
              f"margin={margin:.2f} games={len(rows)}", flush=True)


if __name__ == "__main__":
    main()
