"""A lobby's own timers and its start (:class:`Opening`): shared by the people's commands
(:class:`engine.session.sessions.Sessions`) and a scheduled start's timer
(:class:`engine.session.timer_work.TimerWork`), so a table starts one way whoever starts it.

Every method is called with the table's lock held.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets

from engine.core import splitmix64
from engine.session.alarms import RETRY_S, START_SOON
from engine.session.contract import LOBBY, START, RepoUnavailable, SeatSpec, SessionError, Stale, StoredTimer
from engine.session.options import LOBBY_IDLE_S
from engine.session.pace import lobby_idle_s
from engine.session.play import Play
from engine.session.schedule import START_AT
from engine.session.table import Table

__all__ = ["Opening"]

log = logging.getLogger("engine.session")


class Opening:
    """Keeps a lobby open, schedules its start, seats its bots and starts it, through ``play``."""

    def __init__(self, play: Play) -> None:
        self.play = play

    async def keep_open(self, table: Table) -> None:
        """Arm (again) the timer that closes the lobby if nobody starts it: after its last change,
        for :data:`LOBBY_IDLE_S`, or the table's decision time when that is longer, a correspondence
        lobby at least a day (:func:`engine.session.pace.lobby_idle_s`); a scheduled lobby that long
        after its start at the earliest (it may wait for its host then). Stored, so a restart (or
        another process) closes it too."""
        play = self.play
        idle = lobby_idle_s(table.timeout_s(play.settings), LOBBY_IDLE_S)
        due = max(play.clock.now(), float(table.table_options.get(START_AT, 0.0))) + idle
        table.lobby_until = due  # the lobby states it
        await self._store_timer(table, LOBBY, due)

    async def schedule(self, table: Table) -> None:
        """Arm a scheduled lobby's start (and its reminder), stored: it outlives a restart."""
        start_at = table.table_options.get(START_AT)
        if start_at is not None:
            await self._store_timer(table, START, float(start_at))

    async def _store_timer(self, table: Table, kind: str, due: float) -> None:
        play = self.play
        play.alarms.arm(StoredTimer(table.id, kind, due, table.version))
        try:
            await play.repo.set_deadline(table.id, kind, due, table.version)
        except Exception as exc:
            # The change itself is written (a seat, a new lobby): it must not read as failed, or a
            # retry would meet it done. The timer runs here; the lobby's next change stores it.
            log.warning("table %s: its %s timer was not stored (%s); it runs in this process only",
                        table.id, kind, exc)

    async def seat_bot(self, table: Table, level: str) -> SeatSpec:
        """Seat a bot of ``level`` (named after its level and how many of it sit there)."""
        same = sum(1 for s in table.seats if s.ai_level == level)
        seat = SeatSpec(self.play.settings.ai_name(level, same + 1), ai_level=level)
        await self.play.repo.add_seat(table.id, seat)
        table.seats.append(seat)
        return seat

    async def start(self, table: Table, seed: int | None = None, *, origin: object | None = None) -> None:
        """Start the game: shuffle the seating, draw the seed, play until a human owes."""
        play = self.play
        seed = secrets.randbits(62) if seed is None else seed
        seats = list(table.seats)
        random.Random(splitmix64(seed)).shuffle(seats)  # seat 0 starts: seating is random
        await play.repo.start(table.id, seats, seed)
        table.seats, table.seed, table.status = seats, seed, "playing"
        # The lobby's timers are spent. Left stored (a crash, the database away this moment), they
        # find the game under way when they fire and do nothing.
        play.alarms.book.cancel(table.id, LOBBY, START, START_SOON)
        for kind in (LOBBY, START):
            with contextlib.suppress(RepoUnavailable):
                await play.repo.clear_deadline(table.id, kind)
        table.state = table.spec.game.setup(len(seats), seed, table.options)
        table.version = table.window = 0
        await play.notify(play.listener.started(table, origin=origin))
        try:
            await play.advance(table, [], new_window=True, origin=origin)
        except Stale as exc:  # nobody else can write to a game that has just started
            raise SessionError("stale") from exc
        except Exception as exc:
            # The start is written; its first draw is not. The game has started (so the host
            # is told), and the draw is retried like any timer's work.
            log.warning("table %s: started, but its first draw could not be written (%s); retried",
                        table.id, exc)
            play.alarms.arm_auto(table.id, play.clock.now() + RETRY_S[0], table.version, of=0, attempt=1)
