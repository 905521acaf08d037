"""The message book: which of the bot's messages exist, which still carry controls, what each shows.

Every table message (a channel message of a kind, or a seat's DM prompt) is recorded in the store
when it is sent, so it is edited in place, also after a restart; whether it is ``open`` (carries
controls that act on its game) is kept there too, so closing it costs one edit, once. What each
message shows now is kept in memory only, to skip edits that would change nothing. The book sends
nothing to Discord: the hub, the private channel and the closer draw through it.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

import discord

from cogs.table.messages.recorded import HubRecords
from db import MessageRow
from engine.session import Table

__all__ = ["Key", "MessageBook", "MessageRecords", "Ref", "has_controls", "opens", "signature"]

Key = tuple[int, str, int | None]
"""A table message: (table id, kind, seat); seat None for a channel message, else that seat's DM."""

Ref = tuple[int, int]
"""Where a message is: (channel id, message id)."""


class MessageRecords(Protocol):
    """Where the messages are recorded (:mod:`db.side`)."""

    async def messages(self, game_id: int) -> list[MessageRow]:
        """Return the messages recorded for the game."""
        ...

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int, *,
                          seat: int | None = None, open: bool = False) -> MessageRow:
        """Record a message (and whether it carries controls)."""
        ...


class MessageBook:
    """The bot's messages of every table: where they are, which are open, what they show."""

    def __init__(self, store: MessageRecords, records: HubRecords) -> None:
        self.store = store
        self.records = records
        self._refs: dict[Key, Ref] = {}
        self._open: set[Key] = set()  # messages whose controls act on their game
        self._shown: dict[Key, str] = {}  # what each message shows now
        self._loaded: dict[int, int] = {}  # table id -> the generation whose recorded messages were read
        # Table id -> every key of its kept above: forgetting a table (it ended, or it was unloaded
        # while idle) costs its own messages, not a walk over every table's.
        self._keys: dict[int, set[Key]] = {}

    # ------------------------------------------------------------------ reading

    async def load(self, table: Table) -> bool:
        """Read a table's recorded messages, with which ones are still open: at its first use in this
        process, and again when another process has written to the table (its messages may have been
        replaced there). Return True at the first use: the caller closes what the bot could not
        close before it stopped."""
        if self._loaded.get(table.id) == table.generation:
            return False
        first = table.id not in self._loaded
        if not first:
            self._drop(table.id)
        self._loaded[table.id] = table.generation
        for row in await self.store.messages(table.id):
            key = (table.id, row.kind, row.seat)
            self._refs.setdefault(key, (row.channel_id, row.message_id))
            self._keys.setdefault(table.id, set()).add(key)
            if row.open:
                self._open.add(key)
            else:
                self._open.discard(key)
        return first

    def ref(self, key: Key) -> Ref | None:
        """Return where a message is, as known now (no store read: the hub loads before drawing)."""
        return self._refs.get(key)

    def is_open(self, key: Key) -> bool:
        """Return True when the message still carries controls that act on its game."""
        return key in self._open

    def open_of(self, table_id: int) -> list[Key]:
        """Return the table's open messages."""
        return [key for key in self._keys.get(table_id, ()) if key in self._open]

    def shows(self, key: Key, shown: str | None) -> bool:
        """Return True when the message already shows exactly ``shown`` (a :func:`signature`)."""
        return shown is not None and self._shown.get(key) == shown

    # ------------------------------------------------------------------ writing

    async def remember(self, table: Table, kind: str, message: discord.Message, seat: int | None = None,
                       *, open: bool = False) -> None:
        """Record a message so it can be edited (and closed) later, also after a restart."""
        key = (table.id, kind, seat)
        self._refs[key] = (message.channel.id, message.id)
        self._keys.setdefault(table.id, set()).add(key)
        if open:
            self._open.add(key)
        else:
            self._open.discard(key)
        await self.store.set_message(table.id, kind, message.channel.id, message.id, seat=seat, open=open)

    async def mark(self, table: Table, key: Key, fields: dict[str, Any]) -> None:
        """Record whether an edited message still carries controls (a store write only on a change)."""
        if "view" not in fields or key not in self._refs:
            return
        opening = has_controls(fields["view"]) and key[1] != "summary"
        if opening == (key in self._open):
            return
        if opening:
            self._open.add(key)
            ref = self._refs[key]
            await self.store.set_message(table.id, key[1], ref[0], ref[1], seat=key[2], open=True)
        else:
            self._open.discard(key)
            await self.records.close_message(table.id, key[1], key[2])

    def showing(self, key: Key, shown: str | None) -> None:
        """Note what the message shows from now on (None: not known, e.g. a call that failed)."""
        if shown is None:
            self._shown.pop(key, None)
        else:
            self._shown[key] = shown
            self._keys.setdefault(key[0], set()).add(key)

    # ------------------------------------------------------------------ forgetting

    def forget_shown(self, table: Table) -> None:
        """A table has finished or ended: drop what its messages showed (kept only to skip no-op edits)."""
        for key in self._keys.get(table.id, ()):
            self._shown.pop(key, None)

    def forget(self, table: Table) -> None:
        """Drop a table's messages from memory (they stay recorded in the store): it ended, or it
        was unloaded while idle (read again at its next use, as after a restart)."""
        self._drop(table.id)
        self._loaded.pop(table.id, None)

    def _drop(self, table_id: int) -> None:
        """Forget what is known here of a table's messages (they are read again when needed)."""
        for key in self._keys.pop(table_id, ()):
            self._refs.pop(key, None)
            self._shown.pop(key, None)
            self._open.discard(key)


def has_controls(view: Any) -> bool:
    """Return whether a message drawn with ``view`` carries controls."""
    return isinstance(view, discord.ui.View) and bool(view.children)


def opens(kind: str, fields: dict[str, Any]) -> bool:
    """Return whether a message sent with ``fields`` carries controls that act on its game."""
    return has_controls(fields.get("view")) and kind != "summary"


def signature(fields: dict[str, Any]) -> str | None:
    """Return what a message with these fields shows, to skip edits that change nothing
    (None when files are involved: attachments are always sent)."""
    if {"file", "files", "attachments"} & fields.keys():
        return None
    embed = fields.get("embed")
    embeds = fields.get("embeds") or []
    view = fields.get("view")
    shown = {
        "content": fields.get("content"),
        "embeds": [e.to_dict() for e in ([embed] if embed is not None else []) + list(embeds)],
        "view": view.to_components() if isinstance(view, discord.ui.View) else None,
    }
    return json.dumps(shown, sort_keys=True, default=str)
