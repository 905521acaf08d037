"""Closing a message that is no longer the place to act (a mixin of :class:`cogs.table.hub.TableHub`).

Its controls go and its text says what became of it: an expedition over and how it ended, a turn
over, the game over, cancelled. The hub records which messages still carry controls (``open``,
kept in the store too), so closing costs one edit per message, once, also across restarts:
:meth:`Closing.close` after a transition, :meth:`Closing.close_all` at the end and after a cancel,
:meth:`Closing.sweep` at start-up for what the bot could not close before it stopped.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from engine.session import Table
from i18n import t

if TYPE_CHECKING:
    from cogs.table.readers import Readers
    from cogs.table.recorded import TableRecords

__all__ = ["Closing", "has_controls", "opens"]

log = logging.getLogger(__name__)

Key = tuple[int, str, int | None]


class Closer(Protocol):
    """What closing needs of a game's renderer (a part of ``cogs.table.hub.Renderer``)."""

    def board_kind(self, table: Table) -> str:
        """Return the kind of the table's current public message."""
        ...

    def closed_fields(self, hub: Any, table: Table, kind: str) -> dict[str, Any]:
        """Return how a public message of ``kind`` is redrawn when it closes."""
        ...


class Closing:
    """What closes messages; the hub provides the message book it works on."""

    # Provided by TableHub.
    bot: discord.Client
    repo: TableRecords
    readers: Readers
    _open: set[Key]
    _messages: dict[Key, tuple[int, int]]
    _shown: dict[Key, str]
    _loaded: dict[int, int]

    def renderer(self, table: Table) -> Closer:
        raise NotImplementedError

    async def message_ref(self, table: Table, kind: str, seat: int | None = None) -> tuple[int, int] | None:
        raise NotImplementedError

    async def _load(self, table: Table) -> None:
        raise NotImplementedError

    async def post(self, table: Table, kind: str, *, seat: int | None = None, new: bool = False,
                   **fields: Any) -> None:
        raise NotImplementedError

    async def dm(self, table: Table, seat: int, *, new: bool = False, closing: str | None = None,
                 **fields: Any) -> bool:
        raise NotImplementedError

    # ------------------------------------------------------------------ closing

    async def close(self, table: Table, kind: str, seat: int | None, note: str, **fields: Any) -> None:
        """Close a message that is no longer the place to act: its controls go, ``note`` says what became of it.

        ``fields`` may redraw it too (e.g. an expedition's final path); without them a public
        message keeps its embed, while a private prompt loses it (its question is over).
        """
        key = (table.id, kind, seat)
        ref = await self.message_ref(table, kind, seat)
        if ref is None or (key not in self._open and not fields):
            return
        body = {"content": note, **fields, "view": None}
        if seat is None:
            await self.post(table, kind, **body)
        else:
            if not {"embed", "embeds"} & fields.keys():
                body["embed"] = None
            await self.dm(table, seat, **body)

    async def close_all(self, table: Table, public_key: str, dm_key: str,
                        keep: Sequence[tuple[str, int | None]] = (), **values: Any) -> None:
        """Close every open message of a table except ``keep`` (the end, a cancel): public ones say
        ``t(public_key)`` in the server's language, prompts ``t(dm_key)`` in their reader's."""
        await self._load(table)
        for key in sorted((k for k in self._open if k[0] == table.id), key=lambda k: (k[1], k[2] or -1)):
            if (key[1], key[2]) in keep:
                continue
            if key[2] is not None:
                with self.readers.privately(table, key[2]):
                    note = t(dm_key, **values)
                await self.close(table, key[1], key[2], note)
            else:
                with self.readers.publicly(table):
                    note = t(public_key, **values)
                    fields = self.renderer(table).closed_fields(self, table, key[1])
                await self.close(table, key[1], None, note, **fields)

    async def sweep(self) -> int:
        """At start-up: close the controls of games that ended while the bot was down (one query);
        return how many. A running table's leftovers are closed when it is loaded (:meth:`_close_stale`)."""
        closed = 0
        for row in await self.repo.open_messages_of_ended():
            try:
                message = self.bot.get_partial_messageable(row.channel_id).get_partial_message(row.message_id)
                await message.edit(content=t("play.closed_ended"), view=None)
            except discord.NotFound:
                pass
            except discord.HTTPException as exc:
                log.warning("game %s: %s message not closed at start-up (%s)", row.game_id, row.kind, exc)
                continue
            await self.repo.close_message(row.game_id, row.kind, row.seat)
            closed += 1
        return closed

    async def _close_stale(self, table: Table) -> None:
        """Close a just-loaded table's public messages that are no longer the place to act (an older
        expedition's): the bot stopped before it could close them. A prompt (DM) is left alone: the
        next prompt of its seat closes it, and a click on it meanwhile is refused as stale."""
        if table.status not in ("lobby", "playing"):
            return
        current = self._current(table)
        for key in [k for k in self._open if k[0] == table.id and k[2] is None and k[1] != current]:
            with self.readers.publicly(table):
                note = t("play.closed_moved_on")
            await self.close(table, key[1], None, note)

    def _current(self, table: Table) -> str:
        """Return the kind of a running table's public message that is still the place to act."""
        return "lobby" if table.status == "lobby" else self.renderer(table).board_kind(table)

    def forget_messages(self, table: Table) -> None:
        """Drop an ended table's messages from memory (they stay recorded in the store)."""
        for key in [k for k in self._messages if k[0] == table.id]:
            self._messages.pop(key, None)
            self._shown.pop(key, None)
            self._open.discard(key)
        self._loaded.pop(table.id, None)


def has_controls(view: Any) -> bool:
    """Return whether a message drawn with ``view`` carries controls."""
    return isinstance(view, discord.ui.View) and bool(view.children)


def opens(kind: str, fields: dict[str, Any]) -> bool:
    """Return whether a message sent with ``fields`` carries controls that act on its game."""
    return has_controls(fields.get("view")) and kind != "summary"
