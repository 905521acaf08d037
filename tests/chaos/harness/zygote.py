"""Bot processes for the chaos harness (:mod:`tests.chaos.harness.kills`), started by forking a warm parent.

``python -m tests.chaos.harness.zygote`` imports the bot and everything it loads once, then reads requests
on stdin, one JSON object per line (:class:`Spawn`'s fields). For each it forks a child that runs
the real ``bot.run`` (the composition root: store, signal handlers, gateway) against the loopback
Discord on ``port``, on a SQLite file or a PostgreSQL URL, with its shards, and prints its pid. A
fork costs milliseconds where a fresh interpreter costs a second or more of imports, so a kill -9
and restart cycle stays cheap. The children are reaped by the kernel (SIGCHLD ignored); the
harness kills them with SIGKILL or SIGTERM.
"""

from __future__ import annotations

import os

# Before numpy is imported: a forked child keeps only the thread that forked, so no thread pool.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import asyncio
import contextlib
import importlib
import json
import logging
import signal
import sys
import traceback
from dataclasses import dataclass

import discord.gateway
import discord.http
import yarl

import bot
from wiring.config import Config

AI_DELAY_S = 0.02
"""Bot seats act on the real clock after this delay: their turns run in timer tasks a kill can hit."""


@dataclass(frozen=True)
class Spawn:
    """One bot process to start: where Discord is, its database, its log file, its shards."""

    port: int
    database: str  # a SQLite file's path, or a postgresql:// URL
    log: str
    shard_ids: tuple[int, ...] | None = None  # None: one unsharded process (discord.py's shard 0 of 1)
    shard_count: int | None = None
    decision_timeout_s: float = 3600.0

    def line(self) -> str:
        """Return the request line the zygote reads."""
        return json.dumps(self.__dict__)

    @classmethod
    def parse(cls, line: str) -> Spawn:
        """Return the request a line carries."""
        fields = json.loads(line)
        shards = fields.pop("shard_ids")
        return cls(shard_ids=None if shards is None else tuple(shards), **fields)


def _child(spawn: Spawn) -> int:
    """Run the bot in this (forked) process until it is killed or stopped; return its exit code."""
    port = spawn.port
    log = os.open(spawn.log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    # Epoch seconds first: the harness lines up several processes' timer lines with its kills.
    logging.basicConfig(level=logging.INFO, format="%(created).3f %(levelname)s %(name)s: %(message)s", force=True)
    logging.getLogger("engine.session.fired").setLevel(logging.DEBUG)  # which process ran which timer
    postgresql = spawn.database.startswith("postgresql://")
    # AI decisions in a thread, not a worker process: a bot that lives a second would spend it
    # spawning its worker. What a kill must not lose lives in the store either way.
    config = Config(token="chaos-token", database_path=spawn.database,
                        database_url=spawn.database if postgresql else None, shard_ids=spawn.shard_ids,
                        shard_count=spawn.shard_count, ai_delay_s=AI_DELAY_S,
                        decision_timeout_s=spawn.decision_timeout_s, reminder_before_s=0.0, ai_workers=0)
    return asyncio.run(bot.run(config))


def main() -> None:
    """Serve fork requests from stdin until it closes."""
    for name in bot.EXTENSIONS:  # the cogs the bot loads at start: imported once, here
        importlib.import_module(name)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print("ready", flush=True)
    children: list[int] = []
    for line in sys.stdin:
        spawn = Spawn.parse(line)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = _child(spawn)
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(code)
        children.append(pid)
        print(pid, flush=True)
    for pid in children:  # the harness is gone (or done): no bot outlives it
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
