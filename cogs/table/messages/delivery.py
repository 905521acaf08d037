"""How a table message reaches Discord, shared by the hub (channel messages) and the private channel (DMs).

:class:`Lookup` and :class:`Show` name the two things of the hub that the private channel and the
closer are handed: where a message is (read from the store at a table's first use) and the one
path every table message is shown through. :func:`edit_or_send` is the REST call at the end of it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from cogs.table.answer import Answer
from cogs.table.messages.book import Ref
from cogs.table.messages.outbox import Plan, Run
from engine.session import Table

__all__ = ["Lookup", "Show", "edit_or_send", "rewind"]


class Lookup(Protocol):
    """The hub's :meth:`~cogs.table.messages.hub.TableHub.message_ref`."""

    async def __call__(self, table: Table, kind: str, seat: int | None = None) -> Ref | None:
        """Return (channel id, message id) of a recorded message, loading the store after a restart."""
        ...


class Show(Protocol):
    """The hub's :meth:`~cogs.table.messages.hub.TableHub.show`."""

    async def __call__(self, table: Table, kind: str, seat: int | None, new: bool, fields: dict[str, Any],
                       plan: Plan, run: Run, answer: Answer | None = None) -> None:
        """Show ``fields`` as the table's message (skipped, answered through ``answer``'s click, or sent
        by the outbox)."""
        ...


def rewind(fields: dict[str, Any]) -> None:
    """Rewind the pictures of a request that failed (it read them): the next try sends them whole."""
    for item in fields.get("attachments") or []:
        if isinstance(item, discord.File):
            item.reset()


async def edit_or_send(bot: discord.Client, ref: Ref | None, fields: dict[str, Any],
                       send: Callable[[dict[str, Any]], Awaitable[discord.Message]]) -> discord.Message | None:
    """Edit the recorded message, or send one when there is none (or it was deleted); return a sent one.

    What was asked as an edit may run as a send and the other way round (the message appeared
    or vanished while the call waited): an edit's pictures are ``attachments``, a send's ``files``.
    """
    if ref is not None:
        if "files" in fields:
            fields = dict(fields)
            fields["attachments"] = fields.pop("files")
        try:
            # The public API also builds a Message from Discord's reply (unread here): 0.1-0.3 ms
            # of CPU per edit (bench/message_edit_cost.py), at most ~1 % of a core at the 50
            # requests/s Discord allows a bot.
            await bot.get_partial_messageable(ref[0]).get_partial_message(ref[1]).edit(**fields)
            return None
        except discord.NotFound:
            # Deleted: send a fresh one (its files were read by the failed edit: rewind them).
            rewind(fields)
    if "attachments" in fields:  # a send takes files, not attachments (a first DM may carry a picture)
        fields = dict(fields)
        files = fields.pop("attachments")
        if files:  # none: an edit's word that the message keeps no picture, nothing to send
            fields["files"] = files
    return await send(fields)
