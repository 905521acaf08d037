"""Row records returned by the store and the specs it accepts.

Records are small frozen dataclasses (like RoboDanny's ``Timer``): plain data, no connection, no
``commit()``. Their columns go through :mod:`db.codecs`: times are aware UTC datetimes in Python
and INTEGER milliseconds in SQL; JSON values (engine options, action payloads) are compact text
with sorted keys, and tuples come back as lists. Every decode validates and raises
:class:`CorruptRow` instead of letting a ``JSONDecodeError`` or ``KeyError`` escape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from db.codecs import (
    check_int64,
    column_int,
    column_opt_int,
    column_opt_str,
    column_opt_time,
    column_str,
    decode_json,
    decode_object,
    from_ms,
)
from db.errors import CorruptRow

__all__ = [
    "ACTIVE_STATUSES",
    "CHANCE_SEAT",
    "END_STATUSES",
    "STATUSES",
    "ActionRow",
    "DeadlineRow",
    "GameLog",
    "GameRow",
    "GameStatus",
    "MessageRow",
    "NewResult",
    "NewSeat",
    "ResultRow",
    "SeatRow",
    "SnapshotRow",
    "TableLoad",
    "TableTail",
]

GameStatus = Literal["lobby", "playing", "finished", "cancelled", "abandoned"]
STATUSES: tuple[GameStatus, ...] = ("lobby", "playing", "finished", "cancelled", "abandoned")
ACTIVE_STATUSES: tuple[GameStatus, ...] = ("lobby", "playing")
END_STATUSES: tuple[GameStatus, ...] = ("finished", "cancelled", "abandoned")

CHANCE_SEAT = -1
"""The seat number of chance in the action log (engine.core.CHANCE, restated: db never imports engine)."""

@dataclass(frozen=True, slots=True)
class GameRow:
    """One table: what was set up (game, preset, options, seed), where, by whom, and how far it got."""

    id: int
    game: str
    preset: str | None
    options: dict[str, Any]
    table_options: dict[str, Any]
    seed: int | None
    guild_id: int
    channel_id: int
    host_id: int
    status: GameStatus
    version: int
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None

    COLUMNS = (
        "id, game, preset, options, table_options, seed, guild_id, channel_id, host_id, status, "
        "version, created_at, started_at, finished_at"
    )

    @property
    def is_active(self) -> bool:
        """Return True while the table is in the lobby or playing."""
        return self.status in ACTIVE_STATUSES

    @property
    def duration(self) -> timedelta | None:
        """Return the wall-clock time from start to end, or None if it never started or ended."""
        if self.started_at is None or self.finished_at is None:
            return None
        return self.finished_at - self.started_at

    @classmethod
    def decode(cls, row: tuple[object, ...]) -> GameRow:
        """Return the record of a ``COLUMNS`` row; raise CorruptRow for a malformed one."""
        game_id = column_int(row[0], -1, "games.id")
        status = column_str(row[9], game_id, "status")
        if status not in STATUSES:
            raise CorruptRow(game_id, f"status: unknown value {status!r}")
        return cls(
            id=game_id,
            game=column_str(row[1], game_id, "game"),
            preset=column_opt_str(row[2], game_id, "preset"),
            options=decode_object(row[3], game_id, "options"),
            table_options=decode_object(row[4], game_id, "table_options"),
            seed=column_opt_int(row[5], game_id, "seed"),
            guild_id=column_int(row[6], game_id, "guild_id"),
            channel_id=column_int(row[7], game_id, "channel_id"),
            host_id=column_int(row[8], game_id, "host_id"),
            status=status,
            version=column_int(row[10], game_id, "version"),
            created_at=from_ms(column_int(row[11], game_id, "created_at")),
            started_at=column_opt_time(row[12], game_id, "started_at"),
            finished_at=column_opt_time(row[13], game_id, "finished_at"),
        )


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat to create: a Discord user or an AI level (exactly one), with the name shown at the table."""

    display_name: str
    user_id: int | None = None
    ai_level: str | None = None

    def __post_init__(self) -> None:
        """Refuse a seat that is both or neither a user and an AI, or has an unusable name."""
        if (self.user_id is None) == (self.ai_level is None):
            raise ValueError("a seat is exactly one of a user (user_id) or an AI (ai_level)")
        if self.user_id is not None:
            check_int64(self.user_id, "user_id")
        if self.ai_level is not None and not 1 <= len(self.ai_level) <= 32:
            raise ValueError("ai_level must be 1 to 32 characters")
        if not 1 <= len(self.display_name) <= 100:
            raise ValueError("display_name must be 1 to 100 characters")

    @classmethod
    def human(cls, user_id: int, display_name: str) -> NewSeat:
        """Return the spec of a seat held by a Discord user."""
        return cls(display_name=display_name, user_id=user_id)

    @classmethod
    def ai(cls, level: str, display_name: str) -> NewSeat:
        """Return the spec of a seat played by the AI of that level."""
        return cls(display_name=display_name, ai_level=level)


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat at a table: lobby position before the start, the engine's seat index after it."""

    game_id: int
    seat: int
    user_id: int | None
    ai_level: str | None
    display_name: str

    COLUMNS = "game_id, seat, user_id, ai_level, display_name"

    @property
    def is_ai(self) -> bool:
        """Return True when an AI plays this seat."""
        return self.ai_level is not None

    @classmethod
    def decode(cls, row: tuple[object, ...]) -> SeatRow:
        """Return the record of a ``COLUMNS`` row; raise CorruptRow for a malformed one."""
        game_id = column_int(row[0], -1, "seats.game_id")
        user_id = column_opt_int(row[2], game_id, "seats.user_id")
        ai_level = column_opt_str(row[3], game_id, "seats.ai_level")
        if (user_id is None) == (ai_level is None):
            raise CorruptRow(game_id, "seats: a seat must be exactly one of user or AI")
        return cls(game_id, column_int(row[1], game_id, "seats.seat"), user_id, ai_level,
                   column_str(row[4], game_id, "seats.display_name"))


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One accepted action: its place in the log, who took it (-1 = chance) and the decoded payload."""

    game_id: int
    seq: int
    seat: int
    payload: Any
    created_at: datetime

    COLUMNS = "game_id, seq, seat, payload, created_at"

    @classmethod
    def decode(cls, row: tuple[object, ...]) -> ActionRow:
        """Return the record of a ``COLUMNS`` row; raise CorruptRow for a malformed one."""
        game_id = column_int(row[0], -1, "actions.game_id")
        seq = column_int(row[1], game_id, "actions.seq")
        return cls(
            game_id=game_id,
            seq=seq,
            seat=column_int(row[2], game_id, f"actions[{seq}].seat"),
            payload=decode_json(row[3], game_id, f"actions[{seq}].payload"),
            created_at=from_ms(column_int(row[4], game_id, f"actions[{seq}].created_at")),
        )


@dataclass(frozen=True, slots=True)
class NewResult:
    """One seat's final standing, as the session computed it from the engine's result."""

    seat: int
    score: int
    placement: int
    is_winner: bool


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One seat's final standing as stored for the leaderboards (user or AI copied from the seat)."""

    game_id: int
    seat: int
    user_id: int | None
    ai_level: str | None
    score: int
    placement: int
    is_winner: bool

    COLUMNS = "game_id, seat, user_id, ai_level, score, placement, is_winner"

    @classmethod
    def decode(cls, row: tuple[object, ...]) -> ResultRow:
        """Return the record of a ``COLUMNS`` row; raise CorruptRow for a malformed one."""
        game_id = column_int(row[0], -1, "results.game_id")
        return cls(
            game_id=game_id,
            seat=column_int(row[1], game_id, "results.seat"),
            user_id=column_opt_int(row[2], game_id, "results.user_id"),
            ai_level=column_opt_str(row[3], game_id, "results.ai_level"),
            score=column_int(row[4], game_id, "results.score"),
            placement=column_int(row[5], game_id, "results.placement"),
            is_winner=bool(column_int(row[6], game_id, "results.is_winner")),
        )


@dataclass(frozen=True, slots=True)
class MessageRow:
    """A message the bot posted for a game (seat None: in the channel; else that seat's DM)."""

    game_id: int
    kind: str
    seat: int | None
    channel_id: int
    message_id: int
    updated_at: datetime
    open: bool = False  # it still carries controls that act on its game

    COLUMNS = "game_id, kind, seat, channel_id, message_id, updated_at, open"

    @classmethod
    def decode(cls, row: tuple[object, ...]) -> MessageRow:
        """Return the record of a ``COLUMNS`` row; raise CorruptRow for a malformed one."""
        game_id = column_int(row[0], -1, "messages.game_id")
        return cls(
            game_id=game_id,
            kind=column_str(row[1], game_id, "messages.kind"),
            seat=column_opt_int(row[2], game_id, "messages.seat"),
            channel_id=column_int(row[3], game_id, "messages.channel_id"),
            message_id=column_int(row[4], game_id, "messages.message_id"),
            updated_at=from_ms(column_int(row[5], game_id, "messages.updated_at")),
            open=bool(column_int(row[6], game_id, "messages.open")),
        )


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    """An armed timer: fire ``kind`` for the game at ``due_at``, valid while the game is at ``version``."""

    game_id: int
    kind: str
    due_at: datetime
    version: int | None
    table_options: dict[str, Any] | None = field(default=None, compare=False)
    """The game's table options when read with the timer (:meth:`db.side.SideRows.armed`): what the
    timer does may depend on them (a decision's reminders on its decision time)."""
    game: str | None = field(default=None, compare=False)
    """The game's name when read with the timer (a sixth column): which timers a decision derives
    depends on the game (a waited moment only where several decide at once)."""

    COLUMNS = "game_id, kind, due_at, version"

    @classmethod
    def decode(cls, row: tuple[object, ...], decoded: dict[object, dict[str, Any]] | None = None) -> DeadlineRow:
        """Return the record of a ``COLUMNS`` row (with the game's table options as a fifth column
        and its name as a sixth, if read); raise CorruptRow for a malformed one. ``decoded``
        remembers the options texts already decoded: rows with the same text then share one
        (read-only) dict."""
        game_id = column_int(row[0], -1, "deadlines.game_id")
        options: dict[str, Any] | None = None
        if len(row) > 4:
            options = None if decoded is None else decoded.get(row[4])
            if options is None:
                options = decode_object(row[4], game_id, "table_options")
                if decoded is not None:
                    decoded[row[4]] = options
        return cls(
            game_id=game_id,
            kind=column_str(row[1], game_id, "deadlines.kind"),
            due_at=from_ms(column_int(row[2], game_id, "deadlines.due_at")),
            version=column_opt_int(row[3], game_id, "deadlines.version"),
            table_options=options,
            game=column_str(row[5], game_id, "games.game") if len(row) > 5 else None,
        )


@dataclass(frozen=True, slots=True)
class GameLog:
    """Everything needed to rebuild a table: the game row, its seats and its whole action log."""

    game: GameRow
    seats: tuple[SeatRow, ...]
    actions: tuple[ActionRow, ...]

    def moves(self) -> list[tuple[int, Any]]:
        """Return the log as (seat, payload) pairs, the shape ``engine.core.replay`` takes."""
        return [(action.seat, action.payload) for action in self.actions]


@dataclass(frozen=True, slots=True)
class SnapshotRow:
    """A cached state: the engine's dump after ``version`` actions, with the decision window then open."""

    game_id: int
    version: int
    opened: int
    state: str

    COLUMNS = "game_id, version, opened, state"

    @classmethod
    def decode(cls, row: tuple[object, ...]) -> SnapshotRow:
        """Return the record of a ``COLUMNS`` row; raise CorruptRow for a malformed one."""
        game_id = column_int(row[0], -1, "snapshots.game_id")
        return cls(game_id, column_int(row[1], game_id, "snapshots.version"),
                   column_int(row[2], game_id, "snapshots.opened"), column_str(row[3], game_id, "snapshots.state"))


@dataclass(frozen=True, slots=True)
class TableLoad:
    """What loading a table reads: the game, its seats, its latest snapshot (if any), the actions
    after it (the whole log without one) and its armed timers."""

    game: GameRow
    seats: tuple[SeatRow, ...]
    snapshot: SnapshotRow | None
    actions: tuple[ActionRow, ...]
    deadlines: tuple[DeadlineRow, ...]


@dataclass(frozen=True, slots=True)
class TableTail:
    """What changed since a version: the game row now, its seats, and the actions after that version."""

    game: GameRow
    seats: tuple[SeatRow, ...]
    actions: tuple[ActionRow, ...]
