"""Shared helpers for the storage tests: a pinned clock, seat specs and a started-table factory."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from db import NewSeat, Store

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


ANN = NewSeat.human(101, "Ann")
BO = NewSeat.human(102, "Bo")
HARD = NewSeat.ai("hard", "Bot (hard)")


class PlayingGame:
    """Factory: a started Incan Gold table with Ann, Bo and a hard AI, seed 7."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def __call__(self, channel_id: int = 500, seats: tuple[NewSeat, ...] = (ANN, BO, HARD)) -> int:
        game = await self.store.create_game(
            "incan_gold", guild_id=1, channel_id=channel_id, host_id=101,
            preset="base", options={"artifacts": "base"}, seats=[seats[0]],
        )
        await self.store.start_game(game.id, list(seats), seed=7)
        return game.id


def count_round_trips(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every hop from now on to aiosqlite's thread (``Connection._execute``, as
    bench/bot_latency.py counts them); return the live list of the statements' first words."""
    hops: list[str] = []
    execute: Callable[..., Awaitable[Any]] = store._backend._db._execute  # type: ignore[attr-defined]

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(" ".join(str(args[0]).split()[:3]) if args else getattr(fn, "__name__", "?"))
        return await execute(fn, *args, **kwargs)

    monkeypatch.setattr(store._backend._db, "_execute", counted)  # type: ignore[attr-defined]
    return hops
