"""Where pictures are drawn: on one drawing thread, or in drawing processes (``DRAW_WORKERS``),
always in the reader's language (:func:`drawn`).

The kit itself is :mod:`pictures.canvas` (a supersampled canvas) and :mod:`pictures.lettering` (the
words and player names printed on the pictures); each game's pictures are in ``pictures/<game>/``.
Only the bundled font is used (no system fonts, no network). Discord shows a picture in a 400 x 300 px
box (``canvas.shown_scale``), so every picture is at least 4:3 wide and lettered for 400 px: words a
player needs at 11 px or more there, counted numbers at 14 (``Canvas.text(role=...)``,
tests/bot/pictures/test_readable.py). The cogs wrap the PNG bytes for Discord
(``cogs.table.messages.attach``).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import multiprocessing
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ParamSpec, TypeVar

import i18n

__all__ = ["draw_apart", "drawn", "stop_apart"]

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

_DRAWING = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drawing")
"""Pictures are drawn here, not on the event loop: a Sakkara or Indus board takes ~50 ms of CPU
(more on a busy machine), and on the loop that held every table's clicks for as long, 2-3 times a
move (bench/bot_latency.py --game sakkara: p99 from a click to its response 5 s at 100 tables).
Pillow lets go of the GIL in its pasting, reducing and encoding, so the loop runs meanwhile. One
thread: pictures come out in the order they were asked for, and no two share a font at once."""

_APART: ProcessPoolExecutor | None = None
"""With :func:`draw_apart`, pictures are drawn in worker processes instead. On a thread, every
Pillow call (a picture makes a few hundred) gives the GIL up and must win it back from a busy event
loop, which keeps it for up to ``sys.getswitchinterval()`` (5 ms): beside 300 Sakkara tables the
drawing thread managed ~6 moves/s. A worker process has its own GIL."""


def draw_apart(workers: int) -> None:
    """Draw pictures in ``workers`` processes from now on (0: on the drawing thread, as tests do).
    Called by the bot at start-up (``DRAW_WORKERS``); :func:`stop_apart` ends them."""
    global _APART
    stop_apart()
    if workers > 0:
        # forkserver/spawn, never fork: the parent runs an event loop and database threads.
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
        _APART = ProcessPoolExecutor(workers, mp_context=context)


def stop_apart() -> None:
    """End the drawing processes (pictures are drawn on the drawing thread after this)."""
    global _APART
    if _APART is not None:
        _APART.shutdown(wait=False, cancel_futures=True)
        _APART = None


def _in_language(language: str, draw: Callable[..., R], args: tuple[Any, ...], kwargs: dict[str, Any]) -> R:
    with i18n.reading(language):
        return draw(*args, **kwargs)


async def drawn(draw: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Return ``draw(*args, **kwargs)``, run in a drawing process or on the drawing thread (with
    the caller's language)."""
    loop = asyncio.get_running_loop()
    apart = _APART
    if apart is not None:
        try:
            return await loop.run_in_executor(
                apart, functools.partial(_in_language, i18n.current_language(), draw, args, dict(kwargs)))
        except BrokenProcessPool:
            # A worker died (killed, out of memory): this and the next pictures are drawn here.
            log.warning("a drawing process died; pictures are drawn on the bot's thread from now on")
            if _APART is apart:
                stop_apart()
        except (pickle.PicklingError, AttributeError, TypeError):
            # Not something another process can be handed (a function made on the fly): drawn here.
            pass
    context = contextvars.copy_context()  # the reader's language (i18n) goes with the picture
    call = functools.partial(context.run, draw, *args, **kwargs)
    return await loop.run_in_executor(_DRAWING, call)
