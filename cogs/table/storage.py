"""Binds the session layer's Repository interface to ``db.Store``.

The session (in ``engine/``) may not import ``db`` and the store may not import the engine, so
this thin adapter, owned by the composition side, translates records and errors between them.
It holds no SQL: every statement stays in ``db/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from db.errors import AlreadySeated, ChannelBusy, CorruptRow, GameNotFound, StaleVersion
from db.records import NewResult, NewSeat
from db.store import Store
from engine.session import RepoBusy, RepoConflict, RepoCorrupt, RepoStale, ResultSpec, SeatSpec, StoredTable

__all__ = ["StoreRepository"]


def _seat(spec: SeatSpec) -> NewSeat:
    return NewSeat(display_name=spec.display_name, user_id=spec.user_id, ai_level=spec.ai_level)


class StoreRepository:
    """The session's Repository on top of a ``db.Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, game: str, guild_id: int, channel_id: int, host_id: int,
                     options: dict[str, Any], table_options: dict[str, Any],
                     seats: Sequence[SeatSpec]) -> int:
        """Open a lobby row."""
        try:
            row = await self.store.create_game(
                game, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                preset=options.get("preset"), options=options, table_options=table_options,
                seats=[_seat(s) for s in seats])
        except ChannelBusy as exc:
            raise RepoBusy(str(exc)) from exc
        return row.id

    async def add_seat(self, table_id: int, seat: SeatSpec) -> None:
        """Add a lobby seat."""
        try:
            await self.store.add_seat(table_id, _seat(seat))
        except AlreadySeated as exc:
            raise RepoConflict(str(exc)) from exc

    async def remove_seat(self, table_id: int, seat: int) -> None:
        """Remove a lobby seat."""
        await self.store.remove_seat(table_id, seat)

    async def start(self, table_id: int, seats: Sequence[SeatSpec], seed: int) -> None:
        """Record the seating and seed."""
        await self.store.start_game(table_id, [_seat(s) for s in seats], seed)

    async def append(self, table_id: int, expected: int, actions: Sequence[tuple[int, Any]],
                     deadline: tuple[str, float, int] | None = None) -> None:
        """Append actions atomically at ``expected`` (with the timer they arm, if any)."""
        timer = None if deadline is None else (deadline[0], datetime.fromtimestamp(deadline[1], UTC), deadline[2])
        try:
            await self.store.append_actions(table_id, expected, list(actions), deadline=timer)
        except StaleVersion as exc:
            raise RepoStale(str(exc)) from exc

    async def finish(self, table_id: int, results: Sequence[ResultSpec]) -> None:
        """Mark finished with results."""
        await self.store.finish_game(
            table_id, [NewResult(seat=r.seat, score=r.score, placement=r.placement, is_winner=r.is_winner)
                       for r in results])

    async def cancel(self, table_id: int, status: str) -> None:
        """End without results."""
        await self.store.cancel_game(table_id, "abandoned" if status == "abandoned" else "cancelled")

    async def load(self, table_id: int) -> StoredTable:
        """Return the stored table with its log (KeyError when there is no such table)."""
        try:
            log = await self.store.load_game(table_id)
        except GameNotFound as exc:
            raise KeyError(exc.game_id) from exc
        except CorruptRow as exc:
            raise RepoCorrupt(str(exc)) from exc
        g = log.game
        return StoredTable(
            id=g.id, game=g.game, options=g.options, table_options=g.table_options, seed=g.seed,
            guild_id=g.guild_id, channel_id=g.channel_id, host_id=g.host_id, status=g.status,
            seats=tuple(SeatSpec(s.display_name, s.user_id, s.ai_level) for s in log.seats),
            actions=tuple((a.seat, a.payload) for a in log.actions),
        )

    async def unfinished(self) -> list[int]:
        """Return the ids of active tables."""
        return await self.store.unfinished_game_ids()

    async def set_deadline(self, table_id: int, kind: str, due: float, window: int) -> None:
        """Persist a timer."""
        await self.store.set_deadline(table_id, kind, datetime.fromtimestamp(due, UTC), version=window)

    async def deadline(self, table_id: int, kind: str) -> tuple[float, int | None] | None:
        """Return a persisted timer."""
        row = await self.store.deadline(table_id, kind)
        return None if row is None else (row.due_at.timestamp(), row.version)
