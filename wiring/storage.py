"""Binds the session layer's Repository interface to ``db.Store``.

The session (in ``engine/``) may not import ``db`` and the store may not import the engine, so
this thin adapter, owned by the composition side, translates records and errors between them.
It holds no SQL: every statement stays in ``db/``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from db import (
    END_STATUSES,
    ActionRow,
    AlreadySeated,
    ChannelBusy,
    CorruptRow,
    DeadlineRow,
    GameNotFound,
    MessageRow,
    NewResult,
    NewSeat,
    SeatRow,
    StaleVersion,
    Store,
    StoryRow,
    Unavailable,
    WrongStatus,
)
from engine.session import (
    Deadline,
    RepoBusy,
    RepoConflict,
    RepoCorrupt,
    RepoEnded,
    RepoStale,
    RepoUnavailable,
    ResultSpec,
    SeatEvent,
    SeatSpec,
    Snapshot,
    StoredTable,
    StoredTail,
    StoredTimer,
    with_stand_ins,
)

__all__ = ["StoreRepository"]

T = TypeVar("T")


def _seat(spec: SeatSpec) -> NewSeat:
    return NewSeat(display_name=spec.display_name, user_id=spec.user_id, ai_level=spec.ai_level)


def _spec(row: SeatRow) -> SeatSpec:
    return SeatSpec(row.display_name, row.user_id, row.ai_level)


def _with_stand_ins(seats: Sequence[SeatRow], events: Sequence[SeatEvent]) -> tuple[SeatSpec, ...]:
    """Return the seats as they are now: a person who resigned is played by their bot."""
    return with_stand_ins([_spec(s) for s in seats], events)


def _moves(rows: Sequence[ActionRow]) -> tuple[tuple[int, Any], ...]:
    return tuple((a.seat, a.payload) for a in rows)


def _timer(row: DeadlineRow) -> StoredTimer:
    span = None if row.table_options is None else row.table_options.get("decision_timeout_s")
    return StoredTimer(row.game_id, row.kind, row.due_at.timestamp(), row.version,
                       float(span) if isinstance(span, int | float) and not isinstance(span, bool) else None,
                       game=row.game)


def _when(due: float) -> datetime:
    return datetime.fromtimestamp(due, UTC)


class StoreRepository:
    """The session's Repository on top of a ``db.Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    async def _call(work: Callable[[], Awaitable[T]]) -> T:
        """Run a store call, translating the store's errors into the session's."""
        try:
            return await work()
        except Unavailable as exc:
            raise RepoUnavailable(str(exc)) from exc
        except CorruptRow as exc:
            raise RepoCorrupt(str(exc)) from exc
        except GameNotFound as exc:
            raise KeyError(exc.game_id) from exc

    async def create(self, game: str, guild_id: int, channel_id: int, host_id: int,
                     options: dict[str, Any], table_options: dict[str, Any],
                     seats: Sequence[SeatSpec]) -> int:
        """Open a lobby row."""
        try:
            row = await self._call(lambda: self.store.create_game(
                game, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
                preset=options.get("preset"), options=options, table_options=table_options,
                seats=[_seat(s) for s in seats]))
        except ChannelBusy as exc:
            raise RepoBusy(str(exc)) from exc
        return row.id

    async def add_seat(self, table_id: int, seat: SeatSpec) -> None:
        """Add a lobby seat."""
        try:
            await self._call(lambda: self.store.add_seat(table_id, _seat(seat)))
        except AlreadySeated as exc:
            raise RepoConflict(str(exc)) from exc

    async def remove_seat(self, table_id: int, seat: int) -> None:
        """Remove a lobby seat."""
        await self._call(lambda: self.store.remove_seat(table_id, seat))

    async def start(self, table_id: int, seats: Sequence[SeatSpec], seed: int) -> None:
        """Record the seating and seed."""
        await self._call(lambda: self.store.start_game(table_id, [_seat(s) for s in seats], seed))

    async def append(self, table_id: int, expected: int, actions: Sequence[tuple[int, Any]],
                     deadlines: Sequence[Deadline] = ()) -> None:
        """Append actions atomically at ``expected`` (with the timers they arm)."""
        timers = [(kind, _when(due), version) for kind, due, version in deadlines]
        try:
            await self._call(lambda: self.store.append_actions(table_id, expected, list(actions), deadlines=timers))
        except StaleVersion as exc:
            raise RepoStale(str(exc)) from exc

    @classmethod
    async def _end(cls, work: Callable[[], Awaitable[T]]) -> T:
        """Run a store call that ends a game: RepoEnded when another process ended it first."""
        try:
            return await cls._call(work)
        except WrongStatus as exc:
            if exc.status not in END_STATUSES:  # e.g. finishing a lobby: not a race, a bug
                raise
            raise RepoEnded(exc.status) from exc

    async def finish(self, table_id: int, results: Sequence[ResultSpec]) -> None:
        """Mark finished with results; RepoEnded when another process ended the game first."""
        await self._end(lambda: self.store.finish_game(
            table_id, [NewResult(seat=r.seat, score=r.score, placement=r.placement, is_winner=r.is_winner)
                       for r in results]))

    async def cancel(self, table_id: int, status: str) -> None:
        """End without results; RepoEnded when another process ended the game first."""
        await self._end(lambda: self.store.cancel_game(table_id, "abandoned" if status == "abandoned"
                                                       else "cancelled"))

    async def load(self, table_id: int) -> StoredTable:
        """Return the stored table: its snapshot, the actions after it and its timers."""
        found = await self._call(lambda: self.store.load_table(table_id))
        g, snap = found.game, found.snapshot
        events = await self.seat_events(table_id) if g.status == "playing" else []
        return StoredTable(
            id=g.id, game=g.game, options=g.options, table_options=g.table_options, seed=g.seed,
            guild_id=g.guild_id, channel_id=g.channel_id, host_id=g.host_id, status=g.status,
            seats=_with_stand_ins(found.seats, events), actions=_moves(found.actions),
            snapshot=None if snap is None else Snapshot(snap.version, snap.opened, snap.state),
            timers=tuple(_timer(d) for d in found.deadlines), events=tuple(events),
        )

    async def tail(self, table_id: int, since: int) -> StoredTail:
        """Return the table's status and seats now and its actions from ``since`` on."""
        found = await self._call(lambda: self.store.tail(table_id, since))
        events = await self.seat_events(table_id) if found.game.status == "playing" else []
        return StoredTail(found.game.status, found.game.host_id, _with_stand_ins(found.seats, events),
                          _moves(found.actions), tuple(events))

    async def active_in(self, channel_id: int) -> int | None:
        """Return the id of the channel's active table."""
        row = await self._call(lambda: self.store.active_game(channel_id))
        return None if row is None else row.id

    async def timers(self, buckets: Sequence[int] | None = None, bucket_count: int = 1, *,
                     table_ids: Sequence[int] | None = None) -> list[StoredTimer]:
        """Return armed timers (one query)."""
        rows = await self._call(lambda: self.store.armed(buckets=buckets, bucket_count=bucket_count,
                                                         game_ids=table_ids))
        return [_timer(row) for row in rows]

    async def set_deadline(self, table_id: int, kind: str, due: float, window: int) -> None:
        """Persist a timer."""
        await self._call(lambda: self.store.set_deadline(table_id, kind, _when(due), version=window))

    async def clear_deadline(self, table_id: int, kind: str) -> None:
        """Forget a stored timer."""
        await self._call(lambda: self.store.clear_deadline(table_id, kind))

    async def save_snapshot(self, table_id: int, snapshot: Snapshot) -> None:
        """Keep a state snapshot."""
        await self._call(lambda: self.store.save_snapshot(table_id, snapshot.version, snapshot.window,
                                                          snapshot.state))

    async def add_seat_event(self, table_id: int, event: SeatEvent) -> bool:
        """Record a timeout or a resignation."""
        return await self._call(lambda: self.store.add_seat_event(table_id, event.version, event.seat, event.kind,
                                                                  dict(event.detail)))

    async def seat_events(self, table_id: int) -> list[SeatEvent]:
        """Return the table's seat events in order."""
        rows = await self._call(lambda: self.store.seat_events(table_id))
        return [SeatEvent(r.version, r.seat, r.kind, r.detail) for r in rows]

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """Return a server's settings."""
        return await self._call(lambda: self.store.guild_settings(guild_id))

    async def set_server_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set a server's setting."""
        await self._call(lambda: self.store.set_guild_setting(guild_id, key, value))

    async def active_in_guild(self, guild_id: int) -> list[int]:
        """Return the ids of a server's active tables."""
        return [row[0] for row in await self._call(lambda: self.store.active_games_in(guild_id))]

    async def active_of_user(self, user_id: int) -> list[int]:
        """Return the ids of a user's active tables on every server."""
        return await self._call(lambda: self.store.active_games_of(user_id))

    # ------------------------------------------------------------------ for the hub (not the session)

    async def actions(self, table_id: int, upto: int) -> list[tuple[int, Any]]:
        """Return the first ``upto`` stored actions as (seat, action)."""
        rows = await self._call(lambda: self.store.actions(table_id))
        return [(row.seat, row.payload) for row in rows[:upto]]

    async def story(self, table_id: int) -> StoryRow | None:
        """Return how far the table's log was posted."""
        return await self._call(lambda: self.store.story(table_id))

    async def set_story(self, table_id: int, thread_id: int | None, actions_written: int, notes_written: int) -> None:
        """Record the table's thread and how far its log was posted."""
        await self._call(lambda: self.store.set_story(table_id, thread_id, actions_written, notes_written))

    async def close_message(self, table_id: int, kind: str, seat: int | None) -> bool:
        """Mark a recorded message closed."""
        return await self._call(lambda: self.store.close_message(table_id, kind, seat=seat))

    async def open_messages_of_ended(self) -> list[MessageRow]:
        """Return open messages of games that are over."""
        return await self._call(lambda: self.store.open_messages_of_ended_games())

    async def open_messages_of_running(self) -> list[MessageRow]:
        """Return open messages of games in the lobby or playing."""
        return await self._call(lambda: self.store.open_messages_of_running_games())
