"""Bot processes for the chaos harness (:mod:`fakediscord.chaos`), started by forking a warm parent.

``python -m fakediscord.zygote`` imports the bot and everything it loads once, then reads requests
on stdin, one per line: ``PORT DATABASE_PATH LOG_PATH``. For each it forks a child that runs the
real ``bot.run`` (the composition root: store, signal handlers, gateway) against the loopback
Discord on ``PORT`` and prints the child's pid. A fork costs milliseconds where a fresh interpreter
costs a second or more of imports, so a kill -9 and restart cycle stays cheap. The children are
reaped by the kernel (SIGCHLD ignored); the harness kills them with SIGKILL or SIGTERM.
"""

from __future__ import annotations

import os

# Before numpy is imported: a forked child keeps only the thread that forked, so no thread pool.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import asyncio
import contextlib
import importlib
import logging
import signal
import sys
import traceback

import discord.gateway
import discord.http
import yarl

import bot

AI_DELAY_S = 0.02
"""Bot seats act on the real clock after this delay: their turns run in timer tasks a kill can hit."""


def _child(port: int, database: str, log_path: str) -> int:
    """Run the bot in this (forked) process until it is killed or stopped; return its exit code."""
    log = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{port}/gateway")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True)
    # AI decisions in a thread, not a worker process: a bot that lives a second would spend it
    # spawning its worker. What a kill must not lose lives in the store either way.
    config = bot.Config(token="chaos-token", database_path=database, ai_delay_s=AI_DELAY_S,
                        decision_timeout_s=3600.0, reminder_before_s=0.0, ai_workers=0)
    return asyncio.run(bot.run(config))


def main() -> None:
    """Serve fork requests from stdin until it closes."""
    for name in bot.EXTENSIONS:  # the cogs the bot loads at start: imported once, here
        importlib.import_module(name)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print("ready", flush=True)
    children: list[int] = []
    for line in sys.stdin:
        port, database, log_path = line.split()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = _child(int(port), database, log_path)
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
