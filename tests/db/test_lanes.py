"""The SQLite connection's lock: the moves' fast lane goes first, nothing starves, cancellation is safe."""

from __future__ import annotations

import asyncio

import pytest

from db.lanes import Lanes


async def _hold(lanes: Lanes, name: str, order: list[str], fast: bool = False) -> None:
    await lanes.acquire(fast=fast)
    try:
        order.append(name)
        await asyncio.sleep(0)
    finally:
        lanes.release()


async def _queue(lanes: Lanes, jobs: list[tuple[str, bool]], order: list[str]) -> None:
    """Hold the lock, queue ``jobs`` behind it in this order, then let go and run them all."""
    await lanes.acquire()
    tasks = []
    for name, fast in jobs:
        tasks.append(asyncio.create_task(_hold(lanes, name, order, fast)))
        await asyncio.sleep(0)  # queued in this order
    lanes.release()
    await asyncio.gather(*tasks)


async def test_the_fast_lane_goes_before_the_ordinary_queue() -> None:
    lanes, order = Lanes(), []
    await _queue(lanes, [("read1", False), ("read2", False), ("moves", True)], order)
    assert order == ["moves", "read1", "read2"]
    assert not lanes.locked()


async def test_the_fast_lane_never_goes_twice_while_others_wait() -> None:
    lanes, order = Lanes(), []
    await lanes.acquire()
    first = asyncio.create_task(_hold(lanes, "read1", order))
    await asyncio.sleep(0)
    moves = [asyncio.create_task(_hold(lanes, f"moves{n}", order, fast=True)) for n in range(1)]
    await asyncio.sleep(0)
    second = asyncio.create_task(_hold(lanes, "read2", order))
    await asyncio.sleep(0)
    lanes.release()
    # the writer queues again as soon as it let go (moves arrived meanwhile)
    while "moves0" not in order:
        await asyncio.sleep(0)
    again = asyncio.create_task(_hold(lanes, "moves1", order, fast=True))
    await asyncio.gather(first, second, again, *moves)
    assert order == ["moves0", "read1", "moves1", "read2"]


async def test_release_hands_the_lock_over_so_no_newcomer_slips_in() -> None:
    lanes, order = Lanes(), []
    await lanes.acquire()
    waiting = asyncio.create_task(_hold(lanes, "queued", order))
    await asyncio.sleep(0)
    lanes.release()
    assert lanes.locked()  # already the queued task's, before it even ran
    newcomer = asyncio.create_task(_hold(lanes, "newcomer", order))
    await asyncio.gather(waiting, newcomer)
    assert order == ["queued", "newcomer"]


@pytest.mark.parametrize("fast", [False, True])
async def test_a_waiter_cancelled_in_the_queue_is_skipped(fast: bool) -> None:
    lanes, order = Lanes(), []
    await lanes.acquire()
    doomed = asyncio.create_task(_hold(lanes, "doomed", order, fast=fast))
    after = asyncio.create_task(_hold(lanes, "after", order))
    await asyncio.sleep(0)
    doomed.cancel()
    await asyncio.sleep(0)
    lanes.release()
    await after
    with pytest.raises(asyncio.CancelledError):
        await doomed
    assert order == ["after"]
    assert not lanes.locked()


async def test_a_waiter_cancelled_as_the_lock_reaches_it_passes_it_on() -> None:
    lanes, order = Lanes(), []
    await lanes.acquire()
    doomed = asyncio.create_task(_hold(lanes, "doomed", order))
    after = asyncio.create_task(_hold(lanes, "after", order))
    await asyncio.sleep(0)
    lanes.release()  # handed to "doomed", which has not run yet
    doomed.cancel()
    await after
    with pytest.raises(asyncio.CancelledError):
        await doomed
    assert order == ["after"]
    assert not lanes.locked()


async def test_a_waiter_cancelled_then_skipped_by_a_release_still_ends_cancelled() -> None:
    """The cancellation reaches the waiter's future at once, its task only later: a release in
    between drops the cancelled waiter, and the task must still end with CancelledError."""
    lanes, order = Lanes(), []
    await lanes.acquire()
    doomed = asyncio.create_task(_hold(lanes, "doomed", order))
    after = asyncio.create_task(_hold(lanes, "after", order))
    await asyncio.sleep(0)
    doomed.cancel()
    lanes.release()  # before the doomed task has run: it skips the cancelled waiter
    with pytest.raises(asyncio.CancelledError):
        await doomed
    await after
    assert order == ["after"]
    assert not lanes.locked()


async def test_release_of_a_free_lock_is_an_error() -> None:
    with pytest.raises(RuntimeError):
        Lanes().release()


async def test_the_store_writes_moves_ahead_of_queued_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the real backend: an append queued behind many reads is written before them."""
    from db.sqlite import SqliteBackend

    backend = await SqliteBackend.open(":memory:")
    try:
        order: list[str] = []

        async def flush(batch: list[object]) -> None:  # the write itself is the store tests' business
            order.append("moves")
            for request in batch:
                request.settle(None)  # type: ignore[attr-defined]

        monkeypatch.setattr(backend, "_flush", flush)

        async def read(n: int) -> None:
            async with backend.read() as db:
                await db.fetch("SELECT 1")
                order.append(f"read{n}")

        async with backend.read():  # busy: everything below queues
            reads = [asyncio.create_task(read(n)) for n in range(5)]
            await asyncio.sleep(0)
            move = asyncio.create_task(backend.append([]))
            await asyncio.sleep(0.01)
            assert order == []
        await asyncio.gather(move, *reads)
        assert order == ["moves"] + [f"read{n}" for n in range(5)]
    finally:
        await backend.close()
