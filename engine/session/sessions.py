"""The async session layer: one table per channel, for every game, with no Discord in it.

A table goes lobby -> playing -> finished (or cancelled / abandoned). The session owns the
per-table lock, the action log's version, decision timers, AI seats and loading tables on demand;
the game rules stay in the engine module, storage behind :class:`Repository`, and everything users
see goes out through :class:`Listener` (the cogs render it). The machinery is in objects a
:class:`Sessions` owns: its table cache (:mod:`engine.session.cache`), play (:mod:`engine.session.play`),
its alarms (:mod:`engine.session.alarms`) and what they run when they fire
(:mod:`engine.session.timer_work`).

Decision windows: buttons carry the table's ``window``, the version at which the current set of
owed decisions opened. Simultaneous secret choices (Incan Gold) share one window until the
reveal; in a sequential game every action opens a new one. A click naming another window is
stale and changes nothing.

Who asked: every operation a person can trigger takes an ``origin``, opaque to the session (the
Discord side passes the click to answer), and hands it back with what that call itself draws
(:class:`Listener`, :attr:`Update.origin`); what a timer, the AI after a pause or another process
draws has none.

Start-up: :meth:`Sessions.open` restores every timer from the stored deadlines (one query) and
loads no table; a table is loaded by its first click, command or timer.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any, ParamSpec, TypeVar

from engine.clock import Clock
from engine.session.absence import Absence
from engine.session.ahead import Ahead
from engine.session.ai_pool import AiPool
from engine.session.alarms import Alarms
from engine.session.cache import TableCache
from engine.session.contract import (
    DECISION,
    GameSpec,
    RepoBusy,
    RepoConflict,
    Repository,
    RepoUnavailable,
    SeatEvent,
    SeatSpec,
    SessionError,
    SessionSettings,
    Stale,
)
from engine.session.opening import Opening
from engine.session.options import DEFAULT_TABLES_PER_HOST, TABLE_DEFAULTS
from engine.session.place import Place, check_place
from engine.session.play import Play
from engine.session.schedule import FILL_WITH, START_AT, check_schedule
from engine.session.table import Listener, Table, Update
from engine.session.timer_work import TimerWork
from engine.session.timers import Coordinator, SingleProcess, TimerBook

__all__ = ["DECISION", "Sessions"]

P = ParamSpec("P")
R = TypeVar("R")

log = logging.getLogger("engine.session")

STALE_RETRIES = 3  # a click refused because another process wrote first is re-checked this often


def _reachable(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """An unreachable database becomes SessionError("reconnecting"): a private "try again"; nothing changed."""

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except RepoUnavailable as exc:
            raise SessionError("reconnecting") from exc

    return wrapper


class Sessions:
    """Every table of the bot, loaded on demand; all operations are async and locked per table."""

    def __init__(self, repo: Repository, specs: Mapping[str, GameSpec], listener: Listener, clock: Clock,
                 settings: SessionSettings | None = None, *, coordinator: Coordinator | None = None,
                 ai: AiPool | None = None) -> None:
        self.repo = repo
        self.specs = dict(specs)
        self.listener = listener
        self.clock = clock
        self.settings = settings or SessionSettings()
        self.coordinator: Coordinator = coordinator or SingleProcess()
        self.ai = ai or AiPool(self.specs, workers=0, budget_s=self.settings.ai_budget_s)
        self.ahead = Ahead(self.ai)  # bot decisions started when their turn begins, not when the pause ends
        self.alarms = Alarms(clock, self.coordinator, self.settings,
                             simultaneous=[name for name, spec in self.specs.items() if spec.deciding is not None])
        self.cache = TableCache(repo, self.specs, clock, self.coordinator, self.alarms, self.ahead)
        self.play = Play(self.cache, self.alarms, self.ahead, self.ai, repo, listener, clock, self.settings,
                         self.coordinator)
        self.absence = Absence(self.play)
        self.opening = Opening(self.play)  # a lobby's timers and its start, also by a scheduled start
        self.timer_work = TimerWork(self.play, self.absence, self.opening)
        # Play arms timers and the timers' work plays: the work is named to the alarms once both exist.
        self.alarms.serve(self.timer_work)
        self._warming: asyncio.Future[None] | None = None  # the AI workers starting

    @property
    def tables(self) -> dict[int, Table]:
        """Return the tables loaded in this process (a cache, never the truth)."""
        return self.cache.tables

    @property
    def by_channel(self) -> dict[int, int]:
        """Return the loaded tables' ids by channel."""
        return self.cache.by_channel

    @property
    def timers(self) -> TimerBook:
        """Return the timers this process runs."""
        return self.alarms.book

    def loaded(self, table_id: int) -> Table | None:
        """Return the table if it is loaded in this process (no database access)."""
        return self.cache.loaded(table_id)

    # ------------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        """Restore the timers (from the store; no table is loaded), then start the AI workers.

        The workers start in the background: importing the engines in a fresh process takes a
        moment that no click and no timer should wait for (a decision asked meanwhile waits for it).
        """
        await self.coordinator.start(self.timer_work.gained, self.timer_work.lost, self.timer_work.changed)
        self._warming = asyncio.ensure_future(self.ai.start())

    async def close(self) -> None:
        """Stop every timer, give up the leases and stop the AI workers (the tables stay stored)."""
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
        self.timers.cancel_all()
        self.ahead.clear()
        for table in self.tables.values():
            for handle in table.timers:
                handle.cancel()
            table.timers.clear()
        await self.coordinator.stop()
        await self.ai.close()

    # ------------------------------------------------------------------ lookup

    @_reachable
    async def table(self, table_id: int) -> Table:
        """Return a table by id (loaded on demand) or raise SessionError("gone")."""
        return await self.cache.get(table_id)

    @_reachable
    async def table_in(self, channel_id: int) -> Table:
        """Return the channel's active table (loaded on demand) or raise SessionError("no_table")."""
        table_id = self.by_channel.get(channel_id)
        if table_id is not None:
            try:
                return await self.cache.get(table_id)
            except SessionError:
                pass  # ended meanwhile (here or in another process): look in the store
        found = await self.repo.active_in(channel_id)
        if found is None:
            raise SessionError("no_table")
        try:
            return await self.cache.get(found)
        except SessionError as exc:
            raise SessionError("no_table") from exc

    # ------------------------------------------------------------------ lobby

    @_reachable
    async def create(self, game: str, guild_id: int, channel_id: int, host: SeatSpec,
                     options: dict[str, Any] | None = None,
                     table_options: dict[str, Any] | None = None, *, origin: object | None = None) -> Table:
        """Open a lobby in a channel with the host seated; refuse a second table there."""
        spec = self.specs[game]
        opts = dict(options or {})
        # The server's own defaults (/settings) first, then what this table was opened with.
        server = await self.repo.server_settings(guild_id)
        defaults = {key: server[key] for key in TABLE_DEFAULTS if key in server}
        table_opts = {"decision_timeout_s": self.settings.decision_timeout_s, **defaults, **(table_options or {})}
        spec.game.setup(spec.min_players, 0, opts)  # invalid options raise ValueError now, not at start
        check_schedule(table_opts, frozenset(spec.agents), self.clock.now())
        assert host.user_id is not None
        limit = int(server.get("tables_per_host", DEFAULT_TABLES_PER_HOST))
        hosted = [t for t in await self.active_in_guild(guild_id) if t.host_id == host.user_id]
        if len(hosted) >= limit:
            raise SessionError("host_cap", limit=limit)
        try:
            table_id = await self.repo.create(game, guild_id, channel_id, host.user_id, opts, table_opts,
                                              [host])
        except RepoBusy as exc:
            raise SessionError("channel_busy") from exc
        table = Table(table_id, spec, guild_id, channel_id, host.user_id, opts, table_opts, "lobby", [host])
        self.cache.register(table)
        async with table.lock:
            await self._keep_lobby_open(table)
            await self.opening.schedule(table)
            await self.play.notify(self.listener.lobby_changed(table, origin=origin))
            # Players wanted: the members of the server who asked to be told of a new table.
            await self.play.notify(self.listener.opened(table))
        return table

    @_reachable
    async def join(self, table_id: int, person: SeatSpec, *, origin: object | None = None) -> Table:
        """Seat a user in a lobby."""
        table = await self.cache.get(table_id)
        async with table.lock:
            await self.cache.sync(table)
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
            await self._keep_lobby_open(table)
            await self.play.notify(self.listener.lobby_changed(table, origin=origin))
        return table

    @_reachable
    async def leave(self, table_id: int, user_id: int, *, origin: object | None = None) -> Table:
        """Take a user out of a lobby; the table closes when no human is left."""
        table = await self.cache.get(table_id)
        async with table.lock:
            await self.cache.sync(table)
            self._need(table, "lobby")
            seat = table.seat_of(user_id)
            if seat is None:
                raise SessionError("not_seated")
            if not any(s.user_id is not None for i, s in enumerate(table.seats) if i != seat):
                await self.play.end(table, "cancelled", "empty", origin=origin)
                return table
            await self.repo.remove_seat(table.id, seat)
            del table.seats[seat]
            if table.host_id == user_id:
                # The host passes to the next human in join order.
                table.host_id = next(s.user_id for s in table.seats if s.user_id is not None)
            await self._keep_lobby_open(table)
            await self.play.notify(self.listener.lobby_changed(table, origin=origin))
        return table

    @_reachable
    async def add_ai(self, table_id: int, user_id: int, level: str, *, origin: object | None = None) -> Table:
        """Seat an AI of ``level`` (any seated human may add one)."""
        table = await self.cache.get(table_id)
        async with table.lock:
            await self.cache.sync(table)
            self._need(table, "lobby")
            if table.seat_of(user_id) is None:
                raise SessionError("not_seated")
            if level not in table.spec.agents:
                raise SessionError("unknown_level", levels=sorted(table.spec.agents))
            if len(table.seats) >= table.spec.max_players:
                raise SessionError("table_full", max=table.spec.max_players)
            await self.opening.seat_bot(table, level)
            await self._keep_lobby_open(table)
            await self.play.notify(self.listener.lobby_changed(table, origin=origin))
        return table

    @_reachable
    async def remove_ai(self, table_id: int, user_id: int, *, origin: object | None = None) -> Table:
        """Remove the last AI seat of a lobby."""
        table = await self.cache.get(table_id)
        async with table.lock:
            await self.cache.sync(table)
            self._need(table, "lobby")
            if table.seat_of(user_id) is None:
                raise SessionError("not_seated")
            ais = [i for i, s in enumerate(table.seats) if s.is_ai]
            if not ais:
                raise SessionError("no_ai")
            await self.repo.remove_seat(table.id, ais[-1])
            del table.seats[ais[-1]]
            await self._keep_lobby_open(table)
            await self.play.notify(self.listener.lobby_changed(table, origin=origin))
        return table

    async def _keep_lobby_open(self, table: Table) -> None:
        """Arm (again) the timer that closes the lobby if nobody starts it (:meth:`Opening.keep_open`)."""
        await self.opening.keep_open(table)

    @_reachable
    async def start(self, table_id: int, user_id: int, seed: int | None = None, *,
                    origin: object | None = None) -> Table:
        """Start the game (host only): shuffle the seating, draw the seed, play until a human owes."""
        table = await self.cache.get(table_id)
        async with table.lock:
            await self.cache.sync(table)
            self._need(table, "lobby")
            if user_id != table.host_id:
                raise SessionError("not_host")
            if len(table.seats) < table.spec.min_players:
                raise SessionError("too_few", min=table.spec.min_players)
            await self.opening.start(table, seed, origin=origin)
        return table

    @_reachable
    async def cancel(self, table_id: int, user_id: int, can_manage: bool, *, origin: object | None = None) -> Table:
        """Cancel a lobby or a game: the host, or a member who may manage the server. SessionError("gone")
        when it is over, also when another process ended it at the same moment (that one told the players)."""
        table = await self.cache.get(table_id)
        async with table.lock:
            await self.cache.sync(table)
            if table.status not in ("lobby", "playing"):
                raise SessionError("gone")
            if user_id != table.host_id and not can_manage:
                raise SessionError("not_host")
            await self.play.end(table, "cancelled", "cancelled", origin=origin)
        return table

    @_reachable
    async def rematch(self, table_id: int, user_id: int, place: Place | None = None, *,
                      origin: object | None = None) -> Table:
        """Open a new lobby in the same channel with the same seats and options (seated players only,
        asking from ``place``: the table's channel, or a DM)."""
        try:
            stored = await self.repo.load(table_id)
        except KeyError as exc:
            raise SessionError("gone") from exc
        if place is not None:
            check_place(place, stored.guild_id, stored.channel_id, stored.seats, user_id)
        # Who resigned left the table: the rematch seats the others (a resigner may join again).
        seats = [s for s in stored.seats if not s.resigned]
        me = next((s for s in seats if s.user_id == user_id), None)
        if me is None:
            raise SessionError("not_seated")
        # A scheduled table's time is spent: the rematch is a table for now, with the same options.
        table_options = {k: v for k, v in stored.table_options.items() if k not in (START_AT, FILL_WITH)}
        table = await self.create(stored.game, stored.guild_id, stored.channel_id, me, stored.options,
                                  table_options, origin=origin)
        for seat in seats:
            if seat is me:
                continue
            try:
                if seat.ai_level is not None:
                    await self.add_ai(table.id, user_id, seat.ai_level, origin=origin)
                else:
                    await self.join(table.id, seat, origin=origin)
            except SessionError as exc:
                # The new lobby is open to everyone at once: someone may have joined it first (seated
                # already), or filled it. Seat the others all the same; if the lobby moved on (started,
                # cancelled), the rematch is still open as it is.
                if exc.code in ("already_seated", "table_full"):
                    continue
                break
        return table

    @_reachable
    async def resign(self, table_id: int, user_id: int, level: str, *, origin: object | None = None) -> Table:
        """Hand a person's seat to the AI of ``level`` for the rest of the game (recorded first).

        The seat ranks last among the people at the table. When nobody is left playing their own
        seat, the game is cancelled instead: there is nobody to rank against.
        """
        table = await self.cache.get(table_id)
        async with table.lock:
            await self.cache.sync(table)
            seat = self._playing_seat(table, user_id)
            if level not in table.spec.agents:
                raise SessionError("unknown_level", levels=sorted(table.spec.agents))
            if not [p for p in table.present() if p != seat]:
                # Nobody else plays their own seat (the others resigned, or are away): bots would
                # play it out to a result nobody played.
                await self.play.end(table, "cancelled", "everyone_left", origin=origin)
                return table
            event = SeatEvent(table.version, seat, "resign", {"level": level})
            try:
                await self.repo.add_seat_event(table.id, event)
            except ValueError as exc:  # resigned meanwhile (another process)
                table.stale = True
                raise SessionError("resigned") from exc
            table.seat_events.append(event)
            table.seats[seat] = replace(table.seats[seat], stand_in=level, away=None)
            await self.play.notify(self.listener.resigned(table, seat, origin=origin))
            try:
                # The bot takes over the decision the person owed (the timer now waits on the others).
                await self.play.bot_takes_over(table, seat, origin=origin)
            except Stale:
                table.stale = True
        return table

    @_reachable
    async def seen(self, table_id: int, user_id: int, *, origin: object | None = None) -> None:
        """A person did something at a table (a click, a command about it): if a bot plays their
        seat while they are away, the seat is theirs again (see :mod:`engine.session.absence`).
        Cheap when it is not so: no lock, no write, no read of a table the caller has just looked
        up (the cogs call it right after :meth:`table` or :meth:`table_in`, which bring it up to date)."""
        table = self.cache.loaded(table_id)
        if table is None:
            try:
                table = await self.cache.get(table_id)
            except SessionError:
                return
        seat = table.seat_of(user_id)
        if seat is None or table.seats[seat].away is None:
            return
        async with table.lock:
            await self.cache.sync(table)
            await self.absence.came_back(table, user_id, origin=origin)

    # ------------------------------------------------------------------ servers

    @_reachable
    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """Return the settings a server's managers chose (only those that were set)."""
        return await self.repo.server_settings(guild_id)

    @_reachable
    async def set_server_setting(self, guild_id: int, key: str, value: Any) -> None:
        """Set one of a server's settings (``None``: back to the default)."""
        await self.repo.set_server_setting(guild_id, key, value)

    @_reachable
    async def active_in_guild(self, guild_id: int) -> list[Table]:
        """Return a server's tables in the lobby or playing, oldest first (loaded on demand)."""
        tables = []
        for table_id in await self.repo.active_in_guild(guild_id):
            try:
                tables.append(await self.cache.get(table_id))
            except SessionError:
                continue  # ended meanwhile
        return tables

    @_reachable
    async def active_of_player(self, user_id: int) -> list[Table]:
        """Return the tables in the lobby or playing where a person sits (and plays their seat
        themselves: a resigned seat is the bot's), on every server, oldest first (loaded on demand)."""
        tables = []
        for table_id in await self.repo.active_of_user(user_id):
            try:
                table = await self.cache.get(table_id)
            except SessionError:
                continue  # ended meanwhile
            seat = table.seat_of(user_id)
            if table.status in ("lobby", "playing") and seat is not None and not table.seats[seat].resigned:
                tables.append(table)
        return tables

    # ------------------------------------------------------------------ play

    @_reachable
    async def act(self, table_id: int, user_id: int, window: int, action: Any, *,
                  origin: object | None = None) -> Update:
        """Apply a human's action if it is theirs to take in this window; commit, then render.

        Another process may have written first (a click on the same table at the same moment): the
        table is brought up to date and the click checked again, so it is applied once or refused
        as stale, never applied on an old state.
        """
        table = await self.cache.get(table_id)
        async with table.lock:
            for _ in range(STALE_RETRIES):
                await self.cache.sync(table)
                seat = self._playing_seat(table, user_id)
                # Back from being away (even by a stale click): the seat is theirs again, this very
                # decision included when the bot has not made it yet.
                await self.absence.came_back(table, user_id)
                if window != table.window:
                    raise SessionError("stale")
                legal = table.spec.game.legal_actions(table.state, seat)
                if not legal:
                    raise SessionError("not_your_turn")
                if action not in legal:
                    raise SessionError("illegal")
                table.away.pop(seat, None)  # they are here: their run of timed-out decisions ends
                try:
                    return await self.play.advance(table, [(seat, action)], origin=origin)
                except Stale:
                    table.stale = True
            raise SessionError("stale")

    def private_view(self, table: Table, user_id: int) -> tuple[int, dict[str, Any]]:
        """Return (seat, that seat's view) for a seated user, else raise SessionError."""
        seat = table.seat_of(user_id)
        if seat is None or table.state is None:
            raise SessionError("not_seated")
        return seat, table.spec.game.view(table.state, seat)

    @classmethod
    def _playing_seat(cls, table: Table, user_id: int) -> int:
        """Return the seat a user plays themselves at a running game, else raise SessionError."""
        cls._need(table, "playing")
        seat = table.seat_of(user_id)
        if seat is None:
            raise SessionError("not_seated")
        if table.seats[seat].resigned:
            raise SessionError("resigned")
        return seat

    @staticmethod
    def _need(table: Table, status: str) -> None:
        if table.status != status:
            raise SessionError("not_" + status if status != "lobby" else "already_started")
