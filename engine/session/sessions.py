"""The async session layer: one table per channel, for every game, with no Discord in it.

A table goes lobby -> playing -> finished (or cancelled / abandoned). The session owns the
per-table lock, the action log's version, decision timers, AI seats and recovery after a
restart; the game rules stay in the engine module, storage behind :class:`Repository`, and
everything users see goes out through :class:`Listener` (the cogs render it).

Ordering guarantee: every accepted action (with the chance draws and AI moves it triggers) is
appended to the repository *before* any listener call, so nothing that was shown can be lost.

Decision windows: buttons carry the table's ``window``, the version at which the current set of
owed decisions opened. Simultaneous secret choices (Incan Gold) share one window until the
reveal; in a sequential game every action opens a new one. A click naming another window is
stale and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Coroutine, Mapping
from typing import Any

from engine.clock import Clock
from engine.core import CHANCE, Agent, Event, IllegalAction, agent_rng, resolve_chance, splitmix64
from engine.session.place import Place, check_place
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
from engine.session.table import Listener, Table, Update

__all__ = ["DECISION", "Sessions"]

log = logging.getLogger(__name__)

DECISION = "decision"  # the repository's deadline kind for the current decision window


# --------------------------------------------------------------------------- the session


class Sessions:
    """Every table of the bot, keyed by id and by channel; all operations are async and locked."""

    def __init__(self, repo: Repository, specs: Mapping[str, GameSpec], listener: Listener,
                 clock: Clock, settings: Settings | None = None) -> None:
        self.repo = repo
        self.specs = dict(specs)
        self.listener = listener
        self.clock = clock
        self.settings = settings or Settings()
        self.tables: dict[int, Table] = {}
        self.by_channel: dict[int, int] = {}

    # ------------------------------------------------------------------ lookup

    def table_in(self, channel_id: int) -> Table:
        """Return the channel's active table or raise SessionError("no_table")."""
        table_id = self.by_channel.get(channel_id)
        if table_id is None:
            raise SessionError("no_table")
        return self.tables[table_id]

    def table(self, table_id: int) -> Table:
        """Return a live table by id or raise SessionError("gone")."""
        table = self.tables.get(table_id)
        if table is None:
            raise SessionError("gone")
        return table

    # ------------------------------------------------------------------ lobby

    async def create(self, game: str, guild_id: int, channel_id: int, host: SeatSpec,
                     options: dict[str, Any] | None = None,
                     table_options: dict[str, Any] | None = None) -> Table:
        """Open a lobby in a channel with the host seated; refuse a second table there."""
        spec = self.specs[game]
        opts = dict(options or {})
        table_opts = {"decision_timeout_s": self.settings.decision_timeout_s, **(table_options or {})}
        spec.game.setup(spec.min_players, 0, opts)  # invalid options raise ValueError now, not at start
        if channel_id in self.by_channel:
            raise SessionError("channel_busy")
        assert host.user_id is not None
        try:
            table_id = await self.repo.create(game, guild_id, channel_id, host.user_id, opts, table_opts,
                                              [host])
        except RepoBusy as exc:
            raise SessionError("channel_busy") from exc
        table = Table(table_id, spec, guild_id, channel_id, host.user_id, opts, table_opts, "lobby", [host])
        self._register(table)
        async with table.lock:
            await self._notify(self.listener.lobby_changed(table))
        return table

    async def join(self, table_id: int, person: SeatSpec) -> Table:
        """Seat a user in a lobby."""
        table = self.table(table_id)
        async with table.lock:
            self._need(table, "lobby")
            assert person.user_id is not None
            if table.seat_of(person.user_id) is not None:
                raise SessionError("already_seated")
            if len(table.seats) >= table.spec.max_players:
                raise SessionError("table_full", max=table.spec.max_players)
            try:
                await self.repo.add_seat(table.id, person)
            except RepoConflict as exc:
                raise SessionError("already_seated") from exc
            table.seats.append(person)
            await self._notify(self.listener.lobby_changed(table))
        return table

    async def leave(self, table_id: int, user_id: int) -> Table:
        """Take a user out of a lobby; the table closes when no human is left."""
        table = self.table(table_id)
        async with table.lock:
            self._need(table, "lobby")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SessionError("not_seated")
            if not any(s.user_id is not None for i, s in enumerate(table.seats) if i != seat):
                await self._end(table, "cancelled", "empty")
                return table
            await self.repo.remove_seat(table.id, seat)
            del table.seats[seat]
            if table.host_id == user_id:
                # The host passes to the next human in join order.
                table.host_id = next(s.user_id for s in table.seats if s.user_id is not None)
            await self._notify(self.listener.lobby_changed(table))
        return table

    async def add_ai(self, table_id: int, user_id: int, level: str) -> Table:
        """Seat an AI of ``level`` (any seated human may add one)."""
        table = self.table(table_id)
        async with table.lock:
            self._need(table, "lobby")
            if table.seat_of(user_id) is None:
                raise SessionError("not_seated")
            if level not in table.spec.agents:
                raise SessionError("unknown_level", levels=sorted(table.spec.agents))
            if len(table.seats) >= table.spec.max_players:
                raise SessionError("table_full", max=table.spec.max_players)
            same = sum(1 for s in table.seats if s.ai_level == level)
            seat = SeatSpec(self.settings.ai_name(level, same + 1), ai_level=level)
            await self.repo.add_seat(table.id, seat)
            table.seats.append(seat)
            await self._notify(self.listener.lobby_changed(table))
        return table

    async def remove_ai(self, table_id: int, user_id: int) -> Table:
        """Remove the last AI seat of a lobby."""
        table = self.table(table_id)
        async with table.lock:
            self._need(table, "lobby")
            if table.seat_of(user_id) is None:
                raise SessionError("not_seated")
            ais = [i for i, s in enumerate(table.seats) if s.is_ai]
            if not ais:
                raise SessionError("no_ai")
            await self.repo.remove_seat(table.id, ais[-1])
            del table.seats[ais[-1]]
            await self._notify(self.listener.lobby_changed(table))
        return table

    async def start(self, table_id: int, user_id: int, seed: int | None = None) -> Table:
        """Start the game (host only): shuffle the seating, draw the seed, play until a human owes."""
        table = self.table(table_id)
        async with table.lock:
            self._need(table, "lobby")
            if user_id != table.host_id:
                raise SessionError("not_host")
            if len(table.seats) < table.spec.min_players:
                raise SessionError("too_few", min=table.spec.min_players)
            seed = secrets.randbits(62) if seed is None else seed
            seats = list(table.seats)
            random.Random(splitmix64(seed)).shuffle(seats)  # seat 0 starts: seating is random
            await self.repo.start(table.id, seats, seed)
            table.seats, table.seed, table.status = seats, seed, "playing"
            table.state = table.spec.game.setup(len(seats), seed, table.options)
            table.version = table.window = 0
            await self._notify(self.listener.started(table))
            await self._advance(table, [], new_window=True)
        return table

    async def cancel(self, table_id: int, user_id: int, can_manage: bool) -> Table:
        """Cancel a lobby or a game: the host, or a member who may manage the server."""
        table = self.table(table_id)
        async with table.lock:
            if table.status not in ("lobby", "playing"):
                raise SessionError("gone")
            if user_id != table.host_id and not can_manage:
                raise SessionError("not_host")
            await self._end(table, "cancelled", "cancelled")
        return table

    async def rematch(self, table_id: int, user_id: int, place: Place | None = None) -> Table:
        """Open a new lobby in the same channel with the same seats and options (seated players only,
        asking from ``place``: the table's channel, or a DM)."""
        try:
            stored = await self.repo.load(table_id)
        except KeyError as exc:
            raise SessionError("gone") from exc
        if place is not None:
            check_place(place, stored.guild_id, stored.channel_id, stored.seats, user_id)
        seats = list(stored.seats)
        me = next((s for s in seats if s.user_id == user_id), None)
        if me is None:
            raise SessionError("not_seated")
        table = await self.create(stored.game, stored.guild_id, stored.channel_id, me, stored.options,
                                  stored.table_options)
        for seat in seats:
            if seat is me:
                continue
            if seat.is_ai:
                await self.add_ai(table.id, user_id, str(seat.ai_level))
            else:
                await self.join(table.id, seat)
        return table

    # ------------------------------------------------------------------ play

    async def act(self, table_id: int, user_id: int, window: int, action: Any) -> Update:
        """Apply a human's action if it is theirs to take in this window; commit, then render."""
        table = self.table(table_id)
        async with table.lock:
            self._need(table, "playing")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SessionError("not_seated")
            if window != table.window:
                raise SessionError("stale")
            legal = table.spec.game.legal_actions(table.state, seat)
            if not legal:
                raise SessionError("not_your_turn")
            if action not in legal:
                raise SessionError("illegal")
            return await self._advance(table, [(seat, action)])

    def private_view(self, table: Table, user_id: int) -> tuple[int, dict[str, Any]]:
        """Return (seat, that seat's view) for a seated user, else raise SessionError."""
        seat = table.seat_of(user_id)
        if seat is None or table.state is None:
            raise SessionError("not_seated")
        return seat, table.spec.game.view(table.state, seat)

    # ------------------------------------------------------------------ internals

    def _register(self, table: Table) -> None:
        self.tables[table.id] = table
        self.by_channel[table.channel_id] = table.id

    def _forget(self, table: Table) -> None:
        for handle in table.timers:
            handle.cancel()
        table.timers.clear()
        self.tables.pop(table.id, None)
        if self.by_channel.get(table.channel_id) == table.id:
            del self.by_channel[table.channel_id]

    @staticmethod
    async def _notify(call: Coroutine[Any, Any, None]) -> None:
        """Run a listener call; a rendering failure is logged, never undoes or stalls the game.

        Everything the call shows was committed before it, so the game goes on (timers, AI
        seats) and the next update redraws the table.
        """
        try:
            await call
        except Exception:
            log.exception("rendering failed")

    @staticmethod
    def _need(table: Table, status: str) -> None:
        if table.status != status:
            raise SessionError("not_" + status if status != "lobby" else "already_started")

    async def _end(self, table: Table, status: str, reason: str) -> None:
        await self.repo.cancel(table.id, status)
        table.status = status
        self._forget(table)
        await self._notify(self.listener.ended(table, reason))

    def _step(self, table: Table, state: Any, seat: int, action: Any) -> tuple[Any, list[Event], bool]:
        """Apply one action to ``state``; return the new state, events and whether a window opened."""
        game = table.spec.game
        before = set(game.to_move(state))
        state, events = game.apply(state, seat, action)
        after = game.to_move(state)
        opened = seat == CHANCE or seat in after or not set(after) <= before
        return state, events, opened

    def _automatic(self, table: Table, state: Any, ai_now: bool,
                   position: int) -> tuple[Any, int, bool] | None:
        """Return the next automatic (action, seat, forced): a chance draw, an action the rules
        let the session play unasked (``GameSpec.forced``), or an AI move when ``ai_now``."""
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
        if ai_now:
            for seat in movers:
                if table.seats[seat].is_ai:
                    return self._ai_action(table, state, seat, self._agent(table, seat), position), seat, False
        return None

    @staticmethod
    def _agent(table: Table, seat: int) -> Agent:
        return table.spec.agents[str(table.seats[seat].ai_level)]

    @staticmethod
    def _ai_action(table: Table, state: Any, seat: int, agent: Agent, position: int) -> Any:
        """Return the agent's action; its randomness depends on the seed and the log position."""
        game = table.spec.game
        assert table.seed is not None
        rng = agent_rng(table.seed ^ splitmix64(position), seat)
        return agent(game.observe(state, seat), game.legal_actions(state, seat), rng)

    async def _advance(self, table: Table, first: list[tuple[int, Any]], *, new_window: bool = False,
                       timed_out: list[int] | None = None) -> Update:
        """Apply ``first``, then chance draws (and AI moves when they need no delay); commit; render."""
        state = table.state
        batch: list[tuple[int, Any]] = []
        events: list[Event] = []
        opened_at: int | None = table.version if new_window else None
        forced: list[tuple[int, Any]] = []
        pending = list(first)
        ai_now = self.settings.ai_delay_s <= 0
        while True:
            if pending:
                seat, action = pending.pop(0)
            else:
                nxt = self._automatic(table, state, ai_now, table.version + len(batch))
                if nxt is None:
                    break
                action, seat, unasked = nxt
                if unasked:
                    forced.append((seat, action))
            try:
                state, more, opened = self._step(table, state, seat, action)
            except IllegalAction as exc:
                raise SessionError("illegal", detail=str(exc)) from exc
            batch.append((seat, action))
            events += more
            if opened:
                opened_at = table.version + len(batch)
        due: float | None = None
        if batch:
            deadline = None
            if opened_at is not None and table.humans_to_move(state) and not table.spec.game.is_over(state):
                # The new window's timer is written with the actions that open it: one commit.
                due = self.clock.now() + table.timeout_s(self.settings)
                deadline = (DECISION, due, opened_at)
            try:
                await self.repo.append(table.id, table.version, batch, deadline)
            except RepoStale as exc:
                raise SessionError("stale") from exc
        table.state = state
        table.version += len(batch)
        if opened_at is not None:
            table.window = opened_at
            table.opened_at = self.clock.now()
        update = Update(table, events, [s for s, _ in batch], opened_at is not None, timed_out or [], forced)
        if not batch and not new_window:
            return update  # nothing happened: nothing to render
        if table.spec.game.is_over(state):
            await self._finish(table, update)
            return update
        if update.new_window:
            await self._arm(table, due)
        await self._notify(self.listener.played(update))
        self._schedule_ai(table)
        return update

    async def _finish(self, table: Table, update: Update) -> None:
        result = table.spec.game.result(table.state)
        scores = [int(s) for s in result["scores"]]
        winners = set(result["winners"])
        keys = [(s in winners, scores[s]) for s in range(len(scores))]
        results = [ResultSpec(s, scores[s], 1 + sum(1 for k in keys if k > keys[s]), s in winners)
                   for s in range(len(scores))]
        await self.repo.finish(table.id, results)
        table.status = "finished"
        self._forget(table)
        await self._notify(self.listener.played(update))
        await self._notify(self.listener.finished(table, result))

    # ------------------------------------------------------------------ timers and AI seats

    async def _arm(self, table: Table, due: float | None = None) -> None:
        """Arm the decision timer of the current window, with its reminder; persist it unless
        ``due`` says it already is (written with the actions, or read back after a restart)."""
        for handle in table.timers:
            handle.cancel()
        table.timers.clear()
        table.deadline = None
        if not table.humans_owing():
            return
        now = self.clock.now()
        if due is None:
            due = now + table.timeout_s(self.settings)
            await self.repo.set_deadline(table.id, DECISION, due, table.window)
        table.deadline = due
        window = table.window
        remind_at = due - self.settings.reminder_before_s
        if remind_at > now:
            table.timers.append(self.clock.call_at(remind_at, lambda: self._remind(table.id, window)))
        table.timers.append(self.clock.call_at(due, lambda: self._expire(table.id, window)))

    async def _remind(self, table_id: int, window: int) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.window == window and table.status == "playing" and table.humans_owing():
                await self._notify(self.listener.reminded(table, table.humans_owing()))

    async def _expire(self, table_id: int, window: int) -> None:
        """The decision timer ran out: the game's timeout agent plays for every absent human."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.window != window or table.status != "playing":
                return
            absent = table.humans_owing()
            if not absent:
                return
            state = table.state
            actions: list[tuple[int, Any]] = []
            game = table.spec.game
            for seat in absent:
                # For a sequential game the timeout agent plays what the absent seat owes: the
                # rest of the turn in progress, chance draws inside it included (Indus: place,
                # roll, move), and never a turn of the seat's that begins after it.
                turn = table.spec.turn_of(state)
                while True:
                    movers = game.to_move(state)
                    if table.spec.turn_of(state) != turn:
                        break
                    if seat in movers:
                        position = table.version + len(actions)
                        action = self._ai_action(table, state, seat, table.spec.timeout_agent, position)
                    elif movers == [CHANCE] and actions:
                        action = resolve_chance(game, state)
                    else:
                        break
                    mover = seat if seat in movers else CHANCE
                    state, _, _ = self._step(table, state, mover, action)
                    actions.append((mover, action))
                    if mover == CHANCE and seat not in game.to_move(state):
                        break
            try:
                await self._advance(table, actions, timed_out=absent)
            except SessionError:
                log.exception("table %s: timeout could not be applied", table.id)

    def _schedule_ai(self, table: Table) -> None:
        """AI seats that owe an action act after the configured delay (so play stays readable)."""
        if self.settings.ai_delay_s <= 0 or table.status != "playing":
            return
        if not any(table.seats[s].is_ai for s in table.owing()):
            return
        version = table.version
        table.timers.append(self.clock.call_at(self.clock.now() + self.settings.ai_delay_s,
                                               lambda: self._ai_turn(table.id, version)))

    async def _ai_turn(self, table_id: int, version: int) -> None:
        table = self.tables.get(table_id)
        if table is None:
            return
        async with table.lock:
            if table.version != version or table.status != "playing":
                return
            # Every AI seat owing now acts: in a simultaneous window (Incan Gold) they choose
            # together, in one write and one redraw; in a turn-based game only one seat owes, and
            # the next AI turn waits its own delay.
            seats = [s for s in table.owing() if table.seats[s].is_ai]
            if seats:
                # A search AI (Incan Gold's Hard) thinks for tens of milliseconds: off the event
                # loop, so other tables' clicks are not held up meanwhile.
                actions = await asyncio.to_thread(self._ai_actions, table, seats)
                await self._advance(table, actions)

    def _ai_actions(self, table: Table, seats: list[int]) -> list[tuple[int, Any]]:
        """Return the actions of AI seats choosing together (each sees the state before the others')."""
        return [(seat, self._ai_action(table, table.state, seat, self._agent(table, seat), table.version + n))
                for n, seat in enumerate(seats)]

    # ------------------------------------------------------------------ recovery

    async def recover(self) -> list[int]:
        """Rebuild every unfinished table from its log and re-arm its timers; return their ids.

        A table whose stored rows cannot be read or replayed is abandoned (and reported), never
        guessed at. A timer that came due while the bot was down fires at once.
        """
        recovered = []
        for table_id in await self.repo.unfinished():
            try:
                stored = await self.repo.load(table_id)
                table = self._rebuild(stored)
            except (RepoCorrupt, IllegalAction, ValueError, KeyError, TypeError) as exc:
                log.error("table %s cannot be recovered (%s): abandoned", table_id, exc)
                await self.repo.cancel(table_id, "abandoned")
                continue
            self._register(table)
            recovered.append(table_id)
            if table.status != "playing":
                continue
            async with table.lock:
                if table.spec.game.is_over(table.state):
                    # The bot stopped between the last action and writing the result.
                    await self._finish(table, Update(table, [], [], False))
                    continue
                saved = await self.repo.deadline(table.id, DECISION)
                due = saved[0] if saved is not None and saved[1] == table.window else None
                table.opened_at = self.clock.now()
                await self._arm(table, due)  # without a saved deadline, a fresh one is persisted
                if self.settings.ai_delay_s <= 0:
                    await self._advance(table, [])
                else:
                    self._schedule_ai(table)
        return recovered

    def _rebuild(self, stored: StoredTable) -> Table:
        spec = self.specs[stored.game]
        table = Table(stored.id, spec, stored.guild_id, stored.channel_id, stored.host_id, stored.options,
                      stored.table_options, stored.status, list(stored.seats), stored.seed)
        if stored.status != "playing":
            return table
        if stored.seed is None:
            raise ValueError("a playing table without a seed")
        state = spec.game.setup(len(stored.seats), stored.seed, stored.options)
        window = 0
        for number, (seat, action) in enumerate(stored.actions):
            state, _, opened = self._step(table, state, seat, action)
            if opened:
                window = number + 1
        table.state, table.version, table.window = state, len(stored.actions), window
        return table

    async def close(self) -> None:
        """Cancel every timer (the tables stay in the repository)."""
        for table in self.tables.values():
            for handle in table.timers:
                handle.cancel()
            table.timers.clear()
