"""What the AI benchmarks share: worker processes, timed agents, win shares and their lines.

Every AI benchmark prints one line per matchup in the form other tools read::

    matchup=<level>_vs_<opponent> win_share=<x> ci95=[<lo>,<hi>] games=<n>

``win_share`` is the share of the wins the first-named side took (a shared win counts as a
fraction); ``ci95`` is the 95 % Wilson score interval of that share. ``--seed`` takes one start or
several separated by commas: each start plays the same ``--games`` it plays alone, and their games
pool into the one matchup line (first a ``# seeds from <start>: <level>_vs_<opponent> win_share=…``
comment line per start, without ``matchup=`` so that tools reading the lines count only the pool), so
one command reproduces a figure pooled from several runs (starts far enough apart that their games'
seeds do not overlap). Decision times print as::

    timing=<level> decisions=<n> p50_ms=<x> p99_ms=<x> max_ms=<x> budget_ms=<x> over_budget_1.2=<n>
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from engine.core import Agent

__all__ = ["Timed", "blocks", "machine_line", "matchup_line", "parallel", "report", "seed_starts", "timing_line",
           "wilson"]

T = TypeVar("T")
R = TypeVar("R")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def matchup_line(level: str, opponent: str, wins: float, games: int) -> str:
    """Return the matchup line of ``level``'s ``wins`` (fractions allowed) in ``games``."""
    lo, hi = wilson(wins, games)
    share = wins / games if games else 0.0
    return f"matchup={level}_vs_{opponent} win_share={share:.3f} ci95=[{lo:.3f},{hi:.3f}] games={games}"


def seed_starts(text: str) -> list[int]:
    """Parse ``--seed``: one start or several, comma-separated (argparse ``type``)."""
    try:
        starts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a seed or a comma-separated list of seeds: {text!r}") from None
    if len(set(starts)) != len(starts):
        raise argparse.ArgumentTypeError(f"a seed listed twice would count its games twice: {text!r}")
    return starts


def blocks(starts: Sequence[int], games: int) -> list[tuple[int, int]]:
    """Return ``(start, g)`` for every start and every game number ``g < games``, start by start:
    a benchmark's jobs built from them hold, per start, the jobs of a run from that start alone."""
    return [(start, g) for start in starts for g in range(games)]


def report(level: str, opponent: str, points: Sequence[float | None], starts: Sequence[int]) -> None:
    """Print the matchup line of ``level`` over ``points`` (its share of each game's win, ``None``
    where it did not play), laid out in equal blocks per start as :func:`blocks` makes them; with
    several starts, each start's own line first, as a comment."""
    size = len(points) // len(starts)
    if size * len(starts) != len(points):
        raise ValueError(f"{len(points)} games do not split into {len(starts)} equal blocks")
    if len(starts) > 1:
        for k, start in enumerate(starts):
            part = [p for p in points[k * size:(k + 1) * size] if p is not None]
            line = matchup_line(level, opponent, sum(part), len(part)).removeprefix("matchup=")
            print(f"# seeds from {start}: {line}", flush=True)  # no "matchup=": tools read the pooled line
    played = [p for p in points if p is not None]
    print(matchup_line(level, opponent, sum(played), len(played)), flush=True)


def timing_line(level: str, times: Sequence[float], budget_s: float | None) -> str:
    """Return the decision-time line of ``level`` (seconds in, milliseconds out)."""
    if not times:
        return f"timing={level} decisions=0"
    ts = sorted(times)
    p50 = ts[len(ts) // 2]
    p99 = ts[min(len(ts) - 1, math.ceil(0.99 * len(ts)) - 1)]
    over = sum(1 for t in ts if budget_s is not None and t > 1.2 * budget_s)
    budget = f"{1000 * budget_s:.0f}" if budget_s is not None else "none"
    return (f"timing={level} decisions={len(ts)} p50_ms={1000 * p50:.1f} p99_ms={1000 * p99:.1f} "
            f"max_ms={1000 * ts[-1]:.1f} budget_ms={budget} over_budget_1.2={over}")


class Timed:
    """An agent that records how long each decision of the wrapped agent took (wall clock)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.times: list[float] = []

    def __call__(self, view: dict[str, Any], legal: list[Any], rng: Any) -> Any:
        """Decide through the wrapped agent and record the time it took."""
        start = time.perf_counter()
        action = self.agent(view, legal, rng)
        self.times.append(time.perf_counter() - start)
        return action


def parallel(fn: Callable[[T], R], jobs: Iterable[T], procs: int) -> list[R]:
    """Return ``fn`` of every job, in order, computed by ``procs`` worker processes (progress on
    stderr every tenth of the jobs, so a long run can be watched)."""
    items = list(jobs)
    out: list[R] = []
    step = max(1, len(items) // 10)
    with multiprocessing.get_context("fork").Pool(max(1, procs)) as pool:
        for result in pool.imap(fn, items, chunksize=1):
            out.append(result)
            if len(out) % step == 0:
                print(f"# progress {len(out)}/{len(items)}", file=sys.stderr, flush=True)
    return out


def machine_line(procs: int) -> str:
    """Return the machine the figures come from, with its load when the run started."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"# machine: {platform.machine()} {platform.processor() or ''}".rstrip()
            + f", {os.cpu_count()} cores, Python {platform.python_version()}, {procs} worker processes, "
            f"load average {load:.1f} at start")
