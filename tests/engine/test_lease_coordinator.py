"""engine/session/leases.py against an in-memory lease table: shares, rebalancing, hand-over, and a
database that fails (the loop survives, belief ends after the TTL, timers come back after it)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence

import pytest

from engine.session.leases import Leases

RENEW, TTL = 0.02, 0.15


class LeaseTable:
    """The shared lease table: bucket -> owner, and the live processes (no expiry: nobody dies here)."""

    def __init__(self) -> None:
        self.owners: dict[int, str] = {}
        self.live: set[str] = set()
        self.down = False


class Book:
    """One process's view of a :class:`LeaseTable` (what db.leases.TimerLeases is on PostgreSQL)."""

    def __init__(self, table: LeaseTable, owner: str) -> None:
        self.table = table
        self.owner = owner

    def _reach(self) -> None:
        if self.table.down:
            raise ConnectionError("connection refused")

    async def renew(self, ttl_s: float) -> tuple[list[int], int]:
        self._reach()
        self.table.live.add(self.owner)
        return sorted(b for b, o in self.table.owners.items() if o == self.owner), len(self.table.live)

    async def claim(self, count: int, buckets: int, ttl_s: float) -> list[int]:
        self._reach()
        free = [b for b in range(buckets) if b not in self.table.owners][:count]
        self.table.owners.update(dict.fromkeys(free, self.owner))
        return free

    async def release(self, buckets: Sequence[int] | None = None) -> None:
        self._reach()
        for bucket in list(self.table.owners if buckets is None else buckets):
            if self.table.owners.get(bucket) == self.owner:
                del self.table.owners[bucket]
        if buckets is None:
            self.table.live.discard(self.owner)

    async def listen(self, changed: Callable[[int], Awaitable[None]],
                     lost: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
        self._reach()

        async def stop() -> None:
            pass

        return stop


class Calls:
    """What a coordinator told the session layer, in order."""

    def __init__(self) -> None:
        self.gained: list[list[int]] = []
        self.lost: list[list[int]] = []

    async def on_gained(self, buckets: Iterable[int] | None) -> None:
        self.gained.append(sorted(buckets or []))

    async def on_lost(self, buckets: Iterable[int]) -> None:
        self.lost.append(sorted(buckets))

    async def on_changed(self, table_id: int) -> None:
        pass


async def _started(table: LeaseTable, owner: str, buckets: int = 8) -> tuple[Leases, Calls]:
    leases, calls = Leases(Book(table, owner), buckets=buckets, renew_s=RENEW, ttl_s=TTL), Calls()
    await leases.start(calls.on_gained, calls.on_lost, calls.on_changed)
    return leases, calls


async def _until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    began = time.monotonic()
    while not condition():
        assert time.monotonic() - began < timeout, "never happened"
        await asyncio.sleep(0.005)


async def test_a_lone_process_takes_every_bucket_at_start_and_arms_them():
    table = LeaseTable()
    leases, calls = await _started(table, "a")
    assert calls.gained == [list(range(8))]  # before start returned: the timers are armed by then
    assert all(leases.owns(t) for t in range(20))
    await leases.stop()
    assert table.owners == {} and table.live == set()
    assert not leases.owns(0)


async def test_a_process_that_joins_gets_a_fair_share_and_no_bucket_has_two_owners():
    table = LeaseTable()
    first, first_calls = await _started(table, "a")
    second, second_calls = await _started(table, "b")
    await _until(lambda: len(first.held) == len(second.held) == 4)
    assert first.held.isdisjoint(second.held) and first.held | second.held == set(range(8))
    # Each keeps a spread of the buckets, so the first tables (ids 1, 2, 3, ...) are shared too.
    assert first.held == {0, 2, 4, 6} and second.held == {1, 3, 5, 7}
    assert [b for bs in first_calls.lost for b in bs] == sorted(second.held)  # stopped here before released
    assert [b for bs in second_calls.gained for b in bs] == sorted(second.held)
    await second.stop()  # released: the first takes them back on its next round
    await _until(lambda: len(first.held) == 8)
    await first.stop()


async def test_a_failing_database_never_crashes_the_loop_and_ownership_ends_after_the_ttl(caplog):
    caplog.set_level(logging.INFO, "engine.session.leases")
    table = LeaseTable()
    leases, calls = await _started(table, "a")
    table.down = True
    await _until(lambda: not leases.owns(3))
    dropped_after = time.monotonic()
    await _until(lambda: calls.lost == [list(range(8))])
    await asyncio.sleep(4 * RENEW)
    failures = [r for r in caplog.records if "failed" in r.getMessage()]
    assert failures and all(r.levelno == logging.WARNING and r.exc_info is None for r in failures)
    assert len(failures) <= 3  # one line per outage (and a reminder every tenth attempt), not one per try

    # Back: the loop kept trying, and the buckets are still ours in the table: armed again.
    table.down = False
    await _until(lambda: leases.owns(3))
    assert time.monotonic() - dropped_after < 5
    await _until(lambda: calls.gained[-1] == list(range(8)))
    assert any("renewed again" in r.getMessage() for r in caplog.records)
    await leases.stop()


async def test_renewal_and_ttl_must_fit():
    with pytest.raises(ValueError, match="renew_s"):
        Leases(Book(LeaseTable(), "a"), renew_s=5, ttl_s=5)


async def test_the_module_constants_are_read_when_a_coordinator_is_built(monkeypatch):
    import engine.session.leases as module

    monkeypatch.setattr(module, "RENEW_S", 0.5)
    monkeypatch.setattr(module, "TTL_S", 1.5)
    leases = Leases(Book(LeaseTable(), "a"))  # as coordinator_for builds it: a harness shortens both
    assert (leases.renew_s, leases.ttl_s, leases.bucket_count) == (0.5, 1.5, module.BUCKETS)


async def test_a_change_that_cannot_be_taken_in_is_logged_and_its_bucket_armed_on_the_next_round(caplog):
    table = LeaseTable()
    heard: list[Callable[[int], Awaitable[None]]] = []

    class Listening(Book):
        async def listen(self, changed, lost):
            heard.append(changed)
            return await super().listen(changed, lost)

    async def failing(table_id: int) -> None:
        raise ConnectionError("connection refused")

    leases, calls = Leases(Listening(table, "a"), buckets=8, renew_s=RENEW, ttl_s=TTL), Calls()
    await leases.start(calls.on_gained, calls.on_lost, failing)
    await heard[0](13)  # what the notification task runs: it must not raise into nowhere
    assert any("table 13" in r.getMessage() and r.exc_info is None for r in caplog.records)
    await _until(lambda: calls.gained[-1] == [13 % 8])
    await leases.stop()
