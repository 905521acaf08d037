"""The session layer's contract with the store and the hosting side: records, errors, settings.

The :class:`Repository` protocol is storage as the session needs it (``wiring.storage`` binds
it to ``db.Store``); :class:`GameSpec` is a game as the session hosts it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engine.core import Agent, Game
from engine.session.options import DEFAULT_AI_DELAY_S, DEFAULT_DECISION_TIMEOUT_S

__all__ = [
    "AUTO",
    "DECISION",
    "LOBBY",
    "START",
    "Deadline",
    "GameSpec",
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
    "Snapshot",
    "Stale",
    "StoredTable",
    "StoredTail",
    "StoredTimer",
    "with_stand_ins",
]

DECISION = "decision"
"""The timer of the current decision window (version = the window): the absent humans' timeout."""
AUTO = "auto"
"""The timer of automatic play (version = the table's version): an AI turn after its delay, or the
end of a game whose last action was written but not its result. Stored with the append that makes
it due, so a restart (or another process) knows of it without loading the table."""
LOBBY = "lobby"
"""The timer of a lobby nobody starts: armed at its every change (a join, a leave, a bot added or
removed), it closes the lobby when it runs out, so a forgotten table never holds its channel."""
START = "start"
"""The timer of a scheduled table's start (``/<game> new start_at:``, :mod:`engine.session.schedule`):
stored when the lobby opens, so the table starts at its time after a restart too."""

Deadline = tuple[str, float, int]
"""A timer as the session persists it: (kind, due in epoch seconds, version it belongs to)."""


# --------------------------------------------------------------------------- errors


class SessionError(Exception):
    """Raised when a request cannot be served; ``code`` picks the user-facing message."""

    def __init__(self, code: str, **details: Any) -> None:
        super().__init__(code)
        self.code = code
        self.details = details


class Stale(Exception):
    """An append was refused: another writer moved the table first (the cache must be refreshed)."""


class RepoBusy(Exception):
    """Raised by a repository when the channel already has an active table."""


class RepoStale(Exception):
    """Raised by a repository when an append names a version the table has moved past."""


class RepoEnded(Exception):
    """Raised by a repository when a table to finish (or to cancel) has ended already: another
    process wrote its result (or ended it) at the same moment, and that process tells the players.
    Nothing was written; ``status`` is the table's stored one."""

    def __init__(self, status: str) -> None:
        super().__init__(f"the table is {status} already")
        self.status = status


class RepoConflict(Exception):
    """Raised by a repository when a user already sits at the table."""


class RepoCorrupt(Exception):
    """Raised by a repository when a stored row cannot be decoded."""


class RepoUnavailable(Exception):
    """Raised by a repository when the database cannot be reached (connection lost, server down);
    nothing was written. The caller answers "reconnecting, try again" and changes nothing."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat: a Discord user (by id) or an AI level, with the name shown at the table.

    ``stand_in`` is the AI level playing for a person who resigned mid-game (the seat stays theirs
    in the result, ranked last among the people at the table). ``away`` is the AI level playing for
    a person who is away (a correspondence table took the seat over after their timeouts) until
    they come back: the seat is still theirs, in the result as in the game.
    """

    display_name: str
    user_id: int | None = None
    ai_level: str | None = None
    stand_in: str | None = None
    away: str | None = None

    @property
    def is_ai(self) -> bool:
        """Return True when an AI plays this seat now (a bot seat, a person's after resigning or
        while they are away)."""
        return self.ai_level is not None or self.stand_in is not None or self.away is not None

    @property
    def level(self) -> str | None:
        """Return the AI level that plays this seat now, if any."""
        return self.ai_level or self.stand_in or self.away

    @property
    def resigned(self) -> bool:
        """Return True for a person's seat handed to a bot."""
        return self.stand_in is not None


@dataclass(frozen=True, slots=True)
class SeatEvent:
    """Something that happened to a seat at game version ``version``.

    ``timeout``: the game's default was played for an absent person (from this version on, the
    actions of that window); ``resign``: the person handed the seat to the AI ``detail["level"]``;
    ``away``: the AI ``detail["level"]`` plays the seat of a person who let too many decisions time
    out, until ``back``: they came back (both carry ``detail["at"]``, the clock time, so the
    standings can say how long a bot played the seat). Stored beside the action log, so a restart
    and a replay know who played which seat from when.
    """

    version: int
    seat: int
    kind: str
    detail: Mapping[str, Any] = field(default_factory=dict)


def with_stand_ins(seats: Sequence[SeatSpec], events: Sequence[SeatEvent]) -> tuple[SeatSpec, ...]:
    """Return the seats as they are now: a person who resigned is played by the bot they chose, a
    person away (and not back since) by the table's bot."""
    specs = list(seats)
    for event in events:
        if not 0 <= event.seat < len(specs):
            continue
        if event.kind == "resign":
            specs[event.seat] = replace(specs[event.seat], stand_in=str(event.detail.get("level", "medium")),
                                        away=None)
        elif event.kind == "away":
            specs[event.seat] = replace(specs[event.seat], away=str(event.detail.get("level", "easy")))
        elif event.kind == "back":
            specs[event.seat] = replace(specs[event.seat], away=None)
    return tuple(specs)


@dataclass(frozen=True, slots=True)
class ResultSpec:
    """One seat's final line: score, placement (1 = winner) and whether it won."""

    seat: int
    score: int
    placement: int
    is_winner: bool


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A cached state: ``GAME.dumps`` of the state after ``version`` actions, and its window."""

    version: int
    window: int
    state: str


@dataclass(frozen=True, slots=True)
class StoredTimer:
    """An armed timer as stored: fire ``kind`` for the table at ``due`` (epoch s), valid at ``version``.

    ``span`` is the table's decision time when known (a DECISION timer's reminders depend on the
    table's pace, :func:`engine.session.pace.reminder_offsets`); None: the live reminder only.
    ``game`` is the table's game when known (a DECISION timer's waited moment is only for a game
    whose seats decide at once); None: as if it were one.
    """

    table_id: int
    kind: str
    due: float
    version: int | None
    span: float | None = None
    game: str | None = None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """What the repository holds about a table: setup, seats, the latest snapshot (if any) and the
    actions after it (the whole log without one), and its armed timers."""

    id: int
    game: str
    options: dict[str, Any]
    table_options: dict[str, Any]
    seed: int | None
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    seats: tuple[SeatSpec, ...]
    actions: tuple[tuple[int, Any], ...]
    snapshot: Snapshot | None = None
    timers: tuple[StoredTimer, ...] = ()
    events: tuple[SeatEvent, ...] = ()  # seat events in order (resignations already in ``seats``)

    @property
    def version(self) -> int:
        """Return the number of actions in the log."""
        return (self.snapshot.version if self.snapshot is not None else 0) + len(self.actions)


@dataclass(frozen=True, slots=True)
class StoredTail:
    """What changed since a version: the table's status and seats now, and the actions after it."""

    status: str
    host_id: int
    seats: tuple[SeatSpec, ...]
    actions: tuple[tuple[int, Any], ...]
    events: tuple[SeatEvent, ...] = ()  # every seat event of the table (resignations already in ``seats``)


class Repository(Protocol):
    """Storage as the session needs it (``wiring.storage`` binds it to ``db.Store``).

    Every method may raise RepoUnavailable when the database cannot be reached.
    """

    async def create(self, game: str, guild_id: int, channel_id: int, host_id: int,
                     options: dict[str, Any], table_options: dict[str, Any],
                     seats: Sequence[SeatSpec]) -> int:
        """Return the id of a new lobby; raise RepoBusy when the channel has an active table."""
        ...

    async def add_seat(self, table_id: int, seat: SeatSpec) -> None:
        """Add a lobby seat at the end; raise RepoConflict when the user already sits there."""
        ...

    async def remove_seat(self, table_id: int, seat: int) -> None:
        """Remove a lobby seat (later seats move up)."""
        ...

    async def start(self, table_id: int, seats: Sequence[SeatSpec], seed: int) -> None:
        """Record the final seating and the seed; the table is playing."""
        ...

    async def append(self, table_id: int, expected: int, actions: Sequence[tuple[int, Any]],
                     deadlines: Sequence[Deadline] = ()) -> None:
        """Append actions at version ``expected`` atomically; raise RepoStale if it moved.

        ``deadlines`` are persisted in the same write: the timers these actions arm cost no
        second commit, and they are written only if the actions are.
        """
        ...

    async def finish(self, table_id: int, results: Sequence[ResultSpec]) -> None:
        """Mark the table finished with its results, in one transaction (its timers are cleared);
        raise RepoEnded when it has ended already (another process finished it first)."""
        ...

    async def cancel(self, table_id: int, status: str) -> None:
        """End the table as ``cancelled`` or ``abandoned`` (its timers are cleared); raise RepoEnded
        when it has ended already (another process finished or ended it first)."""
        ...

    async def load(self, table_id: int) -> StoredTable:
        """Return the stored table (snapshot, tail, timers); raise KeyError when there is none,
        RepoCorrupt for a malformed row."""
        ...

    async def tail(self, table_id: int, since: int) -> StoredTail:
        """Return the table's status and seats now and its actions from version ``since`` on."""
        ...

    async def active_in(self, channel_id: int) -> int | None:
        """Return the id of the channel's table in the lobby or playing, if any."""
        ...

    async def timers(self, buckets: Sequence[int] | None = None, bucket_count: int = 1, *,
                     table_ids: Sequence[int] | None = None) -> list[StoredTimer]:
        """Return every armed timer (one query), or those of tables with ``id % bucket_count`` in
        ``buckets``, or those of ``table_ids``."""
        ...

    async def set_deadline(self, table_id: int, kind: str, due: float, window: int) -> None:
        """Persist a timer (epoch seconds) valid for ``window``."""
        ...

    async def clear_deadline(self, table_id: int, kind: str) -> None:
        """Forget a table's stored timer ``kind`` (nothing when there is none)."""
        ...

    async def save_snapshot(self, table_id: int, snapshot: Snapshot) -> None:
        """Keep ``snapshot`` as the table's cached state unless a newer one is stored."""
        ...

    async def add_seat_event(self, table_id: int, event: SeatEvent) -> bool:
        """Record a seat event (a timeout, a resignation); return False if it was already recorded.

        Raise ValueError for a resignation of a bot seat or a second one of the same seat.
        """
        ...

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """Return the settings a server's managers chose (only the keys that were set)."""
        ...

    async def set_server_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set one of a server's settings (``None``: back to the default)."""
        ...

    async def active_in_guild(self, guild_id: int) -> list[int]:
        """Return the ids of a server's tables in the lobby or playing."""
        ...

    async def active_of_user(self, user_id: int) -> list[int]:
        """Return the ids of the tables in the lobby or playing where a user sits, on every server."""
        ...


# --------------------------------------------------------------------------- game registry


def _no_turns(state: Any) -> Hashable:
    return None


def _never_forced(state: Any, seat: int) -> Any:
    return None


@dataclass(frozen=True)
class GameSpec:
    """A game as the session hosts it: its engine, AI levels and what plays for an absent human."""

    game: Game
    agents: Mapping[str, Agent]
    timeout_agent: Agent
    timeout_label: str  # what the timeout does, for the renderer ("returned to camp", ...)
    min_players: int
    max_players: int
    turn_of: Callable[[Any], Hashable] = _no_turns
    """Names the turn in progress: a timeout plays an absent seat's actions only while it stays the
    same, so it plays what was owed and never the seat's next turn (Sakkara: returning the used
    tiles, then one's own turn; Indus: a seat moving again when the others have nothing left)."""
    forced: Callable[[Any, int], Any] = _never_forced
    """Returns the action the session plays for ``seat`` without asking, or None: only where the
    game's rules allow it (Sakkara, answer 2: a single legal action). It is logged like a click."""
    deciding: Callable[[Any], int] | None = None
    """For a game whose seats decide at once and in secret (Incan Gold): how many seats decide in
    the state's current window (public: the board counts them). Who still owes a decision there is
    secret and never shown. None: one seat moves at a time, and whose turn it is is public."""

    @property
    def name(self) -> str:
        """Return the engine's game name."""
        return self.game.name


@dataclass(frozen=True)
class SessionSettings:
    """Table defaults from the environment; a lobby may override the decision timeout."""

    decision_timeout_s: float = DEFAULT_DECISION_TIMEOUT_S
    reminder_before_s: float = 30.0
    ai_delay_s: float = DEFAULT_AI_DELAY_S
    ai_budget_s: float = 10.0
    """The most an AI decision may think (in a worker process); past it, the timeout agent plays."""
    ai_name: Callable[[str, int], str] = field(default=lambda level, number: f"{level} {number}")
    """Names the AI seat of ``level`` that is the ``number``-th of its level at the table; the Discord
    layer passes its translated wording (the session holds no user-facing text)."""
