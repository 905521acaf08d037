"""The drawing kit the board pictures share: a supersampled canvas (:mod:`cogs.drawing.canvas`),
the words and player names printed on the pictures (:mod:`cogs.drawing.labels`), and
:func:`board_file`, which wraps PNG bytes for Discord.

Each game's picture lives with the game (``cogs/sakkara/board.py``, ``cogs/indus/board.py``).
Only Pillow's bundled font is used (no system fonts, no network). Output is ~860-890 px wide,
legible at Discord's ~550 px preview.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import io
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

import discord

__all__ = ["board_file", "drawn"]

P = ParamSpec("P")
R = TypeVar("R")

_DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drawing")
"""Pictures are drawn here, not on the event loop: a Sakkara or Indus board takes ~50 ms of CPU
(more on a busy machine), and on the loop that held every table's clicks for as long, 2-3 times a
move (bench/bot_latency.py --game sakkara: p99 from a click to its response 5 s at 100 tables).
Pillow lets go of the GIL in its pasting, reducing and encoding, so the loop runs meanwhile. One
thread: pictures come out in the order they were asked for, and no two share a font at once."""


async def drawn(draw: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Return ``draw(*args, **kwargs)``, run on the drawing thread (with the caller's language)."""
    context = contextvars.copy_context()  # the reader's language (cogs.i18n) goes with the picture
    call = functools.partial(context.run, draw, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_DRAWING, call)


def board_file(png: bytes, name: str = "board.png") -> discord.File:
    """Return ``png`` as a ``discord.File`` named ``name`` (embed: ``attachment://board.png``)."""
    return discord.File(io.BytesIO(png), filename=name)
