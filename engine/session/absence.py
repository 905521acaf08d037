"""Absence in correspondence tables: a seat played by the table's bot while its person is away.

A correspondence table runs for days, and a person may vanish for a while. When a person lets
:func:`takeover_after` decisions in a row time out (the table option ``takeover_after``, by default
:data:`~engine.session.options.TAKEOVER_DECISIONS`), the table's bot plays their seat, at bot speed,
until they come back. Live tables never take a seat over: a timeout there plays only what was owed.

- **Away**: recorded as an ``away`` seat event (with the bot's level and the clock time) after the
  timed-out decision was played as always; from then on the seat is the bot's
  (:attr:`SeatSpec.away`): its decisions are made by automatic play like any bot seat's, and its
  person gets no deadline and no reminder.
- **Back**: any click or command of that person at that table (a move, a private panel, a command in
  the table's channel) records a ``back`` event and the seat is theirs again: from the decision it
  owes now if the bot has not made it yet (with a deadline of its own), else from its next one.
- **The bot's level**: that of the table's first bot seat, else Easy.
- **Abandonment** (issue 42) still holds: a seat taken over counts as away until its person comes
  back, so a table whose every person is away is abandoned, never played out by bots to a counted
  result. A takeover never makes the last person who plays their own seat a bot's: they keep their
  deadline, and when they too miss :data:`~engine.session.options.AWAY_DECISIONS` in a row the
  table is abandoned.
- **Over restarts**: the count of timeouts in a row (the one the abandonment reads too) is no
  stored number: it is read again from the stored log when a timeout first needs it after a load
  (:meth:`Absence.recount`, :func:`~engine.session.missed.missed_in_a_row`): each decision that
  timed out is a ``timeout`` seat event, each move of the person's own an action the timeout
  agent did not play. So a person who missed one decision before a restart and one after is
  taken over, and a table nobody plays is abandoned, as without the restart; the takeover itself
  is an ``away`` event, made once.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace

from engine.core import IllegalAction
from engine.session.contract import SeatEvent
from engine.session.missed import missed_in_a_row, timed_out
from engine.session.options import TAKEOVER_DECISIONS, TAKEOVER_LEVEL
from engine.session.pace import CORRESPONDENCE, pace_of
from engine.session.play import Play
from engine.session.table import Table

__all__ = ["TAKEOVER_OPTION", "Absence", "bot_level", "bot_seconds", "takeover_after"]

log = logging.getLogger("engine.session")

TAKEOVER_OPTION = "takeover_after"
"""The table option naming how many decisions in a row a person may miss before the bot plays for them."""


def takeover_after(table: Table) -> int:
    """Return how many decisions in a row a person of this table may let time out before the bot
    plays their seat."""
    return max(1, int(table.table_options.get(TAKEOVER_OPTION, TAKEOVER_DECISIONS)))


def bot_level(table: Table) -> str:
    """Return the level that plays an away person's seat: the table's first bot seat's, else Easy."""
    for seat in table.seats:
        if seat.ai_level is not None:
            return seat.ai_level
    return TAKEOVER_LEVEL if TAKEOVER_LEVEL in table.spec.agents else sorted(table.spec.agents)[0]


def bot_seconds(events: Sequence[SeatEvent], now: float) -> dict[int, float]:
    """Return, for every seat a bot played while its person was away, for how long (clock seconds;
    a stretch not ended by a ``back`` lasts until ``now``)."""
    since: dict[int, float] = {}
    total: dict[int, float] = {}
    for event in events:
        at = float(event.detail.get("at", now))
        if event.kind == "away" and event.seat not in since:
            since[event.seat] = at
        elif event.kind in ("back", "resign") and event.seat in since:
            total[event.seat] = total.get(event.seat, 0.0) + max(0.0, at - since.pop(event.seat))
    for seat, start in since.items():
        total[seat] = total.get(seat, 0.0) + max(0.0, now - start)
    return total


class Absence:
    """Hands away people's seats to the table's bot and gives them back, through the play it is given."""

    def __init__(self, play: Play) -> None:
        self.play = play
        self.repo = play.repo
        self.clock = play.clock
        self.settings = play.settings
        self.listener = play.listener

    async def recount(self, table: Table) -> None:
        """Read the table's counts of timeouts in a row from the stored log, unless they were read
        since the table was loaded or last took in another process's writes (under its lock; the
        table up to date). Until a timeout needs them, a move or a return only clears a count."""
        if table.counted == table.generation or table.status != "playing" or table.seed is None:
            return
        # The whole log is read only when some run of timeouts may be going on.
        actions = (await self.repo.tail(table.id, 0)).actions[:table.version] if timed_out(table.seat_events) else ()
        try:
            table.away = missed_in_a_row(table.spec, len(table.seats), table.seed, table.options, actions,
                                         table.seat_events)
        except (IllegalAction, ValueError, KeyError, TypeError):
            # The table plays on from its snapshot, so a log that no longer replays from the start
            # must not stop its timeouts: the counts this process kept stand, as before a restart.
            log.warning("table %s: its missed decisions could not be read from its log", table.id, exc_info=True)
        table.counted = table.generation

    def due(self, table: Table, timed_out: Sequence[int]) -> list[int]:
        """Return the seats among ``timed_out`` the bot plays from now on (their count of timeouts in
        a row reached the table's limit), never leaving the table without a person playing."""
        if table.status != "playing" or pace_of(table.timeout_s(self.settings)) != CORRESPONDENCE:
            return []
        limit = takeover_after(table)
        present = table.present()
        chosen = []
        for seat in timed_out:
            if seat not in present or table.away.get(seat, 0) < limit:
                continue
            if not [p for p in present if p != seat and p not in chosen]:
                continue  # the last person playing: they keep their deadline (abandoned when they miss too)
            chosen.append(seat)
        return chosen

    async def take_over(self, table: Table, seats: Sequence[int]) -> None:
        """The bot of the table's level plays these seats from now on (recorded first, then told).
        Raises Stale when another process moved the table first."""
        level = bot_level(table)
        for seat in seats:
            event = SeatEvent(table.version, seat, "away", {"level": level, "at": self.clock.now()})
            await self.repo.add_seat_event(table.id, event)
            table.seat_events.append(event)
            table.seats[seat] = replace(table.seats[seat], away=level)
            await self.play.notify(self.listener.away(table, seat, origin=None))
            await self.play.bot_takes_over(table, seat)

    async def came_back(self, table: Table, user_id: int, *, origin: object | None = None) -> bool:
        """A person did something at the table (under its lock): if a bot plays their seat while
        they are away, the seat is theirs again (recorded first, then told). Return whether it was."""
        seat = table.seat_of(user_id)
        if table.status != "playing" or seat is None or table.seats[seat].away is None:
            return False
        event = SeatEvent(table.version, seat, "back", {"at": self.clock.now()})
        await self.repo.add_seat_event(table.id, event)
        table.seat_events.append(event)
        table.seats[seat] = replace(table.seats[seat], away=None)
        table.away.pop(seat, None)  # a fresh start: the count of timeouts in a row begins again
        await self.play.person_takes_back(table, seat)
        await self.play.notify(self.listener.away(table, seat, origin=origin))
        return True
