"""The Indus image: the 6×6 dig, the 24 start spaces, stacks, secured squares, reserves, the die.

Nothing in Indus is hidden, so the image draws the public view whole. Ruin types are colour
bands with a letter and a pattern each (colour-blind readers go by letter and pattern); player
colours are shapes as well as colours (blue circle, yellow square, green hexagon, red diamond)
with the rank letter inside (W, A, P) and a size that grows with the rank.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from cogs.drawing.canvas import SCALE, Canvas
from cogs.drawing.labels import player_names, tr
from engine.indus.layout import TYPES
from engine.indus.rules import COLOUR_NAMES

__all__ = ["SIZE", "board_image", "square_label", "warm"]

GRID = 6
CELL = 84
FRAME = 46
GAP = 6
MARGIN = 12
HEADER = 46
COORD = 14
DIG_X = MARGIN + COORD + FRAME + GAP
DIG_Y = HEADER + COORD + FRAME + GAP
DIG_PX = GRID * CELL
BLOCK_RIGHT = DIG_X + DIG_PX + GAP + FRAME
BLOCK_BOTTOM = DIG_Y + DIG_PX + GAP + FRAME
PANEL_X = BLOCK_RIGHT + 14
PANEL_W = 258
WIDTH = PANEL_X + PANEL_W + MARGIN
STRIP_Y = BLOCK_BOTTOM + 12
STRIP_ROWS = 4
HEIGHT = STRIP_Y + 30 + STRIP_ROWS * 24 + 10
SIZE = (WIDTH, HEIGHT)
"""Pixel size of every Indus image."""

BG = "#f4efe2"
INK = "#1e2430"
ACCENT = "#d9541e"
TYPE_ORDER = TYPES  # the engine's canonical order of ruin letters
TYPE_FILL = {"B": "#e3a27a", "T": "#bca5da", "C": "#8ec6ec", "W": "#b8b8b8", "R": "#dccb9c", "P": "#b88a5a"}
TYPE_LINE = {"B": "#b8693e", "T": "#7d62a6", "C": "#3f86bd", "W": "#6d6d6d", "R": "#9c8a58", "P": "#7a5530"}
COLOUR_FILL = ("#2a6fd6", "#f2c318", "#2f9a47", "#d2372c")
COLOUR_TEXT = ("#ffffff", "#1e2430", "#ffffff", "#ffffff")
RANK_RADIUS = {"W": 12.5, "A": 15.5, "P": 18.5}


def square_label(row: int, col: int) -> str:
    """Return the name of a dig square as the image shows it: columns A–F, rows 1–6 (``A1`` top-left)."""
    return f"{'ABCDEF'[col]}{row + 1}"


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
    """Draw one piece: its colour's shape, its rank letter inside (if ``rank``)."""
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
        size = text_size or max(9, round(r * 1.05))
        c.text(cx, cy + 0.5, rank, size, fill=COLOUR_TEXT[colour], anchor="mm", bold=True)


@lru_cache(maxsize=512)
def _token_sprite(colour: int, rank: str | None, r: float, text_size: int) -> Image.Image:
    side = 2 * r * 1.2 + 6
    s = Canvas.sprite(side, side)
    _draw_token(s, colour, rank, side / 2, side / 2, r, text_size)
    return s.image


def _piece(c: Canvas, colour: int, rank: str | None, cx: float, cy: float, r: float, text_size: int = 0) -> None:
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
    players = int(view.get("players") or 2)
    seats = player_names(names, players)
    layout = view.get("layout") or {}
    c = Canvas(WIDTH, HEIGHT, base=_base(json.dumps(layout, sort_keys=True)))
    title = "Indus"
    if view.get("phase") not in ("setup", "over") and view.get("turn"):
        title += " · " + tr("boards.turn", n=view["turn"])
    c.text(MARGIN, 12, title, 22, fill=INK, bold=True)
    c.text(WIDTH - MARGIN, 16, c.fit(_status(view, seats), 17, WIDTH - 220), 17, fill=ACCENT, anchor="ra",
           bold=True)
    _pieces(c, view)
    _frame_pieces(c, view)
    _panel(c, view, seats)
    _leaders(c, view)
    return c.png()


@lru_cache(maxsize=4)  # ~9 MB each (supersampled): a few live layouts, not every random one
def _base(layout_json: str) -> Image.Image:
    """Return what stays fixed for a layout: the dig's ruins, the frame, the legend, ruin values."""
    layout = json.loads(layout_json)
    c = Canvas(WIDTH, HEIGHT, BG)
    _dig(c, layout)
    _frame(c)
    _legend(c)
    _ruins(c, layout)
    return c.image


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
            label = next((tag for tag in tags if tag[:1] == kind), kind)
            lx = x0 + (6 if i == 0 else 3)  # clear of a secured square's border
            c.rect(lx, y + 6, lx + 3 + 7.5 * len(label), y + 21, fill="#fffaf0", radius=3)
            c.text(lx + 1.5 + 3.75 * len(label), y + 14, label, 12, fill=INK, anchor="mm", bold=True)
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
            _piece(c, int(top["colour"]), str(top["rank"]), x + CELL / 2, y + CELL / 2 + 4,
                  RANK_RADIUS[top["rank"]] + 2)
            # the pieces under the top one, bottom first (buildings count them all)
            for i, under in enumerate(stack[:-1][-6:]):
                _piece(c, int(under["colour"]), None, x + 9 + i * 10, y + CELL - 9, 4.5)
            if len(stack) > 1:
                hx, hy = x + CELL - 12, y + CELL - 12
                c.circle(hx, hy, 10, fill="#2b2116", outline="#fffaf0", width=1.5)
                c.text(hx, hy + 0.5, str(len(stack)), 13, fill="#ffffff", anchor="mm", bold=True)


def _slot_box(index: int) -> tuple[float, float, float, float]:
    """Return the box of frame slot ``index`` (N0..N5, E0..E5, S0..S5, W0..W5)."""
    side, line = divmod(index, GRID)
    if side == 0:
        x = DIG_X + line * CELL
        return (x + 4, DIG_Y - GAP - FRAME, x + CELL - 4, DIG_Y - GAP)
    if side == 1:
        y = DIG_Y + line * CELL
        return (DIG_X + DIG_PX + GAP, y + 4, DIG_X + DIG_PX + GAP + FRAME, y + CELL - 4)
    if side == 2:
        x = DIG_X + line * CELL
        return (x + 4, DIG_Y + DIG_PX + GAP, x + CELL - 4, DIG_Y + DIG_PX + GAP + FRAME)
    y = DIG_Y + line * CELL
    return (DIG_X - GAP - FRAME, y + 4, DIG_X - GAP, y + CELL - 4)


def _frame(c: Canvas) -> None:
    for i in range(GRID):
        c.text(DIG_X + i * CELL + CELL / 2, HEADER + COORD - 2, "ABCDEF"[i], 14, fill="#5a4a2c", anchor="ms",
               bold=True)
        c.text(MARGIN + COORD / 2, DIG_Y + i * CELL + CELL / 2, str(i + 1), 14, fill="#5a4a2c", anchor="mm",
               bold=True)
    for index in range(4 * GRID):
        name = "NESW"[index // GRID] + str(index % GRID)
        x0, y0, x1, y1 = _slot_box(index)
        c.rect(x0, y0, x1, y1, fill="#ece1c6", outline="#a8926a", width=1.2, radius=6)
        c.text(x0 + 4, y0 + 3, name, 12, fill="#7d6a44", anchor="la")


def _frame_pieces(c: Canvas, view: dict[str, Any]) -> None:
    frame = view.get("frame") or {}
    for index in range(4 * GRID):
        name = "NESW"[index // GRID] + str(index % GRID)
        found = frame.get(name)
        if not found:
            continue
        x0, y0, x1, y1 = _slot_box(index)
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        if index // GRID in (0, 2):
            cx += 8
        else:
            cy += 7
        _piece(c, int(found["colour"]), str(found["rank"]), cx, cy, RANK_RADIUS[found["rank"]])


def _panel(c: Canvas, view: dict[str, Any], names: Sequence[str]) -> None:
    x, w = PANEL_X, PANEL_W
    y = HEADER + 4
    players = len(names)
    seat_colours = view.get("seat_colours") or [[s] for s in range(players)]
    reserve = view.get("reserve") or []
    start = view.get("start_pieces") or []
    prisoners = view.get("prisoners") or []
    standing = view.get("standing") or {}
    scores = standing.get("scores") or [0] * players
    phase = view.get("phase")
    active = view.get("seat") if phase != "over" else None
    for seat in range(players):
        cols = seat_colours[seat] if seat < len(seat_colours) else []
        h = 40 + 24 * len(cols) + 26
        on = seat == active
        c.rect(x, y, x + w, y + h, fill="#fffaf0", outline=ACCENT if on else "#bba77d", width=3 if on else 1.5,
               radius=8)
        for k, col in enumerate(cols):
            _piece(c, int(col), None, x + 16 + k * 20, y + 18, 8)
        nx = x + 16 + 20 * len(cols)
        c.text(nx, y + 18, c.fit(names[seat], 16, w - (nx - x) - 70), 16, fill=INK, anchor="lm", bold=True)
        c.text(x + w - 10, y + 18, tr("boards.indus.points", n=scores[seat] if seat < len(scores) else 0), 15,
               fill=ACCENT if on else INK, anchor="rm", bold=True)
        ly = y + 40
        for col in cols:
            res = reserve[col] if col < len(reserve) else {}
            todo = start[col] if col < len(start) else {}
            c.text(x + 12, ly + 8, tr("boards.indus.colour." + COLOUR_NAMES[col % 4]), 13, fill=INK, anchor="lm")
            tx = x + 64
            # during setup the start pieces still to place matter; afterwards the reserve
            counts, label, tone = (todo, "boards.indus.start", ACCENT) if phase == "setup" else (
                res, "boards.indus.reserve", "#6d5f45")
            c.text(tx, ly + 8, c.fit(tr(label), 12, 48), 12, fill=tone, anchor="lm")
            tx += 50
            for rank in "WAP":
                _piece(c, int(col), rank, tx + 8, ly + 8, 8.5, text_size=10)
                c.text(tx + 19, ly + 8, str(counts.get(rank, 0)), 14, fill=INK, anchor="lm", bold=True)
                tx += 34
            ly += 24
        taken = prisoners[seat] if seat < len(prisoners) else []
        c.text(x + 12, ly + 9, tr("boards.indus.prisoners"), 12, fill="#6d5f45", anchor="lm")
        px = x + 78
        for i, got in enumerate(taken[:10]):
            _piece(c, int(got["colour"]), str(got["rank"]), px + i * 16 + 7, ly + 9, 7.5, text_size=9)
        if len(taken) > 10:
            c.text(px + 10 * 16 + 2, ly + 9, f"+{len(taken) - 10}", 12, fill=INK, anchor="lm", bold=True)
        y += h + 6
    if phase == "over":
        return
    # the die
    y += 2
    die = view.get("die")
    c.rect(x, y, x + w, y + 74, fill="#fffaf0", outline="#bba77d", width=1.5, radius=8)
    _die(c, x + 12, y + 12, 50, die if isinstance(die, int) else 0)
    tx = x + 74
    if isinstance(die, int) and die:
        c.text(tx, y + 18, tr("boards.indus.roll_no", n=view.get("roll") or 1), 15, fill=INK, anchor="lm", bold=True)
        ranks = " ".join(view.get("ranks_allowed") or [])
        if ranks:
            c.text(tx, y + 38, tr("boards.indus.may_move", ranks=ranks), 13, fill=INK, anchor="lm")
        if view.get("reroll_allowed"):
            c.text(tx, y + 56, tr("boards.indus.reroll"), 13, fill=ACCENT, anchor="lm")
    else:
        c.text(tx, y + 37, tr("boards.indus.no_die"), 15, fill="#7a6a4a", anchor="lm")
    y += 82
    pending = view.get("pending")
    if isinstance(pending, dict):
        c.rect(x, y, x + w, y + 30, fill="#fde6d8", outline=ACCENT, width=1.5, radius=8)
        _piece(c, int(pending["colour"]), str(pending["rank"]), x + 18, y + 15, 10, text_size=10)
        c.text(x + 34, y + 15, c.fit(tr("boards.indus.pending"), 12, w - 40), 12, fill=INK, anchor="lm", bold=True)
        y += 38


LEGEND_Y = BLOCK_BOTTOM - 3 * 24 - 18


def _legend(c: Canvas) -> None:
    """Draw the ruin types (band, letter, name) and the rank letters, bottom of the side panel."""
    x, w, y = PANEL_X, PANEL_W, LEGEND_Y
    for i, kind in enumerate(TYPE_ORDER):
        lx = x + (i % 2) * (w // 2)
        ly = y + (i // 2) * 24
        _paste_band(c, kind, lx, ly, lx + 30, ly + 19)
        c.rect(lx, ly, lx + 30, ly + 19, outline="#5b4a30", width=1)
        c.text(lx + 15, ly + 10, kind, 12, fill=INK, anchor="mm", bold=True, stroke="#fffaf0")
        c.text(lx + 36, ly + 10, tr("boards.indus.type." + kind), 13, fill=INK, anchor="lm")
    y += 3 * 24 + 2
    c.text(x, y + 8, c.fit(tr("boards.indus.ranks"), 12, w), 12, fill="#6d5f45", anchor="lm")


def _die(c: Canvas, x: float, y: float, s: float, value: int) -> None:
    c.rect(x, y, x + s, y + s, fill="#ffffff" if value else "#eeeeee", outline="#1e2430", width=2, radius=9)
    pips = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
    }.get(value, [])
    for px, py in pips:
        c.circle(x + px * s, y + py * s, s * 0.085, fill="#1e2430")
    if not value:
        c.text(x + s / 2, y + s / 2, "?", 22, fill="#9a9a9a", anchor="mm", bold=True)


def _ruin_slot(i: int, n: int) -> tuple[float, float]:
    """Return the top-left of ruin entry ``i`` of ``n`` in the strip under the dig."""
    cols = max(6, -(-n // STRIP_ROWS))
    cw = (WIDTH - 2 * MARGIN - 16) / cols
    col, row = divmod(i, STRIP_ROWS)
    return MARGIN + 10 + col * cw, STRIP_Y + 30 + row * 24


def _ruin_value(ruin: dict[str, Any]) -> str:
    value = str(ruin.get("first", 0))
    if "second" in ruin:
        value += f"/{ruin['second']}"
    return value


def _ruins(c: Canvas, layout: dict[str, Any]) -> None:
    ruins = layout.get("ruins") or []
    x, y = MARGIN, STRIP_Y
    c.rect(x, y, WIDTH - MARGIN, HEIGHT - 6, fill="#fffaf0", outline="#bba77d", width=1.5, radius=8)
    for i, ruin in enumerate(ruins[: _ruin_capacity(len(ruins))]):
        rx, ry = _ruin_slot(i, len(ruins))
        rid = str(ruin.get("id", "?"))
        _paste_band(c, rid[:1], rx, ry, rx + 26, ry + 19)
        c.rect(rx, ry, rx + 26, ry + 19, outline="#5b4a30", width=1)
        c.text(rx + 13, ry + 10, rid, 12, fill=INK, anchor="mm", bold=True, stroke="#fffaf0")
        c.text(rx + 31, ry + 10, _ruin_value(ruin), 13, fill=INK, anchor="lm")


def _ruin_capacity(n: int) -> int:
    return max(6, -(-n // STRIP_ROWS)) * STRIP_ROWS


def _leaders(c: Canvas, view: dict[str, Any]) -> None:
    """Mark who would score each ruin if the game ended now (the view's provisional standing)."""
    ruins = (view.get("layout") or {}).get("ruins") or []
    got = (view.get("standing") or {}).get("ruins") or {}
    title = tr("boards.indus.ruins_final" if view.get("phase") == "over" else "boards.indus.ruins")
    c.text(MARGIN + 10, STRIP_Y + 14, title, 14, fill=INK, anchor="lm", bold=True)
    for i, ruin in enumerate(ruins[: _ruin_capacity(len(ruins))]):
        rx, ry = _ruin_slot(i, len(ruins))
        lx = rx + 31 + 8 * len(_ruin_value(ruin)) + 6
        leaders = sorted(got.get(str(ruin.get("id", "?")), {}).items(), key=lambda kv: (-kv[1], kv[0]))
        for colour, points in leaders[:3]:
            _piece(c, int(colour), None, lx, ry + 10, 6)
            c.text(lx + 8, ry + 10, str(points), 12, fill=INK, anchor="lm")
            lx += 14 + 7 * len(str(points))


def warm() -> None:
    """Fill the drawing caches (pieces, bands, words, backgrounds) so the first real board is fast."""
    from engine.indus import GAME as INDUS

    for players in (2, 3, 4):
        board_image(INDUS.view(INDUS.setup(players, 0), None))
