"""The chaos harness: the real bot in its own processes, killed with SIGKILL at random moments of play,
restarted on the same database, and checked against what it had acknowledged.

Discord (a :class:`FakeDiscord` behind a :class:`LoopbackServer`) and the players
(:mod:`tests.chaos.harness.players`) live in this process, so messages, DM prompts and their buttons
outlive the bot, as on Discord. The bot runs in children forked by :mod:`tests.chaos.harness.zygote` (the
real ``bot.run``: store, gateway, signal handlers, bot seats acting on the real clock).

One mechanism, two shapes:

- one process on SQLite (``processes=1``): killed, restarted at once, the database checked after
  every kill;
- several processes sharing one PostgreSQL (``database_url``), each with its shards of the one fake
  Discord: a guild's clicks reach the process of its shard, DM clicks the process of shard 0 (so a
  DM click for a table in another process's guild crosses processes). A process is killed and stays
  down ``down_s``, long enough for the survivors to take over its tables' timers (bot seats and
  decision deadlines keep firing), then comes back. Which process played which timer is read from
  the bots' logs (``engine.session.fired``) and lined up with the kills.

The verdict (:mod:`tests.chaos.harness.verdict`): nothing acknowledged lost, no move applied twice,
every log replays, finished tables' results are the replay's. The last life of every process ends
with SIGTERM, which must stop it.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord.fake import FakeDiscord
from fakediscord.loopback import LoopbackServer
from tests.chaos.harness.players import Players, accepted, open_channels
from tests.chaos.harness.verdict import Move, PgReader, Reader, Report, SqliteReader, check_database, check_store
from tests.chaos.harness.zygote import Spawn

__all__ = ["Move", "Report", "accepted", "chaos", "check_database", "write_evidence"]

ROOT = Path(__file__).resolve().parents[3]  # the repository: the zygote runs from there
FIRED = re.compile(r"^(\d+\.\d+) DEBUG engine\.session\.fired: table (\d+): the (\w+) timer played", re.M)
ERRORS = re.compile(r"^\d+\.\d+ (?:ERROR|CRITICAL) ", re.M)


class Zygote:
    """The warm parent of the bot processes (``python -m tests.chaos.harness.zygote``)."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen([sys.executable, "-m", "tests.chaos.harness.zygote"], cwd=ROOT, env=env,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("the zygote did not start")

    def spawn(self, spawn: Spawn) -> int:
        """Fork a bot process; return its pid."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(spawn.line() + "\n")
        self.process.stdin.flush()
        return int(self.process.stdout.readline())

    def close(self) -> None:
        """Stop the zygote (its children are gone by then)."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def _gone(pid: int, timeout: float) -> bool:
    """Wait until process ``pid`` has ended (the zygote reaps it); return False on timeout."""
    deadline = time.monotonic() + timeout
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


@dataclass
class Process:
    """One bot process of the run, across its lives: its shards, its log, its pid now."""

    number: int
    spawn: Spawn
    pid: int = 0
    downs: list[tuple[float, float]] = field(default_factory=list)  # (killed, back) in epoch seconds
    _read: int = 0  # how much of its log has been looked at
    last_timer: float = 0.0  # when it last logged a timer that played (epoch seconds)

    def timer_ran(self) -> float:
        """Return when this process last ran a timer that played, reading its log's new lines."""
        path = Path(self.spawn.log)
        if path.exists():
            with path.open("rb") as log:
                log.seek(self._read)
                new = log.read()
            end = new.rfind(b"\n") + 1  # a line being written is read next time
            self._read += end
            for when, _, _ in FIRED.findall(new[:end].decode(errors="replace")):
                self.last_timer = max(self.last_timer, float(when))
        return self.last_timer

    @property
    def shards(self) -> tuple[int, ...]:
        """Return the shards it runs (0 for an unsharded process)."""
        return self.spawn.shard_ids or (0,)


class Cluster:
    """The bot processes: started, killed, restarted, stopped."""

    def __init__(self, zygote: Zygote, server: LoopbackServer, processes: list[Process]) -> None:
        self.zygote, self.server, self.processes = zygote, server, processes

    def process_of(self, guild_id: int | None) -> int:
        """Return the process a guild's events reach (None: DMs, on shard 0)."""
        count = self.processes[0].spawn.shard_count or 1
        shard = LoopbackServer.shard_of(guild_id, count)
        return next(p.number for p in self.processes if shard in p.shards)

    async def start(self, process: Process) -> None:
        """Start a process and wait until every shard of it is connected."""
        process.pid = self.zygote.spawn(process.spawn)
        deadline = time.monotonic() + 60
        while not all(self.server.shard_up(shard) for shard in process.shards):
            if time.monotonic() > deadline or not _alive(process.pid):
                raise RuntimeError(f"bot process {process.number} did not connect (see {process.spawn.log})")
            await asyncio.sleep(0.01)

    async def kill(self, process: Process) -> None:
        """SIGKILL a process and wait until it and its gateway sockets are gone."""
        os.kill(process.pid, signal.SIGKILL)
        if not await _gone(process.pid, 30):
            raise RuntimeError(f"bot process {process.pid} survived SIGKILL")
        while any(self.server.shard_up(shard) for shard in process.shards):
            await asyncio.sleep(0.01)

    async def stop(self) -> int | None:
        """SIGTERM every process; return 0 when every one stopped in time."""
        for process in self.processes:
            if _alive(process.pid):
                os.kill(process.pid, signal.SIGTERM)
        stopped = [await _gone(process.pid, 15) for process in self.processes]
        return 0 if all(stopped) else None


def _spawns(port: int, database: str, folder: Path, processes: int, shard_count: int | None,
            decision_timeout_s: float) -> list[Spawn]:
    """One process on SQLite (unsharded, as before sharding); else ``processes`` with the shards of
    ``shard_count`` (default: one each) dealt out in turn."""
    if processes == 1:
        return [Spawn(port, database, str(folder / "bot.log"), decision_timeout_s=decision_timeout_s)]
    count = shard_count or processes
    return [Spawn(port, database, str(folder / f"bot-{n}.log"), tuple(range(n, count, processes)), count,
                  decision_timeout_s) for n in range(processes)]


def _read_logs(processes: list[Process], report: Report) -> None:
    """Count each process's timers, errors and tracebacks, and the timers survivors ran for a killed
    process's tables while it was down (its tables: those whose last timer before the kill was its)."""
    fired: list[tuple[float, int, int]] = []  # (when, process, table)
    report.errors = report.tracebacks = 0
    for process in processes:
        path = Path(process.spawn.log)
        text = path.read_text(errors="replace") if path.exists() else ""
        report.errors += len(ERRORS.findall(text))
        report.tracebacks += text.count("Traceback")
        found = [(float(when), process.number, int(table)) for when, table, _ in FIRED.findall(text)]
        report.timers[process.number] = len(found)
        fired += found
    fired.sort()
    for victim in processes:
        for killed, back in victim.downs:
            last: dict[int, int] = {}
            for when, number, table in fired:
                if when < killed:
                    last[table] = number
            taken = [table for when, number, table in fired
                     if killed < when < back and number != victim.number and last.get(table) == victim.number]
            report.by_survivors += len(taken)
            report.takeovers += len(set(taken))


async def write_evidence(reader: Reader, report: Report, notes: dict[str, str], path: Path) -> None:
    """Write the stored log of every table with a lost move beside the bots' logs (a throwaway
    PostgreSQL is gone after the run; the question is then what the log held)."""
    tables = sorted({move.table_id for move in report.lost})
    if not tables:
        return
    lines = [f"LOST {move}: {notes.get(repr(move), '')}" for move in report.lost]
    for table_id in tables:
        seats = await reader.rows("SELECT seat, user_id, ai_level FROM seats WHERE game_id = ? ORDER BY seat", table_id)
        events = await reader.rows("SELECT version, seat, kind FROM seat_events WHERE game_id = ? ORDER BY version",
                                   table_id)
        lines += [f"table {table_id}: seats {seats}", f"  seat events {events}"]
        lines += [f"  {row}" for row in await reader.rows(
            "SELECT seq, seat, payload, created_at FROM actions WHERE game_id = ? ORDER BY seq", table_id)]
    path.write_text("\n".join(lines) + "\n")


async def chaos(folder: Path, *, kills: int, tables: int = 4, seed: int = 1, life_s: tuple[float, float] = (0.3, 1.2),
                say: Any = None, database_url: str | None = None, processes: int = 1, shard_count: int | None = None,
                down_s: tuple[float, float] = (0.0, 0.0), decision_timeout_s: float = 3600.0) -> Report:
    """Kill a bot process ``kills`` times at random moments of play, restarting it each time (after
    ``down_s``); return the report. Several processes need ``database_url`` (PostgreSQL)."""
    if processes > 1 and database_url is None:
        raise ValueError("several bot processes share one PostgreSQL: give database_url")
    rng = random.Random(seed)
    database = database_url or str(folder / "chaos.sqlite3")
    report = Report(processes=processes)
    started = time.monotonic()
    fake = FakeDiscord(patch_http=False, real_time=False)
    count = shard_count or processes
    while {LoopbackServer.shard_of(g, count) for g in fake.guild_ids} != set(range(count)):
        fake.other_guild()  # a guild on every shard: each process has tables of its own
    channels = open_channels(fake, tables)
    zygote = Zygote()
    single = processes == 1
    try:
        async with LoopbackServer(fake) as server:
            cluster = Cluster(zygote, server, [Process(n, spawn) for n, spawn in enumerate(
                _spawns(server.port, database, folder, processes, shard_count, decision_timeout_s))])
            for process in cluster.processes:
                await cluster.start(process)
                report.lives += 1
            while not fake.commands.get(None):
                await asyncio.sleep(0.01)
            reader: Reader = SqliteReader(Path(database)) if database_url is None else await PgReader.open(database)
            # With several processes one table is Sakkara, in a guild away from shard 0: its prompts
            # come by DM, so its clicks reach another process than its guild's.
            away = [c for c in channels if cluster.process_of(c.guild_id) != cluster.process_of(None)]
            games = {away[0].id: "sakkara"} if not single and away else {}
            players = Players(fake, server, reader, channels, seed, cluster.process_of, games)
            players.up.set()
            late_from = 0  # acknowledged moves when the last quarter of the kills began
            stop = asyncio.Event()
            tasks = [asyncio.create_task(players.play(channel, stop)) for channel in players.channels]
            try:
                for number in range(kills + 1):
                    await asyncio.sleep(rng.uniform(*life_s))
                    if number == kills:
                        break
                    # Mid-game: a process that runs timers now (with few tables, the lowest lease
                    # buckets hold them all, so a random victim would often hold none).
                    recent = time.time() - 2 * life_s[1]
                    busy = [p for p in cluster.processes if p.timer_ran() > recent]
                    victim = rng.choice(busy or cluster.processes)
                    if single:
                        players.up.clear()  # nobody clicks into a dead bot (with shards: see Players._click)
                    await cluster.kill(victim)
                    killed = time.time()
                    report.kills += 1
                    await check_store(reader, list(players.acknowledged), report)
                    report.acknowledged = len(players.acknowledged)
                    report.player_errors = players.errors
                    if report.kills == kills - kills // 4:
                        late_from = report.acknowledged
                    if say is not None and (report.kills % 50 == 0 or report.lost or report.corrupt):
                        say(report.line())
                    if report.lost or report.corrupt:
                        break
                    await asyncio.sleep(max(0.0, killed + rng.uniform(*down_s) - time.time()))
                    await cluster.start(victim)
                    victim.downs.append((killed, time.time()))
                    report.lives += 1
                    players.up.set()
            finally:
                stop.set()
                failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True) if isinstance(r, Exception)]
            report.clean_exit = await cluster.stop()
            # Every process is stopped: every click sent is in the log or never will be.
            await check_store(reader, players.acknowledged, report, sent=None if single else players.sent)
            await write_evidence(reader, report, players.notes, folder / "evidence.txt")
            await reader.close()
            report.acknowledged = len(players.acknowledged)
            report.late = report.acknowledged - late_from
            report.player_errors = players.errors
            report.moves = list(players.acknowledged)
            report.crossed = players.crossed
    finally:
        zygote.close()
    _read_logs(cluster.processes, report)
    report.seconds = time.monotonic() - started
    if failed:  # a player that stopped leaves its table unplayed: the run proves less than it says
        raise RuntimeError(f"{len(failed)} player task(s) failed: {failed[0]!r}") from failed[0]
    return report
