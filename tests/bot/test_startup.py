"""Start-up errors end `python bot.py` with one line saying what to do and a non-zero code, never a
traceback (issue 15, item 4). The bot runs as a real process: a traceback aiosqlite's worker thread
prints after the event loop has closed shows only there."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from db import startup
from db.store import Store

ROOT = Path(__file__).resolve().parents[2]


def run_bot(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run bot.py in ``tmp_path`` (no .env there) with a token that is never used: the store opens first."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD_", "DECISION_"))}
    full.update({"DISCORD_TOKEN": "not-a-real-token", **env})
    return subprocess.run([sys.executable, str(ROOT / "bot.py")], cwd=tmp_path, env=full, capture_output=True,
                          text=True, timeout=60)


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "Exception" not in done.stderr
    return lines[0]


def test_a_folder_as_the_database(tmp_path):
    line = one_line(run_bot(tmp_path, DATABASE_PATH=str(tmp_path)))
    assert "is a folder" in line and "temple_table.sqlite3" in line


def test_a_path_under_a_file(tmp_path):
    (tmp_path / "afile").write_text("x")
    line = one_line(run_bot(tmp_path, DATABASE_PATH=str(tmp_path / "afile" / "db.sqlite3")))
    assert "afile is a file, not a folder" in line


def test_a_file_that_is_not_a_database(tmp_path):
    (tmp_path / "db.sqlite3").write_bytes(b"not a database " * 200)
    line = one_line(run_bot(tmp_path, DATABASE_PATH=str(tmp_path / "db.sqlite3")))
    assert "not a readable SQLite database" in line and "restore a backup" in line


def test_a_database_of_a_newer_release(tmp_path):
    path = tmp_path / "db.sqlite3"

    async def make() -> int:
        store = await Store.open(str(path))
        await store.close()
        return store.schema_version

    newer = asyncio.run(make()) + 1
    with sqlite3.connect(path) as connection:
        connection.execute(f"PRAGMA user_version = {newer}")
    line = one_line(run_bot(tmp_path, DATABASE_PATH=str(path)))
    assert "newer Temple Table" in line and f"schema {newer}" in line


def test_a_bad_setting(tmp_path):
    line = one_line(run_bot(tmp_path, DECISION_TIMEOUT_S="soon"))
    assert "DECISION_TIMEOUT_S" in line and ".env.example" in line


def test_a_file_the_bot_user_cannot_read(tmp_path, monkeypatch):
    """As root every file is readable, so the check is driven through os.access here."""
    path = tmp_path / "db.sqlite3"
    path.write_bytes(b"")
    monkeypatch.setattr(startup.os, "access", lambda p, mode: Path(p) != path)
    with pytest.raises(startup.CannotOpen, match=r"not readable and writable by this user.*chown"):
        startup.check_path(str(path))


def test_a_folder_the_bot_user_cannot_write(tmp_path, monkeypatch):
    monkeypatch.setattr(startup.os, "access", lambda p, mode: Path(p) != tmp_path)
    with pytest.raises(startup.CannotOpen, match=f"folder {tmp_path} is not writable"):
        startup.check_path(str(tmp_path / "db.sqlite3"))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_file_as_a_real_user(tmp_path):
    path = tmp_path / "db.sqlite3"
    path.write_bytes(b"")
    path.chmod(0)
    line = one_line(run_bot(tmp_path, DATABASE_PATH=str(path)))
    assert "not readable and writable" in line


# --------------------------------------------------------------------------- PostgreSQL (DATABASE_URL)


def free_port() -> int:
    """A port on 127.0.0.1 where nothing listens (bound, read and released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_database_server_that_is_not_there(tmp_path):
    port = free_port()
    line = one_line(run_bot(tmp_path, DATABASE_URL=f"postgresql://temple:s3cret@127.0.0.1:{port}/temple"))
    assert "cannot be reached" in line and "server is running" in line and str(port) in line
    assert "s3cret" not in line


def test_a_database_that_does_not_exist(tmp_path, pg_server):
    url = pg_server.url.rsplit("/", 1)[0] + "/no_such_database"
    line = one_line(run_bot(tmp_path, DATABASE_URL=url.replace("postgres@", "postgres:s3cret@")))
    assert "refused" in line and 'database "no_such_database" does not exist' in line
    assert "DATABASE_URL" in line and "cannot be reached" not in line and "s3cret" not in line


def test_a_user_the_database_server_does_not_know(tmp_path, pg_server):
    url = pg_server.url.replace("postgres@", "stranger:s3cret@")
    line = one_line(run_bot(tmp_path, DATABASE_URL=url))
    assert "refused" in line and 'role "stranger" does not exist' in line
    assert "DATABASE_URL" in line and "s3cret" not in line


@pytest.mark.parametrize("url", ["postgresql://temple:s3cret@127.0.0.1:notaport/temple",
                                 "postgresql://temple:s3cret@[127.0.0.1/temple",
                                 "mysql://temple:s3cret@127.0.0.1/temple"])
def test_a_malformed_database_url(tmp_path, url):
    line = one_line(run_bot(tmp_path, DATABASE_URL=url))
    assert line.startswith("Configuration error: DATABASE_URL") and "s3cret" not in line


def test_a_url_in_a_message_hides_its_password():
    assert startup.shown("postgresql://temple:s3cret@db:5432/temple") == "postgresql://temple:***@db:5432/temple"
    assert startup.shown("postgresql://temple@db/temple") == "postgresql://temple@db/temple"
    assert startup.shown("data/temple_table.sqlite3") == "data/temple_table.sqlite3"
