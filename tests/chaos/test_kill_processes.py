"""Three bot processes share one PostgreSQL; one at a time is killed with SIGKILL mid-game.

Each process runs one shard of one fake Discord (SHARD_COUNT=3): a guild's clicks reach its shard's
process, DM clicks the process of shard 0 (one table is Sakkara, whose prompts come by DM, in a
guild of another shard), and any process may hold a table's timers (leases per bucket of tables).
A killed process stays down longer than a lease lives, so the survivors must take over its tables'
timers (bot seats act, decision deadlines of players who cannot reach their shard expire), then it
comes back. At the end every acknowledged move is in the store once, no move was applied twice,
every log replays, no process logged an error. The small form runs here (3 kills, about a minute);
``bench/chaos.py --postgresql --processes 3`` runs the full one. PostgreSQL only: without it the
test is skipped, except in CI.
"""

from __future__ import annotations

import asyncio

from pg_kit import PgServer

from tests.chaos.harness.kills import Move, Report, chaos, write_evidence
from tests.chaos.harness.verdict import PgReader, check_store

KILLS = 3
DOWN_S = (13.0, 13.0)
"""Longer than a lease lives (engine.session.leases.TTL_S, 10 s): the survivors take over in it."""


def test_three_processes_on_postgresql_survive_kills_and_take_over_timers(pg_server: PgServer, tmp_path):
    url = pg_server.new_database("chaos")
    report = asyncio.run(chaos(tmp_path, kills=KILLS, tables=3, seed=7, life_s=(3.0, 4.0), database_url=url,
                               processes=3, down_s=DOWN_S, decision_timeout_s=5.0))
    print(report.line())
    assert report.kills == KILLS and report.lives == 3 + KILLS
    assert report.lost == [] and report.duplicated == [] and report.corrupt == []
    assert report.acknowledged >= 20 and report.finished >= 1
    assert report.crossed >= 1  # DM clicks were handled by another process than the table's guild's
    assert all(report.timers[n] >= 1 for n in range(3))  # every process ran timers
    assert report.takeovers >= 1 and report.by_survivors >= 1  # and ran a killed process's tables' timers
    assert report.clean_exit == 0 and report.errors == 0
    assert report.tracebacks == 0  # not even under a WARNING: two processes ending one game is no fault

    # The checks can fail: a move nobody acknowledged is reported lost, a move nobody clicked applied.
    [move, *_] = report.moves
    missing = Move(move.table_id, move.user_id, move.window + 10_000, move.action)
    found = Report()

    async def recheck() -> None:
        reader = await PgReader.open(url)
        try:
            await check_store(reader, [missing], found, sent=[])
            await write_evidence(reader, found, {repr(missing): "answered 7"}, tmp_path / "evidence.txt")
        finally:
            await reader.close()

    asyncio.run(recheck())
    assert found.lost == [missing]
    assert found.duplicated and all("unasked" in line for line in found.duplicated)
    evidence = (tmp_path / "evidence.txt").read_text()  # what a failing run keeps: the table's log
    assert f"LOST {missing}: answered 7" in evidence and f"table {move.table_id}: seats" in evidence
