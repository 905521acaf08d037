"""How a click is answered: by the redraw of the message it pressed, as the interaction's response.

An :class:`Answer` is a click not answered yet. :func:`answering_click` makes one around a handler
(a move, a lobby button, a command), with a guard that defers in time when the work is slow. The
handler hands it to the hub's :class:`Clicks` for the session call it makes
(``with hub.clicks.handling(answer):``): the session draws the call's update in the handler's own
task, and the hub's redraw of the pressed message made there goes through the answer as the
interaction's response, which Discord exempts from the bot's rate limits. Afterwards the handler
reads :attr:`Answer.redrawn` and answers the click itself otherwise (a private prompt, a
deferral). Nothing else answers through it: not a timer, not the outbox's dispatcher (other
tasks), nor anything after the handler's block.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord

__all__ = ["ACK_GUARD_S", "PICTURE_ACK_S", "Answer", "Clicks", "answering_click"]

ACK_GUARD_S = 1.5
"""A click is answered by its own redraw; if the work takes longer than this, it is deferred first
(Discord fails an interaction not answered within 3 s)."""

PICTURE_ACK_S = 0.02
"""A click whose answer waits for a board picture is acknowledged after this long, and the picture
follows as an edit of the response (both interaction calls, exempt from the rate limits): a
picture takes tens of ms in the drawing process, more when other tables' pictures are queued
before it (100 tables of bots beside 100 of people: 1.5 s at p99, every such click deferred by
the guard instead)."""


class Answer:
    """A button press not answered yet: the first redraw of the pressed message answers it.

    Discord wants exactly one response per interaction within 3 s. Answering with the redraw itself
    (an UPDATE_MESSAGE callback) instead of a defer followed by an edit halves a click's REST calls;
    if the move is slow, :meth:`guard` defers in time and later redraws edit the original response.
    """

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.message_id = interaction.message.id if interaction.message is not None else None
        self.claimed = False
        self.redrawn = False  # a redraw of the pressed message went through this answer
        self.closed = False  # the click's handler is done: nothing answers through it any more
        self._deferring: asyncio.Future[Any] | None = None
        self.guard_handle: asyncio.TimerHandle | None = None  # set by answering_click

    def _claim(self) -> bool:
        """Take the one response (synchronously, so a concurrent guard cannot also take it)."""
        if self.claimed or self.interaction.response.is_done():
            return False  # answered already (or by the handler itself, e.g. an early deferral)
        self.claimed = True
        return True

    def guard(self) -> None:
        """Defer now unless already answered (a timer callback: the move is taking long)."""
        if self._claim():
            if self.message_id is None:
                # A command: its later reply is private, and a deferral fixes that in advance.
                deferral = self.interaction.response.defer(ephemeral=True, thinking=True)
            else:
                deferral = self.interaction.response.defer()
            self._deferring = asyncio.ensure_future(deferral)

    def stop_guard(self) -> None:
        """Cancel the deferral guard (the handler answers privately itself, now)."""
        if self.guard_handle is not None:
            self.guard_handle.cancel()

    async def settled(self) -> None:
        """Wait for a deferral the guard started, so followups come after it."""
        if self._deferring is not None:
            with contextlib.suppress(discord.HTTPException):
                await self._deferring

    async def edit(self, **fields: Any) -> None:
        """Show ``fields`` on the pressed message: as the response if still possible, else an edit."""
        if self._claim():
            try:
                await self.interaction.response.edit_message(**fields)
            except discord.HTTPException:
                if not self.interaction.response.is_done():
                    self.claimed = False  # not answered after all: a later defer still can
                raise
        else:
            await self.settled()
            await self.interaction.edit_original_response(**fields)
        self.redrawn = True

    async def defer(self) -> None:
        """Acknowledge without changing the pressed message (when nothing answered it yet)."""
        if self._claim():
            await self.interaction.response.defer()
        else:
            await self.settled()


@contextlib.asynccontextmanager
async def answering_click(interaction: discord.Interaction) -> AsyncIterator[Answer]:
    """Run a handler that answers the interaction (by a redraw, see :class:`Clicks`, or itself).

    A guard defers after :data:`ACK_GUARD_S` if nothing answered yet; afterwards the answer is
    closed (nothing answers through it any more) and a deferral in flight is awaited, so a private
    reply sent next comes after it.
    """
    answer = Answer(interaction)
    answer.guard_handle = asyncio.get_running_loop().call_later(ACK_GUARD_S, answer.guard)
    try:
        yield answer
    finally:
        answer.stop_guard()
        answer.closed = True
        await answer.settled()


class Clicks:
    """The clicks whose session calls are running now, each handed in by the code handling it.

    A click is handled in its own task, and the session draws the update of a call in the task
    that made it; so a redraw made in the task that handed a click in, while its call runs, is
    that click's update: if it redraws the pressed message, it answers the click.
    """

    def __init__(self) -> None:
        self._handling: dict[asyncio.Task[Any], Answer] = {}  # the task handling a click -> its answer

    @contextlib.contextmanager
    def handling(self, answer: Answer) -> Iterator[None]:
        """Around the session call of a click: the redraw of its pressed message answers it, and a
        picture drawn for it acknowledges it if slow (:meth:`acknowledged_while_drawing`)."""
        task = asyncio.current_task()
        assert task is not None  # a click is handled in a task (discord.py starts one per interaction)
        self._handling[task] = answer
        try:
            yield
        finally:
            del self._handling[task]

    def _current(self) -> Answer | None:
        """Return the open click this task is handling, if any."""
        task = asyncio.current_task()
        answer = self._handling.get(task) if task is not None else None
        return answer if answer is not None and not answer.closed else None

    def pressed(self, message_id: int) -> Answer | None:
        """Return the click this task is handling when it was pressed on ``message_id``."""
        answer = self._current()
        return answer if answer is not None and answer.message_id == message_id else None

    @contextlib.contextmanager
    def acknowledged_while_drawing(self) -> Iterator[None]:
        """Acknowledge the click this task is handling if the block (a picture being drawn) takes
        longer than :data:`PICTURE_ACK_S`; nothing for a timer's or a command's redraw."""
        answer = self._current()
        if answer is None or answer.claimed or answer.message_id is None:
            yield
            return
        handle = asyncio.get_running_loop().call_later(PICTURE_ACK_S, answer.guard)
        try:
            yield
        finally:
            handle.cancel()
