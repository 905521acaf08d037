"""The Indus image: the 6×6 dig, the 24 start spaces, stacks, secured squares, players, the die.

Nothing in Indus is hidden, so the image draws the public view whole. Ruin types are colour
bands with a letter and a pattern each (colour-blind readers go by letter and pattern); player
colours are shapes as well as colours (blue circle, yellow square, green hexagon, red diamond)
with the rank's number inside (1 Worker, 2 Assistant, 3 Professor: the text board's ①②③; the
letters W and P name a city wall and a wooden path) and a size that grows with the rank.

Discord shows a picture in a 400 x 300 px box (``pictures.canvas.shown_scale``), so the picture is
landscape, 740 x 540 px, shown 400 px wide: the dig on the left, the title, whose turn, the die and
each player's name and points on the right. Every word a player needs is 21 px (11 px shown), every
number counted (stack heights, points) 26 px (14 px shown); the start spaces' names are small labels
(their place beside the board's columns and rows names them). Reserves, prisoners and the ruins'
values and standings are in the message's text, which stays readable at any size. Squares and start
spaces are named as everywhere else (:mod:`pictures.indus.names`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.indus.layout import TYPES
from engine.indus.rules import COLOUR_NAMES
from pictures.canvas import COUNTED, NEEDED, SCALE, Canvas, text_width
from pictures.indus.names import COLUMNS, square_label, start_label
from pictures.lettering import player_names, tr

__all__ = ["BG", "COUNT", "INK", "MARGIN", "SIZE", "WORD", "board_canvas", "board_image", "piece", "player_chip",
           "square_label", "text_lines", "warm"]

GRID = 6
CELL = 68
FRAME = 40
GAP = 5
MARGIN = 10
COORD = 22
DIG_X = MARGIN + COORD + FRAME + GAP
DIG_Y = MARGIN + COORD + FRAME + GAP
DIG_PX = GRID * CELL
BLOCK_RIGHT = DIG_X + DIG_PX + GAP + FRAME
BLOCK_BOTTOM = DIG_Y + DIG_PX + GAP + FRAME
PANEL_X = BLOCK_RIGHT + 12
WIDTH = 740
PANEL_W = WIDTH - MARGIN - PANEL_X
HEIGHT = BLOCK_BOTTOM + MARGIN
SIZE = (WIDTH, HEIGHT)
"""Pixel size of every Indus image (wider than 4:3: shown 400 px wide)."""
WORD = 21
"""The size of every word a player needs (11 px shown at 740 -> 400 px)."""
COUNT = 26
"""The size of every number players count: stack heights, points (14 px shown)."""
LABEL = 15
"""The size of a label nobody needs to read at Discord's size (a start space's name)."""
CHIP_Y = 138
CHIP_H = 64

BG = "#f4efe2"
INK = "#1e2430"
ACCENT = "#d9541e"
TYPE_ORDER = TYPES  # the engine's canonical order of ruin letters
TYPE_FILL = {"B": "#e3a27a", "T": "#bca5da", "C": "#8ec6ec", "W": "#b8b8b8", "R": "#dccb9c", "P": "#b88a5a"}
TYPE_LINE = {"B": "#b8693e", "T": "#7d62a6", "C": "#3f86bd", "W": "#6d6d6d", "R": "#9c8a58", "P": "#7a5530"}
COLOUR_FILL = ("#2a6fd6", "#f2c318", "#2f9a47", "#d2372c")
COLOUR_TEXT = ("#ffffff", "#1e2430", "#ffffff", "#ffffff")
RANK_NUMBER = {"W": "1", "A": "2", "P": "3"}
"""What a piece shows of its rank (the engine's W/A/P): one notation with the text board's ①②③."""
RANK_RADIUS = {"W": 13.0, "A": 15.0, "P": 17.0}


def _shape(colour: int, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Return the outline of a colour's token shape (circle is handled by the caller)."""
    if colour == 1:  # square
        k = r * 0.88
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if colour == 2:  # hexagon
        return [(cx + r * math.cos(math.pi / 3 * i), cy + r * math.sin(math.pi / 3 * i)) for i in range(6)]
    k = r * 1.18  # diamond
    return [(cx, cy - k), (cx + k, cy), (cx, cy + k), (cx - k, cy)]


def _draw_token(c: Canvas, colour: int, rank: str | None, cx: float, cy: float, r: float, text_size: int = 0) -> None:
    """Draw one piece: its colour's shape, its rank's number inside (if ``rank``)."""
    colour = colour % 4
    fill, edge = COLOUR_FILL[colour], "#1e2430"
    if colour == 0:  # a soft shadow lifts the piece off the patterned ground
        c.circle(cx + 1.2, cy + 1.8, r, fill="#7d7260")
    else:
        c.polygon([(x + 1.2, y + 1.8) for x, y in _shape(colour, cx, cy, r)], fill="#7d7260")
    if colour == 0:
        c.circle(cx, cy, r, fill=fill, outline=edge, width=1.5)
    else:
        c.polygon(_shape(colour, cx, cy, r), fill=fill, outline=edge, width=1.5)
    if rank:
        c.text(cx, cy + 0.5, RANK_NUMBER.get(rank, rank), text_size or WORD, fill=COLOUR_TEXT[colour], anchor="mm",
               bold=True, role=NEEDED)


@lru_cache(maxsize=512)
def _token_sprite(colour: int, rank: str | None, r: float, text_size: int) -> Image.Image:
    side = 2 * r * 1.2 + 6
    s = Canvas.sprite(side, side)
    _draw_token(s, colour, rank, side / 2, side / 2, r, text_size)
    return s.image


def piece(c: Canvas, colour: int, rank: str | None, cx: float, cy: float, r: float, text_size: int = 0) -> None:
    """Paste one piece (a cached :func:`_draw_token`) centred on (cx, cy)."""
    side = round(2 * r * 1.2 + 6)
    c.paste(_token_sprite(colour % 4, rank, r, text_size), cx - side / 2, cy - side / 2)


@lru_cache(maxsize=256)
def _band(kind: str, w: int, h: int) -> Image.Image:
    """Return a ruin type's patterned band (supersampled pixels), cached by size."""
    img = Image.new("RGB", (w, h), TYPE_FILL.get(kind, "#dddddd"))
    d = ImageDraw.Draw(img)
    ink = TYPE_LINE.get(kind, "#888888")
    lw = max(1, SCALE)
    step = 9 * SCALE
    if kind == "T":  # diagonal hatching
        for k in range(-h, w + h, step):
            d.line([(k, 0), (k + h, h)], fill=ink, width=lw)
    elif kind == "C":  # waves
        for y0 in range(step // 2, h, step + 3 * SCALE):
            pts = [(x, y0 + 2.5 * SCALE * math.sin(x / (4.0 * SCALE))) for x in range(0, w + 1, SCALE * 2)]
            d.line(pts, fill=ink, width=lw)
    elif kind == "W":  # bricks
        bh = 8 * SCALE
        for i, y0 in enumerate(range(0, h, bh)):
            d.line([(0, y0), (w, y0)], fill=ink, width=lw)
            off = (i % 2) * 7 * SCALE
            for x0 in range(off, w, 14 * SCALE):
                d.line([(x0, y0), (x0, y0 + bh)], fill=ink, width=lw)
    elif kind == "R":  # cobbles
        for j, y0 in enumerate(range(4 * SCALE, h, 9 * SCALE)):
            for x0 in range((j % 2) * 4 * SCALE + 3 * SCALE, w, 9 * SCALE):
                d.ellipse((x0 - 2 * SCALE, y0 - 2 * SCALE, x0 + 2 * SCALE, y0 + 2 * SCALE), fill=ink)
    elif kind == "P":  # planks
        for y0 in range(0, h, 10 * SCALE):
            d.line([(0, y0), (w, y0)], fill=ink, width=lw)
    return img


def _paste_band(c: Canvas, kind: str, x0: float, y0: float, x1: float, y1: float) -> None:
    bx, by = round(x0 * SCALE), round(y0 * SCALE)
    w, h = round(x1 * SCALE) - bx, round(y1 * SCALE) - by
    c.image.paste(_band(kind, w, h), (bx, by))


def _status(view: dict[str, Any], names: Sequence[str]) -> str:
    phase = view.get("phase", "")
    if phase == "over":
        return tr("boards.indus.over")
    seat = view.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    placed = view.get("placed_colour")
    if view.get("players") == 2 and isinstance(placed, int) and phase in ("roll", "move"):
        who += f" ({tr('boards.indus.colour.' + COLOUR_NAMES[placed % 4])})"
    return tr(f"boards.indus.{phase}", who=who, die=view.get("die") or "?")


def board_image(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """Return a PNG of the public Indus view."""
    return board_canvas(view, names).png()


def board_canvas(view: dict[str, Any], names: Sequence[str] | None = None) -> Canvas:
    """Return the public Indus view drawn on a canvas (the end-of-game picture adds the scoring)."""
    players = int(view.get("players") or 2)
    seats = player_names(names, players)
    layout = view.get("layout") or {}
    c = Canvas(WIDTH, HEIGHT, base=_base(json.dumps(layout, sort_keys=True)))
    x = PANEL_X
    c.text(x, MARGIN, "Indus", 24, fill=INK, bold=True)  # a label, as the turn's number
    if view.get("phase") not in ("setup", "over") and view.get("turn"):
        c.text(x, MARGIN + 30, c.fit(tr("boards.indus.player_turn", n=view["turn"]), LABEL, PANEL_W - 50), LABEL,
               fill="#5a4a2c")
    die = view.get("die")
    if isinstance(die, int) and die and view.get("phase") == "move":
        _die(c, WIDTH - MARGIN - 40, MARGIN, 40, die)
    for i, line in enumerate(text_lines(c, _status(view, seats), WORD, PANEL_W, 3)):
        c.text(x, 60 + 24 * i, line, WORD, fill=ACCENT, anchor="la", bold=True, role=NEEDED)
    _players(c, view, seats)
    _pieces(c, view)
    _frame_pieces(c, view)
    return c


@lru_cache(maxsize=4)  # ~6 MB each (supersampled): a few live layouts, not every random one
def _base(layout_json: str) -> Image.Image:
    """Return what stays fixed for a layout: the dig's ruins, the frame and the coordinates."""
    layout = json.loads(layout_json)
    c = Canvas(WIDTH, HEIGHT, BG)
    _dig(c, layout)
    _frame(c)
    return c.image


def text_lines(c: Canvas, text: str, size: int, width: float, most: int) -> list[str]:
    """Return ``text`` in at most ``most`` lines of ``width`` (word by word; the last one cut with an
    ellipsis when it does not fit)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[: most - 1], " ".join(lines[most - 1:])]
    return [c.fit(line, size, width) for line in lines]


def _dig(c: Canvas, layout: dict[str, Any]) -> None:
    c.rect(DIG_X - 3, DIG_Y - 3, DIG_X + DIG_PX + 3, DIG_Y + DIG_PX + 3, fill="#5b4a30")
    first_square: dict[tuple[int, int], list[str]] = {}
    for ruin in layout.get("ruins") or []:
        squares = sorted(tuple(sq) for sq in ruin.get("squares") or [])
        if squares:
            first_square.setdefault((squares[0][0], squares[0][1]), []).append(str(ruin.get("id", "")))
    for sq, types in enumerate((layout.get("cells") or [])[: GRID * GRID]):
        row, col = divmod(sq, GRID)
        x, y = DIG_X + col * CELL, DIG_Y + row * CELL
        kinds = sorted(set(str(types or "").upper()), key=lambda k: TYPE_ORDER.find(k))
        kinds = kinds or ["?"]
        bw = CELL / len(kinds)
        tags = first_square.get((row, col), [])
        for i, kind in enumerate(kinds):
            x0, x1 = x + i * bw, x + (i + 1) * bw
            _paste_band(c, kind, x0, y, x1, y + CELL)
            if i:
                c.line([(x0, y), (x0, y + CELL)], "#ffffff", 1)
        # one label per square, left to right: each ruin's id on its first square, else the
        # type letters (the bands alone are too thin to label one by one at Discord's size)
        parts = [next((tag for tag in tags if tag[:1] == kind), kind) for kind in kinds]
        while len(parts) > 1 and text_width(" ".join(parts), WORD) > CELL - 6 and any(len(p) == 1 for p in parts):
            # too long to read whole: a type's letter goes first (its band's colour and pattern
            # stay), a ruin's id never (the message names ruins by it)
            parts.remove(next(p for p in reversed(parts) if len(p) == 1))
        label = c.fit(" ".join(parts), WORD, CELL - 6)
        width = min(CELL - 4, 6 + text_width(label, WORD))
        c.rect(x + 2, y + 2, x + 2 + width, y + 2 + WORD + 4, fill="#fffaf0", radius=3)
        c.text(x + 2 + width / 2, y + 4 + WORD / 2, label, WORD, fill=INK, anchor="mm", bold=True, role=NEEDED)
        c.rect(x, y, x + CELL, y + CELL, outline="#5b4a30", width=1)


def _pieces(c: Canvas, view: dict[str, Any]) -> None:
    for cell in view.get("board") or []:
        row, col = int(cell["row"]), int(cell["col"])
        x, y = DIG_X + col * CELL, DIG_Y + row * CELL
        owner = cell.get("owner", -1)
        if isinstance(owner, int) and owner >= 0:
            c.rect(x + 1, y + 1, x + CELL - 1, y + CELL - 1, outline=COLOUR_FILL[owner % 4], width=4)
            c.rect(x + 4.5, y + 4.5, x + CELL - 4.5, y + CELL - 4.5, outline="#1e2430", width=1)
        stack = cell.get("stack") or []
        if stack:
            top = stack[-1]
            piece(c, int(top["colour"]), str(top["rank"]), x + CELL / 2 - 4, y + CELL / 2 + 12,
                  RANK_RADIUS[top["rank"]] + 1)
            # the pieces under the top one, bottom first up the left edge (buildings count them all)
            for i, under in enumerate(stack[:-1][-4:]):
                piece(c, int(under["colour"]), None, x + 7, y + CELL - 7 - i * 9, 4.0)
            if len(stack) > 1:
                hx, hy = x + CELL - 14, y + CELL - 14
                c.circle(hx, hy, 13, fill="#2b2116", outline="#fffaf0", width=1.5)
                c.text(hx, hy + 0.5, str(len(stack)), COUNT, fill="#ffffff", anchor="mm", bold=True, role=COUNTED)


def _slot_box(index: int) -> tuple[float, float, float, float]:
    """Return the box of frame slot ``index`` (the engine's N0..N5, E0..E5, S0..S5, W0..W5)."""
    side, line = divmod(index, GRID)
    if side == 0:
        x = DIG_X + line * CELL
        return (x + 3, DIG_Y - GAP - FRAME, x + CELL - 3, DIG_Y - GAP)
    if side == 1:
        y = DIG_Y + line * CELL
        return (DIG_X + DIG_PX + GAP, y + 3, DIG_X + DIG_PX + GAP + FRAME, y + CELL - 3)
    if side == 2:
        x = DIG_X + line * CELL
        return (x + 3, DIG_Y + DIG_PX + GAP, x + CELL - 3, DIG_Y + DIG_PX + GAP + FRAME)
    y = DIG_Y + line * CELL
    return (DIG_X - GAP - FRAME, y + 3, DIG_X - GAP, y + CELL - 3)


def _frame(c: Canvas) -> None:
    for i in range(GRID):
        c.text(DIG_X + i * CELL + CELL / 2, MARGIN + COORD - 3, COLUMNS[i], WORD, fill="#5a4a2c", anchor="ms",
               bold=True, role=NEEDED)
        c.text(MARGIN + COORD / 2, DIG_Y + i * CELL + CELL / 2, str(i + 1), WORD, fill="#5a4a2c", anchor="mm",
               bold=True, role=NEEDED)
    for index in range(4 * GRID):
        x0, y0, x1, y1 = _slot_box(index)
        c.rect(x0, y0, x1, y1, fill="#ece1c6", outline="#a8926a", width=1.2, radius=6)
        name = start_label("NESW"[index // GRID] + str(index % GRID))
        if index // GRID in (0, 2):  # a wide slot: the name at its left
            c.text(x0 + 4, (y0 + y1) / 2, name, LABEL, fill="#5a4a2c", anchor="lm", bold=True)
        else:  # a tall, narrow slot: the name at its top
            c.text((x0 + x1) / 2, y0 + 4, name, LABEL, fill="#5a4a2c", anchor="ma", bold=True)


def _frame_pieces(c: Canvas, view: dict[str, Any]) -> None:
    frame = view.get("frame") or {}
    for index in range(4 * GRID):
        found = frame.get("NESW"[index // GRID] + str(index % GRID))
        if not found:
            continue
        x0, y0, x1, y1 = _slot_box(index)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if index // GRID in (0, 2):
            cx += 12
        else:
            cy += 8
        piece(c, int(found["colour"]), str(found["rank"]), cx, cy, RANK_RADIUS[found["rank"]])


def player_chip(seat: int, players: int) -> tuple[float, float, float, float]:
    """Return (x, y, width, height) of a player's chip in the column beside the dig."""
    return PANEL_X, CHIP_Y + seat * (CHIP_H + 6), PANEL_W, CHIP_H


def _players(c: Canvas, view: dict[str, Any], names: Sequence[str]) -> None:
    """One chip per player: the whole name, then its colours' shapes and its points; the one to move marked."""
    players = len(names)
    seat_colours = view.get("seat_colours") or [[s] for s in range(players)]
    scores = (view.get("standing") or {}).get("scores") or [0] * players
    active = view.get("seat") if view.get("phase") != "over" else None
    for seat in range(players):
        x, y, w, h = player_chip(seat, players)
        on = seat == active
        c.rect(x, y, x + w, y + h, fill="#fffaf0", outline=ACCENT if on else "#bba77d",
               width=3 if on else 1.2, radius=6)
        c.text(x + 8, y + 17, c.fit(names[seat], WORD, w - 16), WORD, fill=ACCENT if on else INK, anchor="lm",
               bold=True, role=NEEDED)
        cols = seat_colours[seat] if seat < len(seat_colours) else []
        for k, col in enumerate(cols):
            piece(c, int(col), None, x + 18 + k * 24, y + 45, 10)
        points = tr("boards.indus.points", n=scores[seat] if seat < len(scores) else 0)
        c.text(x + w - 8, y + 45, points, COUNT, fill=ACCENT if on else INK, anchor="rm", bold=True, role=COUNTED)


def _die(c: Canvas, x: float, y: float, s: float, value: int) -> None:
    c.rect(x, y, x + s, y + s, fill="#ffffff", outline="#1e2430", width=2, radius=s / 6)
    pips = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
    }.get(value, [])
    for px, py in pips:
        c.circle(x + px * s, y + py * s, s * 0.09, fill="#1e2430")


def warm() -> None:
    """Fill the drawing caches (pieces, bands, words, backgrounds) so the first real board is fast."""
    from engine.indus import GAME as INDUS

    for players in (2, 3, 4):
        board_image(INDUS.view(INDUS.setup(players, 0), None))
