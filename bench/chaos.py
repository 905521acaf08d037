"""kill -9 the real bot at random moments of play, restart it, and check nothing acknowledged was lost.

The full form of the chaos tier's kill test (tests/chaos/test_kill.py runs 50 kills in CI): the
bot runs in its own process against a loopback Discord whose messages outlive it; players keep
Incan Gold tables going through the buttons they are shown. After every kill the database is
checked (see fakediscord/chaos.py): every acknowledged move in its table's log, every log replaying
legally, finished tables' results equal to the replay's, nothing abandoned. Prints the figures.

Run: ``nice -n 10 .venv/bin/python bench/chaos.py [--kills 1000] [--tables 4] [--life 0.3 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from fakediscord.chaos import chaos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--life", type=float, nargs=2, default=(0.3, 3.0), help="seconds a bot lives before the kill")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        report = asyncio.run(chaos(Path(folder), kills=args.kills, tables=args.tables, seed=args.seed,
                                   life_s=tuple(args.life), say=lambda line: print(line, flush=True)))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    print(report.line())
    for move in report.lost[:10]:
        print("LOST", move)
    for line in report.corrupt[:10]:
        print("CORRUPT", line)
    return 0 if not report.lost and not report.corrupt and report.clean_exit == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
