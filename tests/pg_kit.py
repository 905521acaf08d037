"""A throwaway PostgreSQL server for the tests and benchmarks: no root, no network, no setup.

The server binaries are found on PATH (``pg_ctl``) or under ``/usr/lib/postgresql/*/bin`` (Debian's
``postgresql`` package); ``.ci/run`` installs that package on a fresh machine. PostgreSQL refuses to
run as root, so when the tests run as root the cluster is created and served by the unprivileged
``nobody`` user (its folder handed to it). The server listens on 127.0.0.1 on a free port and on a
Unix socket in its own folder, with ``fsync`` on (the guarantees under test are durable commits),
and is stopped and deleted at the end.

``CI=true`` turns "no PostgreSQL here" into a failure instead of a skip.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PgServer", "find_binaries", "throwaway_postgres"]


def find_binaries() -> Path | None:
    """Return the folder of ``initdb``/``pg_ctl``/``postgres``, or None when PostgreSQL is not installed."""
    found = shutil.which("pg_ctl")
    candidates = [Path(found).resolve().parent] if found else []
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for folder in candidates:
        if all((folder / name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgServer:
    """A running throwaway server: its URL, and how to make a fresh database on it."""

    def __init__(self, folder: Path, port: int, binaries: Path, run_as: str | None, options: str = "") -> None:
        self.folder = folder
        self.port = port
        self.binaries = binaries
        self.run_as = run_as
        self.options = options
        self._counter = 0
        self._template: str | None = None  # a database at the store's latest schema, copied by migrated_database

    @property
    def url(self) -> str:
        """Return the URL of the ``postgres`` database."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def new_database(self, prefix: str = "t", *, template: str | None = None) -> str:
        """Create an empty database (or a copy of the database ``template``) and return its URL."""
        self._counter += 1
        name = f"{prefix}_{os.getpid()}_{self._counter}"
        self._psql(f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""))
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    async def migrated_database(self) -> str:
        """Create a database at the store's latest schema and return its URL: a copy of one database
        migrated once per server, so that each of the many tests that want a ready store does not run
        every migration again (about a third of a store test's setup). A test of the migrations
        themselves takes :meth:`new_database`."""
        if self._template is None:
            from db import Store  # imported here: the benchmarks use this kit without the store

            url = self.new_database("template")
            store = await Store.connect(url)
            await store.close()  # a template may not be copied while anyone is connected to it
            self._template = url.rsplit("/", 1)[1]
        return self.new_database(template=self._template)

    def _psql(self, sql: str) -> None:
        psql = shutil.which("psql") or str(self.binaries / "psql")
        subprocess.run([psql, "-X", "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "-d",
                        "postgres", "-c", sql], check=True, capture_output=True)

    def start(self) -> None:
        """Start the server (again, after :meth:`stop`: same data, same port, the same URLs)."""
        _run([str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"), "-l", str(self.folder / "server.log"),
              "-o", self.options, "-w", "-t", "60", "start"], self.run_as)

    def stop(self) -> None:
        """Stop the server now (fast shutdown: its sessions are ended, as in an outage)."""
        _run([str(self.binaries / "pg_ctl"), "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop"],
             self.run_as, check=False)


def _run(command: list[str], user: str | None, *, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(command, check=check, capture_output=True, user=user, group=user and "nogroup",
                          extra_groups=[] if user else None, cwd="/")


@contextlib.contextmanager
def throwaway_postgres(*, max_connections: int = 200) -> Iterator[PgServer]:
    """Start a server in a temporary folder; stop and delete it afterwards. Raise LookupError when
    PostgreSQL is not installed."""
    binaries = find_binaries()
    if binaries is None:
        raise LookupError("PostgreSQL is not installed (no pg_ctl on PATH or in /usr/lib/postgresql/*/bin)")
    run_as = "nobody" if os.geteuid() == 0 else None
    folder = Path(tempfile.mkdtemp(prefix="temple-pg-"))
    try:
        if run_as is not None:
            entry = pwd.getpwnam(run_as)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        data = folder / "data"
        _run([str(binaries / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
              "--no-instructions", "--locale=C"], run_as)
        port = _free_port()
        options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={folder} "
                   f"-c max_connections={max_connections} -c fsync=on -c shared_buffers=64MB")
        server = PgServer(folder, port, binaries, run_as, options)
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        for _ in range(3):
            with contextlib.suppress(OSError):
                shutil.rmtree(folder)
                break
            time.sleep(0.2)
