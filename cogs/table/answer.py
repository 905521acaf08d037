"""How a click is answered: by the redraw of the message it pressed, as the interaction's response.

An :class:`Answer` is a click not answered yet. :func:`answering_click` makes one around a handler
(a move, a lobby button, a command), with a guard that defers in time when the work is slow. The
handler hands it to the session call it makes as the call's ``origin`` (``sessions.act(...,
origin=answer)``); the session, which does not know what it is, hands it back to the listener with
what that call draws (``Update.origin``, the ``origin`` of ``lobby_changed``, ``ended``...); the
listener and the renderers pass it on (``answer=``) to the hub, whose redraw of the pressed message
goes through it as the interaction's response (exempt from the bot's rate limits), and to
:func:`acknowledged_while_drawing` around a picture. Afterwards the handler reads
:attr:`Answer.redrawn` and answers the click itself otherwise (a private prompt, a deferral).

Nothing else answers through it: a timer's, another process's or the AI's later update has no
origin, and once the handler is done the answer is :attr:`~Answer.closed` (an update drawn later
from a stored one, e.g. by a queued edit, does not answer either).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord

__all__ = ["ACK_GUARD_S", "PICTURE_ACK_S", "Answer", "acknowledged_while_drawing", "answer_of", "answering_click"]

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

    def pressed(self, message_id: int) -> bool:
        """Return True when this open click was pressed on ``message_id`` (its redraw answers it)."""
        return not self.closed and self.message_id == message_id

    async def defer(self) -> None:
        """Acknowledge without changing the pressed message (when nothing answered it yet)."""
        if self._claim():
            await self.interaction.response.defer()
        else:
            await self.settled()


@contextlib.asynccontextmanager
async def answering_click(interaction: discord.Interaction) -> AsyncIterator[Answer]:
    """Run a handler that answers the interaction (by a redraw of what it pressed, or itself).

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


def answer_of(origin: object | None) -> Answer | None:
    """Return the click a session update was made for (its ``origin``), while it can be answered;
    None for an update nobody clicked for here (a timer, a command) or a click already done."""
    return origin if isinstance(origin, Answer) and not origin.closed else None


@contextlib.contextmanager
def acknowledged_while_drawing(answer: Answer | None) -> Iterator[None]:
    """Acknowledge ``answer`` (the click an update is drawn for) if the block, a picture being drawn,
    takes longer than :data:`PICTURE_ACK_S`; nothing without a click, or for a command."""
    if answer is None or answer.closed or answer.claimed or answer.message_id is None:
        yield
        return
    handle = asyncio.get_running_loop().call_later(PICTURE_ACK_S, answer.guard)
    try:
        yield
    finally:
        handle.cancel()
