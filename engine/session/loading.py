"""A table rebuilt from the store: the latest snapshot plus a short tail of actions replayed.

Tables are loaded on demand (a click, a command, a timer), so a restart costs nothing per table.
A snapshot (``GAME.dumps`` of the state and its decision window) is stored every
:data:`SNAPSHOT_EVERY` actions; loading replays at most that many actions after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core import CHANCE, Event, resolve_chance
from engine.session.contract import DECISION, LOBBY, GameSpec, Snapshot, StoredTable, StoredTail, with_stand_ins
from engine.session.table import Table

__all__ = ["SNAPSHOT_EVERY", "apply_actions", "automatic", "fill", "fill_tail", "needs_snapshot", "snapshot_of", "step"]

SNAPSHOT_EVERY = 32
"""Actions between stored snapshots: a load replays at most this many (a few milliseconds)."""


def step(spec: GameSpec, state: Any, seat: int, action: Any) -> tuple[Any, list[Event], bool]:
    """Apply one action to ``state``; return the new state, events and whether a window opened."""
    game = spec.game
    before = set(game.to_move(state))
    state, events = game.apply(state, seat, action)
    after = game.to_move(state)
    opened = seat == CHANCE or seat in after or not set(after) <= before
    return state, events, opened


def automatic(table: Table, state: Any) -> tuple[Any, int, bool] | None:
    """Return the next automatic (action, seat, forced) that needs no AI: a chance draw or an
    action the rules let the session play unasked (``GameSpec.forced``)."""
    game = table.spec.game
    movers = game.to_move(state)
    if not movers:
        return None
    if movers == [CHANCE]:
        return resolve_chance(game, state), CHANCE, False
    for seat in movers:
        action = table.spec.forced(state, seat)
        if action is not None:
            return action, seat, True
    return None


def apply_actions(table: Table, actions: Iterable[tuple[int, Any]]) -> int:
    """Replay stored ``actions`` onto the table's state (they follow its version); return how many."""
    count = 0
    for seat, action in actions:
        table.state, _, opened = step(table.spec, table.state, seat, action)
        table.version += 1
        count += 1
        if opened:
            table.window = table.version
    return count


def fill(table: Table, stored: StoredTable) -> None:
    """Set ``table`` (same id and game) to what is stored: seats, status, state, window, deadline.

    Raises ValueError, KeyError, TypeError or the engine's IllegalAction for rows that cannot be
    replayed (the caller abandons such a table rather than guessing).
    """
    table.options, table.table_options = stored.options, stored.table_options
    table.status, table.seats, table.seed, table.host_id = stored.status, list(stored.seats), stored.seed, \
        stored.host_id
    table.seat_events = list(stored.events)
    table.deadline = None
    table.lobby_until = next((timer.due for timer in stored.timers if timer.kind == LOBBY), None)
    if stored.status != "playing":
        table.state, table.version, table.window = None, 0, 0
        return
    if stored.seed is None:
        raise ValueError("a playing table without a seed")
    game = table.spec.game
    if stored.snapshot is not None:
        table.state = game.loads(stored.snapshot.state)
        table.version, table.window = stored.snapshot.version, stored.snapshot.window
        table.snapshot_version = stored.snapshot.version
    else:
        table.state = game.setup(len(stored.seats), stored.seed, stored.options)
        table.version = table.window = 0
    apply_actions(table, stored.actions)
    for timer in stored.timers:
        if timer.kind == DECISION and timer.version == table.window:
            table.deadline = timer.due


def fill_tail(table: Table, tail: StoredTail) -> bool:
    """Bring a cached table up to date with what another process wrote; return whether anything changed.

    Only a change within the same status is applied here (seats in the lobby, actions in play);
    a status change needs a full reload (the caller checks ``tail.status`` first).
    """
    changed = False
    if table.status == "lobby":
        seats = list(tail.seats)
        changed = seats != table.seats or tail.host_id != table.host_id
        table.seats, table.host_id = seats, tail.host_id
        return changed
    if len(tail.events) != len(table.seat_events):
        # A seat changed hands (a resignation) or a timeout was told in another process. The tail
        # of a game in play carries no seats (they are fixed at the start): the events say who
        # plays each seat now.
        table.seats = list(tail.seats) if tail.seats else list(with_stand_ins(table.seats, tail.events))
        table.seat_events = list(tail.events)
        changed = True
    if tail.actions:
        apply_actions(table, tail.actions)
        changed = True
    return changed


def needs_snapshot(table: Table) -> bool:
    """Return True when the table has moved :data:`SNAPSHOT_EVERY` actions past its last snapshot."""
    return table.state is not None and table.version - table.snapshot_version >= SNAPSHOT_EVERY


def snapshot_of(table: Table) -> Snapshot:
    """Return the table's current state as a snapshot."""
    return Snapshot(table.version, table.window, table.spec.game.dumps(table.state))
