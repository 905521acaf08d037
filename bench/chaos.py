"""kill -9 the real bot at random moments of play, restart it, and check nothing acknowledged was lost.

The full form of the chaos tier's kill test (tests/chaos/test_kill.py runs 50 kills in CI): the
bot runs in its own process against a loopback Discord whose messages outlive it; players keep
Incan Gold tables going through the buttons they are shown. After every kill the database is
checked (see tests/chaos/harness/kills.py): every acknowledged move in its table's log, every log replaying
legally, finished tables' results equal to the replay's, nothing abandoned. Prints the figures.

With ``--postgresql --processes 3`` the bot runs as three processes, each with its shard of the one
fake Discord, sharing a throwaway PostgreSQL (tests/pg_kit.py): one process at a time is killed and
stays down ``--down`` seconds (longer than a timer lease lives, so the survivors take its tables'
timers over), then comes back; at the end no move may be lost or applied twice, and the line says
how many timers each process ran and how many the survivors ran for the killed one's tables.

Run: ``nice -n 10 .venv/bin/python bench/chaos.py [--kills 1000] [--tables 4] [--life 0.3 3]``, or
``nice -n 10 .venv/bin/python bench/chaos.py --postgresql --processes 3 --kills 100 --tables 6 --life 2 6``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from tests.chaos.harness.kills import chaos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--life", type=float, nargs=2, default=(0.3, 3.0), help="seconds a bot lives before the kill")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgresql", action="store_true", help="on a throwaway PostgreSQL (needs its binaries)")
    parser.add_argument("--processes", type=int, default=1, help="bot processes (more than one: --postgresql)")
    parser.add_argument("--down", type=float, nargs=2, default=(13.0, 13.0),
                        help="seconds a killed process stays down (several processes)")
    parser.add_argument("--decision", type=float, default=5.0, help="decision deadline (several processes)")
    args = parser.parse_args()
    if args.processes > 1 and not args.postgresql:
        parser.error("several processes share one PostgreSQL: add --postgresql")
    folder = Path(tempfile.mkdtemp(prefix="chaos-"))
    with contextlib.ExitStack() as stack:
        url = None
        if args.postgresql:
            from tests.pg_kit import throwaway_postgres

            url = stack.enter_context(throwaway_postgres()).new_database("chaos")
        several = args.processes > 1
        report = asyncio.run(chaos(folder, kills=args.kills, tables=args.tables, seed=args.seed,
                                   life_s=tuple(args.life), say=lambda line: print(line, flush=True),
                                   database_url=url, processes=args.processes,
                                   down_s=tuple(args.down) if several else (0.0, 0.0),
                                   decision_timeout_s=args.decision if several else 3600.0))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    print(report.line())
    for move in report.lost[:10]:
        print("LOST", move)
    for line in report.duplicated[:10]:
        print("DUPLICATED", line)
    for line in report.corrupt[:10]:
        print("CORRUPT", line)
    clean = report.clean_exit == 0 and report.errors == 0
    if not report.lost and not report.duplicated and not report.corrupt and clean:
        shutil.rmtree(folder)
        return 0
    print(f"the bots' logs (and evidence.txt, the logs of tables with a lost move) are kept in {folder}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
