"""Per-server settings (migration 0006): one JSON value per (server, key).

Keys are the bot's to choose: ``language`` (issue 14, ``/settings language``), and those of
issue 13's ``/settings``. :class:`SettingsRecords` is a part of :class:`db.store.Store` (it uses
the store's backend).
"""

from __future__ import annotations

from typing import Any

from db.codecs import check_int64, decode_json, encode_json
from db.plumbing import StoreBase

__all__ = ["SettingsRecords"]


class SettingsRecords(StoreBase):
    """Server settings (a part of ``db.store.Store``)."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Return a server's settings (only the keys that were set)."""
        check_int64(guild_id, "guild_id")
        async with self._read() as db:
            rows = await db.fetch("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {str(key): decode_json(value, -1, f"guild_settings.{key}") for key, value in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: object | None) -> None:
        """Set a server's setting (``None``: back to the default; one autocommit statement)."""
        check_int64(guild_id, "guild_id")
        if not isinstance(key, str) or not 1 <= len(key) <= 32:
            raise ValueError(f"setting key must be 1 to 32 characters, not {key!r}")
        async with self._single() as db:
            if value is None:
                await db.execute("DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
                return
            await db.execute(
                "INSERT INTO guild_settings (guild_id, key, value, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (guild_id, key, encode_json(value, "value"), self._now_ms()),
            )
