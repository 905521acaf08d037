"""The clicks-per-turn benchmark (issue 13, "Done when") still plays whole games through the real
controls: it broke silently once when Incan Gold's Torch / Camp moved from DMs to the public message.
One game of each kind on a pinned seed, through the bench's own functions; the figures it must show."""

from __future__ import annotations

import importlib.util
import statistics
import sys
from pathlib import Path
from types import ModuleType

import pytest

from db import Store
from fakediscord import FakeDiscord

BENCH = Path(__file__).resolve().parents[3] / "bench" / "clicks_per_turn.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("clicks_per_turn", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


async def test_incan_gold_takes_one_click_per_decision(bench: ModuleType):
    with FakeDiscord() as fake:
        store = await Store.open(":memory:")
        clicks = await bench.incan_game(fake, store, 1)
        await store.close()
    assert len(clicks) > 20 and set(clicks) == {1}


async def test_indus_takes_at_most_two_clicks_per_turn_at_the_median(bench: ModuleType):
    with FakeDiscord() as fake:
        store = await Store.open(":memory:")
        clicks = await bench.indus_game(fake, store, 1, 2)
        await store.close()
    assert len(clicks) > 10 and statistics.median(clicks) <= 2
