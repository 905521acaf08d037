"""The session layer on the real store (in memory): lobby, play, secrecy, timers, restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from db import Store
from engine.clock import ManualClock, SystemClock
from engine.core import replay
from engine.incan_gold import GAME
from engine.session import SeatSpec, SessionError, Sessions, SessionSettings, Table, Update
from engine.session.games import SPECS
from engine.session.loading import SNAPSHOT_EVERY
from engine.session.options import AWAY_DECISIONS, DEFAULT_TABLES_PER_HOST, LOBBY_IDLE_S
from engine.session.pace import CORRESPONDENCE_LOBBY_S
from wiring.storage import StoreRepository

ANN, BO, CY = SeatSpec("Ann", 1), SeatSpec("Bo", 2), SeatSpec("Cy", 3)
CHANNEL, GUILD = 500, 900


class Recorder:
    """A listener that keeps what it was told."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.updates: list[Update] = []
        self.results: list[dict[str, Any]] = []
        self.origins: list[tuple[str, object | None]] = []  # who asked, as handed back (not for played)

    async def opened(self, table: Table) -> None:
        self.calls.append(("opened", table.id))

    async def start_soon(self, table: Table) -> None:
        self.calls.append(("start_soon", table.id))

    async def lobby_changed(self, table: Table, *, origin: object | None) -> None:
        self.calls.append(("lobby", [s.display_name for s in table.seats]))
        self.origins.append(("lobby", origin))

    async def started(self, table: Table, *, origin: object | None) -> None:
        self.calls.append(("started", table.id))
        self.origins.append(("started", origin))

    async def played(self, update: Update) -> None:
        self.updates.append(update)

    async def reminded(self, table: Table, seats: list[int]) -> None:
        self.calls.append(("reminded", seats))

    async def waited(self, table: Table) -> None:
        self.calls.append(("waited", table.id))

    async def finished(self, table: Table, result: dict[str, Any], *, origin: object | None) -> None:
        self.results.append(result)
        self.origins.append(("finished", origin))

    async def ended(self, table: Table, reason: str, *, origin: object | None) -> None:
        self.calls.append(("ended", reason))
        self.origins.append(("ended", origin))

    async def resigned(self, table: Table, seat: int, *, origin: object | None) -> None:
        self.calls.append(("resigned", seat))
        self.origins.append(("resigned", origin))


def make(store: Store, clock: ManualClock | None = None, ai_delay: float = 0.0) -> tuple[Sessions, Recorder]:
    rec = Recorder()
    sessions = Sessions(StoreRepository(store), SPECS, rec, clock or ManualClock(),
                        SessionSettings(decision_timeout_s=120, reminder_before_s=30, ai_delay_s=ai_delay))
    return sessions, rec


async def table_of_three(sessions: Sessions, bots: int = 2, seed: int = 7) -> Table:
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    await sessions.join(table.id, BO)
    await sessions.join(table.id, CY)
    for _ in range(bots):
        await sessions.add_ai(table.id, ANN.user_id or 0, "medium")
    await sessions.start(table.id, ANN.user_id or 0, seed=seed)
    return table


async def play_out(sessions: Sessions, table: Table) -> None:
    """Humans take the torch until they carry 8 gems, then camp."""
    while table.status == "playing":
        for seat in table.humans_owing():
            carried = table.state.carried[seat]
            user = table.seats[seat].user_id
            await sessions.act(table.id, user, table.window, "camp" if carried >= 8 else "torch")


async def test_full_game_three_humans_two_ai_persists_and_replays(store):
    sessions, rec = make(store)
    table = await table_of_three(sessions)
    assert table.state.players == 5 and sum(s.is_ai for s in table.seats) == 2
    await play_out(sessions, table)
    assert table.status == "finished" and len(rec.results) == 1
    log = await store.load_game(table.id)
    final = replay(GAME, 5, log.game.seed, log.moves())
    assert GAME.result(final) == rec.results[0]
    results = await store.results(table.id)
    assert [r.score for r in results] == rec.results[0]["scores"]
    assert {r.seat for r in results if r.is_winner} == set(rec.results[0]["winners"])
    assert all(r.placement == 1 for r in results if r.is_winner)
    assert CHANNEL not in sessions.by_channel  # the channel is free for the next table


async def test_stale_double_and_stranger_clicks_change_nothing(store):
    sessions, _ = make(store)
    table = await table_of_three(sessions, bots=0)
    window, version = table.window, table.version
    seat = table.humans_owing()[0]
    user = table.seats[seat].user_id
    with pytest.raises(SessionError, match="stale"):
        await sessions.act(table.id, user, window - 1, "torch")
    with pytest.raises(SessionError, match="not_seated"):
        await sessions.act(table.id, 4242, window, "torch")
    with pytest.raises(SessionError, match="illegal"):
        await sessions.act(table.id, user, window, "dance")
    assert table.version == version
    await sessions.act(table.id, user, window, "torch")
    with pytest.raises(SessionError, match="not_your_turn"):
        await sessions.act(table.id, user, window, "torch")  # a double click
    assert table.version == version + 1
    assert len(await store.actions(table.id)) == version + 1


async def test_one_table_per_channel_and_lobby_rules(store):
    sessions, rec = make(store)
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    with pytest.raises(SessionError, match="channel_busy"):
        await sessions.create("incan_gold", GUILD, CHANNEL, BO)
    with pytest.raises(SessionError, match="already_seated"):
        await sessions.join(table.id, ANN)
    with pytest.raises(SessionError, match="too_few"):
        await sessions.start(table.id, ANN.user_id or 0)
    await sessions.join(table.id, BO)
    with pytest.raises(SessionError, match="not_host"):
        await sessions.start(table.id, BO.user_id or 0)
    with pytest.raises(SessionError, match="unknown_level"):
        await sessions.add_ai(table.id, BO.user_id or 0, "godlike")
    await sessions.leave(table.id, ANN.user_id or 0)
    assert table.host_id == BO.user_id  # the host passed on
    with pytest.raises(SessionError, match="not_host"):
        await sessions.cancel(table.id, CY.user_id or 0, can_manage=False)
    await sessions.cancel(table.id, CY.user_id or 0, can_manage=True)  # a server manager may
    assert ("ended", "cancelled") in rec.calls
    assert (await store.get_game(table.id)).status == "cancelled"


async def test_invalid_options_are_refused_before_a_lobby_opens(store):
    sessions, _ = make(store)
    with pytest.raises(ValueError, match="artifact_scoring"):
        await sessions.create("incan_gold", GUILD, CHANNEL, ANN,
                              {"preset": "diamant", "artifact_scoring": "printed"})
    assert CHANNEL not in sessions.by_channel


async def test_reminder_then_timeout_returns_to_camp(store):
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await table_of_three(sessions, bots=0)
    owing = table.humans_owing()
    await sessions.act(table.id, table.seats[owing[0]].user_id, table.window, "torch")
    await clock.advance(89)
    assert not any(c[0] == "reminded" for c in rec.calls)
    await clock.advance(1)
    assert ("reminded", owing[1:]) in rec.calls
    await clock.advance(30)
    reveal = [e for u in rec.updates for e in u.events if e["type"] == "reveal"][-1]
    assert [reveal["choices"][s] for s in owing] == ["torch", "camp", "camp"]
    assert rec.updates[-1].timed_out == owing[1:]
    # The timeouts are part of the game's record, at the version they happened.
    events = await StoreRepository(store).seat_events(table.id)
    assert [(e.seat, e.kind) for e in events] == [(s, "timeout") for s in owing[1:]]


async def test_restart_mid_decision_recovers_and_finishes_like_a_straight_replay(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await table_of_three(sessions)
    for seat in table.humans_owing()[:2]:
        await sessions.act(table.id, table.seats[seat].user_id, table.window, "torch")
    window, version, dump = table.window, table.version, GAME.dumps(table.state)
    await sessions.close()

    again, _ = make(store, clock)
    await again.open()
    assert again.tables == {}  # nothing is loaded at start-up: the timers only name their tables
    revived = await again.table(table.id)
    assert (revived.window, revived.version, GAME.dumps(revived.state)) == (window, version, dump)
    await play_out(again, revived)
    log = await store.load_game(table.id)
    assert GAME.result(replay(GAME, 5, log.game.seed, log.moves())) == GAME.result(revived.state)


async def test_a_timer_that_expired_while_down_fires_at_once(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await table_of_three(sessions, bots=0)
    version = table.version
    await sessions.close()
    clock.time += 600  # the bot was down for ten minutes
    again, rec = make(store, clock)
    await again.open()
    await clock.advance(0)
    assert (await again.table(table.id)).version > version
    assert rec.updates and rec.updates[0].timed_out


async def test_corrupt_rows_abandon_the_table_when_it_is_loaded(store):
    sessions, _ = make(store)
    table = await table_of_three(sessions, bots=0)
    await store.append_action(table.id, table.version, 0, "dance")  # not a legal action
    again, _ = make(store)
    await again.open()
    with pytest.raises(SessionError, match="gone"):
        await again.table(table.id)  # loaded on demand: the bad row is found then
    assert (await store.get_game(table.id)).status == "abandoned"


async def test_ai_seats_wait_their_delay_then_choose_together(store):
    """In a simultaneous window every AI seat chooses after one delay, in one write."""
    clock = ManualClock()
    sessions, rec = make(store, clock, ai_delay=1.0)
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    for _ in range(2):
        await sessions.add_ai(table.id, ANN.user_id or 0, "easy")
    await sessions.start(table.id, ANN.user_id or 0, seed=3)
    owing_ai = [s for s in table.owing() if table.seats[s].is_ai]
    assert len(owing_ai) == 2
    version, updates = table.version, len(rec.updates)
    await clock.advance(0.99)
    assert table.version == version  # not before the delay
    await clock.advance(0.01)
    assert [s for s in table.owing() if table.seats[s].is_ai] == []
    assert table.version == version + 2 and len(rec.updates) == updates + 1
    assert sorted(rec.updates[-1].actors) == owing_ai
    deadline = await store.deadline(table.id, "decision")
    assert deadline is not None  # Ann still owes: her timer was armed at the window's start


async def test_who_asked_comes_back_with_that_calls_own_updates_only(store):
    """An operation's ``origin`` (opaque: on Discord, the click to answer) is handed back with what
    that call draws, and with nothing drawn later by a timer (a bot after its pause)."""
    clock = ManualClock()
    sessions, rec = make(store, clock, ai_delay=1.0)
    click = object()
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN, origin=click)
    await sessions.join(table.id, BO, origin=click)
    await sessions.add_ai(table.id, ANN.user_id or 0, "easy", origin=click)
    await sessions.start(table.id, ANN.user_id or 0, seed=3, origin=click)
    assert rec.origins == [("lobby", click)] * 3 + [("started", click)]
    assert [u.origin for u in rec.updates] == [click]
    seat = table.humans_owing()[0]
    await sessions.act(table.id, table.seats[seat].user_id or 0, table.window, "torch", origin=click)
    assert rec.updates[-1].origin is click
    drawn = len(rec.updates)
    await clock.advance(1.0)  # the bot's pause ends: its move is the timer's
    assert len(rec.updates) > drawn and all(u.origin is None for u in rec.updates[drawn:])
    await sessions.cancel(table.id, BO.user_id or 0, True, origin=click)
    assert rec.origins[-1] == ("ended", click)


async def test_rematch_reopens_the_lobby_with_the_same_seats(store):
    sessions, _ = make(store)
    table = await table_of_three(sessions, bots=1)
    await play_out(sessions, table)
    again = await sessions.rematch(table.id, BO.user_id or 0)
    assert again.status == "lobby" and again.host_id == BO.user_id
    assert sorted(s.display_name for s in again.seats) == sorted(s.display_name for s in table.seats)


async def test_a_scheduled_table_starts_by_itself_and_its_rematch_is_for_now(store):
    """Issue 44: a table opened for later starts at its time with an easy bot in the seat it
    lacks; its rematch keeps the options but not the spent time (nor the bots to fill with)."""
    clock = ManualClock()
    sessions, rec = make(store, clock)
    start_at = clock.now() + 3600
    with pytest.raises(ValueError):  # bots to fill with only at a scheduled table
        await sessions.create("incan_gold", GUILD, CHANNEL, ANN, table_options={"fill_with": "easy"})
    with pytest.raises(ValueError):  # more than a week ahead
        await sessions.create("incan_gold", GUILD, CHANNEL, ANN, table_options={"start_at": clock.now() + 8 * 86400})
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN,
                                  table_options={"start_at": start_at, "fill_with": "easy"})
    await clock.advance(3599)
    assert table.status == "lobby" and ("start_soon", table.id) in rec.calls
    await clock.advance(1)
    assert table.status == "playing" and sorted(s.ai_level or "" for s in table.seats) == ["", "easy"]
    await sessions.cancel(table.id, ANN.user_id or 0, False)
    again = await sessions.rematch(table.id, ANN.user_id or 0)
    assert "start_at" not in again.table_options and "fill_with" not in again.table_options
    assert again.status == "lobby" and len(again.seats) == 2


async def test_a_rematch_seats_everyone_though_one_of_them_joins_the_new_lobby_first(store, monkeypatch):
    """Issue 42: Bo presses Rematch and another player presses Join on the new lobby the moment it
    appears; the rematch seats everyone else all the same (it stopped at "already seated")."""
    sessions, _ = make(store)
    table = await table_of_three(sessions, bots=1)
    await play_out(sessions, table)
    # The first person the rematch would seat after Bo: at least one seat (a person or the bot) follows.
    quick = next(s for s in table.seats if s.ai_level is None and s.user_id != BO.user_id)
    create = sessions.create

    async def create_then_join(*args: Any, **kwargs: Any) -> Table:
        lobby = await create(*args, **kwargs)
        await sessions.join(lobby.id, quick)
        return lobby

    monkeypatch.setattr(sessions, "create", create_then_join)
    again = await sessions.rematch(table.id, BO.user_id or 0)
    assert sorted(s.display_name for s in again.seats) == sorted(s.display_name for s in table.seats)


async def test_a_lobby_nobody_starts_closes_after_its_last_change_and_frees_the_channel(store):
    """Issue 42: a lobby nobody starts used to hold its channel for good (no timer was armed)."""
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    await clock.advance(LOBBY_IDLE_S - 60)
    await sessions.join(table.id, BO)  # a change: the lobby waits its whole time again from here
    await clock.advance(LOBBY_IDLE_S - 60)
    assert table.status == "lobby" and ("ended", "expired") not in rec.calls
    await clock.advance(61)
    assert table.status == "cancelled" and ("ended", "expired") in rec.calls
    assert (await store.get_game(table.id)).status == "cancelled" and await store.deadlines(table.id) == []
    again = await sessions.create("incan_gold", GUILD, CHANNEL, CY)  # the channel is free again
    assert again.status == "lobby"


async def test_a_lobby_times_out_after_a_restart_and_a_started_game_never_does(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    waiting = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    started = await sessions.create("incan_gold", GUILD, CHANNEL + 1, ANN)
    await sessions.join(started.id, BO)
    await sessions.add_ai(started.id, ANN.user_id or 0, "easy")
    await sessions.start(started.id, ANN.user_id or 0, seed=3)
    assert [d.kind for d in await store.deadlines(started.id)] == ["decision"]  # the lobby's timer is spent
    await sessions.close()

    again, rec = make(store, clock)
    await again.open()
    await clock.advance(LOBBY_IDLE_S + 1)
    assert rec.calls.count(("ended", "expired")) == 1 and (await store.get_game(waiting.id)).status == "cancelled"
    # The game was no lobby: its absent people's turns timed out until it was given up as away.
    assert (await store.get_game(started.id)).status == "abandoned" and ("ended", "away") in rec.calls


async def test_a_correspondence_table_gathers_for_a_day(store):
    """A table whose decisions take two hours is a correspondence table: its people are not online
    together, so its lobby waits a day (engine.session.pace.lobby_idle_s), not two hours."""
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN, table_options={"decision_timeout_s": 7200})
    assert table.lobby_until == clock.now() + CORRESPONDENCE_LOBBY_S
    await clock.advance(7200 + 1)
    assert table.status == "lobby"
    await clock.advance(CORRESPONDENCE_LOBBY_S - 7200)
    assert table.status == "cancelled" and ("ended", "expired") in rec.calls


async def absent_game(store: Store, game: str) -> tuple[Sessions, Recorder, ManualClock, Table]:
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await sessions.create(game, GUILD, CHANNEL, ANN)
    await sessions.join(table.id, BO)
    if game == "incan_gold":
        await sessions.add_ai(table.id, ANN.user_id or 0, "easy")
    await sessions.start(table.id, ANN.user_id or 0, seed=3)
    return sessions, rec, clock, table


@pytest.mark.parametrize("game", ["incan_gold", "sakkara", "indus"])
async def test_a_game_whose_people_are_all_away_is_abandoned_and_does_not_count(store, game):
    """Issue 42: two absent players' game played itself out (177 actions, 139 DMs) and counted as a
    win. After AWAY_DECISIONS timed-out decisions in a row by everyone it is abandoned instead."""
    _, rec, clock, table = await absent_game(store, game)
    for _ in range(60):
        if table.status != "playing":
            break
        await clock.advance(121)
    assert table.status == "abandoned" and ("ended", "away") in rec.calls
    assert rec.results == [] and await store.results(table.id) == []  # no standings, no rating
    assert all(table.away[seat] >= AWAY_DECISIONS for seat in table.people())
    timeouts = [e for e in table.seat_events if e.kind == "timeout"]
    assert len(timeouts) <= len(table.people()) * AWAY_DECISIONS + 1  # given up at the first chance
    reminders = len([c for c in rec.calls if c[0] == "reminded"])
    await clock.advance(3600)
    assert len([c for c in rec.calls if c[0] == "reminded"]) == reminders  # nothing more reaches them


async def test_a_game_where_someone_still_plays_goes_on(store):
    sessions, rec, clock, table = await absent_game(store, "sakkara")
    ann = ANN.user_id or 0
    for _ in range(40):
        if table.status != "playing":
            break
        seat = table.seat_of(ann)
        if seat in table.owing():  # Ann plays her turns (the first legal action); Bo never comes back
            action = table.spec.game.legal_actions(table.state, seat)[0]
            await sessions.act(table.id, ann, table.window, action)
        else:
            await clock.advance(121)
    assert table.status in ("playing", "finished") and ("ended", "away") not in rec.calls
    assert table.away.get(table.seat_of(BO.user_id or 0), 0) >= AWAY_DECISIONS  # Bo alone being away is not enough


async def test_one_member_hosts_at_most_the_servers_number_of_tables(store):
    """Issue 42: one member opened lobbies in all 50 channels of a server."""
    sessions, _ = make(store)
    for n in range(DEFAULT_TABLES_PER_HOST):
        await sessions.create("incan_gold", GUILD, CHANNEL + n, ANN)
    with pytest.raises(SessionError, match="host_cap") as refused:
        await sessions.create("sakkara", GUILD, CHANNEL + 99, ANN)
    assert refused.value.details == {"limit": DEFAULT_TABLES_PER_HOST}
    await sessions.create("incan_gold", GUILD, CHANNEL + 99, BO)  # others are not held back
    await sessions.create("incan_gold", GUILD + 1, CHANNEL + 98, ANN)  # nor is she on another server
    first = await sessions.table_in(CHANNEL)
    await sessions.cancel(first.id, ANN.user_id or 0, can_manage=False)
    await sessions.create("sakkara", GUILD, CHANNEL + 97, ANN)  # one closed: one more may open
    await sessions.set_server_setting(GUILD, "tables_per_host", 1)
    with pytest.raises(SessionError, match="host_cap"):
        await sessions.create("sakkara", GUILD, CHANNEL + 96, BO)


async def test_a_rendering_failure_never_stalls_or_undoes_the_game(store, caplog):
    clock = ManualClock()
    sessions, rec = make(store, clock, ai_delay=1.0)
    failures = []

    async def broken(update: Update) -> None:
        failures.append(update)
        raise RuntimeError("Discord is down")

    rec.played = broken  # type: ignore[method-assign]
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    await sessions.add_ai(table.id, ANN.user_id or 0, "easy")
    await sessions.start(table.id, ANN.user_id or 0, seed=5)
    version = table.version
    await sessions.act(table.id, ANN.user_id or 0, table.window, "torch")  # no exception for the player
    assert table.version == version + 1 and len(await store.actions(table.id)) == version + 1
    await clock.advance(1.0)  # the AI seat still acts: its timer was armed despite the failure
    assert table.version > version + 1
    assert failures and any("rendering failed" in r.getMessage() for r in caplog.records)


async def test_ai_seats_are_named_by_the_settings(store):
    """The session holds no user-facing text: the Discord layer names AI seats (translated)."""
    sessions = Sessions(StoreRepository(store), SPECS, Recorder(), ManualClock(),
                        SessionSettings(ai_name=lambda level, number: f"Robot {number} ({level})"))
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    for level in ("easy", "easy", "hard"):
        await sessions.add_ai(table.id, ANN.user_id or 0, level)
    assert [s.display_name for s in table.seats[1:]] == ["Robot 1 (easy)", "Robot 2 (easy)", "Robot 1 (hard)"]


async def _until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait (real time) until ``condition()`` holds."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached in time")


async def test_with_the_real_clock_ai_turns_and_timeouts_draw_what_they_did(store):
    """A timer's task re-arms the table's timers; it must not cancel itself (it did, with SystemClock)."""
    class Drawing(Recorder):
        async def played(self, update: Update) -> None:
            await asyncio.sleep(0)  # drawing awaits (Discord calls): a cancellation would land here
            await super().played(update)

    rec = Drawing()
    sessions = Sessions(StoreRepository(store), SPECS, rec, SystemClock(),
                        SessionSettings(decision_timeout_s=0.2, reminder_before_s=0.0, ai_delay_s=0.01))
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    for _ in range(2):
        await sessions.add_ai(table.id, ANN.user_id or 0, "medium")
    await sessions.start(table.id, ANN.user_id or 0, seed=3)
    ann = table.seat_of(ANN.user_id or 0)
    # The AI seats choose on their timer, and that update is drawn (not cancelled mid-way).
    await _until(lambda: any(set(u.actors) == {s for s in range(3) if s != ann} for u in rec.updates))
    # Ann never chooses: the timeout plays for her and the reveal it causes is drawn too.
    await _until(lambda: any(u.timed_out == [ann] for u in rec.updates))
    timed_out = next(u for u in rec.updates if u.timed_out == [ann])
    assert any(e["type"] == "reveal" for e in timed_out.events)
    await sessions.close()


class CountingRepo(StoreRepository):
    """The real repository, counting the calls that matter for a cold start."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.loads: list[int] = []
        self.timer_queries = 0

    async def load(self, table_id: int) -> Any:
        self.loads.append(table_id)
        return await super().load(table_id)

    async def timers(self, *args: Any, **kwargs: Any) -> Any:
        self.timer_queries += 1
        return await super().timers(*args, **kwargs)


async def test_a_restart_loads_no_table_and_restores_every_timer_with_one_query(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    tables = []
    for n in range(3):
        table = await sessions.create("incan_gold", GUILD, CHANNEL + n, ANN)
        await sessions.join(table.id, BO)
        await sessions.start(table.id, ANN.user_id or 0, seed=n)
        tables.append(table)
    await sessions.close()

    repo = CountingRepo(store)
    again = Sessions(repo, SPECS, Recorder(), clock, SessionSettings(decision_timeout_s=120, reminder_before_s=30,
                                                              ai_delay_s=0))
    await again.open()
    assert (repo.timer_queries, repo.loads, again.tables) == (1, [], {})
    assert len(clock.pending()) == 2 * 3  # each table's reminder and timeout, armed without loading it
    first = tables[1]
    seat = first.humans_owing()[0]
    await again.act(first.id, first.seats[seat].user_id or 0, first.window, "torch")  # a click loads its table
    assert repo.loads == [first.id] and list(again.tables) == [first.id]
    await clock.advance(121)  # the other two tables time out: each is loaded by its timer
    assert sorted(repo.loads) == sorted(t.id for t in tables)


async def test_loading_replays_only_the_tail_after_the_latest_snapshot(store):
    sessions, _ = make(store)
    table = await table_of_three(sessions, bots=2, seed=11)
    while table.status == "playing" and table.version < 3 * SNAPSHOT_EVERY:
        for seat in table.humans_owing():
            await sessions.act(table.id, table.seats[seat].user_id or 0, table.window, "torch")
    assert table.status == "playing"
    stored = await StoreRepository(store).load(table.id)
    assert stored.snapshot is not None and stored.snapshot.version == table.snapshot_version
    assert stored.version == table.version and len(stored.actions) < SNAPSHOT_EVERY
    again, _ = make(store)
    revived = await again.table(table.id)
    assert (revived.version, revived.window, GAME.dumps(revived.state)) == (
        table.version, table.window, GAME.dumps(table.state))
    log = await store.load_game(table.id)
    assert GAME.dumps(replay(GAME, 5, log.game.seed, log.moves())) == GAME.dumps(revived.state)


async def test_an_ai_turn_due_when_the_bot_stopped_is_played_after_the_restart(store):
    clock = ManualClock()
    sessions, _ = make(store, clock, ai_delay=1.0)
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    await sessions.add_ai(table.id, ANN.user_id or 0, "easy")
    await sessions.start(table.id, ANN.user_id or 0, seed=3)
    ai = next(s for s in table.owing() if table.seats[s].is_ai)
    version = table.version
    await sessions.close()  # stopped before the AI seat's delay ran out

    again, _ = make(store, clock, ai_delay=1.0)
    await again.open()
    await clock.advance(1.0)
    revived = await again.table(table.id)
    assert revived.version == version + 1 and ai not in revived.owing()


async def test_resign_hands_the_seat_to_a_bot_that_plays_on_and_ranks_the_resigner_last(store):
    sessions, rec = make(store)
    table = await table_of_three(sessions, bots=1)
    bo = table.seat_of(BO.user_id or 0)
    window = table.window
    with pytest.raises(SessionError, match="unknown_level"):
        await sessions.resign(table.id, BO.user_id or 0, "godlike")
    with pytest.raises(SessionError, match="not_seated"):
        await sessions.resign(table.id, 99, "easy")
    await sessions.resign(table.id, BO.user_id or 0, "hard")
    assert ("resigned", bo) in rec.calls
    assert table.seats[bo].resigned and table.seats[bo].is_ai and table.seats[bo].level == "hard"
    assert bo not in table.humans_owing() and bo not in table.owing()  # the bot chose at once (no delay)
    with pytest.raises(SessionError, match="resigned"):
        await sessions.act(table.id, BO.user_id or 0, window, "torch")
    with pytest.raises(SessionError, match="resigned"):
        await sessions.resign(table.id, BO.user_id or 0, "easy")
    await play_out(sessions, table)
    assert table.results is not None
    by_seat = {r.seat: r for r in table.results}
    people = [s for s, spec in enumerate(table.seats) if spec.user_id is not None]
    assert by_seat[bo].placement == max(by_seat[s].placement for s in people) == len(table.seats)
    assert not by_seat[bo].is_winner
    stored = {r.seat: r for r in await store.results(table.id)}
    assert {s: (r.placement, r.is_winner) for s, r in stored.items()} == {
        s: (r.placement, r.is_winner) for s, r in by_seat.items()}
    assert stored[bo].user_id == BO.user_id  # the result stays the person's (a loss)


async def test_a_resigned_seat_survives_a_restart_and_the_replay_is_exact(store):
    clock = ManualClock()
    sessions, _ = make(store, clock)
    table = await table_of_three(sessions, bots=0)
    cy = table.seat_of(CY.user_id or 0)
    await sessions.resign(table.id, CY.user_id or 0, "easy")
    dump = GAME.dumps(table.state)
    await sessions.close()
    again, _ = make(store, clock)
    await again.open()
    revived = await again.table(table.id)
    assert revived.seats[cy].stand_in == "easy" and GAME.dumps(revived.state) == dump
    assert [e.kind for e in revived.seat_events] == ["resign"]
    await play_out(again, revived)
    log = await store.load_game(table.id)
    assert GAME.result(replay(GAME, 3, log.game.seed, log.moves())) == GAME.result(revived.state)
    assert {r.seat: r.placement for r in await store.results(table.id)}[cy] == 3


async def test_with_a_bot_delay_the_resigners_bot_plays_after_it(store):
    clock = ManualClock()
    sessions, _ = make(store, clock, ai_delay=2.0)
    table = await table_of_three(sessions, bots=0)
    bo = table.seat_of(BO.user_id or 0)
    await sessions.resign(table.id, BO.user_id or 0, "easy")
    assert bo in table.owing()  # the bot waits its delay, as every bot seat does
    await clock.advance(2.0)
    assert bo not in table.owing()


async def test_the_last_person_to_resign_cancels_the_game(store):
    sessions, rec = make(store)
    table = await sessions.create("incan_gold", GUILD, CHANNEL, ANN)
    await sessions.add_ai(table.id, ANN.user_id or 0, "easy")
    await sessions.add_ai(table.id, ANN.user_id or 0, "easy")
    await sessions.start(table.id, ANN.user_id or 0, seed=3)
    await sessions.resign(table.id, ANN.user_id or 0, "medium")
    assert table.status == "cancelled" and ("ended", "everyone_left") in rec.calls
    assert (await store.get_game(table.id)).status == "cancelled"


def test_tied_seats_share_a_place_and_a_resigner_ranks_after_every_other_seat():
    from engine.session import SeatEvent
    from engine.session.results import placements

    seats = [SeatSpec("A", 1), SeatSpec("B", 2), SeatSpec("C", ai_level="easy"), SeatSpec("D", 4)]
    tied = placements({"scores": [10, 7, 7, 3], "winners": [0]}, seats)
    assert [(r.placement, r.is_winner) for r in tied] == [(1, True), (2, False), (2, False), (4, False)]
    shared = placements({"scores": [9, 9, 1, 0], "winners": [0, 1]}, seats)
    assert [r.placement for r in shared] == [1, 1, 3, 4] and [r.is_winner for r in shared] == [True, True, False, False]
    # A (the engine's winner) resigned at version 5, D at version 9: the best remaining seat wins.
    gone = [SeatSpec("A", 1, stand_in="hard"), *seats[1:3], SeatSpec("D", 4, stand_in="easy")]
    events = [SeatEvent(5, 0, "resign", {"level": "hard"}), SeatEvent(9, 3, "resign", {"level": "easy"})]
    ranked = placements({"scores": [20, 7, 8, 3], "winners": [0]}, gone, events)
    assert [r.placement for r in ranked] == [4, 2, 1, 3]
    assert [r.is_winner for r in ranked] == [False, False, True, False]


async def test_a_timer_whose_table_another_writer_ended_is_dropped_quietly(store, caplog):
    """Another process cancels the table while the timer waits for the table's lock: the timer finds
    it gone when it brings the table up to date, and stops (no warning, no retry)."""
    clock = ManualClock()
    sessions, rec = make(store, clock)
    table = await table_of_three(sessions, bots=0)
    played = len(rec.updates)  # the start's first card
    await clock.advance(100)  # the reminder
    caplog.set_level("WARNING")
    async with table.lock:  # a click being handled: the decision timer, due now, waits behind it
        due = asyncio.create_task(clock.advance(21))
        for _ in range(20):
            await asyncio.sleep(0)
        await store.cancel_game(table.id)  # meanwhile another process sharing the database ends it
        table.stale = True  # as its notification marks the cached table
    await due
    for _ in range(20):
        await asyncio.sleep(0)
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == []
    assert sessions.timers.armed(table.id) == set()
    assert len(rec.updates) == played  # nothing was played for the absent players
