"""A live table in memory, what one step changed, and the listener that draws it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.clock import Handle
from engine.core import CHANCE, Event
from engine.session.contract import GameSpec, ResultSpec, SeatEvent, SeatSpec, SessionSettings
from engine.session.place import Place, check_place

__all__ = ["Listener", "Table", "Update"]


# --------------------------------------------------------------------------- tables


@dataclass
class Table:
    """A live table in memory: the stored setup plus the replayed state."""

    id: int
    spec: GameSpec
    guild_id: int
    channel_id: int
    host_id: int
    options: dict[str, Any]
    table_options: dict[str, Any]
    status: str
    seats: list[SeatSpec]
    seed: int | None = None
    state: Any = None
    version: int = 0
    window: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timers: list[Handle] = field(default_factory=list)
    deadline: float | None = None
    lobby_until: float | None = None  # when a lobby closes if nobody starts it (shown on it)
    opened_at: float = 0.0  # clock time the current decision window opened
    snapshot_version: int = 0  # the version of the newest snapshot stored for this table
    results: list[ResultSpec] | None = None  # the standings, once finished (seat order)
    seat_events: list[SeatEvent] = field(default_factory=list)  # timeouts and resignations, in order
    stale: bool = False  # a write's outcome is unknown, or another process wrote: sync before acting
    thinking: set[int] = field(default_factory=set)  # AI seats whose decision is in the AI pool now
    away: dict[int, int] = field(default_factory=dict)
    """Person seat -> the decisions in a row they let time out. Read from the stored log when a
    timeout first needs it (:meth:`Absence.recount`), so it survives a restart; kept up to date in
    memory from then on."""
    counted: int = -1
    """The :attr:`generation` whose ``away`` was read from the store (-1: not yet): writes of
    another process pulled in since may hold moves that ended a run of timeouts."""
    generation: int = 0
    """Bumped whenever writes by another process were pulled into this table: caches kept beside it
    (the hub's message ids and what each message shows) are stale from then on."""

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat of a user at this table, if seated."""
        for number, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return number
        return None

    def check_place(self, place: Place, user_id: int) -> None:
        """Raise SessionError("not_valid") unless the table may be reached from ``place`` (see
        :func:`engine.session.place.check_place`)."""
        check_place(place, self.guild_id, self.channel_id, self.seats, user_id)

    def owing(self) -> list[int]:
        """Return the seats that owe an action now (never shown to players: it reveals choices)."""
        if self.state is None or self.status != "playing":
            return []
        return [s for s in self.spec.game.to_move(self.state) if s != CHANCE]

    def humans_owing(self) -> list[int]:
        """Return the human seats that owe an action now."""
        return [s for s in self.owing() if not self.seats[s].is_ai]

    def humans_to_move(self, state: Any) -> list[int]:
        """Return the human seats that owe an action in ``state`` (e.g. one not yet committed)."""
        return [s for s in self.spec.game.to_move(state) if s != CHANCE and not self.seats[s].is_ai]

    def timeout_s(self, settings: SessionSettings) -> float:
        """Return this table's decision timeout in seconds."""
        return float(self.table_options.get("decision_timeout_s", settings.decision_timeout_s))

    def ai_delay_s(self, settings: SessionSettings) -> float:
        """Return how long this table's bot seats wait before acting (a server may choose it)."""
        return float(self.table_options.get("ai_delay_s", settings.ai_delay_s))

    def people(self) -> list[int]:
        """Return the seats still the person's who sat there (not resigned; maybe away)."""
        return [s for s, spec in enumerate(self.seats) if spec.user_id is not None and not spec.resigned]

    def present(self) -> list[int]:
        """Return the people's seats they play themselves now (not taken over while they are away)."""
        return [s for s in self.people() if self.seats[s].away is None]

    def everyone_away(self, decisions: int) -> bool:
        """Return True when every person at the table let their last ``decisions`` decisions in a
        row time out, or is away with a bot playing their seat (a table where someone still plays
        goes on)."""
        people = self.people()
        return bool(people) and all(self.seats[seat].away is not None or self.away.get(seat, 0) >= decisions
                                    for seat in people)


@dataclass
class Update:
    """What one accepted step changed, for the renderer."""

    table: Table
    events: list[Event]
    actors: list[int]  # seats whose actions were applied (CHANCE included), in order
    new_window: bool
    timed_out: list[int] = field(default_factory=list)
    forced: list[tuple[int, Any]] = field(default_factory=list)
    """(seat, action) the session played unasked because the rules left nothing else (logged)."""
    before: Any = None  # the state before these actions (replay ``steps`` from it for states in between)
    steps: list[tuple[int, Any]] = field(default_factory=list)  # (seat, action) applied, in order
    step_events: list[list[Event]] = field(default_factory=list)  # the events of each step (``events`` split)
    origin: object | None = None
    """Opaque: who asked for this step (the caller's ``origin``), handed back to the listener; None
    for a step nobody asked for in this call (a timer's, the AI's after a pause)."""

    @property
    def start(self) -> int:
        """Return the version before these actions (the first one's position in the log)."""
        return self.table.version - len(self.steps)


class Listener(Protocol):
    """The renderer (a cog): called after every committed change, under the table's lock.

    ``origin`` (and :attr:`Update.origin`) is opaque to the session: whatever the caller of the
    operation that made the change passed as its ``origin`` (the Discord side: the click to answer),
    handed back as is; None when no caller asked for the change (a timer, the AI after a pause).
    """

    async def lobby_changed(self, table: Table, *, origin: object | None) -> None:
        """Redraw the lobby."""
        ...

    async def opened(self, table: Table) -> None:
        """A new lobby opened (after its first ``lobby_changed``): tell whoever asked to hear of one."""
        ...

    async def start_soon(self, table: Table) -> None:
        """A scheduled lobby starts shortly: remind its seated people."""
        ...

    async def started(self, table: Table, *, origin: object | None) -> None:
        """The game began (seats are final)."""
        ...

    async def played(self, update: Update) -> None:
        """Actions were applied; prompt the seats that now owe a decision if the window is new."""
        ...

    async def reminded(self, table: Table, seats: list[int]) -> None:
        """Remind human seats whose decision timer is about to run out."""
        ...

    async def waited(self, table: Table) -> None:
        """A correspondence decision window has been open for its patience
        (:func:`engine.session.pace.patience_s`) and still waits for people: e.g. tell the last few
        it waits for them. At that moment of each such window (derived from its stored deadline,
        so also after a restart), whatever else happened in it."""
        ...

    async def finished(self, table: Table, result: dict[str, Any], *, origin: object | None) -> None:
        """The game is over."""
        ...

    async def ended(self, table: Table, reason: str, *, origin: object | None) -> None:
        """The table was cancelled or abandoned (``reason``: "cancelled", "corrupt", ...)."""
        ...

    async def resigned(self, table: Table, seat: int, *, origin: object | None) -> None:
        """A person handed their seat to a bot (``table.seats[seat].stand_in``) mid-game."""
        ...

    async def away(self, table: Table, seat: int, *, origin: object | None) -> None:
        """A person's seat changed hands for a while: ``table.seat_events[-1]`` says how ("away": the
        table's bot ``table.seats[seat].away`` plays it now; "back": its person plays it again)."""
        ...
