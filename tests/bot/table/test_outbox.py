"""The outbox every rate-limited call of the bot goes through (cogs/table/messages/outbox.py), on its own.

Budgets are sliding windows on the real clock; the windows here are a fraction of a second, and
the tests check what is sent and in which order, with only loose bounds on when. The tests of the
fair turns between tables run on a clock the test moves, so which calls a budget allows is exact.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from cogs.table.messages.outbox import Outbox, RestBudget


class Recorder:
    """A call's run: records what it sent and when."""

    def __init__(self, delay: float = 0.0) -> None:
        self.sent: list[tuple[Any, float]] = []
        self.delay = delay

    async def __call__(self, fields: dict[str, Any], new: bool) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        self.sent.append((fields["content"], time.monotonic()))


def edit_of(channel: int):
    return lambda new: [("edit", channel)]


async def test_without_a_budget_every_call_runs_at_once_in_order():
    outbox = Outbox(None)
    run = Recorder()
    for n in range(10):
        assert await outbox.submit("board", {"content": n}, plan=edit_of(1), run=run)
    assert [c for c, _ in run.sent] == list(range(10))


async def test_newer_content_replaces_a_waiting_edit_and_the_stale_one_is_never_sent():
    # Discord's 2 per 0.3 s means one edit per 0.4 s here (one token spare, and the margin).
    outbox = Outbox(RestBudget(channel_edits=(2, 0.3)))
    run = Recorder()
    ran_now = [await outbox.submit("board", {"content": n}, plan=edit_of(1), run=run) for n in range(5)]
    assert ran_now == [True, False, False, False, False]  # the caller never waits for the bucket
    await outbox.drained()
    assert [c for c, _ in run.sent] == [0, 4]  # the newest content, once; 1-3 were never sent
    assert outbox.coalesced == 3
    assert run.sent[1][1] - run.sent[0][1] >= 0.35


async def test_each_channel_has_its_own_bucket():
    outbox = Outbox(RestBudget(channel_edits=(2, 5.0)))
    run = Recorder()
    for channel in range(4):
        assert await outbox.submit(("board", channel), {"content": channel}, plan=edit_of(channel), run=run)
    assert not await outbox.submit(("board", 0), {"content": "again"}, plan=edit_of(0), run=run)
    assert outbox.backlog() == 1
    outbox.discard(("board", 0))
    assert outbox.backlog() == 0 and [c for c, _ in run.sent] == [0, 1, 2, 3]


async def test_the_global_budget_holds_every_channel_oldest_first():
    outbox = Outbox(RestBudget(per_second=3, margin_s=0.0))
    run = Recorder()
    started = time.monotonic()
    for channel in range(7):
        await outbox.submit(("board", channel), {"content": channel}, plan=edit_of(channel), run=run)
    await outbox.drained()
    assert [c for c, _ in run.sent] == list(range(7))  # oldest first
    times = [at - started for _, at in run.sent]
    assert times[3] >= 0.95 and times[6] >= 1.95  # three per second
    for n in range(len(times) - 3):
        assert times[n + 3] - times[n] >= 0.95  # never four within a second


async def test_two_calls_for_one_message_never_race():
    outbox = Outbox(None)
    slow, quick = Recorder(delay=0.2), Recorder()
    first = asyncio.ensure_future(outbox.submit("board", {"content": "old"}, plan=edit_of(1), run=slow))
    await asyncio.sleep(0.01)
    assert outbox.pending("board")
    assert not await outbox.submit("board", {"content": "new"}, plan=edit_of(1), run=quick)  # waits its turn
    await first
    await outbox.drained()
    assert slow.sent[0][0] == "old" and quick.sent[0][0] == "new" and quick.sent[0][1] >= slow.sent[0][1]


async def test_a_call_of_several_requests_takes_as_many_global_tokens():
    outbox = Outbox(RestBudget(per_second=2, margin_s=0.0))
    run = Recorder()
    dm = lambda new: [("dm", 0), ("send", 0)]  # noqa: E731 - open a DM, then send to it
    assert await outbox.submit("dm-1", {"content": "a"}, plan=dm, run=run)
    assert not await outbox.submit("dm-2", {"content": "b"}, plan=dm, run=run)  # the second second
    await outbox.drained()
    assert run.sent[1][1] - run.sent[0][1] >= 0.95


async def test_finished_waits_for_a_queued_call():
    outbox = Outbox(RestBudget(channel_sends=(2, 0.2)))
    run = Recorder()
    send = lambda new: [("send", 9)]  # noqa: E731
    await outbox.submit("a", {"content": 1}, plan=send, run=run)
    await outbox.submit("b", {"content": 2}, plan=send, run=run, new=True)
    assert outbox.queued_new("b") and not outbox.queued_new("a")
    await outbox.finished("b")
    assert [c for c, _ in run.sent] == [1, 2]


async def test_a_token_counts_from_when_its_call_ends_not_from_when_it_was_given():
    """A call that took long to reach Discord (a busy event loop, the network) still counts in the
    window of the requests after it: the next is allowed a window after the slow one *ended*."""
    outbox = Outbox(RestBudget(channel_edits=(2, 0.3), margin_s=0.0))  # one edit per 0.3 s
    slow, quick = Recorder(delay=0.5), Recorder()
    first = asyncio.ensure_future(outbox.submit("a", {"content": "slow"}, plan=edit_of(1), run=slow))
    await asyncio.sleep(0.05)
    assert not await outbox.submit("b", {"content": "next"}, plan=edit_of(1), run=quick)  # slow one running
    await asyncio.sleep(0.6)  # 0.3 s after it was given its token, but the slow call ended just now
    assert quick.sent == []
    await first
    await outbox.drained()
    assert quick.sent[0][1] - slow.sent[0][1] >= 0.28  # a whole window after the slow call ended


async def test_closing_past_its_timeout_stops_the_calls_still_on_the_wire():
    """The bot closes its HTTP session right after the outbox: a call left running would fail
    against the closed session and log an ERROR."""
    outbox = Outbox(RestBudget(channel_edits=(1, 0.2)))
    fast, slow = Recorder(), Recorder(delay=1.0)
    assert await outbox.submit(("board", 1), {"content": 0}, plan=edit_of(1), run=fast)
    assert not await outbox.submit(("board", 1), {"content": 1}, plan=edit_of(1), run=slow)  # queued
    await asyncio.sleep(0.6)  # the bucket refills: the dispatcher puts it on the wire
    assert outbox.backlog() == 0
    started = time.monotonic()
    await outbox.close(timeout=0.1)
    assert time.monotonic() - started < 2.0
    await asyncio.sleep(1.5)  # it would have ended by now
    assert slow.sent == []  # cut short, not left running
    await outbox.drained()  # nothing is left busy


class Recording(Recorder):
    """A run that sends, says its requests are over, then records the answer (a slow store write)."""

    def __init__(self, outbox: Outbox, record: float) -> None:
        super().__init__()
        self.outbox, self.record = outbox, record
        self.recorded: list[float] = []

    async def __call__(self, fields: dict[str, Any], new: bool) -> None:
        await super().__call__(fields, new)
        self.outbox.requests_ended()
        self.outbox.requests_ended()  # a second time gives back nothing more
        await asyncio.sleep(self.record)
        self.recorded.append(time.monotonic())


async def test_a_token_comes_back_when_the_requests_end_not_after_the_record():
    """Recording a sent message in the database sends nothing: the next call of the bucket goes a
    window after the request, while the record is still being written; the next call of the same
    message still waits for the record (it edits the message the record names)."""
    outbox = Outbox(RestBudget(channel_edits=(2, 0.3), margin_s=0.0))  # one edit per 0.3 s
    recording, quick = Recording(outbox, record=1.0), Recorder()
    first = asyncio.ensure_future(outbox.submit("a", {"content": "sent"}, plan=edit_of(1), run=recording))
    await asyncio.sleep(0.05)
    assert not await outbox.submit("b", {"content": "other"}, plan=edit_of(1), run=quick)  # the bucket is used
    assert not await outbox.submit("a", {"content": "same"}, plan=edit_of(1), run=quick)  # behind the record
    await asyncio.sleep(0.6)
    assert [c for c, _ in quick.sent] == ["other"]  # sent while the first call's record was written
    assert quick.sent[0][1] - recording.sent[0][1] >= 0.28  # but still a window after the request
    assert recording.recorded == []
    await first
    await outbox.drained()
    assert [c for c, _ in quick.sent] == ["other", "same"]
    assert quick.sent[1][1] >= recording.recorded[0]  # the same message: after its record
    assert quick.sent[1][1] - quick.sent[0][1] >= 0.28  # the bucket's budget held throughout


async def test_requests_ended_outside_a_run_does_nothing():
    outbox = Outbox(RestBudget(channel_edits=(2, 5.0)))
    outbox.requests_ended()
    run = Recorder()
    assert await outbox.submit("a", {"content": 1}, plan=edit_of(1), run=run)
    outbox.requests_ended()  # the call above has returned: its token was counted at its end, once
    assert not await outbox.submit("b", {"content": 2}, plan=edit_of(1), run=run)


async def test_after_closing_nothing_is_sent_and_no_dispatcher_starts_again():
    """Shutdown closes the store and the HTTP session after the outbox: a redraw asked for later
    (a table's task still finishing) must not run against them."""
    outbox = Outbox(RestBudget(channel_edits=(2, 0.3)))
    run = Recorder()
    assert await outbox.submit("board", {"content": "before"}, plan=edit_of(1), run=run)
    await outbox.close(timeout=1.0)
    assert not await outbox.submit("board", {"content": "after"}, plan=edit_of(1), run=run)
    assert not await outbox.submit("other", {"content": "after"}, plan=edit_of(2), run=run)
    await asyncio.sleep(0.5)
    assert [c for c, _ in run.sent] == ["before"]
    assert outbox.backlog() == 0


# --------------------------------------------------------------------------- fair turns between tables


class Clock:
    """The outbox's clock, moved only by the test: which calls a budget allows is exact."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


async def window_later(outbox: Outbox, clock: Clock, seconds: float) -> None:
    """Move the clock a window on, then let the dispatcher send what the budgets allow now.

    Everything was queued without yielding to the loop, so the dispatcher's first look is at the
    moved clock; what is left waits for a later window (the test closes the outbox)."""
    clock.t += seconds
    for _ in range(20):
        await asyncio.sleep(0.005)


def send_to(channel: int):
    return lambda new: [("send", channel)]


async def test_a_table_with_one_call_does_not_wait_behind_another_tables_backlog_in_its_channel():
    clock = Clock()
    outbox = Outbox(RestBudget(channel_sends=(3, 1.0), margin_s=0.0), now=clock)  # two sends per second
    run = Recorder()
    for n in range(8):  # table 1 floods channel 7: two go now, six wait
        await outbox.submit((1, f"m{n}", None), {"content": f"A{n}"}, plan=send_to(7), run=run)
    await outbox.submit((2, "board", None), {"content": "B"}, plan=send_to(7), run=run)
    assert outbox.backlog() == 7
    await window_later(outbox, clock, 1.0)
    # Oldest first, B waited behind all six of table 1's (three seconds at this budget).
    assert [c for c, _ in run.sent] == ["A0", "A1", "B", "A2"]
    await outbox.close(timeout=0.0)


async def test_a_table_with_one_call_does_not_wait_behind_a_global_backlog():
    clock = Clock()
    outbox = Outbox(RestBudget(per_second=2, margin_s=0.0), now=clock)  # two calls a second in all
    run = Recorder()
    for n in range(8):  # table 1 redraws eight messages, each in a channel of its own
        await outbox.submit((1, f"m{n}", None), {"content": f"A{n}"}, plan=edit_of(10 + n), run=run)
    await outbox.submit((2, "board", None), {"content": "B"}, plan=edit_of(20), run=run)
    await outbox.submit(("check", 99), {"content": "C"}, plan=edit_of(21), run=run)  # any key takes turns
    await window_later(outbox, clock, 1.0)
    assert [c for c, _ in run.sent] == ["A0", "A1", "B", "C"]
    await outbox.close(timeout=0.0)


async def test_tables_with_backlogs_take_turns():
    clock = Clock()
    outbox = Outbox(RestBudget(channel_sends=(5, 1.0), margin_s=0.0), now=clock)  # four sends per second
    run = Recorder()
    for table, name in ((1, "A"), (2, "B"), (3, "C")):
        for n in range(4):
            await outbox.submit((table, f"m{n}", None), {"content": f"{name}{n}"}, plan=send_to(7), run=run)
    assert [c for c, _ in run.sent] == ["A0", "A1", "A2", "A3"]
    await window_later(outbox, clock, 1.0)
    assert [c for c, _ in run.sent][4:] == ["B0", "C0", "B1", "C1"]  # A was served last: its turn comes later
    await outbox.close(timeout=0.0)


async def test_a_tables_first_message_goes_before_every_other_tables_calls():
    """A lobby being opened (a key with no message yet) is what its people wait for to see the table
    at all: it goes before the redraws of tables already shown, in its channel and globally."""
    clock = Clock()
    outbox = Outbox(RestBudget(channel_sends=(3, 1.0), margin_s=0.0), now=clock)  # two sends per second
    run = Recorder()
    for n in range(5):
        await outbox.submit((1, f"m{n}", None), {"content": f"A{n}"}, plan=send_to(7), run=run)
    await outbox.submit((2, "board", None), {"content": "B"}, plan=send_to(7), run=run)
    await outbox.submit((3, "lobby", None), {"content": "lobby"}, plan=send_to(7), run=run, first=True)
    await outbox.submit((3, "lobby", None), {"content": "lobby, Bo joined"}, plan=send_to(7), run=run)
    assert outbox.coalesced == 1  # newer content joined the queued first message, which stays first
    await window_later(outbox, clock, 1.0)
    assert [c for c, _ in run.sent] == ["A0", "A1", "lobby, Bo joined", "B"]
    await outbox.close(timeout=0.0)


async def test_a_keys_calls_keep_their_order_whatever_the_turns():
    """Turns choose between keys; a key's next call still waits for the one on the wire."""
    clock = Clock()
    outbox = Outbox(RestBudget(channel_edits=(5, 1.0), margin_s=0.0), now=clock)
    slow, quick = Recorder(delay=0.2), Recorder()
    first = asyncio.ensure_future(outbox.submit((2, "board", None), {"content": "old"}, plan=edit_of(1), run=slow))
    await asyncio.sleep(0.01)
    assert not await outbox.submit((2, "board", None), {"content": "new"}, plan=edit_of(1), run=quick,
                                   first=True)
    await outbox.submit((1, "board", None), {"content": "other"}, plan=edit_of(1), run=quick)
    await first
    await outbox.drained()
    assert [c for c, _ in quick.sent] == ["other", "new"]  # the other table's went while "old" was on the wire
    assert quick.sent[1][1] >= slow.sent[0][1]
