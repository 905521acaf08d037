"""The AI pool hands each decision the bot's thinking time (AI_THINK_S), on a thread or in a worker."""

from __future__ import annotations

import os

import pytest
from thinking_probe import SPECS

from engine.core import THINKING_S, thinking_for, thinking_seconds
from engine.incan_gold import GAME
from engine.session.ai_pool import WORKER_NICENESS, AiPool

STATE = GAME.setup(4, 1)


@pytest.mark.parametrize("workers", [0, 1])
async def test_a_decision_thinks_for_the_pools_thinking_time(workers):
    pool = AiPool(SPECS, workers=workers, think_s=2.5, registry="thinking_probe:SPECS")
    try:
        assert await pool.decide("incan_gold", STATE, 7, [(0, "probe", 0), (1, "probe", 1)]) == [(0, 2.5), (1, 2.5)]
    finally:
        await pool.close()
    assert thinking_seconds() == THINKING_S  # the caller's own context is left as it was


async def test_the_default_thinking_time_is_one_second_and_a_block_sets_it_for_a_while():
    pool = AiPool(SPECS, workers=0, registry="thinking_probe:SPECS")
    assert await pool.decide("incan_gold", STATE, 7, [(0, "probe", 0)]) == [(0, THINKING_S)]
    assert THINKING_S == 1.0
    with thinking_for(0.25):
        assert thinking_seconds() == 0.25
    assert thinking_seconds() == THINKING_S


async def test_workers_run_at_a_lower_cpu_priority_than_the_bot():
    """The event loop is latency, the workers throughput: a worker is niced below the bot."""
    pool = AiPool(SPECS, workers=1, registry="thinking_probe:SPECS")
    try:
        [(_, niceness)] = await pool.decide("incan_gold", STATE, 7, [(0, "nice", 0)])
    finally:
        await pool.close()
    assert niceness == min(19, os.nice(0) + WORKER_NICENESS)
