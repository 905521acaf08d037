"""Several bot processes on one PostgreSQL (issue 16): timer leases, takeover, notifications, races.

Each "process" is a Sessions with its own store (its own connection pool) and its own Leases (its
own owner id), all in this test's event loop. The leases run on real time with a short TTL (their
expiry is judged by the database's clock, which cannot be faked); the session timers share one
manual clock, so a decision deadline passes only when the test says so.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from test_session import ANN, BO, CY, GUILD, Recorder

from db import Store
from db.leases import leases_of
from engine.clock import ManualClock
from engine.session import DECISION, RepoStale, SessionError, Sessions, SessionSettings, SingleProcess, Table
from engine.session.games import SPECS
from engine.session.leases import Leases
from wiring.coordination import coordinator_for
from wiring.storage import StoreRepository

RENEW, TTL = 0.25, 2.0  # seconds: short, yet a busy test machine does not let leases lapse
TAKEOVER_S = 10.0  # the promise: a dead process's buckets are taken within this


class Repo(StoreRepository):
    """The real repository, counting appends the database refused as stale; ``gate`` (when set)
    holds every process's first append until all of them have arrived: a race at the same version."""

    def __init__(self, store: Store) -> None:
        super().__init__(store)
        self.refused = 0
        self.gate: Gate | None = None

    async def append(self, *args: Any, **kwargs: Any) -> Any:
        if self.gate is not None:
            gate, self.gate = self.gate, None
            await gate.arrive()
        try:
            return await super().append(*args, **kwargs)
        except RepoStale:
            self.refused += 1
            raise


class Gate:
    """Lets ``parties`` callers through together, once."""

    def __init__(self, parties: int) -> None:
        self.parties = parties
        self.opened = asyncio.Event()

    async def arrive(self) -> None:
        self.parties -= 1
        if self.parties == 0:
            self.opened.set()
        await asyncio.wait_for(self.opened.wait(), 5)


@dataclass
class Process:
    """One bot process's session layer."""

    name: str
    store: Store
    sessions: Sessions
    rec: Recorder
    repo: Repo
    leases: Leases
    dead: bool = field(default=False)

    async def kill(self) -> None:
        """Die without a goodbye: renewal and timers stop, nothing is released, the pool goes."""
        self.dead = True
        await self.leases.abandon()
        self.sessions.timers.cancel_all()
        await self.store.close()


async def _process(name: str, url: str, clock: ManualClock) -> Process:
    store = await Store.connect(url, pool_size=4)
    book = leases_of(store)
    assert book is not None
    leases = Leases(book, renew_s=RENEW, ttl_s=TTL)
    repo, rec = Repo(store), Recorder()
    sessions = Sessions(repo, SPECS, rec, clock, SessionSettings(decision_timeout_s=120, reminder_before_s=30,
                                                          ai_delay_s=0), coordinator=leases)
    await sessions.open()
    return Process(name, store, sessions, rec, repo, leases)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(time.time())


@pytest.fixture
async def procs(pg_server: Any, clock: ManualClock) -> AsyncIterator[list[Process]]:
    """Three processes on one fresh database, their buckets shared out (each bucket held by one)."""
    url = pg_server.new_database()
    started = [await _process(name, url, clock) for name in "ABC"]
    await _until(lambda: _balanced(started), "the buckets were never shared out")
    yield started
    for proc in started:
        if not proc.dead:
            await proc.sessions.close()
            await proc.store.close()


def _balanced(procs: list[Process]) -> bool:
    live = [p for p in procs if not p.dead]
    held = [p.leases.held for p in live]
    share = -(-live[0].leases.bucket_count // len(live))
    return (sum(len(h) for h in held) == live[0].leases.bucket_count and len(set().union(*held)) == sum(map(len, held))
            and all(len(h) <= share for h in held))


async def _until(condition: Callable[[], bool], message: str, timeout: float = TAKEOVER_S) -> float:
    """Wait (real time) until ``condition()``; return how long it took."""
    began = time.monotonic()
    while not condition():
        if time.monotonic() - began > timeout:
            raise AssertionError(message)
        await asyncio.sleep(0.02)
    return time.monotonic() - began


def _owner(procs: list[Process], table_id: int) -> Process:
    [owner] = [p for p in procs if not p.dead and p.leases.owns(table_id)]
    return owner


async def _table(via: Process, channel: int, game: str = "incan_gold", seed: int = 7) -> Table:
    """Open, fill (three people, or as many as the game seats) and start a table through one process."""
    table = await via.sessions.create(game, GUILD, channel, ANN)
    for person in (BO, CY)[: SPECS[game].max_players - 1]:
        await via.sessions.join(table.id, person)
    await via.sessions.start(table.id, ANN.user_id or 0, seed=seed)
    return table


async def test_every_bucket_has_one_owner_and_the_database_agrees(procs):
    book = leases_of(procs[0].store)
    assert book is not None
    holders = await book.holders()
    assert sorted(holders) == list(range(procs[0].leases.bucket_count))
    for proc in procs:
        assert {b for b, owner in holders.items() if owner == proc.leases.owner} == proc.leases.held
    assert len({p.leases.owner for p in procs}) == 3


async def test_a_timer_armed_through_another_process_fires_once_in_the_owner(procs, clock):
    lobby = await procs[0].sessions.create("incan_gold", GUILD, 700, ANN)
    owner = _owner(procs, lobby.id)
    other = next(p for p in procs if p is not owner)
    await other.sessions.join(lobby.id, BO)
    await other.sessions.join(lobby.id, CY)
    await other.sessions.start(lobby.id, ANN.user_id or 0, seed=7)
    # The owner hears of the start (a notification) and arms the deadline from the store.
    await _until(lambda: DECISION in owner.sessions.timers.armed(lobby.id), "the owner never armed the timer")
    assert all(not p.sessions.timers.armed(lobby.id) for p in procs if p is not owner)

    await clock.advance(121)
    timed_out = [(p.name, u.timed_out) for p in procs for u in p.rec.updates if u.timed_out]
    assert timed_out == [(owner.name, [0, 1, 2])]
    events = await procs[0].repo.seat_events(lobby.id)
    assert sorted((e.seat, e.kind) for e in events) == [(0, "timeout"), (1, "timeout"), (2, "timeout")]


async def test_a_dead_owners_buckets_are_taken_within_10s_and_its_deadline_fires_once(procs, clock):
    table = await _table(procs[0], 701)
    victim = _owner(procs, table.id)
    survivors = [p for p in procs if p is not victim]
    version = (await survivors[0].sessions.table(table.id)).version
    await victim.kill()
    began = time.monotonic()
    await clock.advance(121)  # the deadline passes while nobody runs it
    assert not any(u.timed_out for p in procs for u in p.rec.updates)

    taken = await _until(lambda: any(p.leases.owns(table.id) for p in survivors), "nobody took the bucket")
    assert time.monotonic() - began < TAKEOVER_S and taken < TAKEOVER_S
    await _until(lambda: _balanced(procs), "the survivors never shared the dead process's buckets")
    heir = _owner(procs, table.id)
    # Re-armed from the stored deadline (just after the claim: the lease is taken, then the store read).
    await _until(lambda: DECISION in heir.sessions.timers.armed(table.id), "the heir never armed the deadline")
    await clock.advance(0)  # it is overdue: it fires at once
    timed_out = [(p.name, u.timed_out) for p in procs for u in p.rec.updates if u.timed_out]
    assert timed_out == [(heir.name, [0, 1, 2])]
    assert (await survivors[0].sessions.table(table.id)).version > version
    events = await heir.repo.seat_events(table.id)
    assert sorted((e.seat, e.kind) for e in events) == [(0, "timeout"), (1, "timeout"), (2, "timeout")]


async def test_a_stopped_process_hands_its_buckets_over_at_once(procs):
    leaving = procs[2]
    await leaving.sessions.close()
    await leaving.store.close()
    leaving.dead = True
    # Released, not expired: the others take them on their next round (well under the TTL).
    taken = await _until(lambda: _balanced(procs), "the released buckets were not taken")
    assert taken < TTL


async def test_clicks_at_different_processes_in_turn_all_apply(procs):
    table = await _table(procs[0], 702)
    turn = 0
    for _ in range(4):  # four windows of three secret choices, each click at another process
        here = await procs[turn % 3].sessions.table(table.id)
        window, owing = here.window, here.humans_owing()
        assert owing
        for seat in owing:
            proc = procs[turn % 3]
            turn += 1
            await proc.sessions.act(table.id, here.seats[seat].user_id or 0, window, "torch")
    versions = {(await p.sessions.table(table.id)).version for p in procs}
    stored = len(await procs[0].store.actions(table.id))
    assert versions == {stored}
    assert sum(len(u.actors) for p in procs for u in p.rec.updates if u.actors) >= turn
    assert sum(p.repo.refused for p in procs) == 0  # each process saw the others' moves first


@pytest.mark.parametrize("game", ["incan_gold", "sakkara"])
async def test_a_click_at_two_processes_at_once_applies_once_and_the_other_hears_already_played(procs, game):
    table = await _table(procs[0], 703, game)
    a, b = procs[1], procs[2]
    seen = [await p.sessions.table(table.id) for p in (a, b)]
    seat = seen[0].humans_owing()[0]
    user, window = seen[0].seats[seat].user_id or 0, seen[0].window
    action = seen[0].spec.game.legal_actions(seen[0].state, seat)[0]
    version = seen[0].version
    gate = Gate(2)
    a.repo.gate = b.repo.gate = gate  # both append at the same version, for sure

    outcomes = await asyncio.gather(a.sessions.act(table.id, user, window, action),
                                    b.sessions.act(table.id, user, window, action), return_exceptions=True)

    errors = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(errors) == 1 and isinstance(errors[0], SessionError)
    assert a.repo.refused + b.repo.refused == 1  # the database refused the second append
    actions = await procs[0].store.actions(table.id)
    mine = [r for r in actions[version:] if (r.seat, json.dumps(r.payload)) == (seat, json.dumps(action))]
    assert len(mine) == 1
    # What a double click in one process is told, the loser was told: the same ordinary reply.
    with pytest.raises(SessionError) as double:
        await a.sessions.act(table.id, user, window, action)
    assert errors[0].code == double.value.code
    assert errors[0].code == {"incan_gold": "not_your_turn", "sakkara": "stale"}[game]


async def test_coordinator_for_picks_single_process_on_sqlite_and_leases_on_postgresql(pg_server):
    lite = await Store.open(":memory:")
    pg = await Store.connect(pg_server.new_database())
    try:
        assert isinstance(coordinator_for(lite, None, None), SingleProcess)
        one, two = coordinator_for(pg, [0], 2), coordinator_for(pg, [1], 2)
        assert isinstance(one, Leases) and isinstance(two, Leases) and one.shared
        assert one.owner != two.owner
    finally:
        await lite.close()
        await pg.close()
