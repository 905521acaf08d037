"""Shared helpers for the storage tests: a pinned clock, seat specs and a started-table factory."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

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
