"""A picture as Discord takes it: PNG bytes wrapped as a ``discord.File`` (drawn by :mod:`pictures`)."""

from __future__ import annotations

import io

import discord

__all__ = ["board_file"]


def board_file(png: bytes, name: str = "board.png") -> discord.File:
    """Return ``png`` as a ``discord.File`` named ``name`` (embed: ``attachment://board.png``)."""
    return discord.File(io.BytesIO(png), filename=name)
