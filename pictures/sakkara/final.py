"""Sakkara's end of game as a picture: the final board with the scoring marked on each seat's panel.

The summary message carries it under the standings. It is the public board (nothing of a rack is
drawn: a game's end reveals no rack) with, on each panel, what decided the game — pyramid tiles,
completed levels and displayed Grain, the order of the rule's tie-breaks — and the winner(s)
framed and badged, so a reader sees at a glance why the game went the way it did.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pictures.lettering import tr
from pictures.sakkara.board import board_canvas, panel_box

__all__ = ["final_image"]

WIN = "#2f8a3e"


def final_image(view: dict[str, Any], names: Sequence[str] | None, result: dict[str, Any]) -> bytes:
    """Return the final board (``GAME.view(state, None)`` of a finished game) with ``result``'s
    scoring marked: each seat's tiles, levels and Grain; the winners framed with a badge."""
    c = board_canvas(view, names)
    winners = set(result.get("winners") or [])
    scores = list(result.get("scores") or [0, 0])
    levels = list(view.get("levels") or [0, 0])
    grains = list(view.get("grains") or [0, 0])
    for seat in (0, 1):
        x, y, w, h = panel_box(seat)
        score = tr("boards.sakkara.final", size=scores[seat], levels=levels[seat], grain=grains[seat])
        c.text(x + 12, y + h - 16, c.fit(score, 15, w - 24), 15, fill=WIN if seat in winners else "#5a4a2c",
               anchor="lm", bold=True)
        if seat in winners:
            c.rect(x, y, x + w, y + h, outline=WIN, width=4, radius=8)
            badge = tr("boards.winner")
            c.rect(x + w - 96, y + 10, x + w - 8, y + 32, fill=WIN, radius=6)
            c.text(x + w - 52, y + 21.5, c.fit(badge, 13, 84), 13, fill="#ffffff", anchor="mm", bold=True)
    return c.png()
