"""The slash commands the bot last synced to Discord, per scope (migration 0008).

A scope is ``"global"`` or ``"guild:<id>"``; the hash is the bot's, of the payload it sent.
:class:`CommandSyncRecords` is a part of :class:`db.store.Store` (it uses the store's backend).
"""

from __future__ import annotations

import re

from db.plumbing import StoreBase

__all__ = ["CommandSyncRecords"]

_SCOPE = re.compile(r"global|guild:[0-9]{1,20}")


class CommandSyncRecords(StoreBase):
    """What was synced to Discord, per scope (a part of ``db.store.Store``)."""

    async def synced_commands(self) -> dict[str, str]:
        """Return the hash of the payload last synced, by scope."""
        async with self._read() as db:
            rows = await db.fetch("SELECT scope, payload_hash FROM command_syncs")
        return {str(scope): str(digest) for scope, digest in rows}

    async def set_synced_commands(self, scope: str, payload_hash: str) -> None:
        """Record that the payload with ``payload_hash`` was synced to ``scope`` (one autocommit statement)."""
        if not _SCOPE.fullmatch(scope):
            raise ValueError(f"scope must be 'global' or 'guild:<id>', not {scope!r}")
        if not re.fullmatch(r"[0-9a-f]{64}", payload_hash):
            raise ValueError("payload_hash must be 64 hexadecimal digits (sha256)")
        async with self._single() as db:
            await db.execute(
                "INSERT INTO command_syncs (scope, payload_hash, synced_at) VALUES (?, ?, ?)"
                " ON CONFLICT (scope) DO UPDATE SET payload_hash = excluded.payload_hash,"
                " synced_at = excluded.synced_at",
                (scope, payload_hash, self._now_ms()))
