"""kill -9 at random moments of bot play, with restart and replay comparison (issue 15, item 8).

The real bot runs in its own process (tests/chaos/harness/kills.py, tests/chaos/harness/zygote.py) against a
loopback Discord whose messages outlive it; players keep Incan Gold tables going through the
buttons they are shown. The small form runs here (50 kills, about a minute); `bench/chaos.py` runs
the full 1,000. After every kill: every move the bot acknowledged is in its log in its decision
window, every log replays legally, every finished table's results are the replay's, no table was
abandoned as unreadable; the last life ends with SIGTERM and exits 0.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

from tests.chaos.harness.kills import Report, chaos, check_database

KILLS = 50


def broken_copy(tmp_path: Path, name: str, *statements: tuple[str, tuple[object, ...]]) -> Path:
    copy = tmp_path / name
    shutil.copy(tmp_path / "chaos.sqlite3", copy)
    with sqlite3.connect(copy) as connection:
        for (trigger,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            connection.execute(f"DROP TRIGGER {trigger}")  # they guard the log against exactly this
        for sql, args in statements:
            connection.execute(sql, args)
    return copy


def test_kill_9_at_random_loses_nothing_acknowledged_and_corrupts_nothing(tmp_path):
    report = asyncio.run(chaos(tmp_path, kills=KILLS, tables=3, seed=15, life_s=(0.4, 1.6)))
    print(report.line())
    assert report.kills == KILLS and report.lives == KILLS + 1
    assert report.lost == [] and report.corrupt == []
    assert report.acknowledged >= KILLS  # play went on between the kills
    assert report.finished >= 1  # and tables reached their end across restarts
    assert report.late > 0  # and had not stalled by the last quarter of the kills
    assert report.clean_exit == 0 and report.tracebacks == 0

    # The checks can fail: a lost acknowledged move and a result that is not the replay's are found.
    move = report.moves[0]
    lost = broken_copy(tmp_path, "lost.sqlite3", (
        "DELETE FROM actions WHERE game_id = ? AND seat = (SELECT seat FROM seats WHERE game_id = ? AND user_id = ?)",
        (move.table_id, move.table_id, move.user_id)))
    found = Report()
    check_database(lost, report.moves, found)
    assert move in found.lost
    wrong = broken_copy(tmp_path, "wrong.sqlite3", (
        "UPDATE results SET score = score + 1 WHERE game_id = (SELECT MIN(game_id) FROM results)", ()))
    found = Report()
    check_database(wrong, report.moves, found)
    assert any("are not the replay's" in line for line in found.corrupt)
