"""Indus's end of game as a picture: the final board with the winners marked.

The summary message carries it under the standings: the board as it ended, with every player's final
points on their chip, and the winners' chips framed and labelled. Who took which ruin, for how many
points, is the message's text, ruin by ruin: a strip of twenty ruins under the board made the
picture so tall that Discord showed it ~210 px wide, its numbers unreadable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pictures.canvas import NEEDED
from pictures.indus.board import WORD, board_canvas, player_chip, text_lines
from pictures.lettering import player_names, tr

__all__ = ["WIN", "final_image"]

WIN = "#2f8a3e"


def final_image(view: dict[str, Any], names: Sequence[str] | None, result: dict[str, Any]) -> bytes:
    """Return the final board (``GAME.view(state, None)`` of a finished game) with ``result``'s
    winners' chips framed and named under the chips."""
    c = board_canvas(view, names)
    players = int(view.get("players") or 2)
    winners = [seat for seat in result.get("winners") or [] if 0 <= seat < players]
    for seat in winners:
        x, y, w, h = player_chip(seat, players)
        c.rect(x - 1, y - 1, x + w + 1, y + h + 1, outline=WIN, width=4, radius=7)
    if winners:  # under the chips, in the frames' green: who won
        seats = player_names(names, players)
        x, y, w, h = player_chip(players - 1, players)
        won = tr("boards.indus.won", who=", ".join(seats[s] for s in winners))  # a title's end: "won by Cy"
        lines = text_lines(c, won[:1].upper() + won[1:], WORD, w - 16, 2)
        c.rect(x, y + h + 12, x + w, y + h + 22 + 24 * len(lines), fill=WIN, radius=6)
        for i, line in enumerate(lines):
            c.text(x + w / 2, y + h + 17 + 24 * i, line, WORD, fill="#ffffff", anchor="ma", bold=True, role=NEEDED)
    return c.png()
