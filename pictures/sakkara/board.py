"""Sakkara images: the public board (from ``GAME.view(state, None)``) and one seat's private rack.

The board image reads only keys of the public view, so nothing a rack holds can reach it; the
rack image is for its owner's DM or ephemeral reply only. Spaces are named as the image prints
them (:func:`space_label`: columns A–G left to right, rows 1–7 top to bottom), and so are the
workers (:func:`worker_label`: ``1A``/``1B`` of player 1, ``2A``/``2B`` of player 2), so that
menus can use the same names.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image

import i18n
from engine.sakkara.tiles import BOARD_SIDE, MOTIFS
from pictures.canvas import COUNTED, NEEDED, Canvas, png_of, quantized, text_width
from pictures.lettering import player_names, tr
from pictures.sakkara.motifs import BG, INK, draw_tile, tile_sprite
from pictures.sakkara.rack import RACK_WIDTH, rack_image

__all__ = ["RACK_WIDTH", "SIZE", "board_canvas", "board_image", "panel_box", "private_pictures", "rack_image",
           "space_label", "warm", "worker_label"]

CELL = 58
MARGIN = 8
LABEL = 20
HEADER = 34
BOARD_X = MARGIN + LABEL
BOARD_Y = HEADER + LABEL
BOARD_PX = CELL * BOARD_SIDE
PANEL_X = BOARD_X + BOARD_PX + 12
WIDTH = 640
PANEL_W = WIDTH - MARGIN - PANEL_X
PANEL_Y = HEADER + 6
PANEL_H = 168
HEIGHT = 480
STRIP_Y = PANEL_Y + 2 * PANEL_H + 8
SIZE = (WIDTH, HEIGHT)
"""Pixel size of every board image: 4:3, so Discord shows it 400 px wide (``canvas.shown_scale``):
the stacks on the left, each player's pyramid, rack and display and the used tiles on the right."""
WORD = 18
"""The size of every word a player needs (11 px shown at 640 -> 400 px)."""
COUNT = 23
"""The size of every number players count: stack heights, rack sizes, pyramid tiles (14 px shown)."""

SAND = "#e6d5ae"
GRID = "#b59e6e"
LAYER = "#8c7046"
WORKER_FILL = ("#1c1c1c", "#fbfbfb")
WORKER_TEXT = ("#ffffff", "#1c1c1c")
ACCENT = "#d9541e"
PRIVATE_KEYS = frozenset({"rack", "revealed_rack", "seat"})
"""Keys of a seat's view that the public board never reads (it drops them on entry)."""


def space_label(space: int) -> str:
    """Return the name of board space 0–48 as the image shows it (``A1`` top-left, ``G7``)."""
    row, col = divmod(space, BOARD_SIDE)
    return f"{'ABCDEFG'[col]}{row + 1}"


def worker_label(seat: int, index: int) -> str:
    """Return a worker's name as the image prints it: ``1A``, ``1B``, ``2A``, ``2B``."""
    return f"{seat + 1}{'AB'[index]}"


def _draw_worker(c: Canvas, cx: float, cy: float, seat: int, index: int) -> None:
    """A pawn (head and flared body) in the seat's colour: it must not read as a round height
    badge, and black must not read as white at the ~400 px Discord shows a board at."""
    fill, ink = WORKER_FILL[seat], WORKER_TEXT[seat]
    body = [(cx - 19, cy + 21), (cx - 12, cy - 3), (cx + 12, cy - 3), (cx + 19, cy + 21)]
    c.polygon([(x + 2, y + 2) for x, y in body], fill="#6b5a3a")
    c.circle(cx + 2, cy - 12, 8.5, fill="#6b5a3a")
    c.polygon(body, fill=fill, outline=ink, width=2)
    c.circle(cx, cy - 14, 8.5, fill=fill, outline=ink, width=2)
    c.text(cx, cy + 10, worker_label(seat, index), WORD, fill=ink, anchor="mm", bold=True, role=NEEDED)


@lru_cache(maxsize=8)
def _worker(seat: int, index: int) -> Image.Image:
    s = Canvas.sprite(44, 50)
    _draw_worker(s, 22, 26, seat, index)
    return s.image


@lru_cache(maxsize=2)
def _seat_badge(seat: int) -> Image.Image:
    """The seat's pawn colour beside its name (the number is the pawns' first digit: a label)."""
    s = Canvas.sprite(24, 30)
    fill, ink = WORKER_FILL[seat], WORKER_TEXT[seat]
    s.polygon([(2, 28), (6, 14), (18, 14), (22, 28)], fill=fill, outline=ink, width=2)
    s.circle(12, 8, 6.5, fill=fill, outline=ink, width=2)
    s.text(12, 22, str(seat + 1), 11, fill=ink, anchor="mm", bold=True)
    return s.image


def _arrow(c: Canvas, cx: float, cy: float, direction: str, dist: float) -> None:
    dx, dy = {"E": (1, 0), "W": (-1, 0), "N": (0, -1), "S": (0, 1)}.get(direction, (0, 0))
    if not (dx or dy):
        return
    tip = (cx + dx * (dist + 9), cy + dy * (dist + 9))
    base = (cx + dx * dist, cy + dy * dist)
    side = (-dy * 6, dx * 6)
    c.polygon([tip, (base[0] + side[0], base[1] + side[1]), (base[0] - side[0], base[1] - side[1])], fill=ACCENT)


@lru_cache(maxsize=256)
def _stack(top: str, shown: int) -> Image.Image:
    """Return one space's stack as a sprite: cardboard edges of ``shown`` covered tiles, the top face
    (its icon alone: a word fitting a space could not be read where Discord shows the board)."""
    c = Canvas.sprite(CELL, CELL)
    step = 2.5
    side = 36
    bx, by = 4 + step * 4, CELL - 4 - side  # bottom tile's top-left: the height badge has the top right
    for k in range(shown, 0, -1):
        ox, oy = bx - step * (shown - k), by - step * (shown - k)
        c.rect(ox, oy, ox + side, oy + side, fill=LAYER, outline="#5e4a2c", width=1, radius=side / 9)
    draw_tile(c, top, bx - step * shown, by - step * shown, side)
    return c.image


@lru_cache(maxsize=64)
def _badge(height: int) -> Image.Image:
    """Return the height badge: the climb rule reads heights, so they are never left to counting edges."""
    wide = 10 if height >= 10 else 0
    c = Canvas.sprite(28 + wide, 28)
    c.rect(1, 1, 27 + wide, 27, fill="#3a2c17", outline="#f6f0e1", width=1.5, radius=13)
    c.text(14 + wide / 2, 14.5, str(height), COUNT, fill="#ffffff", anchor="mm", bold=True, role=COUNTED)
    return c.image


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """Return what every board image shares: background, board frame, coordinates, grid."""
    c = Canvas(WIDTH, HEIGHT, BG)
    c.rect(BOARD_X - 3, BOARD_Y - 3, BOARD_X + BOARD_PX + 3, BOARD_Y + BOARD_PX + 3, fill=SAND, outline="#6e5a35",
           width=3)
    for i in range(BOARD_SIDE):  # the spaces' names in every menu: words a player needs
        c.text(BOARD_X + CELL * i + CELL / 2, BOARD_Y - 5, "ABCDEFG"[i], WORD, fill="#5a4a2c", anchor="ms",
               bold=True, role=NEEDED)
        c.text(BOARD_X - 7, BOARD_Y + CELL * i + CELL / 2, str(i + 1), WORD, fill="#5a4a2c", anchor="rm", bold=True,
               role=NEEDED)
    for i in range(1, BOARD_SIDE):
        c.line([(BOARD_X + CELL * i, BOARD_Y), (BOARD_X + CELL * i, BOARD_Y + BOARD_PX)], GRID, 1)
        c.line([(BOARD_X, BOARD_Y + CELL * i), (BOARD_X + BOARD_PX, BOARD_Y + CELL * i)], GRID, 1)
    return c.image


def _status(view: dict[str, Any], names: Sequence[str]) -> str:
    phase = view.get("phase", "")
    movers = view.get("to_move") or []
    who = names[movers[0]] if movers and movers[0] in (0, 1) else ""
    owner = names[view.get("turn", 0)]
    if phase == "over":
        builders = [s for s, p in enumerate((view.get("pyramids") or [{}, {}])[:2]) if p.get("apex")]
        return tr("boards.sakkara.over." + (view.get("ended") or "apex"),
                  who=names[builders[0]] if builders else "")
    if phase == "deal":
        return tr("boards.sakkara.deal")
    return tr(f"boards.sakkara.{phase}", who=who, owner=owner)


def board_image(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """Return a PNG of the public Sakkara view: board, workers, displays, pyramids, used tiles."""
    board = _shared_board(view, names)
    if board.png is None:
        board.png = png_of(board.image)
    return board.png


def private_pictures(view: dict[str, Any], names: Sequence[str] | None = None) -> tuple[bytes, bytes]:
    """Return one seat's pictures for its own DM or ephemeral prompt only: the public board and the
    seat's rack (with the rack its Snake opened). Two pictures, not one: Discord shows each in a
    400 x 300 px box, and the board with the rack under it (868 x 930 px) was shown 280 px wide.
    The board is the public one (the seat's view loses its private keys): drawn once for a move's
    public message and both private prompts."""
    board = _shared_board(view, names)
    if board.png is None:
        board.png = png_of(board.image)
    return board.png, rack_image(view, names)


@dataclass
class _Board:
    """A public board at output size in the palette, and its PNG once one was asked for."""

    image: Image.Image
    png: bytes | None = None


def _key(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, default=str)


def _shared_board(view: dict[str, Any], names: Sequence[str] | None) -> _Board:
    """Return the public board of ``view``, drawn once for a move's public message and the private
    pictures of the same moment (each drew it again: ~50 ms of CPU each)."""
    public = _key({k: v for k, v in view.items() if k not in PRIVATE_KEYS})
    key = (public, tuple(names or ()), i18n.current_language())  # the words on it are the reader's
    board = _BOARDS.get(key)
    if board is None:
        board = _BOARDS[key] = _Board(quantized(board_canvas(view, names).reduced()))
        # Many: in the bot the private pictures of a moment are asked for after its public board,
        # behind the other tables' pictures in the drawing process (with 8, at 300 Sakkara tables
        # most boards were drawn three times). ~0.6 MB each at output size in the palette.
        while len(_BOARDS) > 48:
            _BOARDS.popitem(last=False)
    else:
        _BOARDS.move_to_end(key)
    return board


_BOARDS: OrderedDict[tuple[str, tuple[str, ...], str], _Board] = OrderedDict()


def board_canvas(view: dict[str, Any], names: Sequence[str] | None) -> Canvas:
    """Return the public board drawn on a canvas (the end-of-game picture marks the scoring on it)."""
    # only public keys are read below; dropping the private ones makes that structural
    view = {k: v for k, v in view.items() if k not in PRIVATE_KEYS}
    seats = player_names(names, 2)
    c = Canvas(WIDTH, HEIGHT, base=_base())
    phase = view.get("phase", "")
    turns = view.get("turns") or [0, 0]
    title = "Sakkara"
    if phase not in ("deal", "place", "over"):
        # a round is one turn of each player (seat 0 starts every round)
        title += " · " + tr("boards.round", n=turns[1] + 1)
    c.text(MARGIN, 8, title, WORD, fill="#5a4a2c", bold=True)  # a label: the status says what matters
    room = WIDTH - 2 * MARGIN - text_width(title, WORD) - 16
    c.text(WIDTH - MARGIN, 8, c.fit(_status(view, seats), WORD, room), WORD, fill=ACCENT, anchor="ra", bold=True,
           role=NEEDED)
    workers = view.get("workers") or [[-1, -1], [-1, -1]]
    occupied = {sp for pair in workers for sp in pair}
    board = view.get("board") or []
    for sp, cell in enumerate(board[: BOARD_SIDE * BOARD_SIDE]):
        row, col = divmod(sp, BOARD_SIDE)
        x, y = BOARD_X + col * CELL, BOARD_Y + row * CELL
        height, top = int(cell.get("height") or 0), cell.get("top")
        if height <= 0 or not top:
            c.circle(x + CELL / 2, y + CELL / 2, 2.5, fill=GRID)
            continue
        c.paste(_stack(str(top), min(height - 1, 4)), x, y)
        # top right; under a pawn (which stands at the lower right) top left, clear of its head
        bx = x + 1 if sp in occupied else x + CELL - (29 if height < 10 else 39)
        c.paste(_badge(height), bx, y + 1)
    stepped = view.get("stepped", -1)
    for seat in (0, 1):
        for idx, sp in enumerate(workers[seat][:2]):
            if not isinstance(sp, int) or not 0 <= sp < BOARD_SIDE * BOARD_SIDE:
                continue
            row, col = divmod(sp, BOARD_SIDE)
            # on a stack, the pawn stands at its lower right: the icon and the height stay in sight
            cx, cy = BOARD_X + col * CELL + CELL - 20.0, BOARD_Y + row * CELL + CELL - 24.0
            if not (board[sp].get("height") if sp < len(board) else 0):  # an empty space: centred
                cx, cy = BOARD_X + col * CELL + CELL / 2, BOARD_Y + row * CELL + CELL / 2
            if phase in ("after", "steal", "discard") and seat == view.get("turn") and idx == stepped:
                c.circle(cx, cy + 2, 23, outline=ACCENT, width=3)
                _arrow(c, cx, cy + 2, view.get("step_dir", ""), 24)
            c.paste(_worker(seat, idx), cx - 22, cy - 26)
    for seat in (0, 1):
        _panel(c, view, seat, seats)
    _used_strip(c, view)
    return c


def panel_box(seat: int) -> tuple[float, float, float, float]:
    """Return (x, y, width, height) of a seat's panel beside the board."""
    return PANEL_X, PANEL_Y + seat * (PANEL_H + 4), PANEL_W, PANEL_H - 4


def _panel(c: Canvas, view: dict[str, Any], seat: int, names: Sequence[str]) -> None:
    """A seat's name, hidden rack size, displayed Ship and Grain, and pyramid; the one to move framed."""
    x, y, w, h = panel_box(seat)
    active = seat in (view.get("to_move") or [])
    c.rect(x, y, x + w, y + h, fill="#fffaf0", outline=ACCENT if active else "#bba77d", width=3 if active else 1.5,
           radius=8)
    c.paste(_seat_badge(seat), x + 7, y + 5)  # the seat's pawn colour, as on the board
    c.text(x + 36, y + 20, c.fit(names[seat], WORD, w - 44), WORD, fill=ACCENT if active else INK, anchor="lm",
           bold=True, role=NEEDED)
    # the rack: a tile's back and how many tiles it hides
    sizes = view.get("rack_sizes") or [0, 0]
    ry = y + 44
    c.rect(x + 9, ry + 1, x + 33, ry + 25, fill="#d8c9a6", outline="#8c7046", width=1.5, radius=4)
    c.text(x + 21, ry + 13.5, "?", 15, fill="#8c7046", anchor="mm", bold=True)
    c.text(x + 38, ry + 13, str(sizes[seat]), COUNT, fill=INK, anchor="lm", bold=True, role=COUNTED)
    # displayed ship and grain
    ships = (view.get("ships") or [0, 0])[seat]
    grains = (view.get("grains") or [0, 0])[seat]
    dx = x + w - 4 * 28 - 4
    for motif, shown in [("ship", ships >= 1)] + [("grain", grains > i) for i in range(3)]:
        if shown:
            c.paste(tile_sprite(motif, 25, False), dx, ry)
        else:
            c.rect(dx, ry, dx + 25, ry + 25, outline="#b9ab8c", width=1.5, radius=4)
            c.line([(dx + 8, ry + 12.5), (dx + 17, ry + 12.5)], "#b9ab8c", 1.5)
        dx += 28
    # pyramid: level 1 is a 3x3 block, level 2 a 2x2 block, level 3 the apex; then its tile count
    pyr: dict[str, int] = dict((view.get("pyramids") or [{}, {}])[seat])
    size = (view.get("pyramid_sizes") or [0, 0])[seat]
    t = 17
    by = y + 82

    def level_tiles(groups: Sequence[tuple[tuple[str, ...], int]]) -> list[str | None]:
        out: list[str | None] = []
        for motifs, slots_n in groups:
            got = [m for m in motifs for _ in range(pyr.get(m, 0))][:slots_n]
            out += got + [None] * (slots_n - len(got))
        return out

    l1 = level_tiles([(("corner_stone",), 4), (("stairs",), 2), (("moon", "circle", "double_line"), 3)])
    # corners at the corners, stairs top and bottom middle, glyphs across the middle row
    l1_pos = [(0, 0), (0, 2), (2, 0), (2, 2), (0, 1), (2, 1), (1, 0), (1, 1), (1, 2)]
    l2 = level_tiles([(("cross", "braid", "eye"), 4)])
    l3 = level_tiles([(("apex",), 1)])
    blocks = [(l1, l1_pos, 3), (l2, [(0, 0), (0, 1), (1, 0), (1, 1)], 2), (l3, [(0, 0)], 1)]
    bx = x + 9
    for tiles, pos, n in blocks:
        top = by + (3 - n) * t / 2
        for built, (r, col) in zip(tiles, pos, strict=True):
            tx, ty = bx + col * t, top + r * t
            if built:
                c.paste(tile_sprite(built, t - 2, False), tx + 1, ty + 1)
            else:
                c.rect(tx + 1, ty + 1, tx + t - 1, ty + t - 1, outline="#c4b590", width=1, radius=3)
        bx += n * t + 8
    c.text(x + w - 10, by + 1.5 * t - 4, str(size), COUNT, fill=INK, anchor="rm", bold=True, role=COUNTED)
    c.text(x + w - 10, by + 1.5 * t + 16, "/ 14", 13, fill="#7a6a4a", anchor="rm")  # a label: 14 is always 14
    # this turn so far (the turn's owner only): the level being built, the Horse (the stepped worker
    # is ringed on the board, with its direction)
    if seat == view.get("turn") and view.get("phase") in ("before", "after", "steal", "discard"):
        notes = []
        level = view.get("level_this_turn") or 0
        if level:
            notes.append(tr("boards.sakkara.building", level="I" * level))
        if view.get("horse_used"):
            notes.append(tr("boards.sakkara.horse_used"))
        for i, note in enumerate(reversed(notes)):
            c.text(x + 9, y + h - 14 - 20 * i, c.fit(note, WORD, w - 16), WORD, fill=ACCENT, anchor="lm", bold=True,
                   role=NEEDED)


def _used_strip(c: Canvas, view: dict[str, Any]) -> None:
    """The used tiles waiting to be placed, bottom to top (the status says who places them)."""
    # the apex ends the game at once: a stack still pending then is never placed (answer 12)
    over = view.get("phase") == "over"
    pending = [] if over else list(view.get("pending") or [])
    destroyed = [] if over else list(view.get("destroyed") or [])
    tiles = pending + destroyed
    if not tiles:
        return
    x, y, w = PANEL_X, STRIP_Y, PANEL_W
    c.rect(x, y, x + w, HEIGHT - MARGIN, fill="#fffaf0", outline="#bba77d", width=1.5, radius=8)
    c.text(x + 9, y + 15, c.fit(tr("boards.sakkara.used_stack", n=len(tiles)), WORD, w - 16), WORD, fill=INK,
           anchor="lm", bold=True, role=NEEDED)
    side, gap = 24, 3
    room = int((w - 18) // (side + gap))
    tx = x + 9
    skipped = max(0, len(tiles) - room)
    if skipped:  # the bottom ones: the top of the stack is what is placed first
        room -= 1
        skipped += 1
        c.text(tx, y + 45, f"+{skipped}", WORD, fill=INK, anchor="lm", bold=True, role=NEEDED)
        tx += side + gap
    for i, motif in enumerate(tiles[skipped:], start=skipped):
        if i == len(pending) and destroyed:
            c.line([(tx - 2, y + 30), (tx - 2, y + 60)], ACCENT, 2)
        c.paste(tile_sprite(motif, side, False), tx, y + 33)
        tx += side + gap


def warm() -> None:
    """Fill the drawing caches (tiles, workers, words, background) so the first real board is fast.

    Optional: without it the first board after a start takes ~0.3 s instead of ~30 ms.
    """
    from engine.core import CHANCE, resolve_chance
    from engine.sakkara import GAME as SAKKARA

    state = SAKKARA.setup(2, 0)
    state, _ = SAKKARA.apply(state, CHANCE, resolve_chance(SAKKARA, state))
    view = SAKKARA.view(state, 0)
    board_image(view)
    rack_image({**view, "rack": dict.fromkeys(MOTIFS, 1)})
