"""Closing a message that is no longer the place to act.

Its controls go and its text says what became of it: an expedition over and how it ended, a turn
over, the game over, cancelled. The message book records which messages still carry controls
(``open``, kept in the store too), so closing costs one edit per message, once, also across
restarts: :meth:`Closer.close` after a transition, :meth:`Closer.close_all` at the end and after a
cancel, :meth:`Closer.close_stale` when a table is first loaded and :meth:`Closer.sweep` at start-up
for what the bot could not close before it stopped.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from cogs.table.answer import Answer
from cogs.table.messages.book import MessageBook
from cogs.table.messages.delivery import Lookup
from cogs.table.messages.private import PrivateChannel
from cogs.table.messages.readers import Readers
from cogs.table.messages.recorded import HubRecords
from engine.session import Table
from i18n import t

__all__ = ["Closer", "Post"]

log = logging.getLogger(__name__)


class Post(Protocol):
    """The hub's :meth:`~cogs.table.messages.hub.TableHub.post`: show fields as a table's channel message."""

    async def __call__(self, table: Table, kind: str, *, seat: int | None = None, new: bool = False,
                       answer: Answer | None = None, **fields: Any) -> None:
        """Edit the table's channel message of ``kind`` (or send it)."""
        ...


@dataclass(eq=False)
class Closer:
    """Closes the messages that are no longer the place to act.

    Given by the hub: the message book (which are open), the hub's ``prepare``, ``lookup`` and ``post`` for
    channel messages, the private channel for prompts, and of the game's renderer what a closed
    public message shows (``closed_fields``) and which one is still the place to act (``board_kind``).
    """

    bot: discord.Client
    book: MessageBook
    records: HubRecords
    readers: Readers
    prepare: Callable[[Table], Awaitable[None]]
    lookup: Lookup
    post: Post
    private: PrivateChannel
    board_kind: Callable[[Table], str]
    closed_fields: Callable[[Table, str], dict[str, Any]]

    async def close(self, table: Table, kind: str, seat: int | None, note: str, *, answer: Answer | None = None,
                    **fields: Any) -> None:
        """Close a message that is no longer the place to act: its controls go, ``note`` says what became of it.

        ``fields`` may redraw it too (e.g. an expedition's final path); without them a public
        message keeps its embed, while a private prompt loses it (its question is over). ``answer``:
        the click the change is drawn for (a press on this message is answered with its closing).
        """
        if seat is not None:
            await self.private.close_prompt(table, seat, note, answer=answer, **fields)
            return
        ref = await self.lookup(table, kind)
        if ref is None or (not self.book.is_open((table.id, kind, None)) and not fields):
            return
        await self.post(table, kind, answer=answer, **{"content": note, **fields, "view": None})

    async def close_all(self, table: Table, public_key: str, dm_key: str,
                        keep: Sequence[tuple[str, int | None]] = (), *, answer: Answer | None = None,
                        **values: Any) -> None:
        """Close every open message of a table except ``keep`` (the end, a cancel): public ones say
        ``t(public_key)`` in the server's language, prompts ``t(dm_key)`` in their reader's
        (``answer`` as in :meth:`close`)."""
        await self.prepare(table)
        for key in sorted(self.book.open_of(table.id), key=lambda k: (k[1], k[2] or -1)):
            if (key[1], key[2]) in keep:
                continue
            if key[2] is not None:
                with self.readers.privately(table, key[2]):
                    note = t(dm_key, **values)
                await self.close(table, key[1], key[2], note, answer=answer)
            else:
                with self.readers.publicly(table):
                    note = t(public_key, **values)
                    fields = self.closed_fields(table, key[1])
                await self.close(table, key[1], None, note, answer=answer, **fields)

    async def sweep(self) -> int:
        """At start-up: close the controls of games that ended while the bot was down (one query);
        return how many. A running table's leftovers are closed when it is loaded (:meth:`close_stale`)."""
        closed = 0
        for row in await self.records.open_messages_of_ended():
            try:
                message = self.bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
                await message.edit(content=t("play.closed_ended"), view=None)
            except discord.NotFound:
                pass
            except discord.HTTPException as exc:
                log.warning("game %s: %s message not closed at start-up (%s)", row.game_id, row.kind, exc)
                continue
            await self.records.close_message(row.game_id, row.kind, row.seat)
            closed += 1
        return closed

    async def close_stale(self, table: Table) -> None:
        """Close a just-loaded table's public messages that are no longer the place to act (an older
        expedition's): the bot stopped before it could close them. A prompt (DM) is left alone: the
        next prompt of its seat closes it, and a click on it meanwhile is refused as stale."""
        if table.status not in ("lobby", "playing"):
            return
        current = "lobby" if table.status == "lobby" else self.board_kind(table)
        for key in [k for k in self.book.open_of(table.id) if k[2] is None and k[1] != current]:
            with self.readers.publicly(table):
                note = t("play.closed_moved_on")
            await self.close(table, key[1], None, note)
