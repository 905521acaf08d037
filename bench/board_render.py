"""Render time of the board images (target < 100 ms per board), over random positions.

Positions: seeded random playouts of each game (chance from the state's own seed), sampled
evenly, finished games included. The first render of a process fills the sprite and text
caches; it is timed apart ("cold") and the table reports the warm renders a running bot sees.
``sakkara_move`` is what a move draws: the public board (sent to the channel and to both DMs, drawn
once) and both private pictures (each a seat's rack).

    .venv/bin/python bench/board_render.py [--positions 200]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import PIL

import engine.indus as indus_engine
import engine.sakkara as sakkara_engine
from engine.core import CHANCE, resolve_chance
from pictures.indus import board as indus_board
from pictures.sakkara import board as sakkara_board


def positions(game: Any, players: int, count: int, seed: int, options: dict[str, Any] | None = None) -> list[Any]:
    """Return ``count`` states drawn from seeded random games (each game's last state included)."""
    out: list[Any] = []
    rng = random.Random(seed)
    g = 0
    while len(out) < count:
        state = game.setup(players, seed + g, options)
        states = [state]
        while movers := game.to_move(state):
            seat = movers[0]
            action = resolve_chance(game, state) if seat == CHANCE else rng.choice(game.legal_actions(state, seat))
            state, _ = game.apply(state, seat, action)
            states.append(state)
        out += [*rng.sample(states[:-1], min(len(states) - 1, 19)), states[-1]]
        g += 1
    return out[:count]


def measure(render: Callable[[Any], bytes], views: list[Any]) -> tuple[float, list[float], list[float], list[int]]:
    """Return the cold render time, the warm wall and CPU times (ms) and the PNG sizes (bytes).

    CPU time is reported next to wall time because the shared benchmark box is often loaded:
    wall time then includes waiting for a core, CPU time is the work of one render.
    """
    t0 = time.perf_counter()
    render(views[0])
    cold = (time.perf_counter() - t0) * 1000
    wall, cpu, sizes = [], [], []
    for view in views:
        t0, c0 = time.perf_counter(), time.process_time()
        png = render(view)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - t0) * 1000)
        sizes.append(len(png))
    return cold, wall, cpu, sizes


def pct(values: list[float], q: float) -> float:
    """Return the q-quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def sakkara_move(views: tuple[Any, Any, Any]) -> bytes:
    """What a Sakkara move draws: the public board and both players' private pictures (their racks)."""
    sakkara_board.board_image(views[0])
    sakkara_board.private_pictures(views[1])
    return sakkara_board.private_pictures(views[2])[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()
    n = args.positions
    sak = positions(sakkara_engine.GAME, 2, n, 1)
    cases: list[tuple[str, Callable[[Any], bytes], list[Any]]] = [
        ("sakkara_board", sakkara_board.board_image, [sakkara_engine.GAME.view(s, None) for s in sak]),
        ("sakkara_rack", sakkara_board.rack_image, [sakkara_engine.GAME.view(s, i % 2) for i, s in enumerate(sak)]),
        ("sakkara_private", lambda view: sakkara_board.private_pictures(view)[1],
         [sakkara_engine.GAME.view(s, i % 2) for i, s in enumerate(sak)]),
        ("sakkara_move", sakkara_move,
         [tuple(sakkara_engine.GAME.view(s, seat) for seat in (None, 0, 1)) for s in sak]),
    ]
    for players in (2, 3, 4):
        layout = "default" if players != 3 else "random"
        states = positions(indus_engine.GAME, players, n, 100 + players, {"layout": layout})
        cases.append((f"indus_board {players}p ({layout})", indus_board.board_image,
                      [indus_engine.GAME.view(s, None) for s in states]))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"board render, {n} positions per board; {platform.python_implementation()} {platform.python_version()}, "
          f"Pillow {PIL.__version__}, {os.cpu_count()} cores, load average {load:.1f}")
    print(f"{'board':<26} {'cold':>6} {'wall p50':>9} {'wall p99':>9} {'cpu p50':>8} {'cpu p99':>8} {'KB':>6}"
          "   (ms; KB = mean PNG size)")
    for name, render, views in cases:
        cold, wall, cpu, sizes = measure(render, views)
        print(f"{name:<26} {cold:6.0f} {statistics.median(wall):9.1f} {pct(wall, 0.99):9.1f} "
              f"{statistics.median(cpu):8.1f} {pct(cpu, 0.99):8.1f} {statistics.mean(sizes) / 1024:6.1f}")


if __name__ == "__main__":
    main()
