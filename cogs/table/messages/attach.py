"""A picture as Discord takes it: PNG bytes wrapped as a ``discord.File`` (drawn by :mod:`pictures`),
and what an edit says of the pictures a message already carries."""

from __future__ import annotations

import io
from typing import Any

import discord

__all__ = ["PICTURE_FIELDS", "board_file", "unpictured"]

PICTURE_FIELDS = ("file", "files", "attachments")
"""The fields of a send or an edit that name its pictures."""


def board_file(png: bytes, name: str = "board.png") -> discord.File:
    """Return ``png`` as a ``discord.File`` named ``name`` (embed: ``attachment://board.png``)."""
    return discord.File(io.BytesIO(png), filename=name)


def unpictured(fields: dict[str, Any]) -> dict[str, Any]:
    """Return an edit's ``fields``, with ``attachments=[]`` when they redraw the message's embeds
    without a picture and name no pictures of their own.

    Discord keeps a message's attachments on an edit that does not name them. A board drawn as text
    (Attach Files taken away mid-game) would otherwise go on showing, under its new text, the
    picture of a position that no longer stands. An embed that shows an ``attachment://`` picture
    still shows the one the message carries (a closing edit redraws the embed of a picture board),
    and an edit that leaves the embeds alone leaves the pictures alone.
    """
    if any(key in fields for key in PICTURE_FIELDS) or not ("embed" in fields or "embeds" in fields):
        return fields
    embeds = [fields.get("embed"), *(fields.get("embeds") or [])]
    if any(isinstance(e, discord.Embed) and _shows_attachment(e) for e in embeds):
        return fields
    return {**fields, "attachments": []}


def _shows_attachment(embed: discord.Embed) -> bool:
    """Return whether an embed shows one of its message's attachments."""
    urls = (embed.image.url, embed.thumbnail.url, embed.author.icon_url, embed.footer.icon_url)
    return any(str(url or "").startswith("attachment://") for url in urls)
