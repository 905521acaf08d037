"""Slash commands in four languages: the synced payload carries Finnish, Swedish and Italian names
and descriptions for every command, option and choice, each one valid for Discord, and the
English of the catalogue is the English of the code."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands
from incan_kit import start_bot

from cogs.table.commands.translator import CatalogueTranslator, localised_name
from i18n.catalogue import catalogue_path, read_catalogue
from i18n.languages import DISCORD_LOCALES

LOCALES = sorted(DISCORD_LOCALES.values())  # fi, it, sv-SE
NAME = re.compile(r"^[-_'\w]{1,32}$")


def _walk(node: dict[str, Any], path: str, out: list[tuple[str, dict[str, Any]]]) -> None:
    out.append((path, node))
    for option in node.get("options") or []:
        _walk(option, f"{path} {option['name']}", out)


@pytest.fixture
async def synced(fake, store, clock) -> list[tuple[str, dict[str, Any]]]:
    bot = await start_bot(fake, store, clock)
    nodes: list[tuple[str, dict[str, Any]]] = []
    for scope in fake.commands.values():
        for command in scope:
            _walk(command, command["name"], nodes)
    await fake.stop(bot)
    assert len(nodes) > 50
    return nodes


async def test_every_command_option_and_choice_has_all_four_languages(synced):
    missing = []
    for path, node in synced:
        names = node.get("name_localizations") or {}
        descriptions = node.get("description_localizations") or {}
        missing += [f"{path} name {loc}" for loc in LOCALES if not names.get(loc)]
        missing += [f"{path} description {loc}" for loc in LOCALES if not descriptions.get(loc)]
        for choice in node.get("choices") or []:
            localised = choice.get("name_localizations") or {}
            missing += [f"{path} choice {choice['value']} {loc}" for loc in LOCALES if not localised.get(loc)]
    assert missing == []


async def test_localised_names_and_descriptions_are_valid_for_discord(synced):
    bad = []
    siblings: dict[tuple[str, str], list[str]] = {}
    for path, node in synced:
        parent = path.rsplit(" ", 1)[0] if " " in path else ""
        for locale, name in (node.get("name_localizations") or {}).items():
            if not NAME.match(name) or name != name.lower():
                bad.append(f"{path} {locale} name {name!r}")
            siblings.setdefault((parent, locale), []).append(name)
        for locale, text in (node.get("description_localizations") or {}).items():
            if not 1 <= len(text) <= 100:
                bad.append(f"{path} {locale} description of {len(text)} characters")
        for choice in node.get("choices") or []:
            for locale, name in (choice.get("name_localizations") or {}).items():
                if not 1 <= len(name) <= 100:
                    bad.append(f"{path} choice {choice['value']} {locale}")
    assert bad == []
    clashes = {key: names for key, names in siblings.items() if len(names) != len(set(names))}
    assert clashes == {}


async def test_the_catalogues_english_is_the_codes_english(synced):
    """A command whose English changed in the code but not in en.po would sync a translation of
    the old text: the ids' English must be the payload's defaults."""
    english = {str(m.context): m.id for m in read_catalogue(catalogue_path("en")) if m.id}
    stale = []
    for path, node in synced:
        parts = path.split()
        keys = ["cmd." + ".".join(parts)]
        if len(parts) >= 2 and parts[0] in ("incan", "sakkara", "indus"):
            keys.append("cmd.table." + ".".join(parts[1:]))
        key = next((k for k in keys if k in english), None)
        if key is None:
            stale.append(f"{path}: no cmd.* entry")
            continue
        if english[key] != node["name"] or english.get(key + ".desc") != node["description"]:
            stale.append(f"{path}: en.po says {english[key]!r} / {english.get(key + '.desc')!r}")
        for choice in node.get("choices") or []:
            if english.get(f"choice.{choice['value']}") != choice["name"]:
                stale.append(f"{path} choice {choice['value']}")
    assert stale == []


async def test_locales_without_a_catalogue_get_no_localisation():
    translator = CatalogueTranslator()
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(app_commands.locale_str("new"), discord.Locale.german, context) is None
    assert await translator.translate(app_commands.locale_str("new"), discord.Locale.finnish, context) is None


def test_texts_name_commands_as_the_reader_sees_them():
    assert localised_name("incan new", "fi") == "incan uusi"
    assert localised_name("incan new", "sv-SE") == "incan ny"
    assert localised_name("leaderboard", "it") == "classifica"
    assert localised_name("incan join", "fi") == "incan liity"  # the shared lobby commands
    assert localised_name("incan new", "de") == "incan new"
