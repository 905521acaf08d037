"""A board redrawn while its table waits: Incan Gold's "k of n have chosen".

A secret choice changes nothing else public (who has chosen stays secret), so a card decided at a
normal pace is drawn once, at its reveal: the budget is one public edit per card. A press on the
board itself redraws the count through its own interaction (exempt from the rate limits; see
:meth:`CountRedraw.pressed`). Choices made elsewhere (a DM prompt, a timer) are shown by a timer:
a table kept waiting :data:`COUNT_REDRAW_AFTER_S` or more (a slow player) sees how many have
chosen, redrawn at most that often; a correspondence table waits an eighth of its decision time
(:func:`engine.session.pace.patience_s`), so people who answer hours apart do not cost an edit each.
The redraw is a timer in ``Table.timers``: a table that ends drops it, and a new decision window
makes it do nothing (that window's own redraw shows the count anyway). A correspondence window's
first redraw is not one: the session's waited moment of the window (a timer derived from its
stored deadline, :meth:`CountRedraw.waited`) draws it, also after a restart or with the table
unloaded meanwhile, and the table may leave memory while it waits.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from cogs.table.messages.hub import TableHub
from cogs.table.messages.text import decision_time
from engine.clock import Handle
from engine.session import Table
from engine.session.pace import CORRESPONDENCE, pace_of, patience_s

__all__ = ["COUNT_REDRAW_AFTER_S", "CountRedraw", "while_waiting"]

COUNT_REDRAW_AFTER_S = 30.0
"""The count is redrawn only in a decision window open this long, then at most this often (with
5-30 s decisions a 10 s threshold cost 1.2 extra edits per card)."""


def while_waiting(hub: TableHub, table: Table, due: float, run: Callable[[Table], Awaitable[None]],
                  fired: Callable[[], None] | None = None) -> None:
    """Arm a timer of the table that runs ``run`` at ``due`` if the decision window open now is still
    open then: under the table's lock, with its readers and messages loaded. ``fired`` runs when the
    timer fires, whatever it finds (the caller's mark of an armed timer). A timer in ``Table.timers``:
    a table that ends drops it; a reveal meanwhile (a new window) makes it do nothing."""
    window = table.window
    sessions = hub.bot.sessions
    armed: list[Handle] = []

    async def fire() -> None:
        # Gone from the table's timers once fired: a table with none pending may be unloaded when idle.
        if armed and armed[0] in table.timers:
            table.timers.remove(armed[0])
        if fired is not None:
            fired()
        live = sessions.loaded(table.id)
        if live is None or live.status != "playing" or live.window != window:
            return  # ended, or the window closed (its reveal drew what this would have)
        async with live.lock:
            if live.status != "playing" or live.window != window:
                return
            await hub.readers.load(live)
            await hub.prepare(live)
            await run(live)

    armed.append(sessions.clock.call_at(due, fire))
    table.timers.append(armed[0])


class CountRedraw:
    """The pending count redraw of each table: at most one armed per table and decision window."""

    def __init__(self, redraw: Callable[[TableHub, Table], Awaitable[None]]) -> None:
        self.redraw = redraw  # the renderer's redraw of the expedition message, as the table stands
        self._armed: dict[int, int] = {}  # table id -> the window a redraw is armed for
        self._drawn_at: dict[int, float] = {}  # table id -> when its count was last redrawn

    def chosen(self, hub: TableHub, table: Table) -> None:
        """A choice was made: redraw the count once for a burst of choices, if the window stays open."""
        window = table.window
        if self._armed.get(table.id) == window:
            return
        clock = hub.bot.sessions.clock
        span = decision_time(table)
        every = patience_s(span, COUNT_REDRAW_AFTER_S)
        if pace_of(span) == CORRESPONDENCE and clock.now() < table.opened_at + every:
            return  # the window's waited moment redraws it (:meth:`waited`)
        self._armed[table.id] = window

        def fired() -> None:
            if self._armed.get(table.id) == window:
                del self._armed[table.id]

        async def redraw(live: Table) -> None:
            self._drawn_at[table.id] = clock.now()
            with hub.readers.publicly(live):
                await self.redraw(hub, live)

        last = self._drawn_at.get(table.id, float("-inf"))
        while_waiting(hub, table, max(clock.now(), table.opened_at + every, last + every), redraw, fired)

    async def waited(self, hub: TableHub, table: Table) -> None:
        """A correspondence window has been open for its patience (the session's timer, derived
        from the stored deadline): redraw the count as it stands. An edit that would show nothing
        new is not sent (the message book knows what the board shows, in this process)."""
        self._drawn_at[table.id] = hub.bot.sessions.clock.now()
        await self.redraw(hub, table)

    def pressed(self, hub: TableHub, table: Table) -> None:
        """A press on the board was answered by its redraw, which shows the count as it is now."""
        self._drawn_at[table.id] = hub.bot.sessions.clock.now()

    def forget(self, table: Table) -> None:
        """A table has finished or ended: nothing of it is redrawn any more."""
        self._armed.pop(table.id, None)
        self._drawn_at.pop(table.id, None)
