"""Slash commands in every language: discord.py's ``app_commands.Translator`` over the catalogues.

At ``tree.sync()`` discord.py asks the translator for every command, group, option and choice
name and description in every Discord locale; the answers become the payload's
``name_localizations`` and ``description_localizations`` (Finnish ``fi``, Swedish ``sv-SE``,
Italian ``it``; English is the default text in the code). The catalogue ids follow the command
tree, so the decorators keep their plain English strings:

- a command or group ``/incan new``: ``cmd.incan.new`` (its name), ``cmd.incan.new.desc``;
- an option ``preset`` of it: ``cmd.incan.new.preset``, ``cmd.incan.new.preset.desc``;
- a choice: ``choice.<value>`` (a choice's value is the same wherever it is offered).

The lobby commands every game shares (``join``, ``leave``, ``addbot``, ``start``, ``cancel``)
fall back to ``cmd.table.<command>…`` when a game has no entry of its own. A name Discord would
refuse (upper case, spaces, over 32 characters) is not sent; the tests check every one.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from i18n import current_language, t
from i18n.catalogue import book
from i18n.languages import DISCORD_LOCALES, language_of

__all__ = ["NAME_PATTERN", "CatalogueTranslator", "command_key", "localised_description", "localised_name"]

NAME_PATTERN = re.compile(r"^[-_'\w]{1,32}$")
"""Discord's rule for a localised command or option name (lower case is checked separately)."""

GAME_GROUPS = ("incan", "sakkara", "indus")
_DISCORD_TO_LANGUAGE = {locale: language for language, locale in DISCORD_LOCALES.items()}
_Location = app_commands.TranslationContextLocation


def _path(command: Any) -> list[str]:
    return str(getattr(command, "qualified_name", "")).split()


def command_key(context: app_commands.TranslationContextTypes) -> str | None:
    """Return the catalogue id of the string discord.py asks about, or None (not ours to translate)."""
    data: Any = context.data
    location = context.location
    if location in (_Location.command_name, _Location.group_name):
        return "cmd." + ".".join(_path(data))
    if location in (_Location.command_description, _Location.group_description):
        return "cmd." + ".".join(_path(data)) + ".desc"
    if location is _Location.parameter_name:
        return "cmd." + ".".join([*_path(data.command), str(data.name)])
    if location is _Location.parameter_description:
        return "cmd." + ".".join([*_path(data.command), str(data.name)]) + ".desc"
    if location is _Location.choice_name:
        return f"choice.{data.value}"
    return None


def _lookup(key: str, language: str) -> str | None:
    """Return the translation of ``key`` in ``language`` (or its shared game-lobby id), else None."""
    keys = [key]
    parts = key.split(".")
    if len(parts) >= 3 and parts[0] == "cmd" and parts[1] in GAME_GROUPS:
        keys.append(".".join(["cmd", "table", *parts[2:]]))
    for candidate in keys:
        if book(language).form(candidate, None) is not None:
            return t(candidate, language)
    return None


class CatalogueTranslator(app_commands.Translator):
    """Answers discord.py's questions at sync time from the .po catalogues."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """Return ``string`` in ``locale``, or None when the catalogue has nothing usable."""
        language = _DISCORD_TO_LANGUAGE.get(locale.value)
        if language is None:
            return None  # English (the default) and the locales the bot has no catalogue for
        key = command_key(context)
        if key is None:
            return None
        text = _lookup(key, language)
        if text is None:
            return None
        names = (_Location.command_name, _Location.group_name, _Location.parameter_name)
        if context.location in names and (text != text.lower() or not NAME_PATTERN.match(text)):
            return None  # Discord would refuse the whole sync over one bad name
        return text[:100]


def localised_name(path: str, locale: Any = None) -> str:
    """Return a command's name as a reader of ``locale`` sees it in Discord (``"incan new"`` ->
    ``"incan uusi"`` in Finnish), for texts that tell someone which command to use."""
    language = language_of(locale) if locale is not None else current_language()
    out = []
    parts = path.split()
    for depth in range(1, len(parts) + 1):
        key = "cmd." + ".".join(parts[:depth])
        text = _lookup(key, language) if language and language != "en" else None
        out.append(text or parts[depth - 1])
    return " ".join(out)


def localised_description(path: str, default: str, locale: Any = None) -> str:
    """Return a command's description as a reader of ``locale`` sees it in Discord (``default``, the
    English one in the code, when the catalogue has none)."""
    language = language_of(locale) if locale is not None else current_language()
    text = _lookup("cmd." + ".".join(path.split()) + ".desc", language) if language and language != "en" else None
    return text or default
