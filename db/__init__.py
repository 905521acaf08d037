"""Storage: the repository on SQLite (aiosqlite, the default) or PostgreSQL (asyncpg), numbered
SQL migrations per dialect; all SQL lives here.

``await Store.open(path)`` opens (and migrates) an SQLite file, ``await Store.connect(url)`` a
``sqlite:///`` or ``postgresql://`` URL; the records it returns and the errors it raises are
re-exported here, so callers import from ``db`` only. This package never imports ``discord`` or
``engine``.
"""

from __future__ import annotations

from db.errors import (
    AccessDenied,
    AlreadySeated,
    ChannelBusy,
    CorruptRow,
    GameNotFound,
    MigrationError,
    NoSuchSeat,
    SchemaTooNew,
    StaleVersion,
    StoreError,
    Unavailable,
    WrongStatus,
)
from db.records import (
    ACTIVE_STATUSES,
    CHANCE_SEAT,
    END_STATUSES,
    STATUSES,
    ActionRow,
    DeadlineRow,
    GameLog,
    GameRow,
    GameStatus,
    MessageRow,
    NewResult,
    NewSeat,
    ResultRow,
    SeatRow,
    SnapshotRow,
    TableLoad,
    TableTail,
)
from db.store import Clock, Store, utc_now

__all__ = [
    "ACTIVE_STATUSES",
    "CHANCE_SEAT",
    "END_STATUSES",
    "STATUSES",
    "AccessDenied",
    "ActionRow",
    "AlreadySeated",
    "ChannelBusy",
    "Clock",
    "CorruptRow",
    "DeadlineRow",
    "GameLog",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "MessageRow",
    "MigrationError",
    "NewResult",
    "NewSeat",
    "NoSuchSeat",
    "ResultRow",
    "SchemaTooNew",
    "SeatRow",
    "SnapshotRow",
    "StaleVersion",
    "Store",
    "StoreError",
    "TableLoad",
    "TableTail",
    "Unavailable",
    "WrongStatus",
    "utc_now",
]
