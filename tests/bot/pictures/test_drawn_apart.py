"""Pictures drawn in a drawing process (``DRAW_WORKERS``, pictures/): the same pictures as on the
drawing thread, in the reader's language, and on the thread when a process cannot take them.

On a thread every Pillow call gives up the GIL and must win it back from a busy event loop: beside
300 Sakkara tables the thread drew ~6 moves' pictures a second. A process has its own GIL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

import engine.sakkara as sakkara_engine
import i18n
from pictures import drawing
from pictures.sakkara import board

SAKKARA = sakkara_engine.GAME


@pytest.fixture
def apart() -> Iterator[None]:
    drawing.draw_apart(1)
    yield
    drawing.stop_apart()


async def test_a_drawing_process_draws_the_same_picture_in_the_readers_language(apart):
    view = SAKKARA.view(SAKKARA.setup(2, 5), 0)
    with i18n.reading("fi"):
        here = board.private_pictures(view, ["Ann", "Bob"])
        there = await drawing.drawn(board.private_pictures, view, ["Ann", "Bob"])
    assert there == here
    assert await drawing.drawn(os.getpid) != os.getpid()  # drawn in another process
    assert there != board.private_pictures(view, ["Ann", "Bob"])  # English words: another picture


async def test_what_a_process_cannot_be_handed_is_drawn_on_the_thread(apart):
    drawn_in: list[int] = []

    def made_on_the_fly(view: dict[str, object]) -> bytes:  # a closure: not picklable
        drawn_in.append(os.getpid())
        return board.board_image(view)

    view = SAKKARA.view(SAKKARA.setup(2, 5), None)
    assert await drawing.drawn(made_on_the_fly, view) == board.board_image(view)
    assert drawn_in == [os.getpid()]


async def test_without_drawing_processes_pictures_are_drawn_on_the_thread():
    drawing.stop_apart()
    view = SAKKARA.view(SAKKARA.setup(2, 5), None)
    assert await drawing.drawn(board.board_image, view) == board.board_image(view)
