"""Board images for the Discord layer: Pillow drawings of the engines' views, as PNG bytes.

- :func:`sakkara_board` — the PUBLIC Sakkara view (``GAME.view(state, None)``): board, workers,
  displays, pyramids, the pending used-tile stack, whose turn. It reads no private key.
- :func:`sakkara_rack` — ONE seat's private rack (``GAME.view(state, seat)``): DM / ephemeral only.
- :func:`indus_board` — the public Indus view: dig, start spaces, stacks, secured squares,
  reserves, prisoners, the die.
- :func:`board_file` — wrap PNG bytes as a ``discord.File`` for ``attachment://board.png``.

Each image takes an optional ``names`` (display names per seat; default "Player 1", ...).
Only Pillow's bundled font is used (no system fonts, no network). Output is ~860-890 px wide,
legible at Discord's ~550 px preview. Labels printed on the images (spaces ``A1``..``G7`` for
Sakkara, squares ``A1``..``F6`` and start spaces ``N0``..``W5`` for Indus, workers ``1A``..``2B``)
come from the helper functions re-exported here, so menus can use the same names.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import discord

from cogs.indus.board import board_image as _indus_image
from cogs.indus.board import square_label as indus_square_label
from cogs.sakkara.board import board_image as _sakkara_image
from cogs.sakkara.board import rack_image as _sakkara_rack_image
from cogs.sakkara.board import space_label as sakkara_space_label
from cogs.sakkara.board import worker_label as sakkara_worker_label

__all__ = [
    "board_file",
    "indus_board",
    "indus_square_label",
    "sakkara_board",
    "sakkara_rack",
    "sakkara_space_label",
    "sakkara_worker_label",
    "warm",
]


def sakkara_board(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """Return a PNG of the public Sakkara view (``GAME.view(state, None)``); never a rack."""
    return _sakkara_image(view, names)


def sakkara_rack(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """Return a PNG of one seat's private rack (``GAME.view(state, seat)``), for that seat only."""
    return _sakkara_rack_image(view, names)


def indus_board(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """Return a PNG of the public Indus view (``GAME.view(state, None)``)."""
    return _indus_image(view, names)


def board_file(png: bytes, name: str = "board.png") -> discord.File:
    """Return ``png`` as a ``discord.File`` named ``name`` (embed: ``attachment://board.png``)."""
    return discord.File(io.BytesIO(png), filename=name)


def warm() -> None:
    """Fill the drawing caches (tiles, pieces, words, backgrounds) so the first real board is fast.

    Optional: a cog may call it once at load, e.g. ``await asyncio.to_thread(boards.warm)``;
    without it the first board of each game after a start takes ~0.3 s instead of ~30 ms.
    """
    from engine.core import CHANCE, resolve_chance
    from engine.indus import GAME as INDUS
    from engine.sakkara import GAME as SAKKARA
    from engine.sakkara.tiles import MOTIFS

    state = SAKKARA.setup(2, 0)
    state, _ = SAKKARA.apply(state, CHANCE, resolve_chance(SAKKARA, state))
    view = SAKKARA.view(state, 0)
    sakkara_board(view)
    sakkara_rack({**view, "rack": dict.fromkeys(MOTIFS, 1)})
    for players in (2, 3, 4):
        indus_board(INDUS.view(INDUS.setup(players, 0), None))
