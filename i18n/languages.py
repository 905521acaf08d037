"""The bot's languages and how a Discord locale maps onto one of them.

Discord names Finnish ``fi``, Swedish ``sv-SE`` and Italian ``it``; English comes as ``en-US`` or
``en-GB``. Every other locale (and a missing one) reads English: the fallback is quiet, because
a player whose client is in Polish did nothing wrong.
"""

from __future__ import annotations

from typing import Any

__all__ = ["BABEL_LOCALES", "DEFAULT", "DISCORD_LOCALES", "LANGUAGES", "NATIVE_NAMES", "language_of"]

DEFAULT = "en"
LANGUAGES: tuple[str, ...] = ("en", "fi", "sv", "it")
"""The languages with a shipped catalogue (``locale/<language>.po``), English first (the source)."""

DISCORD_LOCALES: dict[str, str] = {"fi": "fi", "sv": "sv-SE", "it": "it"}
"""The Discord locale each translated language is synced under (command localisations)."""

BABEL_LOCALES: dict[str, str] = {"en": "en", "fi": "fi_FI", "sv": "sv_SE", "it": "it_IT"}
"""The CLDR locale numbers and dates are formatted in."""

NATIVE_NAMES: dict[str, str] = {"en": "English", "fi": "suomi", "sv": "svenska", "it": "italiano"}
"""Each language named in itself (what ``/settings language`` offers)."""


def language_of(locale: Any) -> str:
    """Return the bot's language for a Discord locale (a ``discord.Locale``, a code such as
    ``"sv-SE"``, a language such as ``"fi"``, or None); English when it has no catalogue."""
    code = getattr(locale, "value", locale)
    if not isinstance(code, str) or not code:
        return DEFAULT
    language = code.replace("_", "-").split("-")[0].lower()
    return language if language in LANGUAGES else DEFAULT
