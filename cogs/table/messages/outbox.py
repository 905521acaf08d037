"""Every rate-limited REST call of the bot, kept within Discord's budgets, newest content first.

Discord allows a bot 50 requests per second for everything sent with its token (interaction
responses excepted) and each channel a small bucket of sends and one of edits (about 5 per 5 s);
discord.py only reacts to a 429 after the fact and, when a call takes a bucket's last token, keeps
the caller waiting until the bucket refills. So the hub hands every limited call to this outbox:

- **budgets**: a sliding window per budget (this process's share of the global one; per channel
  sends and edits; DM and thread creation), each one token short of Discord's bucket, so that
  discord.py never sees a bucket at zero and never makes its caller sleep. A request's token
  counts from when its requests *end* (and all the while they run), the latest moment they can
  have reached Discord: a call that waited for the event loop, discord.py or the network after it
  was given its budget cannot land in the same window of Discord's bucket as the ones after it.
  A call's run says when its requests are over (:meth:`Outbox.requests_ended`) before it records
  Discord's answer in the database: that write sends nothing, and holding the tokens through it
  (a group commit, hundreds of ms on a loaded machine) left most of the budget unused;
- **one place per message**: calls are keyed by what they show (a table's message of a kind).
  While a key's call waits for budget, newer content *replaces* it (a stale edit is never sent);
  while a key's call is on the wire, the next waits for it (two edits of one message never race);
- **no waiting caller**: a call that has budget now runs at once in the caller (the usual case);
  one that has not is queued and sent by a dispatcher task as budget frees, while the caller goes
  on (a table's lock is never held for a bucket);
- **fair turns**: among the queued calls whose budgets allow, a table's *first* message (a lobby
  being opened: a key with no message yet) goes first, then the table (a call's ``group``) served
  least recently, oldest first among equals. Sent oldest first, one table's backlog (a flood, a
  table moving faster than its channel's bucket) held every other table of its channel, and a
  global backlog every table of the process, for as long as it lasted: another member's new lobby
  did not appear for minutes (issue 42). Round robin between tables bounds that wait to a turn of
  each table queued, and a first message waits for no other table at all.

With ``budget=None`` (tests) nothing is limited: every call runs at once, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import logging
import time
from bisect import insort
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any

__all__ = ["BucketKey", "Outbox", "RestBudget", "table_of"]

log = logging.getLogger(__name__)

_RUNNING: contextvars.ContextVar[_Call | None] = contextvars.ContextVar("outbox_running", default=None)
"""The call whose run is executing in this context (read by :meth:`Outbox.requests_ended`)."""

_SERVED_KEPT = 4096
"""How many tables' last turns are remembered (a table not among them counts as never served)."""

BucketKey = tuple[str, int]
"""A per-route budget: ("send" | "edit" | "thread", channel id) or ("dm", 0) for opening DMs."""

Plan = Callable[[bool], list[BucketKey]]
"""The budgets a call's next run takes (given whether a new message was asked for), one per REST
request; each request also takes a global token."""

Run = Callable[[dict[str, Any], bool], Awaitable[None]]
"""Performs a call with its newest fields and whether a new message was asked for."""


@dataclass(frozen=True)
class RestBudget:
    """What this process may send: Discord's figures (issue 17, discord_platform.md section 1).

    ``per_second`` is this process's share of the bot's global 50/s: several processes sharing one
    token each take their share (``REST_PER_SECOND``). The route buckets are Discord's observed
    ones; each window is taken ``margin_s`` longer, for clock skew and network jitter.
    """

    per_second: float = 50.0
    channel_sends: tuple[int, float] = (5, 5.0)
    channel_edits: tuple[int, float] = (5, 5.0)
    dm_opens: tuple[int, float] = (5, 5.0)
    thread_opens: tuple[int, float] = (5, 5.0)
    margin_s: float = 0.1

    def window(self, kind: str) -> tuple[int, float]:
        """Return (capacity, span in seconds) of a budget, with the margin and the spare token."""
        if kind == "global":
            return max(1, int(self.per_second)), 1.0 + self.margin_s
        limit, span = {"send": self.channel_sends, "edit": self.channel_edits, "dm": self.dm_opens,
                       "thread": self.thread_opens}[kind]
        # One token short: discord.py sleeps in the call that takes a bucket's last token.
        return max(1, limit - 1), span + self.margin_s


class _Window:
    """A sliding window: at most ``capacity`` requests running or ended in any ``span`` seconds."""

    __slots__ = ("capacity", "ended", "running", "span")

    def __init__(self, capacity: int, span: float) -> None:
        self.capacity, self.span = capacity, span
        self.running = 0  # requests given a token whose call has not ended
        self.ended: deque[float] = deque()  # when the calls of the others ended, oldest first

    def wait(self, now: float, count: int = 1) -> float:
        """Return how long until ``count`` more requests are allowed (0: now; inf: not before a
        running call ends, which wakes the dispatcher)."""
        ended = self.ended
        while ended and ended[0] <= now - self.span:
            ended.popleft()
        over = self.running + len(ended) + count - self.capacity
        if over <= 0:
            return 0.0
        return ended[over - 1] + self.span - now if over <= len(ended) else float("inf")

    def take(self) -> None:
        self.running += 1

    def end(self, now: float) -> None:
        """A request of this window has ended now: its token counts from here for ``span``."""
        self.running -= 1
        if self.ended and self.ended[-1] > now:
            insort(self.ended, now)  # a clock that went back (tests): keep the order
        else:
            self.ended.append(now)


def table_of(key: Hashable) -> Hashable:
    """The group a key's calls take turns as, unless the caller names one: the table of a table
    message's ``(table_id, kind, seat)`` key (DM notices are keyed so too), else the key itself."""
    return key[0] if isinstance(key, tuple) and len(key) == 3 else key


class _Call:
    __slots__ = ("done", "fields", "first", "group", "key", "new", "plan", "run", "tokens")

    def __init__(self, key: Hashable, fields: dict[str, Any], new: bool, plan: Plan, run: Run,
                 group: Hashable, first: bool) -> None:
        self.key, self.fields, self.new, self.plan, self.run = key, fields, new, plan, run
        self.group, self.first = group, first
        self.done: asyncio.Future[None] | None = None  # made when someone waits for it
        self.tokens: list[_Window] = []  # the windows its run took a token of (given back when it ends)

    def buckets(self) -> list[BucketKey]:
        return self.plan(self.new)


class Outbox:
    """Sends the hub's limited calls within the budget, coalescing what waits (see the module doc)."""

    def __init__(self, budget: RestBudget | None, now: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.now = now
        self._windows: dict[BucketKey | tuple[str, int], _Window] = {}
        self._queue: deque[_Call] = deque()  # waiting for budget, oldest first
        # group -> the turn its last call was put on the wire in, least recent first (trimmed to
        # _SERVED_KEPT: a group forgotten long ago has simply not been served recently).
        self._served: dict[Hashable, int] = {}
        self._turns = itertools.count()
        self._waiting: dict[Hashable, _Call] = {}  # key -> its queued call
        self._busy: dict[Hashable, asyncio.Future[None]] = {}  # key -> done when its call on the wire ends
        self._sending: set[asyncio.Task[None]] = set()  # the dispatcher's calls on the wire
        self._wake = asyncio.Event()
        self._dispatcher: asyncio.Task[None] | None = None
        self.sent = 0  # calls run (each one or more REST requests)
        self.coalesced = 0  # newer content that replaced a queued call's
        self._closed = False

    # ------------------------------------------------------------------ what callers use

    async def submit(self, key: Hashable, fields: dict[str, Any], *, plan: Plan, run: Run, new: bool = False,
                     first: bool = False, group: Hashable | None = None) -> bool:
        """Show ``fields`` under ``key``: now if there is budget, else as soon as there is.

        ``first``: the key has no message yet (a lobby being opened): it goes before the calls of
        tables already shown. ``group``: the table the call takes turns as (default
        :func:`table_of` the key). Returns True when the call ran now (in the caller), False when
        it was queued or merged into the key's queued call (whose content it replaces; a queued
        "new message" stays new, a queued first message stays first).
        """
        if self._closed:
            # Shutting down (the store and the HTTP session close next): a redraw asked for now is
            # dropped. The moves are stored; the next start redraws what it finds open.
            log.debug("outbox closed: %r not sent", key)
            return False
        queued = self._waiting.get(key)
        if queued is not None:
            queued.fields, queued.plan, queued.run = fields, plan, run
            queued.new = queued.new or new
            queued.first = queued.first or first
            self.coalesced += 1
            return False
        call = _Call(key, fields, new, plan, run, table_of(key) if group is None else group, first)
        if key not in self._busy and not self._queue and self._take(call):
            self._mark_busy(call)
            await self._run(call)
            return True
        self._queue.append(call)
        self._waiting[key] = call
        self._kick()
        return False

    def discard(self, key: Hashable) -> bool:
        """Drop the key's queued call (newer content went another way); return True if there was one."""
        call = self._waiting.pop(key, None)
        if call is None:
            return False
        self._queue.remove(call)
        if call.done is not None and not call.done.done():
            call.done.set_result(None)
        return True

    def waiting_keys(self) -> list[Hashable]:
        """Return the keys whose call waits for budget (not yet on the wire)."""
        return list(self._waiting)

    async def settle(self, key: Hashable) -> None:
        """Wait until no call of ``key`` is on the wire."""
        busy = self._busy.get(key)
        if busy is not None:
            await asyncio.shield(busy)

    def pending(self, key: Hashable) -> bool:
        """Return True while a call of ``key`` is queued or on the wire."""
        return key in self._waiting or key in self._busy

    def waiting(self, key: Hashable) -> bool:
        """Return True while a call of ``key`` is queued for budget (not yet on the wire)."""
        return key in self._waiting

    def queued_new(self, key: Hashable) -> bool:
        """Return True when the key's queued call sends a new message (later content joins it)."""
        call = self._waiting.get(key)
        return call is not None and call.new

    async def finished(self, key: Hashable) -> None:
        """Wait until the key's queued call (if any) and the one on the wire have run."""
        call = self._waiting.get(key)
        if call is not None:
            if call.done is None:
                call.done = asyncio.get_running_loop().create_future()
            await asyncio.shield(call.done)
        await self.settle(key)

    async def drained(self) -> None:
        """Wait until every queued call has been sent (tests, shutdown)."""
        while self._queue or self._busy:
            await asyncio.sleep(0.01)

    async def close(self, timeout: float = 5.0) -> None:
        """Send what is queued (waiting at most ``timeout`` seconds), then stop the dispatcher and
        the calls still on the wire: the bot closes its HTTP session next, and a call left running
        would fail against it (an ERROR at every slow shutdown)."""
        try:
            await asyncio.wait_for(self.drained(), timeout)
        except TimeoutError:
            log.warning("shutting down with %d Discord calls not sent and %d cut short",
                        len(self._queue), len(self._sending))
        self._closed = True  # nothing new from here on, nor a dispatcher started again
        if self._dispatcher is not None:
            self._dispatcher.cancel()
        sending = list(self._sending)
        for task in sending:
            task.cancel()
        await asyncio.gather(*sending, return_exceptions=True)

    def requests_ended(self) -> None:
        """Called by a run when its REST requests are over (before it records their answer): its
        tokens count from now and free budget for the next calls. The key stays busy until the run
        returns, so the next call of the same message still comes after the record. Nothing outside
        a run, or when called twice."""
        call = _RUNNING.get()
        if call is None or not call.tokens:
            return
        self._give_back(call)
        if self._queue:
            self._kick()

    def backlog(self) -> int:
        """Return how many calls wait for budget."""
        return len(self._queue)

    # ------------------------------------------------------------------ budgets

    def _window(self, key: BucketKey | tuple[str, int]) -> _Window:
        window = self._windows.get(key)
        if window is None:
            assert self.budget is not None
            window = self._windows[key] = _Window(*self.budget.window(key[0]))
        return window

    def _delay(self, buckets: list[BucketKey]) -> float:
        """Return how long until every budget of ``buckets`` allows its requests (0: now)."""
        if self.budget is None:
            return 0.0
        now = self.now()
        # Several requests in one call (open a DM, send to it): the global window must hold them all.
        delay = self._window(("global", 0)).wait(now, max(1, len(buckets)))
        for bucket in buckets:
            delay = max(delay, self._window(bucket).wait(now))
        return delay

    def _take(self, call: _Call) -> bool:
        """Take the budgets of the call's requests if all allow it now; return whether they were taken."""
        if self.budget is None:
            return True
        buckets = call.buckets()
        if self._delay(buckets) > 0.0:
            return False
        glob = self._window(("global", 0))
        for bucket in buckets:
            call.tokens += (glob, self._window(bucket))
        for window in call.tokens:
            window.take()
        return True

    def _give_back(self, call: _Call) -> None:
        """The call's requests have ended: its tokens count from now (see the module doc)."""
        now = self.now()
        for window in call.tokens:
            window.end(now)
        call.tokens = []

    # ------------------------------------------------------------------ running calls

    def _mark_busy(self, call: _Call) -> None:
        """The call is on the wire from now on (set before its task starts: no gap a waiter could see)."""
        self._busy[call.key] = asyncio.get_running_loop().create_future()
        self._serve(call.group)  # before its task starts too: the dispatcher's next choice knows

    def _serve(self, group: Hashable) -> None:
        """A call of ``group`` goes on the wire now: its table's turn is the most recent."""
        self._served.pop(group, None)
        self._served[group] = next(self._turns)
        if len(self._served) > _SERVED_KEPT:
            del self._served[next(iter(self._served))]

    async def _run(self, call: _Call) -> None:
        done = self._busy[call.key]
        running = _RUNNING.set(call)
        try:
            self.sent += 1
            await call.run(call.fields, call.new)
        finally:
            _RUNNING.reset(running)
            self._give_back(call)  # what requests_ended did not give back already
            del self._busy[call.key]
            done.set_result(None)
            if call.done is not None and not call.done.done():
                call.done.set_result(None)
            if self._queue:
                self._kick()

    def _kick(self) -> None:
        self._wake.set()
        if not self._closed and (self._dispatcher is None or self._dispatcher.done()):
            # A fresh context: the dispatcher outlives the click, timer or call that started it, and
            # must not carry their context variables (e.g. _RUNNING of the call that kicked it).
            self._dispatcher = asyncio.get_running_loop().create_task(
                self._dispatch(), context=contextvars.Context())

    def _choose(self) -> tuple[_Call | None, float]:
        """Return the queued call to send now (see "fair turns" in the module doc), or None and
        how long until one may be allowed (inf: not before a running call ends)."""
        held = 0.0 if self.budget is None else self._window(("global", 0)).wait(self.now())
        if held > 0.0:
            return None, held  # the global budget holds everyone: no need to look further
        wait = float("inf")
        delays: dict[tuple[BucketKey, ...], float] = {}  # many calls share their budgets
        best: _Call | None = None
        rank = (True, 0)
        for call in self._queue:  # oldest first: the first of equal rank wins
            if call.key in self._busy:
                continue  # its previous call is on the wire: this one comes after it
            buckets = tuple(call.buckets())
            delay = delays.get(buckets)
            if delay is None:
                delay = delays[buckets] = self._delay(list(buckets))
            if delay > 0.0:
                wait = min(wait, delay)
                continue
            mine = (not call.first, self._served.get(call.group, -1))
            if best is None or mine < rank:
                best, rank = call, mine
        return best, wait

    async def _dispatch(self) -> None:
        """Send queued calls as budget frees, in fair turns between tables (see the module doc)."""
        while self._queue:
            self._wake.clear()
            chosen, wait = self._choose()
            if chosen is None:
                timeout = None if wait == float("inf") else wait
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout)
                continue
            self._take(chosen)  # allowed: nothing ran since _delay said so
            self._queue.remove(chosen)
            del self._waiting[chosen.key]
            self._mark_busy(chosen)
            task = asyncio.get_running_loop().create_task(self._run_logged(chosen))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)
            task.add_done_callback(_discard_result)

    async def _run_logged(self, call: _Call) -> None:
        try:
            await self._run(call)
        except Exception:
            log.exception("a queued Discord call failed (%s)", call.key)


def _discard_result(task: asyncio.Task[None]) -> None:
    if not task.cancelled():
        task.exception()
