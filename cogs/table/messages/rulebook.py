"""A game's rules as embeds, one per catalogue section, in as few private messages as Discord takes.

The sections are the catalogue entries ``<game>.rules<n>_title`` / ``<game>.rules<n>`` (n from 1),
the same sections in every language. Discord refuses a message whose embeds hold more than 6,000
characters together (or more than 10 embeds), and a complete rules text in Finnish or Italian is
longer than that: the embeds are packed, in order, into as many messages as they need.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from i18n import t

__all__ = ["EMBEDS_PER_MESSAGE", "MESSAGE_LIMIT", "pack", "rule_embeds"]

EMBEDS_PER_MESSAGE = 10
MESSAGE_LIMIT = 6000
"""Discord's limits for one message: embeds, and characters over all its embeds."""


def rule_embeds(sections: Sequence[str], colour: discord.Colour, locale: Any = None,
                **values: Any) -> list[discord.Embed]:
    """Return a game's rules in the reader's language, one embed per section (``sections``: the
    catalogue ids, e.g. ``"sakkara.rules1"``, whose titles are ``<id>_title``); ``values`` fill the
    sections' placeholders (command and option names)."""
    return [discord.Embed(title=t(f"{key}_title", locale), description=t(key, locale, **values), colour=colour)
            for key in sections]


def pack(embeds: Sequence[discord.Embed]) -> list[list[discord.Embed]]:
    """Return ``embeds`` in order, split into messages within Discord's limits (a section is never cut)."""
    messages: list[list[discord.Embed]] = []
    size = 0
    for embed in embeds:
        if not messages or len(messages[-1]) == EMBEDS_PER_MESSAGE or size + len(embed) > MESSAGE_LIMIT:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += len(embed)
    return messages
