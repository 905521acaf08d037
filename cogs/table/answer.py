"""How a click is answered: by the redraw of the message it pressed, as the interaction's response.

:class:`Answer` holds the interaction of the click a task is processing (in :data:`ANSWER`);
the hub's redraw of the pressed message goes through it as the interaction's response, which
Discord exempts from the bot's rate limits. :func:`answering_click` sets it up around a handler
(a move, a lobby button, a command), with a guard that defers in time when the work is slow.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord

__all__ = ["ACK_GUARD_S", "ANSWER", "PICTURE_ACK_S", "Answer", "acknowledged_while_drawing", "answering",
           "answering_click"]

ACK_GUARD_S = 1.5
"""A click is answered by its own redraw; if the work takes longer than this, it is deferred first
(Discord fails an interaction not answered within 3 s)."""

PICTURE_ACK_S = 0.02
"""A click whose answer waits for a board picture is acknowledged after this long, and the picture
follows as an edit of the response (both interaction calls, exempt from the rate limits): a
picture takes tens of ms in the drawing process, more when other tables' pictures are queued
before it (100 tables of bots beside 100 of people: 1.5 s at p99, every such click deferred by
the guard instead)."""

ANSWER: contextvars.ContextVar[Answer | None] = contextvars.ContextVar("table_answer", default=None)
"""The click being processed by this task, so the redraw of the pressed message can answer it."""


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
        self.used = False  # a redraw of the pressed message went through this answer
        self.closed = False  # the click's handler is done: timers it armed must not answer through it
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
        self.used = True

    async def defer(self) -> None:
        """Acknowledge without changing the pressed message (when nothing answered it yet)."""
        if self._claim():
            await self.interaction.response.defer()
        else:
            await self.settled()


def answering(message_id: int) -> Answer | None:
    """Return the click this task is processing when it was pressed on ``message_id``."""
    answer = ANSWER.get()
    # closed: a timer armed during the click copied this context; its redraws are plain edits.
    return answer if answer is not None and not answer.closed and answer.message_id == message_id else None


@contextlib.asynccontextmanager
async def answering_click(interaction: discord.Interaction) -> AsyncIterator[Answer]:
    """Run a handler whose redraw of the pressed message answers the interaction.

    A guard defers after :data:`ACK_GUARD_S` if nothing answered yet; afterwards the answer is
    closed (timers the handler armed must not answer through it) and a deferral in flight is
    awaited, so a private reply sent next comes after it.
    """
    answer = Answer(interaction)
    token = ANSWER.set(answer)
    answer.guard_handle = asyncio.get_running_loop().call_later(ACK_GUARD_S, answer.guard)
    try:
        yield answer
    finally:
        answer.stop_guard()
        answer.closed = True
        ANSWER.reset(token)
        await answer.settled()


@contextlib.contextmanager
def acknowledged_while_drawing() -> Iterator[None]:
    """Acknowledge the click this task is processing if the block (a picture being drawn) takes
    longer than :data:`PICTURE_ACK_S`; nothing for a timer's or a command's redraw."""
    answer = ANSWER.get()
    if answer is None or answer.closed or answer.claimed or answer.message_id is None:
        yield
        return
    handle = asyncio.get_running_loop().call_later(PICTURE_ACK_S, answer.guard)
    try:
        yield
    finally:
        handle.cancel()
