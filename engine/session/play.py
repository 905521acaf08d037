"""Playing a table forward (:class:`Play`): one step and what it triggers, committed, drawn, timed.

A step applies an action, then the chance draws (and the AI moves, when bots act without a pause)
it triggers; the batch is appended to the store at the expected version, with the timers it
arms, and only then drawn and timed. What a timer does when it fires is
:mod:`engine.session.timer_work`; arming it :mod:`engine.session.alarms`.

Ordering guarantee: every accepted action (with the chance draws and AI moves it triggers) is
appended to the repository *before* any listener call, so nothing that was shown can be lost.

With several processes, an append refused because another process wrote first raises
:class:`Stale`, and the caller retries on the fresh state.
"""

from __future__ import annotations

import logging
from collections.abc import Coroutine
from typing import Any

from engine.clock import Clock
from engine.core import CHANCE, Event, IllegalAction
from engine.session.ahead import Ahead
from engine.session.ai_pool import AiPool, Decision
from engine.session.alarms import DECISION_PARTS, RETRY_S, Alarms
from engine.session.cache import TableCache
from engine.session.contract import (
    AUTO,
    DECISION,
    Deadline,
    RepoEnded,
    Repository,
    RepoStale,
    SessionError,
    SessionSettings,
    Stale,
    StoredTimer,
)
from engine.session.loading import automatic, needs_snapshot, snapshot_of, step
from engine.session.results import placements
from engine.session.table import Listener, Table, Update
from engine.session.timers import Coordinator

__all__ = ["Play"]

log = logging.getLogger("engine.session")


class Play:
    """Plays a table forward: one step and what it triggers, committed, then drawn and timed."""

    def __init__(self, cache: TableCache, alarms: Alarms, ahead: Ahead, ai: AiPool, repo: Repository,
                 listener: Listener, clock: Clock, settings: SessionSettings, coordinator: Coordinator) -> None:
        self.cache = cache
        self.alarms = alarms
        self.ahead = ahead  # bot decisions started when their turn begins, not when the pause ends
        self.ai = ai
        self.repo = repo
        self.listener = listener
        self.clock = clock
        self.settings = settings
        self.coordinator = coordinator

    @staticmethod
    async def notify(call: Coroutine[Any, Any, None]) -> None:
        """Run a listener call; a rendering failure is logged, never undoes or stalls the game.

        Everything the call shows was committed before it, so the game goes on (timers, AI
        seats) and the next update redraws the table.
        """
        try:
            await call
        except Exception:
            log.exception("rendering failed")

    async def end(self, table: Table, status: str, reason: str, *, origin: object | None = None) -> None:
        """End a table as ``status`` (cancelled, abandoned) and tell the listener why (and ``origin``).

        Another process may end the same table at the same moment (it finished the game, or someone
        cancelled it there): the store lets one end it, and that one tells the players. Here the
        table is only forgotten, nothing is retried, and SessionError("gone") tells who asked (a
        Cancel: "that table is over"; a timer: nothing left to do).
        """
        try:
            await self.repo.cancel(table.id, status)
        except RepoEnded as exc:
            self._ended_elsewhere(table, exc.status)
            raise SessionError("gone") from exc
        table.status = status
        self.cache.forget(table)
        await self.notify(self.listener.ended(table, reason, origin=origin))

    async def _ai_move(self, table: Table, state: Any, position: int) -> tuple[Any, int, bool] | None:
        """Return the first owing AI seat's move, decided in the AI pool: a Hard search must not
        hold the event loop (every other table's clicks) even when the bots act without delay."""
        for seat in table.spec.game.to_move(state):
            if seat != CHANCE and table.seats[seat].is_ai:
                assert table.seed is not None
                [(_, action)] = await self.ai.decide(table.spec.name, state, table.seed,
                                                     [(seat, str(table.seats[seat].level), position)])
                return action, seat, False
        return None

    @staticmethod
    def decisions(table: Table) -> list[Decision]:
        """Return what the AI seats owing now (and not already thinking) are asked, in seat order."""
        seats = [s for s in table.owing() if table.seats[s].is_ai and s not in table.thinking]
        return [(s, str(table.seats[s].level), table.version + n) for n, s in enumerate(seats)]

    def think_ahead(self, table: Table) -> None:
        """Start the owing bots' decision now, so their pause is thinking time (:mod:`.ahead`)."""
        decisions = self.decisions(table)
        if decisions and table.seed is not None:
            self.ahead.start(table.id, table.spec.name, table.state, table.seed, table.version, decisions)
        else:
            self.ahead.drop(table.id)

    def _ai_owes(self, table: Table, state: Any) -> bool:
        return any(s != CHANCE and table.seats[s].is_ai for s in table.spec.game.to_move(state))

    async def advance(self, table: Table, first: list[tuple[int, Any]], *, new_window: bool = False,
                      timed_out: list[int] | None = None, origin: object | None = None) -> Update:
        """Apply ``first``, then chance draws (and AI moves when they need no delay); commit; render
        (the update carries ``origin``: who asked, see :class:`Listener`).

        Raises Stale when another writer moved the table first (nothing was written).
        """
        state = before = table.state
        batch: list[tuple[int, Any]] = []
        events: list[Event] = []
        per_step: list[list[Event]] = []
        opened_at: int | None = table.version if new_window else None
        forced: list[tuple[int, Any]] = []
        pending = list(first)
        delay = table.ai_delay_s(self.settings)
        ai_now = delay <= 0
        while True:
            if pending:
                seat, action = pending.pop(0)
            else:
                nxt = automatic(table, state)
                if nxt is None and ai_now:
                    nxt = await self._ai_move(table, state, table.version + len(batch))
                if nxt is None:
                    break
                action, seat, unasked = nxt
                if unasked:
                    forced.append((seat, action))
            try:
                state, more, opened = step(table.spec, state, seat, action)
            except IllegalAction as exc:
                raise SessionError("illegal", detail=str(exc)) from exc
            batch.append((seat, action))
            events += more
            per_step.append(more)
            if opened:
                opened_at = table.version + len(batch)
        if not batch and not new_window:
            return Update(table, events, [], False, timed_out or [], forced, origin=origin)
        game, now, version = table.spec.game, self.clock.now(), table.version + len(batch)
        over = game.is_over(state)
        deadlines: list[Deadline] = []
        if opened_at is not None and table.humans_to_move(state) and not over:
            deadlines.append((DECISION, now + table.timeout_s(self.settings), opened_at))
        if over:
            deadlines.append((AUTO, now, version))  # finish it, should the result not be written below
        elif delay > 0 and self._ai_owes(table, state):
            deadlines.append((AUTO, now + delay, version))
        if batch:
            try:
                await self.repo.append(table.id, table.version, batch, deadlines)
            except RepoStale as exc:
                raise Stale(str(exc)) from exc
            except Exception:
                table.stale = True  # refused or unreachable, the outcome may be unknown: reload before acting again
                raise
        else:
            for kind, due, at in deadlines:
                await self.repo.set_deadline(table.id, kind, due, at)
        table.state, table.version = state, version
        update = Update(table, events, [s for s, _ in batch], opened_at is not None, timed_out or [], forced,
                        before, batch, per_step, origin)
        if opened_at is not None:
            table.window, table.opened_at, table.deadline = opened_at, now, None
            for handle in table.timers:  # e.g. a count redraw of the closed window
                handle.cancel()
            table.timers.clear()
            self.alarms.book.cancel(table.id, *DECISION_PARTS)
        if over:
            try:
                await self.finish(table, update)
            except Exception as exc:
                # The last move is written (with an AUTO deadline: a restart finishes the game too);
                # only the result is not. The move counts and is shown; the result is retried.
                log.warning("table %s: its result could not be written (%s); it is retried", table.id, exc,
                            exc_info=True)
                table.stale = True
                self.alarms.arm_auto(table.id, now + RETRY_S[0], version, attempt=1)
                await self.notify(self.listener.played(update))
            return update
        for kind, due, at in deadlines:
            if kind == DECISION:
                table.deadline = due
            self._arm(table, kind, due, at)
        if delay > 0 and not over and self.coordinator.owns(table.id):
            self.think_ahead(table)
        await self.notify(self.listener.played(update))
        if needs_snapshot(table):
            await self._save_snapshot(table)
        return update

    async def bot_takes_over(self, table: Table, seat: int, *, origin: object | None = None) -> None:
        """A person's seat has just become a bot's (they resigned, or are away): if the seat owes a
        decision now, the bot makes it at bot speed, and the deadline waits only on the people who
        still owe. Raises Stale when another process moved the table first."""
        if seat not in table.owing():
            return  # its next decision arms the bot's timer like any bot seat's
        if not table.humans_owing():
            # Nobody waits on the deadline any more: forgotten here and in the store, so a restart
            # neither shows it nor arms it (a person coming back gets one of their own).
            table.deadline = None
            self.alarms.book.cancel(table.id, *DECISION_PARTS)
            await self.repo.clear_deadline(table.id, DECISION)
        delay = table.ai_delay_s(self.settings)
        if delay <= 0:
            await self.advance(table, [], origin=origin)
            return
        due = self.clock.now() + delay
        await self.repo.set_deadline(table.id, AUTO, due, table.version)
        self.alarms.arm(StoredTimer(table.id, AUTO, due, table.version))

    async def person_takes_back(self, table: Table, seat: int) -> None:
        """A person plays their seat again (back from being away): if it owes a decision now (the
        bot had not made it yet), the decision is theirs, with a deadline of its own unless the
        window already has one (people choosing together share it)."""
        if seat not in table.owing() or table.deadline is not None:
            return
        due = self.clock.now() + table.timeout_s(self.settings)
        await self.repo.set_deadline(table.id, DECISION, due, table.window)
        table.deadline = due
        self._arm(table, DECISION, due, table.window)

    def _arm(self, table: Table, kind: str, due: float, version: int) -> None:
        """Arm a timer just written for ``table`` as a restart arms it from the store: with the
        table's decision time and game, which its derived timers follow (a decision's reminders and
        waited moment)."""
        self.alarms.arm(StoredTimer(table.id, kind, due, version, span=table.timeout_s(self.settings),
                                    game=table.spec.name))

    async def _save_snapshot(self, table: Table) -> None:
        snapshot = snapshot_of(table)
        try:
            await self.repo.save_snapshot(table.id, snapshot)
        except Exception:  # a cache: losing one costs a longer replay, never a move
            log.warning("table %s: snapshot at %d not saved", table.id, snapshot.version, exc_info=True)
            return
        table.snapshot_version = snapshot.version

    async def finish(self, table: Table, update: Update) -> None:
        """Write a finished game's result and tell the listener.

        Another process may finish the same game at the same moment (with several processes, the
        one whose click or timer wrote the last move, and the one running the table's timers that
        heard of it): the store lets one write the result. The other finds the table ended and
        only forgets it: the writer draws the final board and the summary, once. The move behind
        this call stays acknowledged (it is written), and nothing is retried.
        """
        result = table.spec.game.result(table.state)
        results = placements(result, table.seats, table.seat_events)
        try:
            await self.repo.finish(table.id, results)
        except RepoEnded as exc:
            self._ended_elsewhere(table, exc.status)
            return
        table.results = results
        table.status = "finished"
        self.cache.forget(table)
        await self.notify(self.listener.played(update))
        await self.notify(self.listener.finished(table, result, origin=update.origin))

    def _ended_elsewhere(self, table: Table, status: str) -> None:
        """Forget a table another process ended at the same moment (it tells the players): not an
        error, so one INFO line without a traceback."""
        log.info("table %s: %s by another process at the same moment; nothing more to do here", table.id, status)
        table.status = status
        self.cache.forget_ended_elsewhere(table)
