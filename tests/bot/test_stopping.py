"""SIGTERM (docker stop) and SIGINT (Ctrl+C) stop the bot cleanly (issue 15, item 5): it turns new
clicks away, lets the write in flight finish and its click be answered, closes the gateway and the
store, and exits 0 within a few seconds. The bot runs as a real process (tests/bot/stopping_bot.py)
on a loopback Discord; the test sends the signal the way Docker does."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_finishes_the_write_in_flight_and_exits_0(tmp_path, sig):
    db = tmp_path / "bot.sqlite3"
    env = {**os.environ, "LOG_LEVEL": "INFO"}
    process = subprocess.Popen([sys.executable, str(HERE / "stopping_bot.py"), str(db)], cwd=tmp_path, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        for line in process.stdout:
            if line.strip() == "WRITING":
                break
        else:
            pytest.fail(f"the bot never started its write: {process.stderr.read() if process.stderr else ''}")
        signalled = time.monotonic()
        process.send_signal(sig)
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    took = time.monotonic() - signalled
    report = json.loads(out.strip().splitlines()[-1])
    assert process.returncode == 0 and report["code"] == 0, err
    assert took < 6, f"{took:.1f}s from the signal to the exit"
    assert "Traceback" not in err
    assert report["in_flight_acknowledged"]  # the click being written got its answer
    turned_away = "The bot is restarting; nothing was changed"
    assert any(turned_away in text for text in report["late_answer"])  # a click after the signal
    assert report["sockets_open"] == 0  # the gateway was closed
    assert not Path(f"{db}-wal").exists()  # SQLite removes its journal when the last connection closes
    with sqlite3.connect(db) as connection:  # the write in flight (Ann's only move) is in the database
        ann = connection.execute("SELECT a.payload FROM actions a JOIN seats s ON s.game_id = a.game_id "
                                 "AND s.seat = a.seat WHERE s.user_id IS NOT NULL").fetchall()
    assert ann == [('"torch"',)]

