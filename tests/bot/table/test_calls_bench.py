"""The call budget of issue 41, held by whole games through the call benchmark's own functions: the
rate-limited REST calls per Incan Gold card (<= 1.1, live and correspondence) and per Sakkara move
in correspondence (<= 1.3), with the default notification settings and people only. Call counts
depend on the seed, not on the machine's speed: this is not a timed test. A change of when people
are told once tripled Incan Gold's correspondence figure (0.91 -> 3.66) unseen by every other test.
Indus (<= 1.0 asked, 1.14 measured, its floor 1.0 by the bench's own count) is left to the bench."""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return importlib.import_module("bench.calls_per_game")


@pytest.mark.parametrize("pace", ["live", "correspondence"])
async def test_an_incan_gold_game_costs_at_most_1_1_calls_per_card(bench: ModuleType, pace: str):
    count = await bench.play("incan_gold", 2, 1, pace)
    assert count.games == 2 and count.moves > 20
    assert sum(count.calls.values()) / count.moves <= 1.1, count.calls


async def test_a_correspondence_sakkara_game_costs_at_most_1_3_calls_per_move(bench: ModuleType):
    count = await bench.play("sakkara", 1, 1, "correspondence")
    assert count.games == 1 and count.moves > 100
    assert count.calls["DM message sent"] >= count.turns  # every turn passed to a person is told by DM
    assert sum(count.calls.values()) / count.moves <= 1.3, count.calls
