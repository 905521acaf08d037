"""The async session layer: one table per channel, for every game, with no Discord in it.

- :mod:`engine.session.sessions` — :class:`Sessions`: lobby, play, timers, AI seats, recovery.
- :mod:`engine.session.table` — a live :class:`Table`, an :class:`Update`, the :class:`Listener`.
- :mod:`engine.session.records` — records, errors, settings and the :class:`Repository` protocol.
- :mod:`engine.session.place` — :class:`Place`: where a request comes from, and who may reach a table there.
- :mod:`engine.session.games` — the registry of hosted games (``SPECS``), above the rules.
"""

from __future__ import annotations

from engine.session.place import Place
from engine.session.records import (
    GameSpec,
    RepoBusy,
    RepoConflict,
    RepoCorrupt,
    Repository,
    RepoStale,
    ResultSpec,
    SeatSpec,
    SessionError,
    Settings,
    StoredTable,
)
from engine.session.sessions import Sessions
from engine.session.table import Listener, Table, Update

__all__ = [
    "GameSpec",
    "Listener",
    "Place",
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
