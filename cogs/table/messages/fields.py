"""Long texts cut where a reader expects a break: at a line or an item, never in a word.

Discord refuses an embed field over 1,024 characters (a description over 4,096). A list that may
grow past that (a custom Indus layout's ruins, a long game log, many players' names) is split
into several fields at its items' boundaries, or, for a log, keeps its newest whole lines (the
older ones are in the game's thread).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

__all__ = ["DESCRIPTION_LIMIT", "FIELD_LIMIT", "add_split_field", "newest_lines", "split_items"]

FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096
CONTINUED = "\u200b"  # a continuation field's name: Discord wants one, the reader needs none


def _fit(item: str, limit: int) -> str:
    """Return an item short enough to stand alone: whole words, an ellipsis where it was cut."""
    if len(item) <= limit:
        return item
    cut = item[:limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut).rstrip() + "…"


def split_items(items: Sequence[str], sep: str, limit: int = FIELD_LIMIT) -> list[str]:
    """Return ``items`` joined by ``sep`` in as few parts of at most ``limit`` characters as fit,
    each part ending at an item's end (an item longer than a part is cut at a word)."""
    parts: list[str] = []
    current = ""
    for item in (_fit(i, limit) for i in items):
        if current and len(current) + len(sep) + len(item) > limit:
            parts.append(current)
            current = ""
        current = f"{current}{sep}{item}" if current else item
    if current:
        parts.append(current)
    return parts


def newest_lines(lines: Sequence[str], limit: int = FIELD_LIMIT) -> str:
    """Return the newest whole lines that fit in ``limit`` characters (a log's latest part)."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        line = _fit(line, limit)
        if kept and size + 1 + len(line) > limit:
            break
        kept.append(line)
        size += len(line) + (1 if len(kept) > 1 else 0)
    return "\n".join(reversed(kept))


def add_split_field(embed: discord.Embed, name: str, items: Sequence[str], sep: str, *,
                    inline: bool = False) -> None:
    """Add a list as one field, or several (the first named) when it is longer than a field holds."""
    for index, part in enumerate(split_items(items, sep) or [""]):
        embed.add_field(name=name if index == 0 else CONTINUED, value=part or CONTINUED, inline=inline)
