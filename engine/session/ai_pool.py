"""AI decisions in worker processes, so a search AI never holds the event loop (or its GIL).

A Hard AI thinks for tens of milliseconds (Incan Gold) to a second (Sakkara); on a thread it still
holds the GIL, and every other table's clicks on the process wait. :class:`AiPool` sends each
decision to a ``ProcessPoolExecutor`` and only awaits it. A decision is a pure function of (game,
state, seat, level, seed, log position), so a worker computes exactly what the event loop would.

Each decision has a time budget; a decision over budget (or a worker that died) is replaced by the
game's timeout agent, computed here (it is cheap), and logged. ``workers=0`` computes in a thread
instead (tests, and machines where processes cannot be spawned).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import multiprocessing
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine.core import THINKING_S, Agent, agent_rng, splitmix64, thinking_for
from engine.session.contract import GameSpec

__all__ = ["AiPool", "Decision", "decide", "default_workers"]

Decision = tuple[int, str, int]
"""One AI seat to decide for: (seat, AI level or "" for the timeout agent, log position)."""

_SPECS: Mapping[str, GameSpec] | None = None  # a worker's game registry, set by _init_worker

WORKER_NICENESS = 10
"""How much lower a worker's CPU priority is than the bot process's (Unix ``nice``). The workers
are throughput, the event loop is latency: on 2 cores a busy worker (100 tables of Hard bots at
full speed keep one saturated) and the drawing process left the event loop's thread waiting for a
CPU at the moments people clicked (Indus beside 100 such tables: click p99 57-93 ms; niced,
30-37 ms). Niced, a worker still gets every cycle nobody else wants."""


def default_workers() -> int:
    """Return one worker per core beyond the event loop's own (1 on a 2-core machine)."""
    return max(1, (os.cpu_count() or 2) - 1)


def decide(specs: Mapping[str, GameSpec], game: str, state: Any, seed: int,
           decisions: Sequence[Decision], think_s: float = THINKING_S) -> list[tuple[int, Any]]:
    """Return the actions of AI seats choosing together (each sees ``state``, not the others' choices);
    a searching level thinks ``think_s`` seconds over each (see :func:`engine.core.thinking_seconds`)."""
    spec = specs[game]
    out = []
    with thinking_for(think_s):
        for seat, level, position in decisions:
            agent: Agent = spec.agents[level] if level else spec.timeout_agent
            rng = agent_rng(seed ^ splitmix64(position), seat)
            out.append((seat, agent(spec.game.observe(state, seat), spec.game.legal_actions(state, seat), rng)))
    return out


def _init_worker(registry: str) -> None:
    """Load the game registry named ``module:attribute`` in a fresh worker process."""
    global _SPECS
    if hasattr(os, "nice"):  # Unix
        os.nice(WORKER_NICENESS)
    module, _, name = registry.partition(":")
    _SPECS = getattr(importlib.import_module(module), name)


def _decide_in_worker(game: str, state: Any, seed: int, decisions: Sequence[Decision], think_s: float
                      ) -> list[tuple[int, Any]]:
    assert _SPECS is not None, "the worker was started without a game registry"
    return decide(_SPECS, game, state, seed, decisions, think_s)


def _warm() -> int:
    return os.getpid()


class AiPool:
    """Runs AI decisions in ``workers`` processes (0: in a thread) within a time budget each."""

    def __init__(self, specs: Mapping[str, GameSpec], *, workers: int = 0, budget_s: float = 10.0,
                 think_s: float = THINKING_S, registry: str = "engine.session.games:SPECS") -> None:
        self.specs = specs
        self.workers = workers
        self.budget_s = budget_s  # the most a decision may take before the timeout agent plays instead
        self.think_s = think_s  # how long a searching level thinks (its own budget, well inside budget_s)
        self.registry = registry
        self.over_budget = 0  # decisions replaced by the timeout agent
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            # forkserver/spawn, never fork: the parent runs an event loop and database threads.
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_init_worker,
                                                 initargs=(self.registry,))
        return self._executor

    async def start(self) -> None:
        """Start the workers now (importing the engines takes a moment) rather than at the first AI turn."""
        if self.workers > 0:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(self._pool(), _warm) for _ in range(self.workers)))

    async def decide(self, game: str, state: Any, seed: int, decisions: Sequence[Decision]) -> list[tuple[int, Any]]:
        """Return the seats' actions; past the budget the game's timeout agent decides instead."""
        if self.workers <= 0:
            return await asyncio.to_thread(decide, self.specs, game, state, seed, decisions, self.think_s)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._pool(), _decide_in_worker, game, state, seed, list(decisions),
                                          self.think_s)
            # The budget is per seat: Incan Gold's bots choose together, one after another in one call.
            return await asyncio.wait_for(future, self.budget_s * max(1, len(decisions)))
        except (TimeoutError, BrokenProcessPool) as exc:
            self.over_budget += 1
            if isinstance(exc, BrokenProcessPool):
                self._replace_pool()
            logging.getLogger(__name__).warning("AI decision for %s over budget or lost (%s): the timeout agent"
                                                " plays", game, type(exc).__name__)
            return decide(self.specs, game, state, seed, [(seat, "", pos) for seat, _, pos in decisions])

    def _replace_pool(self) -> None:
        old, self._executor = self._executor, None
        if old is not None:
            old.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Stop the workers (a decision still running is abandoned)."""
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
