"""``python -m db.copy``: a server's whole history moved from SQLite to PostgreSQL, verified.

Every test here needs PostgreSQL (the ``pg_server`` fixture: skipped without it, failed in CI)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from history_kit import PLAYERS, T0, write_game

import cogs.leaderboard.cog as lb
from db import NewSeat, Store
from db.copy import CopyFailed, copy, verify
from db.errors import TransferError
from db.leaderboard import Leaderboards, SeasonRow
from db.transfer import SEEDED, SKIPPED, count_rows, moved_tables, table_rows, table_shapes, transfer

ROOT = Path(__file__).resolve().parents[2]
GUILD = 1
SNOWFLAKE = 1_234_567_890_123_456_789


async def _history(store: Store) -> dict[str, int]:
    """Finished and unfinished games of all three kinds, a lobby, a cancelled table, and every side
    table the bot writes: settings, locales, messages, timers, snapshots, seat events, ratings."""
    ids: dict[str, int] = {}
    channel = 100
    for n, game in enumerate(sorted(PLAYERS)):
        for k in range(2):
            channel += 1
            ids[f"{game}{k}"] = await write_game(store, game, seed=10 * n + k, channel=channel,
                                                 people=[7, 8, 9][: k + 2], at=T0 + timedelta(days=n, hours=k))
        channel += 1
        ids[f"{game}-playing"] = await write_game(store, game, seed=99 + n, channel=channel, people=[7], cut=9)
    playing = ids["incan_gold-playing"]
    lobby = await store.create_game("indus", guild_id=GUILD, channel_id=200, host_id=7, seats=[NewSeat.human(7, "u7")])
    cancelled = await store.create_game("sakkara", guild_id=GUILD, channel_id=201, host_id=8)
    await store.cancel_game(cancelled.id)
    ids |= {"lobby": lobby.id, "cancelled": cancelled.id}
    await store.set_guild_setting(GUILD, "language", "fi")
    await store.set_guild_setting(GUILD, "decision_timeout_s", 90)
    await store.set_player_locale(GUILD, 7, "sv-SE")
    await store.set_player_locale(SNOWFLAKE, SNOWFLAKE + 1, "it")  # Discord ids need all 64 bits
    await store.set_synced_commands("global", "a" * 64)
    await store.set_dms_closed(9, 1_767_000_000.5)
    await store.set_notify_choice(SNOWFLAKE, "mention")
    await store.set_watches_new_tables(SNOWFLAKE, SNOWFLAKE + 2, True)  # per server (migration 0013)
    await store.set_message(playing, "round", 100, 5555, open=True)
    await store.set_message(playing, "dm", 7000, 6666, seat=0)
    await store.set_deadline(playing, "decision", T0 + timedelta(minutes=2), version=9)
    await store.save_snapshot(playing, 8, 8, '{"cached": true}')
    await store.add_seat_event(playing, 9, 0, "timeout")
    await store.set_story(playing, 4242, 5, 1)
    await lb.RatingBook(Leaderboards(store)).refresh(GUILD, "incan_gold")
    await Leaderboards(store).close_season(  # a frozen season (migration 0014)
        GUILD, "2026-Q4", 1_767_225_600_000, [SeasonRow("incan_gold", (7, ""), 1, 27.5, 6.25, 3, 2)])
    return ids


@pytest.fixture
async def source(tmp_path: Path) -> AsyncIterator[tuple[str, Store, dict[str, int]]]:
    path = tmp_path / "history.sqlite3"
    store = await Store.open(path)
    ids = await _history(store)
    await store.close()
    store = await Store.open(path)
    yield f"sqlite:///{path}", store, ids
    await store.close()


@pytest.fixture
def target_url(pg_server) -> str:
    return pg_server.new_database("copy")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "db.copy", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=240)


async def test_every_table_arrives_row_for_row_and_every_game_replays_alike(source, target_url):
    url, store, ids = source
    report = await copy(url, target_url)
    target = await Store.connect(target_url)
    try:
        for shape in await table_shapes(target):
            mine = [row async for rows in table_rows(store, shape) for row in rows]
            theirs = [row async for rows in table_rows(target, shape) for row in rows]
            assert (shape.table, sorted(theirs, key=repr)) == (shape.table, sorted(mine, key=repr))
        counts = await count_rows(store)
        assert counts["games"] == len(ids) and counts["ratings"] > 0 and counts["seat_events"] == 1
        assert not [table for table in moved_tables() if counts[table] == 0]  # the history fills every table
        assert report.copied == {table: counts[table] for table in moved_tables()}
        assert report.verification.games == len(ids)
        assert (report.verification.differing_games, report.verification.differing_tables) == ((), [])
        assert report.verification.unreplayable == ()
        assert set(report.verification.counts) == {*SEEDED, *moved_tables()}
    finally:
        await target.close()


async def test_the_leaderboards_answer_alike_and_a_new_game_gets_a_fresh_id(source, target_url):
    url, store, ids = source
    await copy(url, target_url)
    target = await Store.connect(target_url)
    try:
        before, after = Leaderboards(store), Leaderboards(target)
        for game in (None, *sorted(PLAYERS)):
            for by in ("wins", "win_rate", "games"):
                assert await after.standings(GUILD, game, by) == await before.standings(GUILD, game, by)
        assert await after.rating_standings(GUILD, "incan_gold") == await before.rating_standings(GUILD, "incan_gold")
        assert await after.history(GUILD, 7, limit=50) == await before.history(GUILD, 7, limit=50)
        assert await after.totals(GUILD, (7, "")) == await before.totals(GUILD, (7, ""))
        assert await target.guild_settings(GUILD) == {"language": "fi", "decision_timeout_s": 90}
        assert await target.player_locales(GUILD, [7]) == {7: "sv-SE"}
        fresh = await target.create_game("indus", guild_id=GUILD, channel_id=999, host_id=7)
        assert fresh.id == max(ids.values()) + 1
        event = await target.add_seat_event(ids["sakkara-playing"], 9, 1, "timeout")
        assert event
    finally:
        await target.close()


async def test_the_command_copies_then_refuses_a_target_that_holds_games_unless_forced(source, target_url):
    url, _, ids = source
    done = _cli(url, target_url)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith(f"copied {len(ids)} games, ") and done.stdout.count("\n") == 1
    again = _cli(url, target_url)
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.count("\n") == 1 and f"already holds {len(ids)} games" in again.stderr
    forced = _cli(url, target_url, "--force")
    assert forced.returncode == 0 and forced.stdout.startswith(f"copied {len(ids)} games, ")


@pytest.mark.parametrize(("source_url", "target_url", "says"), [
    ("/tmp/history.sqlite3", "postgresql://x@127.0.0.1:1/db", "must be an sqlite:/// URL"),
    ("sqlite:////nowhere/history.sqlite3", "postgresql://x@127.0.0.1:1/db", "no SQLite database at /nowhere"),
    ("sqlite:////nowhere/history.sqlite3", "mysql://x@h/db", "must be a postgresql:// URL"),
])
def test_a_bad_url_exits_non_zero_with_one_line(source_url: str, target_url: str, says: str):
    done = _cli(source_url, target_url)
    assert (done.returncode, done.stdout, done.stderr.count("\n")) == (1, "", 1)
    assert says in done.stderr and "Traceback" not in done.stderr


async def test_a_target_database_that_does_not_exist_is_one_line_and_leaves_the_source_alone(source, pg_server):
    url, store, _ = source
    with pytest.raises(CopyFailed, match=r"^target: the database server was reached, but .*does not exist"):
        await copy(url, f"postgresql://postgres@127.0.0.1:{pg_server.port}/no_such_database")
    assert (await count_rows(store))["games"] > 0


async def test_an_unreachable_target_is_one_line_and_leaves_the_source_alone(source):
    url, store, _ = source
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(CopyFailed, match=r"^target: the database server cannot be reached"):
        await copy(url, f"postgresql://postgres@127.0.0.1:{port}/temple")
    assert (await count_rows(store))["games"] > 0


async def test_an_action_tampered_with_after_the_copy_fails_the_verification(source, target_url):
    url, store, ids = source
    await copy(url, target_url)
    target = await Store.connect(target_url)
    try:
        victim = ids["incan_gold1"]
        first = next(a for a in (await target.actions(victim)) if a.seat >= 0)
        flipped = '"camp"' if first.payload == "torch" else '"torch"'
        # Behind the schema's back, as a hand edit or a broken disk would.
        async with target.backend.write() as db:
            await db.execute("ALTER TABLE actions DISABLE TRIGGER USER")
            await db.execute("UPDATE actions SET payload = ? WHERE game_id = ? AND seq = ?",
                             (flipped, victim, first.seq))
            await db.execute("ALTER TABLE actions ENABLE TRIGGER USER")
        found = await verify(store, target)
        assert found.differing_games == (victim,) and found.differing_tables == []
        with pytest.raises(CopyFailed, match=f"1 games replay differently on the target \\(ids {victim}\\)"):
            found.check()
    finally:
        await target.close()


async def test_the_moved_tables_are_every_table_of_either_dialect_but_the_bookkeeping():
    async with await Store.open(":memory:") as store, store.backend.read() as db:
        found = {str(r[0]) for r in await db.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")}
    # Who runs which timers is not history: timer_leases is PostgreSQL's alone; timer_processes
    # exists on both (one schema version) but only several processes on PostgreSQL write it.
    assert set(SKIPPED) == {"timer_leases", "timer_processes"}
    assert found == {*moved_tables(), *SEEDED, "timer_processes"}
    assert moved_tables().index("games") < moved_tables().index("seats") < moved_tables().index("results")


async def test_the_copy_writes_into_postgresql_only():
    async with await Store.open(":memory:") as one, await Store.open(":memory:") as other:
        with pytest.raises(TransferError, match="PostgreSQL only"):
            await transfer(one, other)


async def test_a_game_that_does_not_replay_in_the_source_is_copied_as_it_is_and_named(tmp_path: Path, target_url):
    path = tmp_path / "odd.sqlite3"
    async with await Store.open(path) as store:
        fine = await write_game(store, "incan_gold", seed=3, channel=1, people=[7])
        odd = await store.create_game("incan_gold", guild_id=GUILD, channel_id=2, host_id=7)
        await store.start_game(odd.id, [NewSeat.human(7, "u7"), NewSeat.ai("easy", "bot")], seed=5)
        await store.append_actions(odd.id, 0, [(0, "fly")])  # the store keeps any JSON; the rules never would
    report = await copy(f"sqlite:///{path}", target_url)
    assert (report.verification.unreplayable, report.verification.differing_games) == ((odd.id,), ())
    assert fine != odd.id and "1 games do not replay in the source either" in report.line()
