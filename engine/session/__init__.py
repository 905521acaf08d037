"""The async session layer: one table per channel, for every game, with no Discord in it.

- :mod:`engine.session.sessions` — :class:`Sessions`: lobby, play, timers, AI seats, recovery.
- :mod:`engine.session.games` — the registry of hosted games (``SPECS``), above the rules.
"""

from __future__ import annotations

from engine.session.sessions import (
    GameSpec,
    Listener,
    RepoBusy,
    RepoConflict,
    RepoCorrupt,
    Repository,
    RepoStale,
    ResultSpec,
    SeatSpec,
    SessionError,
    Sessions,
    Settings,
    StoredTable,
    Table,
    Update,
)

__all__ = [
    "GameSpec",
    "Listener",
    "RepoBusy",
    "RepoConflict",
    "RepoCorrupt",
    "RepoStale",
    "Repository",
    "ResultSpec",
    "SeatSpec",
    "SessionError",
    "Sessions",
    "Settings",
    "StoredTable",
    "Table",
    "Update",
]
