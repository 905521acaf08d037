"""``python -m db.copy SOURCE TARGET [--force]``: move a server's whole history to PostgreSQL, verified.

SOURCE is the bot's SQLite file as a URL (``sqlite:///data/temple_table.sqlite3``, four slashes for
an absolute path); TARGET is ``postgresql://user:pass@host/db``, migrated here to this release's
schema. Every table is copied in one transaction (:mod:`db.transfer`), then checked twice: each
table's row count on both sides, and every game's whole action log replayed through the rules on
both sides (:mod:`engine.session.audit`) with equal results. Prints one summary line and exits 0,
or prints one line saying what is wrong and exits 1: a malformed URL, a database that cannot be
opened, a target that already holds games (``--force`` replaces them), or a difference. A copy
that fails leaves the target unchanged; a difference found after it leaves the copied rows there
to look at (run again with ``--force`` to replace them).

Stop the bot first: the source must not change while it is read. The source is opened (and, if
it was written by an older release, migrated) as the bot would open it; nothing else in it changes.

This is a command, not a library: it is the one module of ``db`` that imports the engine (the
replay check needs the rules), and no part of the bot imports it.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from db.errors import CorruptRow, StoreError
from db.records import GameLog
from db.startup import CannotOpen, open_store
from db.store import Store
from db.transfer import count_rows, game_ids, transfer
from db.urls import is_postgresql, sqlite_path
from engine.session.audit import Audit, audit_all
from engine.session.contract import SeatSpec, StoredTable

__all__ = ["CopyFailed", "Report", "Verification", "copy", "main", "verify"]

AUDIT_BATCH = 50  # games loaded at once per side and replayed by one worker task


class CopyFailed(Exception):
    """Raised when the copy cannot start or its result differs from the source; one line for the operator."""


@dataclass(frozen=True, slots=True)
class Verification:
    """Both sides compared: row counts per table and every game's replay audit."""

    counts: dict[str, tuple[int, int]]  # table -> (source rows, target rows)
    games: int
    differing_games: tuple[int, ...]
    unreplayable: tuple[int, ...] = ()  # identical on both sides, but not replayable as recorded (nor in the source)

    @property
    def differing_tables(self) -> list[str]:
        """Return the tables whose row counts differ."""
        return [table for table, (source, target) in self.counts.items() if source != target]

    def check(self) -> None:
        """Raise CopyFailed naming what differs, if anything does."""
        problems = [f"row counts differ in {table} ({self.counts[table][0]} in the source, {self.counts[table][1]} "
                    "in the target)" for table in self.differing_tables]
        if self.differing_games:
            shown = ", ".join(str(g) for g in self.differing_games[:10])
            more = "" if len(self.differing_games) <= 10 else f" and {len(self.differing_games) - 10} more"
            problems.append(f"{len(self.differing_games)} games replay differently on the target (ids {shown}{more})")
        if problems:
            raise CopyFailed("verification failed: " + "; ".join(problems))


@dataclass(frozen=True, slots=True)
class Report:
    """What a copy did and how long it took."""

    copied: dict[str, int]
    verification: Verification
    copy_s: float
    verify_s: float

    def line(self) -> str:
        """Return the one-line summary the command prints."""
        other = sum(n for table, n in self.copied.items() if table not in ("games", "actions"))
        broken = self.verification.unreplayable
        note = f"; {len(broken)} games do not replay in the source either (copied as they are)" if broken else ""
        return (f"copied {self.copied.get('games', 0)} games, {self.copied.get('actions', 0)} actions and {other} "
                f"other rows in {self.copy_s:.1f} s; verified {len(self.verification.counts)} tables' row counts "
                f"and {self.verification.games} games' replays in {self.verify_s:.1f} s{note}")


def _stored(log: GameLog) -> StoredTable:
    """Return a game's whole log as the session's record (no snapshot: the audit replays it all)."""
    game = log.game
    seats = tuple(SeatSpec(seat.display_name, seat.user_id, seat.ai_level) for seat in log.seats)
    return StoredTable(game.id, game.game, game.options, game.table_options, game.seed, game.guild_id,
                       game.channel_id, game.host_id, game.status, seats, tuple(log.moves()))


async def _load(store: Store, game_id: int) -> StoredTable | str:
    """Return one game's whole record, or why its rows cannot even be read."""
    try:
        return _stored(await store.load_game(game_id))
    except CorruptRow as exc:
        return f"corrupt row: {exc}"


def _pool(workers: int) -> ProcessPoolExecutor:
    # forkserver/spawn, never fork: the parent runs an event loop and database threads.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    return ProcessPoolExecutor(workers, mp_context=context)


async def verify(source: Store, target: Store, *, workers: int | None = None) -> Verification:
    """Return both stores compared: every table's row count, every game's whole record (game row,
    seats, log) and every game's replay through the rules.

    A game whose record differs between the sides is a difference whatever its replay gives. An
    identical record is replayed once, in one of ``workers`` processes (default: one per core):
    the audit is a pure function of the record, so the source's replay would be the same one.
    """
    before, after = await asyncio.gather(count_rows(source), count_rows(target))
    counts = {table: (before[table], after[table]) for table in before}
    ids = sorted(set(await game_ids(source)) | set(await game_ids(target)))
    differing: list[int] = []
    broken: list[int] = []
    loop = asyncio.get_running_loop()
    in_flight: list[asyncio.Future[list[Audit]]] = []

    def settle(audits: list[Audit]) -> None:
        broken.extend(found.table_id for found in audits if not found.as_recorded)

    processes = workers or os.cpu_count() or 1
    with _pool(processes) as pool:
        for start in range(0, len(ids), AUDIT_BATCH):
            chunk = ids[start : start + AUDIT_BATCH]
            mine, theirs = await asyncio.gather(asyncio.gather(*(_load(source, g) for g in chunk)),
                                                asyncio.gather(*(_load(target, g) for g in chunk)))
            same: list[StoredTable] = []
            for game_id, one, other in zip(chunk, mine, theirs, strict=True):
                if one != other:
                    differing.append(game_id)
                elif isinstance(other, str):
                    broken.append(game_id)  # unreadable on both sides alike
                else:
                    same.append(other)
            in_flight.append(loop.run_in_executor(pool, audit_all, same))
            if len(in_flight) > 2 * processes:
                settle(await in_flight.pop(0))  # bounded: the records waiting for a worker stay few
        for pending in in_flight:
            settle(await pending)
    return Verification(counts, len(ids), tuple(differing), tuple(sorted(broken)))


async def copy(source_url: str, target_url: str, *, force: bool = False) -> Report:
    """Copy ``source_url``'s history into ``target_url`` and verify it; raise CopyFailed otherwise."""
    if not source_url.startswith("sqlite://"):
        raise CopyFailed(f"the source must be an sqlite:/// URL (the bot's DATABASE_PATH), got {source_url!r}")
    if not is_postgresql(target_url):
        raise CopyFailed(f"the target must be a postgresql:// URL, got {target_url.split('://')[0]!r}")
    path = Path(sqlite_path(source_url))
    if not path.is_file():
        # Opening a missing file would create an empty database and "copy" nothing.
        raise CopyFailed(f"no SQLite database at {path}: check the source URL (sqlite:////absolute/path)")
    try:
        source = await open_store(source_url)
    except CannotOpen as exc:
        raise CopyFailed(f"source: {exc}") from None
    try:
        try:
            target = await open_store(target_url)
        except CannotOpen as exc:
            raise CopyFailed(f"target: {exc}") from None
        try:
            started = time.perf_counter()
            copied = await transfer(source, target, force=force)
            copied_at = time.perf_counter()
            verification = await verify(source, target)
            verification.check()
            return Report(copied, verification, copied_at - started, time.perf_counter() - copied_at)
        except StoreError as exc:
            raise CopyFailed(str(exc)) from None
        finally:
            await target.close()
    finally:
        await source.close()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; return its exit status (0: copied and verified)."""
    parser = argparse.ArgumentParser(prog="python -m db.copy",
                                     description="Move a server's whole history from SQLite to PostgreSQL, verified.")
    parser.add_argument("source", help="the SQLite database, e.g. sqlite:///data/temple_table.sqlite3")
    parser.add_argument("target", help="the PostgreSQL database, e.g. postgresql://bot:secret@db/temple")
    parser.add_argument("--force", action="store_true", help="replace whatever the target already holds")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(copy(args.source, args.target, force=args.force))
    except CopyFailed as exc:
        print(f"db.copy: {exc}", file=sys.stderr)
        return 1
    print(report.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
