"""The drawing kit the board pictures share: a supersampled canvas (:mod:`cogs.drawing.canvas`),
the words and player names printed on the pictures (:mod:`cogs.drawing.labels`), and
:func:`board_file`, which wraps PNG bytes for Discord.

Each game's picture lives with the game (``cogs/sakkara/board.py``, ``cogs/indus/board.py``).
Only Pillow's bundled font is used (no system fonts, no network). Output is ~860-890 px wide,
legible at Discord's ~550 px preview.
"""

from __future__ import annotations

import io

import discord

__all__ = ["board_file"]


def board_file(png: bytes, name: str = "board.png") -> discord.File:
    """Return ``png`` as a ``discord.File`` named ``name`` (embed: ``attachment://board.png``)."""
    return discord.File(io.BytesIO(png), filename=name)
