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
from pictures.canvas import Canvas, png_of, quantized
from pictures.lettering import player_names, tr, trn
from pictures.sakkara.motifs import BG, INK, draw_tile, motif_word, tile_sprite
from pictures.sakkara.rack import RACK_WIDTH, rack_canvas, rack_image

__all__ = ["RACK_WIDTH", "SIZE", "board_canvas", "board_image", "panel_box", "private_image", "rack_image",
           "space_label", "warm", "worker_label"]

CELL = 80
MARGIN = 12
LABEL = 20
HEADER = 46
BOARD_X = MARGIN + LABEL
BOARD_Y = HEADER + LABEL
BOARD_PX = CELL * BOARD_SIDE
PANEL_X = BOARD_X + BOARD_PX + 16
PANEL_W = 248
WIDTH = PANEL_X + PANEL_W + MARGIN
STRIP_Y = BOARD_Y + BOARD_PX + 12
HEIGHT = STRIP_Y + 78
SIZE = (WIDTH, HEIGHT)
"""Pixel size of every board image."""

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
    body = [(cx - 20, cy + 22), (cx - 13, cy), (cx + 13, cy), (cx + 20, cy + 22)]
    c.polygon([(x + 2, y + 2) for x, y in body], fill="#6b5a3a")
    c.circle(cx + 2, cy - 10, 11, fill="#6b5a3a")
    c.polygon(body, fill=fill, outline=ink, width=2.5)
    c.circle(cx, cy - 12, 11, fill=fill, outline=ink, width=2.5)
    c.text(cx, cy + 12, worker_label(seat, index), 14, fill=ink, anchor="mm", bold=True)


@lru_cache(maxsize=8)
def _worker(seat: int, index: int) -> Image.Image:
    s = Canvas.sprite(48, 56)
    _draw_worker(s, 24, 28, seat, index)
    return s.image


@lru_cache(maxsize=2)
def _seat_badge(seat: int) -> Image.Image:
    s = Canvas.sprite(30, 36)
    fill, ink = WORKER_FILL[seat], WORKER_TEXT[seat]
    s.polygon([(3, 34), (8, 18), (22, 18), (27, 34)], fill=fill, outline=ink, width=2)
    s.circle(15, 11, 8.5, fill=fill, outline=ink, width=2)
    s.text(15, 27, str(seat + 1), 12, fill=ink, anchor="mm", bold=True)
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
def _stack(top: str, shown: int, word: str | None) -> Image.Image:
    """Return one space's stack as a sprite: cardboard edges of ``shown`` covered tiles, the top face."""
    c = Canvas.sprite(CELL, CELL)
    step = 3
    side = CELL - 12 - step * 4
    bx, by = 6 + step * 4, 6 + step * 4  # bottom tile's top-left
    for k in range(shown, 0, -1):
        ox, oy = bx - step * (shown - k), by - step * (shown - k)
        c.rect(ox, oy, ox + side, oy + side, fill=LAYER, outline="#5e4a2c", width=1, radius=side / 9)
    draw_tile(c, top, bx - step * shown, by - step * shown, side, word)
    return c.image


@lru_cache(maxsize=64)
def _badge(height: int) -> Image.Image:
    """Return the height badge: the climb rule reads heights, so they are never left to counting edges."""
    c = Canvas.sprite(24, 24)
    c.circle(12, 12, 10.5, fill="#3a2c17", outline="#f6f0e1", width=1.5)
    c.text(12, 12.5, str(height), 14 if height < 10 else 12, fill="#ffffff", anchor="mm", bold=True)
    return c.image


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """Return what every board image shares: background, board frame, coordinates, grid."""
    c = Canvas(WIDTH, HEIGHT, BG)
    c.rect(BOARD_X - 3, BOARD_Y - 3, BOARD_X + BOARD_PX + 3, BOARD_Y + BOARD_PX + 3, fill=SAND, outline="#6e5a35",
           width=3)
    for i in range(BOARD_SIDE):
        c.text(BOARD_X + CELL * i + CELL / 2, BOARD_Y - 6, "ABCDEFG"[i], 15, fill="#5a4a2c", anchor="ms", bold=True)
        c.text(BOARD_X - 7, BOARD_Y + CELL * i + CELL / 2, str(i + 1), 15, fill="#5a4a2c", anchor="rm", bold=True)
    for i in range(1, BOARD_SIDE):
        c.line([(BOARD_X + CELL * i, BOARD_Y), (BOARD_X + CELL * i, BOARD_Y + BOARD_PX)], GRID, 1)
        c.line([(BOARD_X, BOARD_Y + CELL * i), (BOARD_X + BOARD_PX, BOARD_Y + CELL * i)], GRID, 1)
    c.rect(MARGIN, STRIP_Y, WIDTH - MARGIN, HEIGHT - 8, fill="#fffaf0", outline="#bba77d", width=1.5, radius=8)
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


def private_image(view: dict[str, Any], names: Sequence[str] | None = None) -> bytes:
    """Return one seat's private picture: the public board with that seat's rack under it (for
    its own DM or ephemeral prompt only)."""
    key = (_key(view), tuple(names or ()), i18n.current_language())
    png = _PRIVATE.get(key)
    if png is not None:  # a prompt redrawn with nothing of its picture changed
        _PRIVATE.move_to_end(key)
        return png
    board, rack = _shared_board(view, names).image, quantized(rack_canvas(view, names).reduced())
    # Put together at output size and in the palette: the board is drawn, reduced and mapped once
    # for every picture of its moment; a 2x reduction never mixes pixels across the seam (an even
    # row) and the palette maps pixel by pixel, so this is the very picture one supersampled
    # canvas would give.
    picture = Image.new("P", (WIDTH, HEIGHT + rack.height), _background_index())
    picture.putpalette(board.getpalette() or [])
    picture.paste(board, (0, 0))
    picture.paste(rack, (0, HEIGHT))
    png = _PRIVATE[key] = png_of(picture)
    while len(_PRIVATE) > 256:  # ~45 KB each
        _PRIVATE.popitem(last=False)
    return png


@lru_cache(maxsize=1)
def _background_index() -> int:
    index = quantized(Image.new("RGB", (1, 1), BG)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


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
_PRIVATE: OrderedDict[tuple[str, tuple[str, ...], str], bytes] = OrderedDict()


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
    c.text(MARGIN, 12, title, 22, fill=INK, bold=True)
    c.text(WIDTH - MARGIN, 16, c.fit(_status(view, seats), 17, WIDTH - 300), 17, fill=ACCENT, anchor="ra",
           bold=True)
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
        # under a worker the word would hide behind the pawn: the icon alone is shown
        word = motif_word(str(top)) if sp not in occupied else None
        c.paste(_stack(str(top), min(height - 1, 4), word), x, y)
        c.paste(_badge(height), x + CELL - 25, y + 1)
    stepped = view.get("stepped", -1)
    for seat in (0, 1):
        for idx, sp in enumerate(workers[seat][:2]):
            if not isinstance(sp, int) or not 0 <= sp < BOARD_SIDE * BOARD_SIDE:
                continue
            row, col = divmod(sp, BOARD_SIDE)
            cx, cy = BOARD_X + col * CELL + CELL - 24.0, BOARD_Y + row * CELL + CELL - 28.0
            if not (board[sp].get("height") if sp < len(board) else 0):  # an empty space: centred
                cx, cy = BOARD_X + col * CELL + CELL / 2, BOARD_Y + row * CELL + CELL / 2
            if phase in ("after", "steal", "discard") and seat == view.get("turn") and idx == stepped:
                c.circle(cx, cy + 2, 23, outline=ACCENT, width=3)
                _arrow(c, cx, cy + 2, view.get("step_dir", ""), 24)
            c.paste(_worker(seat, idx), cx - 24, cy - 28)
    for seat in (0, 1):
        _, top, _, tall = panel_box(seat)
        _panel(c, view, seat, seats, top, tall)
    _used_strip(c, view, seats)
    return c


def panel_box(seat: int) -> tuple[float, float, float, float]:
    """Return (x, y, width, height) of a seat's panel beside the board."""
    return PANEL_X, BOARD_Y + seat * (BOARD_PX // 2 + 4), PANEL_W, BOARD_PX // 2 - 4


def _panel(c: Canvas, view: dict[str, Any], seat: int, names: Sequence[str], y: float, h: float) -> None:
    x, w = PANEL_X, PANEL_W
    active = seat in (view.get("to_move") or [])
    c.rect(x, y, x + w, y + h, fill="#fffaf0", outline=ACCENT if active else "#bba77d", width=3 if active else 1.5,
           radius=8)
    c.paste(_seat_badge(seat), x + 6, y + 3)  # the seat's pawn colour and number, as on the board
    c.text(x + 38, y + 21, c.fit(names[seat], 18, w - 120), 18, fill=INK, anchor="lm", bold=True)
    if active:
        c.rect(x + w - 76, y + 10, x + w - 8, y + 32, fill=ACCENT, radius=6)
        c.text(x + w - 42, y + 21.5, tr("boards.to_move"), 13, fill="#ffffff", anchor="mm", bold=True)
    sizes = view.get("rack_sizes") or [0, 0]
    c.text(x + 12, y + 48, trn("boards.sakkara.rack", sizes[seat]), 15, fill=INK, anchor="lm")
    # displayed ship and grain
    c.text(x + 12, y + 78, tr("boards.sakkara.display"), 15, fill=INK, anchor="lm")
    ships = (view.get("ships") or [0, 0])[seat]
    grains = (view.get("grains") or [0, 0])[seat]
    dx = x + 84
    slots = [("ship", ships >= 1)] + [("grain", grains > i) for i in range(3)]
    for motif, shown in slots:
        if shown:
            c.paste(tile_sprite(motif, 32, False), dx, y + 62)
        else:
            c.rect(dx, y + 62, dx + 32, y + 94, outline="#b9ab8c", width=1.5, radius=4)
            c.line([(dx + 11, y + 78), (dx + 21, y + 78)], "#b9ab8c", 1.5)
        dx += 38
    # pyramid: level 1 is a 3x3 block, level 2 a 2x2 block, level 3 the apex
    pyr: dict[str, int] = dict((view.get("pyramids") or [{}, {}])[seat])
    size = (view.get("pyramid_sizes") or [0, 0])[seat]
    c.text(x + 12, y + 112, tr("boards.sakkara.pyramid", n=size), 15, fill=INK, anchor="lm")
    t = 22
    by = y + 126

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
    blocks = [(l1, l1_pos, 3, "I"), (l2, [(0, 0), (0, 1), (1, 0), (1, 1)], 2, "II"), (l3, [(0, 0)], 1, "III")]
    bx = x + 14
    for tiles, pos, n, roman in blocks:
        top = by + (3 - n) * t / 2
        for built, (r, col) in zip(tiles, pos, strict=True):
            tx, ty = bx + col * t, top + r * t
            if built:
                c.paste(tile_sprite(built, t - 2, False), tx + 1, ty + 1)
            else:
                c.rect(tx + 1, ty + 1, tx + t - 1, ty + t - 1, outline="#c4b590", width=1, radius=3)
        done = sum(1 for m in tiles if m)
        c.text(bx + n * t / 2, by + 3 * t + 14, f"{roman} {done}/{len(tiles)}", 13, fill=INK, anchor="mm")
        bx += n * t + 16
    # this turn so far (the turn's owner only): the level being built, the step, the Horse
    if seat == view.get("turn") and view.get("phase") in ("before", "after", "steal", "discard"):
        notes = []
        level = view.get("level_this_turn") or 0
        if level:
            notes.append(tr("boards.sakkara.building", level="I" * level))
        stepped = view.get("stepped", -1)
        if isinstance(stepped, int) and stepped in (0, 1):
            notes.append(tr("boards.sakkara.stepped", worker=worker_label(seat, stepped),
                            dir=view.get("step_dir", "")))
        if view.get("horse_used"):
            notes.append(tr("boards.sakkara.horse_used"))
        for i, note in enumerate(reversed(notes)):
            c.text(x + 12, y + h - 14 - 18 * i, c.fit(note, 14, w - 20), 14, fill=ACCENT, anchor="lm", bold=True)


def _used_strip(c: Canvas, view: dict[str, Any], names: Sequence[str]) -> None:
    # the apex ends the game at once: a stack still pending then is never placed (answer 12)
    over = view.get("phase") == "over"
    pending = [] if over else list(view.get("pending") or [])
    destroyed = [] if over else list(view.get("destroyed") or [])
    owner = view.get("turn", 0) if view.get("turn") in (0, 1) else 0
    x, y = MARGIN, STRIP_Y
    if not pending and not destroyed:
        c.text(x + 12, y + 16, tr("boards.sakkara.used_none"), 15, fill="#7a6a4a", anchor="lm")
        return
    c.text(x + 12, y + 16, tr("boards.sakkara.used", owner=names[owner], placer=names[1 - owner],
                              n=len(pending) + len(destroyed)), 15, fill=INK, anchor="lm", bold=True)
    tiles = pending + destroyed
    side, gap = 30, 3
    room = int((WIDTH - 2 * MARGIN - 24 - 90) // (side + gap))
    tx = x + 12
    c.text(tx, y + 47, tr("boards.bottom"), 12, fill="#7a6a4a", anchor="lm")
    tx += 46
    skipped = max(0, len(tiles) - room)
    if skipped:
        c.text(tx, y + 47, f"+{skipped}…", 13, fill=INK, anchor="lm")
        tx += 34
    for i, motif in enumerate(tiles[skipped:], start=skipped):
        if i == len(pending) and destroyed:
            c.line([(tx - 1, y + 30), (tx - 1, y + 64)], ACCENT, 2)
            tx += 3
        c.paste(tile_sprite(motif, side, False), tx, y + 32)
        tx += side + gap
    c.text(tx + 4, y + 47, tr("boards.top"), 12, fill="#7a6a4a", anchor="lm")



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
