"""db/leases.py on PostgreSQL: claims are atomic, expiry is the database's, release frees at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from db import Store
from db.leases import TimerLeases, leases_of

BUCKETS = 64


@pytest.fixture
async def pg(pg_server: Any) -> AsyncIterator[Store]:
    store = await Store.connect(pg_server.new_database())
    yield store
    await store.close()


def _book(store: Store, owner: str | None = None) -> TimerLeases:
    book = leases_of(store, owner)
    assert book is not None
    return book


async def test_sqlite_has_no_leases():
    store = await Store.open(":memory:")
    assert leases_of(store) is None
    await store.close()


async def test_processes_claiming_at_once_take_disjoint_buckets(pg):
    books = [_book(pg) for _ in range(4)]
    assert len({b.owner for b in books}) == 4  # a fresh random id per process
    taken = await asyncio.gather(*(b.claim(BUCKETS, BUCKETS, 30) for b in books))
    flat = [bucket for got in taken for bucket in got]
    assert sorted(flat) == list(range(BUCKETS))  # every bucket once: never two owners
    holders = await books[0].holders()
    assert all(holders[bucket] == book.owner for book, got in zip(books, taken, strict=True) for bucket in got)


async def test_a_held_lease_is_not_taken_an_expired_one_is_and_its_old_owner_loses_it(pg):
    old, new = _book(pg, "old"), _book(pg, "new")
    first = await old.claim(3, BUCKETS, 0.5)
    assert len(first) == 3
    assert set(await new.claim(BUCKETS, BUCKETS, 30)) == set(range(BUCKETS)) - set(first)  # held ones skipped
    assert await new.claim(BUCKETS, BUCKETS, 30) == []
    await asyncio.sleep(0.7)  # by the database's clock, the old owner's leases are over
    assert await new.claim(BUCKETS, BUCKETS, 30) == first
    held, live = await old.renew(30)
    assert held == [] and live == 1  # taken meanwhile: the renewal says so; "new" never beat its heart


async def test_renewal_counts_live_processes_and_release_frees_at_once(pg):
    a, b = _book(pg, "a"), _book(pg, "b")
    await a.claim(BUCKETS, BUCKETS, 30)
    assert (await a.renew(30))[1] == 1
    held, live = await b.renew(30)
    assert (held, live) == ([], 2)
    await a.release(list(range(10)))
    assert sorted(await b.claim(BUCKETS, BUCKETS, 30)) == list(range(10))
    await a.release()  # stopping: every lease and the heartbeat
    assert set((await b.holders()).values()) == {"b"} and len(await b.claim(BUCKETS, BUCKETS, 30)) == BUCKETS - 10
    assert (await b.renew(30))[1] == 1


async def test_a_write_to_a_table_is_heard_by_every_listener(pg):
    heard: list[int] = []
    book = _book(pg)

    async def changed(table_id: int) -> None:
        heard.append(table_id)

    async def lost() -> None:
        pass

    stop = await book.listen(changed, lost)
    game = await pg.create_game("sakkara", guild_id=1, channel_id=2, host_id=3)
    for _ in range(100):
        if heard:
            break
        await asyncio.sleep(0.02)
    await stop()
    assert game.id in heard
