"""What the hub, the story and the closing of messages read and write of a table's records.

The composition root (``bot.py``) hands the hub the storage adapter (``wiring.storage``); the cogs
only know this protocol of the few calls they make, so they do not depend on the wiring.
"""

from __future__ import annotations

from typing import Any, Protocol

from db import MessageRow, StoryRow

__all__ = ["HubRecords"]


class HubRecords(Protocol):
    """A table's stored actions, how far its log was posted, and which of its messages are open."""

    async def actions(self, table_id: int, upto: int) -> list[tuple[int, Any]]:
        """Return the first ``upto`` stored actions as (seat, action)."""
        ...

    async def story(self, table_id: int) -> StoryRow | None:
        """Return how far the table's log was posted."""
        ...

    async def set_story(self, table_id: int, thread_id: int | None, actions_written: int, notes_written: int) -> None:
        """Record the table's thread and how far its log was posted."""
        ...

    async def close_message(self, table_id: int, kind: str, seat: int | None) -> bool:
        """Mark a recorded message closed."""
        ...

    async def open_messages_of_ended(self) -> list[MessageRow]:
        """Return open messages of games that are over."""
        ...
