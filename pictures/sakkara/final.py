"""Sakkara's end of game as a picture: the final board with the winner(s) marked.

The summary message carries it under the standings (which say the scores and tie-breaks in words).
It is the public board (nothing of a rack is drawn: a game's end reveals no rack), whose panels
already show what decided the game — each pyramid's tiles and levels and the displayed Grain — with
the winners' panels framed and labelled, so a reader sees at a glance why the game went the way it
did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pictures.canvas import NEEDED
from pictures.lettering import tr
from pictures.sakkara.board import WORD, board_canvas, panel_box

__all__ = ["final_image"]

WIN = "#2f8a3e"


def final_image(view: dict[str, Any], names: Sequence[str] | None, result: dict[str, Any]) -> bytes:
    """Return the final board (``GAME.view(state, None)`` of a finished game) with ``result``'s
    scoring marked: each seat's tiles, levels and Grain; the winners framed with a badge."""
    c = board_canvas(view, names)
    winners = set(result.get("winners") or [])
    for seat in sorted(winners):
        x, y, w, h = panel_box(seat)
        c.rect(x, y, x + w, y + h, outline=WIN, width=4, radius=8)
        c.rect(x + 8, y + h - 30, x + w - 8, y + h - 7, fill=WIN, radius=6)
        c.text(x + w / 2, y + h - 18, c.fit(tr("boards.winner"), WORD, w - 24), WORD, fill="#ffffff", anchor="mm",
               bold=True, role=NEEDED)
    return c.png()
