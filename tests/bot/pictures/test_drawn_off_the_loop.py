"""Board pictures are drawn off the event loop.

A Sakkara or Indus board takes ~50 ms of CPU to draw (more on a busy machine), two or three times
a move (the public board, the players' private pictures). Drawn on the event loop, that held every
table's clicks: with 100 Sakkara tables, clicks were answered after 1.8 s at the median.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from incan_kit import buttons, lobby_id, start_bot
from table_kit import lobby_message, loop_is_free

from cogs.indus import render as indus_render
from pictures.sakkara import board as sakkara_board


def probing(draw: Callable[..., Any], loop_free: list[bool]) -> Callable[..., Any]:
    """Wrap a drawing function: note whether the event loop could run while it draws."""
    loop = asyncio.get_running_loop()

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        loop_free.append(loop_is_free(loop))
        return draw(*args, **kwargs)

    return wrapper


async def test_sakkara_pictures_are_drawn_while_the_event_loop_serves_others(fake, table, store, clock, ann,
                                                                           monkeypatch):
    loop_free: list[bool] = []
    for name in ("board_image", "private_pictures"):
        monkeypatch.setattr(sakkara_board, name, probing(getattr(sakkara_board, name), loop_free))
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "sakkara new", {})
    lobby = lobby_message(fake, table)
    await fake.click(ann, lobby, lobby_id(lobby, "ai-easy"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))  # the board goes up, ann's prompt with her rack
    assert any(buttons(m, "peek:") for m in fake.channel_messages(table))
    assert len(loop_free) >= 2 and all(loop_free)
    await fake.stop(bot)


async def test_indus_boards_are_drawn_while_the_event_loop_serves_others(fake, table, store, clock, ann,
                                                                       monkeypatch):
    loop_free: list[bool] = []
    monkeypatch.setattr(indus_render, "board_png", probing(indus_render.board_png, loop_free))
    bot = await start_bot(fake, store, clock)
    await fake.slash(ann, table, "indus new", {})
    lobby = lobby_message(fake, table)
    await fake.click(ann, lobby, lobby_id(lobby, "ai-easy"))
    await fake.click(ann, lobby, lobby_id(lobby, "start"))
    assert loop_free and all(loop_free)
    await fake.stop(bot)
