"""The Discord language each player last used on each server (migration 0004).

A DM sent without an interaction (a prompt, a nudge, a reminder) is written in that language, so
it must outlive a restart. :class:`LocaleRecords` is a part of :class:`db.store.Store` (it uses
the store's backend). A locale is Discord's code (``"fi"``, ``"sv-SE"``); which
language it reads is the bot's business, not the store's.
"""

from __future__ import annotations

from collections.abc import Sequence

from db.codecs import check_int64
from db.plumbing import StoreBase

__all__ = ["LocaleRecords"]

MAX_QUERY_USERS = 500
"""Users per lookup statement (SQLite's default limit of bound variables is far above)."""


class LocaleRecords(StoreBase):
    """Players' last locales per server (a part of ``db.store.Store``)."""

    async def player_locales(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """Return the last locale each of these users used on the server (users never seen: absent)."""
        check_int64(guild_id, "guild_id")
        users = sorted({check_int64(u, "user_id") for u in user_ids})
        found: dict[int, str] = {}
        async with self._read() as db:
            for start in range(0, len(users), MAX_QUERY_USERS):
                chunk = users[start:start + MAX_QUERY_USERS]
                marks = ", ".join("?" * len(chunk))
                rows = await db.fetch(
                    f"SELECT user_id, locale FROM player_locales WHERE guild_id = ? AND user_id IN ({marks})",
                    (guild_id, *chunk))
                found.update({int(user): str(locale) for user, locale in rows})
        return found

    async def set_player_locale(self, guild_id: int, user_id: int, locale: str) -> None:
        """Remember the locale a user used on a server (one autocommit statement)."""
        check_int64(guild_id, "guild_id")
        check_int64(user_id, "user_id")
        if not isinstance(locale, str) or not 2 <= len(locale) <= 16:
            raise ValueError(f"locale must be 2 to 16 characters, not {locale!r}")
        async with self._single() as db:
            await db.execute(
                "INSERT INTO player_locales (guild_id, user_id, locale, updated_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET locale = excluded.locale,"
                " updated_at = excluded.updated_at",
                (guild_id, user_id, locale, self._now_ms()))
