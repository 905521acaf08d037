"""Indus's end of game as a picture: the final board with the scoring marked.

The summary message carries it under the standings: the board as it ended, the winners' chips
framed, and under the board a strip with every ruin — its name as the board prints it, its value
(first/second place) and the colours that scored it, each with its points — so the picture alone
tells who took which ruin. Colours are drawn as the board's pieces (shape and colour), never by
colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pictures.canvas import Canvas, text_width
from pictures.indus.board import BG, INK, MARGIN, MIN_TEXT, SIZE, board_canvas, piece, player_chip
from pictures.lettering import player_names, tr

__all__ = ["final_image"]

WIN = "#2f8a3e"
ROW = 30  # one line of ruins in the strip
PIECE_R = 8.0


def final_image(view: dict[str, Any], names: Sequence[str] | None, result: dict[str, Any]) -> bytes:
    """Return the final board (``GAME.view(state, None)`` of a finished game) with ``result``'s
    scoring marked: the winners' chips framed and every ruin's points by colour in a strip below."""
    width, height = SIZE
    entries = [_entry(ruin, result.get("ruins", {}).get(str(ruin["id"]), {}))
               for ruin in (view.get("layout") or {}).get("ruins") or []]
    rows = _wrap([_entry_width(label, takers) for label, takers in entries], width - 2 * MARGIN - 4)
    strip = 34 + ROW * max(1, len(rows)) + 8
    c = Canvas(width, height + strip, BG)
    c.image.paste(board_canvas(view, names).image, (0, 0))
    players = int(view.get("players") or 2)
    seats = player_names(names, players)
    winners = [seat for seat in result.get("winners") or [] if 0 <= seat < players]
    for seat in winners:
        x, y, w, h = player_chip(seat, players)
        c.rect(x - 2, y - 2, x + w + 2, y + h + 2, outline=WIN, width=3.5, radius=7)
    title = tr("boards.indus.ruins_scored")
    if winners:
        title += " · " + tr("boards.indus.won", who=", ".join(seats[s] for s in winners))
    c.text(MARGIN, height + 18, c.fit(title, 17, width - 2 * MARGIN), 17, fill=WIN, anchor="lm", bold=True)
    y = height + 34 + ROW / 2
    for row in rows:
        x = MARGIN + 4.0
        for index in row:
            label, takers = entries[index]
            x = _draw_entry(c, x, y, label, takers)
        y += ROW
    return c.png()


def _entry(ruin: dict[str, Any], got: dict[str, int]) -> tuple[str, list[tuple[int, int]]]:
    """Return a ruin's label ("B1 8/4") and its takers (colour, points), most points first."""
    value = f"{ruin['first']}/{ruin['second']}" if "second" in ruin else str(ruin["first"])
    takers = sorted(((int(colour), int(points)) for colour, points in got.items()), key=lambda cp: (-cp[1], cp[0]))
    return f"{ruin['id']} {value}", takers


def _entry_width(label: str, takers: Sequence[tuple[int, int]]) -> float:
    parts = [text_width(label, MIN_TEXT) + 8]
    parts += [2 * PIECE_R + 4 + text_width(str(points), MIN_TEXT) + 6 for _, points in takers] or [
        text_width("–", MIN_TEXT) + 6]
    return sum(parts) + 18  # the gap to the next ruin


def _wrap(widths: Sequence[float], room: float) -> list[list[int]]:
    """Return the entries' indices line by line, as many on a line as fit."""
    rows: list[list[int]] = []
    used = 0.0
    for index, w in enumerate(widths):
        if not rows or used + w > room:
            rows.append([])
            used = 0.0
        rows[-1].append(index)
        used += w
    return rows


def _draw_entry(c: Canvas, x: float, y: float, label: str, takers: Sequence[tuple[int, int]]) -> float:
    # a light box per ruin, so its takers read as one group and not as the next ruin's
    c.rect(x - 4, y - ROW / 2 + 3, x + _entry_width(label, takers) - 18 + 2, y + ROW / 2 - 3, fill="#fffaf0",
           outline="#d8c9a6", width=1, radius=5)
    c.text(x, y, label, MIN_TEXT, fill=INK, anchor="lm", bold=True)
    x += text_width(label, MIN_TEXT) + 8
    if not takers:
        c.text(x, y, "–", MIN_TEXT, fill="#7a6a4a", anchor="lm")
        return x + text_width("–", MIN_TEXT) + 6 + 18
    for colour, points in takers:
        piece(c, colour, None, x + PIECE_R, y, PIECE_R)
        x += 2 * PIECE_R + 4
        c.text(x, y, str(points), MIN_TEXT, fill=INK, anchor="lm", bold=True)
        x += text_width(str(points), MIN_TEXT) + 6
    return x + 18
