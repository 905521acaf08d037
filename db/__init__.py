"""Storage: the repository on SQLite (aiosqlite, the default) or PostgreSQL (asyncpg), numbered SQL
migrations per dialect; all SQL lives here.

``await Store.open(path)`` opens (and migrates) an SQLite file, ``await Store.connect(url)`` a
``sqlite:///`` or ``postgresql://`` URL; the records it returns and the errors it raises are
re-exported here, so callers import from ``db`` only (the house test checks it outside ``db/``).
This package never imports ``discord`` or ``engine``.
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
from db.leaderboard import (
    DAY_MS,
    Leaderboards,
    PlayerKey,
    Ranking,
    SeasonRow,
    Standing,
    StandingsPage,
    StoredRating,
    user_key,
)
from db.leases import leases_of
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
from db.seeding import StartedGame
from db.startup import CannotOpen, open_store
from db.store import Clock, Store, utc_now
from db.table_records import StoryRow
from db.urls import URL_SCHEMES

__all__ = [
    "ACTIVE_STATUSES",
    "CHANCE_SEAT",
    "DAY_MS",
    "END_STATUSES",
    "STATUSES",
    "URL_SCHEMES",
    "AccessDenied",
    "ActionRow",
    "AlreadySeated",
    "CannotOpen",
    "ChannelBusy",
    "Clock",
    "CorruptRow",
    "DeadlineRow",
    "GameLog",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "Leaderboards",
    "MessageRow",
    "MigrationError",
    "NewResult",
    "NewSeat",
    "NoSuchSeat",
    "PlayerKey",
    "Ranking",
    "ResultRow",
    "SchemaTooNew",
    "SeasonRow",
    "SeatRow",
    "SnapshotRow",
    "StaleVersion",
    "Standing",
    "StandingsPage",
    "StartedGame",
    "Store",
    "StoreError",
    "StoredRating",
    "StoryRow",
    "TableLoad",
    "TableTail",
    "Unavailable",
    "WrongStatus",
    "leases_of",
    "open_store",
    "user_key",
    "utc_now",
]
