"""The game log's calls send what they took budget for: a batch cut while one is on the wire goes
with the next call (which was queued with its own budget), not with the one already sending."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from cogs.table.messages.outbox import Outbox, RestBudget
from cogs.table.messages.story import Story


class _Thread:
    """A channel whose first send hangs until let go (the call is on the wire meanwhile)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int]] = []  # (text, the outbox's calls started so far)
        self.gate = asyncio.Event()
        self.outbox: Outbox | None = None

    async def send(self, text: str, **_: Any) -> None:
        assert self.outbox is not None
        self.sent.append((text, self.outbox.sent))
        if len(self.sent) == 1:
            await self.gate.wait()


class _Bot:
    def __init__(self, thread: _Thread) -> None:
        self.thread = thread

    def get_partial_messageable(self, channel_id: int, **_: Any) -> _Thread:
        return self.thread


class _Repo:
    async def set_story(self, *args: Any) -> None:
        return None


async def test_a_batch_cut_while_the_log_is_posting_waits_for_its_own_call() -> None:
    thread = _Thread()
    outbox = Outbox(RestBudget(per_second=1000, channel_sends=(1000, 1.0)))
    thread.outbox = outbox
    story = Story(_Bot(thread), _Repo(), outbox)  # type: ignore[arg-type]
    table = SimpleNamespace(id=7, channel_id=70, guild_id=1, table_options={"threads": False}, status="playing")
    try:
        # with budget at hand the first call runs in its caller: on the wire, its send hanging
        posting = asyncio.create_task(story.begin(table, None, "title", ["first batch"]))  # type: ignore[arg-type]
        while not thread.sent:
            await asyncio.sleep(0)
        story._logs[table.id].pending.append("second batch")
        await story.flush(table)  # type: ignore[arg-type]
        assert outbox.backlog() == 1  # queued behind the call on the wire, with its own budget
        thread.gate.set()
        await asyncio.wait_for(posting, 5)
        await asyncio.wait_for(outbox.drained(), 5)
        texts = [text for text, _ in thread.sent]
        assert texts == ["first batch", "second batch"]
        first_call, second_call = (calls for _, calls in thread.sent)
        assert second_call > first_call  # sent by the call that took budget for it
    finally:
        await outbox.close()
