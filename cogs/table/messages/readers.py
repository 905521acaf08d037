"""Who reads what, in which language: the server's language for public messages, each player's
own Discord language for what only they see.

- A reply to an interaction (ephemeral answers, errors, a private prompt opened by a click)
  follows ``interaction.locale``: :meth:`Readers.saw` sets it for the rest of the interaction's
  task, and remembers it as that player's language on that server.
- A DM sent without an interaction (a prompt, a nudge, a reminder) follows the language that
  player last used on the table's server (:meth:`Readers.seat`).
- A public message (lobby, board, log, summary, leaderboard) follows the server's language: the
  one its managers chose with ``/settings language``, else its preferred locale (Discord's
  Community setting), else English (:meth:`Readers.public`).
- A button is drawn in the language of the message it sits on. A private text naming the button
  a player just pressed names it in the words they saw on it (:meth:`Readers.pressed`): a Swedish
  player pressing a Finnish server's board is told the Finnish label they pressed.

Any locale without a catalogue reads English (:func:`i18n.language_of`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from collections.abc import Iterator
from typing import Any, Protocol

import discord

from engine.session import Table
from i18n import current_language, language_of, reader_is, reading

__all__ = ["LocaleStore", "Readers"]

log = logging.getLogger(__name__)


_PRESSED: contextvars.ContextVar[tuple[int, int | None, str] | None] = contextvars.ContextVar("pressed", default=None)
"""For the rest of a click's task: (user id, the server whose public message they pressed, else
None, their own language)."""

LANGUAGE_KEY = "language"
"""The server setting (``db.settings``) holding the language chosen with ``/settings language``."""


class LocaleStore(Protocol):
    """Where the players' last locales and the servers' chosen languages
    are kept: the store (:mod:`db.settings`)."""

    async def player_locales(self, guild_id: int, user_ids: list[int]) -> dict[int, str]:
        """Return the last Discord locale each of these players used on the server."""
        ...

    async def set_player_locale(self, guild_id: int, user_id: int, locale: str) -> None:
        """Remember the Discord locale a player used on a server."""
        ...

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Return a server's settings."""
        ...

    async def set_guild_setting(self, guild_id: int, key: str, value: object | None) -> None:
        """Set (or clear, with None) a server's setting."""
        ...


class Readers:
    """The languages of a server's public messages and of each player's private ones."""

    def __init__(self, bot: discord.Client, store: LocaleStore | None = None) -> None:
        self.bot = bot
        self.store = store
        self._preferred: dict[int, str] = {}  # guild -> the preferred locale interactions reported
        self._players: dict[tuple[int, int], str] = {}  # (guild, user) -> last locale used there
        self._asked: set[tuple[int, int]] = set()  # (guild, user) pairs the store was asked about
        self._chosen: dict[int, str | None] = {}  # guild -> language chosen with /settings (None: none)
        self._writes: set[Any] = set()

    # ------------------------------------------------------------------ interactions

    def saw(self, interaction: discord.Interaction[Any]) -> str:
        """Draw the rest of this interaction's texts in its user's language; remember the locale."""
        locale = getattr(interaction.locale, "value", None) or "en-US"
        guild_id = interaction.guild_id
        message = interaction.message
        if message is not None:  # a button's words are those of the message it sits on
            public = guild_id is not None and not message.flags.ephemeral
            _PRESSED.set((interaction.user.id, guild_id if public else None, language_of(locale)))
        if guild_id is not None:
            if interaction.guild_locale is not None:
                self._preferred[guild_id] = interaction.guild_locale.value
            key = (guild_id, interaction.user.id)
            if self._players.get(key) != locale:
                self._players[key] = locale
                self._remember(guild_id, interaction.user.id, locale)
        return reader_is(locale)

    def _remember(self, guild_id: int, user_id: int, locale: str) -> None:
        store = self.store
        if store is None:
            return

        async def write() -> None:
            try:
                await store.set_player_locale(guild_id, user_id, locale)
            except Exception:  # a lost locale only means a DM in the server's language
                log.warning("could not store the locale of user %s on server %s", user_id, guild_id, exc_info=True)

        task = asyncio.ensure_future(write())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def flush(self) -> None:
        """Wait for the locale writes in flight (before the store closes)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)

    # ------------------------------------------------------------------ languages

    def public(self, guild_id: int | None) -> str:
        """Return the language of a server's public messages."""
        if guild_id is None:
            return "en"
        chosen = self._chosen.get(guild_id)
        if chosen is not None:
            return chosen
        preferred = self._preferred.get(guild_id)  # the latest interaction's word is the freshest
        if preferred is None:
            guild = self.bot.get_guild(guild_id)
            if guild is not None and guild.preferred_locale is not None:
                preferred = guild.preferred_locale.value
        return language_of(preferred)

    def private(self, guild_id: int | None, user_id: int | None) -> str:
        """Return the language of a player's private messages about that server's tables."""
        if guild_id is not None and user_id is not None:
            locale = self._players.get((guild_id, user_id))
            if locale is not None:
                return language_of(locale)
        return self.public(guild_id)

    def seat(self, table: Table, seat: int) -> str:
        """Return the language of a seat's private messages (the server's for a bot seat)."""
        return self.private(table.guild_id, table.seats[seat].user_id)

    @contextlib.contextmanager
    def publicly(self, table: Table) -> Iterator[str]:
        """Draw this block for the table's channel (the server's language)."""
        with reading(self.public(table.guild_id)) as language:
            yield language

    @contextlib.contextmanager
    def privately(self, table: Table, seat: int) -> Iterator[str]:
        """Draw this block for one seat's eyes only (that player's language)."""
        with reading(self.seat(table, seat)) as language:
            yield language

    def pressed(self, table: Table, seat: int) -> str:
        """Return the language to name a button in, for a text a seat's person reads now: that of
        the message whose button they pressed in this click, else the text's own (a text about a
        prompt names the buttons it carries, drawn in its language)."""
        pressed = _PRESSED.get()
        if pressed is not None and pressed[0] == table.seats[seat].user_id:
            return self.public(pressed[1]) if pressed[1] is not None else pressed[2]
        return current_language()

    def chosen(self, guild_id: int) -> str | None:
        """Return the language a server's managers chose (after :meth:`load_guild`), or None."""
        return self._chosen.get(guild_id)

    async def choose(self, guild_id: int, language: str | None) -> None:
        """Store a server's language (None: back to its Discord language); public messages drawn
        from now on use it."""
        if language is not None and language_of(language) != language:
            raise ValueError(f"no catalogue for {language!r}")
        if self.store is not None:
            await self.store.set_guild_setting(guild_id, LANGUAGE_KEY, language)
        self._chosen[guild_id] = language

    # ------------------------------------------------------------------ stored choices

    async def load_guild(self, guild_id: int | None) -> None:
        """Read a server's chosen language once."""
        if self.store is None or guild_id is None or guild_id in self._chosen:
            return
        value = (await self.store.guild_settings(guild_id)).get(LANGUAGE_KEY)
        # A value no catalogue matches (an old language, a hand-edited row) reads as no choice.
        self._chosen[guild_id] = value if isinstance(value, str) and language_of(value) == value else None

    async def load(self, table: Table) -> None:
        """Read the server's language and the seats' stored locales once (after a restart, before
        a table is drawn)."""
        if self.store is None:
            return
        guild_id = table.guild_id
        await self.load_guild(guild_id)
        users = [s.user_id for s in table.seats if s.user_id is not None
                 and (guild_id, s.user_id) not in self._players and (guild_id, s.user_id) not in self._asked]
        if users:
            self._asked.update((guild_id, u) for u in users)
            for user_id, locale in (await self.store.player_locales(guild_id, users)).items():
                self._players.setdefault((guild_id, user_id), locale)
