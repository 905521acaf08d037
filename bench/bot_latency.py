"""Latency and rate-limited calls of live tables: the real bot on the fake Discord, under Discord's limits.

N tables of one game (``--game incan_gold|sakkara|indus``; Incan Gold: 3 people + 2 bots, Sakkara:
2 people, Indus: 2 people + 1 bot) play at once in one process, on the real :class:`bot.Bot` with
a file database, against :class:`fakediscord.FakeDiscord`. With ``--rate-limited`` the fake
answers as Discord does (50 bot-token requests/s, 5 sends and 5 edits per 5 s per channel, 429s,
interaction responses exempt) and the bot keeps within its budget (``REST_PER_SECOND``). Each
simulated person acts only on what Discord would show them: they wait until their controls are
on a message they can see, think ``--think`` seconds (5-30 by default), and press.

Printed per size: presses and moves per second; p50/p99 from a press to the interaction's
response and to the public message showing the move (as it reaches the fake Discord); rate-limited
REST calls per card (Incan Gold) or per move (Sakkara, Indus), by kind; 429s and invalid requests.
At the end, the largest size whose public updates stayed under 2 s at p99 with no invalid request,
and one line per size that other tools read (the last line is the last size's):

    latency tables=300 limited_calls_per_move=<x> p99_click_ms=<ms> p99_public_ms=<ms> r429=<n> invalid=<n>

With ``--ai-load N``, N more tables whose every seat is a Hard bot play flat out on the same
process (bench/latency/ai_load.py); their moves and calls are reported apart, and the summary line
ends with ``ai_load=<N> ai_moves_per_s=<x>``. The AI pool has the bot's default workers
(``--ai-workers``).

Run: ``.venv/bin/python bench/bot_latency.py --rate-limited --tables 300 --seconds 60`` (add
``--game sakkara`` or ``--game indus``); the sweep: ``--rate-limited --tables 100 300 1000 3000``.
The parts are in bench/latency/.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from bench.latency.games import ALIASES, setup_for
from bench.latency.report import Figures, capacity, report
from bench.latency.run import Run
from engine.session.ai_pool import default_workers


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Return the command-line options."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(ALIASES), default="incan_gold")
    parser.add_argument("--tables", type=int, nargs="+", default=[100, 300, 1000, 3000], help="table counts")
    parser.add_argument("--rate-limited", action="store_true",
                        help="Discord's rate limits on (the fake enforces them, the bot keeps within them)")
    parser.add_argument("--seconds", "--duration", dest="seconds", type=float, default=60.0,
                        help="seconds measured per size (after the warm-up)")
    parser.add_argument("--think", type=float, nargs=2, default=[5.0, 30.0], metavar=("MIN", "MAX"),
                        help="a person's decision time, uniform in [MIN, MAX] seconds")
    parser.add_argument("--nav-think", type=float, nargs=2, default=[0.5, 1.5], metavar=("MIN", "MAX"),
                        help="time to press on within one decision (a sub-menu, the Choose button)")
    parser.add_argument("--humans", type=int, default=None, help="people per table (default: the game's)")
    parser.add_argument("--ai", nargs="*", default=None, help="bot seats' levels (default: the game's)")
    parser.add_argument("--stagger", type=float, default=None,
                        help="tables start within the first S seconds (default: 20, or 1 s per 20 tables)")
    parser.add_argument("--drain", type=float, default=180.0,
                        help="with the limits on, wait at most this long after the warm-up for the tables' start "
                             "burst to be sent before measuring")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds of play before measuring (default: the stagger + 10)")
    parser.add_argument("--ai-delay", type=float, default=1.5, help="seconds before a bot seat acts")
    parser.add_argument("--ai-load", type=int, default=0, metavar="N",
                        help="N more tables, every seat a Hard bot, playing flat out beside the measured ones")
    parser.add_argument("--ai-load-delay", type=float, default=0.0,
                        help="bot delay of the --ai-load tables (0: the lowest /settings bot_delay allows)")
    parser.add_argument("--ai-workers", type=int, default=default_workers(),
                        help="AI worker processes (default: the bot's, AI_WORKERS unset: cores - 1)")
    parser.add_argument("--draw-workers", type=int, default=1,
                        help="picture-drawing processes (default: the bot's, DRAW_WORKERS unset: 1; 0: a thread)")
    parser.add_argument("--decision-timeout", type=float, default=120.0, help="seconds to decide (as deployed)")
    parser.add_argument("--reminder-before", type=float, default=30.0, help="private reminder this long before")
    parser.add_argument("--rest-per-second", type=float, default=50.0,
                        help="the bot's share of the token's global budget (REST_PER_SECOND)")
    parser.add_argument("--tick", type=float, default=0.02, help="session clock step, seconds")
    parser.add_argument("--memory", action="store_true", help="diagnosis only: an in-memory database")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="where the temporary database goes")
    return parser.parse_args(argv)


async def amain(argv: list[str] | None = None) -> int:
    """Run every size and print the figures; the last line is the machine-read summary."""
    args = parse_args(argv)
    setup = setup_for(args.game, args.humans, args.ai)
    if setup.humans < 1:
        raise SystemExit("at least one person per table")
    print(f"# bot latency: {platform.node()} ({os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}), {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC")
    print(f"{setup.name}; think {args.think[0]:g}-{args.think[1]:g} s, bot delay {args.ai_delay:g} s, "
          f"{args.seconds:g} s measured per size; {'rate-limited' if args.rate_limited else 'NOT rate-limited'}; "
          f"AI pool: {args.ai_workers} worker process(es); drawing processes: {args.draw_workers} (0: a thread)")
    if args.ai_load:
        print(f"AI load: {args.ai_load} more tables, every seat Hard, bot delay {args.ai_load_delay:g} s")
    figures: list[Figures] = []
    for tables in args.tables:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            run = Run(args, setup, tables, Path(tmp))
            meta = await run.main()
            figures.append(report(run, meta))
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    print(capacity(figures))
    for figure in figures:
        print(figure.line())
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(amain()))
