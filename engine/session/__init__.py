"""The async session layer: one table per channel, for every game, with no Discord in it.

- :mod:`engine.session.sessions` — :class:`Sessions`: lookup, lobby, play (the public operations);
  it owns the objects below that do the work.
- :mod:`engine.session.cache` — the loaded tables, a cache over the store; :mod:`engine.session.play`
  play (a step, its chance draws and AI moves, committed, drawn and timed);
  :mod:`engine.session.alarms` arms the timers (again, with backoff, when their work fails);
  :mod:`engine.session.timer_work` what they do when they fire.
- :mod:`engine.session.loading` — a table from its snapshot and tail; :mod:`engine.session.timers`
  the timer book and who runs a table's timers; :mod:`engine.session.leases` the timers shared by
  several processes on one database (a lease per bucket); :mod:`engine.session.ai_pool` AI in worker processes.
- :mod:`engine.session.table` — a live :class:`Table`, an :class:`Update`, the :class:`Listener`.
- :mod:`engine.session.contract` — records, errors, settings and the :class:`Repository` protocol.
- :mod:`engine.session.place` — :class:`Place`: where a request comes from, and who may reach a table there.
- :mod:`engine.session.pace` — a table's pace (live or correspondence) from its decision time; durations.
- :mod:`engine.session.results` — a finished game's places (shared places, resigners last).
- :mod:`engine.session.absence` — correspondence tables: a person away too long is played by the
  table's bot until they come back.
- :mod:`engine.session.games` — the registry of hosted games (``SPECS``), above the rules.
- :mod:`engine.session.audit` — a stored game's whole log replayed and summed up, to compare two copies.
"""

from __future__ import annotations

from engine.session.absence import bot_seconds
from engine.session.ai_pool import AiPool, default_workers
from engine.session.contract import (
    AUTO,
    DECISION,
    LOBBY,
    Deadline,
    GameSpec,
    RepoBusy,
    RepoConflict,
    RepoCorrupt,
    RepoEnded,
    Repository,
    RepoStale,
    RepoUnavailable,
    ResultSpec,
    SeatEvent,
    SeatSpec,
    SessionError,
    SessionSettings,
    Snapshot,
    StoredTable,
    StoredTail,
    StoredTimer,
    with_stand_ins,
)
from engine.session.place import Place
from engine.session.sessions import Sessions
from engine.session.table import Listener, Table, Update
from engine.session.timers import Coordinator, SingleProcess

__all__ = [
    "AUTO",
    "DECISION",
    "LOBBY",
    "AiPool",
    "Coordinator",
    "Deadline",
    "GameSpec",
    "Listener",
    "Place",
    "RepoBusy",
    "RepoConflict",
    "RepoCorrupt",
    "RepoEnded",
    "RepoStale",
    "RepoUnavailable",
    "Repository",
    "ResultSpec",
    "SeatEvent",
    "SeatSpec",
    "SessionError",
    "SessionSettings",
    "Sessions",
    "SingleProcess",
    "Snapshot",
    "StoredTable",
    "StoredTail",
    "StoredTimer",
    "Table",
    "Update",
    "bot_seconds",
    "default_workers",
    "with_stand_ins",
]
